import { describe, expect, it, vi } from 'vitest';
import { rng } from '../../../../tests/helpers/random';
import { MAX_HANDLES } from '../../format/layout';
import { OpenLives } from '../OpenLives';
import type { Recorder } from '../Recorder';
import { quiet, livesOf as lives, recordOps as frame } from './helpers';

const BACKENDS = [
  { backend: 'wasm', wasm: true },
  { backend: 'js', wasm: false },
];

describe.each(BACKENDS)('EntityResolver with the hash of open lives ($backend)', ({ wasm }) => {
  it('reuses an id within one frame: despawned, recorded again (a new life), then a duplicate', () => {
    const r = quiet({ maxFrames: 8, maxEntitiesPerFrame: 64, wasm });
    frame(r, 0, [1, 2, 3, 4, 5, 6, 7, 8]);
    frame(r, 1, [1, 2, 3, '-3', 3, 4, 5, 6, 7, 3, 8]);
    expect(lives(r, 1)).toEqual(['1@0', '2@0', '3@0', '3@1', '4@0', '5@0', '6@0', '7@0', '8@0']);
    expect(r.stats.duplicateIds).toBe(1);
    // The next frame continues the new life, at the old life's position and elsewhere.
    frame(r, 2, [1, 2, 3, 4, 5, 6, 7, 8]);
    expect(lives(r, 2)).toEqual(['1@0', '2@0', '3@1', '4@0', '5@0', '6@0', '7@0', '8@0']);
    frame(r, 3, [3, 1, 2, 4, 5, 6, 7, 8]);
    expect(lives(r, 3)).toEqual(['3@1', '1@0', '2@0', '4@0', '5@0', '6@0', '7@0', '8@0']);
  });

  it('drops a duplicate at any position, in place or not, and keeps the first entry', () => {
    const r = quiet({ maxFrames: 8, maxEntitiesPerFrame: 64, wasm });
    frame(r, 0, [10, 11, 12, 13, 14, 15, 16, 17]);
    frame(r, 1, [10, 10, 11, 12, 13, 14, 17, 16, 15, 15, 17]);
    expect(lives(r, 1)).toEqual(['10@0', '11@0', '12@0', '13@0', '14@0', '17@0', '16@0', '15@0']);
    expect(r.stats.duplicateIds).toBe(3);
    // A new life recorded twice in its first frame: one life.
    frame(r, 2, [99, 10, 99, 11, 12, 13, 14, 15, 16, 17]);
    expect(lives(r, 2)[0]).toBe('99@2');
    expect(lives(r, 2)).toHaveLength(9);
    expect(r.stats.duplicateIds).toBe(4);
  });

  it('starts a new life for an id despawned after its entry, or between frames, and frees the old one', () => {
    const r = quiet({ maxFrames: 3, maxEntitiesPerFrame: 64, wasm });
    frame(r, 0, [1, 2, 3, 4, 5]);
    frame(r, 1, [1, 2, 3, '-2', 4, 5]); // 2's life ends in frame 1, after its entry
    r.despawn(4); // between frames: 4's life ends in frame 1
    frame(r, 2, [1, 2, 3, 4, 5]);
    expect(lives(r, 2)).toEqual(['1@0', '2@2', '3@0', '4@2', '5@0']);
    const ended = (id: number, spawn: number): number[] => {
      const h = Array.from({ length: r.entities.highWater }, (_, k) => k).find(
        (k) => r.entities.used[k] === 1 && r.entities.ids[k] === id && r.entities.spawnFrames[k] === spawn,
      );
      if (h === undefined) return [];
      return [r.entities.lastFrame(h), r.entities.isEnded(h) ? 1 : 0];
    };
    expect(ended(2, 0)).toEqual([1, 1]);
    expect(ended(4, 0)).toEqual([1, 1]);
    // Once frame 1 is evicted, the two old lives' handles go back to the table.
    for (let f = 3; f < 6; f++) frame(r, f, [1, 2, 3, 4, 5]);
    expect(ended(2, 0)).toEqual([]);
    expect(ended(4, 0)).toEqual([]);
    expect(r.entities.liveCount).toBe(5);
  });

  it('continues every life of a frame whose entries are all reordered, and ends the missing ones', () => {
    const random = rng(17);
    const r = quiet({ maxFrames: 4, maxEntitiesPerFrame: 1024, wasm });
    const ids = Array.from({ length: 600 }, (_, i) => i * 7 + 3);
    frame(r, 0, ids);
    const reversed = [...ids].reverse();
    frame(r, 1, reversed);
    expect(lives(r, 1)).toEqual(reversed.map((id) => `${id}@0`));
    // A shuffle without every tenth id: those lives end, the others continue.
    const kept = ids.filter((_, i) => i % 10 !== 0);
    const shuffled = kept
      .map((id) => ({ id, k: random() }))
      .sort((a, b) => a.k - b.k)
      .map((x) => x.id);
    frame(r, 2, shuffled);
    expect(lives(r, 2)).toEqual(shuffled.map((id) => `${id}@0`));
    frame(r, 3, ids);
    expect(lives(r, 3)).toEqual(ids.map((id, i) => `${id}@${i % 10 === 0 ? 3 : 0}`));
  });

  it('matches ids spread over [0, 2^32): those in range continue, the others are dropped and counted', () => {
    const random = rng(32);
    const n = 400;
    const r = quiet({ maxFrames: 4, maxEntitiesPerFrame: 1024, maxEntityId: 2 ** 30, wasm });
    // -1 (an empty slot's mark in the hash) and 2^31 among them.
    const raw = Array.from({ length: n }, (_, i) =>
      i === 7 ? 2 ** 32 - 1 : i === 9 ? 2 ** 31 : Math.floor(random() * 2 ** 32),
    );
    const ids = Int32Array.from(raw); // ids ≥ 2^31 wrap to negative int32
    const inRange = raw.filter((id) => id < 2 ** 30);
    const columns = (order: Int32Array) => ({
      ids: order,
      x: new Float32Array(n),
      y: new Float32Array(n),
      z: new Float32Array(n),
      qx: new Float32Array(n),
      qy: new Float32Array(n),
      qz: new Float32Array(n),
      qw: new Float32Array(n).fill(1),
    });
    r.beginFrame(0, 1 / 60);
    r.entityColumns(n, columns(ids));
    r.endFrame();
    expect(inRange.length).toBeGreaterThan(50);
    expect(lives(r, 0)).toEqual(inRange.map((id) => `${id}@0`));
    const reversed = Int32Array.from(ids).reverse();
    r.beginFrame(1, 1 / 60);
    r.entityColumns(n, columns(reversed));
    r.endFrame();
    expect(lives(r, 1)).toEqual([...inRange].reverse().map((id) => `${id}@0`));
    expect(r.stats.idsOutOfRange).toBe(2 * (n - inRange.length));
  });

  it('grows and shrinks the hash through bursts of new lives, up to the most a frame can hold', () => {
    const cap = 300;
    const r = quiet({ maxFrames: 4, maxEntitiesPerFrame: cap, arenaBytes: 1 << 20, wasm });
    let next = 1;
    for (let f = 0; f < 12; f++) {
      // Full frames of new ids (the previous frame's 300 lives die: 600 open at once), then small
      // frames that continue a few of them.
      const ids = f % 3 === 2 ? [next - 1, next - 2, next - 3] : Array.from({ length: cap }, () => next++);
      frame(r, f, ids);
      const expected = f % 3 === 2 ? ids.map((id) => `${id}@${f - 1}`) : ids.map((id) => `${id}@${f}`);
      expect(lives(r, f)).toEqual(expected);
    }
    expect(r.stats.entitiesOverCapacity).toBe(0);
  });
});

/** Counts the calls of the recorder's kernel `match` (null on the JavaScript backend). */
function countMatches(r: Recorder): { calls: number } {
  const kernel = (r as unknown as { kernel: { match: ((...a: number[]) => number) | null } }).kernel;
  const counter = { calls: 0 };
  const match = kernel.match;
  if (match !== null) {
    kernel.match = (...a: number[]) => {
      counter.calls++;
      return match(...a);
    };
  }
  return counter;
}

describe('EntityResolver: new lives opened by the kernel', () => {
  it('opens a frame of new lives in one call of match, the same lives, kinds and bytes as the JavaScript path', () => {
    const rs = [
      quiet({ maxFrames: 6, maxEntitiesPerFrame: 512 }),
      quiet({ maxFrames: 6, maxEntitiesPerFrame: 512, wasm: false }),
    ];
    const counter = countMatches(rs[0]);
    const random = rng(5);
    let next = 1000;
    let open: number[] = [];
    for (let f = 0; f < 10; f++) {
      // Half the lives replaced each frame, the order shuffled; new lives described in the frame.
      const born = Array.from({ length: 200 - open.length / 2 }, () => next++);
      open = open.filter(() => random() < 0.5).concat(born);
      open = open
        .map((id) => ({ id, k: random() }))
        .sort((a, b) => a.k - b.k)
        .map((x) => x.id);
      counter.calls = 0;
      for (const r of rs) {
        frame(r, f, open);
        for (const id of born) if (id % 3 === 0) r.describe(id, 'third');
      }
      expect(lives(rs[0], f)).toEqual(
        open.map(
          (id) =>
            `${id}@${
              born.includes(id)
                ? f
                : lives(rs[1], f)
                    .find((l) => l.startsWith(`${id}@`))
                    ?.split('@')[1]
            }`,
        ),
      );
      expect(lives(rs[0], f)).toEqual(lives(rs[1], f));
      // Once the hash has grown to this many lives, one call takes the whole frame: no return to
      // JavaScript per new life.
      if (f >= 2) expect(counter.calls).toBe(1);
    }
    const kinds = (r: Recorder): string[] =>
      Array.from({ length: r.entities.highWater }, (_, h) => h)
        .filter((h) => r.entities.used[h] === 1)
        .map((h) => `${r.entities.ids[h]}@${r.entities.spawnFrames[h]}:${r.entities.kindOf[h]}`);
    expect(kinds(rs[0])).toEqual(kinds(rs[1]));
    expect(kinds(rs[0]).filter((k) => k.endsWith(':0')).length).toBeGreaterThan(100);
  });

  it('drops a duplicate of a life opened earlier in the frame, and despawns one mid-frame, as the JavaScript path does', () => {
    const rs = [
      quiet({ maxFrames: 8, maxEntitiesPerFrame: 64 }),
      quiet({ maxFrames: 8, maxEntitiesPerFrame: 64, wasm: false }),
    ];
    for (const r of rs) {
      frame(r, 0, [1, 2, 3, 4, 5, 6, 7, 8]);
      // 20 and 21 are new: 20 recorded twice, 21 despawned after its entry and recorded again.
      frame(r, 1, [1, 20, 2, 21, 3, 20, 4, '-21', 21, 5, 6, 7, 8]);
    }
    expect(lives(rs[0], 1)).toEqual(['1@0', '20@1', '2@0', '21@1', '3@0', '4@0', '21@1', '5@0', '6@0', '7@0', '8@0']);
    expect(lives(rs[0], 1)).toEqual(lives(rs[1], 1));
    expect(rs[0].stats.duplicateIds).toBe(1);
    const h21 = (r: Recorder): number[] =>
      Array.from({ length: r.entities.highWater }, (_, h) => h).filter((h) => r.entities.ids[h] === 21);
    expect(h21(rs[0]).map((h) => rs[0].entities.isEnded(h))).toEqual([true, false]);
    expect(h21(rs[0]).length).toBe(2);
  });

  it('leaves new lives to JavaScript when a handle allocation could fail: the entry that gets none is dropped', () => {
    const r = quiet({ maxFrames: 4, maxEntitiesPerFrame: 64 });
    frame(r, 0, [1, 2, 3, 4]);
    // As if nearly every handle were held, and the table had none left for id 11.
    const table = r.entities;
    const allocate = table.allocate.bind(table);
    vi.spyOn(table, 'allocate').mockImplementation((id, f) => (id === 11 ? -1 : allocate(id, f)));
    const live = table.liveCount;
    table.liveCount = MAX_HANDLES - 5; // fewer than the frame's 7 entries
    frame(r, 1, [1, 10, 11, 12, 2, 3, 4]);
    table.liveCount = live + 2;
    expect(lives(r, 1)).toEqual(['1@0', '10@1', '12@1', '2@0', '3@0', '4@0']);
    expect(r.stats.entitiesOverCapacity).toBe(1);
    vi.restoreAllMocks();
  });
});

describe('OpenLives', () => {
  it('agrees with a Map through random inserts and removals, ids over [0, 2^31), never over half full', () => {
    const random = rng(2026);
    const reserved = 1024;
    const lives = new OpenLives(new Int32Array(OpenLives.blockWords(reserved)), reserved);
    const model = new Map<number, number>();
    for (let step = 0; step < 20000; step++) {
      const grow = model.size < 20 || (model.size < reserved / 2 && random() < 0.52);
      if (grow) {
        // Clustered ids too: neighbours share probe sequences, which removal must keep intact.
        const id = random() < 0.5 ? Math.floor(random() * 2 ** 31) : Math.floor(random() * 4096);
        if (model.has(id)) continue;
        const index = step & 0xffff;
        lives.insert(id, index);
        model.set(id, index);
      } else {
        const keys = [...model.keys()];
        const id = keys[Math.floor(random() * keys.length)];
        lives.remove(lives.find(id));
        model.delete(id);
        if (random() < 0.01) lives.compact();
      }
      expect(2 * lives.live).toBeLessThanOrEqual(lives.size);
      if (step % 500 === 0) {
        for (const [id, index] of model) expect(lives.words[2 * lives.find(id) + 1]).toBe(index);
        expect(lives.find(2 ** 31 - 1)).toBe(model.has(2 ** 31 - 1) ? lives.find(2 ** 31 - 1) : -1);
      }
    }
    expect(lives.live).toBe(model.size);
    for (const [id, index] of model) expect(lives.words[2 * lives.find(id) + 1]).toBe(index);
    let absent = 0;
    for (let k = 0; k < 2000; k++) {
      const id = Math.floor(random() * 2 ** 31);
      if (!model.has(id)) {
        expect(lives.find(id)).toBe(-1);
        absent++;
      }
    }
    expect(absent).toBeGreaterThan(1900);
  });
});
