/**
 * ═══════════════════════════════════════════════════════════════════════════════════════════════
 *  REWINDABLE INTEGRATION: the only file of the demo that talks to rewindable.
 * ═══════════════════════════════════════════════════════════════════════════════════════════════
 *
 * Everything a game needs for the rewindable debugger is in this file, in the order you would
 * write it. The demo's other files are an ordinary pixi game (demo/src/game, demo/src/view) and
 * page glue (main.ts, viewer.ts) that call the functions below.
 *
 *  1. Create one `Recorder`: a fixed-size ring of frames (memory is allocated once, up front).
 *  2. Register your own debug channels next to the built-in `ai`, `physics` and `animation`.
 *  3. Describe once what does not change per frame: the bone hierarchy of each skeletal kind
 *     (`describeSkeleton`), and the event kinds you will mark on the timeline (`eventKind`).
 *  4. Register static debug geometry once (`staticLayers.set`): the walls and the navigation grid
 *     are drawn from it and are never copied into frames.
 *  5. Each simulated step, `recordFrame`:
 *       beginFrame(time, dt)
 *       describe(id, kind, label)    for each entity life that started (kind re-creates it later)
 *       despawn(id)                  for each entity life that ended
 *       camera(x, y, z, quat, zoom)  the game camera: the world point at the screen centre
 *       entity(id, x, y, z, quat, flags) + bones(id, n, rotations, offsets)   for each entity
 *       event(kind, subject, x, y, z, value)                                    timeline markers
 *       ...debug draw through `recorder.draw` (a `DebugDraw`), on any channel...
 *       endFrame()
 *  6. Attach the overlay (`attachOverlay`): `new RewindOverlay(app, world, binding, recorder, options)`.
 *       - The pause contract: the main loop steps the game only while `!overlay.isPaused`;
 *         `onPause`/`onResume` tell the game (here: `game.paused`, and the view re-syncs on resume).
 *       - The binding: `find(id)` gives the live display of an id (taken over while paused and
 *         restored exactly on resume), `create(kind, id, label)` re-creates a despawned entity from
 *         the game's own display factory, `apply` puts a recorded, interpolated sample on a display
 *         (x, y, angle, the flag tint, then height and the pose from the recorded bones).
 *       - `onPresent` replays particles: explosions are drawn for the viewed position from their
 *         start/end markers alone (`explosionsAt`), forwards or backwards.
 *       - Keys: the game jumps with Space, so while it runs the overlay pauses with P
 *         (`liveKeys: { togglePlay: ['p'] }`); once paused, Space plays/pauses and Esc resumes.
 *       - `new RewindPanel(overlay, { onSave, onLoad })`: the optional lil-gui panel (rewindable/ui).
 *  7. Replay files for bug reports: `saveReplay(recorder, { buildId, platform, note, bookmarks })`
 *     gives the bytes of a `.rwd` file (`saveDemoReplay`); `loadReplay(bytes, { expectedBuildId })`
 *     checks and opens one (`openReplay`: a typed `ReplayError` on a bad file, a warning for a file
 *     from another build); `overlay.showReplay(replay.reader, ...)` shows it (`showReplayFile`) and
 *     `overlay.returnToLive()` drops it. Nothing of a loaded replay is matched to the live game: its
 *     ids and handles belong to another run. `showReplay` never calls `find`; it hides the world
 *     container (every live display with it) and shows each entity of the file through
 *     `create(kind, id, label)`, i.e. re-created from its recorded kind with the same display
 *     factory the game uses (a ball looks like a ball, a mover keeps its colour), pooled per kind;
 *     kinds the demo does not know are drawn as debug shapes by the overlay. The live game and its
 *     recording are never touched, so "return to live" resumes exactly where the game was.
 *  8. The standalone viewer (`attachViewer`, viewer.html): the same overlay with no game, over an
 *     empty world and a recorder that never records; entities are made by kind from a registry
 *     (the demo's factories, or debug shapes for unknown kinds), and Esc does not leave the replay.
 *  9. Reading a recording back (tests and tools): `recordedTransform`, `listLifetimes` and
 *     `shownObjectOf` answer "where was entity N in frame F" and "what shows it now".
 *
 * Game code never imports rewindable: it draws through the `DebugDraw` interface it is handed here
 * (re-exported below with the composite shapes `cone`, `cross` and `stickFigure`), and lists what
 * spawned, despawned and happened; this file turns that into recorder calls.
 *
 * Not re-simulation: the recorder stores state (transforms, bones, flags, debug draw, events), so
 * the game needs no determinism. Replaying particles works because explosions are recorded only as
 * start/end markers and drawn by a stateless function of their age (see `explosionsAt`).
 *
 * The recorder allocates nothing per frame in steady state and never throws into the game: bad input
 * (NaN, duplicate ids, over-budget debug draw) is repaired or dropped and counted in
 * `recorder.stats`. Replay files are the one place errors are thrown: `loadReplay` throws a typed
 * `ReplayError`, which the pages turn into a readable banner (`describeReplayError`).
 */
import {
  Channel, EntityBuffer, EntityFlags, EventBuffer, Recorder, cone, cross, quatToAngleZ, stickFigure, type DebugDraw,
  type FrameReader, type Playback, type RecorderOptions,
} from '../../src/core/index';
import { RewindOverlay, type EntityView } from '../../src/pixi/index';
import {
  REPLAY_FILE_EXTENSION, ReplayError, loadReplay, saveReplay, type LoadedReplay, type ReplaySource,
} from '../../src/replay/index';
import { RewindPanel } from '../../src/ui/index';
import type { Application, Container } from 'pixi.js';
import { TILE } from './game/Arena';
import type { Game } from './game/Game';
import { BONE_COUNT, RIG_PARENTS } from './game/rig';
import { EXPLOSION_DURATION, type Actor, type Entity } from './game/types';

// The debug-draw vocabulary the game uses, handed out from here so game code has one dependency.
export { Channel, EntityFlags, cone, cross, stickFigure };
export type { DebugDraw, LoadedReplay, ReplaySource, RewindOverlay, RewindPanel };

/** The channel indices the game draws to. */
export interface DebugChannels {
  /** Built-in: decisions, vision cones, paths, state labels. */
  readonly ai: number;
  /** Built-in: bounds, velocities, contact points and normals. */
  readonly physics: number;
  /** Built-in: skeletons (stick figures). */
  readonly animation: number;
  /** Registered by the demo: projectiles, pickup radii, blast radii. */
  readonly combat: number;
}

/** What it costs to record, measured each frame. */
export interface RecordCost {
  /** Milliseconds of the last `recordFrame` (everything, debug drawing included). */
  totalMs: number;
  /** Of which the game's own debug drawing (`game.drawDebug`). */
  drawMs: number;
  /** Mean `totalMs` over the last 60 recorded frames, for display. */
  avgMs: number;
  /** The last 60 `totalMs` values (a ring). */
  readonly window: Float64Array;
  /** Frames recorded (indexes the window). */
  frames: number;
}

/** The demo's recorder and how it records. */
export interface Rewind {
  readonly recorder: Recorder;
  /** Where game code draws debug shapes: the recorder's `DebugDraw`. */
  readonly draw: DebugDraw;
  readonly channels: DebugChannels;
  readonly cost: RecordCost;
}

/** Recorder settings of the demo (merged over `DEFAULT_RECORDER_OPTIONS`). */
export const DEMO_RECORDER_OPTIONS: Partial<RecorderOptions> = {
  // 15 s at 60 fps, if the arena holds them: with 5,000 movers a frame is ~120 KB and the 64 MB
  // arena holds ~550 frames (~9 s) instead; the HUD shows what is held.
  maxFrames: 900,
  arenaBytes: 64 * 1024 * 1024,
  // Debug primitives per channel per frame; the spam toggle blows through it on purpose.
  primitiveBudget: 1024,
  // Texts of one channel closer than this merge into a paragraph (clustered agents' labels).
  paragraphRadius: 40,
};

/** Event kinds the demo marks on the timeline. */
export const EVENT_KINDS = ['explosion-start', 'explosion-end', 'hit', 'death', 'pickup'] as const;

/**
 * Steps 1–4: creates the recorder, registers the `combat` channel, describes the skeletons and
 * event kinds, and records the arena's static debug layer.
 *
 * @example
 * const rewind = createRewind(game);
 * app.ticker.add(() => { game.update(dt); recordFrame(rewind, game, dt); });
 */
export function createRewind(game: Game, options: Partial<RecorderOptions> = {}): Rewind {
  const recorder = new Recorder({ ...DEMO_RECORDER_OPTIONS, ...options });

  // 2. Channels: ai, physics and animation exist; add one of our own.
  const channels: DebugChannels = {
    ai: Channel.AI,
    physics: Channel.PHYSICS,
    animation: Channel.ANIMATION,
    combat: recorder.channels.register('combat', { color: 0xff9a3d, budget: 512 }),
  };

  // 3. Once-per-kind descriptions: the bone hierarchy of every skeletal kind, and event names.
  recorder.describeSkeleton('player', RIG_PARENTS);
  recorder.describeSkeleton('agent', RIG_PARENTS);
  for (const kind of EVENT_KINDS) recorder.eventKind(kind);

  // 4. Static geometry: the navigation grid (ai channel) and the walls (physics channel), recorded
  //    once. Layers are drawn in the order they are set: the walls go last, so their outlines stay
  //    visible over the grid lines they share (what a replay without the game's floor shows).
  recorder.staticLayers.set('navgrid', (draw) => {
    const a = game.arena;
    // The navigation grid: its nodes are the floor tiles (walls are in the layer below); draw the cells.
    for (let tx = 1; tx < a.cols; tx++) draw.line(channels.ai, tx * TILE, TILE, 0, tx * TILE, a.height - TILE, 0, 0x4a4128);
    for (let ty = 1; ty < a.rows; ty++) draw.line(channels.ai, TILE, ty * TILE, 0, a.width - TILE, ty * TILE, 0, 0x4a4128);
  });
  recorder.staticLayers.set('arena', (draw) => {
    const a = game.arena;
    for (const b of a.blocks) {
      draw.aabb(channels.physics, b.x0 * TILE, b.y0 * TILE, 0, (b.x1 + 1) * TILE, (b.y1 + 1) * TILE, 0, 0x3f9fd0);
    }
  });

  return { recorder, draw: recorder.draw, channels, cost: { totalMs: 0, drawMs: 0, avgMs: 0, window: new Float64Array(60), frames: 0 } };
}

/**
 * Step 5: records one simulated step of the game. Call it right after `game.update(dt)`, only
 * while the game is not paused (a paused game records nothing: there is nothing new to record).
 */
export function recordFrame(rw: Rewind, game: Game, dt: number): void {
  const t0 = performance.now();
  const r = rw.recorder;
  r.beginFrame(game.time, dt);

  // Lives that began: name them (kind + label). `describe` before the first `entity` of the id is
  // fine: it applies to the life about to start.
  for (const s of game.spawns) r.describe(s.id, s.kind, s.label);
  // Lives that ended: a later entity(id) with the same id would be a new life.
  for (const id of game.despawns) r.despawn(id);

  // The game camera: the world point at the screen centre, its roll as a quaternion about z, zoom.
  const cam = game.camera;
  r.camera(cam.x, cam.y, 0, 0, 0, Math.sin(cam.rotation / 2), Math.cos(cam.rotation / 2), cam.zoom);

  // Entities: position, height z, rotation about z as a quaternion, display flags.
  const target = game.autopilotOn ? game.autopilot.targetId : -1;
  recordEntity(r, game.player, target);
  for (const e of game.agents) recordEntity(r, e, target);
  for (const e of game.bodies) recordEntity(r, e, target);
  for (const e of game.projectiles) recordEntity(r, e, target);
  for (const e of game.pickups) recordEntity(r, e, target);
  // The crowd lives in flat arrays; record it straight from them.
  const c = game.crowd;
  for (let i = 0; i < c.count; i++) {
    const h = c.angle[i] / 2;
    r.entity(c.ids[i], c.x[i], c.y[i], 0, 0, 0, Math.sin(h), Math.cos(h), c.damage[i] > 0 ? EntityFlags.DAMAGED : 0);
  }

  // Events: timeline markers. Explosions are ONLY these two markers; see `explosionsAt`.
  for (const ev of game.events) r.event(ev.kind, ev.subject, ev.x, ev.y, 0, ev.value);

  // Debug draw: the game draws its debug view through the recorder's DebugDraw.
  const t1 = performance.now();
  game.drawDebug(rw.draw, rw.channels);
  const t2 = performance.now();

  r.endFrame();
  const t3 = performance.now();
  const cost = rw.cost;
  cost.totalMs = t3 - t0;
  cost.drawMs = t2 - t1;
  cost.window[cost.frames++ % cost.window.length] = cost.totalMs;
  let sum = 0;
  const n = Math.min(cost.frames, cost.window.length);
  for (let i = 0; i < n; i++) sum += cost.window[i];
  cost.avgMs = sum / n;
}

/** One entity: transform and flags, then (skeletal kinds) its bones, which must follow their entity. */
function recordEntity(r: Recorder, e: Entity, highlighted: number): void {
  let flags = e.damageTimer > 0 ? EntityFlags.DAMAGED : 0;
  if (e.id === highlighted) flags |= EntityFlags.HIGHLIGHTED;
  const h = e.angle / 2;
  r.entity(e.id, e.x, e.y, e.z, 0, 0, Math.sin(h), Math.cos(h), flags);
  if (e.kind === 'player' || e.kind === 'agent') {
    const rig = (e as Actor).rig;
    r.bones(e.id, BONE_COUNT, rig.rot, rig.off);
  }
}

/** Explosions visible at a recorded position; flat arrays, owned by the caller and reused. */
export class ExplosionSample {
  public count = 0;
  public readonly ids = new Int32Array(64);
  /** x, y, size per explosion. */
  public readonly data = new Float32Array(64 * 3);
  /** Age in seconds at the sampled position. */
  public readonly ages = new Float32Array(64);
}

const evScratch = new EventBuffer();
const seenScratch = new Int32Array(256);

/**
 * The explosions to show at a recorded (fractional) frame position of a recording (the live
 * recorder's, a loaded replay's, or any `FrameReader`), from their start/end markers alone. Walks
 * back from the frame over at most `EXPLOSION_DURATION` seconds of recorded time; every start marker whose end marker is not between it and the frame is active, and its age is the
 * recorded time from its start marker to the position, i.e. the effect played forward by |dt| from
 * its start whichever way the playhead moves. An explosion whose start marker was already evicted
 * from the ring is found from its end marker ahead instead (its age is then known to within a
 * frame). Pass each to the stateless `drawExplosion(g, x, y, size, id, age)`; any frame can be
 * shown, in any order. Returns the count (also `out.count`).
 *
 * @example
 * const n = explosionsAt(rewind.recorder, 1234.5, sample); // or a loaded replay, or playback.reader
 * for (let i = 0; i < n; i++) drawExplosion(fx, sample.data[i * 3], sample.data[i * 3 + 1], sample.data[i * 3 + 2], sample.ids[i], sample.ages[i]);
 */
export function explosionsAt(source: FrameReader | { readonly reader: FrameReader }, position: number, out: ExplosionSample): number {
  out.count = 0;
  const reader = 'reader' in source ? source.reader : source;
  // Event kinds by name: a loaded replay numbers them as its recorder did, maybe not as ours does.
  const startKind = reader.eventKinds.indexOf('explosion-start');
  const endKind = reader.eventKinds.indexOf('explosion-end');
  if (reader.frameCount === 0 || startKind < 0) return 0;
  const oldest = reader.oldestFrame, newest = reader.newestFrame;
  const pos = Math.min(newest, Math.max(oldest, position));
  const f0 = Math.floor(pos);
  const frac = pos - f0;
  const t0 = reader.timeOf(f0);
  const now = frac > 0 && f0 < newest ? t0 + (reader.timeOf(f0 + 1) - t0) * frac : t0;
  // Backwards: starts not yet ended at the position. `seen` collects the ends met on the way.
  let seen = 0;
  for (let f = f0; f >= oldest; f--) {
    const tf = reader.timeOf(f);
    if (now - tf > EXPLOSION_DURATION + 0.1) break;
    if (!reader.readEvents(f, evScratch)) break;
    for (let i = 0; i < evScratch.count; i++) {
      const kind = evScratch.kinds[i];
      const id = evScratch.subjects[i] | 0;
      if (kind === endKind) {
        if (seen < seenScratch.length) seenScratch[seen++] = id;
      } else if (kind === startKind && !contains(seenScratch, seen, id)) {
        push(out, id, evScratch.data, i, now - tf);
      }
    }
  }
  // Forwards, only when starts may have been evicted: ends ahead whose start is neither behind
  // (found above) nor ahead (started later) belong to explosions already burning at the position.
  const oldestTime = reader.timeOf(oldest);
  if (now - oldestTime < EXPLOSION_DURATION + 0.1) {
    seen = 0;
    for (let i = 0; i < out.count; i++) if (seen < seenScratch.length) seenScratch[seen++] = out.ids[i];
    for (let f = f0 + 1; f <= newest; f++) {
      const tf = reader.timeOf(f);
      if (tf - now > EXPLOSION_DURATION + 0.1) break;
      if (!reader.readEvents(f, evScratch)) break;
      for (let i = 0; i < evScratch.count; i++) {
        const id = evScratch.subjects[i] | 0;
        if (contains(seenScratch, seen, id)) continue;
        if (seen < seenScratch.length) seenScratch[seen++] = id;
        if (evScratch.kinds[i] === endKind) push(out, id, evScratch.data, i, Math.max(0, EXPLOSION_DURATION - (tf - now)));
      }
    }
  }
  return out.count;
}

function contains(list: Int32Array, n: number, id: number): boolean {
  for (let k = 0; k < n; k++) if (list[k] === id) return true;
  return false;
}

function push(out: ExplosionSample, id: number, data: Float32Array, i: number, age: number): void {
  if (out.count >= out.ids.length) return;
  const n = out.count++;
  out.ids[n] = id;
  out.data[n * 3] = data[i * 4];
  out.data[n * 3 + 1] = data[i * 4 + 1];
  out.data[n * 3 + 2] = data[i * 4 + 3];
  out.ages[n] = Math.max(0, age);
}

// ═══════════════════════════════ 6. the overlay ═══════════════════════════════

/** What `attachOverlay` needs from the demo's view (`GameView`). */
export interface OverlayView {
  /** The live display of an entity id, or null. */
  displayOf(id: number): Container | null;
  /** A display of `kind` made by the game's factory (pooled); `label` and `id` as recorded pick its look. */
  acquire(kind: string, label?: string, id?: number): Container | null;
  /** Gives a display from `acquire` back to its pool. */
  release(display: Container): void;
  /** Height (shadow and scale) and, for skeletal kinds, the pose from bones (`start` -1: none). */
  applyPose(display: Container, z: number, rot: ArrayLike<number>, off: ArrayLike<number>, start: number, count: number): void;
  /** Puts every display back in step with the game's state (called on resume). */
  sync(game: Game): void;
  /** The game's own explosion layer, hidden while the overlay shows recorded explosions. */
  readonly fx: Container;
}

/** Where recorded explosions are drawn while a recording is shown (see `view/ReplayEffects.ts`). */
export interface ExplosionLayer {
  /** Added to the overlay's world layer, above the entities. */
  readonly layer: Container;
  /** Redraws the layer with the explosions of a sample. */
  draw(sample: ExplosionSample): void;
  clear(): void;
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

/**
 * The demo-side pieces the overlay uses, gathered for the debug hook (`window.__demo.hooks`).
 */
export interface OverlayHooks {
  /** The live display object of an entity id, or null when the entity has none now. */
  find(id: number): Container | null;
  /** A display for an entity of `kind` (id and recorded `label`) that no longer exists in the game (pooled). */
  create(kind: string, id: number, label: string | undefined): Container | null;
  /** Gives a display from `create` back to its pool. */
  release(display: Container): void;
  /** Height (shadow and scale) and, for skeletal kinds, the pose from recorded bones. */
  applyPose(display: Container, z: number, boneRotations: ArrayLike<number>, boneOffsets: ArrayLike<number>, boneStart: number, boneCount: number): void;
  /** Draws the explosions visible at a position of the recording the overlay shows (from their markers only). */
  drawExplosions(position: number): void;
  /** The pause contract: the main loop steps the game only while this is false (`overlay.isPaused`). */
  isPaused(): boolean;
  /** Pauses (the overlay shows the newest frame) or resumes the game. */
  setPaused(paused: boolean): void;
}

/** What `attachOverlay` made. */
export interface DemoOverlay {
  readonly overlay: RewindOverlay;
  readonly panel: RewindPanel;
  readonly hooks: OverlayHooks;
}

/**
 * Puts a recorded, interpolated entity on a display: x, y, the angle about z, the tint for its
 * flags (damaged red, highlighted yellow), then height and, for skeletal kinds, the pose from the
 * recorded bones. The binding's `apply` in the demo and the viewer. Allocates nothing.
 *
 * @example
 * new RewindOverlay(app, world, { find, create, apply: (display, v) => applyRecorded(display, v, view) }, recorder);
 */
export function applyRecorded(display: Container, v: EntityView, poser: Pick<OverlayView, 'applyPose'>): void {
  display.x = v.x;
  display.y = v.y;
  display.rotation = v.angle;
  if (display.tint !== v.flagTint) display.tint = v.flagTint;
  const s = v.sample;
  const start = s.boneStart[v.index];
  poser.applyPose(display, v.z, s.boneRotations, s.boneOffsets, start, start >= 0 ? s.boneCount[v.index] : 0);
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
  app: Application, world: Container, game: Game, rw: Rewind, view: OverlayView, effects: ExplosionLayer,
  options: Partial<AttachOverlayOptions> = {},
): DemoOverlay {
  const o: AttachOverlayOptions = { ...DEFAULT_ATTACH_OVERLAY_OPTIONS, ...options };
  // The world container must be the one the view moves as the camera, directly on the stage.
  if (world.parent !== app.stage) throw new Error('demo: the world container must be a child of app.stage');
  const explosions = new ExplosionSample();

  const overlay = new RewindOverlay(app, world, {
    // Live entities: the game's own displays, taken over while paused and restored on resume.
    find: (id) => view.displayOf(id),
    // Despawned entities (and every entity of a loaded replay): re-created by kind, pooled.
    create: (kind, id, label) => view.acquire(kind, label ?? '', id),
    release: (display) => view.release(display),
    apply: (display, v) => applyRecorded(display, v, view),
  }, rw.recorder, {
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
    onPresent: (sample, playback) => {
      explosionsAt(playback.reader, sample.position, explosions);
      effects.draw(explosions);
    },
    onWarning: o.onWarning,
    liveKeys: { togglePlay: ['p'] },
  });
  // Recorded explosions above the entities (the overlay's first layer holds re-created ones).
  overlay.worldOverlay.addChildAt(effects.layer, 1);

  const panel = new RewindPanel(overlay, { onSave: o.onSave, onLoad: o.onLoad });

  const hooks: OverlayHooks = {
    find: (id) => view.displayOf(id),
    create: (kind, id, label) => view.acquire(kind, label ?? '', id),
    release: (display) => view.release(display),
    applyPose: (display, z, rot, off, start, count) => view.applyPose(display, z, rot, off, start, count),
    drawExplosions: (position) => {
      explosionsAt(overlay.reader, position, explosions);
      effects.draw(explosions);
    },
    isPaused: () => overlay.isPaused,
    setPaused: (paused) => {
      if (paused) overlay.pause();
      else overlay.resume();
    },
  };
  return { overlay, panel, hooks };
}

// ═══════════════════════════════ 7. replay files ═══════════════════════════════

/**
 * The demo's build id, stored in every replay it saves and checked when one is loaded (another
 * build loads with a warning). A real game would use its CI build number or commit.
 */
export const DEMO_BUILD_ID = 'rewindable-demo/0.1.0';

/**
 * Where the replay was recorded: the browser, and the view size.
 *
 * @example
 * describePlatform(); // 'Mozilla/5.0 (X11; Linux x86_64) … · view 1280×720 @1x'
 */
export function describePlatform(): string {
  const nav = (globalThis as { navigator?: { userAgent?: string } }).navigator;
  const win = globalThis as { innerWidth?: number; innerHeight?: number; devicePixelRatio?: number };
  const agent = nav?.userAgent ?? 'unknown browser';
  return win.innerWidth !== undefined
    ? `${agent} · view ${win.innerWidth}×${win.innerHeight} @${win.devicePixelRatio ?? 1}x`
    : agent;
}

/**
 * Step 7a: the bytes of a `.rwd` file of what the overlay shows: the live recording (every frame
 * the ring holds, with kinds, channels, static layers and the bookmarks), or, while a loaded
 * replay is shown, that replay again (its build id and platform kept, the note replaced when one is
 * given). Throws a `ReplayError` only for invalid input (e.g. a note over 65,536 characters).
 *
 * @example
 * const bytes = saveDemoReplay(overlay, rewind.recorder, null, 'agent walks through the wall');
 */
export function saveDemoReplay(
  overlay: RewindOverlay, live: ReplaySource, shown: LoadedReplay | null, note: string,
  fields: Readonly<Record<string, string>> = {},
): Uint8Array {
  const bookmarks = overlay.playback.bookmarks.list().map((b) => ({ frame: b.frame, label: b.label }));
  if (overlay.source === 'replay' && shown !== null) {
    return saveReplay(shown, {
      buildId: shown.buildId,
      platform: shown.info.platform,
      note: note.length > 0 ? note : shown.info.note,
      fields: { ...shown.info.fields, ...fields },
      bookmarks,
    });
  }
  return saveReplay(live, { buildId: DEMO_BUILD_ID, platform: describePlatform(), note, fields, bookmarks });
}

/**
 * The download name of a replay saved at `date`: `rewindable-YYYY-MM-DD_HH-MM-SS.rwd` in local time
 * (sorts by date, no characters a file system rejects).
 *
 * @example
 * replayFileName(new Date(2025, 0, 31, 14, 5, 9)); // 'rewindable-2025-01-31_14-05-09.rwd'
 */
export function replayFileName(date: Date): string {
  const two = (n: number): string => String(n).padStart(2, '0');
  const stamp = Number.isNaN(date.getTime())
    ? 'undated'
    : `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}_${two(date.getHours())}-${two(date.getMinutes())}-${two(date.getSeconds())}`;
  return `rewindable-${stamp}${REPLAY_FILE_EXTENSION}`;
}

/**
 * Step 7b: checks and opens a `.rwd` file. Throws a `ReplayError` (typed, with what is wrong and
 * where) on a file that is not a replay, is truncated, corrupt, too large or from a newer format;
 * a file from another build loads with a `BUILD_MISMATCH` warning in `replay.warnings`. Never
 * touches the live recording.
 *
 * @example
 * const replay = openReplay(new Uint8Array(await file.arrayBuffer()));
 * for (const w of replay.warnings) banner.warn(w.message);
 */
export function openReplay(bytes: Uint8Array | ArrayBuffer, expectedBuildId: string | null = DEMO_BUILD_ID): LoadedReplay {
  return loadReplay(bytes, { expectedBuildId });
}

/**
 * Step 7c: shows a loaded replay in the overlay (the game pauses; every entity of the file is
 * re-created by kind, see the header). `overlay.returnToLive()` (or Esc) drops it and resumes.
 *
 * @example
 * showReplayFile(overlay, openReplay(bytes));
 * // later: overlay.returnToLive();
 */
export function showReplayFile(overlay: RewindOverlay, replay: LoadedReplay): void {
  overlay.showReplay(replay.reader, { staticLayers: replay.staticLayers, bookmarks: replay.bookmarks });
}

/** A sentence per `ReplayError` code, for people rather than logs. */
const REPLAY_ERROR_TEXT: Readonly<Record<string, string>> = {
  BAD_MAGIC: 'This is not a rewindable replay file.',
  NEWER_VERSION: 'This replay was saved by a newer version of rewindable: update this page to open it.',
  UNSUPPORTED_VERSION: 'This replay uses a format version this page cannot read.',
  TRUNCATED: 'The file is incomplete: it ends early (an interrupted download or copy?).',
  CORRUPT: 'The file is damaged and cannot be read.',
  CHECKSUM: 'The file is damaged: its frame data does not match its checksum.',
  TOO_LARGE: 'The file is larger than this page accepts.',
  BAD_INPUT: 'The replay could not be saved.',
  UNSUPPORTED_PLATFORM: 'Replay files need a little-endian machine.',
};

/**
 * A readable message for a failure to open or save a replay: a sentence for the kind of problem,
 * then the details (the error's code, where in the file, and what). Anything that is not a
 * `ReplayError` (a failed download, a file that could not be read) gets its own message.
 *
 * @example
 * describeReplayError(new ReplayError('TRUNCATED', 'the file ends inside frame 40', 'frames'));
 * // 'The file is incomplete: it ends early (an interrupted download or copy?) [TRUNCATED at frames: the file ends inside frame 40]'
 */
export function describeReplayError(error: unknown): string {
  if (error instanceof ReplayError) {
    const text = REPLAY_ERROR_TEXT[error.code] ?? 'The replay file could not be read.';
    const where = error.path !== undefined ? ` at ${error.path}` : '';
    return `${text.replace(/\.$/, '')} [${error.code}${where}: ${error.detail}]`;
  }
  const message = error instanceof Error ? error.message : String(error);
  return `The replay could not be opened: ${message}`;
}

/**
 * One line about a loaded replay: frames and seconds held, entities, when and by which build it was
 * saved, the note.
 *
 * @example
 * describeReplay(replay); // '900 frames (15.0 s) · 1203 entities · 21.4 MB · build rewindable-demo/0.1.0 · saved …'
 */
export function describeReplay(replay: LoadedReplay): string {
  const r = replay.reader;
  const frames = r.frameCount;
  const seconds = frames > 1 ? r.timeOf(r.newestFrame) - r.timeOf(r.oldestFrame) : 0;
  let entities = 0;
  const t = r.entities;
  for (let h = 0; h < t.highWater; h++) if (t.used[h] === 1) entities++;
  const mib = (replay.fileBytes / (1024 * 1024)).toFixed(1);
  const parts = [
    `${frames} frames (${seconds.toFixed(1)} s)`,
    `${entities} entities`,
    `${mib} MB`,
    `build ${replay.buildId.length > 0 ? replay.buildId : '(none)'}`,
    `saved ${replay.savedAt}`,
  ];
  if (replay.info.note.length > 0) parts.push(`note: “${replay.info.note}”`);
  return parts.join(' · ');
}

// ═══════════════════════════════ 8. the standalone viewer ═══════════════════════════════

/** How the viewer makes, releases and poses the display of a recorded entity. */
export interface ViewerEntities {
  /** The display of an entity of `kind` (a kind → factory registry); null: the overlay draws a debug shape. */
  create(kind: string, id: number, label: string | undefined): Container | null;
  release(display: Container, kind: string): void;
  applyPose(display: Container, z: number, rot: ArrayLike<number>, off: ArrayLike<number>, start: number, count: number): void;
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

/** What `attachViewer` made. */
export interface ViewerOverlay {
  readonly overlay: RewindOverlay;
  readonly panel: RewindPanel;
}

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
  app: Application, world: Container, entities: ViewerEntities, effects: ExplosionLayer,
  options: Partial<AttachViewerOptions> = {},
): ViewerOverlay {
  const o: AttachViewerOptions = { ...DEFAULT_ATTACH_VIEWER_OPTIONS, ...options };
  const explosions = new ExplosionSample();
  // The smallest ring the recorder accepts: it only gives the overlay an (empty) live source.
  const recorder = new Recorder({ maxFrames: 1, arenaBytes: 1024, maxEntitiesPerFrame: 16 });
  const overlay = new RewindOverlay(app, world, {
    find: () => null,
    create: (kind, id, label) => entities.create(kind, id, label),
    release: (display, kind) => entities.release(display, kind),
    apply: (display, v) => applyRecorded(display, v, entities),
  }, recorder, {
    keys: { resume: [] },
    liveDebugDraw: false,
    onResume: o.onResume,
    onPresent: (sample, playback) => {
      explosionsAt(playback.reader, sample.position, explosions);
      effects.draw(explosions);
    },
    onWarning: o.onWarning,
  });
  overlay.worldOverlay.addChildAt(effects.layer, 1);
  const panel = new RewindPanel(overlay, { title: 'rewindable viewer' });
  for (const c of panel.gui.controllersRecursive()) if (c.property === 'resume') c.hide();
  return { overlay, panel };
}

// ═══════════════════════════════ 9. reading a recording back ═══════════════════════════════

/** An entity as recorded in one frame. */
export interface RecordedTransform {
  x: number;
  y: number;
  /** Rotation about z, radians (from the recorded quaternion). */
  angle: number;
  /** Display flags (`EntityFlags`). */
  flags: number;
  /** The unique id's handle (one per life of the id). */
  handle: number;
}

const readScratch = new EntityBuffer();

/**
 * Where entity `id` was in `frame` of a recording: the life of `id` present in that frame (ids can
 * be reused: each life has its own handle). Null when the frame is not held or the id is absent.
 *
 * @example
 * recordedTransform(overlay.reader, playerId, 1200); // { x, y, angle, flags, handle } or null
 */
export function recordedTransform(reader: FrameReader, id: number, frame: number): RecordedTransform | null {
  if (!Number.isInteger(frame) || !reader.has(frame)) return null;
  const t = reader.entities;
  for (let h = 0; h < t.highWater; h++) {
    if (t.used[h] !== 1 || t.ids[h] !== id || t.spawnFrames[h] > frame) continue;
    const i = reader.indexOf(frame, h);
    if (i < 0) continue;
    if (!reader.readEntities(frame, readScratch, false)) return null;
    return {
      x: readScratch.positions[i * 3],
      y: readScratch.positions[i * 3 + 1],
      angle: quatToAngleZ(readScratch.rotations, i * 4),
      flags: readScratch.flags[i],
      handle: h,
    };
  }
  return null;
}

/** One life of an entity id in a recording. */
export interface Lifetime {
  handle: number;
  id: number;
  kind: string | null;
  /** First and last frame held in which it is present. */
  first: number;
  last: number;
  /** Whether it is present in the newest frame held. */
  existsAtNewest: boolean;
}

/**
 * Every life (unique id) present in at least one frame a playback holds.
 *
 * @example
 * listLifetimes(overlay.playback).filter((l) => !l.existsAtNewest); // despawned since
 */
export function listLifetimes(playback: Playback): Lifetime[] {
  const lt = playback.lifetimes;
  const out: Lifetime[] = [];
  lt.forEach((h) => {
    out.push({ handle: h, id: lt.id(h), kind: lt.kind(h) ?? null, first: lt.firstFrame(h), last: lt.lastFrame(h), existsAtNewest: lt.existsAtNewest(h) });
  });
  return out;
}

/**
 * The display object standing for entity `id` in the frame the overlay shows (a live display it
 * took over, or a re-created one); null when the overlay is not paused, the id is not in the shown
 * frame, or it is drawn as a debug shape. Reads the last presented sample (`overlay.update(0)`
 * presents a seek at once).
 *
 * @example
 * overlay.playback.time.seek(120);
 * overlay.update(0);
 * shownObjectOf(overlay, 42)?.position; // where entity 42 is drawn in frame 120
 */
export function shownObjectOf(overlay: RewindOverlay, id: number): Container | null {
  if (!overlay.isPaused) return null;
  const s = overlay.sample;
  for (let i = 0; i < s.count; i++) {
    if (s.ids[i] === id && s.inNearerFrame(i)) return overlay.presenter.objectOf(s.handles[i]);
  }
  return null;
}
