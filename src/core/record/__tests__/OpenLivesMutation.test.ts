import { describe, expect, it } from 'vitest';
import { rng } from '../../../../tests/helpers/random';
import { GOLDEN, OpenLives, SLOT_EMPTY } from '../OpenLives';

/**
 * OpenLives word by word (issue 20, sixth pass): the slots an id takes, the table's size and shift
 * after each growth and shrink, and the layout a removal leaves, against a plain model of linear
 * probing. The resolver's tests only see whether `find` answers right; these pin the table itself.
 */

/** The home slot of `id` in a table of `size` slots (the hash the kernel computes too). */
function home(id: number, size: number): number {
  return Math.imul(id, GOLDEN) >>> (32 - Math.log2(size));
}

/** The first `count` ids ≥ `from` whose home in a table of `size` slots is `slot`. */
function idsAt(slot: number, size: number, count: number, from = 0): number[] {
  const out: number[] = [];
  for (let id = from; out.length < count; id++) if (home(id, size) === slot) out.push(id);
  return out;
}

/** The words of a table of `size` slots after inserting `entries` (id, index) in order: linear probing. */
function model(size: number, entries: Array<[number, number]>): number[] {
  const w = new Array<number>(2 * size).fill(SLOT_EMPTY);
  for (const [id, index] of entries) {
    let s = home(id, size);
    while (w[2 * s] !== SLOT_EMPTY) s = (s + 1) & (size - 1);
    w[2 * s] = id;
    w[2 * s + 1] = index;
  }
  return w;
}

/** The first `size` slots' words, an empty slot's index word shown as `SLOT_EMPTY` (a removal leaves it stale). */
function slots(lives: OpenLives, size: number): number[] {
  const w = Array.from(lives.words.subarray(0, 2 * size));
  for (let s = 0; s < size; s++) if (w[2 * s] === SLOT_EMPTY) w[2 * s + 1] = SLOT_EMPTY;
  return w;
}

function table(reserved = 1024): OpenLives {
  return new OpenLives(new Int32Array(OpenLives.blockWords(reserved)), reserved);
}

describe('OpenLives, slot by slot', () => {
  it('reserves four slots per entry, at least 64, a power of two', () => {
    // Kills `s < 4 * capacity` → `<=`, `4 / capacity`, `false`, and `s *= 2` → `/=`.
    const got = [0, 1, 15, 16, 17, 32, 33, 1000, 1024, 1025].map((c) => OpenLives.reservedSlots(c));
    expect(got).toEqual([64, 64, 64, 64, 128, 128, 256, 4096, 4096, 8192]);
  });

  it('starts empty at 64 slots (shift 26) whatever the block held, and finds nothing', () => {
    // Kills the constructor's `fill(SLOT_EMPTY)` emptied, `size`/`shift` initialisers, `clz32 + 1` → `- 1`.
    const words = new Int32Array(OpenLives.blockWords(256)).fill(5);
    const lives = new OpenLives(words, 256);
    expect([lives.size, lives.shift, lives.live]).toEqual([64, 26, 0]);
    expect(words.every((w) => w === SLOT_EMPTY)).toBe(true);
    expect([lives.find(0), lives.find(5), lives.find(-1 >>> 1)]).toEqual([-1, -1, -1]);
  });

  it('places each id at its home slot, or the next free one after it, with its index', () => {
    // Kills `w[2 * s + 1] = index` dropped or misplaced, `live++` → `--`, the probe's `+ 1` → `- 1`.
    const lives = table();
    const [a, b, c] = idsAt(10, 64, 3);
    const d = idsAt(11, 64, 1)[0];
    expect([lives.insert(a, 7), lives.insert(b, 8), lives.insert(d, 9), lives.insert(c, 10)]).toEqual([10, 11, 12, 13]);
    expect(Array.from(lives.words.subarray(20, 28))).toEqual([a, 7, b, 8, d, 9, c, 10]);
    expect([lives.find(a), lives.find(b), lives.find(c), lives.find(d)]).toEqual([10, 11, 13, 12]);
    expect(lives.live).toBe(4);
    // An id not held whose probe crosses the run ends at the first empty slot.
    expect(lives.find(idsAt(10, 64, 1, c + 1)[0])).toBe(-1);
  });

  it('wraps probes from the last slot to slot 0', () => {
    // Kills `& mask` → `| mask`/dropped in insert and find, `mask = size - 1` → `+ 1`.
    const lives = table();
    const ids = idsAt(63, 64, 3);
    expect(ids.map((id, k) => lives.insert(id, k))).toEqual([63, 0, 1]);
    expect(ids.map((id) => lives.find(id))).toEqual([63, 0, 1]);
    expect(Array.from(lives.words)).toEqual(
      model(64, [
        [ids[0], 0],
        [ids[1], 1],
        [ids[2], 2],
      ]).concat(new Array<number>(OpenLives.blockWords(1024) - 128).fill(SLOT_EMPTY)),
    );
  });

  it('grows at the 33rd life of 64 slots, and to three to six slots per life', () => {
    // Kills `2 * (live + 1) > size` → `>=`, `true`, `false`; `live + 1` → `- 1`; rebuild's
    // `size < 3 * lives` → `<=`, `3 / lives`, `&&` → `||`; `size *= 2` → `/=`; `shift = clz32 + 1` → `- 1`.
    const lives = table();
    const sizes: number[] = [];
    for (let id = 0; id < 200; id++) {
      lives.insert(id * 7919, id);
      sizes.push(lives.size);
    }
    // Sizes after the k-th insertion (k = 1..200): 64 up to 32 lives, 128 up to 64, 256 up to 128, then
    // the least power of two ≥ 3 · 129 (512).
    const at = (k: number): number => sizes[k - 1];
    expect([at(32), at(33), at(64), at(65), at(128), at(129), at(200)]).toEqual([64, 128, 128, 256, 256, 512, 512]);
    expect(lives.shift).toBe(23);
    expect(lives.live).toBe(200);
    for (let id = 0; id < 200; id++) expect(lives.words[2 * lives.find(id * 7919) + 1]).toBe(id);
    // The rebuilt table is every life inserted again, in slot order of the old one: each at home or after.
    for (let id = 0; id < 200; id++) {
      const s = lives.find(id * 7919);
      let k = home(id * 7919, 512);
      while (k !== s) {
        expect(lives.words[2 * k]).not.toBe(SLOT_EMPTY);
        k = (k + 1) & 511;
      }
    }
  });

  it('stops growing at the reserved size', () => {
    // Kills `size < this.reserved` → `<=` and `true`. (The resolver reserves room for twice the lives a
    // frame can open, so it never gets here: the 65th life forces a rebuild that the reserve caps.)
    const lives = table(128);
    for (let id = 0; id < 65; id++) lives.insert(id, id);
    expect([lives.size, lives.shift, lives.live]).toEqual([128, 25, 65]);
    for (let id = 0; id < 65; id++) expect(lives.words[2 * lives.find(id) + 1]).toBe(id);
  });

  it('shrinks when fewer than one slot in eight holds a life, never below 64 slots', () => {
    // Kills compact's `size > MIN_SLOTS` → `>=`/`true`, `8 * live < size` → `<=`/`8 / live`, `&&` → `||`.
    const lives = table();
    const ids = Array.from({ length: 65 }, (_, k) => 1000 + k * 31);
    ids.forEach((id, k) => lives.insert(id, k));
    expect(lives.size).toBe(256);
    // 32 lives in 256 slots: 8 · 32 = 256, not fewer than one in eight.
    for (const id of ids.slice(32)) lives.remove(lives.find(id));
    lives.compact();
    expect([lives.size, lives.live]).toEqual([256, 32]);
    lives.remove(lives.find(ids[31]));
    lives.compact();
    // 31 lives: rebuilt to the least power of two ≥ 3 · 31 (128).
    expect([lives.size, lives.shift, lives.live]).toEqual([128, 25, 31]);
    for (let k = 0; k < 31; k++) expect(lives.words[2 * lives.find(ids[k]) + 1]).toBe(k);
    // The slots past the new size are emptied by the rebuild.
    expect(lives.words.subarray(256).every((w) => w === SLOT_EMPTY)).toBe(true);
    for (const id of ids.slice(8, 31)) lives.remove(lives.find(id));
    lives.compact();
    expect([lives.size, lives.live]).toEqual([64, 8]);
    // At 64 slots the table is not rebuilt, even nearly empty: a rebuild would move a run that
    // wraps from slot 63 to 0 (it re-inserts in slot order, slot 0's life first).
    for (const id of ids.slice(0, 8)) lives.remove(lives.find(id));
    const [a, b] = idsAt(63, 64, 2);
    lives.insert(a, 1);
    lives.insert(b, 2);
    lives.compact();
    expect([lives.size, lives.live, lives.find(a), lives.find(b)]).toEqual([64, 2, 63, 0]);
  });

  it('leaves after each removal the layout of the remaining lives inserted in order (backward shift)', () => {
    // Kills remove's cyclic test (`hole <= j` → `<`/`true`/`false`, `hole < home` → `<=`, `home <= j`
    // → `<`, `&&` ↔ `||`), `w[2 * hole + 1] = w[2 * j + 1]` dropped, `hole = j` dropped, the final
    // `SLOT_EMPTY` write, `live--` → `++`, and `j + 1` → `j - 1`.
    const random = rng(77);
    // Clustered homes, around the wrap from slot 63 to 0, so that runs cross it.
    const pool = [61, 62, 63, 0, 1, 2, 30, 31].flatMap((slot) => idsAt(slot, 64, 6));
    for (let round = 0; round < 60; round++) {
      const lives = table();
      const order = pool.filter(() => random() < 0.45).slice(0, 32);
      const entries: Array<[number, number]> = order.map((id, k) => [id, 100 + k]);
      for (const [id, index] of entries) lives.insert(id, index);
      let left = entries;
      while (left.length > 0) {
        const victim = left[Math.floor(random() * left.length)];
        lives.remove(lives.find(victim[0]));
        left = left.filter((e) => e !== victim);
        expect(lives.live).toBe(left.length);
        expect(slots(lives, 64)).toEqual(model(64, left));
      }
    }
  });

  it('clear forgets every life, empties the slots in use and returns to 64 slots', () => {
    // Kills clear's `fill(SLOT_EMPTY, 0, 2 * size)` → `2 / size`/dropped, and its resets of size, shift, live.
    const lives = table();
    for (let id = 0; id < 100; id++) lives.insert(id, id);
    expect(lives.size).toBe(256);
    lives.clear();
    expect([lives.size, lives.shift, lives.live]).toEqual([64, 26, 0]);
    expect(lives.words.every((w) => w === SLOT_EMPTY)).toBe(true);
    for (let id = 0; id < 100; id++) expect(lives.find(id)).toBe(-1);
    expect(lives.insert(5, 1)).toBe(home(5, 64));
  });
});
