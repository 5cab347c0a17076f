import { SnapshotInterpolation, Vault } from '@geckos.io/snapshot-interpolation';
import { describe, expect, it, vi } from 'vitest';
import type { BenchContext } from '../lib/BenchSection';
import { quatAngleDeg } from '../lib/quatError';
import { referenceSlerp, verifySample, type SampleRules } from '../lib/referenceSample';
import { SampleRows } from '../lib/SampleRows';
import { slerpTextbook } from '../lib/slerpTextbook';
import { DecodedFrame } from '../peers/DecodedFrame';
import {
  CASE_PLAYING,
  CASE_REBLEND,
  CASE_SEEK,
  SAMPLE_PEERS,
  SEEK_CASES,
  casePositions,
  runSamplePeer,
  sampleTable,
  seekTable,
  selectSamplePeers,
  workloadFrames,
} from '../sections/sample';
import { speedProbeMs } from '../lib/speedProbe';
import { SeededRandom } from '../SeededRandom';
import { axisAngle, randomQuat } from '../../tests/helpers/rotations';
import { Workload } from '../Workload';

const context: BenchContext = {
  log: () => undefined,
  collectGarbage: () => undefined,
  quick: true,
  peers: [],
  outDir: '',
  probe: () => 1.5,
  settle: async () => 1.5,
};

describe('reference and textbook slerp', () => {
  it('referenceSlerp turns by t·θ about the relative axis, along the shortest path', () => {
    const out = new Float64Array(4);
    const axis = [0.6, 0, 0.8] as const;
    for (const t of [0, 0.25, 0.5, 0.9, 1]) {
      referenceSlerp([0, 0, 0, 1], axisAngle(axis[0], axis[1], axis[2], 1.2), t, out, 0);
      const want = axisAngle(axis[0], axis[1], axis[2], 1.2 * t);
      expect(quatAngleDeg(want[0], want[1], want[2], want[3], out[0], out[1], out[2], out[3])).toBeLessThan(1e-9);
    }
    // b and -b are the same rotation: the path is the short one either way (0.3 rad, not 2π - 0.3).
    const b = axisAngle(1, 0, 0, 0.3);
    referenceSlerp(
      [0, 0, 0, 1],
      b.map((v) => -v),
      0.5,
      out,
      0,
    );
    expect(quatAngleDeg(0, 0, 0, 1, out[0], out[1], out[2], out[3])).toBeCloseTo((0.15 * 180) / Math.PI, 9);
    // From a non-identity start: a · r^t.
    const a = axisAngle(0, 1, 0, 2);
    const c = axisAngle(0, 1, 0, 2.5);
    referenceSlerp(a, c, 0.4, out, 0);
    const want = axisAngle(0, 1, 0, 2.2);
    expect(quatAngleDeg(want[0], want[1], want[2], want[3], out[0], out[1], out[2], out[3])).toBeLessThan(1e-9);
  });

  it('slerpTextbook agrees with the reference on random pairs, far and near', () => {
    const r = new SeededRandom(11);
    const rand = (): number => r.next();
    const got = new Float64Array(4);
    const ref = new Float64Array(4);
    let worstFar = 0;
    let worstNear = 0;
    for (let i = 0; i < 2000; i++) {
      const a = randomQuat(rand);
      // Half the pairs are random (mostly far apart), half a small turn apart (the nlerp branch).
      const b =
        i % 2 === 0
          ? randomQuat(rand)
          : (() => {
              const d = axisAngle(0, 0, 1, r.range(-0.05, 0.05));
              return [
                d[3] * a[0] + d[0] * a[3] + d[1] * a[2] - d[2] * a[1],
                d[3] * a[1] - d[0] * a[2] + d[1] * a[3] + d[2] * a[0],
                d[3] * a[2] + d[0] * a[1] - d[1] * a[0] + d[2] * a[3],
                d[3] * a[3] - d[0] * a[0] - d[1] * a[1] - d[2] * a[2],
              ].map((v) => (r.next() < 0.5 ? -v : v)) as number[];
            })();
      const t = r.next();
      slerpTextbook(a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3], t, got, 0);
      referenceSlerp(a, b, t, ref, 0);
      const deg = quatAngleDeg(ref[0], ref[1], ref[2], ref[3], got[0], got[1], got[2], got[3]);
      if (i % 2 === 0) worstFar = Math.max(worstFar, deg);
      else worstNear = Math.max(worstNear, deg);
      expect(Math.hypot(got[0], got[1], got[2], got[3])).toBeCloseTo(1, 12);
    }
    expect(worstFar).toBeLessThan(1e-8);
    expect(worstNear).toBeLessThan(1e-4);
  });
});

describe('verifySample', () => {
  const world = new Workload({ entities: 40, churnPerFrame: 3, seed: 4 });
  world.step();
  world.step();
  const a = new DecodedFrame();
  a.copyFrom(world);
  world.step();
  const b = new DecodedFrame();
  b.copyFrom(world);
  const rules: SampleRules = { cover: 'newer', nearerFlags: true, positionRelTol: 1e-12, rotationTolDeg: 1e-6 };

  /** Correct rows at `t` over the later frame's entities. */
  function rowsAt(t: number): SampleRows {
    const rows = new SampleRows();
    rows.resize(b.count);
    const inA = new Map<number, number>();
    for (let i = 0; i < a.count; i++) inA.set(a.ids[i], i);
    for (let k = 0; k < b.count; k++) {
      const i = inA.get(b.ids[k]);
      rows.ids[k] = b.ids[k];
      const ax = i === undefined ? b.x[k] : a.x[i],
        ay = i === undefined ? b.y[k] : a.y[i],
        az = i === undefined ? b.z[k] : a.z[i];
      const tt = i === undefined ? 0 : t;
      rows.positions[k * 3] = ax + (b.x[k] - ax) * tt;
      rows.positions[k * 3 + 1] = ay + (b.y[k] - ay) * tt;
      rows.positions[k * 3 + 2] = az + (b.z[k] - az) * tt;
      const qa = i === undefined ? [b.qx[k], b.qy[k], b.qz[k], b.qw[k]] : [a.qx[i], a.qy[i], a.qz[i], a.qw[i]];
      referenceSlerp(qa, [b.qx[k], b.qy[k], b.qz[k], b.qw[k]], tt, rows.rotations, k * 4);
      rows.flags[k] = i !== undefined && t < 0.5 ? a.flags[i] : b.flags[k];
    }
    return rows;
  }

  it('accepts a correct sample and counts the blended rows', () => {
    const check = verifySample('ok', a, b, 0.3, rowsAt(0.3), rules);
    expect(check.rows).toBe(b.count);
    expect(check.blended).toBe(b.count - 3); // 3 spawned between the frames
    expect(check.maxRotationDeg).toBeLessThan(1e-6);
  });

  it('refuses a wrong blend factor, wrong flags, a missing or repeated row, a foreign id', () => {
    expect(() => verifySample('t', a, b, 0.7, rowsAt(0.3), rules)).toThrow(/position/);
    const flags = rowsAt(0.3);
    const changed = Array.from({ length: b.count }, (_, k) => k).find((k) => {
      const i = Array.from(a.ids.subarray(0, a.count)).indexOf(b.ids[k]);
      return i >= 0 && a.flags[i] !== b.flags[k];
    });
    if (changed !== undefined) {
      flags.flags[changed] = b.flags[changed];
      expect(() => verifySample('flags', a, b, 0.3, flags, rules)).toThrow(/flags/);
      expect(() => verifySample('flags', a, b, 0.3, flags, { ...rules, nearerFlags: false })).not.toThrow();
    }
    const missing = rowsAt(0.3);
    missing.count--;
    expect(() => verifySample('missing', a, b, 0.3, missing, rules)).toThrow(/rows/);
    const twice = rowsAt(0.3);
    twice.ids[1] = twice.ids[0];
    expect(() => verifySample('twice', a, b, 0.3, twice, rules)).toThrow(/twice/);
    const foreign = rowsAt(0.3);
    foreign.ids[0] = 10_000_000;
    expect(() => verifySample('foreign', a, b, 0.3, foreign, rules)).toThrow(/not in/);
    // A union is expected to hold the despawned entities too.
    expect(() => verifySample('union', a, b, 0.3, rowsAt(0.3), { ...rules, cover: 'union' })).toThrow(/rows/);
  });

  it('refuses a rotation taken the long way round', () => {
    const rows = rowsAt(0.5);
    const inA = new Map<number, number>();
    for (let i = 0; i < a.count; i++) inA.set(a.ids[i], i);
    const k = Array.from({ length: b.count }, (_, j) => j).find((j) => {
      const i = inA.get(b.ids[j]);
      return i !== undefined && world.asleep[j] === 0;
    });
    if (k === undefined) throw new Error('no moving entity');
    const i = inA.get(b.ids[k]) as number;
    // Long path: slerp towards whichever of b and -b is in the other hemisphere from a.
    const q0 = [a.qx[i], a.qy[i], a.qz[i], a.qw[i]];
    const sign = a.qx[i] * b.qx[k] + a.qy[i] * b.qy[k] + a.qz[i] * b.qz[k] + a.qw[i] * b.qw[k] > 0 ? -1 : 1;
    const q1 = [sign * b.qx[k], sign * b.qy[k], sign * b.qz[k], sign * b.qw[k]];
    const cos = q0[0] * q1[0] + q0[1] * q1[1] + q0[2] * q1[2] + q0[3] * q1[3];
    const th = Math.acos(Math.max(-1, Math.min(1, cos)));
    const s0 = Math.sin(0.5 * th) / Math.sin(th);
    for (let c = 0; c < 4; c++) rows.rotations[k * 4 + c] = s0 * q0[c] + s0 * q1[c];
    expect(() => verifySample('long', a, b, 0.5, rows, rules)).toThrow(/rotation/);
  });
});

describe('casePositions', () => {
  it('stays within the frames held, never on an integer, and moves as each case says', () => {
    const oldest = 30;
    const newest = 929;
    for (const c of [CASE_REBLEND, CASE_PLAYING, CASE_SEEK, ...SEEK_CASES]) {
      const p = casePositions(c, oldest, newest, 5000, 3);
      expect(p.every((v) => v > oldest && v < newest && !Number.isInteger(v))).toBe(true);
      if (c === CASE_REBLEND) expect(new Set(Array.from(p, Math.floor)).size).toBe(1);
      if (c === CASE_PLAYING) {
        expect(Array.from(p.subarray(0, 5))).toEqual([30.125, 30.375, 30.625, 30.875, 31.125]);
        // Wraps to the oldest pair after the newest: 899 pairs × 4 samples.
        expect(p[899 * 4]).toBe(30.125);
      }
      if (c.name.startsWith('seek ')) {
        const d = Number(c.name.slice(5));
        const steps = new Set(Array.from(p.subarray(1), (v, k) => Math.abs(Math.floor(v) - Math.floor(p[k]))));
        expect([...steps]).toEqual([d]);
      }
      if (c === CASE_SEEK) expect(new Set(Array.from(p, Math.floor)).size).toBeGreaterThan(800);
    }
    expect(() => casePositions(SEEK_CASES[3], 0, 100, 10, 1)).toThrow(RangeError);
  });
});

describe('sample peers', () => {
  it("selects peers by their name or their record peer's, rewindable always first", () => {
    expect(selectSamplePeers([]).map((p) => p.name)).toEqual(SAMPLE_PEERS.map((p) => p.name));
    expect(selectSamplePeers(['none']).map((p) => p.name)).toEqual(['rewindable']);
    expect(selectSamplePeers(['JSON.stringify', 'geckos vault']).map((p) => p.name)).toEqual([
      'rewindable',
      'JSON',
      'geckos interpolate',
    ]);
    expect(selectSamplePeers(['bitecs SoA']).map((p) => p.name)).toEqual(['rewindable']);
    expect(() => selectSamplePeers(['protobuf'])).toThrow(/unknown peer/);
  });

  for (const factory of SAMPLE_PEERS) {
    it(`${factory.name}: interpolates every sample like the reference, in sequence and after seeks`, () => {
      const frames = 16;
      const entities = 48;
      const seed = 21;
      const options = { entities, churnPerFrame: 3, seed };
      const world = new Workload(options);
      const peer = factory.create(frames, entities);
      for (let f = 0; f < 25; f++) {
        world.step();
        peer.record(world);
      }
      expect(peer.oldestFrame).toBe(9);
      expect(peer.newestFrame).toBe(24);
      // Playing forward, re-blending, seeking back and forth, and the very last pair.
      const positions = [9.5, 9.75, 10.25, 10.5, 10.1, 10.9, 10.3, 20.6, 12.2, 13.2, 12.8, 23.99, 23.01];
      const inputs = workloadFrames(new Set(positions.flatMap((p) => [Math.floor(p), Math.floor(p) + 1])), options);
      const rows = new SampleRows();
      let blended = 0;
      for (const p of positions) {
        peer.sample(p);
        peer.read(rows);
        const f = Math.floor(p);
        const check = verifySample(
          peer.name,
          inputs.get(f) as DecodedFrame,
          inputs.get(f + 1) as DecodedFrame,
          p - f,
          rows,
          peer.rules,
        );
        blended += check.blended;
        expect(check.maxRotationDeg).toBeLessThanOrEqual(peer.rules.rotationTolDeg);
      }
      expect(blended).toBeGreaterThan(positions.length * (entities - 6));
      if (Number.isFinite(peer.decodes)) {
        // 9.5 → 9.75: no decode; 10.25: one; 10.5/10.1/10.9/10.3: none; 20.6: two; 12.2: two; 13.2: one; 12.8: none...
        expect(peer.decodes).toBeLessThanOrEqual(2 + 1 + 2 + 2 + 1 + 2 + 1);
      }
      peer.dispose();
    });
  }

  it('geckos 1.1.1: vault.get(time, true) returns the farther snapshot (the bug the docs mention)', () => {
    const vault = new Vault();
    for (let f = 0; f < 3; f++) vault.add({ id: `s${f}`, time: f * 100, state: [] });
    // 110 ms is nearest to the snapshot at 100 ms, yet "closest" gives the one at 200 ms.
    expect(vault.get(110, true)?.time).toBe(200);
    expect(vault.get(110)?.older.time).toBe(100);
    expect(vault.get(110)?.newer.time).toBe(200);
    // interpolate() matches entities by id and takes a percentage for t <= 1.
    const si = new SnapshotInterpolation();
    const older = {
      id: 'a',
      time: 0,
      state: [
        { id: 'x', p: 0 },
        { id: 'y', p: 10 },
      ],
    };
    const newer = {
      id: 'b',
      time: 100,
      state: [
        { id: 'y', p: 20 },
        { id: 'x', p: 4 },
      ],
    };
    const r = si.interpolate(older, newer, 0.25, 'p');
    expect(r.state).toEqual([
      { id: 'y', p: 12.5 },
      { id: 'x', p: 1 },
    ]);
  });
});

describe('runSamplePeer and the tables', () => {
  it('times every case, checks the samples, and formats the results', async () => {
    const budget = { budgetMs: 2, minGroups: 3, maxGroups: 6, warmupMs: 1 };
    const cases = [CASE_REBLEND, CASE_PLAYING, CASE_SEEK, SEEK_CASES[0], SEEK_CASES[1]];
    const subject = await runSamplePeer(SAMPLE_PEERS[0], 60, cases, budget, context, 24);
    const json = await runSamplePeer(SAMPLE_PEERS[1], 60, cases, budget, context, 24);
    expect(subject.cases.map((c) => c.case)).toEqual(['re-blend', 'playing', 'seek', 'seek 1', 'seek 10']);
    expect(json.cases.map((c) => c.case)).toEqual(['re-blend', 'playing', 'seek']);
    for (const c of [...subject.cases, ...json.cases]) {
      expect(c.checks).toHaveLength(3);
      expect(c.medianNs).toBeGreaterThan(0);
      expect(c.p90Ns).toBeGreaterThanOrEqual(c.medianNs);
      expect(c.samples % (c.case === 'playing' ? 4 : 1)).toBe(0);
    }
    const playing = subject.cases[1];
    // One frame crossed per group of four samples (plus the wrap back to the oldest pair).
    expect(playing.decodesPerSample).toBeGreaterThanOrEqual(0.25);
    expect(playing.decodesPerSample).toBeLessThan(0.3);
    expect(subject.cases[0].decodesPerSample).toBe(0);
    // Random seeks in 24 frames: blended from the ring's words, nothing decoded, except when
    // consecutive picks share a frame (one decoded) or the whole pair (two).
    expect(subject.cases[2].decodesPerSample).toBeLessThan(1);
    expect(subject.cases.every((c) => c.probeMs === 1.5)).toBe(true);
    const lines = sampleTable([subject, json]);
    expect(lines).toHaveLength(4);
    expect(lines[2]).toMatch(/^rewindable .* 1\.00×/);
    expect(seekTable([subject])[2]).toMatch(/^60 /);
  });
});

describe('speedProbeMs', () => {
  it('times a fixed amount of work: positive and finite', () => {
    const a = speedProbeMs();
    expect(Number.isFinite(a) && a > 0).toBe(true);
  });

  it('reports the median of its three timings (a clock that is not wall time)', () => {
    // Each timing reads the clock twice; these three take 5, 1 and 3 ms: the median is 3.
    const ticks = [100, 105, 200, 201, 300, 303];
    const spy = vi.spyOn(performance, 'now').mockImplementation(() => ticks.shift() ?? 0);
    try {
      expect(speedProbeMs()).toBe(3);
    } finally {
      spy.mockRestore();
    }
  });
});
