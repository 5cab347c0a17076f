/**
 * The page `npx rewindable serve` shows when it has no built viewer to serve: the live sessions,
 * refreshed every second, and how to get the full viewer. No script from elsewhere.
 */
export function minimalViewerPage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>rewindable live</title>
<style>body{font:14px/1.5 ui-monospace,monospace;background:#0e1014;color:#d9dee8;margin:2em}td,th{padding:2px 12px;text-align:left}</style></head>
<body><h1>rewindable live</h1>
<p>This server relays live sessions. The full viewer (timeline, channels, camera, inspector) is the demo's
<code>viewer.html</code>: run <code>npm run build:demo</code> and start <code>npx rewindable serve --viewer dist-demo</code>,
or open <code>viewer.html?live=ws://HOST:PORT</code> from any build of it.</p>
<table><thead><tr><th>game</th><th>build</th><th>started</th><th>connected</th><th>frames</th><th>viewers</th></tr></thead><tbody id="rows"></tbody></table>
<script>
const q = location.search;
async function refresh() {
  try {
    const list = await (await fetch('/sessions' + q)).json();
    document.getElementById('rows').replaceChildren(...list.map((s) => {
      const tr = document.createElement('tr');
      for (const v of [s.game, s.buildId, s.startedAt, s.connected ? 'yes' : 'no', s.frames, s.viewers]) {
        const td = document.createElement('td'); td.textContent = String(v); tr.append(td);
      }
      return tr;
    }));
  } catch {}
}
refresh(); setInterval(refresh, 1000);
</script></body></html>
`;
}
