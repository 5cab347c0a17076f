/**
 * Descriptions (`Recorder.describe`: a kind and a label) waiting for the life they name: one made
 * between frames for an id not in the newest frame, or made inside a frame for an id that frame did
 * not record, is applied when the id's next life starts (`Descriptions` applies the others at once).
 *
 * Allocation-free: entries live in parallel arrays, found by id through an open-addressing hash
 * table (typed array, linear probing, deletion by backward shift) and kept in insertion order by a
 * linked list, so a game that describes ids before they appear allocates nothing and every
 * operation is O(1). Each description carries the frame it was made in (-1 between frames), and
 * the newest are at the end of the order. Bounded: when full, the oldest description is forgotten (descriptions of ids that never appear
 * must not grow memory).
 *
 * @example
 * const pending = new PendingDescriptions(4096);
 * pending.set(9, 'projectile', 'bolt #9', -1);
 * const e = pending.find(9);
 * pending.kindAt(e); // 'projectile'
 * pending.remove(e);
 * pending.count; // 0
 */
export class PendingDescriptions {
  /** How many descriptions wait. */
  public count = 0;
  /** The most that wait at once. */
  public readonly capacity: number;
  private readonly ids: Int32Array;
  private readonly kinds: string[];
  private readonly labels: (string | undefined)[];
  private readonly frames: Int32Array;
  /** Insertion order: `next`/`prev` entry, -1 at the ends; `head` the oldest, `tail` the newest. */
  private readonly nextEntry: Int32Array;
  private readonly prevEntry: Int32Array;
  private head = -1;
  private tail = -1;
  /** Unused entries, a stack. */
  private readonly free: Int32Array;
  private freeCount: number;
  /** Hash table: entry + 1, 0 for an empty slot; at most half full. */
  private readonly table: Int32Array;
  private readonly shift: number;
  private readonly mask: number;

  public constructor(capacity: number) {
    const c = Math.max(1, capacity | 0);
    this.capacity = c;
    this.ids = new Int32Array(c);
    this.kinds = new Array<string>(c).fill('');
    this.labels = new Array<string | undefined>(c).fill(undefined);
    this.frames = new Int32Array(c);
    this.nextEntry = new Int32Array(c);
    this.prevEntry = new Int32Array(c);
    this.free = new Int32Array(c);
    for (let i = 0; i < c; i++) this.free[i] = c - 1 - i;
    this.freeCount = c;
    const bits = Math.max(2, Math.ceil(Math.log2(c * 2)));
    this.table = new Int32Array(1 << bits);
    this.shift = 32 - bits;
    this.mask = (1 << bits) - 1;
  }

  /** The oldest waiting entry, or -1. */
  public get first(): number {
    return this.head;
  }

  /** The newest waiting entry, or -1. */
  public get last(): number {
    return this.tail;
  }

  /** The entry after `e` in insertion order, or -1. */
  public after(e: number): number {
    return this.nextEntry[e];
  }

  /** The entry before `e` in insertion order, or -1. */
  public before(e: number): number {
    return this.prevEntry[e];
  }

  public idAt(e: number): number {
    return this.ids[e];
  }

  public kindAt(e: number): string {
    return this.kinds[e];
  }

  public labelAt(e: number): string | undefined {
    return this.labels[e];
  }

  /** The frame the description was made in, -1 if between frames. */
  public frameAt(e: number): number {
    return this.frames[e];
  }

  /**
   * Adds the description of `id` made in `frame` (-1 between frames) as the newest; one already
   * waiting for `id` is replaced. When full, forgets the oldest.
   */
  public set(id: number, kind: string, label: string | undefined, frame: number): void {
    let e = this.find(id);
    if (e >= 0) {
      this.unlink(e);
    } else {
      if (this.freeCount === 0) this.remove(this.head);
      e = this.free[--this.freeCount];
      this.ids[e] = id;
      let s = this.slotOf(id);
      while (this.table[s] !== 0) s = (s + 1) & this.mask;
      this.table[s] = e + 1;
      this.count++;
    }
    this.prevEntry[e] = this.tail;
    this.nextEntry[e] = -1;
    if (this.tail >= 0) this.nextEntry[this.tail] = e;
    else this.head = e;
    this.tail = e;
    this.kinds[e] = kind;
    this.labels[e] = label;
    this.frames[e] = frame;
  }

  /** The entry waiting for `id`, or -1. */
  public find(id: number): number {
    const table = this.table;
    for (let s = this.slotOf(id); ; s = (s + 1) & this.mask) {
      const v = table[s];
      if (v === 0) return -1;
      if (this.ids[v - 1] === id) return v - 1;
    }
  }

  /** Removes entry `e` (from `find` or `first`/`after`); an entry not waiting is left alone. */
  public remove(e: number): void {
    const table = this.table;
    const mask = this.mask;
    let i = this.slotOf(this.ids[e]);
    while (table[i] !== e + 1) {
      if (table[i] === 0) return;
      i = (i + 1) & mask;
    }
    // Backward-shift deletion: later entries of the probe run move into the hole when their home
    // slot does not lie cyclically in (hole, their slot].
    for (let j = (i + 1) & mask; table[j] !== 0; j = (j + 1) & mask) {
      const home = this.slotOf(this.ids[table[j] - 1]);
      if (((j - home) & mask) >= ((j - i) & mask)) {
        table[i] = table[j];
        i = j;
      }
    }
    table[i] = 0;
    this.unlink(e);
    this.kinds[e] = '';
    this.labels[e] = undefined;
    this.free[this.freeCount++] = e;
    this.count--;
  }

  public clear(): void {
    while (this.head >= 0) this.remove(this.head);
  }

  /** Takes `e` out of the insertion order. */
  private unlink(e: number): void {
    const p = this.prevEntry[e];
    const n = this.nextEntry[e];
    if (p >= 0) this.nextEntry[p] = n;
    else this.head = n;
    if (n >= 0) this.prevEntry[n] = p;
    else this.tail = p;
  }

  private slotOf(id: number): number {
    return Math.imul(id, 0x9e3779b1) >>> this.shift;
  }
}
