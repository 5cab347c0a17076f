/**
 * The overlay on the running game (step 6) and on the standalone viewer (step 8).
 *
 * Step 6, `attachOverlay`: `new RewindOverlay(app, world, binding, recorder, options)`.
 *  - The pause contract: the main loop steps the game only while `!overlay.isPaused`;
 *    `onPause`/`onResume` tell the game (here: `game.paused`, and the view re-syncs on resume).
 *  - The binding: `find(id)` gives the live display of an id (taken over while paused and restored
 *    exactly on resume), `create(kind, id, label)` re-creates a despawned entity from the game's own
 *    display factory, `apply` puts a recorded, interpolated sample on a display (x, y, angle, the flag
 *    tint, then height and the pose from the recorded bones).
 *  - `onPresent` replays particles: explosions are drawn for the viewed position from their
 *    start/end markers alone (`explosionsAt`, explosions.ts), forwards or backwards.
 *  - Keys: the game jumps with Space, so while it runs the overlay pauses with P
 *    (`liveKeys: { togglePlay: ['p'] }`); once paused, Space plays/pauses and Esc resumes.
 *  - `new RewindPanel(overlay, { onSave, onLoad })`: the optional lil-gui panel (rewindable/ui).
 *  - `new EntityInspector(overlay)`: the entity inspector (rewindable/ui): click an entity while
 *    paused for its values, graphs over time and custom fields; the list of every life held.
 *
 * Step 8, `attachViewer` (viewer.html): the same overlay with no game, over an empty world and a
 * recorder that never records; entities are made by kind from a registry (the demo's factories, or
 * debug shapes for unknown kinds), and Esc does not leave the replay.
 */
import { Recorder } from 'rewindable';
import { RewindOverlay, type EntityView } from 'rewindable/pixi';
import { EntityInspector, RewindPanel } from 'rewindable/ui';
import type { Application, Container } from 'pixi.js';
import type { Game } from '../game/Game';
import { showPickup } from '../view/pickupArt';
import { presentExplosions, type ExplosionLayer } from './explosions';
import type { Rewind } from './recording';
/** What `attachOverlay` needs from the game's displays (the demo's `GameView`). */
export interface GameDisplays {
  /** The live display of an entity id, or null. */
  displayOf(id: number): Container | null;
  /** A display of `kind` made by the game's factory (pooled); `label` and `id` as recorded pick its look. */
  acquire(kind: string, label?: string, id?: number): Container | null;
  /** Gives a display from `acquire` back to its pool. */
  release(display: Container): void;
  /** Height (shadow and scale) and, for skeletal kinds, the pose from bones (`start` -1: none). */
  applyPose(
    display: Container,
    z: number,
    rot: ArrayLike<number>,
    off: ArrayLike<number>,
    start: number,
    count: number,
  ): void;
  /** Puts every display back in step with the game's state (called on resume). */
  sync(game: Game): void;
  /** The game's own explosion layer, hidden while the overlay shows recorded explosions. */
  readonly fx: Container;
}

/** Settings of `attachOverlay`. */
export interface AttachOverlayOptions {
  /** The panel's "save replay" button (hidden when null). */
  onSave: (() => void) | null;
  /** The panel's "load replay" button (hidden when null). */
  onLoad: (() => void) | null;
  /** Problems the overlay reports (a throwing hook, recording while paused...). */
  onWarning: (message: string) => void;
}

/** The defaults merged under the options given to `attachOverlay`. */
export const DEFAULT_ATTACH_OVERLAY_OPTIONS: Readonly<AttachOverlayOptions> = Object.freeze({
  onSave: null,
  onLoad: null,
  onWarning: (message: string) => console.warn(message),
});

/** What `attachOverlay` and `attachViewer` made. */
export interface AttachedOverlay {
  readonly overlay: RewindOverlay;
  readonly panel: RewindPanel;
  readonly inspector: EntityInspector;
}

/**
 * Puts a recorded, interpolated entity on a display: x, y, the angle about z, the tint for its
 * flags (damaged red, highlighted yellow), then height and, for skeletal kinds, the pose from the
 * recorded bones; for entities with 2D display state (pickups), visibility, scale, alpha and the
 * glint frame. The binding's `apply` in the demo and the viewer. Allocates nothing.
 *
 * @example
 * new RewindOverlay(app, world, { find, create, apply: (display, v) => applyRecorded(display, v, view) }, recorder);
 */
export function applyRecorded(display: Container, v: EntityView, poser: Pick<GameDisplays, 'applyPose'>): void {
  // One call for x and y: pixi marks the display changed once, not once per coordinate.
  display.position.set(v.x, v.y);
  display.rotation = v.angle;
  if (display.tint !== v.flagTint) display.tint = v.flagTint;
  const s = v.sample;
  const start = s.boneStart[v.index];
  poser.applyPose(display, v.z, s.boneRotations, s.boneOffsets, start, start >= 0 ? s.boneCount[v.index] : 0);
  // 2D display state (pickups: the pop and the glint frame), as recorded.
  if (v.hasDisplay) {
    display.visible = v.visible;
    showPickup(display, v.scaleX, v.scaleY, v.alpha, v.texture ?? '');
  }
}

/**
 * Step 6: attaches the rewind overlay and its panel to the running demo. `world` is the container
 * whose transform is the game camera (the overlay replaces it while paused, with the recorded or a
 * manual camera, and restores it exactly on resume).
 *
 * @example
 * const { overlay } = attachOverlay(app, view.world, game, rewind, view, view.replayFx, { onSave, onLoad });
 * app.ticker.add((t) => { if (!overlay.isPaused) { game.update(dt); recordFrame(rewind, game, dt); view.sync(game); } });
 */
export function attachOverlay(
  app: Application,
  world: Container,
  game: Game,
  rw: Rewind,
  view: GameDisplays,
  effects: ExplosionLayer,
  options: Partial<AttachOverlayOptions> = {},
): AttachedOverlay {
  const o: AttachOverlayOptions = { ...DEFAULT_ATTACH_OVERLAY_OPTIONS, ...options };
  // The world container must be the one the view moves as the camera, directly on the stage.
  if (world.parent !== app.stage) throw new Error('demo: the world container must be a child of app.stage');

  const overlay = new RewindOverlay(
    app,
    world,
    {
      // Live entities: the game's own displays, taken over while paused and restored on resume.
      find: (id) => view.displayOf(id),
      // Despawned entities (and every entity of a loaded replay): re-created by kind, pooled.
      create: (kind, id, label) => view.acquire(kind, label ?? '', id),
      release: (display) => view.release(display),
      apply: (display, v) => applyRecorded(display, v, view),
    },
    rw.recorder,
    {
      // The game records itself in its main loop (`recordFrame`), so no `record` hook here.
      onPause: () => {
        game.paused = true;
        view.fx.visible = false; // the recorded explosions are drawn by onPresent instead
      },
      onResume: () => {
        effects.clear();
        view.fx.visible = true;
        view.sync(game); // poses and heights the replay changed, back to the game's state
        game.paused = false;
      },
      // Particles: the explosions burning at the shown position, from their markers alone.
      onPresent: presentExplosions(effects),
      onWarning: o.onWarning,
      liveKeys: { togglePlay: ['p'] },
    },
  );
  // Recorded explosions above the entities (the overlay's first layer holds re-created ones). The
  // world layers exist once the overlay's paused view has loaded (a failure is reported by onError).
  overlay.ready.then(
    () => overlay.worldOverlay.addChildAt(effects.layer, 1),
    () => {},
  );

  const panel = new RewindPanel(overlay, { onSave: o.onSave, onLoad: o.onLoad });
  // The entity inspector: a DOM panel beside the paused game (its help line is the first of H).
  const inspector = new EntityInspector(overlay);

  return { overlay, panel, inspector };
}

/** How the viewer makes, releases and poses the display of a recorded entity. */
export interface ViewerEntities {
  /** The display of an entity of `kind` (a kind → factory registry); null: the overlay draws a debug shape. */
  create(kind: string, id: number, label: string | undefined): Container | null;
  release(display: Container, kind: string): void;
  applyPose(
    display: Container,
    z: number,
    rot: ArrayLike<number>,
    off: ArrayLike<number>,
    start: number,
    count: number,
  ): void;
}

/** Settings of `attachViewer`. */
export interface AttachViewerOptions {
  /** Called if the overlay ever goes back to its (empty) live view, e.g. to show the file again. */
  onResume: (() => void) | null;
  onWarning: (message: string) => void;
}

/** The defaults merged under the options given to `attachViewer`. */
export const DEFAULT_ATTACH_VIEWER_OPTIONS: Readonly<AttachViewerOptions> = Object.freeze({
  onResume: null,
  onWarning: (message: string) => console.warn(message),
});

/**
 * Step 8: the overlay of a replay viewer with no game: an empty `world` container, a recorder that
 * never records, no live entities (`find` finds nothing). Every entity of a replay shown with
 * `showReplayFile` is made by `entities.create` from its kind. Esc is unbound (`keys: { resume: [] }`)
 * so it does not drop to the empty live view; the panel's "resume game" button is hidden.
 *
 * @example
 * const { overlay } = attachViewer(app, world, entities, effects);
 * showReplayFile(overlay, openReplay(bytes, null));
 */
export function attachViewer(
  app: Application,
  world: Container,
  entities: ViewerEntities,
  effects: ExplosionLayer,
  options: Partial<AttachViewerOptions> = {},
): AttachedOverlay {
  const o: AttachViewerOptions = { ...DEFAULT_ATTACH_VIEWER_OPTIONS, ...options };
  // The smallest ring the recorder accepts: it only gives the overlay an (empty) live source.
  const recorder = new Recorder({ maxFrames: 1, arenaBytes: 1024, maxEntitiesPerFrame: 16 });
  const overlay = new RewindOverlay(
    app,
    world,
    {
      find: () => null,
      create: (kind, id, label) => entities.create(kind, id, label),
      release: (display, kind) => entities.release(display, kind),
      apply: (display, v) => applyRecorded(display, v, entities),
    },
    recorder,
    {
      keys: { resume: [] },
      liveDebugDraw: false,
      onResume: o.onResume,
      onPresent: presentExplosions(effects),
      onWarning: o.onWarning,
    },
  );
  overlay.ready.then(
    () => overlay.worldOverlay.addChildAt(effects.layer, 1),
    () => {},
  );
  const panel = new RewindPanel(overlay, { title: 'rewindable viewer' });
  for (const c of panel.gui.controllersRecursive()) if (c.property === 'resume') c.hide();
  const inspector = new EntityInspector(overlay);
  return { overlay, panel, inspector };
}
