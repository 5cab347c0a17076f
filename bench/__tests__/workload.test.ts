import { describe, expect, it } from 'vitest';
import { SeededRandom } from '../SeededRandom';
import { Workload } from '../Workload';
import { heavyChurn, RECORD_WORKLOADS, SPARSE_ID_SPACE, selectWorkloads } from '../sections/record';

/** The live ids of the current frame, as a set. */
function idSet(w: Workload): Set<number> {
  return new Set(Array.from(w.ids.subarray(0, w.count)));
}

/** Everything observable about the current frame, for equality checks. */
function snapshot(w: Workload): unknown {
  const n = w.count;
  return {
    frame: w.frame,
    time: w.time,
    ids: Array.from(w.ids.subarray(0, n)),
    x: Array.from(w.x.subarray(0, n)),
    y: Array.from(w.y.subarray(0, n)),
    z: Array.from(w.z.subarray(0, n)),
    q: [w.qx, w.qy, w.qz, w.qw].map((a) => Array.from(a.subarray(0, n))),
    flags: Array.from(w.flags.subarray(0, n)),
    asleep: Array.from(w.asleep.subarray(0, n)),
    spawned: Array.from(w.spawned.subarray(0, w.spawnedCount)),
    despawned: Array.from(w.despawned.subarray(0, w.despawnedCount)),
  };
}

/** Per-id state of the current frame: position, rotation, asleep. */
function byId(w: Workload): Map<number, { p: number[]; q: number[]; asleep: number }> {
  const m = new Map<number, { p: number[]; q: number[]; asleep: number }>();
  for (let i = 0; i < w.count; i++) {
    m.set(w.ids[i], { p: [w.x[i], w.y[i], w.z[i]], q: [w.qx[i], w.qy[i], w.qz[i], w.qw[i]], asleep: w.asleep[i] });
  }
  return m;
}

describe('SeededRandom', () => {
  it('repeats its sequence for a seed, differs across seeds, and stays in range', () => {
    const a = new SeededRandom(7);
    const b = new SeededRandom(7);
    const c = new SeededRandom(8);
    const sa = Array.from({ length: 1000 }, () => a.next());
    const sb = Array.from({ length: 1000 }, () => b.next());
    const sc = Array.from({ length: 1000 }, () => c.next());
    expect(sa).toEqual(sb);
    expect(sa).not.toEqual(sc);
    for (const v of sa) {
      expect(v).toBeGreaterThanOrEqual(0);
      expect(v).toBeLessThan(1);
    }
    // Roughly uniform: each tenth of [0, 1) gets 5-15% of the draws.
    const bins = new Array<number>(10).fill(0);
    for (const v of sa) bins[Math.floor(v * 10)]++;
    for (const count of bins) expect(count).toBeGreaterThan(50);
    for (const count of bins) expect(count).toBeLessThan(150);
  });

  it('handles the zero seed', () => {
    const r = new SeededRandom(0);
    const values = new Set(Array.from({ length: 100 }, () => r.nextUint32()));
    expect(values.size).toBeGreaterThan(95);
  });
});

describe('Workload', () => {
  it('is deterministic from its seed', () => {
    const a = new Workload({ entities: 300, seed: 42 });
    const b = new Workload({ entities: 300, seed: 42 });
    const c = new Workload({ entities: 300, seed: 43 });
    for (let f = 0; f < 60; f++) {
      a.step();
      b.step();
      c.step();
      expect(snapshot(a)).toEqual(snapshot(b));
    }
    expect(snapshot(a)).not.toEqual(snapshot(c));
  });

  it('spawns the whole population on the first step, then churns a few entities per frame', () => {
    const w = new Workload({ entities: 500, churnPerFrame: 4, seed: 3 });
    expect(w.count).toBe(0);
    w.step();
    expect(w.frame).toBe(0);
    expect(w.count).toBe(500);
    expect(w.spawnedCount).toBe(500);
    expect(w.despawnedCount).toBe(0);
    let prev = idSet(w);
    for (let f = 1; f < 200; f++) {
      w.step();
      expect(w.count).toBe(500);
      expect(w.spawnedCount).toBe(4);
      expect(w.despawnedCount).toBe(4);
      const now = idSet(w);
      expect(now.size).toBe(500);
      for (const id of w.despawned.subarray(0, w.despawnedCount)) {
        expect(prev.has(id)).toBe(true);
        expect(now.has(id)).toBe(false);
      }
      for (const id of w.spawned.subarray(0, w.spawnedCount)) {
        expect(prev.has(id)).toBe(false);
        expect(now.has(id)).toBe(true);
      }
      // Nothing else changes membership.
      let kept = 0;
      for (const id of now) if (prev.has(id)) kept++;
      expect(kept).toBe(496);
      prev = now;
    }
    expect(w.time).toBeCloseTo(199 * w.dt, 12);
  });

  it('reuses a despawned id for a new entity once the free ids come round', () => {
    const w = new Workload({ entities: 20, churnPerFrame: 4, idSpace: 40, seed: 9 });
    const everDespawned = new Set<number>();
    let reused = 0;
    for (let f = 0; f < 100; f++) {
      w.step();
      for (const id of w.spawned.subarray(0, w.spawnedCount)) if (everDespawned.has(id)) reused++;
      for (const id of w.despawned.subarray(0, w.despawnedCount)) everDespawned.add(id);
    }
    expect(reused).toBeGreaterThan(50);
  });

  it('keeps ids distinct, in range, unsorted and not contiguous', () => {
    const w = new Workload({ entities: 1000, seed: 5 });
    for (let f = 0; f < 100; f++) {
      w.step();
      const ids = Array.from(w.ids.subarray(0, w.count));
      expect(new Set(ids).size).toBe(ids.length);
      expect(Math.min(...ids)).toBeGreaterThanOrEqual(0);
      expect(Math.max(...ids)).toBeLessThan(w.idSpace);
      let descents = 0;
      for (let i = 1; i < ids.length; i++) if (ids[i] < ids[i - 1]) descents++;
      expect(descents).toBeGreaterThan(ids.length / 4);
      expect(Math.max(...ids) - Math.min(...ids) + 1).toBeGreaterThan(2 * ids.length);
    }
  });

  it('has about 30% of its entities asleep, and asleep entities never move', () => {
    const w = new Workload({ entities: 4000, seed: 11 });
    w.step();
    const fractions: number[] = [];
    let prev = byId(w);
    let sleeperMoved = 0;
    let sleeperSeen = 0;
    let awakeStill = 0;
    let stateFlipped = 0;
    for (let f = 1; f < 150; f++) {
      w.step();
      const now = byId(w);
      let asleep = 0;
      for (const [id, s] of now) {
        asleep += s.asleep;
        const before = prev.get(id);
        if (before === undefined) continue;
        if (s.asleep !== before.asleep) stateFlipped++;
        const moved = s.p.some((v, k) => v !== before.p[k]) || s.q.some((v, k) => v !== before.q[k]);
        if (s.asleep === 1) {
          sleeperSeen++;
          if (moved) sleeperMoved++;
        } else if (!moved) {
          awakeStill++;
        }
      }
      fractions.push(asleep / w.count);
      prev = now;
    }
    expect(stateFlipped).toBe(0);
    expect(sleeperSeen).toBeGreaterThan(0.25 * 4000 * 149);
    expect(sleeperMoved).toBe(0);
    expect(awakeStill).toBe(0);
    expect(Math.min(...fractions)).toBeGreaterThan(0.26);
    expect(Math.max(...fractions)).toBeLessThan(0.34);
    const none = new Workload({ entities: 2000, sleepingFraction: 0, seed: 1 });
    none.step();
    expect(Array.from(none.asleep.subarray(0, none.count)).every((a) => a === 0)).toBe(true);
  });

  it('moves and rotates smoothly: bounded steps, unit quaternions, positions inside the bounds', () => {
    const w = new Workload({ entities: 2000, seed: 21 });
    w.step();
    const h = w.options.halfExtent;
    // float32 positions near the bounds are exact to about 2.5e-4.
    const eps = 1e-3;
    const maxStepXY = w.options.maxSpeed * w.dt + eps;
    const maxStepZ = 0.1 * w.options.maxSpeed * w.dt + eps;
    const maxTurnDeg = (w.options.maxAngularSpeed * w.dt * 180) / Math.PI + 0.05;
    let prev = byId(w);
    let rotated = 0;
    let outside = 0;
    let notUnit = 0;
    let jumps = 0;
    let fastTurns = 0;
    for (let f = 1; f < 120; f++) {
      w.step();
      const now = byId(w);
      for (const [id, s] of now) {
        const [x, y, z] = s.p;
        if (Math.abs(x) > h || Math.abs(y) > h || Math.abs(z) > h * 0.1 + eps) outside++;
        if (Math.abs(Math.hypot(...s.q) - 1) > 1e-5) notUnit++;
        const before = prev.get(id);
        if (before === undefined) continue;
        if (Math.hypot(x - before.p[0], y - before.p[1]) > maxStepXY || Math.abs(z - before.p[2]) > maxStepZ) jumps++;
        const dot = Math.abs(s.q.reduce((acc, v, k) => acc + v * before.q[k], 0));
        const turnDeg = (2 * Math.acos(Math.min(1, dot)) * 180) / Math.PI;
        if (turnDeg > maxTurnDeg) fastTurns++;
        if (turnDeg > 0.01) rotated++;
      }
      prev = now;
    }
    expect(outside).toBe(0);
    expect(notUnit).toBe(0);
    expect(jumps).toBe(0);
    expect(fastTurns).toBe(0);
    // Awake entities (about 70% of 2000) really rotate, every frame.
    expect(rotated).toBeGreaterThan(0.6 * 2000 * 119);
  });

  it('covers every largest-component case of smallest-three (all four axes dominate sometimes)', () => {
    const w = new Workload({ entities: 2000, seed: 4 });
    w.step();
    const seen = [0, 0, 0, 0];
    for (let i = 0; i < w.count; i++) {
      const a = [w.qx[i], w.qy[i], w.qz[i], w.qw[i]].map(Math.abs);
      seen[a.indexOf(Math.max(...a))]++;
    }
    for (const s of seen) expect(s).toBeGreaterThan(300);
  });

  it('rejects invalid options with a RangeError', () => {
    expect(() => new Workload({ entities: 0 })).toThrow(RangeError);
    expect(() => new Workload({ entities: 10.5 })).toThrow(RangeError);
    expect(() => new Workload({ entities: 10, churnPerFrame: 11 })).toThrow(RangeError);
    expect(() => new Workload({ sleepingFraction: 1.5 })).toThrow(RangeError);
    expect(() => new Workload({ entities: 10, churnPerFrame: 2, idSpace: 12 })).toThrow(RangeError);
    expect(() => new Workload({ order: 'random' as 'slots' })).toThrow(RangeError);
    expect(() => new Workload({ entities: 2 ** 17, order: 'sortY', idSpace: 2 ** 20 })).toThrow(RangeError);
  });

  it("order 'sortY': every frame sorted by y, each entity carrying its own state along", () => {
    const w = new Workload({ entities: 200, churnPerFrame: 6, order: 'sortY', seed: 11 });
    let before = new Map<number, { p: number[]; q: number[]; asleep: number }>();
    let moved = 0;
    let prevOrder: number[] = [];
    let unsorted = 0;
    let jumps = 0;
    for (let f = 0; f < 60; f++) {
      w.step();
      expect(w.count).toBe(200);
      for (let i = 1; i < w.count; i++) if (w.y[i] < w.y[i - 1]) unsorted++;
      const now = byId(w);
      expect(now.size).toBe(200);
      // An entity present in both frames moved by at most one step of its speed (its state moved with it).
      const step = w.options.maxSpeed * w.dt * 1.001;
      for (const [id, s] of now) {
        const b = before.get(id);
        if (b === undefined) continue;
        if (Math.abs(s.p[0] - b.p[0]) > step || Math.abs(s.p[1] - b.p[1]) > step) jumps++;
        if (b.asleep === 1 && (s.p[0] !== b.p[0] || s.p[1] !== b.p[1] || s.p[2] !== b.p[2])) jumps++;
      }
      // The order changes beyond the churned slots: entities overtake each other.
      const order = Array.from(w.ids.subarray(0, w.count));
      if (f > 0) {
        const gone = new Set(Array.from(w.despawned.subarray(0, w.despawnedCount)));
        const kept = prevOrder.filter((id) => !gone.has(id));
        const keptNow = order.filter((id) => before.has(id));
        for (let i = 0; i < kept.length; i++) if (kept[i] !== keptNow[i]) moved++;
      }
      prevOrder = order;
      before = now;
    }
    expect(unsorted).toBe(0);
    expect(jumps).toBe(0);
    expect(moved).toBeGreaterThan(300);
  });

  it('sorts deterministically: same seed, same frames; slots order differs from the sorted one', () => {
    const a = new Workload({ entities: 300, churnPerFrame: 9, order: 'sortY', idSpace: 1_000_000, seed: 5 });
    const b = new Workload({ entities: 300, churnPerFrame: 9, order: 'sortY', idSpace: 1_000_000, seed: 5 });
    const c = new Workload({ entities: 300, churnPerFrame: 9, idSpace: 1_000_000, seed: 5 });
    for (let f = 0; f < 30; f++) {
      a.step();
      b.step();
      c.step();
      expect(snapshot(a)).toEqual(snapshot(b));
    }
    expect(Array.from(a.ids.subarray(0, a.count))).not.toEqual(Array.from(c.ids.subarray(0, c.count)));
  });

  it('spreads ids over the whole id space when asked (sparse ids)', () => {
    const w = new Workload({ entities: 1000, churnPerFrame: 30, idSpace: 1_000_000, seed: 9 });
    w.step();
    const ids = Array.from(w.ids.subarray(0, w.count));
    expect(Math.min(...ids)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...ids)).toBeLessThan(1_000_000);
    // Spread: every tenth of the id space holds some of them.
    const tenths = new Set(ids.map((id) => Math.floor(id / 100_000)));
    expect(tenths.size).toBe(10);
    for (let f = 1; f < 20; f++) {
      w.step();
      expect(w.spawnedCount).toBe(30);
      expect(w.despawnedCount).toBe(30);
    }
  });
});

describe('record workloads', () => {
  it('selects by name and builds each workload', () => {
    expect(selectWorkloads([]).map((w) => w.name)).toEqual(['current', 'churn', 'sorted', 'sparse', 'hostile']);
    expect(selectWorkloads(['HOSTILE', 'churn']).map((w) => w.name)).toEqual(['churn', 'hostile']);
    expect(() => selectWorkloads(['chaos'])).toThrow(/unknown workload "chaos"/);
    const hostile = RECORD_WORKLOADS.find((w) => w.name === 'hostile');
    if (hostile === undefined) throw new Error('no hostile workload');
    const w = new Workload({ ...hostile.options(10000), entities: 10000 });
    expect(w.options.churnPerFrame).toBe(300);
    expect(w.options.order).toBe('sortY');
    expect(w.idSpace).toBe(SPARSE_ID_SPACE);
    expect(heavyChurn(1000)).toBe(30);
  });
});
