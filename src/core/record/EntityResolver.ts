import { HANDLE_BITS as LAYOUT_HANDLE_BITS, MAX_HANDLES } from '../format/layout';
import type { WarnOnce } from '../validate/WarnOnce';
import type { DespawnFn, EntityKernel } from '../kernel/EntityKernel';
import type { FrameReader } from '../read/FrameReader';
import { DeathQueue } from './DeathQueue';
import { EntityRepair } from './EntityRepair';
import type { EntityTable } from '../store/EntityTable';
import { GOLDEN, OpenLives } from './OpenLives';
import type { FrameRing } from '../store/FrameRing';
import type { RecorderStats } from './RecorderStats';

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

/** A module local, not an imported binding (some loaders make the latter a getter: a call per use). */
const HANDLE_BITS = LAYOUT_HANDLE_BITS;

/**
 * Words of the block header that tells the WebAssembly `match` where the columns are (byte
 * addresses) and how the open lives are hashed.
 */
const HEADER = 16;
const L_IDS = 0;
const L_FLAGS = 1;
const L_PREV_IDS = 2;
/** New lives the kernel's `match` may open in this call (it counts them down). */
const L_ROOM = 3;
const L_CUR_IDS = 4;
const L_CUR_HANDLES = 5;
/** Byte address of the births list: the entries whose lives `match` opened. */
const L_BIRTHS = 6;
const L_SLOTS = 7;
const L_MASK = 8;
const L_SHIFT = 9;
const L_MAX_ID = 10;
const L_PREV_COUNT = 11;
const L_PREV_HANDLES = 12;
const L_TAKEN = 13;
/** Entries in the births list (`match` appends, `resolve` empties it after each call). */
const L_BIRTH_COUNT = 14;
/** Word 15 is `match`'s: what its reading ahead loaded (written so that the loads stay, never read). */

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
 * Entries find their lives by id in `OpenLives`, a hash of the open lives in the kernel's memory,
 * so neither the order of the entries, nor churn, nor the spread of the ids changes the cost of an
 * entry: the kernel's `match` tests first whether an entry continues the life at its position in
 * the previous frame (four at a time), probes the hash otherwise, opens new lives itself while the
 * hash has room (their handles are allocated here right after the call), and returns to JavaScript
 * only for a duplicate, a bad id, or a new life it may not open. The despawns queued before the
 * first entry are ended by the kernel's `despawn` in one call (`despawnQueued`). A life's
 * `lastSeen` in the table is written when it opens (`OPEN_LIFE`: its last frame is the table's
 * `openFrame`, set once per frame) and once when it ends, never per frame.
 *
 * Internal to the recorder; exported for its tests.
 *
 * @example
 * const block = EntityResolver.layout(capacity); // bytes to reserve in the kernel's buffer
 * const resolver = new EntityResolver({ capacity, kernel, blockByte, ring, table, reader, stats, warnings, onNewLife });
 * resolver.ids[0] = 7; // staged by Recorder.entity, with kernel.x[0] ... kernel.qw[0]
 * const kept = resolver.resolve(frame, 1, base, false);
 */
export class EntityResolver {
  /** Bytes of the resolver's block for `capacity` entries per frame (in the kernel's memory). */
  public static layout(capacity: number): { bytes: number } {
    const lists = HEADER * 4 + 2 * pad16(capacity) + 6 * pad16(4 * capacity);
    return { bytes: lists + 4 * OpenLives.blockWords(OpenLives.reservedSlots(capacity)) };
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

  /** The kept lives of this frame (ids, handles) and of the previous one; swapped every frame. */
  private handles: Int32Array;
  private prevHandles: Int32Array;
  private keptIds: Int32Array;
  private prevIds: Int32Array;
  /** The open lives by id. */
  private readonly lives: OpenLives;
  /**
   * For each entry of the previous frame: 0 while its life may continue in this frame, 1 once it
   * did, 2 once it was despawned. An entry at the same position as in the previous frame continues
   * on this byte alone, without the hash; deaths are the zeros left, found four entries a load.
   * Cleared every frame.
   */
  private readonly taken: Uint8Array;
  private readonly takenWords: Uint32Array;
  /** The last frame resolved (-1: none since the start or `clear`). */
  private resolved = -1;
  /** The block header: byte addresses of the columns, for the kernel's `match`. */
  private readonly header: Int32Array;
  private readonly headerByte: number;
  private prevCount = 0;
  /** The despawns queued in the open frame (grown when a frame despawns more ids than its capacity). */
  private despawnIds: Int32Array;
  private despawnAt: Int32Array;
  private despawnCount = 0;
  /**
   * The most despawns a frame queues: one per handle (more can only repeat an id or name none). A
   * despawn past it ends its life at once, as outside a frame; so a game that calls `despawn` in a
   * runaway loop costs bounded memory (two Int32Arrays of this length at the most).
   */
  private despawnLimit = MAX_HANDLES;
  /** What reading ahead (the despawned ids' slots) found: kept so that those reads stay. */
  public readAhead = 0;
  private readonly deaths: DeathQueue;
  /**
   * Handles of lives despawned after their entry in the frame being resolved, and their entries'
   * indices: they go to the death queue after the lives that ended in the previous frame (which
   * keeps the queue in frame order), and their entries are marked despawned for the next frame.
   */
  private readonly endedNow: Int32Array;
  private readonly endedNowAt: Int32Array;
  private endedNowCount = 0;
  /**
   * Entries of the previous frame whose lives `despawn` ended before they continued (their `taken`
   * byte is 2): with the entries that continued, they tell whether any life died by absence.
   */
  private despawnedPrev = 0;
  /** Entries whose lives the kernel's `match` opened (their handles are allocated after the call). */
  private readonly births: Int32Array;
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
    this.births = new Int32Array(buffer, column(4 * capacity), capacity);
    const takenByte = column(capacity);
    this.taken = new Uint8Array(buffer, takenByte, capacity);
    this.takenWords = new Uint32Array(buffer, takenByte, Math.ceil(capacity / 4));
    const reserved = OpenLives.reservedSlots(capacity);
    const slotsByte = column(4 * OpenLives.blockWords(reserved));
    this.lives = new OpenLives(new Int32Array(buffer, slotsByte, OpenLives.blockWords(reserved)), reserved);
    this.header[L_TAKEN] = takenByte;
    this.header[L_MAX_ID] = context.table.maxEntityId;
    this.header[L_IDS] = this.ids.byteOffset;
    this.header[L_FLAGS] = this.flags.byteOffset;
    this.header[L_SLOTS] = slotsByte;
    this.header[L_BIRTHS] = this.births.byteOffset;
    this.writeListHeader();
    this.keptIndex = new Int32Array(capacity);
    this.despawnIds = new Int32Array(capacity);
    this.despawnAt = new Int32Array(capacity);
    this.deaths = new DeathQueue(1024); // small and grown when full: see DeathQueue
    this.endedNow = new Int32Array(capacity);
    this.endedNowAt = new Int32Array(capacity);
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
   * the call still continues it), or now when `at` < 0 (outside a frame) or the frame has queued
   * `despawnLimit` despawns already. The queue grows when a frame despawns more ids than it holds
   * entries (rare: ending such a life now would start a new life for an entry of it staged before
   * the call).
   */
  public despawn(id: number, at: number): void {
    if (at < 0 || this.despawnCount >= this.despawnLimit) {
      this.endLife(id, this.resolved + 1, 0);
      return;
    }
    if (this.despawnCount === this.despawnIds.length) this.growDespawns();
    this.despawnIds[this.despawnCount] = id;
    this.despawnAt[this.despawnCount] = at;
    this.despawnCount++;
  }

  /** Doubles the despawn queue, keeping what it holds. */
  private growDespawns(): void {
    const ids = new Int32Array(
      Math.min(2 * this.despawnIds.length, Math.max(this.despawnLimit, this.despawnIds.length)),
    );
    const at = new Int32Array(ids.length);
    ids.set(this.despawnIds);
    at.set(this.despawnAt);
    this.despawnIds = ids;
    this.despawnAt = at;
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

  /** Forgets the previous frame and every life (the table is cleared by its owner). */
  public clear(): void {
    this.deaths.clear();
    this.prevCount = 0;
    this.despawnedPrev = 0;
    this.resolved = -1;
    this.lives.clear();
    this.taken.fill(0);
    this.writeListHeader();
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
    if (frame !== this.resolved + 1) this.endAll();
    const arenaByte = this.ring.byteOffset;
    // Non-finite positions and invalid quaternions are rare: the kernel counts them, and only then
    // does the loop below look for them.
    let badPositions = 1;
    let badRotations = 1;
    if (base >= 0 && n > 0) {
      badPositions = this.kernel.packPositions(n, arenaByte + (base + n) * 4);
      badRotations = this.kernel.encodeRotations(n, arenaByte + (base + 4 * n) * 4);
    }
    const despawnAt = this.despawnAt;
    const despawns = this.despawnCount;
    const keptIndex = this.keptIndex;
    const lives = this.lives;
    const slotWords = lives.words;
    const maxId = this.table.maxEntityId;
    // The kernel's match takes entries while it can (a frame with a non-finite position, or
    // truncated, goes one by one below).
    const match = base >= 0 && badPositions === 0 ? this.kernel.match : null;
    // The kernel opens new lives itself only when no handle allocation can fail in this frame (an
    // allocation that failed would drop its entry, after the kernel had placed the ones after it).
    const births = match !== null && MAX_HANDLES - this.table.liveCount >= n;
    let dropped = 0;
    let continued = 0;
    let d = 0;
    const despawnFn = this.kernel.despawn;
    if (despawnFn !== null && despawns > 0 && despawnAt[0] <= 0) {
      // The despawns queued before the frame's first entry (all of them, for a game that despawns
      // before it records): in the kernel.
      d = this.despawnQueued(despawnFn, frame);
    } else if (despawns > 8) {
      // The despawned ids' slots, read once ahead of ending their lives: a short loop of
      // independent loads keeps many cache misses in flight, where each `endLife` would wait for
      // its own.
      this.readAheadDespawns(despawns);
    }
    // After a new life, the next entries go one by one here until one continues a life: spawns come
    // in runs (a burst, or appended at the end of the game's arrays), and a call into the kernel
    // per new life would cost more than its probe.
    let inKernel = true;
    for (let i = 0; i < n; ) {
      while (d < despawns && despawnAt[d] <= i) this.endLife(this.despawnIds[d++], frame, i - dropped);
      if (match !== null && inKernel) {
        // The kernel stops before the next despawn (it must end that life first).
        const end = d < despawns ? despawnAt[d] : n;
        if (end > i) {
          this.header[L_MASK] = lives.size - 1;
          this.header[L_SHIFT] = lives.shift;
          // Room for new lives: as many as the hash takes before it must grow (OpenLives.insert).
          this.header[L_ROOM] = births ? (lives.size >>> 1) - lives.live : 0;
          const j = match(i, end, dropped, arenaByte + (base - dropped) * 4, this.headerByte);
          if (dropped > 0) for (let k = i; k < j; k++) keptIndex[k] = k - dropped;
          const born = this.header[L_BIRTH_COUNT];
          if (born > 0) this.born(born, frame, dropped, base);
          continued += j - i - born;
          i = j;
          if (i === end) continue;
        }
      }
      // Entry i is a new life, a duplicate, a bad id, or the kernel is not running: one by one.
      // `entityColumns` stages an Int32Array of ids unchecked: an id out of range is dropped here.
      const id = this.ids[i];
      // In a run of spawns, the slot of the entry 8 ahead is read now, so that its miss overlaps.
      if (!inKernel && i + 8 < n) {
        this.readAhead |= slotWords[2 * (Math.imul(this.ids[i + 8], GOLDEN) >>> lives.shift) + 1];
      }
      let kept = id >= 0 && id < maxId;
      let h = -1;
      let isContinued = false;
      const m = i - dropped;
      if (kept) {
        if (dropped === 0 && i < this.prevCount && this.prevIds[i] === id && this.taken[i] === 0) {
          // The life at this position in the previous frame, still open: its slot already says i.
          h = this.prevHandles[i];
          this.taken[i] = 1;
          isContinued = true;
        } else {
          const s = lives.find(id);
          if (s >= 0) {
            const j = slotWords[2 * s + 1];
            if (j < m && this.keptIds[j] === id) {
              // Recorded earlier in this frame and not despawned since.
              kept = false;
              this.duplicate(id);
            } else {
              h = this.prevHandles[j];
              this.taken[j] = 1;
              slotWords[2 * s + 1] = m;
              isContinued = true;
            }
          }
        }
      } else {
        this.badId(id);
      }
      inKernel = !kept || isContinued;
      if (kept && !isContinued) {
        h = this.table.allocate(id, frame, true);
        if (h < 0) {
          kept = false;
          this.noHandle(id);
        } else {
          this.onNewLife(id, h);
          lives.insert(id, m);
        }
      }
      if (!kept) {
        if (dropped === 0) this.startKeptIndex(i);
        dropped++;
        keptIndex[i] = -1;
        i++;
        continue;
      }
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
      if (base >= 0) this.ring.u32[base + m] = h | (this.flags[i] << HANDLE_BITS);
      i++;
    }
    const m = n - dropped;
    this.dropped = dropped;
    // Bones and rotation repairs read keptIndex for every entry.
    if (dropped === 0 && (needKeptIndex || badRotations !== 0)) this.startKeptIndex(n);
    while (d < despawns) this.endLife(this.despawnIds[d++], frame, m);
    if (badRotations !== 0) this.sanitized += this.repair.rotations(n, base);
    if (base >= 0 && m < n) this.repair.compact(n, m, base);
    // Every open life was recorded in this frame: one write for all (their lastSeen is OPEN_LIFE).
    this.table.seenOpenLives(frame);
    // Every life of the previous frame continued or was despawned: none died by absence (the usual
    // frame, also under churn when the game despawns what it removes), no need to look.
    if (continued + this.despawnedPrev < this.prevCount) this.collectDeaths(frame);
    this.despawnedPrev = 0;
    this.taken.fill(0, 0, this.prevCount);
    for (let k = 0; k < this.endedNowCount; k++) {
      this.deaths.push(this.endedNow[k], frame);
      this.taken[this.endedNowAt[k]] = 2;
    }
    this.endedNowCount = 0;
    // This frame's lives become the previous frame's.
    const th = this.prevHandles;
    this.prevHandles = this.handles;
    this.handles = th;
    const ti = this.prevIds;
    this.prevIds = this.keptIds;
    this.keptIds = ti;
    this.prevCount = m;
    this.resolved = frame;
    lives.compact();
    this.writeListHeader();
    return m;
  }

  /**
   * The lives the kernel's `match` opened in its last call (`count` entries of the births list,
   * `dropped` entries dropped before them): each gets its handle, in entry order, and its word in
   * the entity section at word `base`. The kernel already placed them in the hash and the lists.
   */
  private born(count: number, frame: number, dropped: number, base: number): void {
    const births = this.births;
    const u = this.ring.u32;
    for (let k = 0; k < count; k++) {
      const i = births[k];
      const id = this.ids[i];
      const h = this.table.allocate(id, frame, true);
      this.onNewLife(id, h);
      this.handles[i - dropped] = h;
      u[base + i - dropped] = h | (this.flags[i] << HANDLE_BITS);
    }
    this.lives.live += count;
    this.header[L_BIRTH_COUNT] = 0;
  }

  /**
   * Reads, without using them, the words that ending the `count` queued despawns will read: each
   * id's home slot in the hash, then, through the list index that slot holds, the life's handle in
   * the previous frame's list and that handle's `lastSeen` word (which `endLife` writes). Between two
   * frames the game's own work evicts these lines, and in `endLife` each miss waits for the one
   * before it (the slot gives the index, the index the handle); here the misses of many despawns
   * overlap. A home slot that holds another id gives some other index or handle: a wasted read.
   */
  private readAheadDespawns(count: number): void {
    const lives = this.lives;
    const slotWords = lives.words;
    const shift = lives.shift;
    const ids = this.despawnIds;
    let touch = 0;
    for (let k = 0; k < count; k++) touch |= slotWords[2 * (Math.imul(ids[k], GOLDEN) >>> shift)];
    const prevHandles = this.prevHandles;
    const lastSeen = this.table.lastSeen;
    const lists = prevHandles.length;
    const handles = lastSeen.length;
    for (let k = 0; k < count; k++) {
      const j = slotWords[2 * (Math.imul(ids[k], GOLDEN) >>> shift) + 1];
      if (j >>> 0 >= lists) continue;
      const h = prevHandles[j];
      if (h >>> 0 < handles) touch |= lastSeen[h];
    }
    this.readAhead = touch;
  }

  /**
   * Ends the lives of the despawns queued before the frame's first entry (`despawnAt` ≤ 0) with the
   * kernel's `despawn`, as `endLife` would one by one (in queue order, no entry of the frame kept
   * yet), and returns how many despawns that was. The ids go through the births list (free until
   * `match` runs), `capacity` at a time; the kernel takes each open life out of the hash, marks its
   * entry of the previous frame despawned and leaves its handle in the list; an id it stops at (no
   * open life, or out of range) goes to `endLife`.
   */
  private despawnQueued(despawn: DespawnFn, frame: number): number {
    const at = this.despawnAt;
    const ids = this.despawnIds;
    const total = this.despawnCount;
    let end = 0;
    while (end < total && at[end] <= 0) end++;
    const list = this.births;
    const lives = this.lives;
    const table = this.table;
    const deaths = this.deaths;
    this.header[L_MASK] = lives.size - 1;
    this.header[L_SHIFT] = lives.shift;
    for (let from = 0; from < end; from += list.length) {
      const n = Math.min(list.length, end - from);
      for (let k = 0; k < n; k++) list[k] = ids[from + k];
      let k = 0;
      while (k < n) {
        const j = despawn(k, n, this.headerByte);
        for (let t = k; t < j; t++) {
          const h = list[t];
          table.setLastFrame(h, frame - 1, true);
          deaths.push(h, frame - 1);
        }
        lives.live -= j - k;
        this.despawnedPrev += j - k;
        if (j < n) this.endLife(list[j], frame, 0);
        k = j + 1;
      }
    }
    return end;
  }

  /** Tells the kernel's `match` where the lists are now (after a swap) and how many the previous frame has. */
  private writeListHeader(): void {
    const h = this.header;
    h[L_PREV_IDS] = this.prevIds.byteOffset;
    h[L_PREV_HANDLES] = this.prevHandles.byteOffset;
    h[L_CUR_IDS] = this.keptIds.byteOffset;
    h[L_CUR_HANDLES] = this.handles.byteOffset;
    h[L_PREV_COUNT] = this.prevCount;
  }

  /**
   * Lives of the previous frame not recorded in this one died in the previous frame: the entries of
   * the previous frame still 0 in `taken` (four a load). Each goes to the death queue and leaves
   * the hash.
   */
  private collectDeaths(frame: number): void {
    const words = this.takenWords;
    const taken = this.taken;
    const count = this.prevCount;
    for (let k = 0; k < (count + 3) >>> 2; k++) {
      if ((words[k] & 0x03030303) === 0x01010101) continue;
      const to = 4 * k + 4 < count ? 4 * k + 4 : count;
      for (let j = 4 * k; j < to; j++) if (taken[j] === 0) this.died(j, frame - 1);
    }
  }

  /**
   * The life of the previous frame's entry `j` ended in `last`: its last frame in the table, to the
   * death queue, out of the hash.
   */
  private died(j: number, last: number): void {
    const s = this.lives.find(this.prevIds[j]);
    if (s >= 0 && this.lives.words[2 * s + 1] === j) this.lives.remove(s);
    const h = this.prevHandles[j];
    this.table.setLastFrame(h, last, false);
    this.deaths.push(h, last);
  }

  /**
   * The frame does not follow the last one resolved (never with the recorder, which counts frames):
   * every open life ended in the last frame resolved.
   */
  private endAll(): void {
    for (let j = 0; j < this.prevCount; j++) if (this.taken[j] === 0) this.died(j, this.resolved);
    this.prevCount = 0;
    this.despawnedPrev = 0;
    this.lives.clear();
    this.taken.fill(0);
    this.writeListHeader();
  }

  /**
   * Ends the open life of `id` while `frame` resolves, `m` entries kept so far (before it, or
   * outside a frame: `frame` is the next one and `m` is 0). Its last frame is `frame` when it was
   * recorded in it already, else `frame - 1`; its handle is released once that frame is evicted. An
   * id with no open life only has its newest life marked ended.
   */
  private endLife(id: number, frame: number, m: number): void {
    const lives = this.lives;
    const s = id >= 0 && id < this.table.maxEntityId ? lives.find(id) : -1;
    if (s < 0) {
      const h = this.table.lookup(id);
      if (h >= 0) this.table.end(h);
      return;
    }
    const j = lives.words[2 * s + 1];
    lives.remove(s);
    if (j < m && this.keptIds[j] === id) {
      const h = this.handles[j];
      this.table.setLastFrame(h, frame, true);
      this.endedNow[this.endedNowCount] = h;
      this.endedNowAt[this.endedNowCount++] = j;
    } else {
      const h = this.prevHandles[j];
      this.taken[j] = 2;
      this.despawnedPrev++;
      this.table.setLastFrame(h, frame - 1, true);
      this.deaths.push(h, frame - 1);
    }
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
