import { QUAT_IDENTITY_BITS, encodeQuatAt, quatStatus } from '../math/quat';
import {
  BONE_INDEX_BITS, BONE_INDEX_MASK, EVENT_WORDS, EntityFlags, FRAME_HAS_CAMERA, FRAME_TRUNCATED, HANDLE_BITS, HEADER_WORDS,
  H_BONE_WORDS, H_CAM_ROT, H_CAM_X, H_CAM_Y, H_CAM_Z, H_CAM_ZOOM, H_DROPPED_ENTITIES, H_DROPPED_PRIMS, H_DROPPED_TEXT,
  H_DT, H_ENTITY_COUNT, H_EVENT_COUNT, H_FLAGS, H_FRAME, H_OVER_BUDGET, H_PRIM_COUNT, H_PRIM_WORDS, H_SANITIZED,
  H_TIME, H_TOTAL_WORDS, MAX_BONES, NO_SUBJECT,
} from '../format/layout';
import { FrameReader } from '../read/FrameReader';
import { ChannelRegistry } from './ChannelRegistry';
import { DrawRecorder } from './DrawRecorder';
import { EntityTable } from './EntityTable';
import { FrameRing } from './FrameRing';
import { RecorderStats } from './RecorderStats';
import { StaticLayers } from './StaticLayers';
import { DeathQueue } from './DeathQueue';
import { DEFAULT_RECORDER_OPTIONS, type RecorderOptions } from './RecorderOptions';

/**
 * Records the game, one frame at a time, into a fixed-size ring. Call `beginFrame`, then `camera`,
 * `entity` (and `bones`) for each relevant entity, debug draw through `recorder.draw`, then
 * `endFrame`. Nothing is allocated per frame in steady state, and bad input never throws: it is
 * repaired or dropped and counted in `stats`.
 *
 * @example
 * const recorder = new Recorder({ maxFrames: 900 });
 * app.ticker.add((t) => {
 *   recorder.beginFrame(performance.now() / 1000, t.deltaMS / 1000);
 *   for (const e of world.entities) recorder.entity(e.id, e.x, e.y, 0, 0, 0, Math.sin(e.angle / 2), Math.cos(e.angle / 2), e.flags);
 *   recorder.draw.sphere(Channel.AI, guard.x, guard.y, 0, 40, 0xffcc00);
 *   recorder.endFrame();
 * });
 */
export class Recorder {
  public readonly options: Readonly<RecorderOptions>;
  public readonly ring: FrameRing;
  public readonly entities: EntityTable;
  public readonly channels: ChannelRegistry;
  public readonly stats = new RecorderStats();
  /** The recording `DebugDraw`: draw through this every frame, on any channel. */
  public readonly draw: DrawRecorder;
  /** Large static debug geometry, registered once and drawn live, never stored per frame. */
  public readonly staticLayers: StaticLayers;
  /** The read side of this recorder's ring. */
  public readonly reader: FrameReader;
  /** Event kind names; an event's kind index is its position here. */
  public readonly eventKinds: string[] = [];
  /** Whether `bones` stores anything (costs nothing when off). */
  public bonesEnabled: boolean;

  private frameOpen = false;
  private nextFrame = 0;
  private time = 0;
  private dt = 0;
  // Raw input of the open frame: ids, flags and 7 floats (position, quaternion) per entity call.
  // `entity()` only copies its arguments here, so it is small enough for V8 to inline into the
  // game's loop (no double is boxed at a call); ids resolve and quaternions encode at `endFrame`.
  private readonly inIds: Int32Array;
  private readonly inFlags: Uint8Array;
  private readonly inFloats: Float32Array;
  /** Handles of the kept entities of this frame, in order. */
  private handles: Int32Array;
  /** Index of the kept entity each staged entry became, or -1 when it was dropped. */
  private readonly keptIndex: Int32Array;
  private prevHandles: Int32Array;
  private prevCount = 0;
  private count = 0;
  private readonly despawnIds: Int32Array;
  private readonly despawnAt: Int32Array;
  private despawnCount = 0;
  private droppedEntities = 0;
  private sanitized = 0;
  private lastEntityId = -1;
  private boneWords: Uint32Array;
  private boneFloats: Float32Array;
  private boneCount = 0;
  private events: Uint32Array;
  private eventFloats: Float32Array;
  private eventCount = 0;
  private hasCamera = false;
  /** x, y, z, qx, qy, qz, qw, zoom of the open frame. */
  private readonly cam = new Float64Array(8);
  /** Handles that died, in order of death: freed when their last frame is evicted. */
  private readonly deaths: DeathQueue;
  private readonly eventKindIndex = new Map<string, number>();
  private readonly pendingKinds = new Map<number, { kind: string; label: string | undefined }>();
  private readonly warned = new Set<string>();
  private readonly warnFn: (key: string, message: string) => void;

  public constructor(options: Partial<RecorderOptions> = {}) {
    const o: RecorderOptions = { ...DEFAULT_RECORDER_OPTIONS, ...options };
    if (!(o.maxEntityId >= 1 && o.maxEntityId <= 1 << 30)) {
      throw new RangeError(`rewindable: maxEntityId must be in [1, 2^30] (got ${o.maxEntityId})`);
    }
    if (!(o.maxEntitiesPerFrame >= 1 && o.maxEntitiesPerFrame <= 1 << BONE_INDEX_BITS)) {
      throw new RangeError(`rewindable: maxEntitiesPerFrame must be in [1, 2^20] (got ${o.maxEntitiesPerFrame})`);
    }
    this.options = Object.freeze(o);
    this.warnFn = (key, message) => {
      if (this.warned.has(key)) return;
      this.warned.add(key);
      try {
        this.options.onWarning(message);
      } catch {
        // A throwing warning handler must not take the game down.
      }
    };
    this.ring = new FrameRing(o.arenaBytes, o.maxFrames);
    this.ring.onEvict = (frame) => this.onEvict(frame);
    this.entities = new EntityTable(Math.min(o.maxEntitiesPerFrame * 2, 1 << 16), o.maxEntityId);
    this.channels = new ChannelRegistry(o.primitiveBudget);
    this.draw = new DrawRecorder(this.channels, this.stats, {
      textBudgetBytes: o.textBudgetBytes,
      paragraphRadius: o.paragraphRadius,
      maxParagraphs: o.maxParagraphs,
      budgeted: true,
    }, this.warnFn);
    this.staticLayers = new StaticLayers(this.channels, this.stats, this.warnFn);
    const n = o.maxEntitiesPerFrame;
    this.inIds = new Int32Array(n);
    this.inFlags = new Uint8Array(n);
    this.inFloats = new Float32Array(n * 7);
    this.keptIndex = new Int32Array(n);
    this.handles = new Int32Array(n);
    this.prevHandles = new Int32Array(n);
    this.despawnIds = new Int32Array(n);
    this.despawnAt = new Int32Array(n);
    this.boneWords = new Uint32Array(Math.max(0, o.maxBoneWordsPerFrame | 0));
    this.boneFloats = new Float32Array(this.boneWords.buffer);
    this.events = new Uint32Array(Math.max(0, o.maxEventsPerFrame | 0) * EVENT_WORDS);
    this.eventFloats = new Float32Array(this.events.buffer);
    this.deaths = new DeathQueue(this.entities.capacity);
    this.bonesEnabled = o.recordBones;
    this.reader = new FrameReader(this.ring, this.entities, this.channels, this.eventKinds);
  }

  /** Whether a frame is open (between `beginFrame` and `endFrame`). */
  public get inFrame(): boolean {
    return this.frameOpen;
  }

  /** The number the next (or the open) frame gets. */
  public get currentFrame(): number {
    return this.nextFrame;
  }

  /**
   * Opens a frame. `time` is the game time in seconds, `dt` the simulation step that led to it.
   * Frame numbers are assigned by the recorder, contiguous from 0. Calling `beginFrame` while a frame
   * is open ends that frame first (counted in `stats.unbalancedFrames`).
   */
  public beginFrame(time: number, dt: number): void {
    // Kept tiny so V8 inlines it into the game loop and the two doubles are never boxed.
    if (this.frameOpen) this.closeUnbalanced();
    this.time = time - time === 0 ? time : 0;
    this.dt = dt - dt === 0 ? dt : 0;
    this.open();
  }

  private closeUnbalanced(): void {
    this.stats.unbalancedFrames++;
    this.warnFn('unbalanced', 'rewindable: beginFrame called while a frame was open; the open frame was ended first');
    this.endFrame();
  }

  private open(): void {
    this.frameOpen = true;
    this.count = 0;
    this.droppedEntities = 0;
    this.sanitized = 0;
    this.boneCount = 0;
    this.eventCount = 0;
    this.despawnCount = 0;
    this.hasCamera = false;
    this.lastEntityId = -1;
    this.draw.reset();
    this.draw.open = true;
  }

  /** Records the game camera: position, orientation (quaternion) and zoom. */
  public camera(x: number, y: number, z: number, qx: number, qy: number, qz: number, qw: number, zoom: number): void {
    if (!this.frameOpen) return this.outside();
    const c = this.cam;
    c[0] = x - x === 0 ? x : 0;
    c[1] = y - y === 0 ? y : 0;
    c[2] = z - z === 0 ? z : 0;
    c[3] = qx;
    c[4] = qy;
    c[5] = qz;
    c[6] = qw;
    c[7] = zoom - zoom === 0 && zoom > 0 ? zoom : 1;
    this.hasCamera = true;
  }

  /**
   * Records one entity this frame. `id` is the game's numeric id; an id absent from the previous
   * frame, or recorded after `despawn(id)`, starts a new life (a new unique id). The quaternion need
   * not be normalised. `flags` is a byte of display flags (`EntityFlags`).
   */
  public entity(
    id: number, x: number, y: number, z: number, qx: number, qy: number, qz: number, qw: number, flags = 0,
  ): void {
    const n = this.count;
    if (!this.frameOpen || n >= this.inIds.length || !(id >= 0 && id < this.options.maxEntityId && (id | 0) === id)) {
      return this.refuse(id);
    }
    const p = n * 7;
    const s = this.inFloats;
    s[p] = x;
    s[p + 1] = y;
    s[p + 2] = z;
    s[p + 3] = qx;
    s[p + 4] = qy;
    s[p + 5] = qz;
    s[p + 6] = qw;
    this.inIds[n] = id;
    this.inFlags[n] = flags;
    this.lastEntityId = id;
    this.count = n + 1;
  }

  /**
   * Records `count` entities from flat arrays (an ECS's own storage): `ids[i]`, positions x, y, z
   * at `positions[i * 3]`, rotations x, y, z, w at `rotations[i * 4]`, and optionally `flags[i]`.
   * Same rules as `entity`; no argument is a double, so no engine boxes one, whatever it inlines.
   *
   * @example
   * recorder.entityBatch(world.count, world.ids, world.positions, world.rotations, world.flags);
   */
  public entityBatch(
    count: number, ids: ArrayLike<number>, positions: ArrayLike<number>, rotations: ArrayLike<number>,
    flags?: ArrayLike<number>,
  ): void {
    const s = this.inFloats;
    const max = this.options.maxEntityId;
    for (let i = 0; i < count; i++) {
      const n = this.count;
      const id = ids[i];
      if (!this.frameOpen || n >= this.inIds.length || !(id >= 0 && id < max && (id | 0) === id)) {
        this.refuse(id);
        continue;
      }
      const p = n * 7;
      s[p] = positions[i * 3];
      s[p + 1] = positions[i * 3 + 1];
      s[p + 2] = positions[i * 3 + 2];
      s[p + 3] = rotations[i * 4];
      s[p + 4] = rotations[i * 4 + 1];
      s[p + 5] = rotations[i * 4 + 2];
      s[p + 6] = rotations[i * 4 + 3];
      this.inIds[n] = id;
      this.inFlags[n] = flags === undefined ? 0 : flags[i];
      this.lastEntityId = id;
      this.count = n + 1;
    }
  }

  /**
   * Records the bones of the entity recorded just before (same `id`): `rotations` holds x, y, z, w
   * per bone (local rotation), `offsets` x, y, z per bone (local offset). Does nothing while
   * `bonesEnabled` is false.
   */
  public bones(id: number, count: number, rotations: ArrayLike<number>, offsets: ArrayLike<number>): void {
    if (!this.bonesEnabled) return;
    if (!this.frameOpen) return this.outside();
    if (id !== this.lastEntityId || this.count === 0) {
      this.stats.bonesDropped++;
      this.warnFn('bones', `rewindable: bones(${id}) must follow entity(${id}); the bones were dropped`);
      return;
    }
    const c = count | 0;
    const words = 1 + c * 4;
    if (c <= 0 || c > MAX_BONES || this.boneCount + words > this.boneWords.length ||
        rotations.length < c * 4 || offsets.length < c * 3) {
      this.stats.bonesDropped++;
      this.warnFn('bonecap', `rewindable: bones of entity ${id} dropped (count ${count}, capacity or array length)`);
      return;
    }
    const w = this.boneWords;
    const fl = this.boneFloats;
    let at = this.boneCount;
    w[at++] = (this.count - 1) | (c << BONE_INDEX_BITS);
    for (let i = 0; i < c; i++) w[at++] = encodeQuatAt(rotations, i * 4);
    for (let i = 0; i < c * 3; i++) {
      const v = offsets[i];
      fl[at++] = v - v === 0 ? v : 0;
    }
    this.boneCount = at;
  }

  /**
   * Names a life of `id` with a kind (used to re-create it after it despawned) and a label for
   * display; written once, not per frame. Inside a frame it names the life recorded in that frame
   * (or, when `id` is not recorded in it, its next life); outside a frame, the life recorded in the
   * newest frame if it is still alive, else the next one.
   */
  public describe(id: number, kind: string, label?: string): void {
    const t = this.entities;
    const h = t.lookup(id);
    if (!this.frameOpen && h >= 0 && t.ended[h] === 0 && t.lastFrames[h] === this.nextFrame - 1) {
      t.kindOf[h] = t.internKind(kind);
      t.labels[h] = label;
      return;
    }
    if (this.pendingKinds.size >= 4096) {
      // Descriptions of ids that never appear must not grow without bound: forget the oldest.
      const oldest = this.pendingKinds.keys().next().value as number;
      this.pendingKinds.delete(oldest);
    }
    this.pendingKinds.set(id, { kind, label });
  }

  /** Declares the bone hierarchy of a kind: `parents[i]` is bone i's parent, or -1 for a root. */
  public describeSkeleton(kind: string, parents: ArrayLike<number>): void {
    const k = this.entities.internKind(kind);
    this.entities.skeletons[k] = Int16Array.from(parents as ArrayLike<number>);
  }

  /**
   * Ends the life of `id`: an `entity(id)` recorded after this call (in this frame or later) is a
   * different unique id. Recorded in the same frame before the call, the entity's last frame is this one.
   */
  public despawn(id: number): void {
    if (this.frameOpen && this.despawnCount < this.despawnIds.length) {
      this.despawnIds[this.despawnCount] = id;
      this.despawnAt[this.despawnCount] = this.count;
      this.despawnCount++;
    } else {
      this.endLife(id);
    }
  }

  private endLife(id: number): void {
    const h = this.entities.lookup(id);
    if (h >= 0) this.entities.ended[h] = 1;
  }

  /** The index of an event kind, registering it on first use. */
  public eventKind(name: string): number {
    let k = this.eventKindIndex.get(name);
    if (k === undefined) {
      k = this.eventKinds.length;
      this.eventKinds.push(name);
      this.eventKindIndex.set(name, k);
    }
    return k;
  }

  /**
   * Records an event (a timeline marker): e.g. a particle effect's start and end, a hit, a state
   * change. `kind` is a name or an index from `eventKind`; `subject` an entity id or -1.
   */
  public event(kind: number | string, subject: number, x: number, y: number, z: number, value = 0): void {
    if (!this.frameOpen) return this.outside();
    const k = typeof kind === 'number' ? kind : this.eventKind(kind);
    if (!(k >= 0 && k < this.eventKinds.length) || this.eventCount * EVENT_WORDS >= this.events.length) {
      this.warnFn('event', `rewindable: event dropped (unknown kind ${String(kind)} or over maxEventsPerFrame)`);
      return;
    }
    const at = this.eventCount * EVENT_WORDS;
    this.events[at] = k;
    this.events[at + 1] = subject >= 0 && (subject | 0) === subject ? subject : NO_SUBJECT;
    const f = this.eventFloats;
    f[at + 2] = x - x === 0 ? x : 0;
    f[at + 3] = y - y === 0 ? y : 0;
    f[at + 4] = z - z === 0 ? z : 0;
    f[at + 5] = value - value === 0 ? value : 0;
    this.eventCount++;
  }

  /** Closes the frame and commits it to the ring, evicting the oldest frames as needed. */
  public endFrame(): void {
    if (!this.frameOpen) return this.outside();
    const draw = this.draw;
    draw.flushText();
    draw.open = false;
    this.frameOpen = false;
    const frame = this.nextFrame++;
    const n = this.count;
    // Reserve for every staged entity; entries dropped while resolving (duplicates) shrink it after.
    const upper = HEADER_WORDS + n * 5 + this.boneCount + draw.wordCount + this.eventCount * EVENT_WORDS;
    const ring = this.ring;
    let at = ring.reserve(upper);
    const truncated = at < 0;
    if (truncated) at = ring.reserve(HEADER_WORDS);
    // One pass: resolve ids to handles and, unless truncated, write handles, positions and encoded
    // rotations straight into the arena.
    const m = this.resolve(frame, truncated ? -1 : at + HEADER_WORDS);
    if (this.pendingKinds.size > 0) this.pendingKinds.forEach(this.applyPendingAfter);
    this.collectDeaths(frame);
    const u = ring.u32;
    const f = ring.f32;
    let total = HEADER_WORDS;
    if (truncated) {
      this.stats.framesTruncated++;
      this.warnFn('truncated', `rewindable: frame ${frame} needs ${upper * 4} bytes, more than the whole arena; only its header was kept`);
      u[at + H_ENTITY_COUNT] = 0;
      u[at + H_DROPPED_ENTITIES] = this.droppedEntities + m;
      u[at + H_PRIM_WORDS] = 0;
      u[at + H_PRIM_COUNT] = 0;
      u[at + H_BONE_WORDS] = 0;
      u[at + H_EVENT_COUNT] = 0;
    } else {
      const base = at + HEADER_WORDS;
      if (m < n) {
        // Close the gaps the dropped entries left: positions and rotations were laid out for n.
        u.copyWithin(base + m, base + n, base + n + m * 3);
        u.copyWithin(base + m * 4, base + n * 4, base + n * 4 + m);
      }
      let w = base + m * 5;
      w = this.writeBones(w);
      const dw = draw.words;
      for (let i = 0; i < draw.wordCount; i++) u[w + i] = dw[i];
      w += draw.wordCount;
      const ev = this.events;
      for (let i = 0; i < this.eventCount * EVENT_WORDS; i++) u[w + i] = ev[i];
      total = HEADER_WORDS + m * 5 + this.boneCount + draw.wordCount + this.eventCount * EVENT_WORDS;
      u[at + H_ENTITY_COUNT] = m;
      u[at + H_DROPPED_ENTITIES] = this.droppedEntities;
      u[at + H_PRIM_WORDS] = draw.wordCount;
      u[at + H_PRIM_COUNT] = draw.primCount;
      u[at + H_BONE_WORDS] = this.boneCount;
      u[at + H_EVENT_COUNT] = this.eventCount;
    }
    u[at + H_FRAME] = frame;
    ring.f64[(at + H_TIME) >>> 1] = this.time;
    f[at + H_DT] = this.dt;
    u[at + H_OVER_BUDGET] = draw.overBudget;
    u[at + H_DROPPED_PRIMS] = draw.droppedPrims;
    u[at + H_DROPPED_TEXT] = draw.droppedTextBytes;
    u[at + H_SANITIZED] = this.sanitized + draw.invalidPrims;
    u[at + H_FLAGS] = (truncated ? FRAME_TRUNCATED : 0) | (this.hasCamera ? FRAME_HAS_CAMERA : 0);
    const c = this.cam;
    f[at + H_CAM_X] = c[0];
    f[at + H_CAM_Y] = c[1];
    f[at + H_CAM_Z] = c[2];
    u[at + H_CAM_ROT] = this.hasCamera ? encodeQuatAt(c, 3) : QUAT_IDENTITY_BITS;
    f[at + H_CAM_ZOOM] = this.hasCamera ? c[7] : 1;
    u[at + H_TOTAL_WORDS] = total;
    u[at + HEADER_WORDS - 1] = 0;
    ring.commit(frame, total);
    this.stats.framesRecorded++;

    // This frame's handles become the previous frame's.
    const th = this.prevHandles;
    this.prevHandles = this.handles;
    this.handles = th;
    this.prevCount = m;
  }

  /**
   * Turns the staged entries of `frame` into handles: continues lives, starts new ones (after a gap
   * or a despawn), drops duplicates, repairs invalid positions. When `base` ≥ 0 it also writes each
   * kept entity there, laid out for all `count` entries (the caller closes gaps). Returns how many
   * entities are kept.
   */
  private resolve(frame: number, base: number): number {
    const n = this.count;
    const table = this.entities;
    const ids = this.inIds;
    const s = this.inFloats;
    const flags = this.inFlags;
    const handles = this.handles;
    const u = this.ring.u32;
    const f = this.ring.f32;
    const pBase = base + n;
    const rBase = base + n * 4;
    let m = 0;
    let d = 0;
    for (let i = 0; i < n; i++) {
      while (d < this.despawnCount && this.despawnAt[d] <= i) this.endLife(this.despawnIds[d++]);
      const id = ids[i];
      let h = table.lookup(id);
      let continued = false;
      if (h >= 0) {
        const last = table.lastFrames[h];
        const alive = table.ended[h] === 0;
        if (last === frame && alive) {
          this.duplicate(id);
          this.keptIndex[i] = -1;
          continue;
        }
        continued = last === frame - 1 && alive;
      }
      if (!continued) {
        h = this.newLife(id, frame);
        if (h < 0) {
          this.overCapacity();
          this.keptIndex[i] = -1;
          continue;
        }
      }
      this.keptIndex[i] = m;
      const p = i * 7;
      if (s[p] - s[p] + s[p + 1] - s[p + 1] + s[p + 2] - s[p + 2] !== 0) this.repairPosition(i, h, continued);
      handles[m] = h;
      table.lastFrames[h] = frame;
      table.lastIndex[h] = m;
      if (base >= 0) {
        const q = pBase + m * 3;
        f[q] = s[p];
        f[q + 1] = s[p + 1];
        f[q + 2] = s[p + 2];
        u[rBase + m] = encodeQuatAt(s, p + 3);
        let fl = flags[i];
        if (quatStatus.sanitized) fl = this.badRotation(h, fl);
        u[base + m] = h | (fl << HANDLE_BITS);
      }
      m++;
    }
    while (d < this.despawnCount) this.endLife(this.despawnIds[d++]);
    return m;
  }

  /** Copies bone records, renumbering entity indices past dropped entries; returns the next word. */
  private writeBones(w: number): number {
    if (this.boneCount === 0) return w;
    const u = this.ring.u32;
    const bw = this.boneWords;
    const end = w + this.boneCount;
    for (let r = 0; r < this.boneCount;) {
      const head = bw[r];
      const c = head >>> BONE_INDEX_BITS;
      const words = 1 + c * 4;
      const k = this.keptIndex[head & BONE_INDEX_MASK];
      if (k >= 0) {
        u[w] = k | (c << BONE_INDEX_BITS);
        for (let j = 1; j < words; j++) u[w + j] = bw[r + j];
        w += words;
      } else {
        this.stats.bonesDropped++;
      }
      r += words;
    }
    // Dropped records leave the section shorter than counted: pad with empty records (count 0).
    for (; w < end; w++) u[w] = 0;
    return w;
  }

  /** Drops every recorded frame and every entity life; channels, kinds and options stay. */
  public clear(): void {
    if (this.frameOpen) this.endFrame();
    this.ring.clear();
    this.pendingKinds.clear();
    this.deaths.clear();
    this.entities.clear();
    this.prevCount = 0;
  }

  /** Handles of the previous frame not seen in this one died in the previous frame. */
  private collectDeaths(frame: number): void {
    const table = this.entities;
    const prev = this.prevHandles;
    for (let i = 0; i < this.prevCount; i++) {
      const h = prev[i];
      if (table.lastFrames[h] !== frame && table.used[h] === 1) this.deaths.push(h, frame - 1);
    }
  }

  private onEvict(frame: number): void {
    this.stats.framesEvicted++;
    this.deaths.releaseThrough(frame, this.entities);
  }

  private newLife(id: number, frame: number): number {
    const h = this.entities.allocate(id, frame);
    if (h >= 0 && this.pendingKinds.size > 0) this.applyPending(id, h);
    return h;
  }

  /** Applies a description made in this frame to a life it continued (bound once: no closure per frame). */
  private readonly applyPendingAfter = (pending: { kind: string; label: string | undefined }, id: number): void => {
    const t = this.entities;
    const h = t.lookup(id);
    if (h >= 0 && t.lastFrames[h] === this.nextFrame - 1) {
      t.kindOf[h] = t.internKind(pending.kind);
      t.labels[h] = pending.label;
      this.pendingKinds.delete(id);
    }
  };

  private applyPending(id: number, h: number): void {
    const pending = this.pendingKinds.get(id);
    if (pending === undefined) return;
    this.entities.kindOf[h] = this.entities.internKind(pending.kind);
    this.entities.labels[h] = pending.label;
    this.pendingKinds.delete(id);
  }

  /** Replaces entry `i`'s invalid position by the entity's last stored one (or the origin). */
  private repairPosition(i: number, h: number, continued: boolean): void {
    const s = this.inFloats;
    const p = i * 7;
    const ring = this.ring;
    const prev = this.nextFrame - 2; // the frame before the one being resolved
    const at = continued ? ring.offsetOf(prev) : -1;
    const li = this.entities.lastIndex[h];
    if (at >= 0 && li >= 0 && li < ring.u32[at + H_ENTITY_COUNT]) {
      const q = at + HEADER_WORDS + ring.u32[at + H_ENTITY_COUNT] + li * 3;
      s[p] = ring.f32[q];
      s[p + 1] = ring.f32[q + 1];
      s[p + 2] = ring.f32[q + 2];
    } else {
      s[p] = 0;
      s[p + 1] = 0;
      s[p + 2] = 0;
    }
    this.inFlags[i] |= EntityFlags.SANITIZED;
    this.stats.invalidPositions++;
    this.sanitized++;
    this.warnFn('nan', `rewindable: entity ${this.entities.ids[h]} has a NaN or infinite position; its last good position was stored`);
  }

  private badRotation(h: number, flags: number): number {
    this.stats.invalidRotations++;
    this.sanitized++;
    this.warnFn('quat', `rewindable: entity ${this.entities.ids[h]} has a zero or non-finite quaternion; the identity was stored`);
    return flags | EntityFlags.SANITIZED;
  }

  /** Counts an entity call that could not be stored (outside a frame, bad id, over capacity). */
  private refuse(id: number): void {
    if (!this.frameOpen) return this.outside();
    if (!(id >= 0 && id < this.options.maxEntityId && (id | 0) === id)) return this.badId(id);
    return this.overCapacity();
  }

  private outside(): void {
    this.stats.callsOutsideFrame++;
    this.warnFn('outside', 'rewindable: recorder called outside beginFrame/endFrame; the call was ignored');
  }

  private badId(id: number): void {
    this.stats.idsOutOfRange++;
    this.droppedEntities++;
    this.warnFn('id', `rewindable: entity id ${String(id)} is not an integer in [0, ${this.options.maxEntityId}); the entity was dropped`);
  }

  private duplicate(id: number): void {
    this.stats.duplicateIds++;
    this.droppedEntities++;
    this.warnFn('dup', `rewindable: entity id ${id} was recorded twice in one frame; the second record was dropped`);
  }

  private overCapacity(): void {
    this.stats.entitiesOverCapacity++;
    this.droppedEntities++;
    this.warnFn('cap', `rewindable: more than ${this.options.maxEntitiesPerFrame} entities in one frame; the rest were dropped`);
  }
}
