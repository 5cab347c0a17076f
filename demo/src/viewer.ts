/**
 * The standalone replay viewer (viewer.html): opens a `.rwd` file with no game running, from the
 * file picker, by drag and drop, or from `?file=URL`, and shows it with every playback feature of
 * the overlay (channels, camera, timeline, bookmarks, bones, keyboard, panel). Entities are drawn
 * through a kind → factory registry: the demo's own displays for its kinds, a debug shape for any
 * other kind. The rewindable calls are in demo/src/rewind/ (`attachViewer` in overlay.ts). With
 * `?live=ws://HOST:PORT` or `?live=tab` it follows a running game instead (liveViewer.ts).
 */
import { createApp, showStartupError } from './createApp';
import { Container } from 'pixi.js';
import type { LoadedReplay } from 'rewindable';
import { Banner } from './Banner';
import { KINDS } from './game/types';
import { ReplayFiles } from './ReplayFiles';
import { installViewerHook } from './hook/viewerHook';
import { attachViewer } from './rewind/overlay';
import { DEMO_BUILD_ID, describeReplay } from './rewind/replayFile';
import { debugShape } from './view/debugShape';
import { DisplayFactory } from './view/DisplayFactory';
import { KindRegistry } from './view/KindRegistry';
import { setUpLiveViewer } from './liveViewer';
import { ReplayEffects } from './view/ReplayEffects';

async function main(): Promise<void> {
  const app = await createApp();

  // No game: an empty world container whose transform the overlay sets from the recorded camera.
  const world = new Container({ label: 'viewer-world' });
  app.stage.addChild(world);

  // Kind → factory: the demo's displays for its kinds, a debug shape (ring + heading) for the rest.
  const displays = new DisplayFactory(app.renderer);
  const registry = new KindRegistry<Container>()
    .registerAll(KINDS, (kind, id, label) => displays.acquire(kind, label ?? '', id))
    .fallback((kind) => debugShape(kind));
  const effects = new ReplayEffects();
  const banner = new Banner();

  const { overlay, inspector } = attachViewer(
    app,
    world,
    {
      create: (kind, id, label) => registry.create(kind, id, label),
      release: (display, kind) => {
        if (registry.has(kind)) displays.release(display);
        else display.destroy({ children: true });
      },
      applyPose: (display, z, rot, off, start, count) => displays.applyPose(display, z, rot, off, start, count),
    },
    effects,
    {
      // Nothing to go back to: if the overlay ever leaves the replay, show the file again.
      onResume: () => queueMicrotask(() => files.reshow()),
    },
  );

  const info = document.querySelector('[data-id="info"]') as HTMLElement;
  const empty = document.querySelector('[data-id="empty"]') as HTMLElement;
  const files = new ReplayFiles({
    overlay,
    banner,
    live: null,
    expectedBuildId: DEMO_BUILD_ID,
    note: () => '',
    fields: () => ({}),
    canReturnToLive: false,
    onShown: (replay, name) => {
      empty.style.display = 'none';
      info.textContent = describeFile(replay, name, registry);
    },
  });
  files.installDrop(window);
  (document.querySelector('[data-id="open"]') as HTMLButtonElement).addEventListener('click', () => files.pick());
  // The test hook reaches the overlay's paused view (timeline, presenter...): installed once it has loaded.
  overlay.ready.then(
    () => installViewerHook(app, overlay, files, inspector),
    () => {},
  );
  // Live mode: ?live=ws://HOST:PORT or ?live=tab (or the "attach live" control); see liveViewer.ts.
  const hud = document.getElementById('viewer-hud') as HTMLElement;
  setUpLiveViewer(app, overlay, banner, { hud, empty, info }, window.location.search);

  const url = new URLSearchParams(window.location.search).get('file');
  if (url !== null && url.length > 0) await files.openUrl(url);
}

/** The viewer's info block: the file, what it holds, where it was recorded, kinds shown as debug shapes. */
function describeFile(replay: LoadedReplay, name: string, registry: KindRegistry<Container>): string {
  const lines = [`${name}: ${describeReplay(replay)}`];
  if (replay.info.platform.length > 0) lines.push(`recorded on ${replay.info.platform}`);
  const unknown = replay.entities.kinds.filter((k) => !registry.has(k));
  if (unknown.length > 0) lines.push(`drawn as debug shapes (no factory): ${unknown.join(', ')}`);
  return lines.join('\n');
}

main().catch(showStartupError);
