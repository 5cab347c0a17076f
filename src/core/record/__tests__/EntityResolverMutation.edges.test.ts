import { describe, expect, it } from 'vitest';
import { EntityBuffer } from '../../read/buffers';
import type { Recorder } from '../Recorder';
import { quiet, livesOf as lives, handleOf, recordOps as frame, resolverOf, resolveDirect as direct } from './helpers';

/**
 * EntityResolver, the survivors of run `ment2` (seventh session) that change what is stored: the
 * resolver's `clear`, the despawn queue exactly at its limit, a frame cut to its header with repairs
 * and drops (nothing may be written into the arena), the repaired-entry count, lives ended when
 * frames do not follow, a despawn of a life already ended by absence at handle 0, and a despawn of
 * an id out of range queued in a frame. Each case names the mutants it kills.
 */

/** The arena's words, copied. */
function arena(r: Recorder): Uint32Array {
  return Uint32Array.from((r as unknown as { ring: { u32: Uint32Array } }).ring.u32);
}

const BACKENDS = [true, false];

describe('EntityResolver, the survivors of run ment2', () => {
  it.each(BACKENDS)('starts every life again after clear (wasm %s)', (wasm) => {
    // Kills `clear()`'s body emptied (285:24): the hash and the previous frame's lists kept, an id
    // recorded after the clear continued a life of the cleared table, and the old death queue released
    // handles of the new lives.
    const r = quiet({ maxFrames: 4, maxEntitiesPerFrame: 8, wasm });
    frame(r, 0, [5, 6, 7]);
    frame(r, 1, [5, 6]);
    r.clear();
    frame(r, 2, [7, 6, 5]);
    frame(r, 3, [7, 6, 5]);
    frame(r, 4, [7, 6, 5]);
    frame(r, 5, [7, 6, 5]);
    expect([2, 3, 4, 5].map((f) => lives(r, f))).toEqual([2, 3, 4, 5].map(() => ['7@2', '6@2', '5@2']));
    const t = r.entities;
    expect([t.liveCount, t.highWater]).toEqual([3, 3]);
    expect([5, 6, 7].map((id) => [t.lastFrame(t.lookup(id)), t.isEnded(t.lookup(id))])).toEqual([
      [5, false],
      [5, false],
      [5, false],
    ]);
  });

  it.each(BACKENDS)('ends the despawn past the limit at once, the last one queued (wasm %s)', (wasm) => {
    // Kills `despawnCount >= despawnLimit` → `>` (249:19): the despawn one past the limit was queued
    // into a queue that cannot grow and lost (its life went on, never ended).
    const r = quiet({ maxFrames: 8, maxEntitiesPerFrame: 4, wasm });
    (resolverOf(r) as unknown as { despawnLimit: number }).despawnLimit = 10;
    frame(r, 0, [1, 2, 3, 4]);
    const ten = Array.from({ length: 9 }, (_, k) => `-${100 + k}` as const);
    // Ten queued (2 and nine unknown ids), then 1 past the limit: it ends at once, so its entry recorded
    // before the call starts a new life (the documented fallback); 2 ends after its entry.
    frame(r, 1, [1, 2, 3, 4, '-2', ...ten, '-1']);
    expect(lives(r, 1)).toEqual(['1@1', '2@0', '3@0', '4@0']);
    const t = r.entities;
    const old1 = handleOf(r, 1, 0);
    expect([t.lastFrame(old1), t.isEnded(old1)]).toEqual([0, true]);
    const one = handleOf(r, 1, 1);
    expect([t.lastFrame(one), t.isEnded(one)]).toEqual([1, false]);
    const two = handleOf(r, 2, 0);
    expect([t.lastFrame(two), t.isEnded(two)]).toEqual([1, true]);
    frame(r, 2, [1, 2, 3]);
    expect(lives(r, 2)).toEqual(['1@1', '2@2', '3@0']);
  });

  it.each(BACKENDS)(
    'writes nothing into the arena for a frame cut to its header, with repairs and drops (wasm %s)',
    (wasm) => {
      // Kills the repair's target `base < 0 ? -1 : ...` → `false` / `base <= 0` (415:56) and its `-1` →
      // `+1` (415:67), and the compaction's `base >= 0` → `true` (429:9): a cut frame (no entity
      // section) repaired its NaN positions into, or compacted its entries over, the words of the
      // frames held before it.
      const r = quiet({ maxFrames: 8, maxEntitiesPerFrame: 256, arenaBytes: 2048, wasm });
      frame(
        r,
        0,
        Array.from({ length: 41 }, (_, k) => k + 1),
      );
      const before = arena(r);
      // 200 entries (1,000 words, more than the arena's 512): NaN positions and duplicates among them.
      const ops: Array<number | `n${number}`> = [];
      for (let k = 0; k < 200; k++) ops.push(k % 5 === 1 ? `n${k + 1}` : k % 7 === 3 ? k : k + 1);
      frame(r, 1, ops);
      expect(r.reader.entityCountOf(1)).toBe(0);
      const after = arena(r);
      // Only the cut frame's header words changed: every word of frame 0 is as it was.
      const frame0Words = r.reader.entityCountOf(0) * 5;
      const diff: number[] = [];
      for (let w = 0; w < before.length; w++) if (before[w] !== after[w]) diff.push(w);
      expect(diff.every((w) => w > frame0Words + 16)).toBe(true);
      const e = new EntityBuffer();
      r.reader.readEntities(0, e);
      expect(Array.from(e.positions.subarray(0, 3 * 41))).toEqual(
        Array.from({ length: 41 }, (_, k) => [k + 1, 0, 0]).flat(),
      );
      expect(lives(r, 0)).toEqual(Array.from({ length: 41 }, (_, k) => `${k + 1}@0`));
    },
  );

  it.each(BACKENDS)('counts the entries it repairs (wasm %s)', (wasm) => {
    // Kills `sanitized++` → `--` (416:9) and `sanitized += rotations` → `-=` (428:29): the frame header's
    // sanitized count is the resolver's plus the other stages' (none here).
    const r = quiet({ maxFrames: 8, maxEntitiesPerFrame: 16, wasm });
    frame(r, 0, [1, 2, 3]);
    r.beginFrame(1, 1 / 60);
    r.entity(1, Number.NaN, 0, 0, 0, 0, 0, 1);
    r.entity(2, 2, 0, 0, 0, 0, 0, 0);
    r.entity(3, 3, Number.POSITIVE_INFINITY, 0, 0, 0, 0, 1);
    r.endFrame();
    expect(resolverOf(r).sanitized).toBe(3);
    r.beginFrame(2, 1 / 60);
    r.entity(1, 1, 0, 0, 0, 0, 0, 0);
    r.entity(2, 2, 0, 0, 0, 0, 0, 1);
    r.endFrame();
    expect(resolverOf(r).sanitized).toBe(1);
  });

  it('ends the open lives of the previous frame only, when frames do not follow (called directly)', () => {
    // Kills endAll's `j < prevCount` → `<=` (547:21): the stale entry past the previous frame's count
    // (a life that died two frames before) was ended again, at the last frame resolved.
    const r = quiet({ maxFrames: 8, maxEntitiesPerFrame: 16, wasm: false });
    const resolve = direct(r);
    const t = r.entities;
    expect(resolve(0, [1, 2])).toBe(2);
    const two = t.lookup(2);
    expect(resolve(1, [1])).toBe(1);
    expect(resolve(2, [1])).toBe(1);
    expect([t.lastFrame(two), t.isEnded(two)]).toEqual([0, false]);
    expect(resolve(7, [1])).toBe(1);
    expect([t.lastFrame(two), t.isEnded(two)]).toEqual([0, false]);
    const one = handleOf(r, 1, 0);
    expect([t.lastFrame(one), t.isEnded(one)]).toEqual([2, false]);
  });

  it.each(BACKENDS)('marks ended the newest life of an id with no open life, at handle 0 (wasm %s)', (wasm) => {
    // Kills endLife's `h >= 0` → `h > 0` (566:11): a life that died by absence keeps its handle until
    // its frame is evicted; despawn then marks it ended, handle 0 as any other.
    const r = quiet({ maxFrames: 8, maxEntitiesPerFrame: 16, wasm });
    frame(r, 0, [4, 5]);
    frame(r, 1, [5]);
    const t = r.entities;
    const four = handleOf(r, 4, 0);
    expect(four).toBe(0);
    expect([t.lastFrame(four), t.isEnded(four)]).toEqual([0, false]);
    r.despawn(4);
    expect([t.lastFrame(four), t.isEnded(four)]).toEqual([0, true]);
    frame(r, 2, [5, '-4']);
    expect(lives(r, 2)).toEqual(['5@0']);
  });

  it('ignores a queued despawn of an id out of range (called directly)', () => {
    // Covers endLife's `-1` for an id out of range (563:73 → `+1`: slot 1 of the hash taken as that
    // id's life, which removed another life's entry and ended a life of the previous frame).
    const r = quiet({ maxFrames: 8, maxEntitiesPerFrame: 64, wasm: false });
    const resolve = direct(r);
    const ids = Array.from({ length: 40 }, (_, k) => k * 7 + 3);
    expect(resolve(0, ids)).toBe(40);
    expect(
      resolve(
        1,
        ids,
        [-5, 1e9, 2.5].map((id) => [id, 0] as [number, number]),
      ),
    ).toBe(40);
    expect(resolve(2, ids)).toBe(40);
    const t = r.entities;
    expect(ids.map((id) => t.spawnFrames[t.lookup(id)])).toEqual(ids.map(() => 0));
    expect(ids.map((id) => t.isEnded(t.lookup(id)))).toEqual(ids.map(() => false));
    expect(t.liveCount).toBe(40);
  });
});
