/**
 * `window.__demo`: a small, stable hook for end-to-end tests (and curious users in the console).
 * What the tests rely on is the contract in tests/e2e/hooks.ts (`E2EDemoHook`; typecheck fails when
 * this hook no longer meets it); the viewer's `window.__viewer` is in viewerHook.ts.
 *
 * @example
 * const id = __demo.ids('agent')[0];
 * __demo.overlay.pause();
 * __demo.overlay.playback.time.seek(__demo.stats().newestFrame - 120);
 * __demo.transform(id);                               // what is on screen for it
 * __demo.recordedAt(id, __demo.stats().newestFrame - 120); // what was recorded
 */
import type { RewindOverlay } from 'rewindable/pixi';
import type { EntityInspector } from 'rewindable/ui';
import type { Application } from 'pixi.js';
import type { Game } from '../game/Game';
import type { Kind } from '../game/types';
import { KINDS } from '../game/types';
import type { Hud } from '../Hud';
import type { ReplayFiles } from '../ReplayFiles';
import type { Rewind } from '../rewind/recording';
import type { GameView } from '../view/GameView';
import { canvasChecksum } from './canvasChecksum';
import {
  displayedTransform,
  listLifetimes,
  recordedTransform,
  shownObjectOf,
  type DisplayedTransform,
  type Lifetime,
  type RecordedTransform,
} from './readBack';

/** The game's side of the pause contract. */
export interface GamePauseHook {
  /** Whether the game is paused (`game.paused`, set by the overlay's `onPause`/`onResume`). */
  isPaused(): boolean;
}

export interface DemoHook {
  readonly app: Application;
  readonly game: Game;
  readonly rewind: Rewind;
  readonly recorder: Rewind['recorder'];
  readonly view: GameView;
  readonly hooks: GamePauseHook;
  readonly kinds: readonly Kind[];
  /** The rewind overlay wired to the game (pause/seek/step/... through `overlay.playback.time`). */
  readonly overlay: RewindOverlay;
  /** The entity inspector beside the paused game. */
  readonly inspector: EntityInspector;
  /**
   * What is on screen for entity `id`, or null when nothing stands for it. While the overlay is
   * paused: the display showing the id in the viewed frame (a live one it took over, or one
   * re-created for a despawned entity); else the live display (hidden when absent from the viewed
   * frame); null for an id of a loaded replay drawn as a debug shape. Live: its display object.
   * While paused, the overlay first presents the current playback position (`overlay.update(0)`).
   */
  transform(id: number): DisplayedTransform | null;
  /** Ids of live entities of a kind (from the game's state). */
  ids(kind: Kind): number[];
  /** Ids that have a display object now, per kind (from the view). */
  displayedIds(kind: Kind): number[];
  /** Pauses (the overlay shows the newest frame) or resumes the game: `overlay.pause()` / `overlay.resume()`. */
  setPaused(paused: boolean): void;
  /** Sets the crowd size (0..5000), applied during the next step. */
  setCrowd(n: number): void;
  setSpam(on: boolean): void;
  /** Recorder cost and ring use. */
  stats(): {
    recordMs: number;
    drawMs: number;
    ringBytes: number;
    arenaBytes: number;
    frames: number;
    newestFrame: number;
    steps: number;
  };
  /**
   * The recorded transform of the entity with numeric id `id` at frame `frame` (the life of `id`
   * present in that frame) from the reader the overlay shows (live recorder or loaded replay).
   */
  recordedAt(id: number, frame: number): RecordedTransform | null;
  /** Every unique id held in the overlay's current reader. */
  lifetimes(): Lifetime[];
  /** The live recording (or the shown replay) as .rwd bytes. */
  saveReplayBytes(): Uint8Array;
  /** Loads .rwd bytes and shows them in the overlay (pauses the game). Throws the ReplayError on a bad file. */
  loadReplayBytes(bytes: Uint8Array): void;
  /** Hash of the canvas RGBA after bringing the overlay up to date and rendering (to detect a change). */
  canvasChecksum(): number;
  /** The live game's pickups and their look (2D display state, issue 19). */
  pickups(): Array<{ id: number; scale: number; alpha: number; popping: boolean }>;
  /** Collects the oldest pickup on the floor as a touch does (it starts to pop); its id, or -1. */
  popPickup(): number;
}

declare global {
  interface Window {
    __demo?: DemoHook;
  }
}

/**
 * Sets `window.__demo` (once the demo is wired).
 *
 * @example
 * const { overlay, inspector } = attachOverlay(...);
 * installDemoHook(app, game, rewind, view, overlay, files, hud, inspector);
 */
export function installDemoHook(
  app: Application,
  game: Game,
  rewind: Rewind,
  view: GameView,
  overlay: RewindOverlay,
  files: ReplayFiles,
  hud: Hud,
  inspector: EntityInspector,
): DemoHook {
  const hook: DemoHook = {
    app,
    game,
    rewind,
    recorder: rewind.recorder,
    view,
    kinds: KINDS,
    overlay,
    inspector,
    hooks: { isPaused: () => game.paused },
    transform(id) {
      // Present the playback position now (a seek shows on the next tick otherwise).
      if (overlay.isPaused) overlay.update(0);
      const shown = shownObjectOf(overlay, id);
      if (shown !== null) return displayedTransform(shown);
      if (overlay.source === 'replay') return null;
      const d = view.displayOf(id);
      return d === null ? null : displayedTransform(d);
    },
    ids: (kind) => game.idsOf(kind),
    displayedIds: (kind) => view.idsOf(kind),
    setPaused(paused) {
      if (paused) overlay.pause();
      else overlay.resume();
    },
    setCrowd(n) {
      game.crowdTarget = Math.max(0, Math.min(5000, Math.floor(n)));
      hud.setCrowd(game.crowdTarget);
    },
    setSpam(on) {
      game.spam = on;
      const box = document.querySelector('[data-id="spam"]') as HTMLInputElement | null;
      if (box !== null) box.checked = on;
    },
    stats() {
      const r = rewind.recorder;
      return {
        recordMs: rewind.cost.avgMs,
        drawMs: rewind.cost.drawMs,
        ringBytes: r.ring.bytesUsed,
        arenaBytes: r.options.arenaBytes,
        frames: r.reader.frameCount,
        newestFrame: r.reader.frameCount > 0 ? r.reader.newestFrame : -1,
        steps: game.steps,
      };
    },
    pickups: () => game.pickups.map((p) => ({ id: p.id, scale: p.scale, alpha: p.alpha, popping: p.popAge >= 0 })),
    popPickup() {
      const p = game.pickups.find((x) => x.popAge < 0);
      if (p === undefined) return -1;
      p.popAge = 0;
      return p.id;
    },
    recordedAt: (id, frame) => recordedTransform(overlay.reader, id, frame),
    lifetimes: () => listLifetimes(overlay.playback),
    saveReplayBytes: () => files.saveBytes(),
    loadReplayBytes(bytes) {
      files.loadBytes(bytes, 'replay (debug hook)');
    },
    canvasChecksum() {
      overlay.update(0);
      return canvasChecksum(app);
    },
  };
  window.__demo = hook;
  return hook;
}
