import { describe, expect, it } from 'vitest';
import { EntityTable, ID_PAGE_BITS, OPEN_LIFE } from '../EntityTable';

/**
 * EntityTable at its edges (issue 20, sixth pass): the capacity it starts with and grows to, the
 * paged id map across pages and a pool that grows, ids at the bounds of the range, the sweep that
 * issues handles, the last frame of lives ended in frame 0, the sparse map of a loaded replay, and
 * what `readAhead` reads. Each case names the mutants it kills.
 */

const PAGE = 1 << ID_PAGE_BITS;

describe('EntityTable, mutation pass', () => {
  it('starts with at least 16 handles, or the storage given, zeroed', () => {
    // Kills `Math.max(16, …)` → `Math.min`, `initialCapacity | 0` → `& 0`, `lastSeenStorage !== undefined` →
    // `true`/`false`, and `lastSeen.fill(0)` dropped.
    expect(new EntityTable(5, 100).capacity).toBe(16);
    expect(new EntityTable(40.7, 100).capacity).toBe(40);
    const storage = new Int32Array(24).fill(9);
    const t = new EntityTable(1000, 100, storage);
    expect([t.capacity, t.ids.length, t.used.length, t.kindOf.length, t.spawnFrames.length]).toEqual([
      24, 24, 24, 24, 24,
    ]);
    expect(t.lastSeen).toBe(storage);
    expect(storage.every((v) => v === 0)).toBe(true);
    expect(t.highWater).toBe(0);
  });

  it('doubles every column when it grows, keeping what they held', () => {
    // Kills grow's `Math.min(MAX_HANDLES, 2 · length)` → `Math.max`/`length / 2`, `next >= ids.length` → `>`,
    // each column's copy (`n.set(a)`) dropped, and the lastSeen storage left in place.
    const storage = new Int32Array(16);
    const t = new EntityTable(16, 1000, storage);
    t.seenOpenLives(3);
    const hs = Array.from({ length: 17 }, (_, k) => t.allocate(100 + k, k, k % 2 === 0));
    expect(hs).toEqual(Array.from({ length: 17 }, (_, k) => k));
    expect(t.capacity).toBe(32);
    expect([t.ids.length, t.spawnFrames.length, t.kindOf.length, t.used.length, t.lastSeen.length]).toEqual([
      32, 32, 32, 32, 32,
    ]);
    expect(t.lastSeen).not.toBe(storage);
    expect(Array.from(t.ids.subarray(0, 17))).toEqual(hs.map((k) => 100 + k));
    expect(Array.from(t.spawnFrames.subarray(0, 17))).toEqual(hs);
    expect(Array.from(t.used.subarray(0, 18))).toEqual([...new Array(17).fill(1), 0]);
    expect(Array.from(t.kindOf.subarray(0, 17))).toEqual(new Array(17).fill(-1));
    expect(hs.map((h) => t.lastFrame(h))).toEqual(hs.map((k) => (k % 2 === 0 ? 3 : k)));
    expect(hs.map((h) => t.lookup(100 + h))).toEqual(hs);
  });

  it('maps ids across pages, up to the last id of the range, through a pool that grows', () => {
    // Kills the dir's `Math.ceil(maxEntityId / PAGE_SIZE)` → `Math.floor`/`* PAGE_SIZE`, the pool's growth
    // (`(poolPages + 1) * PAGE_SIZE > length` → `>=`/`<`/`true`/`false`, `grown.set(pool)` dropped,
    // `length * 2` → `/ 2`), `poolPages++ * PAGE_SIZE + 1` → `- 1`/`poolPages--`, `id & (PAGE_SIZE - 1)` →
    // `+ 1`, `page - 1 + …` → `page + 1`, and lookup's `page === 0` → `false`.
    const max = 7 * PAGE + 1;
    const t = new EntityTable(16, max);
    expect(t.dir.length).toBe(8);
    // Ids in 8 pages (the pool starts with room for 4), and the page edges of each.
    const ids = [
      0,
      PAGE - 1,
      PAGE,
      2 * PAGE + 5,
      3 * PAGE - 1,
      3 * PAGE,
      4 * PAGE + 77,
      5 * PAGE,
      6 * PAGE + 1,
      max - 1,
    ];
    const hs = ids.map((id, k) => t.allocate(id, k));
    expect(t.pool.length).toBe(8 * PAGE);
    expect(ids.map((id) => t.lookup(id))).toEqual(hs);
    // Neighbours of the ids mapped, never allocated: no handle.
    const near = ids.flatMap((id) => [id - 1, id + 1]).filter((id) => !ids.includes(id));
    expect(near.map((id) => t.lookup(id))).toEqual(near.map(() => -1));
    // The pages in the pool, in the order their ranges were first used.
    expect(Array.from(t.dir)).toEqual(Array.from({ length: 8 }, (_, k) => 1 + k * PAGE));
    expect(t.pool[PAGE - 1]).toBe(hs[1] + 1);
  });

  it('maps nothing outside the integers in [0, maxEntityId)', () => {
    // Kills lookup's `id >= 0` → `> 0`/`true`, `id < maxEntityId` → `<=`/`true`, `(id | 0) === id` → `true`.
    const t = new EntityTable(16, 100);
    const h0 = t.allocate(0, 0);
    const h99 = t.allocate(99, 0);
    expect([t.lookup(0), t.lookup(99)]).toEqual([h0, h99]);
    expect([-1, 100, 0.5, 98.5, Number.NaN, -0.5].map((id) => t.lookup(id))).toEqual([-1, -1, -1, -1, -1, -1]);
  });

  it('sweeps from handle 0 once one handle in 8 is free, else issues a new one', () => {
    // Kills allocate's `free > 0` → `>= 0`, `free * SWEEP_FREE >= next` → `>`/`/`, `||` → `&&`, the
    // cursor's `h + 1` → `h - 1`, and the scan `h < next` → `<=` or `used[h] !== 0` → `=== 0`.
    const t = new EntityTable(16, 1000);
    for (let k = 0; k < 16; k++) t.allocate(k, 0);
    t.release(3);
    expect(t.allocate(50, 1)).toBe(16); // 1 free in 16: a new handle
    t.release(9);
    // 2 free in 17 (2 · 8 < 17): still new handles.
    expect(t.allocate(51, 1)).toBe(17);
    t.release(12);
    // 3 free in 18 (3 · 8 ≥ 18): the sweep starts again from 0, then goes on from the cursor.
    expect([t.allocate(52, 2), t.allocate(53, 2), t.allocate(54, 2), t.allocate(55, 2)]).toEqual([3, 9, 12, 18]);
    expect(t.liveCount).toBe(19);
    // Exactly one in eight free: 2 of 16.
    const u = new EntityTable(16, 1000);
    for (let k = 0; k < 16; k++) u.allocate(k, 0);
    u.release(14);
    u.release(15);
    expect(u.allocate(60, 1)).toBe(14);
    // The cursor is past 14: the next free handle after it is 15, not 14 again or 16.
    expect(u.allocate(61, 1)).toBe(15);
    expect(u.allocate(62, 1)).toBe(16);
    // Nothing free: new handles, not a sweep.
    const v = new EntityTable(16, 1000);
    expect([v.allocate(1, 0), v.allocate(2, 0), v.allocate(3, 0)]).toEqual([0, 1, 2]);
  });

  it('keeps the last frame of lives that begin or end in frame 0', () => {
    // Kills lastFrame's `s >= 0` → `> 0`, end's `s >= 0` → `> 0`/`true`, `s === OPEN_LIFE` → `true`/`false`
    // in both, and setLastFrame's `ended ? ~frame : frame` swapped.
    const t = new EntityTable(16, 100);
    const a = t.allocate(1, 0);
    const b = t.allocate(2, 0);
    expect([t.lastFrame(a), t.isEnded(a)]).toEqual([0, false]);
    t.end(a);
    expect([t.lastSeen[a], t.lastFrame(a), t.isEnded(a)]).toEqual([-1, 0, true]);
    t.end(a); // idempotent
    expect([t.lastSeen[a], t.lastFrame(a)]).toEqual([-1, 0]);
    t.seenOpenLives(0);
    const c = t.allocate(3, 0, true);
    t.seenOpenLives(6);
    expect([t.lastSeen[c], t.lastFrame(c)]).toEqual([OPEN_LIFE, 6]);
    t.end(c);
    expect([t.lastSeen[c], t.lastFrame(c), t.isEnded(c)]).toEqual([~6, 6, true]);
    t.seenOpenLives(9);
    expect(t.lastFrame(c)).toBe(6);
    t.setLastFrame(b, 4, false);
    expect([t.lastSeen[b], t.lastFrame(b), t.isEnded(b)]).toEqual([4, 4, false]);
    t.setLastFrame(b, 0, true);
    expect([t.lastSeen[b], t.lastFrame(b), t.isEnded(b)]).toEqual([-1, 0, true]);
  });

  it('maps ids through a Map in a sparse table, however far apart', () => {
    // Kills the sparse paths: `sparseIds ? 0 : …` swapped (dir and pool empty), map's `handle < 0` →
    // `<= 0`/`true`, release's `idMap.get(ids[h]) === h` → `true`, releaseAll's idMap branch emptied.
    const t = new EntityTable(16, 2 ** 31 - 1, undefined, true);
    expect([t.dir.length, t.pool.length]).toEqual([0, 0]);
    const a = t.allocate(2 ** 31 - 2, 0);
    const b = t.allocate(5, 0);
    expect([t.lookup(2 ** 31 - 2), t.lookup(5), t.lookup(6)]).toEqual([a, b, -1]);
    t.map(5, 0); // handle 0: a mapping, not a removal (the sparse map answers as it was told)
    expect(t.lookup(5)).toBe(0);
    t.map(5, b);
    t.end(b);
    const b2 = t.allocate(5, 3); // the id's newer life
    t.release(b); // the older life's release leaves the newer mapping
    expect(t.lookup(5)).toBe(b2);
    t.map(5, -1);
    expect(t.lookup(5)).toBe(-1);
    t.map(5, b2);
    t.releaseAll(new Int32Array([b2, a]), 0, 2, 1);
    expect([t.lookup(5), t.lookup(2 ** 31 - 2), t.liveCount]).toEqual([-1, -1, 0]);
    expect([t.used[a], t.used[b2]]).toEqual([0, 0]);
  });

  it('releases a handle once, and only the handles named', () => {
    // Kills release's `used[h] === 0` return → never (liveCount counted twice) and releaseAll's
    // `freed += used[h]` → `-=`, `(from + k) & mask` → `|`.
    const t = new EntityTable(16, 100);
    for (let k = 0; k < 6; k++) t.allocate(k, 0);
    t.release(2);
    t.release(2);
    expect(t.liveCount).toBe(5);
    t.releaseAll(new Int32Array([0, 9, 9, 4]), 3, 2, 3); // slots 3 and 0: handles 4 and 0
    expect(Array.from(t.used.subarray(0, 6))).toEqual([0, 1, 0, 1, 0, 1]);
    expect(t.liveCount).toBe(3);
  });

  it('readAhead returns what it read: the id map words and the used bytes', () => {
    // Kills readAhead's `ids !== null && idMap === null` → `true`/`||`, `page !== 0` → `true`, its loops'
    // `k < count` → `<=`, `(from + k) & mask` → `+`/`|`, and `acc |= …` → `&=`.
    const t = new EntityTable(16, 3 * PAGE);
    for (let k = 0; k < 12; k++) t.allocate(k, 0); // handles 0..11: map words 1..12
    const ids = new Int32Array([8, 1, 2, PAGE + 10, 4, 0, 0, 0]);
    // Slots 6, 7, 0, 1 of the ring of 8: ids 0, 0, 8, 1 (map words 1, 1, 9, 2). Id PAGE + 10's page was
    // never used: it is skipped (its word in the first page would be 10).
    expect(t.readAhead(ids, null, 6, 4, 7)).toBe(1 | 9 | 2);
    expect(t.readAhead(ids, null, 2, 2, 7)).toBe(3 | 0);
    expect(t.readAhead(ids, null, 0, 0, 7)).toBe(0);
    t.release(1);
    const handles = new Int32Array([1, 1, 2, 3]);
    expect(t.readAhead(null, handles, 0, 2, 3)).toBe(0);
    expect(t.readAhead(null, handles, 1, 2, 3)).toBe(1);
    expect(t.readAhead(new Int32Array([1, 2, 3, 4]), handles, 0, 2, 3)).toBe(2 | 3);
    // A sparse table reads the used bytes only.
    const s = new EntityTable(16, 100, undefined, true);
    s.allocate(40, 0);
    expect(s.readAhead(new Int32Array([40]), null, 0, 1, 0)).toBe(0);
    expect(s.readAhead(new Int32Array([40]), new Int32Array([0]), 0, 1, 0)).toBe(1);
  });

  it('interns a kind again after another, and forgets handles on clear but keeps kinds', () => {
    // Kills internKind's `kind === lastKind` → `true`, the index cache (`lastKind = kind` dropped) and clear's resets.
    const t = new EntityTable(16, 100);
    expect([t.internKind('a'), t.internKind('a'), t.internKind('b'), t.internKind('a')]).toEqual([0, 0, 1, 0]);
    for (let k = 0; k < 20; k++) t.allocate(k, 0);
    t.seenOpenLives(7);
    t.clear();
    expect([t.liveCount, t.highWater, t.openFrame, t.lookup(3)]).toEqual([0, 0, -1, -1]);
    expect(t.used.every((u) => u === 0)).toBe(true);
    expect(t.allocate(5, 1)).toBe(0);
    expect(t.lookup(5)).toBe(0);
    expect(t.kinds).toEqual(['a', 'b']);
    expect(t.internKind('b')).toBe(1);
  });
});
