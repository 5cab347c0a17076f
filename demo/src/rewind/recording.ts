/**
 * Recording the demo game (steps 1–5 of the integration; see docs/getting-started.md's walkthrough).
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
 *         + fields(id, schema, values)   the kind's custom fields (declared once, `declareFields`)
 *       event(kind, subject, x, y, z, value)                                    timeline markers
 *       ...the game's debug draw through `recorder.draw` (a `DebugDraw`), on any channel...
 *       endFrame()
 *
 * Game code draws through the `DebugDraw` it is handed (demo/src/game/debugDraw.ts) and lists what
 * spawned, despawned and happened; this file turns that into recorder calls. Not re-simulation: the
 * recorder stores state (transforms, bones, flags, debug draw, events), so the game needs no
 * determinism. The recorder allocates nothing per frame in steady state and never throws into the
 * game: bad input (NaN, duplicate ids, over-budget debug draw) is repaired or dropped and counted in
 * `recorder.stats`.
 */
import { Channel, EntityFlags, type FieldSchema, Recorder, type RecorderOptions } from 'rewindable';
import { TILE } from '../game/Arena';
import type { DebugChannels, DebugDraw } from '../game/debugDraw';
import type { Game } from '../game/Game';
import { BONE_COUNT, RIG_PARENTS } from '../game/rig';
import type { Actor, Agent, Entity, Pickup } from '../game/types';
import { recordPickupDisplay } from './pickupDisplay';

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
  /** The custom fields each kind records (the inspector shows and graphs them). */
  readonly fields: DemoFields;
}

/** The demo's field schemas, and one reusable row of values each (filled per entity, never allocated). */
export interface DemoFields {
  readonly agent: FieldSchema;
  readonly player: FieldSchema;
  readonly ball: FieldSchema;
  readonly crate: FieldSchema;
  readonly agentValues: Float64Array;
  readonly playerValues: Float64Array;
  readonly bodyValues: Float64Array;
  /** The player's id (an agent's target while it chases or attacks). */
  playerId: number;
  /** The game's input this step, and whether the autopilot plays. */
  input: Game['input'] | null;
  autopilot: boolean;
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

  // 3b. Custom fields, declared once per kind: the game's own per-entity values, recorded each frame
  //     (`recordFields`) and shown by the inspector with a graph over time per number.
  const body = { velocity: 'vec3', sleeping: 'bool' } as const;
  const agent = recorder.declareFields('agent', {
    health: 'f32',
    stamina: 'u8',
    state: 'enum',
    target: 'entity',
    velocity: 'vec3',
  });
  const player = recorder.declareFields('player', {
    health: 'f32',
    move: 'vec3',
    jump: 'bool',
    fire: 'bool',
    autopilot: 'bool',
    grounded: 'bool',
    velocity: 'vec3',
  });
  const fields: DemoFields = {
    agent,
    player,
    ball: recorder.declareFields('ball', body),
    crate: recorder.declareFields('crate', body),
    agentValues: new Float64Array(agent.slots),
    playerValues: new Float64Array(player.slots),
    bodyValues: new Float64Array(4),
    playerId: -1,
    input: null,
    autopilot: false,
  };

  // 4. Static geometry: the navigation grid (ai channel) and the walls (physics channel), recorded
  //    once. Layers are drawn in the order they are set: the walls go last, so their outlines stay
  //    visible over the grid lines they share (what a replay without the game's floor shows).
  recorder.staticLayers.set('navgrid', (draw) => {
    const a = game.arena;
    // The navigation grid: its nodes are the floor tiles (walls are in the layer below); draw the cells.
    for (let tx = 1; tx < a.cols; tx++)
      draw.line(channels.ai, tx * TILE, TILE, 0, tx * TILE, a.height - TILE, 0, 0x4a4128);
    for (let ty = 1; ty < a.rows; ty++)
      draw.line(channels.ai, TILE, ty * TILE, 0, a.width - TILE, ty * TILE, 0, 0x4a4128);
  });
  recorder.staticLayers.set('arena', (draw) => {
    const a = game.arena;
    for (const b of a.blocks) {
      draw.aabb(channels.physics, b.x0 * TILE, b.y0 * TILE, 0, (b.x1 + 1) * TILE, (b.y1 + 1) * TILE, 0, 0x3f9fd0);
    }
  });

  return {
    recorder,
    draw: recorder.draw,
    channels,
    fields,
    cost: { totalMs: 0, drawMs: 0, avgMs: 0, window: new Float64Array(60), frames: 0 },
  };
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
  const fields = rw.fields;
  fields.playerId = game.player.id;
  fields.input = game.input;
  fields.autopilot = game.autopilotOn;
  recordEntity(r, game.player, target, fields);
  for (const e of game.agents) recordEntity(r, e, target, fields);
  for (const e of game.bodies) recordEntity(r, e, target, fields);
  for (const e of game.projectiles) recordEntity(r, e, target, fields);
  for (const e of game.pickups) recordEntity(r, e, target, fields);
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

/**
 * One entity: transform and flags, then (skeletal kinds) its bones and its custom fields, which
 * follow their entity.
 */
function recordEntity(r: Recorder, e: Entity, highlighted: number, fields: DemoFields): void {
  let flags = e.damageTimer > 0 ? EntityFlags.DAMAGED : 0;
  if (e.id === highlighted) flags |= EntityFlags.HIGHLIGHTED;
  const h = e.angle / 2;
  r.entity(e.id, e.x, e.y, e.z, 0, 0, Math.sin(h), Math.cos(h), flags);
  if (e.kind === 'player' || e.kind === 'agent') {
    const rig = (e as Actor).rig;
    r.bones(e.id, BONE_COUNT, rig.rot, rig.off);
  } else if (e.kind === 'pickup') {
    // 2D display state: the pop (scale, alpha) and the glint frame.
    recordPickupDisplay(r, e as Pickup);
  }
  recordFields(r, e, fields);
}

/** Below this speed (world units a second) a body on the floor counts as sleeping. */
const SLEEP_SPEED = 1;

/**
 * The custom fields of one entity (after its `entity` call): one reusable row of values per kind,
 * in declaration order (a vec3 takes three slots, a bool 0 or 1, an enum its name's code, an
 * entity reference the other entity's id or -1).
 */
function recordFields(r: Recorder, e: Entity, f: DemoFields): void {
  if (e.kind === 'agent') {
    const a = e as Agent;
    const v = f.agentValues;
    v[0] = a.hp;
    v[1] = Math.round(a.stamina);
    v[2] = f.agent.code(a.state);
    v[3] = a.state === 'chase' || a.state === 'attack' ? f.playerId : -1;
    v[4] = a.vx;
    v[5] = a.vy;
    v[6] = a.vz;
    r.fields(a.id, f.agent, v);
  } else if (e.kind === 'player') {
    const v = f.playerValues;
    const input = f.input;
    v[0] = e.hp;
    v[1] = input === null ? 0 : input.moveX;
    v[2] = input === null ? 0 : input.moveY;
    v[3] = 0;
    v[4] = input?.jump ? 1 : 0;
    v[5] = input?.fire ? 1 : 0;
    v[6] = f.autopilot ? 1 : 0;
    v[7] = e.z <= 0 ? 1 : 0;
    v[8] = e.vx;
    v[9] = e.vy;
    v[10] = e.vz;
    r.fields(e.id, f.player, v);
  } else if (e.kind === 'ball' || e.kind === 'crate') {
    const v = f.bodyValues;
    v[0] = e.vx;
    v[1] = e.vy;
    v[2] = e.vz;
    v[3] = e.z <= 0 && Math.hypot(e.vx, e.vy, e.vz) < SLEEP_SPEED ? 1 : 0;
    r.fields(e.id, e.kind === 'ball' ? f.ball : f.crate, v);
  }
}
