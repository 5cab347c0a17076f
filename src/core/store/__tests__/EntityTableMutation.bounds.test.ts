import { describe, expect, it } from 'vitest';
import { MAX_HANDLES } from '../../format/layout';
import { EntityTable } from '../EntityTable';

/**
 * EntityTable, the survivors of run `ment1` (issue 20, seventh pass) that EntityTableMutation.test.ts
 * let through: what a fresh table holds, `lookup` of an id outside the range even when a life was
 * allocated for it, and where the sweep goes on after a handle it found, and a table whose every handle was issued. Each case names the mutants
 * it kills.
 */

describe('EntityTable, run ment1 survivors', () => {
  it('starts with no label, no skeleton and no frame resolved', () => {
    // Kills `labels = []` and `skeletons = []` → `["Stryker was here"]` (47:46, 53:62: the panel
    // offers bones when any skeleton is set) and `openFrame = -1` → `+1` (49:22).
    const t = new EntityTable(16, 100);
    expect(t.labels).toEqual([]);
    expect(t.skeletons).toEqual([]);
    expect(t.kinds).toEqual([]);
    expect(t.openFrame).toBe(-1);
    // An open life allocated before any frame was resolved has no last frame yet.
    const h = t.allocate(7, 0, true);
    expect(t.lastFrame(h)).toBe(-1);
    expect(t.labels).toEqual([undefined]);
  });

  it('looks up no id outside the integers of [0, maxEntityId), even one a life was allocated for', () => {
    // Kills lookup's range test (121): the whole test → `false`, `id >= 0` → `true`, `id >= 0 && id < max`
    // → `true`, `&&` → `||` (both), the conjunction → `true` (121:9, 121:11), `id < max` → `true` and
    // `<=` (121:22), `(id | 0) === id` → `true` (121:47). `allocate` maps whatever id it is given; the
    // sparse map then holds the id as given, and the paged map holds an id past the range in its page.
    const sparse = new EntityTable(16, 100, undefined, true);
    const odd = [-5, 1.5, 100, 150, -0.5];
    const hs = odd.map((id) => sparse.allocate(id, 0));
    expect(hs).toEqual([0, 1, 2, 3, 4]);
    expect(odd.map((id) => sparse.lookup(id))).toEqual([-1, -1, -1, -1, -1]);
    const inRange = sparse.allocate(99, 1);
    expect(sparse.lookup(99)).toBe(inRange);
    const paged = new EntityTable(16, 100);
    paged.allocate(100, 0);
    paged.allocate(120, 0);
    const h0 = paged.allocate(0, 0);
    expect([paged.lookup(100), paged.lookup(120), paged.lookup(0)]).toEqual([-1, -1, h0]);
  });

  it('goes on after the handle it found, not before it', () => {
    // Kills allocate's `cursor = h + 1` → `h - 1` (214:19): with the cursor one short, a handle freed
    // just before the one found is issued again ahead of the free handle after it.
    const t = new EntityTable(16, 1000);
    for (let k = 0; k < 16; k++) t.allocate(k, 0);
    t.release(4);
    t.release(6);
    // 2 free of 16 (2 · 8 ≥ 16): the sweep starts from 0 and finds 4.
    expect(t.allocate(100, 1)).toBe(4);
    t.release(4);
    // Free: 4 and 6. The sweep goes on from 5: 6; past the last handle, 1 free of 16 is too few to
    // sweep again, so a new handle.
    expect(t.allocate(101, 2)).toBe(6);
    expect(t.allocate(102, 2)).toBe(16);
    expect([t.lookup(100), t.lookup(101), t.lookup(102), t.lookup(6), t.used[4]]).toEqual([-1, 6, 16, -1, 0]);
  });

  it('with every handle issued, refuses a life while none is free and sweeps for the few freed', () => {
    // Kills allocate's `next >= HANDLES_MAX` → `false` and `>` in the sweep's test (204:53: fewer than
    // one handle in eight is free, so only the full table sweeps), and in the refusal (209:13: the table
    // then "grew" to the same size and issued handle 2^24, past its columns), and `return -1` → `+1`
    // (209:41). Issuing 2^24 handles one by one takes seconds and 650 MB; the table is set to the
    // state they leave instead (every handle in use, issued up to MAX_HANDLES), which is all that
    // `allocate` reads: the `used` bytes, the count in use and the handles issued.
    const t = new EntityTable(MAX_HANDLES, 1);
    t.used.fill(1);
    (t as unknown as { next: number }).next = MAX_HANDLES;
    t.liveCount = MAX_HANDLES;
    expect(t.allocate(0, 1)).toBe(-1);
    expect([t.highWater, t.capacity, t.liveCount]).toEqual([MAX_HANDLES, MAX_HANDLES, MAX_HANDLES]);
    // The last handle freed: found by the scan from the cursor, which then stands past every handle.
    t.release(MAX_HANDLES - 1);
    expect(t.allocate(0, 2)).toBe(MAX_HANDLES - 1);
    // Two freed (far fewer than one in eight): past the last handle, only a full table sweeps from 0.
    t.release(9);
    t.release(5);
    expect(t.allocate(0, 3)).toBe(5);
    expect(t.allocate(0, 3)).toBe(9);
    expect(t.allocate(0, 3)).toBe(-1);
    expect([t.highWater, t.liveCount, t.lookup(0), t.spawnFrames[5], t.spawnFrames[9]]).toEqual([
      MAX_HANDLES,
      MAX_HANDLES,
      9,
      3,
      3,
    ]);
  });
});
