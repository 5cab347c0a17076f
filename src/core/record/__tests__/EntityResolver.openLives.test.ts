import { describe, expect, it } from 'vitest';
import { rng } from '../../../../tests/helpers/random';
import { EntityBuffer } from '../../read/buffers';
import { OpenLives } from '../OpenLives';
import type { Recorder } from '../Recorder';
import { quiet } from './helpers';

/**
 * What the hash of open lives (issue 17) can get wrong: entries matched to lives by id whatever
 * their order, ids reused within a frame, duplicates, the hash growing, shrinking and removing
 * lives, and ids anywhere in the id space. Each case runs on the WebAssembly kernel and on the
 * JavaScript path.
 */
function lives(r: Recorder, f: number): string[] {
  const e = new EntityBuffer();
  r.reader.readEntities(f, e);
  return Array.from(e.handles.subarray(0, e.count)).map((h) => `${r.entities.ids[h]}@${r.entities.spawnFrames[h]}`);
}

function frame(r: Recorder, f: number, ops: Array<number | `-${number}`>): void {
  r.beginFrame(f, 1 / 60);
  for (const op of ops) {
    if (typeof op === 'string') r.despawn(Number(op.slice(1)));
    else r.entity(op, op, f, 0, 0, 0, 0, 1);
  }
  r.endFrame();
}

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

describe('OpenLives', () => {
  it('agrees with a Map through random inserts and removals, ids over [0, 2^31), never over half full', () => {
    const random = rng(2026);
    const reserved = 1024;
    const lives = new OpenLives(new Int32Array(2 * reserved), reserved);
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
