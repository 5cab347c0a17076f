/**
 * ═══════════════════════════════════════════════════════════════════════════════════════════════
 *  REWINDABLE INTEGRATION: the only file of the demo that talks to rewindable.
 * ═══════════════════════════════════════════════════════════════════════════════════════════════
 *
 * Everything a game needs to record itself for the rewindable debugger is in this file, in the
 * order you would write it:
 *
 *  1. Create one `Recorder`: a fixed-size ring of frames (memory is allocated once, up front).
 *  2. Register your own debug channels next to the built-in `ai`, `physics` and `animation`.
 *  3. Describe once what does not change per frame: the bone hierarchy of each skeletal kind
 *     (`describeSkeleton`), and the event kinds you will mark on the timeline (`eventKind`).
 *  4. Register static debug geometry once (`staticLayers.set`): the walls and the navigation grid
 *     are drawn live from it and are never copied into frames.
 *  5. Each simulated step, `recordFrame`:
 *       beginFrame(time, dt)
 *       describe(id, kind, label)    for each entity life that started (kind re-creates it later)
 *       despawn(id)                  for each entity life that ended
 *       camera(x, y, z, quat, zoom)  the game camera: the world point at the screen centre
 *       entity(id, x, y, z, quat, flags) + bones(id, n, rotations, offsets)   for each entity
 *       event(kind, subject, x, y, z, value)                                    timeline markers
 *       ...debug draw through `recorder.draw` (a `DebugDraw`), on any channel...
 *       endFrame()
 *  6. Attach the overlay (pause, scrub, replay): `attachOverlay` below.
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
 * `recorder.stats`.
 */
import {
  Channel, EntityFlags, EventBuffer, PRIM_AABB, PRIM_ARROW, PRIM_FLOATS, PRIM_LINE, PRIM_POINT, PRIM_SPHERE, PRIM_TEXT,
  PrimitiveBuffer, Recorder, cone, cross, decodePrimitives, stickFigure, type DebugDraw, type RecorderOptions,
} from '../../src/core/index';
import type { Application, Container } from 'pixi.js';
import { TILE } from './game/Arena';
import type { Game } from './game/Game';
import { BONE_COUNT, RIG_PARENTS } from './game/rig';
import { EXPLOSION_DURATION, type Actor, type Entity } from './game/types';

// The debug-draw vocabulary the game uses, handed out from here so game code has one dependency
// (and, for the stand-in preview, how to read recorded primitives back).
export { Channel, EntityFlags, cone, cross, stickFigure };
export type { DebugDraw };
export { PrimitiveBuffer, decodePrimitives, PRIM_AABB, PRIM_ARROW, PRIM_FLOATS, PRIM_LINE, PRIM_POINT, PRIM_SPHERE, PRIM_TEXT };

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

  // 4. Static geometry: walls (physics channel) and the navigation grid (ai channel), recorded once.
  recorder.staticLayers.set('arena', (draw) => {
    const a = game.arena;
    for (const b of a.blocks) {
      draw.aabb(channels.physics, b.x0 * TILE, b.y0 * TILE, 0, (b.x1 + 1) * TILE, (b.y1 + 1) * TILE, 0, 0x2f7fa0);
    }
  });
  recorder.staticLayers.set('navgrid', (draw) => {
    const a = game.arena;
    // The navigation grid: its nodes are the floor tiles (walls are in the layer above); draw the cells.
    for (let tx = 1; tx < a.cols; tx++) draw.line(channels.ai, tx * TILE, TILE, 0, tx * TILE, a.height - TILE, 0, 0x4a4128);
    for (let ty = 1; ty < a.rows; ty++) draw.line(channels.ai, TILE, ty * TILE, 0, a.width - TILE, ty * TILE, 0, 0x4a4128);
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
 * The explosions to show at a recorded (fractional) frame position, from their start/end markers
 * alone. Walks back from the frame over at most `EXPLOSION_DURATION` seconds of recorded time;
 * every start marker whose end marker is not between it and the frame is active, and its age is the
 * recorded time from its start marker to the position, i.e. the effect played forward by |dt| from
 * its start whichever way the playhead moves. An explosion whose start marker was already evicted
 * from the ring is found from its end marker ahead instead (its age is then known to within a
 * frame). Pass each to the stateless `drawExplosion(g, x, y, size, id, age)`; any frame can be
 * shown, in any order. Returns the count (also `out.count`).
 *
 * @example
 * const n = explosionsAt(rewind.recorder, 1234.5, sample);
 * for (let i = 0; i < n; i++) drawExplosion(fx, sample.data[i * 3], sample.data[i * 3 + 1], sample.data[i * 3 + 2], sample.ids[i], sample.ages[i]);
 */
export function explosionsAt(recorder: Recorder, position: number, out: ExplosionSample): number {
  out.count = 0;
  const reader = recorder.reader;
  if (reader.frameCount === 0) return 0;
  const oldest = reader.oldestFrame, newest = reader.newestFrame;
  const pos = Math.min(newest, Math.max(oldest, position));
  const f0 = Math.floor(pos);
  const frac = pos - f0;
  const t0 = reader.timeOf(f0);
  const now = frac > 0 && f0 < newest ? t0 + (reader.timeOf(f0 + 1) - t0) * frac : t0;
  const startKind = recorder.eventKind('explosion-start');
  const endKind = recorder.eventKind('explosion-end');
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

/**
 * The demo-side pieces the overlay needs: find a live entity's display, re-create or release one
 * by kind, pose one from a recorded sample, and draw the explosions of a viewed position.
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
  /** Draws the explosions visible at a recorded position (from their markers only). */
  drawExplosions(position: number): void;
  /** The game's pause contract: the main loop steps the game only while this is false. */
  isPaused(): boolean;
  setPaused(paused: boolean): void;
}

/** What `attachOverlay` needs from the demo's view. */
export interface OverlayView {
  displayOf(id: number): Container | null;
  acquire(kind: string, label?: string): Container | null;
  release(display: Container): void;
  applyPose(display: Container, z: number, rot: ArrayLike<number>, off: ArrayLike<number>, start: number, count: number): void;
  drawExplosionSample(sample: ExplosionSample): void;
}

/**
 * Step 6: attaches the rewindable overlay (pause, scrub, replay with channels; src/pixi, issue 4)
 * to the running demo. The overlay's API is still being written: when it lands, it is created
 * here from `app`, `world` (the container whose transform is the game camera) and the hooks built
 * below. Until then this returns the hooks (the e2e tests reach them through `window.__demo`), and
 * the demo shows the newest recorded frame's channels with its own preview (`view/DebugPreview.ts`).
 */
export function attachOverlay(app: Application, world: Container, game: Game, rw: Rewind, view: OverlayView): OverlayHooks {
  const sample = new ExplosionSample();
  const hooks: OverlayHooks = {
    find: (id) => view.displayOf(id),
    create: (kind, _id, label) => view.acquire(kind, label ?? ''),
    release: (display) => view.release(display),
    applyPose: (display, z, rot, off, start, count) => view.applyPose(display, z, rot, off, start, count),
    drawExplosions: (position) => {
      explosionsAt(rw.recorder, position, sample);
      view.drawExplosionSample(sample);
    },
    isPaused: () => game.paused,
    setPaused: (paused) => {
      game.paused = paused;
    },
  };
  // The world container must be the one the view moves as the camera (the overlay replaces that
  // transform while paused, with the recorded or a manual camera).
  if (world.parent !== app.stage) throw new Error('demo: the world container must be a child of app.stage');
  return hooks;
}
