import { QUAT_IDENTITY_BITS, encodeQuatAt, encodeQuatColumns, quatStatus } from '../math/quat';
import {
  BONE_INDEX_BITS, BONE_INDEX_MASK, EVENT_WORDS, FRAME_HAS_CAMERA, FRAME_TRUNCATED, HEADER_WORDS,
  H_BONE_WORDS, H_CAM_ROT, H_CAM_X, H_CAM_Y, H_CAM_Z, H_CAM_ZOOM, H_DROPPED_ENTITIES, H_DROPPED_PRIMS, H_DROPPED_TEXT,
  H_DT, H_ENTITY_COUNT, H_EVENT_COUNT, H_FLAGS, H_FRAME, H_OVER_BUDGET, H_PRIM_COUNT, H_PRIM_WORDS, H_SANITIZED,
  H_TIME, H_TOTAL_WORDS, MAX_BONES, NO_SUBJECT, EntityFlags,
} from '../format/layout';
import { MAX_KINDS, repairString, skeletonProblem, stringProblem, USER_FLAGS_MASK } from '../validate/rules';
import { WarnOnce } from '../validate/WarnOnce';
import { EntityKernel } from '../kernel/EntityKernel';
import { FrameReader } from '../read/FrameReader';
import { ChannelRegistry } from '../store/ChannelRegistry';
import { EntityTable } from '../store/EntityTable';
import { FrameRing } from '../store/FrameRing';
import { StaticLayers } from '../store/StaticLayers';
import { DrawRecorder } from './DrawRecorder';
import { PendingDescriptions } from './PendingDescriptions';
import { RecorderStats } from './RecorderStats';
import { StaticLayerEncoder } from './StaticLayerEncoder';
import { EntityResolver } from './EntityResolver';
import { DEFAULT_RECORDER_OPTIONS, type RecorderOptions, validateRecorderOptions } from './RecorderOptions';
import type { EntityColumns } from './EntityColumns';

/** Staging columns for one entity's bone rotations (the batch encoder reads columns). */
const BONE_QX = new Float32Array(MAX_BONES);
const BONE_QY = new Float32Array(MAX_BONES);
const BONE_QZ = new Float32Array(MAX_BONES);
const BONE_QW = new Float32Array(MAX_BONES);
/** Float32 rounding: a stored float is valid when its float32 is finite (`isFiniteF32`, inline). */
const fr = Math.fround;
const SANITIZED = EntityFlags.SANITIZED;
/**
 * Local copy of the shared rule's constant: hot paths read a module local, not an imported binding
 * (which some loaders, e.g. tsx and vitest, turn into a getter call, and which then keeps V8 from
 * inlining `entity()` into the game's loop).
 */
const USER_FLAGS = USER_FLAGS_MASK;

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
  /** Time and dt as given to `beginFrame`; checked at `endFrame` (so `beginFrame` stays small). */
  private time = 0;
  private dt = 0;
  /** Time of the newest frame stored, NaN before the first: times never go back. */
  private lastTime = NaN;
  /** Repairs in the open frame outside the entity kernel's (flags, bones, camera, events). */
  private repaired = 0;
  /** The frame the open frame's reservation must watch for eviction, and its offset (see `onEvict`). */
  private evictWatch = -1;
  private evictWatchAt = -1;
  // Raw input of the open frame, one column per field: ids, flags, and the kernel's float columns
  // (position, quaternion). `entity()` only copies its arguments here, so it is small enough for V8
  // to inline into the game's loop (no double is boxed at a call); at `endFrame` the kernel encodes
  // the quaternions and packs the positions straight into the arena, and `resolver` resolves the
  // ids (ids and flags are its columns).
  private readonly kernel: EntityKernel;
  private readonly inIds: Int32Array;
  private readonly inFlags: Uint8Array;
  private readonly inFlagsWords: Uint32Array;
  private readonly inX: Float32Array;
  private readonly inY: Float32Array;
  private readonly inZ: Float32Array;
  private readonly inQx: Float32Array;
  private readonly inQy: Float32Array;
  private readonly inQz: Float32Array;
  private readonly inQw: Float32Array;
  /** Turns the staged entries into lives and writes the entity section at `endFrame`. */
  private readonly resolver: EntityResolver;
  private count = 0;
  private droppedEntities = 0;
  private lastEntityId = -1;
  private boneWords: Uint32Array;
  private boneFloats: Float32Array;
  private boneWordsI32: Int32Array;
  private boneCount = 0;
  private events: Uint32Array;
  private eventFloats: Float32Array;
  private eventCount = 0;
  private hasCamera = false;
  /** x, y, z, qx, qy, qz, qw, zoom of the open frame. */
  private readonly cam = new Float64Array(8);
  /** Handles that died, in order of death: freed when their last frame is evicted. */
  private readonly eventKindIndex = new Map<string, number>();
  /** Descriptions waiting for their life (see `describe`); at most 4,096, the oldest forgotten. */
  private readonly pending = new PendingDescriptions(4096);
  /** Each kind of problem is reported once, and its message is only built then. */
  private readonly warnOnce: WarnOnce;
  /** Listeners of `onFrameEnd` (a live stream); empty for most games, so `endFrame` pays one length check. */
  private readonly frameEndListeners: Array<(frame: number) => void> = [];

  public constructor(options: Partial<RecorderOptions> = {}) {
    const o: RecorderOptions = { ...DEFAULT_RECORDER_OPTIONS, ...options };
    validateRecorderOptions(o);
    this.options = Object.freeze(o);
    this.warnOnce = new WarnOnce(o.onWarning);
    // One buffer for the kernel's staging columns, the resolver's block (staged ids and flags, the
    // lives of this frame and the previous one, the entity table's lastSeen) and the arena, so that
    // the kernel writes frames in place.
    const arenaBytes = o.arenaBytes >= 1024 ? Math.floor(o.arenaBytes / 8) * 8 : 0;
    const handleCapacity = Math.max(16, Math.min(o.maxEntitiesPerFrame * 2, 1 << 16));
    const block = EntityResolver.layout(o.maxEntitiesPerFrame, handleCapacity);
    this.kernel = new EntityKernel(o.maxEntitiesPerFrame, block.bytes + arenaBytes, { wasm: o.wasm });
    const blockByte = this.kernel.extraOffset;
    this.ring = new FrameRing(o.arenaBytes, o.maxFrames, { buffer: this.kernel.buffer, byteOffset: blockByte + block.bytes });
    if (o.wasm && this.kernel.fallbackReason !== undefined) {
      this.warnOnce.warn('kernel', `rewindable: ${this.kernel.fallbackReason}; recording uses the JavaScript encoder (same bytes, slower)`);
    }
    this.ring.onEvict = (frame) => this.onEvict(frame);
    this.entities = new EntityTable(handleCapacity, o.maxEntityId,
      new Int32Array(this.kernel.buffer, blockByte + block.lastSeen, handleCapacity));
    this.channels = new ChannelRegistry(o.primitiveBudget);
    this.draw = new DrawRecorder(this.channels, this.stats, {
      textBudgetBytes: o.textBudgetBytes,
      paragraphRadius: o.paragraphRadius,
      maxParagraphs: o.maxParagraphs,
      budgeted: true,
    }, this.warnOnce);
    this.staticLayers = new StaticLayers(new StaticLayerEncoder(this.channels, this.stats, this.warnOnce));
    const n = o.maxEntitiesPerFrame;
    const k = this.kernel;
    this.inX = k.x;
    this.inY = k.y;
    this.inZ = k.z;
    this.inQx = k.qx;
    this.inQy = k.qy;
    this.inQz = k.qz;
    this.inQw = k.qw;
    this.boneWords = new Uint32Array(o.maxBoneWordsPerFrame);
    this.boneFloats = new Float32Array(this.boneWords.buffer);
    this.boneWordsI32 = new Int32Array(this.boneWords.buffer);
    this.events = new Uint32Array(o.maxEventsPerFrame * EVENT_WORDS);
    this.eventFloats = new Float32Array(this.events.buffer);
    this.bonesEnabled = o.recordBones;
    this.reader = new FrameReader(this.ring, this.entities, this.channels, this.eventKinds);
    this.resolver = new EntityResolver({
      capacity: n,
      kernel: k,
      blockByte,
      ring: this.ring,
      table: this.entities,
      reader: this.reader,
      stats: this.stats,
      warnings: this.warnOnce,
      onNewLife: (id, h) => {
        if (this.pending.count > 0) this.applyPending(id, h);
      },
    });
    this.inIds = this.resolver.ids;
    this.inFlags = this.resolver.flags;
    // The staged flags as words (the column starts on 16 bytes and is padded to 16).
    this.inFlagsWords = new Uint32Array(this.inFlags.buffer, this.inFlags.byteOffset, Math.ceil(this.inFlags.length / 4));
  }

  /**
   * What encodes rotations and packs positions: `'wasm-simd'` (the WebAssembly kernel) or `'js'`
   * (the option `wasm: false`, or a platform without WebAssembly SIMD). Both store the same bytes.
   */
  public get backend(): 'wasm-simd' | 'js' {
    return this.kernel.backend;
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
    this.time = time;
    this.dt = dt;
    this.open();
  }

  private closeUnbalanced(): void {
    this.stats.unbalancedFrames++;
    this.warnOnce.warn('unbalanced', 'rewindable: beginFrame called while a frame was open; the open frame was ended first');
    this.endFrame();
  }

  private open(): void {
    this.frameOpen = true;
    this.count = 0;
    this.droppedEntities = 0;
    this.boneCount = 0;
    this.eventCount = 0;
    this.resolver.begin();
    this.hasCamera = false;
    this.repaired = 0;
    this.lastEntityId = -1;
    this.draw.reset();
    this.draw.open = true;
  }

  /** Records the game camera: position, orientation (quaternion) and zoom. */
  public camera(x: number, y: number, z: number, qx: number, qy: number, qz: number, qw: number, zoom: number): void {
    if (!this.frameOpen) return this.outside();
    const c = this.cam;
    c[0] = x;
    c[1] = y;
    c[2] = z;
    c[3] = qx;
    c[4] = qy;
    c[5] = qz;
    c[6] = qw;
    c[7] = zoom;
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
    this.inX[n] = x;
    this.inY[n] = y;
    this.inZ[n] = z;
    this.inQx[n] = qx;
    this.inQy[n] = qy;
    this.inQz[n] = qz;
    this.inQw[n] = qw;
    this.inIds[n] = id;
    this.inFlags[n] = (flags & USER_FLAGS) === flags ? flags : this.repairFlags(flags);
    this.lastEntityId = id;
    this.count = n + 1;
  }

  /**
   * Records `count` entities from interleaved flat arrays (an ECS's own storage): `ids[i]`,
   * positions x, y, z at `positions[i * 3]`, rotations x, y, z, w at `rotations[i * 4]`, and
   * optionally `flags[i]`. Same rules as `entity`, in the same order; no argument is a double, so no
   * engine boxes one, whatever it inlines. A `count` beyond `ids.length` is cut there.
   *
   * @example
   * recorder.entityBatch(world.count, world.ids, world.positions, world.rotations, world.flags);
   */
  public entityBatch(
    count: number, ids: ArrayLike<number>, positions: ArrayLike<number>, rotations: ArrayLike<number>,
    flags?: ArrayLike<number>,
  ): void {
    if (!this.frameOpen) return this.outside();
    // entity()'s staging, written out: a call per entry would pass doubles, which V8 boxes (16
    // bytes each) whenever it decides not to inline the call, and that decision varies from run to
    // run. Only a refused entry makes a call.
    const max = this.options.maxEntityId;
    const cap = this.inIds.length;
    const X = this.inX, Y = this.inY, Z = this.inZ;
    const QX = this.inQx, QY = this.inQy, QZ = this.inQz, QW = this.inQw;
    const inIds = this.inIds, inFlags = this.inFlags;
    // Entries past the ids are not entities: a count beyond them is cut there.
    const c = count > 0 ? (count < ids.length ? count : ids.length) : 0;
    let n = this.count;
    for (let i = 0; i < c; i++) {
      const id = ids[i];
      if (n >= cap || !(id >= 0 && id < max && (id | 0) === id)) {
        this.count = n;
        this.refuse(id);
        continue;
      }
      const p = i * 3;
      const q = i * 4;
      X[n] = positions[p];
      Y[n] = positions[p + 1];
      Z[n] = positions[p + 2];
      QX[n] = rotations[q];
      QY[n] = rotations[q + 1];
      QZ[n] = rotations[q + 2];
      QW[n] = rotations[q + 3];
      inIds[n] = id;
      const fl = flags === undefined ? 0 : flags[i];
      if ((fl & USER_FLAGS) === fl) {
        inFlags[n] = fl;
      } else {
        inFlags[n] = (fl & 0xff) === fl ? fl & USER_FLAGS : 0;
        this.badFlags();
      }
      this.lastEntityId = id;
      n++;
    }
    this.count = n;
  }

  /**
   * Flags that are not an integer in [0, 127]: an integer in [0, 255] keeps its low seven bits (bit
   * 7 is the recorder's `SANITIZED`), anything else is 0; counted in `stats.invalidFlags`.
   */
  private repairFlags(flags: number): number {
    this.badFlags();
    return (flags & 0xff) === flags ? flags & USER_FLAGS : 0;
  }

  private badFlags(): void {
    this.stats.invalidFlags++;
    this.repaired++;
    if (!this.warnOnce.has('flags')) this.warnOnce.warn('flags', 'rewindable: entity flags must be an integer in [0, 127] (bit 7 is the recorder\'s SANITIZED); the low 7 bits of an integer in [0, 255] were kept, anything else stored as 0');
  }

  /**
   * Records `count` entities from one array per field (structure of arrays, as bitECS and most
   * data-oriented games keep them): `columns.ids[i]`, `columns.x[i]`, ... `columns.qw[i]` and
   * optionally `columns.flags[i]`. Build the `columns` object once and reuse it every frame. Same
   * rules as `entity`, in the same order (a `count` beyond `ids.length` is cut there). The fastest
   * way to record many entities; flags are block-copied when they are a `Uint8Array`.
   *
   * @example
   * const columns = { ids: world.ids, x: world.x, y: world.y, z: world.z,
   *   qx: world.qx, qy: world.qy, qz: world.qz, qw: world.qw, flags: world.flags };
   * recorder.entityColumns(world.count, columns); // every frame
   */
  public entityColumns(count: number, columns: EntityColumns): void {
    if (!this.frameOpen) return this.outside();
    const { ids, x, y, z, qx, qy, qz, qw, flags } = columns;
    const max = this.options.maxEntityId;
    const n = this.count;
    const c = count > 0 ? (count < ids.length ? count | 0 : ids.length) : 0;
    // Fast path: every id valid, typed-array columns that fit the staging area: each column is one
    // block copy (`TypedArray.set` of the whole column, no view allocated), not a per-entity loop.
    // An Int32Array holds integers only: the range check then happens when the entries resolve
    // (EntityResolver drops and counts an id out of range there, as entity() does here), which
    // saves a pass over the ids. Any other column is checked here.
    let valid = ids instanceof Int32Array ? c : 0;
    while (valid < c) {
      const id = ids[valid];
      if (!(id >= 0 && id < max && (id | 0) === id)) break;
      valid++;
    }
    if (valid === c && c > 0 && this.fitsBlock(ids, n, c) && this.fitsBlock(x, n, c) && this.fitsBlock(y, n, c) &&
        this.fitsBlock(z, n, c) && this.fitsBlock(qx, n, c) && this.fitsBlock(qy, n, c) && this.fitsBlock(qz, n, c) &&
        this.fitsBlock(qw, n, c) && (flags === undefined || (flags instanceof Uint8Array && this.fitsBlock(flags, n, c)))) {
      this.inIds.set(ids as Int32Array, n);
      this.inX.set(x as Float32Array, n);
      this.inY.set(y as Float32Array, n);
      this.inZ.set(z as Float32Array, n);
      this.inQx.set(qx as Float32Array, n);
      this.inQy.set(qy as Float32Array, n);
      this.inQz.set(qz as Float32Array, n);
      this.inQw.set(qw as Float32Array, n);
      if (flags === undefined) {
        this.inFlags.fill(0, n, n + c);
      } else {
        this.inFlags.set(flags as Uint8Array, n);
        // A byte is an integer in [0, 255]: only bit 7 (the recorder's SANITIZED) can be wrong. Four
        // bytes a load; the words at the ends may take in neighbours, which only costs a look.
        const words = this.inFlagsWords;
        let high = 0;
        for (let w = n >>> 2; w < (n + c + 3) >>> 2; w++) high |= words[w];
        if ((high & 0x80808080) !== 0) this.clearHighFlags(n, n + c);
      }
      this.lastEntityId = ids[c - 1];
      this.count = n + c;
      return;
    }
    this.stageColumns(c, columns);
  }

  /**
   * Clears and counts bit 7 of the staged flags [from, to) (`entityColumns` copied them as they were).
   * An entry whose id is out of range is skipped: it is refused when resolved, and `entity()` refuses
   * such an entry before looking at its flags.
   */
  private clearHighFlags(from: number, to: number): void {
    const inFlags = this.inFlags;
    const ids = this.inIds;
    const max = this.options.maxEntityId;
    for (let i = from; i < to; i++) {
      if ((inFlags[i] & SANITIZED) === 0 || !(ids[i] >= 0 && ids[i] < max)) continue;
      inFlags[i] &= USER_FLAGS;
      this.badFlags();
    }
  }

  /**
   * Whether `column` can be block-copied into the staging area at `n` for `count` entities: a typed
   * array that fits, and at most twice as long as needed (copying a mostly empty column costs more
   * than the loop).
   */
  private fitsBlock(column: ArrayLike<number>, n: number, count: number): boolean {
    const len = column.length;
    return len >= count && len <= 2 * count + 64 && n + len <= this.inIds.length && ArrayBuffer.isView(column);
  }

  /**
   * `entityColumns` one entity at a time: for plain arrays, bad ids, long columns, or a full stage.
   * The staging is written out, as in `entityBatch`, so that no double is passed to a call.
   */
  private stageColumns(count: number, columns: EntityColumns): void {
    const { ids, x, y, z, qx, qy, qz, qw, flags } = columns;
    const max = this.options.maxEntityId;
    const cap = this.inIds.length;
    let n = this.count;
    for (let i = 0; i < count; i++) {
      const id = ids[i];
      if (n >= cap || !(id >= 0 && id < max && (id | 0) === id)) {
        this.count = n;
        this.refuse(id);
        continue;
      }
      this.inX[n] = x[i];
      this.inY[n] = y[i];
      this.inZ[n] = z[i];
      this.inQx[n] = qx[i];
      this.inQy[n] = qy[i];
      this.inQz[n] = qz[i];
      this.inQw[n] = qw[i];
      this.inIds[n] = id;
      const fl = flags === undefined ? 0 : flags[i];
      if ((fl & USER_FLAGS) === fl) {
        this.inFlags[n] = fl;
      } else {
        this.inFlags[n] = (fl & 0xff) === fl ? fl & USER_FLAGS : 0;
        this.badFlags();
      }
      this.lastEntityId = id;
      n++;
    }
    this.count = n;
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
      if (!this.warnOnce.has('bones')) this.warnOnce.warn('bones', `rewindable: bones(${id}) must follow entity(${id}); the bones were dropped`);
      return;
    }
    const c = count | 0;
    const words = 1 + c * 4;
    if (c !== count || c <= 0 || c > MAX_BONES || this.boneCount + words > this.boneWords.length ||
        !(rotations.length >= c * 4) || !(offsets.length >= c * 3)) {
      this.stats.bonesDropped++;
      if (!this.warnOnce.has('bonecap')) this.warnOnce.warn('bonecap', `rewindable: bones of entity ${id} dropped (count ${count}, capacity or array length)`);
      return;
    }
    const w = this.boneWords;
    const fl = this.boneFloats;
    let at = this.boneCount;
    w[at++] = (this.count - 1) | (c << BONE_INDEX_BITS);
    // The bone rotations go through the batch encoder (columns), much cheaper per rotation than
    // one encodeQuatAt call each; invalid ones get the identity, as for entities.
    const bx = BONE_QX, by = BONE_QY, bz = BONE_QZ, bw = BONE_QW;
    for (let i = 0; i < c; i++) {
      bx[i] = rotations[i * 4];
      by[i] = rotations[i * 4 + 1];
      bz[i] = rotations[i * 4 + 2];
      bw[i] = rotations[i * 4 + 3];
    }
    let bad = encodeQuatColumns(bx, by, bz, bw, c, this.boneWordsI32, at);
    at += c;
    for (let i = 0; i < c * 3; i++) {
      const v = fr(offsets[i]);
      if (v - v === 0) {
        fl[at++] = v;
      } else {
        fl[at++] = 0;
        bad++;
      }
    }
    this.boneCount = at;
    if (bad > 0) this.badBones(id);
  }

  /** A bone record had rotations or offsets repaired: counted, and its entity flagged SANITIZED. */
  private badBones(id: number): void {
    this.stats.invalidBones++;
    this.repaired++;
    this.inFlags[this.count - 1] |= SANITIZED;
    if (!this.warnOnce.has('bonevalues')) {
      this.warnOnce.warn('bonevalues', `rewindable: bones of entity ${id} had a rotation that cannot be encoded (stored as the identity) or a non-finite offset (stored as 0)`);
    }
  }

  /**
   * Names a life of `id` with a kind (used to re-create it after it despawned) and a label for
   * display; written once, not per frame. Inside a frame it names the life recorded in that frame
   * (or, when `id` is not recorded in it, its next life); outside a frame, the life recorded in the
   * newest frame if it is still alive, else the next one. Descriptions waiting for a life are kept
   * without allocating; at most 4,096 wait at once, and past that the oldest is forgotten. An id
   * that could never be recorded (not an integer in `[0, maxEntityId)`) is ignored and counted in
   * `stats.idsOutOfRange`.
   */
  public describe(id: number, kind: string, label?: string): void {
    if (!(id >= 0 && id < this.options.maxEntityId && (id | 0) === id)) {
      this.stats.idsOutOfRange++;
      if (!this.warnOnce.has('describeId')) {
        this.warnOnce.warn('describeId', `rewindable: describe(${String(id)}): not an entity id (an integer in [0, ${this.options.maxEntityId})); ignored`);
      }
      return;
    }
    if (stringProblem(kind) !== null) kind = this.repairName(kind);
    if (label !== undefined && stringProblem(label) !== null) label = this.repairName(label);
    const t = this.entities;
    if (t.kinds.length >= MAX_KINDS && t.kinds.indexOf(kind) < 0) {
      this.stats.invalidNames++;
      if (!this.warnOnce.has('kinds')) this.warnOnce.warn('kinds', `rewindable: ${MAX_KINDS} entity kinds exist; the description of entity ${id} was dropped`);
      return;
    }
    const h = t.lookup(id);
    if (!this.frameOpen && h >= 0 && t.lastSeen[h] === this.nextFrame - 1) {
      t.kindOf[h] = t.internKind(kind);
      t.labels[h] = label;
      return;
    }
    this.pending.set(id, kind, label, this.frameOpen ? this.nextFrame : -1);
  }

  /** A kind, label or event kind given by the game, made storable (`repairString`) and counted. */
  private repairName(v: unknown): string {
    this.stats.invalidNames++;
    if (!this.warnOnce.has('name')) {
      this.warnOnce.warn('name', 'rewindable: a kind, label or event kind was not a string of at most 65,536 well-formed UTF-16 units; it was converted, lone surrogates replaced by U+FFFD, and cut to 65,536');
    }
    return repairString(v);
  }

  /**
   * Declares the bone hierarchy of a kind: `parents[i]` is bone i's parent, or -1 for a root.
   * Configuration: a bad call throws and changes nothing.
   *
   * @throws RangeError when `kind` is not a string of at most 65,536 well-formed UTF-16 units (or a
   *   65,537th kind), or `parents` does not hold at most 4,095 bones, each parent -1 or the index of
   *   another bone, without cycles.
   * @example
   * recorder.describeSkeleton('humanoid', [-1, 0, 1, 1, 0]); // pelvis, spine, head, arm, leg
   */
  public describeSkeleton(kind: string, parents: ArrayLike<number>): void {
    const kindProblem = stringProblem(kind);
    if (kindProblem !== null) throw new RangeError(`rewindable: describeSkeleton: the kind ${kindProblem}`);
    const problem = parents === null || typeof parents !== 'object' ? 'is not an array' : skeletonProblem(parents);
    if (problem !== null) throw new RangeError(`rewindable: describeSkeleton(${JSON.stringify(kind.slice(0, 64))}): the skeleton ${problem}`);
    const t = this.entities;
    if (t.kinds.length >= MAX_KINDS && t.kinds.indexOf(kind) < 0) throw new RangeError(`rewindable: describeSkeleton: ${MAX_KINDS} kinds exist`);
    t.skeletons[t.internKind(kind)] = Int16Array.from(parents);
  }

  /**
   * Ends the life of `id`: an `entity(id)` recorded after this call (in this frame or later) is a
   * different unique id. Recorded in the same frame before the call, the entity's last frame is this one.
   * An id that could never be recorded is ignored and counted in `stats.idsOutOfRange`.
   */
  public despawn(id: number): void {
    if (!(id >= 0 && id < this.options.maxEntityId && (id | 0) === id)) {
      // Not an id that could be recorded (an int32 queue would store NaN as id 0).
      this.stats.idsOutOfRange++;
      if (!this.warnOnce.has('despawnId')) {
        this.warnOnce.warn('despawnId', `rewindable: despawn(${String(id)}): not an entity id (an integer in [0, ${this.options.maxEntityId})); ignored`);
      }
      return;
    }
    this.resolver.despawn(id, this.frameOpen ? this.count : -1);
  }

  /**
   * The index of an event kind, registering it on first use.
   *
   * @throws RangeError when `name` is not a string of at most 65,536 well-formed UTF-16 units, or
   *   would be the 65,537th event kind (`event` with such a name repairs or drops it instead).
   * @example
   * const HIT = recorder.eventKind('hit'); // then recorder.event(HIT, id, x, y, 0)
   */
  public eventKind(name: string): number {
    const k = this.eventKindIndex.get(name);
    if (k !== undefined) return k;
    const problem = stringProblem(name);
    if (problem !== null) throw new RangeError(`rewindable: an event kind name ${problem}`);
    if (this.eventKinds.length >= MAX_KINDS) throw new RangeError(`rewindable: ${MAX_KINDS} event kinds exist`);
    return this.addEventKind(name);
  }

  private addEventKind(name: string): number {
    const k = this.eventKinds.length;
    this.eventKinds.push(name);
    this.eventKindIndex.set(name, k);
    return k;
  }

  /** `eventKind` for a name given in `event`: repaired when invalid, -1 past 65,536 kinds. */
  private eventKindOf(kind: unknown): number {
    const name = typeof kind === 'string' && stringProblem(kind) === null ? kind : this.repairName(kind);
    const k = this.eventKindIndex.get(name);
    if (k !== undefined) return k;
    return this.eventKinds.length < MAX_KINDS ? this.addEventKind(name) : -1;
  }

  /**
   * Records an event (a timeline marker): e.g. a particle effect's start and end, a hit, a state
   * change. `kind` is a name or an index from `eventKind`; `subject` an entity id or -1.
   */
  public event(kind: number | string, subject: number, x: number, y: number, z: number, value = 0): void {
    if (!this.frameOpen) return this.outside();
    const k = typeof kind === 'number' ? kind : (this.eventKindIndex.get(kind) ?? this.eventKindOf(kind));
    if (!(k >= 0 && k < this.eventKinds.length && (k | 0) === k) || this.eventCount * EVENT_WORDS >= this.events.length) {
      this.stats.eventsDropped++;
      if (!this.warnOnce.has('event')) this.warnOnce.warn('event', `rewindable: event dropped (unknown kind ${String(kind)}, over maxEventsPerFrame, or ${MAX_KINDS} event kinds exist)`);
      return;
    }
    const at = this.eventCount * EVENT_WORDS;
    this.events[at] = k;
    this.events[at + 1] = subject >= 0 && (subject | 0) === subject ? subject : NO_SUBJECT;
    const f = this.eventFloats;
    f[at + 2] = x;
    f[at + 3] = y;
    f[at + 4] = z;
    f[at + 5] = value;
    if (f[at + 2] - f[at + 2] + f[at + 3] - f[at + 3] + f[at + 4] - f[at + 4] + f[at + 5] - f[at + 5] !== 0) this.repairEvent(at);
    this.eventCount++;
  }

  /** Stores 0 for each non-finite float of the event at `at` (the float32 stores rounded them). */
  private repairEvent(at: number): void {
    const f = this.eventFloats;
    for (let i = at + 2; i < at + EVENT_WORDS; i++) if (f[i] - f[i] !== 0) f[i] = 0;
    this.stats.invalidEvents++;
    this.repaired++;
    if (!this.warnOnce.has('eventvalues')) this.warnOnce.warn('eventvalues', 'rewindable: an event had a non-finite position or value (or one beyond float32 range); 0 was stored');
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
    // Should the reservation evict the previous frame, its positions are kept for the repair of a
    // non-finite position (see onEvict).
    this.evictWatch = frame - 1;
    this.evictWatchAt = ring.offsetOf(frame - 1);
    let at = ring.reserve(upper);
    const truncated = at < 0;
    if (truncated) at = ring.reserve(HEADER_WORDS);
    this.evictWatch = -1;
    // One pass: resolve ids to handles and, unless truncated, write handles, positions and encoded
    // rotations straight into the arena.
    const resolver = this.resolver;
    const m = resolver.resolve(frame, n, truncated ? -1 : at + HEADER_WORDS, this.boneCount > 0);
    const dropped = this.droppedEntities + resolver.dropped;
    if (this.pending.count > 0) this.applyPendingAfter(frame);
    const u = ring.u32;
    const f = ring.f32;
    let total = HEADER_WORDS;
    if (truncated) {
      this.stats.framesTruncated++;
      if (!this.warnOnce.has('truncated')) this.warnOnce.warn('truncated', `rewindable: frame ${frame} needs ${upper * 4} bytes, more than the whole arena; only its header was kept`);
      u[at + H_ENTITY_COUNT] = 0;
      u[at + H_DROPPED_ENTITIES] = dropped + m;
      u[at + H_PRIM_WORDS] = 0;
      u[at + H_PRIM_COUNT] = 0;
      u[at + H_BONE_WORDS] = 0;
      u[at + H_EVENT_COUNT] = 0;
    } else {
      const bonesAt = at + HEADER_WORDS + m * 5;
      let w = this.writeBones(bonesAt);
      const boneWords = w - bonesAt;
      const dw = draw.words;
      for (let i = 0; i < draw.wordCount; i++) u[w + i] = dw[i];
      w += draw.wordCount;
      const ev = this.events;
      for (let i = 0; i < this.eventCount * EVENT_WORDS; i++) u[w + i] = ev[i];
      total = HEADER_WORDS + m * 5 + boneWords + draw.wordCount + this.eventCount * EVENT_WORDS;
      u[at + H_ENTITY_COUNT] = m;
      u[at + H_DROPPED_ENTITIES] = dropped;
      u[at + H_PRIM_WORDS] = draw.wordCount;
      u[at + H_PRIM_COUNT] = draw.primCount;
      u[at + H_BONE_WORDS] = boneWords;
      u[at + H_EVENT_COUNT] = this.eventCount;
    }
    u[at + H_FRAME] = frame;
    // Time: finite and never before the previous frame's; dt: a finite float32 (else repaired).
    const time = this.time;
    const timeOk = time - time === 0 && !(time < this.lastTime);
    const storedTime = timeOk ? time : this.lastTime - this.lastTime === 0 ? this.lastTime : 0;
    ring.f64[(at + H_TIME) >>> 1] = storedTime;
    this.lastTime = storedTime;
    f[at + H_DT] = this.dt;
    if (!timeOk || f[at + H_DT] - f[at + H_DT] !== 0) this.badTime(at, frame);
    u[at + H_OVER_BUDGET] = draw.overBudget;
    u[at + H_DROPPED_PRIMS] = draw.droppedPrims;
    u[at + H_DROPPED_TEXT] = draw.droppedTextBytes;
    u[at + H_FLAGS] = (truncated ? FRAME_TRUNCATED : 0) | (this.hasCamera ? FRAME_HAS_CAMERA : 0);
    const c = this.cam;
    if (this.hasCamera) {
      f[at + H_CAM_X] = c[0];
      f[at + H_CAM_Y] = c[1];
      f[at + H_CAM_Z] = c[2];
      u[at + H_CAM_ROT] = encodeQuatAt(c, 3);
      f[at + H_CAM_ZOOM] = c[7];
      const zoom = f[at + H_CAM_ZOOM];
      if (quatStatus.sanitized || !(zoom > 0) || f[at + H_CAM_X] - f[at + H_CAM_X] + f[at + H_CAM_Y] - f[at + H_CAM_Y] +
          f[at + H_CAM_Z] - f[at + H_CAM_Z] + zoom - zoom !== 0) {
        this.repairCamera(at);
      }
    } else {
      f[at + H_CAM_X] = 0;
      f[at + H_CAM_Y] = 0;
      f[at + H_CAM_Z] = 0;
      u[at + H_CAM_ROT] = QUAT_IDENTITY_BITS;
      f[at + H_CAM_ZOOM] = 1;
    }
    u[at + H_SANITIZED] = resolver.sanitized + draw.invalidPrims + this.repaired;
    u[at + H_TOTAL_WORDS] = total;
    u[at + HEADER_WORDS - 1] = 0;
    ring.commit(frame, total);
    this.stats.framesRecorded++;
    if (this.frameEndListeners.length > 0) this.notifyFrameEnd(frame);
  }

  /**
   * Calls `listener` with each frame's number right after the frame is committed to the ring (a
   * live stream sends it then). A throwing listener is reported once and never reaches the game.
   * Returns the function that removes the listener.
   *
   * @example
   * const stop = recorder.onFrameEnd((frame) => sender.send(frame));
   */
  public onFrameEnd(listener: (frame: number) => void): () => void {
    this.frameEndListeners.push(listener);
    return () => {
      const i = this.frameEndListeners.indexOf(listener);
      if (i >= 0) this.frameEndListeners.splice(i, 1);
    };
  }

  private notifyFrameEnd(frame: number): void {
    const list = this.frameEndListeners;
    for (let i = 0; i < list.length; i++) {
      try {
        list[i](frame);
      } catch (e) {
        this.warnOnce.warn('frameEnd', `rewindable: an onFrameEnd listener threw (${e instanceof Error ? e.message : String(e)}); the frame is recorded`);
      }
    }
  }

  /**
   * Repairs the camera of the frame at word `at` (position 0, rotation the identity, zoom 1 for each
   * value that is not valid once stored) and counts it.
   */
  private repairCamera(at: number): void {
    const f = this.ring.f32;
    for (let i = at + H_CAM_X; i <= at + H_CAM_Z; i++) if (f[i] - f[i] !== 0) f[i] = 0;
    if (quatStatus.sanitized) quatStatus.sanitized = false;
    const zoom = f[at + H_CAM_ZOOM];
    if (!(zoom > 0 && zoom - zoom === 0)) f[at + H_CAM_ZOOM] = 1;
    this.stats.invalidCameras++;
    this.repaired++;
    if (!this.warnOnce.has('camera')) {
      this.warnOnce.warn('camera', 'rewindable: the camera had a non-finite position, a rotation that cannot be encoded, or a zoom that is not a positive finite float32; 0, the identity and 1 were stored instead');
    }
  }

  /** Counts a frame whose time or dt was repaired (the time before, or 0; dt 0) at word `at`. */
  private badTime(at: number, frame: number): void {
    const f = this.ring.f32;
    if (f[at + H_DT] - f[at + H_DT] !== 0) f[at + H_DT] = 0;
    this.stats.invalidTimes++;
    this.repaired++;
    if (!this.warnOnce.has('time')) {
      this.warnOnce.warn('time', `rewindable: frame ${frame}: the time was not finite or went back (the previous frame's was stored), or dt was not a finite float32 (0 was stored)`);
    }
  }

  /**
   * Copies bone records, renumbering entity indices past dropped entries (whose records are
   * dropped); returns the word after the last record written.
   */
  private writeBones(w: number): number {
    if (this.boneCount === 0) return w;
    const u = this.ring.u32;
    const bw = this.boneWords;
    for (let r = 0; r < this.boneCount;) {
      const head = bw[r];
      const c = head >>> BONE_INDEX_BITS;
      const words = 1 + c * 4;
      const k = this.resolver.keptIndex[head & BONE_INDEX_MASK];
      if (k >= 0) {
        u[w] = k | (c << BONE_INDEX_BITS);
        for (let j = 1; j < words; j++) u[w + j] = bw[r + j];
        w += words;
      } else {
        this.stats.bonesDropped++;
      }
      r += words;
    }
    return w;
  }

  /** Drops every recorded frame and every entity life; channels, kinds and options stay. */
  public clear(): void {
    if (this.frameOpen) this.endFrame();
    this.lastTime = NaN;
    this.ring.clear();
    this.pending.clear();
    this.resolver.clear();
    this.entities.clear();
  }

  private onEvict(frame: number): void {
    this.stats.framesEvicted++;
    if (frame === this.evictWatch && this.evictWatchAt >= 0) this.resolver.keepPrevious(frame, this.evictWatchAt);
    this.resolver.evicted(frame);
  }

  /**
   * Applies the descriptions made in `frame` to the lives recorded in it that continued (new lives
   * took theirs while resolving). Older descriptions wait for a new life: their id was not alive
   * when they were made, so its next appearance starts one. Only this frame's are visited: they
   * are the newest.
   */
  private applyPendingAfter(frame: number): void {
    const p = this.pending;
    const t = this.entities;
    for (let e = p.last; e >= 0 && p.frameAt(e) === frame;) {
      const before = p.before(e);
      const h = t.lookup(p.idAt(e));
      if (h >= 0 && t.lastFrame(h) === frame) this.apply(e, h);
      e = before;
    }
  }

  /** A new life of `id` (handle `h`) takes the description waiting for it, if any. */
  private applyPending(id: number, h: number): void {
    const e = this.pending.find(id);
    if (e >= 0) this.apply(e, h);
  }

  private apply(e: number, h: number): void {
    const t = this.entities;
    t.kindOf[h] = t.internKind(this.pending.kindAt(e));
    t.labels[h] = this.pending.labelAt(e);
    this.pending.remove(e);
  }

  /** Counts an entity call that could not be stored (outside a frame, bad id, over capacity). */
  private refuse(id: number): void {
    if (!this.frameOpen) return this.outside();
    if (!(id >= 0 && id < this.options.maxEntityId && (id | 0) === id)) return this.badId(id);
    return this.overCapacity();
  }

  private outside(): void {
    this.stats.callsOutsideFrame++;
    this.warnOnce.warn('outside', 'rewindable: recorder called outside beginFrame/endFrame; the call was ignored');
  }

  private badId(id: number): void {
    this.droppedEntities++;
    this.resolver.badId(id);
  }

  private overCapacity(): void {
    this.stats.entitiesOverCapacity++;
    this.droppedEntities++;
    if (!this.warnOnce.has('cap')) this.warnOnce.warn('cap', `rewindable: more than ${this.options.maxEntitiesPerFrame} entities in one frame; the rest were dropped`);
  }
}
