import { EntityFlags } from '../format/layout';
import { EntityBuffer, EventBuffer, FrameHeader } from '../read/buffers';
import type { FrameReader } from '../read/FrameReader';
import type { Bookmarks } from './Bookmarks';

/** What a timeline marker marks. */
export const MarkerKind = {
  /** A frame in which at least one channel ran over its primitive budget (`channels`: the channel bits). */
  OVER_BUDGET: 0,
  /** An entity's life began in this frame (`handles`: its handle). */
  SPAWN: 1,
  /** The last frame an entity was present in: it is gone from the next frame (`handles`: its handle). */
  DESPAWN: 2,
  /** An entity's `EntityFlags.DAMAGED` flag rose in this frame (`channels`: every flag bit that rose). */
  DAMAGE: 3,
  /** A user bookmark (`channels`: the bookmark id). */
  BOOKMARK: 4,
  /** A recorded event (`channels`: the event kind index; `handles`: its subject's handle, -1 when none is in that frame). */
  EVENT: 5,
} as const;

/** One of the `MarkerKind` values. */
export type MarkerKindValue = (typeof MarkerKind)[keyof typeof MarkerKind];

/**
 * Timeline markers over the frames held, read without a full decode: only frame headers, the
 * entity handle/flag words and the event records are touched (no positions, rotations, bones or
 * primitives). `refresh()` is incremental: it scans only the frames recorded since the previous
 * call and drops the markers of evicted frames, so calling it every tick costs O(new frames).
 *
 * The arrays hold `count` markers: first the frame markers in frame order, then (from
 * `bookmarkStart`) the bookmarks inside the held range, in frame order. `version` bumps whenever
 * the set changes, so a timeline knows when to redraw.
 *
 * Damage is a rising edge of `EntityFlags.DAMAGED` compared with the entity's previous frame; in
 * the first frame scanned (when nothing before it is known) a set flag counts as rising. Frames the
 * recorder truncated hold no entities and produce no entity markers.
 *
 * @example
 * const markers = new MarkerIndex(recorder.reader, bookmarks);
 * let drawn = -1;
 * app.ticker.add(() => {
 *   markers.refresh();
 *   if (markers.version === drawn) return;
 *   drawn = markers.version;
 *   for (let i = 0; i < markers.count; i++) tick(markers.frames[i], markers.kinds[i]);
 * });
 */
export class MarkerIndex {
  /** Markers held. */
  public count = 0;
  /** `MarkerKind` of each marker. */
  public kinds = new Uint8Array(0);
  /** Frame of each marker. */
  public frames = new Int32Array(0);
  /** Entity handle of each marker, or -1 when none. */
  public handles = new Int32Array(0);
  /** Over-budget channel bits, event kind, risen flag bits or bookmark id (see `MarkerKind`). */
  public channels = new Uint32Array(0);
  /** Index of the first bookmark marker (`count` when there is none). */
  public bookmarkStart = 0;

  private ver = 0;
  private derived = 0;
  private scanned = false;
  private scannedTo = 0;
  private prevKnown = false;
  private bookmarksDirty = true;
  private visibleBookmarks = 0;
  // Handle-indexed scan state: last frame the handle was seen in, its flags there, and the
  // "present in the frame being scanned" stamp.
  private seenFrame = new Int32Array(0);
  private seenFlags = new Uint8Array(0);
  private inFrame = new Int32Array(0);
  private readonly events = new EventBuffer();
  private readonly header = new FrameHeader();
  /** Handles and flags of the frame being scanned and of the one before (swapped every frame). */
  private curHandles = new EntityBuffer();
  private prevHandles = new EntityBuffer();
  private readonly unsubscribe: () => void;

  public constructor(
    public readonly reader: FrameReader,
    public readonly bookmarks: Bookmarks,
  ) {
    this.unsubscribe = bookmarks.onChange(() => {
      this.bookmarksDirty = true;
    });
    this.refresh();
  }

  /** Bumps when the marker set changes. */
  public get version(): number {
    return this.ver;
  }

  /** Scans new frames, drops evicted ones and re-lists the bookmarks when they changed. */
  public refresh(): void {
    const r = this.reader;
    let changed = false;
    if (r.frameCount === 0) {
      if (this.count > 0) changed = true;
      this.derived = 0;
      this.count = 0;
      this.bookmarkStart = 0;
      this.visibleBookmarks = 0;
      this.forgetScan();
      this.bookmarksDirty = false;
      if (changed) this.ver++;
      return;
    }
    const oldest = r.oldestFrame;
    const newest = r.newestFrame;
    if (this.scanned && newest < this.scannedTo) {
      // The ring went backwards (cleared and refilled with other frames): start over.
      this.derived = 0;
      this.forgetScan();
      changed = true;
    }
    // Drop markers of evicted frames (they are sorted by frame).
    let drop = 0;
    while (drop < this.derived && this.frames[drop] < oldest) drop++;
    if (drop > 0) {
      const end = this.derived;
      this.kinds.copyWithin(0, drop, end);
      this.frames.copyWithin(0, drop, end);
      this.handles.copyWithin(0, drop, end);
      this.channels.copyWithin(0, drop, end);
      this.derived -= drop;
      changed = true;
    }
    let from = this.scanned ? this.scannedTo + 1 : oldest;
    if (from < oldest) {
      // Frames were evicted before they were scanned: nothing before `oldest` is known.
      from = oldest;
      this.prevKnown = false;
    }
    if (!this.scanned) this.prevKnown = false;
    const before = this.derived;
    for (let f = from; f <= newest; f++) this.scanFrame(f);
    if (this.derived !== before) changed = true;
    if (from <= newest) {
      this.scanned = true;
      this.scannedTo = newest;
    }
    // Bookmarks follow the frame markers; rewritten when either moved, the list or the range changed.
    const bs = this.bookmarks.list();
    let visible = 0;
    for (let i = 0; i < bs.length; i++) if (bs[i].frame >= oldest && bs[i].frame <= newest) visible++;
    if (changed || this.bookmarksDirty || visible !== this.visibleBookmarks) {
      if (this.bookmarksDirty || visible !== this.visibleBookmarks) changed = true;
      this.ensure(this.derived + visible);
      let k = this.derived;
      for (let i = 0; i < bs.length; i++) {
        const b = bs[i];
        if (b.frame < oldest || b.frame > newest) continue;
        this.kinds[k] = MarkerKind.BOOKMARK;
        this.frames[k] = b.frame;
        this.handles[k] = -1;
        this.channels[k] = b.id;
        k++;
      }
      this.visibleBookmarks = visible;
      this.bookmarksDirty = false;
    }
    this.bookmarkStart = this.derived;
    this.count = this.derived + this.visibleBookmarks;
    if (changed) this.ver++;
  }

  /** Forgets what the scan knew per handle: frame numbers may be reused by what the ring holds next. */
  private forgetScan(): void {
    if (!this.scanned) return;
    this.scanned = false;
    this.prevKnown = false;
    this.seenFrame.fill(-2);
    this.inFrame.fill(-2);
  }

  /** Stops listening to the bookmarks. */
  public dispose(): void {
    this.unsubscribe();
  }

  private scanFrame(f: number): void {
    const r = this.reader;
    // This frame's handles go to the buffer that held frame f - 2; the other keeps f - 1.
    const cur = this.prevHandles;
    if (!r.readHeader(f, this.header) || !r.readHandles(f, cur)) {
      this.prevKnown = false;
      return;
    }
    this.prevHandles = this.curHandles;
    this.curHandles = cur;
    const over = this.header.overBudget;
    if (this.header.truncated) {
      // No entities stored: nothing is known about who was present.
      this.prevKnown = false;
      if (over !== 0) this.push(MarkerKind.OVER_BUDGET, f, -1, over);
      this.scanEvents(f);
      return;
    }
    const n = cur.count;
    const handles = cur.handles;
    const flags = cur.flags;
    const table = r.entities;
    this.ensureTables(table.capacity, handles, n);
    const seenFrame = this.seenFrame;
    const seenFlags = this.seenFlags;
    const inFrame = this.inFrame;
    const prevKnown = this.prevKnown;
    if (prevKnown) {
      // Despawns belong to frame f - 1 (their last frame), so they come before f's own markers.
      // `prevKnown`: f - 1 was scanned (and not truncated), so `prevHandles` holds it.
      for (let i = 0; i < n; i++) inFrame[handles[i]] = f;
      if (r.has((f - 1) | 0)) {
        const prev = this.prevHandles;
        for (let i = 0; i < prev.count; i++) {
          const h = prev.handles[i];
          if (inFrame[h] !== f) this.push(MarkerKind.DESPAWN, f - 1, h, 0);
        }
      }
    }
    if (over !== 0) this.push(MarkerKind.OVER_BUDGET, f, -1, over);
    const spawns = table.spawnFrames;
    const DAMAGED = EntityFlags.DAMAGED;
    for (let i = 0; i < n; i++) {
      const h = handles[i];
      const fl = flags[i];
      // A life that begins in f was not here before, even when its handle's previous life was in f - 1.
      const born = spawns[h] === f;
      const wasHere = prevKnown && !born && seenFrame[h] === f - 1;
      if (born) this.push(MarkerKind.SPAWN, f, h, 0);
      if ((fl & DAMAGED) !== 0) {
        const before = wasHere ? seenFlags[h] : 0;
        if ((before & DAMAGED) === 0) this.push(MarkerKind.DAMAGE, f, h, fl & ~before);
      }
      seenFrame[h] = f;
      seenFlags[h] = fl;
    }
    this.scanEvents(f);
    this.prevKnown = true;
  }

  private scanEvents(f: number): void {
    const r = this.reader;
    if (!r.readEvents(f, this.events)) return;
    const ev = this.events;
    const t = r.entities;
    for (let i = 0; i < ev.count; i++) {
      const id = ev.subjects[i];
      let h = -1;
      if (id <= 0x7fffffff) {
        // Usually the id's current life; when a newer life took the id since, search frame f itself.
        h = t.lookup(id);
        if (h >= 0 && !(t.used[h] === 1 && t.spawnFrames[h] <= f && t.lastFrame(h) >= f)) h = this.handleOfId(id);
      }
      this.push(MarkerKind.EVENT, f, h, ev.kinds[i]);
    }
  }

  /** Handle of numeric id `id` in the frame being scanned (its handles are in `curHandles`), or -1. */
  private handleOfId(id: number): number {
    const cur = this.curHandles;
    const ids = this.reader.entities.ids;
    for (let i = 0; i < cur.count; i++) {
      const h = cur.handles[i];
      if (ids[h] === id) return h;
    }
    return -1;
  }

  private push(kind: number, frame: number, handle: number, channels: number): void {
    const k = this.derived;
    if (k >= this.kinds.length) this.ensure(k + 1);
    this.kinds[k] = kind;
    this.frames[k] = frame;
    this.handles[k] = handle;
    this.channels[k] = channels;
    this.derived = k + 1;
  }

  private ensure(n: number): void {
    if (n <= this.kinds.length) return;
    const cap = Math.max(n, this.kinds.length * 2, 64);
    const kinds = new Uint8Array(cap);
    kinds.set(this.kinds);
    this.kinds = kinds;
    const frames = new Int32Array(cap);
    frames.set(this.frames);
    this.frames = frames;
    const handles = new Int32Array(cap);
    handles.set(this.handles);
    this.handles = handles;
    const channels = new Uint32Array(cap);
    channels.set(this.channels);
    this.channels = channels;
  }

  private ensureTables(capacity: number, handles: Int32Array, n: number): void {
    let need = capacity;
    for (let i = 0; i < n; i++) {
      const h = handles[i];
      if (h >= need) need = h + 1;
    }
    if (need <= this.seenFrame.length) return;
    const cap = Math.max(need, this.seenFrame.length * 2);
    const sf = new Int32Array(cap).fill(-2);
    sf.set(this.seenFrame);
    this.seenFrame = sf;
    const fl = new Uint8Array(cap);
    fl.set(this.seenFlags);
    this.seenFlags = fl;
    const inf = new Int32Array(cap).fill(-2);
    inf.set(this.inFrame);
    this.inFrame = inf;
  }
}
