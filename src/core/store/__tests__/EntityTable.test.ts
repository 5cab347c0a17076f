import { describe, expect, it } from 'vitest';
import { DeathQueue } from '../../record/DeathQueue';
import { EntityTable, OPEN_LIFE } from '../EntityTable';

/** A small deterministic generator (xorshift32), in [0, 1). */
function rng(seed: number): () => number {
  let s = seed | 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

/**
 * A game's lives over a ring of `ringFrames` frames, as the recorder keeps them: `population` ids
 * alive, `churn` of them replaced every frame (each a new life; an id comes back a while after its
 * life ended), each death released once its last frame is evicted. Calls `check` after every frame
 * with the handles born in it, the alive ones, and the most handles in use during the frame.
 */
function churnOverFullRing(
  table: EntityTable,
  o: { population: number; churn: number; ringFrames: number; frames: number; seed: number },
  check: (frame: number, born: number[], alive: Int32Array, peak: number) => void,
): void {
  const deaths = new DeathQueue(16);
  const next = rng(o.seed);
  const aliveIds = new Int32Array(o.population);
  const alive = new Int32Array(o.population);
  // Ids of ended lives, oldest first: one comes back once more than `population` wait.
  const freedIds: number[] = [];
  let nextId = 0;
  for (let i = 0; i < o.population; i++) {
    aliveIds[i] = nextId++;
    alive[i] = table.allocate(aliveIds[i], 0);
  }
  for (let frame = 1; frame < o.frames; frame++) {
    const born: number[] = [];
    for (let k = 0; k < o.churn; k++) {
      const i = Math.floor(next() * o.population);
      table.end(alive[i]);
      deaths.push(alive[i], frame - 1);
      freedIds.push(aliveIds[i]);
      aliveIds[i] = freedIds.length > o.population ? (freedIds.shift() as number) : nextId++;
      alive[i] = table.allocate(aliveIds[i], frame);
      born.push(alive[i]);
    }
    for (let i = 0; i < o.population; i++) table.setLastFrame(alive[i], frame, false);
    const peak = table.liveCount;
    if (frame >= o.ringFrames) deaths.releaseThrough(frame - o.ringFrames, table);
    check(frame, born, alive, peak);
  }
}

describe('EntityTable', () => {
  it('gives a reused id a new life, and maps an id to its newest life only while that handle holds it', () => {
    const t = new EntityTable(16, 1 << 20);
    const a = t.allocate(7, 0);
    t.end(a);
    const b = t.allocate(7, 3); // the id comes back: a new life, the old one still held
    expect(b).not.toBe(a);
    expect(t.lookup(7)).toBe(b);
    expect([t.ids[a], t.spawnFrames[a], t.ids[b], t.spawnFrames[b]]).toEqual([7, 0, 7, 3]);
    t.release(a); // the older life's frames are evicted: the id still names the newer one
    expect(t.lookup(7)).toBe(b);
    t.release(b);
    expect(t.lookup(7)).toBe(-1);
    // The freed handles go to other ids: the map's old entry for 7 must not name them.
    const c = t.allocate(9, 5);
    const d = t.allocate(11, 5);
    expect([c, d].sort()).toEqual([a, b].sort());
    expect(t.lookup(7)).toBe(-1);
    expect(t.lookup(9)).toBe(c);
    expect(t.lookup(11)).toBe(d);
    // And a handle that comes back to the same id is that id's again.
    t.release(c);
    expect(t.lookup(9)).toBe(-1);
    const e = t.allocate(9, 6);
    expect(t.lookup(9)).toBe(e);
    expect(t.liveCount).toBe(2);
  });

  it('clears a recycled handle: no label, no kind, the new id and spawn frame', () => {
    const t = new EntityTable(16, 1 << 20);
    const a = t.allocate(3, 0);
    t.kindOf[a] = t.internKind('goblin');
    t.labels[a] = 'Gob';
    t.end(a);
    t.release(a);
    const b = t.allocate(4, 9);
    expect(b).toBe(a);
    expect([t.ids[b], t.spawnFrames[b], t.kindOf[b], t.labels[b], t.isEnded(b), t.lastFrame(b)]).toEqual([
      4,
      9,
      -1,
      undefined,
      false,
      9,
    ]);
    expect(t.lookup(3)).toBe(-1);
  });

  it('moves the last frame of every open life at once, and fixes the last frame of one life when it ends or dies', () => {
    const t = new EntityTable(16, 1 << 20);
    t.seenOpenLives(4);
    const a = t.allocate(1, 4, true);
    const b = t.allocate(2, 4, true);
    const c = t.allocate(3, 4); // not open: its last frame is its spawn frame until set
    expect([t.lastSeen[a], t.lastFrame(a), t.lastFrame(c)]).toEqual([OPEN_LIFE, 4, 4]);
    t.seenOpenLives(9); // both open lives were recorded in every frame up to 9: no per-life write
    expect([t.lastFrame(a), t.lastFrame(b), t.lastFrame(c), t.isEnded(a)]).toEqual([9, 9, 4, false]);
    t.end(a); // despawned while open: ends at the newest frame, and stays there
    t.setLastFrame(b, 9, false); // died by absence after frame 9
    t.seenOpenLives(12);
    expect([t.lastFrame(a), t.isEnded(a), t.lastFrame(b), t.isEnded(b)]).toEqual([9, true, 9, false]);
    t.clear();
    expect(t.openFrame).toBe(-1);
  });

  it('releases a run of a ring of handles in one batch: each once, across the wrap, the rest untouched', () => {
    for (const sparse of [false, true]) {
      const t = new EntityTable(16, 1 << 20, undefined, sparse);
      const h = Array.from({ length: 10 }, (_, k) => t.allocate(100 + k, 0));
      t.release(h[5]); // already free: not counted again
      // A ring of 8 slots, the run starting at slot 6: slots 6, 7, 0, 1, 2 (handle 3 twice).
      const ring = new Int32Array([h[1], h[3], h[3], h[8], h[9], h[7], h[0], h[5]]);
      t.releaseAll(ring, 6, 5, 7);
      const used = h.map((x) => t.used[x]);
      expect(used).toEqual([0, 0, 1, 0, 1, 0, 1, 1, 1, 1]);
      expect(t.liveCount).toBe(6);
      expect([t.lookup(100), t.lookup(103), t.lookup(102)]).toEqual([-1, -1, h[2]]);
      // The freed handles go to new lives, whose ids map to them.
      const again = [t.allocate(7, 1), t.allocate(8, 1), t.allocate(9, 1), t.allocate(10, 1)];
      expect([...again].sort((x, y) => x - y)).toEqual([h[0], h[1], h[3], h[5]].sort((x, y) => x - y));
      expect(again.map((x, k) => t.lookup(7 + k) === x)).toEqual([true, true, true, true]);
      expect(t.liveCount).toBe(10);
    }
  });

  it('drops a released label when its handle gets a new life, and every label on clear', () => {
    const t = new EntityTable(16, 1 << 20);
    const a = t.allocate(1, 0);
    const b = t.allocate(2, 0);
    t.labels[a] = 'kept while held';
    t.labels[b] = 'Bolt';
    const ring = new Int32Array([b, 0]);
    t.releaseAll(ring, 0, 1, 1);
    expect(t.used[b]).toBe(0);
    const c = t.allocate(3, 5);
    expect(c).toBe(b);
    expect([t.labels[a], t.labels[c]]).toEqual(['kept while held', undefined]);
    t.clear();
    expect(t.labels.length).toBe(0);
    expect(t.allocate(4, 6)).toBe(0);
    expect(t.labels[0]).toBeUndefined();
  });

  it('interns kinds to stable indices, however they alternate', () => {
    const t = new EntityTable(16, 100);
    const names = ['a', 'b', 'a', 'a', 'c', 'b', 'c', 'a'];
    expect(names.map((k) => t.internKind(k))).toEqual([0, 1, 0, 0, 2, 1, 2, 0]);
    expect(t.kinds).toEqual(['a', 'b', 'c']);
  });

  it('keeps lives right while many churn over a full ring: ids, spawn frames, the id map', () => {
    const t = new EntityTable(16, 1 << 20);
    const wrong: string[] = [];
    churnOverFullRing(t, { population: 300, churn: 40, ringFrames: 30, frames: 400, seed: 5 }, (frame, born, alive) => {
      for (const h of born) if (t.spawnFrames[h] !== frame) wrong.push(`frame ${frame}: handle ${h} spawn frame`);
      for (let i = 0; i < alive.length; i++) {
        const h = alive[i];
        if (t.used[h] !== 1 || t.lookup(t.ids[h]) !== h) wrong.push(`frame ${frame}: handle ${h} of id ${t.ids[h]}`);
      }
      // Every handle in use is a life the ring still holds: alive, or dead within the last 30 frames.
      if (t.liveCount > 300 + 40 * 31) wrong.push(`frame ${frame}: ${t.liveCount} handles in use`);
    });
    expect(wrong.slice(0, 5)).toEqual([]);
    expect(t.highWater).toBeGreaterThan(1000);
  });

  it('issues the handles of lives that begin together close together, even after thousands of frames of churn', () => {
    // A free list hands back the handles that eviction freed last: after a few rounds of the ring
    // they are spread over the whole table, and so are the lives of one frame (a cache miss per
    // life wherever a column is read by handle). Sweeping keeps one frame's new lives together.
    const t = new EntityTable(16, 1 << 20);
    let worst = 0;
    churnOverFullRing(t, { population: 2000, churn: 200, ringFrames: 60, frames: 1500, seed: 11 }, (frame, born) => {
      if (frame < 600) return;
      // The handles' spread: the span of the sorted handles less the largest gap between two of
      // them (one frame's may straddle the wrap to 0).
      const sorted = [...born].sort((a, b) => a - b);
      let gap = t.highWater - sorted[sorted.length - 1] + sorted[0];
      for (let k = 1; k < sorted.length; k++) gap = Math.max(gap, sorted[k] - sorted[k - 1]);
      worst = Math.max(worst, t.highWater - gap);
    });
    // At most one handle in 8 is free in a sweep, so 200 lives span about 1,600 handles.
    expect(t.highWater).toBeGreaterThan(12_000);
    expect(worst).toBeLessThan(4000);
  });

  it('holds at most 8/7 handles per life in use while lives churn', () => {
    const t = new EntityTable(16, 1 << 20);
    let most = 0;
    churnOverFullRing(t, { population: 1000, churn: 100, ringFrames: 50, frames: 1200, seed: 3 }, (...args) => {
      most = Math.max(most, args[3]);
      expect(t.highWater).toBeLessThanOrEqual(Math.ceil((most * 8) / 7) + 1);
    });
  });
});
