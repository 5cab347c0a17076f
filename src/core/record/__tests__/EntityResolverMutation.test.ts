import { describe, expect, it, vi } from 'vitest';
import { MAX_HANDLES } from '../../format/layout';
import { EntityBuffer } from '../../read/buffers';
import { EntityResolver } from '../EntityResolver';
import { quiet, warningsOf, livesOf as lives, handleOf, recordOps as frame, resolveDirect } from './helpers';

/**
 * EntityResolver at its edges (issue 20, sixth pass): the block's size, the despawn queue filled to
 * its capacity, frames that do not follow the last one resolved (the resolver's own rule; the
 * recorder counts its frames), a frame cut to its header, the kept index after a frame with drops,
 * and the warnings' wording. Each case names the mutants it kills.
 */

const BACKENDS = [true, false];

describe('EntityResolver, mutation pass', () => {
  it('sizes its block: header, ids and flags, five lists, taken bytes, and the hash with its guard slot', () => {
    // Kills layout's `HEADER * 4`, `2 * pad16(capacity)`, `6 * pad16(4 * capacity)`,
    // `4 * blockWords(reservedSlots)` with blockWords' `2 * (reserved + GUARD_SLOTS)` (each operator
    // and constant), and pad16's `Math.ceil(n / 16) * 16` → `floor`/`n * 16`.
    expect([1, 16, 17, 100, 4096].map((c) => EntityResolver.layout(c).bytes)).toEqual([
      64 + 2 * 16 + 6 * 16 + 8 * 65,
      64 + 2 * 16 + 6 * 64 + 8 * 65,
      64 + 2 * 32 + 6 * 80 + 8 * 129,
      64 + 2 * 112 + 6 * 400 + 8 * 513,
      64 + 2 * 4096 + 6 * 16384 + 8 * 16385,
    ]);
  });

  it.each(BACKENDS)('queues more despawns than a frame holds entries (wasm %s)', (wasm) => {
    // Kills the despawn queue's growth (`despawnCount === length` → `false`: a fifth despawn past the
    // queue is lost, and the life then dies by absence, not ended; the copies of the queue dropped).
    const r = quiet({ maxFrames: 8, maxEntitiesPerFrame: 4, wasm });
    frame(r, 0, [1, 2, 3, 4]);
    // Frame 1: 1, 2 and 3 recorded, then despawned (their last frame is 1), an unknown id, then 4,
    // which this frame did not record (its last frame is 0).
    frame(r, 1, [1, 2, 3, '-1', '-2', '-3', '-9', '-4']);
    const t = r.entities;
    const ended = [1, 2, 3, 4].map((id) => {
      const h = handleOf(r, id, 0);
      return [t.lastFrame(h), t.isEnded(h)];
    });
    expect(ended).toEqual([
      [1, true],
      [1, true],
      [1, true],
      [0, true],
    ]);
    frame(r, 2, [4, 3, 2, 1]);
    expect(lives(r, 2)).toEqual(['4@2', '3@2', '2@2', '1@2']);
    // A despawn at position 0 (before any entry of the frame) ends the life before its entry.
    frame(r, 3, ['-4', 4, 3, 2, 1]);
    expect(lives(r, 3)).toEqual(['4@3', '3@2', '2@2', '1@2']);
    const old4 = handleOf(r, 4, 2);
    expect([t.lastFrame(old4), t.isEnded(old4)]).toEqual([2, true]);
  });

  it.each(BACKENDS)(
    'ends a life recorded before its despawn in this frame, after 20 other despawns (wasm %s)',
    (wasm) => {
      // Regression: with the queue full (as many despawns as entries per frame), a despawn ended its life
      // at once, so the entry recorded before the call started a new life (1@1 instead of 1@0).
      const r = quiet({ maxFrames: 8, maxEntitiesPerFrame: 4, wasm });
      frame(r, 0, [1, 2, 3, 4]);
      const others = Array.from({ length: 20 }, (_, k) => `-${100 + k}` as const);
      frame(r, 1, [1, 2, 3, 4, ...others, '-1']);
      expect(lives(r, 1)).toEqual(['1@0', '2@0', '3@0', '4@0']);
      const h = handleOf(r, 1, 0);
      expect([r.entities.lastFrame(h), r.entities.isEnded(h)]).toEqual([1, true]);
      frame(r, 2, [1, 2]);
      expect(lives(r, 2)).toEqual(['1@2', '2@0']);
    },
  );

  it.each(BACKENDS)('a runaway loop of despawns in one frame queues at most despawnLimit (wasm %s)', (wasm) => {
    // The queue grows to the limit and no further (memory stays bounded however many calls a frame
    // makes); past it a despawn ends its life at once, as outside a frame, so an entry of that life
    // recorded before the call starts a new life (the documented fallback).
    const r = quiet({ maxFrames: 8, maxEntitiesPerFrame: 4, wasm });
    const resolver = (r as unknown as { resolver: EntityResolver }).resolver;
    (resolver as unknown as { despawnLimit: number }).despawnLimit = 10;
    frame(r, 0, [1, 2, 3, 4]);
    const spam = Array.from({ length: 5000 }, (_, k) => `-${100 + (k % 7)}` as const);
    frame(r, 1, [1, 2, 3, 4, '-2', ...spam, '-1']);
    expect((resolver as unknown as { despawnIds: Int32Array }).despawnIds.length).toBe(10);
    // 2's despawn was queued (its entry continues its life); 1's came past the limit.
    expect(lives(r, 1)).toEqual(['1@1', '2@0', '3@0', '4@0']);
    frame(r, 2, [2, 3]);
    expect(lives(r, 2)).toEqual(['2@2', '3@0']);
  });

  it('ends every open life at the last frame resolved when frames do not follow (called directly)', () => {
    // Kills resolve's `frame !== resolved + 1` → `false`, endAll's `taken[j] === 0` → `true`, `died(j,
    // resolved)`'s frame, `prevCount = 0`, `lives.clear()` and `taken.fill(0)` dropped, `j < prevCount` → `<=`.
    const r = quiet({ maxFrames: 8, maxEntitiesPerFrame: 16, wasm: false });
    const resolver = (r as unknown as { resolver: EntityResolver }).resolver;
    const resolve = resolveDirect(r);
    const t = r.entities;
    expect(resolve(0, [1, 2, 3])).toBe(3);
    expect(resolve(1, [1, 2, 3], [[2, 2]])).toBe(3);
    const old = [1, 2, 3].map((id) => handleOf(r, id, 0));
    // Frame 4 follows frame 1: the lives of frame 1 ended there (2 by its despawn, the others by the gap).
    expect(resolve(4, [3, 1, 2])).toBe(3);
    expect(old.map((h) => [t.lastFrame(h), t.isEnded(h)])).toEqual([
      [1, false],
      [1, true],
      [1, false],
    ]);
    expect([3, 1, 2].map((id) => t.spawnFrames[t.lookup(id)])).toEqual([4, 4, 4]);
    // And the lives of frame 4 continue in frame 5, wherever their entries are.
    expect(resolve(5, [2, 3, 1])).toBe(3);
    expect([1, 2, 3].map((id) => t.spawnFrames[t.lookup(id)])).toEqual([4, 4, 4]);
    // Frame 1's handles go back to the table once frame 1 is evicted, not before.
    resolver.evicted(0);
    expect(old.map((h) => t.used[h])).toEqual([1, 1, 1]);
    resolver.evicted(1);
    expect(old.map((h) => t.used[h])).toEqual([0, 0, 0]);
    expect(t.liveCount).toBe(3);
  });

  it.each(BACKENDS)(
    'resolves the lives of a frame cut to its header, and continues them after it (wasm %s)',
    (wasm) => {
      // Kills resolve's `base >= 0` checks on a cut frame (`base >= 0 && n > 0` → `true`: the kernel would
      // write before the arena) and the lists' swap on a frame without an entity section.
      const r = quiet({ maxFrames: 8, maxEntitiesPerFrame: 256, arenaBytes: 2048, wasm });
      // Frame 0 (41 entities, over 200 words) lies where a cut frame's kernel would write its positions.
      const first = Array.from({ length: 41 }, (_, k) => k + 1);
      frame(r, 0, first);
      // 200 entities need 1,000 words: more than the arena's 512. The frame keeps its header only.
      frame(
        r,
        1,
        Array.from({ length: 200 }, (_, k) => k + 1),
      );
      expect(r.reader.entityCountOf(1)).toBe(0);
      const e = new EntityBuffer();
      r.reader.readEntities(0, e);
      expect(Array.from(e.positions.subarray(0, 3 * 41)).filter((_, j) => j % 3 === 0)).toEqual(first);
      expect(Array.from(e.rotations.subarray(0, 4 * 41)).filter((_, j) => j % 4 === 3)).toEqual(first.map(() => 1));
      frame(r, 2, [3, 2, 1, 150]);
      expect(lives(r, 2)).toEqual(['3@0', '2@0', '1@0', '150@1']);
    },
  );

  it.each(BACKENDS)(
    'fills the kept index again after a frame with drops, for a frame without any (wasm %s)',
    (wasm) => {
      // Kills `dropped === 0 && (needKeptIndex || badRotations !== 0)` → `false` / `badRotations !== 0` → `false`
      // (a rotation repaired through the previous frame's kept index lands on another entity), and the
      // kept index's `k - dropped` after the kernel's run.
      const r = quiet({ maxFrames: 8, maxEntitiesPerFrame: 16, wasm });
      frame(r, 0, [1, 1, 2, 3, 4]);
      r.beginFrame(1, 1 / 60);
      r.entity(1, 0, 0, 0, 0, 0, 0.6, 0.8);
      r.entity(2, 0, 0, 0, 0, 0, 0.8, 0.6);
      r.entity(3, 0, 0, 0, Number.NaN, 0, 0, 1);
      r.entity(4, 0, 0, 0, 0, 0.6, 0, 0.8);
      r.endFrame();
      const e = new EntityBuffer();
      r.reader.readEntities(1, e);
      const q = Array.from(e.rotations.subarray(0, 16)).map((v) => Math.round(v * 100) / 100);
      expect(q).toEqual([0, 0, 0.6, 0.8, 0, 0, 0.8, 0.6, 0, 0, 0, 1, 0, 0.6, 0, 0.8]);
      expect(r.stats.invalidRotations).toBe(1);
      // The repaired entity, and only it, is flagged SANITIZED.
      expect(Array.from(e.flags.subarray(0, 4))).toEqual([0, 0, 128, 0]);
      // A bad rotation at the entry the previous frame dropped (index 1) is counted too.
      r.beginFrame(2, 1 / 60);
      r.entity(1, 0, 0, 0, 0, 0, 0, 1);
      r.entity(2, 0, 0, 0, 0, 0, 0, 0);
      r.entity(3, 0, 0, 0, 0, 0, 0, 1);
      r.endFrame();
      r.reader.readEntities(2, e);
      expect([r.stats.invalidRotations, ...Array.from(e.flags.subarray(0, 3))]).toEqual([2, 0, 128, 0]);
    },
  );

  it.each(BACKENDS)('words each warning with the id and the bound (wasm %s)', (wasm) => {
    // Kills the 'id', 'dup' and 'handles' messages emptied or cut, and badId's `String(id)` of a non-number.
    const r = quiet({ maxFrames: 4, maxEntitiesPerFrame: 64, maxEntityId: 1000, wasm });
    r.beginFrame(0, 1 / 60);
    r.entity(2.5, 0, 0, 0, 0, 0, 0, 1);
    r.entity(7, 0, 0, 0, 0, 0, 0, 1);
    r.entity(7, 0, 0, 0, 0, 0, 0, 1);
    r.endFrame();
    r.beginFrame(1, 1 / 60);
    const f = (): Float32Array => new Float32Array(2).fill(1);
    r.entityColumns(2, { ids: Int32Array.of(5, -3), x: f(), y: f(), z: f(), qx: f(), qy: f(), qz: f(), qw: f() });
    r.endFrame();
    frame(r, 2, [1, 2, 3, 4]);
    const table = r.entities;
    const allocate = table.allocate.bind(table);
    vi.spyOn(table, 'allocate').mockImplementation((id, f2) => (id === 11 ? -1 : allocate(id, f2)));
    const live = table.liveCount;
    table.liveCount = MAX_HANDLES - 2;
    frame(r, 3, [1, 11, 2, 3, 4]);
    table.liveCount = live;
    vi.restoreAllMocks();
    expect(warningsOf(r)).toEqual([
      'rewindable: entity id 2.5 is not an integer in [0, 1000); the entity was dropped',
      'rewindable: entity id 7 was recorded twice in one frame; the second record was dropped',
      `rewindable: all ${MAX_HANDLES} entity handles are held by the ring; entity 11 was dropped`,
    ]);
    expect([r.stats.idsOutOfRange, r.stats.duplicateIds, r.stats.entitiesOverCapacity]).toEqual([2, 1, 1]);
    expect(lives(r, 3)).toEqual(['1@2', '2@2', '3@2', '4@2']);
  });
});
