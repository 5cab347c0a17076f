/**
 * Chrome's sampling CPU profiler through the DevTools protocol, for the overlay's probes
 * (`dragProbe.ts`, `changedFrameProbe.ts`): start, stop, and a summary of where the time went.
 */
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CDPSession } from 'playwright-core';

/** The parts of a `Profiler.Profile` the summary reads. */
export interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    children?: number[];
  }>;
  samples: number[];
  timeDeltas: number[];
}

/** Starts sampling every 100 µs. */
export async function startProfile(cdp: CDPSession): Promise<void> {
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  await cdp.send('Profiler.start');
}

/** Stops sampling and returns the profile. */
export async function stopProfile(cdp: CDPSession): Promise<CpuProfile> {
  const { profile: p } = await cdp.send('Profiler.stop');
  return p as unknown as CpuProfile;
}

/**
 * Prints self and inclusive time per function (name, file, line) as shares of the non-idle samples,
 * leaving out the samples under a function named in `exclude` (a probe's own waits), and writes the whole profile to the system's temporary folder (DevTools opens it).
 *
 * @example
 * summarizeProfile('drag', await stopProfile(cdp), 25, 45);
 */
export function summarizeProfile(
  name: string,
  p: CpuProfile,
  selfRows = 25,
  inclRows = 45,
  exclude: readonly string[] = [],
): void {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const keyOf = (id: number): string => {
    const f = byId.get(id)!.callFrame;
    const file = f.url.split('/').pop()?.split('?')[0] ?? '';
    return `${f.functionName || '(anonymous)'} ${file}:${f.lineNumber + 1}`;
  };
  const self = new Map<string, number>();
  const incl = new Map<string, number>();
  let busy = 0;
  for (let i = 0; i < p.samples.length; i++) {
    const dt = p.timeDeltas[i + 1] ?? 0;
    const node = byId.get(p.samples[i]);
    if (node === undefined) continue;
    const fn = node.callFrame.functionName;
    if (fn === '(idle)' || fn === '(program)' || fn === '(root)') continue;
    let excluded = false;
    for (let id: number | undefined = node.id; id !== undefined && !excluded; id = parent.get(id))
      excluded = exclude.includes(byId.get(id)!.callFrame.functionName);
    if (excluded) continue;
    busy += dt;
    const key = keyOf(node.id);
    self.set(key, (self.get(key) ?? 0) + dt);
    const seen = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
      const k = keyOf(id);
      if (seen.has(k)) continue;
      seen.add(k);
      incl.set(k, (incl.get(k) ?? 0) + dt);
    }
  }
  const pct = (us: number): string => `${((100 * us) / busy).toFixed(1).padStart(5)} %`;
  const top = (m: Map<string, number>, n: number): Array<[string, number]> =>
    [...m]
      .filter(([k]) => !k.startsWith('(root)'))
      .sort((a, b) => b[1] - a[1])
      .slice(0, n);
  console.log(`profile, ${name}: ${(busy / 1000).toFixed(0)} ms busy`);
  for (const [k, us] of top(self, selfRows)) console.log(`  self ${pct(us)}  ${k}`);
  for (const [k, us] of top(incl, inclRows)) console.log(`  incl ${pct(us)}  ${k}`);
  const file = join(tmpdir(), `${name.replace(/[^a-z0-9]+/gi, '-')}-${Date.now()}.cpuprofile`);
  writeFileSync(file, JSON.stringify(p));
  console.log(`  (the whole profile, for DevTools: ${file})`);
}
