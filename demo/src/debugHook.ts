/**
 * `window.__demo`: a small, stable hook for end-to-end tests (and curious users in the console).
 *
 * @example
 * const id = __demo.ids('agent')[0];
 * __demo.transform(id); // { x, y, rotation, visible, tint } of what is on screen, or null
 */
import type { Application } from 'pixi.js';
import type { Game } from './game/Game';
import type { Kind } from './game/types';
import { KINDS } from './game/types';
import type { Hud } from './Hud';
import type { OverlayHooks, Rewind } from './rewind';
import type { GameView } from './view/GameView';

/** The displayed transform of an entity. */
export interface DisplayedTransform {
  x: number;
  y: number;
  rotation: number;
  visible: boolean;
  tint: number;
}

export interface DemoHook {
  readonly app: Application;
  readonly game: Game;
  readonly rewind: Rewind;
  readonly recorder: Rewind['recorder'];
  readonly view: GameView;
  readonly hooks: OverlayHooks;
  readonly kinds: readonly Kind[];
  /** What is on screen for entity `id` (its display object), or null when it has none. */
  transform(id: number): DisplayedTransform | null;
  /** Ids of live entities of a kind (from the game's state). */
  ids(kind: Kind): number[];
  /** Ids that have a display object now, per kind (from the view). */
  displayedIds(kind: Kind): number[];
  /** Freezes or continues the simulation (the renderer keeps running). */
  setPaused(paused: boolean): void;
  /** Sets the crowd size (0..5000), applied during the next step. */
  setCrowd(n: number): void;
  setSpam(on: boolean): void;
  /** Recorder cost and ring use. */
  stats(): { recordMs: number; drawMs: number; ringBytes: number; arenaBytes: number; frames: number; newestFrame: number; steps: number };
}

declare global {
  interface Window {
    __demo?: DemoHook;
  }
}

export function installDebugHook(app: Application, game: Game, rewind: Rewind, view: GameView, hooks: OverlayHooks, hud: Hud): DemoHook {
  const hook: DemoHook = {
    app, game, rewind, recorder: rewind.recorder, view, hooks, kinds: KINDS,
    transform(id) {
      const d = view.displayOf(id);
      if (d === null) return null;
      return { x: d.x, y: d.y, rotation: d.rotation, visible: d.visible && d.parent !== null, tint: d.tint };
    },
    ids: (kind) => game.idsOf(kind),
    displayedIds: (kind) => view.idsOf(kind),
    setPaused(paused) {
      game.paused = paused;
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
        recordMs: rewind.cost.avgMs, drawMs: rewind.cost.drawMs, ringBytes: r.ring.bytesUsed, arenaBytes: r.options.arenaBytes,
        frames: r.reader.frameCount, newestFrame: r.reader.frameCount > 0 ? r.reader.newestFrame : -1, steps: game.steps,
      };
    },
  };
  window.__demo = hook;
  return hook;
}
