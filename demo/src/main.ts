/**
 * The demo's entry: a small top-down pixi.js game (demo/src/game, demo/src/view) recorded every
 * frame and debugged with the rewind overlay, plus replay files (save, load, drag and drop) shown in
 * the same overlay. Every call into rewindable is in demo/src/rewind/ (recording, the overlay,
 * explosions, replay files) and the game's debug draw in demo/src/game/debugDraw.ts; this file wires
 * them to the page and runs the main loop, with its one pause check.
 */
import { createApp, showStartupError } from './createApp';
import { Banner } from './Banner';
import { Game } from './game/Game';
import { installDemoHook } from './hook/demoHook';
import { startLiveFromUrl } from './liveGame';
import { Hud } from './Hud';
import { ReplayFiles } from './ReplayFiles';
import { attachOverlay } from './rewind/overlay';
import { createRewind, recordFrame } from './rewind/recording';
import { DEMO_BUILD_ID } from './rewind/replayFile';
import { GameView } from './view/GameView';
import { Input } from './view/Input';

/** Longest simulated step; slower frames slow the game down rather than tunnel through walls. */
const MAX_STEP = 1 / 30;

async function main(): Promise<void> {
  const app = await createApp();

  const game = new Game();
  const view = new GameView(app, game);
  app.stage.addChild(view.world);
  const rewind = createRewind(game);
  const input = new Input(app.canvas, game);
  const banner = new Banner();

  // The replay buttons of the HUD and of the panel; `files` exists before any click.
  const save = (): void => files.save();
  const load = (): void => files.pick();
  const hud = new Hud(game, rewind, { onSave: save, onLoad: load });
  const { overlay, inspector } = attachOverlay(app, view.world, game, rewind, view, view.replayFx, {
    onSave: save,
    onLoad: load,
  });
  hud.showOverlay(overlay);
  // The overlay's key help is drawn in the canvas: the page's HUD steps aside while it is shown.
  overlay.onChange((o) => {
    hud.root.style.visibility = o.helpShown ? 'hidden' : '';
  });
  const files = new ReplayFiles({
    overlay,
    banner,
    live: rewind.recorder,
    expectedBuildId: DEMO_BUILD_ID,
    note: () => hud.note,
    fields: () => ({ page: 'demo', crowd: String(game.crowdTarget), steps: String(game.steps) }),
    canReturnToLive: true,
    onShown: null,
  });
  files.installDrop(window);
  // The test hook reaches the overlay's paused view (timeline, presenter...): installed once it has
  // loaded, while the game already runs (a failure is reported by the overlay's onError).
  overlay.ready.then(
    () => installDemoHook(app, game, rewind, view, overlay, files, hud, inspector),
    () => {},
  );
  // ?live=ws://HOST:PORT or ?live=tab streams the recording to a live viewer (&liveCommands=1 lets it command).
  startLiveFromUrl(rewind.recorder, overlay, banner, window.location.search);

  app.ticker.add((ticker) => {
    const realDt = ticker.deltaMS / 1000;
    const dt = Math.min(realDt, MAX_STEP);
    // The one pause check (the overlay's pause contract). A paused game is not stepped, recorded
    // or synced to its displays: its state stays exactly as it was, while pixi keeps rendering and
    // the overlay shows the replay with the game's own display objects.
    if (!overlay.isPaused) {
      input.apply(view.world, dt);
      game.update(dt);
      recordFrame(rewind, game, dt);
      view.sync(game);
      view.applyCamera(game);
      game.flushNotes();
    }
    hud.update(realDt);
  });
}

main().catch(showStartupError);
