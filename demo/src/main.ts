/**
 * The demo's entry: a small top-down pixi.js game (demo/src/game, demo/src/view) recorded every
 * frame by rewindable (all of it in demo/src/rewind.ts).
 */
import { Application } from 'pixi.js';
import { installDebugHook } from './debugHook';
import { Game } from './game/Game';
import { Hud } from './Hud';
import { attachOverlay, createRewind, recordFrame } from './rewind';
import { DebugPreview } from './view/DebugPreview';
import { GameView } from './view/GameView';
import { Input } from './view/Input';

/** Longest simulated step; slower frames slow the game down rather than tunnel through walls. */
const MAX_STEP = 1 / 30;

async function main(): Promise<void> {
  const app = new Application();
  await app.init({
    resizeTo: window,
    background: 0x1a1e26,
    antialias: false,
    autoDensity: true,
    resolution: Math.min(2, window.devicePixelRatio || 1),
  });
  (document.getElementById('app') as HTMLElement).appendChild(app.canvas);

  const game = new Game();
  const view = new GameView(app, game);
  app.stage.addChild(view.world);
  const rewind = createRewind(game);
  const preview = new DebugPreview(rewind);
  view.debugLayer.addChild(preview.container);
  const input = new Input(app.canvas, game);
  const hud = new Hud(game, rewind, { onChannels: (mask) => (preview.mask = mask) });
  const hooks = attachOverlay(app, view.world, game, rewind, view);
  installDebugHook(app, game, rewind, view, hooks, hud);

  window.addEventListener('keydown', (e) => {
    if (e.code === 'KeyP' && !e.repeat && !(e.target instanceof HTMLInputElement)) game.paused = !game.paused;
  });

  app.ticker.add((ticker) => {
    const realDt = ticker.deltaMS / 1000;
    const dt = Math.min(realDt, MAX_STEP);
    // The one pause check. A paused game is not stepped, recorded or synced to its displays: its
    // state stays exactly as it was, while pixi keeps rendering (the overlay draws the replay).
    if (!game.paused) {
      input.apply(view.world, dt);
      game.update(dt);
      recordFrame(rewind, game, dt);
      view.sync(game);
      view.applyCamera(game);
      preview.update();
      game.flushNotes();
    }
    hud.update(realDt);
  });
}

main().catch((err: unknown) => {
  console.error(err);
  document.body.insertAdjacentHTML('beforeend', `<pre style="color:#f66;padding:16px">${String(err)}</pre>`);
});
