/** A slot's id word when it holds no life (a probe stops there). */
export const SLOT_EMPTY = -1;
/** Fibonacci hashing: `Math.imul(id, GOLDEN) >>> shift` (the kernel computes the same). */
export const GOLDEN = 0x9e3779b1 | 0;
/** Fewest slots the table uses (it grows and shrinks by rebuilding, within its reserved size). */
const MIN_SLOTS = 64;

/**
 * The open lives, by id: an open-addressing hash (linear probing, Fibonacci hashing) of the lives
 * recorded in the newest frame and in the one being resolved, in a fixed block of the kernel's
 * memory so that the WebAssembly `match` probes it too. Slot `s` is two words: the id (or
 * `SLOT_EMPTY`) and the life's index in the entry list of the newest frame that holds it (the one
 * being resolved once it was recorded in it, else the previous one). A life is open from its first
 * entry until it is despawned or a frame goes by without it.
 *
 * At most half the slots hold lives: an insertion past that rebuilds the table with three to six
 * slots per life (at least 64, at most the reserved size, which holds twice the most lives a frame
 * can open). A removal shifts the following entries of its probe sequence back (no tombstones), so
 * the table never fills with ended lives; no one keeps a slot index across calls.
 *
 * Every slot past the ones in use stays empty, and the block holds one more (`GUARD_SLOTS`) past the
 * reserved size, always empty: the kernel's `match` reads slots `s` and `s + 1` in one 16-byte load
 * and compares both ids at once, so that a life one slot past its home is found without a branch
 * that mispredicts (the slot after the last one in use is empty, never the id sought).
 *
 * @example
 * const lives = new OpenLives(words, 1 << 16); // words: a view of the block, OpenLives.blockWords(1 << 16) long
 * const s = lives.insert(42, 0); // id 42 is entry 0 of the frame being resolved
 * lives.find(42); // s
 *
 * @internal The recorder's (`EntityResolver`); not exported by any entry.
 */
export class OpenLives {
  /** Empty slots after the reserved ones (read by the kernel's two-slot load, never written). */
  public static readonly GUARD_SLOTS = 1;
  /** Slot words: `[2s]` the id, `[2s + 1]` the life's list index. */
  public readonly words: Int32Array;
  /** Slots in use: a power of two, at most the reserved size. */
  public size = MIN_SLOTS;
  /** `32 - log2(size)`: the hash is `Math.imul(id, GOLDEN) >>> shift`. */
  public shift = Math.clz32(MIN_SLOTS) + 1;
  /** Open lives. */
  public live = 0;
  private readonly reserved: number;
  /** Live slots during a rebuild (id, word pairs). */
  private readonly scratch: Int32Array;

  /**
   * @param words The block's words (`blockWords(reserved)`), in the kernel's memory.
   * @param reserved Most slots (a power of two ≥ 64).
   */
  public constructor(words: Int32Array, reserved: number) {
    if (words.length < OpenLives.blockWords(reserved)) {
      throw new RangeError(
        `OpenLives: ${words.length} words hold fewer than ${reserved} + ${OpenLives.GUARD_SLOTS} slots`,
      );
    }
    this.words = words;
    this.reserved = reserved;
    this.scratch = new Int32Array(reserved);
    this.words.fill(SLOT_EMPTY);
  }

  /** Slots to reserve for `capacity` entries per frame: at most 2 · capacity open lives, ≤ 50 % full. */
  public static reservedSlots(capacity: number): number {
    let s = MIN_SLOTS;
    while (s < 4 * capacity) s *= 2;
    return s;
  }

  /** Words of the block a table of `reserved` slots needs: two a slot, guard slots included. */
  public static blockWords(reserved: number): number {
    return 2 * (reserved + OpenLives.GUARD_SLOTS);
  }

  /** Forgets every life. */
  public clear(): void {
    this.words.fill(SLOT_EMPTY, 0, 2 * this.size);
    this.size = MIN_SLOTS;
    this.shift = Math.clz32(MIN_SLOTS) + 1;
    this.live = 0;
  }

  /** The slot of `id`'s open life, or -1. */
  public find(id: number): number {
    const w = this.words;
    const mask = this.size - 1;
    let s = Math.imul(id, GOLDEN) >>> this.shift;
    for (;;) {
      const k = w[2 * s];
      if (k === id) return s;
      if (k === SLOT_EMPTY) return -1;
      s = (s + 1) & mask;
    }
  }

  /** Opens a life of `id` (which has no open life) at list index `index`; returns its slot. */
  public insert(id: number, index: number): number {
    if (2 * (this.live + 1) > this.size) this.rebuild(this.live + 1);
    const w = this.words;
    const mask = this.size - 1;
    let s = Math.imul(id, GOLDEN) >>> this.shift;
    while (w[2 * s] !== SLOT_EMPTY) s = (s + 1) & mask;
    w[2 * s] = id;
    w[2 * s + 1] = index;
    this.live++;
    return s;
  }

  /**
   * Ends the life in slot `s`: the entries after it in its probe sequence that may move back do
   * (backward-shift deletion), so every probe still ends at an empty slot.
   */
  public remove(s: number): void {
    const w = this.words;
    const mask = this.size - 1;
    let hole = s;
    let j = s;
    for (;;) {
      j = (j + 1) & mask;
      const id = w[2 * j];
      if (id === SLOT_EMPTY) break;
      const home = Math.imul(id, GOLDEN) >>> this.shift;
      // The entry at j stays when its home lies cyclically in (hole, j].
      if (hole <= j ? hole < home && home <= j : hole < home || home <= j) continue;
      w[2 * hole] = id;
      w[2 * hole + 1] = w[2 * j + 1];
      hole = j;
    }
    w[2 * hole] = SLOT_EMPTY;
    this.live--;
  }

  /** Shrinks the table when a burst of lives is over, so that probes stay in a few cache lines. */
  public compact(): void {
    if (this.size > MIN_SLOTS && 8 * this.live < this.size) this.rebuild(this.live);
  }

  /** Re-inserts the open lives into a table of three to six slots per life (`lives` of them to come). */
  private rebuild(lives: number): void {
    const w = this.words;
    const scratch = this.scratch;
    let n = 0;
    for (let s = 0; s < this.size; s++) {
      const id = w[2 * s];
      if (id !== SLOT_EMPTY) {
        scratch[n++] = id;
        scratch[n++] = w[2 * s + 1];
      }
    }
    w.fill(SLOT_EMPTY, 0, 2 * this.size);
    let size = MIN_SLOTS;
    while (size < 3 * lives && size < this.reserved) size *= 2;
    this.size = size;
    this.shift = Math.clz32(size) + 1;
    const mask = size - 1;
    for (let k = 0; k < n; k += 2) {
      let s = Math.imul(scratch[k], GOLDEN) >>> this.shift;
      while (w[2 * s] !== SLOT_EMPTY) s = (s + 1) & mask;
      w[2 * s] = scratch[k];
      w[2 * s + 1] = scratch[k + 1];
    }
  }
}
