import { MAX_HANDLES } from '../format/layout';

/** Ids per page of the id → handle map is 2^ID_PAGE_BITS. */
export const ID_PAGE_BITS = 12;
const PAGE_BITS = ID_PAGE_BITS;
const PAGE_SIZE = 1 << PAGE_BITS;
/** A sweep of `allocate` starts again from handle 0 once at least 1 handle in this many is free. */
const SWEEP_FREE = 8;
/** A module local, not an imported binding (some loaders make the latter a getter: a call per use). */
const HANDLES_MAX = MAX_HANDLES;
/**
 * `lastSeen` of an open life of the recorder's table: its last frame is `openFrame`, the newest frame
 * resolved, which the resolver sets once per frame instead of writing every open life's `lastSeen`.
 */
export const OPEN_LIFE = 0x7fffffff;

/**
 * Every unique id (numeric id + spawn frame) that the ring still references gets a dense handle.
 * Frames store the handle; this table stores what is written once per life, not per frame: the
 * numeric id, the spawn frame, the last frame seen, a kind and a label.
 *
 * A handle is recycled only once every frame that mentions it has been evicted, so within the ring
 * a handle always means one unique id.
 *
 * @advanced Exported by `rewindable/format` only.
 */
export class EntityTable {
  /** Numeric id of each handle. */
  public ids: Int32Array;
  /** Frame the life began. */
  public spawnFrames: Int32Array;
  /** Kind index (see `kinds`), or -1 when none was described. */
  public kindOf: Int32Array;
  /** 1 while the handle is in use. */
  public used: Uint8Array;
  /**
   * The last frame the life was recorded in; `OPEN_LIFE` while the recorder's life is open (recorded
   * in every frame since its spawn, the newest one `openFrame`); once `despawn` ended it (a later
   * record of the id starts a new life), the bitwise NOT of that frame, a negative number. Read it
   * through `lastFrame` and `isEnded`.
   */
  public lastSeen: Int32Array;
  /**
   * Labels by handle. A released handle keeps its label until `allocate` gives the handle to a new
   * life (readers test `used` first), so that a release touches one byte.
   */
  public labels: Array<string | undefined> = [];
  /** The last frame of the lives whose `lastSeen` is `OPEN_LIFE` (the newest frame the recorder resolved). */
  public openFrame = -1;
  /** Kind names; a kind's index is its position here. */
  public readonly kinds: string[] = [];
  /** Bone parent indices per kind (index as in `kinds`), when described. */
  public readonly skeletons: Array<Int16Array | undefined> = [];

  private readonly kindIndex = new Map<string, number>();
  /** The kind `internKind` was last asked for, and its index. */
  private lastKind: string | undefined = undefined;
  private lastKindIndex = -1;
  /**
   * The id → handle map, in pages of 4,096 ids kept in one pool: `dir[id >>> 12]` is 0 when no id
   * of that range was ever mapped, else 1 + the offset of its page in `pool`, and
   * `pool[offset + (id & 4095)]` is the handle + 1 (0: none). Two flat typed arrays, so the
   * recorder's hot loop (which inlines `lookup`) reads them without a per-entity type check. `pool`
   * is replaced when it grows: read it again after `allocate`.
   */
  public readonly dir: Int32Array;
  public pool: Int32Array;
  /** The id → handle map of a table made with `sparseIds` (dir and pool are then empty), else null. */
  private readonly idMap: Map<number, number> | null;
  private poolPages = 0;
  /** Where `allocate` looks for a free handle next (see `allocate`). */
  private cursor = 0;
  private next = 0;
  /** Handles in use. */
  public liveCount = 0;

  /**
   * @param initialCapacity Handles before the first growth (at least 16).
   * @param maxEntityId Ids are integers in [0, maxEntityId).
   * @param lastSeenStorage Where `lastSeen` starts (the recorder places it in its kernel's memory, so
   *   that the WebAssembly resolve loop reads it); its length is then the initial capacity. A growth
   *   moves `lastSeen` to an ordinary array, like every other column.
   * @param sparseIds Map ids through a hash map instead of pages of 4,096 ids: memory follows the
   *   ids mapped, however far apart (a loaded replay's table; the recorder's hot loop reads the pages).
   */
  public constructor(
    initialCapacity: number,
    public readonly maxEntityId: number,
    lastSeenStorage?: Int32Array,
    sparseIds = false,
  ) {
    const cap = lastSeenStorage !== undefined ? lastSeenStorage.length : Math.max(16, initialCapacity | 0);
    this.ids = new Int32Array(cap);
    this.spawnFrames = new Int32Array(cap);
    this.kindOf = new Int32Array(cap);
    this.used = new Uint8Array(cap);
    this.lastSeen = lastSeenStorage ?? new Int32Array(cap);
    this.lastSeen.fill(0);
    this.idMap = sparseIds ? new Map<number, number>() : null;
    this.dir = new Int32Array(sparseIds ? 0 : Math.ceil(maxEntityId / PAGE_SIZE));
    this.pool = new Int32Array(sparseIds ? 0 : 4 * PAGE_SIZE);
  }

  /** Handle capacity before the next growth. */
  public get capacity(): number {
    return this.ids.length;
  }

  /** One past the largest handle ever issued (iterate `0 .. highWater` and test `used`). */
  public get highWater(): number {
    return this.next;
  }

  /**
   * The handle of the newest life of a numeric id while the table holds it, or -1 (also for
   * anything but an id in range). The paged map is not cleared when a handle is released: an entry
   * counts only while its handle is in use and still names that id, so `release` never reads the
   * map (nor the id) of the life it frees.
   */
  public lookup(id: number): number {
    if (!(id >= 0 && id < this.maxEntityId && (id | 0) === id)) return -1;
    if (this.idMap !== null) return this.idMap.get(id) ?? -1;
    const page = this.dir[id >>> PAGE_BITS];
    if (page === 0) return -1;
    const h = this.pool[page - 1 + (id & (PAGE_SIZE - 1))] - 1;
    return h >= 0 && this.ids[h] === id && this.used[h] === 1 ? h : -1;
  }

  /**
   * Reads, without using them, the words `lookup(id)` and `release(h)` will read for each of
   * `count` ids or handles: a short loop of independent loads keeps many cache misses in flight,
   * where a loop of lookups or releases would wait for each in turn. Returns a value that depends
   * on every word read (keep it, so that the reads are not dropped).
   *
   * @example
   * // Before releasing `count` handles held in a ring buffer (`mask`: its length − 1):
   * kept = table.readAhead(null, handles, head, count, mask);
   */
  public readAhead(
    ids: Int32Array | null,
    handles: Int32Array | null,
    from: number,
    count: number,
    mask: number,
  ): number {
    let acc = 0;
    if (ids !== null && this.idMap === null) {
      const dir = this.dir;
      const pool = this.pool;
      for (let k = 0; k < count; k++) {
        const id = ids[(from + k) & mask];
        const page = dir[id >>> PAGE_BITS];
        if (page !== 0) acc |= pool[page - 1 + (id & (PAGE_SIZE - 1))];
      }
    }
    if (handles !== null) {
      const used = this.used;
      for (let k = 0; k < count; k++) acc |= used[handles[(from + k) & mask]];
    }
    return acc;
  }

  /** Maps `id` (in range) to `handle`; the page of its range is taken from the pool on first use. */
  public map(id: number, handle: number): void {
    if (this.idMap !== null) {
      if (handle < 0) this.idMap.delete(id);
      else this.idMap.set(id, handle);
      return;
    }
    const p = id >>> PAGE_BITS;
    let page = this.dir[p];
    if (page === 0) {
      if ((this.poolPages + 1) * PAGE_SIZE > this.pool.length) {
        const grown = new Int32Array(this.pool.length * 2);
        grown.set(this.pool);
        this.pool = grown;
      }
      page = this.poolPages++ * PAGE_SIZE + 1;
      this.dir[p] = page;
    }
    this.pool[page - 1 + (id & (PAGE_SIZE - 1))] = handle + 1;
  }

  /**
   * Starts a new life for `id` at `frame` and returns its handle, or -1 when all handles are in use.
   * With `open`, the life is an open life of the recorder (`lastSeen` is `OPEN_LIFE`, its last frame
   * `openFrame`), else its last frame is `frame` until `setLastFrame`.
   *
   * Handles are issued in sweeps (next fit): the first free handle at or after the cursor, so that
   * lives that begin close in time get neighbouring handles, and the per-handle columns of the
   * lives of one frame share cache lines (a free list handed back whatever eviction freed last,
   * spread over the whole table). Past the last handle issued, the sweep starts again from 0 when
   * at least one handle in `SWEEP_FREE` is free, else a new handle is issued: a sweep then visits
   * at most `SWEEP_FREE` handles per life on average, and the table holds at most
   * `SWEEP_FREE / (SWEEP_FREE - 1)` handles per life in use.
   */
  public allocate(id: number, frame: number, open = false): number {
    const used = this.used;
    const next = this.next;
    let h = this.cursor;
    while (h < next && used[h] !== 0) h++;
    if (h >= next) {
      const free = next - this.liveCount;
      if (free > 0 && (free * SWEEP_FREE >= next || next >= HANDLES_MAX)) {
        h = 0;
        while (h < next && used[h] !== 0) h++;
      }
      if (h >= next) {
        if (next >= HANDLES_MAX) return -1;
        if (next >= this.ids.length) this.grow();
        h = this.next++;
      }
    }
    this.cursor = h + 1;
    // A new handle extends `labels` (kept dense); a recycled one drops the label of its last life.
    this.labels[h] = undefined;
    this.ids[h] = id;
    this.spawnFrames[h] = frame;
    this.lastSeen[h] = open ? OPEN_LIFE : frame;
    this.kindOf[h] = -1;
    this.used[h] = 1;
    this.liveCount++;
    this.map(id, h);
    return h;
  }

  /** The last frame handle `h`'s life was recorded in (its spawn frame until it is recorded again). */
  public lastFrame(h: number): number {
    const s = this.lastSeen[h];
    return s >= 0 ? (s === OPEN_LIFE ? this.openFrame : s) : ~s;
  }

  /**
   * The recorder resolved `frame`: every open life (`lastSeen` = `OPEN_LIFE`) was recorded in it. One
   * write per frame instead of one per open life.
   */
  public seenOpenLives(frame: number): void {
    this.openFrame = frame;
  }

  /** Whether `despawn` ended handle `h`'s life (a later record of its id starts a new life). */
  public isEnded(h: number): boolean {
    return this.lastSeen[h] < 0;
  }

  /** Ends the life of handle `h`: a later record of its id starts a new life. Idempotent. */
  public end(h: number): void {
    const s = this.lastSeen[h];
    if (s >= 0) this.lastSeen[h] = ~(s === OPEN_LIFE ? this.openFrame : s);
  }

  /**
   * Sets the last frame of handle `h`'s life and whether it ended (a replay being loaded restores
   * lives this way).
   */
  public setLastFrame(h: number, frame: number, ended: boolean): void {
    this.lastSeen[h] = ended ? ~frame : frame;
  }

  /**
   * Returns a handle to the pool; its id stops mapping to it (`lookup` gives a newer life of the id,
   * or -1). Touches the handle's `used` byte only: the paged id map is left as it is, and the label
   * stays until the handle's next life.
   */
  public release(h: number): void {
    if (this.used[h] === 0) return;
    this.used[h] = 0;
    if (this.idMap !== null && this.idMap.get(this.ids[h]) === h) this.idMap.delete(this.ids[h]);
    this.liveCount--;
  }

  /**
   * Releases the `count` handles at `handles[(from + k) & mask]` (a ring buffer of `mask` + 1, a power
   * of two), as `release` does each: one loop of independent loads and stores of the `used` bytes,
   * so that their cache misses overlap. A handle already free, or listed twice, is released once.
   *
   * @example
   * // The handles of the lives whose last frame was just evicted, from a queue's head:
   * table.releaseAll(queue, head, due, queue.length - 1);
   */
  public releaseAll(handles: Int32Array, from: number, count: number, mask: number): void {
    if (this.idMap !== null) {
      for (let k = 0; k < count; k++) this.release(handles[(from + k) & mask]);
      return;
    }
    const used = this.used;
    let freed = 0;
    for (let k = 0; k < count; k++) {
      const h = handles[(from + k) & mask];
      freed += used[h];
      used[h] = 0;
    }
    this.liveCount -= freed;
  }

  /** Interns a kind name and returns its index. */
  public internKind(kind: string): number {
    // Games describe their spawns with a few kinds, often the same one many times in a row.
    if (kind === this.lastKind) return this.lastKindIndex;
    let k = this.kindIndex.get(kind);
    if (k === undefined) {
      k = this.kinds.length;
      this.kinds.push(kind);
      this.kindIndex.set(kind, k);
    }
    this.lastKind = kind;
    this.lastKindIndex = k;
    return k;
  }

  /** Forgets every handle and id mapping (kinds and skeletons are kept). */
  public clear(): void {
    this.used.fill(0, 0, this.next);
    this.labels.length = 0;
    this.dir.fill(0);
    this.pool.fill(0);
    this.idMap?.clear();
    this.poolPages = 0;
    this.cursor = 0;
    this.next = 0;
    this.liveCount = 0;
    this.openFrame = -1;
  }

  private grow(): void {
    const cap = Math.min(MAX_HANDLES, this.ids.length * 2);
    const g32 = (a: Int32Array): Int32Array => {
      const n = new Int32Array(cap);
      n.set(a);
      return n;
    };
    const g8 = (a: Uint8Array): Uint8Array => {
      const n = new Uint8Array(cap);
      n.set(a);
      return n;
    };
    this.ids = g32(this.ids);
    this.spawnFrames = g32(this.spawnFrames);
    this.kindOf = g32(this.kindOf);
    this.used = g8(this.used);
    this.lastSeen = g32(this.lastSeen);
  }
}
