import { HANDLE_BITS, MAX_HANDLES } from '../format/layout';
import type { WarnOnce } from '../validate/WarnOnce';
import type { EntityKernel } from '../kernel/EntityKernel';
import type { FrameReader } from '../read/FrameReader';
import { DeathQueue } from './DeathQueue';
import { EntityRepair } from './EntityRepair';
import { type EntityTable, ID_PAGE_BITS } from '../store/EntityTable';
import type { FrameRing } from '../store/FrameRing';
import type { RecorderStats } from './RecorderStats';

const ID_PAGE_MASK = (1 << ID_PAGE_BITS) - 1;

/** Runs of continued lives remembered per frame (games that keep their order have a handful). */
const MAX_RUNS = 64;

/** What an `EntityResolver` works with: the recorder's storage, kernel, reader and warning channel. */
export interface EntityResolverContext {
  /** Most entries per frame. */
  readonly capacity: number;
  /** The recorder's kernel; the resolver's block (`EntityResolver.layout`) is at byte `blockByte` of its buffer. */
  readonly kernel: EntityKernel;
  readonly blockByte: number;
  /** Where the frame's entity section is written. */
  readonly ring: FrameRing;
  /** Lives: id → handle, spawn and last frames. */
  readonly table: EntityTable;
  /** Reads the previous frame's positions, to repair a non-finite one. */
  readonly reader: FrameReader;
  readonly stats: RecorderStats;
  /** Reports each kind of problem once. */
  readonly warnings: WarnOnce;
  /** Called when an entry starts a new life (the recorder applies a pending `describe`). */
  readonly onNewLife: (id: number, handle: number) => void;
}

/** Words of the block header that tells the WebAssembly `run` where the columns are (byte addresses). */
const HEADER = 8;
const L_IDS = 0;
const L_FLAGS = 1;
const L_PREV_IDS = 2;
const L_PREV_HANDLES = 3;
const L_CUR_IDS = 4;
const L_CUR_HANDLES = 5;
const L_SEEN = 6;

/** `n` bytes rounded up to a multiple of 16. */
function pad16(n: number): number {
  return Math.ceil(n / 16) * 16;
}

/**
 * The second half of recording entities. `Recorder.entity` and its batch forms only stage each
 * entry (id and flags here, positions and rotations in the kernel's columns); at `endFrame`,
 * `resolve` turns the staged entries into lives and writes the frame's entity section:
 * - an entry continues the life its id had in the previous frame, unless `despawn` ended it;
 *   otherwise it starts a new life (a new unique id, that is id + spawn frame);
 * - a second entry of the same life in one frame is dropped and counted;
 * - the kernel packs positions and encodes rotations straight into the arena; non-finite positions
 *   are replaced by the entity's last stored one and invalid rotations by the identity, both
 *   flagged `SANITIZED`;
 * - lives of the previous frame that were not recorded again end there, and their handles go back
 *   to the table once that frame is evicted.
 *
 * Internal to the recorder; exported for its tests.
 *
 * Size: the continuity rules above are one pass over the staged entries, with the kernel's run and
 * the JavaScript path kept side by side so that they visibly apply the same rules; the rare
 * repairs live in `EntityRepair`.
 *
 * @example
 * const block = EntityResolver.layout(capacity, handles); // bytes to reserve in the kernel's buffer
 * const resolver = new EntityResolver({ capacity, kernel, blockByte, ring, table, reader, stats, warnings, onNewLife });
 * resolver.ids[0] = 7; // staged by Recorder.entity, with kernel.x[0] ... kernel.qw[0]
 * const kept = resolver.resolve(frame, 1, base, false);
 */
export class EntityResolver {
  /**
   * Bytes of the resolver's block for `capacity` entries per frame and `handleCapacity` handles, and
   * where in it the entity table's `lastSeen` goes. The block lives in the kernel's memory, so that
   * the kernel's `run` (the WebAssembly form of `continueRun`) reads and writes it.
   */
  public static layout(capacity: number, handleCapacity: number): { bytes: number; lastSeen: number } {
    const lists = HEADER * 4 + pad16(4 * capacity) + pad16(capacity) + 4 * pad16(4 * capacity);
    return { bytes: lists + pad16(4 * handleCapacity), lastSeen: lists };
  }

  /** Staged ids, written by the recorder (entries [0, n) of the open frame). */
  public readonly ids: Int32Array;
  /** Staged display flags, written by the recorder; `resolve` adds `SANITIZED` to repaired entries. */
  public readonly flags: Uint8Array;
  /**
   * After `resolve`: each staged entry's index among the kept entries, or -1 when it was dropped.
   * Filled only when an entry was dropped, or when `resolve` was asked to (`needKeptIndex`);
   * otherwise entry i is kept at i.
   */
  public readonly keptIndex: Int32Array;
  /** Entries the last `resolve` dropped (duplicates, no handle left). */
  public dropped = 0;
  /** Entries the last `resolve` repaired (non-finite position, invalid rotation). */
  public sanitized = 0;

  /** The kept lives of this frame (ids and handles) and of the previous one; swapped every frame. */
  private handles: Int32Array;
  private prevHandles: Int32Array;
  private keptIds: Int32Array;
  private prevIds: Int32Array;
  /** The block header: byte addresses of the columns, for the kernel's `run`. */
  private readonly header: Int32Array;
  private readonly headerByte: number;
  private prevCount = 0;
  private readonly despawnIds: Int32Array;
  private readonly despawnAt: Int32Array;
  private despawnCount = 0;
  private readonly deaths: DeathQueue;
  /** This frame's `continueRun` runs as [start, end) pairs (entry indices), for `collectDeaths`. */
  private readonly runBounds = new Int32Array(2 * MAX_RUNS);
  private runCount = 0;
  /** Repairs of invalid positions and rotations, and compaction after dropped entries (rare). */
  private readonly repair: EntityRepair;

  private readonly kernel: EntityKernel;
  private readonly ring: FrameRing;
  private readonly table: EntityTable;
  private readonly reader: FrameReader;
  private readonly stats: RecorderStats;
  private readonly warnings: WarnOnce;
  private readonly onNewLife: (id: number, handle: number) => void;

  public constructor(context: EntityResolverContext) {
    const { capacity, kernel, blockByte } = context;
    this.kernel = kernel;
    this.ring = context.ring;
    this.table = context.table;
    this.reader = context.reader;
    this.stats = context.stats;
    this.warnings = context.warnings;
    this.onNewLife = context.onNewLife;
    const buffer = kernel.buffer;
    this.headerByte = blockByte;
    this.header = new Int32Array(buffer, blockByte, HEADER);
    let at = blockByte + HEADER * 4;
    const column = (bytes: number): number => {
      const start = at;
      at += pad16(bytes);
      return start;
    };
    this.ids = new Int32Array(buffer, column(4 * capacity), capacity);
    this.flags = new Uint8Array(buffer, column(capacity), capacity);
    this.prevIds = new Int32Array(buffer, column(4 * capacity), capacity);
    this.prevHandles = new Int32Array(buffer, column(4 * capacity), capacity);
    this.keptIds = new Int32Array(buffer, column(4 * capacity), capacity);
    this.handles = new Int32Array(buffer, column(4 * capacity), capacity);
    this.header[L_IDS] = this.ids.byteOffset;
    this.header[L_FLAGS] = this.flags.byteOffset;
    this.writeListHeader();
    this.keptIndex = new Int32Array(capacity);
    this.despawnIds = new Int32Array(capacity);
    this.despawnAt = new Int32Array(capacity);
    this.deaths = new DeathQueue(context.table.capacity);
    this.repair = new EntityRepair({
      kernel,
      ring: this.ring,
      table: this.table,
      reader: this.reader,
      stats: this.stats,
      warnings: this.warnings,
      ids: this.ids,
      flags: this.flags,
      keptIndex: this.keptIndex,
    });
  }

  /** Starts a frame: forgets the previous frame's counts and queued despawns. */
  public begin(): void {
    this.despawnCount = 0;
    this.dropped = 0;
    this.sanitized = 0;
  }

  /**
   * Ends the life of `id` once the first `at` staged entries are resolved (so an entry staged before
   * the call still continues it), or now when `at` < 0 or the queue is full.
   */
  public despawn(id: number, at: number): void {
    if (at >= 0 && this.despawnCount < this.despawnIds.length) {
      this.despawnIds[this.despawnCount] = id;
      this.despawnAt[this.despawnCount] = at;
      this.despawnCount++;
    } else {
      this.endLife(id);
    }
  }

  /**
   * Keeps the entities and positions of `frame`, held at word `at` of the arena and being evicted
   * to make room for the frame after it (called before that frame is written).
   */
  public keepPrevious(frame: number, at: number): void {
    this.repair.keepPrevious(frame, at);
  }

  /** Releases the handles of lives whose last frame is `frame` or older (that frame was evicted). */
  public evicted(frame: number): void {
    this.deaths.releaseThrough(frame, this.table);
  }

  /** Forgets the previous frame and every ended life (the table is cleared by its owner). */
  public clear(): void {
    this.deaths.clear();
    this.prevCount = 0;
    this.repair.clear();
  }

  /**
   * Turns the `n` staged entries of `frame` into handles: continues lives, starts new ones (after a
   * gap or a despawn), drops duplicates, repairs invalid positions and rotations. When `base` ≥ 0 it
   * also writes the entity section at that word of the arena: the kernel packs positions and
   * encodes rotations for all `n` entries in place, `resolve` writes handle|flags, and dropped
   * entries are compacted away. Returns how many entities are kept.
   */
  public resolve(frame: number, n: number, base: number, needKeptIndex: boolean): number {
    const arenaByte = this.ring.byteOffset;
    // Non-finite positions and invalid quaternions are rare: the kernel counts them, and only then
    // does the loop below look for them.
    let badPositions = 1;
    let badRotations = 1;
    if (base >= 0 && n > 0) {
      badPositions = this.kernel.packPositions(n, arenaByte + (base + n) * 4);
      badRotations = this.kernel.encodeRotations(n, arenaByte + (base + 4 * n) * 4);
    }
    const table = this.table;
    const despawnAt = this.despawnAt;
    const despawns = this.despawnCount;
    const prevCount = this.prevCount;
    const keptIndex = this.keptIndex;
    // Runs of entries that continue, in the same order, the lives of the previous frame go through
    // `continueRun`; the rest (and every entry of a frame with a non-finite position, or truncated)
    // one by one below.
    const runs = base >= 0 && badPositions === 0;
    const previous = frame - 1;
    let dropped = 0;
    let continued = 0;
    let d = 0;
    this.runCount = 0;
    for (let i = 0; i < n; ) {
      while (d < despawns && despawnAt[d] <= i) this.endLife(this.despawnIds[d++]);
      if (runs) {
        // A run stops before the next despawn (it must end that life first) and at the end of the
        // previous frame's entries.
        let end = d < despawns ? despawnAt[d] : n;
        if (end > prevCount) end = prevCount;
        // An entry out of place (a reordered frame) skips the call: `continueRun` would stop at it.
        if (end > i && this.ids[i] === this.prevIds[i]) {
          const j = this.continueRun(i, end, dropped, frame, base);
          if (dropped > 0) for (let k = i; k < j; k++) keptIndex[k] = k - dropped;
          continued += j - i;
          if (j > i) this.noteRun(i, j);
          i = j;
          if (i === end) continue;
        }
      }
      // Entry i did not continue the life at its position in the previous frame: the id map
      // (table.lookup(id), inlined).
      // `entityColumns` stages an Int32Array of ids unchecked: an id out of range is dropped here.
      const id = this.ids[i];
      let kept = id >= 0 && id < table.maxEntityId;
      let h = -1;
      if (kept) {
        const page = table.dir[id >>> ID_PAGE_BITS];
        h = page === 0 ? -1 : table.pool[page - 1 + (id & ID_PAGE_MASK)] - 1;
      } else {
        this.badId(id);
      }
      let isContinued = false;
      if (h >= 0) {
        const seen = table.lastSeen[h];
        if (seen === frame) {
          // Recorded earlier in this frame and not despawned since.
          kept = false;
          this.duplicate(id);
        } else {
          // In frame 0 there is no previous frame: a life ended in frame 0 has lastSeen ~0 = -1,
          // which must not read as "recorded in frame -1".
          isContinued = seen === previous && previous >= 0;
        }
      }
      if (kept && !isContinued) {
        h = table.allocate(id, frame);
        if (h < 0) {
          kept = false;
          this.noHandle(id);
        } else {
          this.onNewLife(id, h);
        }
      }
      if (!kept) {
        if (dropped === 0) this.startKeptIndex(i);
        dropped++;
        keptIndex[i] = -1;
        i++;
        continue;
      }
      const m = i - dropped;
      if (dropped > 0) keptIndex[i] = m;
      if (isContinued) continued++;
      const X = this.kernel.x,
        Y = this.kernel.y,
        Z = this.kernel.z;
      if (badPositions !== 0 && X[i] - X[i] + Y[i] - Y[i] + Z[i] - Z[i] !== 0) {
        this.repair.position(frame, i, h, isContinued, base < 0 ? -1 : base + n + i * 3);
        this.sanitized++;
      }
      this.handles[m] = h;
      this.keptIds[m] = id;
      table.lastSeen[h] = frame;
      if (base >= 0) this.ring.u32[base + m] = h | (this.flags[i] << HANDLE_BITS);
      i++;
    }
    const m = n - dropped;
    this.dropped = dropped;
    // Bones and rotation repairs read keptIndex for every entry.
    if (dropped === 0 && (needKeptIndex || badRotations !== 0)) this.startKeptIndex(n);
    while (d < despawns) this.endLife(this.despawnIds[d++]);
    if (badRotations !== 0) this.sanitized += this.repair.rotations(n, base);
    if (base >= 0 && m < n) this.repair.compact(n, m, base);
    // Every life of the previous frame continued: none died (the usual frame), no need to look.
    if (continued < prevCount) this.collectDeaths(frame);
    // This frame's lives become the previous frame's.
    const th = this.prevHandles;
    this.prevHandles = this.handles;
    this.handles = th;
    const ti = this.prevIds;
    this.prevIds = this.keptIds;
    this.keptIds = ti;
    this.writeListHeader();
    this.prevCount = m;
    return m;
  }

  /** Tells the kernel's `run` where the lists are now (after a swap). */
  private writeListHeader(): void {
    const h = this.header;
    h[L_PREV_IDS] = this.prevIds.byteOffset;
    h[L_PREV_HANDLES] = this.prevHandles.byteOffset;
    h[L_CUR_IDS] = this.keptIds.byteOffset;
    h[L_CUR_HANDLES] = this.handles.byteOffset;
  }

  /**
   * The steady state of `resolve`: from entry `i` up to `end`, while each entry has the id the
   * previous frame had at the same position and that life is still open (recorded in the previous
   * frame, not despawned, not taken by an earlier entry of this frame), continues it: the handle
   * goes to `handles`, the handle and flags to the arena's entity section at `base`. Returns the
   * first entry it did not take. The kernel's WebAssembly `run` does it while the table's `lastSeen`
   * is in the kernel's memory; the JavaScript loop below is its twin (V8 re-checks each typed
   * array on every iteration here, so it is about three times slower).
   *
   * Why one load decides: a life recorded in the previous frame is the newest life of its id, and
   * `lastSeen[h] === frame - 1` holds only while it is open and not yet recorded in this frame.
   */
  private continueRun(i: number, end: number, dropped: number, frame: number, base: number): number {
    // The same loop in WebAssembly, while the table's lastSeen is still in the kernel's memory (until
    // the table grows past the capacity it was given).
    const run = this.kernel.run;
    const seenArray = this.table.lastSeen;
    if (run !== null && seenArray.buffer === this.kernel.buffer) {
      this.header[L_SEEN] = seenArray.byteOffset;
      return run(i, end, dropped, frame, this.ring.byteOffset + (base - dropped) * 4, this.headerByte);
    }
    const ids = this.ids;
    const prevIds = this.prevIds;
    const prevHandles = this.prevHandles;
    const seen = this.table.lastSeen;
    const handles = this.handles;
    const keptIds = this.keptIds;
    const flags = this.flags;
    const u = this.ring.u32;
    const previous = frame - 1;
    const w = base - dropped;
    for (; i < end; i++) {
      const id = ids[i];
      if (prevIds[i] !== id) break;
      const h = prevHandles[i];
      if (seen[h] !== previous) break;
      seen[h] = frame;
      handles[i - dropped] = h;
      keptIds[i - dropped] = id;
      u[w + i] = h | (flags[i] << HANDLE_BITS);
    }
    return i;
  }

  /**
   * Remembers that `continueRun` continued the lives at the previous frame's entries [start, end):
   * none of them died, so `collectDeaths` skips them. Past `MAX_RUNS` runs it looks at everything.
   */
  private noteRun(start: number, end: number): void {
    const k = this.runCount++;
    if (k < MAX_RUNS) {
      this.runBounds[2 * k] = start;
      this.runBounds[2 * k + 1] = end;
    }
  }

  /**
   * Lives of the previous frame not recorded in this one died in the previous frame. Only the
   * previous frame's entries outside the runs `continueRun` took need a look.
   */
  private collectDeaths(frame: number): void {
    const runs = this.runCount <= MAX_RUNS ? this.runCount : 0;
    let from = 0;
    for (let r = 0; r < runs; r++) {
      this.collectDeathsIn(frame, from, this.runBounds[2 * r]);
      from = this.runBounds[2 * r + 1];
    }
    this.collectDeathsIn(frame, from, this.prevCount);
  }

  private collectDeathsIn(frame: number, from: number, to: number): void {
    const table = this.table;
    const prev = this.prevHandles;
    for (let i = from; i < to; i++) {
      const h = prev[i];
      const seen = table.lastSeen[h];
      if (seen !== frame && seen !== ~frame && table.used[h] === 1) this.deaths.push(h, frame - 1);
    }
  }

  private endLife(id: number): void {
    const h = this.table.lookup(id);
    if (h >= 0) this.table.end(h);
  }

  /** Fills `keptIndex[0..i)` with the identity: every entry before `i` was kept, in place. */
  private startKeptIndex(i: number): void {
    const k = this.keptIndex;
    for (let j = 0; j < i; j++) k[j] = j;
  }

  /**
   * Counts and reports (once) an id that is not an integer in [0, maxEntityId): the recorder's
   * staging refuses such ids with it too. The caller counts the entry as dropped.
   */
  public badId(id: number): void {
    this.stats.idsOutOfRange++;
    if (!this.warnings.has('id')) {
      this.warnings.warn(
        'id',
        `rewindable: entity id ${String(id)} is not an integer in [0, ${this.table.maxEntityId}); the entity was dropped`,
      );
    }
  }

  private duplicate(id: number): void {
    this.stats.duplicateIds++;
    if (!this.warnings.has('dup'))
      this.warnings.warn(
        'dup',
        `rewindable: entity id ${id} was recorded twice in one frame; the second record was dropped`,
      );
  }

  private noHandle(id: number): void {
    this.stats.entitiesOverCapacity++;
    if (!this.warnings.has('handles')) {
      this.warnings.warn(
        'handles',
        `rewindable: all ${MAX_HANDLES} entity handles are held by the ring; entity ${id} was dropped`,
      );
    }
  }
}
