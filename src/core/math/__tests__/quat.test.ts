import { describe, expect, it } from 'vitest';
import {
  QUAT_IDENTITY_BITS,
  decodeQuat,
  encodeQuat,
  encodeQuatAt,
  encodeQuatColumns,
  quatIsEncodable,
  quatStatus,
} from '../quat';
import { doubleChoice, float32Decides, floatChoice, specEncode } from '../../kernel/__tests__/specEncoder';
import { rng } from '../../../../tests/helpers/random';
import { near, randomQuat } from '../../../../tests/helpers/rotations';

/** Angle in degrees between two rotations (q and -q are the same rotation). */
function angleDeg(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const na = Math.hypot(a[0], a[1], a[2], a[3]);
  const nb = Math.hypot(b[0], b[1], b[2], b[3]);
  const d = Math.abs(a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]) / (na * nb);
  return (2 * Math.acos(Math.min(1, d)) * 180) / Math.PI;
}

/**
 * The codec's measured worst case is 0.1586°, where all four components are near ±½ or two are near
 * 1/√2 (hill climbs from many starts in those regions and from random rotations find nothing
 * worse); uniform random rotations stay under 0.153° (10M samples). Plain nearest rounding reached
 * 0.274° near (±½, ±½, ±½, ±½). (The earlier rule, which decoded each candidate with a square root,
 * measured 0.1585° the same way.)
 */
const BOUND_DEG = 0.159;
const UNIFORM_BOUND_DEG = 0.154;

/**
 * `RWD_QUAT_SWEEP` scales the sweeps below (1: the full sweeps of `npm test`). The mutation run
 * (vitest.mutation.config.ts) sets a small fraction: every surviving mutant of quat.ts reruns all of
 * them, and a few thousand rotations kill what a few hundred thousand kill. The counts that show a
 * sweep found its cases scale with it.
 */
const SWEEP = Number(process.env.RWD_QUAT_SWEEP ?? 1);
/** `full` scaled by `RWD_QUAT_SWEEP`, at least 1. */
const sweep = (full: number): number => Math.max(1, Math.round(full * SWEEP));

describe('smallest-three quaternion codec', () => {
  const out = new Float32Array(4);
  const err = (q: number[]): number => {
    decodeQuat(encodeQuat(q[0], q[1], q[2], q[3]), out, 0);
    return angleDeg(q, out);
  };

  it('stays within the uniform bound over 100k uniform random rotations', () => {
    const r = rng(1);
    let worst = 0;
    for (let i = 0; i < sweep(100_000); i++) worst = Math.max(worst, err(randomQuat(r)));
    expect(worst).toBeLessThan(UNIFORM_BOUND_DEG);
    expect(worst).toBeGreaterThan(0.13); // it really is lossy: the test measures something
  });

  it('stays within the bound in the worst regions: components near ±½, 1/√2, 1/√3, and ties for largest', () => {
    const r = rng(2);
    const h = Math.SQRT1_2;
    const t = 1 / Math.sqrt(3);
    let worst = 0;
    for (let i = 0; i < sweep(20_000); i++) {
      const s = (): number => (r() < 0.5 ? -1 : 1);
      worst = Math.max(worst, err(near(r, [0.5 * s(), 0.5 * s(), 0.5 * s(), 0.5], 0.02)));
      worst = Math.max(worst, err(near(r, [h, s() * h, 0, 0], 0.01)));
      worst = Math.max(worst, err(near(r, [0, h, 0, s() * h], 0.01)));
      worst = Math.max(worst, err(near(r, [s() * t, t, s() * t, 0], 0.02)));
    }
    expect(worst).toBeLessThan(BOUND_DEG);
    // The full sweep comes within 0.004° of the bound; a reduced one (RWD_QUAT_SWEEP) finds less.
    expect(worst).toBeGreaterThan(SWEEP >= 1 ? 0.155 : 0.145);
  });

  it('reaches its worst case near (½, ½, ½, ½) and stays within it there', () => {
    // Found by hill climbing: a local maximum of the error, 0.15861°.
    const q = [0.500684050505836, 0.5002323668510588, 0.4988492458278025, 0.500232436633901];
    const e = err(q);
    expect(e).toBeGreaterThan(0.1586);
    expect(e).toBeLessThan(BOUND_DEG);
  });

  it('the bound is tight enough to fail: nearest rounding (no error-optimised choice) exceeds it', () => {
    // Nearest rounding's worst case: the largest component, rebuilt from the other three, collects
    // their rounding errors.
    const q = [0.49885, -0.49885, 0.49885, 0.50344];
    decodeQuat(specEncode(q[0], q[1], q[2], q[3], { nearestOnly: true }), out, 0);
    const nearest = angleDeg(q, out);
    expect(nearest).toBeGreaterThan(0.26);
    expect(nearest).toBeGreaterThan(BOUND_DEG);
    expect(err(q)).toBeLessThan(BOUND_DEG);
    // And over random rotations the error-optimised choice is never worse than nearest rounding.
    const r = rng(9);
    let nearestWorst = 0;
    let chosenWorst = 0;
    for (let i = 0; i < sweep(20_000); i++) {
      const p = near(r, [0.5, 0.5, 0.5, 0.5], 0.02);
      decodeQuat(specEncode(p[0], p[1], p[2], p[3], { nearestOnly: true }), out, 0);
      nearestWorst = Math.max(nearestWorst, angleDeg(p, out));
      chosenWorst = Math.max(chosenWorst, err(p));
    }
    expect(nearestWorst).toBeGreaterThan(BOUND_DEG);
    expect(chosenWorst).toBeLessThan(BOUND_DEG);
  });

  it('is the float32 definition exactly: the same bits as a literal implementation, fast path and exact path', () => {
    const r = rng(4);
    const h = Math.SQRT1_2;
    const cases: number[][] = [];
    for (let i = 0; i < sweep(40_000); i++) cases.push(randomQuat(r));
    for (let i = 0; i < sweep(10_000); i++) {
      cases.push(near(r, [0.5, -0.5, 0.5, 0.5], 0.01));
      cases.push(near(r, [h, h, 0, 0], 0.004));
      const angle = r() * 2 * Math.PI;
      cases.push([0, 0, Math.sin(angle), Math.cos(angle)]); // 2D
      // Not normalised, and near the Newton / exact-normalisation threshold (n2 ≈ 0.999, 1.001).
      const q = randomQuat(r);
      const s = [3, 1e-6, 1e6, Math.sqrt(0.999), Math.sqrt(1.001)][i % 5] * (1 + (r() - 0.5) * 2e-7);
      cases.push(q.map((c) => c * s));
    }
    let mismatches = 0;
    for (const q of cases) if (encodeQuat(q[0], q[1], q[2], q[3]) !== specEncode(q[0], q[1], q[2], q[3])) mismatches++;
    expect(mismatches).toBe(0);
  });

  it('is the float32 definition exactly where t lies on a rounding boundary', () => {
    const r = rng(8);
    const trace = { v: [] as number[], t: [] as number[], e: [] as number[] };
    let onBoundary = 0;
    let mismatches = 0;
    for (let i = 0; i < sweep(150_000); i++) {
      const q = randomQuat(r);
      const want = specEncode(q[0], q[1], q[2], q[3], { trace });
      const boundary = trace.t.some((t) => {
        const frac = t - Math.floor(t);
        return frac < 3e-4 || frac > 1 - 3e-4 || Math.abs(frac - 0.5) < 3e-4;
      });
      if (!boundary) continue;
      onBoundary++;
      if (encodeQuat(q[0], q[1], q[2], q[3]) !== want) mismatches++;
    }
    expect(onBoundary).toBeGreaterThan(sweep(100));
    expect(mismatches).toBe(0);
  });

  it('is the float32 definition exactly where float32 rounding decides between candidates, and at exact ties', () => {
    // Scoring these in doubles picks another candidate than float32 does (by construction: the
    // encoder's double fast path must hand them to float32).
    const trace = { v: [] as number[], t: [] as number[], e: [] as number[] };
    const decided = float32Decides(rng(9), sweep(2000));
    let mismatches = 0;
    for (const q of decided) {
      const want = specEncode(q[0], q[1], q[2], q[3], { trace });
      expect(doubleChoice(trace)).not.toBe(floatChoice(trace));
      if (encodeQuat(q[0], q[1], q[2], q[3]) !== want) mismatches++;
    }
    expect(mismatches).toBe(0);
    // Exact ties: with a = b, moving a or moving b scores exactly the same; the earlier one wins.
    const r = rng(11);
    let ties = 0;
    for (let i = 0; i < sweep(20_000); i++) {
      const a = (r() - 0.5) * 0.9;
      const c = (r() - 0.5) * 0.9;
      const q = [a, a, c, Math.sqrt(Math.max(0, 1 - 2 * a * a - c * c)) + 0.3];
      const want = specEncode(q[0], q[1], q[2], q[3], { trace });
      const sorted = trace.e.slice().sort((x, y) => x - y);
      if (sorted[0] === sorted[1]) ties++;
      if (encodeQuat(q[0], q[1], q[2], q[3]) !== want) mismatches++;
    }
    expect(ties).toBeGreaterThan(sweep(100));
    expect(mismatches).toBe(0);
  });

  it('never moves a component whose alt leaves [0, 1022]: its D is about l² + a² = 1 there', () => {
    // Within 2e-6 of (±1/√2, 0, ±1/√2, 0): t < 0 or t ≥ 1022 for the component beside the largest.
    const r = rng(12);
    const h = Math.SQRT1_2;
    const trace = { v: [] as number[], t: [] as number[], e: [] as number[] };
    let outside = 0;
    let mismatches = 0;
    for (let i = 0; i < sweep(20_000); i++) {
      const q = near(r, [h * (r() < 0.5 ? -1 : 1), 0, h, 0], 4e-6);
      const want = specEncode(q[0], q[1], q[2], q[3], { trace });
      if (encodeQuat(q[0], q[1], q[2], q[3]) !== want) mismatches++;
      for (let j = 0; j < 3; j++) {
        const t = trace.t[j];
        const k = Math.trunc(Math.fround(t + 0.5));
        const alt = k > t ? k - 1 : k + 1;
        if (alt >= 0 && alt <= 1022) continue;
        outside++;
        expect(trace.e[j + 1]).toBeGreaterThan(0.99);
      }
      // Every code field is in range (no clamp was needed).
      expect([(want >>> 20) & 1023, (want >>> 10) & 1023, want & 1023].every((c) => c <= 1022)).toBe(true);
    }
    expect(outside).toBeGreaterThan(sweep(100));
    expect(mismatches).toBe(0);
  });

  it('is the float32 definition exactly where double and float32 arithmetic round t to different codes', () => {
    // a sits just beside a rounding boundary: a·SCALE + 511 computed in doubles falls on one side of
    // k + 0.5 (or k) and in float32 on the other. With w = √(1 − a² − b² − c²) the float32 squared
    // norm is often exactly 1, so normalisation leaves a as it is.
    const f = Math.fround;
    const scale = f(1022 / Math.SQRT2);
    const r = rng(10);
    const trace = { v: [] as number[], t: [] as number[], e: [] as number[] };
    const bits = new Float32Array(1);
    const ints = new Int32Array(bits.buffer);
    let disagreeing = 0;
    let mismatches = 0;
    for (let i = 0; i < sweep(20_000); i++) {
      const k = 1 + Math.floor(r() * 1020);
      const target = (k + (r() < 0.5 ? 0.5 : 0) - 511) / scale;
      bits[0] = target;
      ints[0] += Math.floor(r() * 9) - 4; // a few float32 steps either side
      const a = bits[0];
      const b = f((r() - 0.5) * 0.2);
      const c = f((r() - 0.5) * 0.2);
      const w = f(Math.sqrt(1 - a * a - b * b - c * c));
      const want = specEncode(a, b, c, w, { trace });
      if (trace.v[0] !== a) continue; // normalisation moved it
      const td = a * scale + 511;
      const tf = trace.t[0];
      const nearF = Math.trunc(f(tf + 0.5));
      if (nearF === Math.trunc(td + 0.5) && nearF > tf === nearF > td) continue;
      disagreeing++;
      if (encodeQuat(a, b, c, w) !== want) mismatches++;
    }
    expect(disagreeing).toBeGreaterThan(sweep(50));
    expect(mismatches).toBe(0);
  });

  it('treats q and -q as the same rotation and decodes a positive largest component', () => {
    const q = [0.1, -0.7, 0.2, 0.6];
    const a = encodeQuat(q[0], q[1], q[2], q[3]);
    const b = encodeQuat(-q[0], -q[1], -q[2], -q[3]);
    expect(a).toBe(b);
    decodeQuat(a, out, 0);
    expect(out[1]).toBeGreaterThan(0); // y was largest in magnitude, stored positive
  });

  it('breaks exact ties for the largest component toward the lowest index', () => {
    expect(encodeQuat(0.5, 0.5, 0.5, 0.5) >>> 30).toBe(0);
    expect(encodeQuat(0, -0.5, 0.5, 0.5) >>> 30).toBe(1);
    expect(encodeQuat(0, 0, Math.SQRT1_2, Math.SQRT1_2) >>> 30).toBe(2);
    expect(encodeQuat(0.1, 0.1, 0.1, 1) >>> 30).toBe(3);
  });

  it('keeps 2D rotations exactly in the plane (x = y = 0)', () => {
    for (let k = 0; k < 360; k += 7) {
      const h = (k * Math.PI) / 360;
      decodeQuat(encodeQuat(0, 0, Math.sin(h), Math.cos(h)), out, 0);
      expect(out[0]).toBe(0);
      expect(out[1]).toBe(0);
    }
  });

  it('normalises its input and repairs zero / NaN / infinite / huge quaternions to the identity', () => {
    decodeQuat(encodeQuat(0, 0, 2, 0), out, 0);
    expect(Array.from(out)).toEqual([0, 0, 1, 0]);
    expect(quatStatus.sanitized).toBe(false);
    for (const bad of [
      [0, 0, 0, 0],
      [NaN, 0, 0, 1],
      [Infinity, 0, 0, 1],
      [0, -Infinity, 0, 0],
      [1e-30, 0, 0, 0],
      [2e10, 0, 0, 1],
    ]) {
      expect(encodeQuat(bad[0], bad[1], bad[2], bad[3])).toBe(QUAT_IDENTITY_BITS);
      expect(encodeQuat(bad[0], bad[1], bad[2], bad[3]) | 0).toBe(QUAT_IDENTITY_BITS); // a small integer
      expect(quatStatus.sanitized).toBe(true);
    }
    // Just inside the float32 limits (squared norm within (1e-20, 1e20)) is still a rotation.
    decodeQuat(encodeQuat(0, 2e-10, 0, 0), out, 0);
    expect(Array.from(out)).toEqual([0, 1, 0, 0]);
    decodeQuat(encodeQuat(0, 0, 0, -9e9), out, 0);
    expect(Array.from(out)).toEqual([0, 0, 0, 1]);
    expect(quatStatus.sanitized).toBe(false);
    decodeQuat(QUAT_IDENTITY_BITS, out, 0);
    expect(Array.from(out)).toEqual([0, 0, 0, 1]);
  });

  it('decodes to unit length', () => {
    const r = rng(3);
    for (let i = 0; i < 1000; i++) {
      const q = randomQuat(r);
      decodeQuat(encodeQuat(q[0], q[1], q[2], q[3]), out, 0);
      expect(Math.hypot(out[0], out[1], out[2], out[3])).toBeCloseTo(1, 5);
    }
  });

  it('encodeQuatAt reads any array at an offset and sets quatStatus like encodeQuat', () => {
    const r = rng(5);
    const src = new Float64Array(4 * 100 + 1);
    for (let i = 0; i < src.length; i++) src[i] = r() - 0.5;
    for (let i = 0; i < 100; i++) {
      const o = 1 + i * 4;
      expect(encodeQuatAt(src, o)).toBe(encodeQuat(src[o], src[o + 1], src[o + 2], src[o + 3]));
    }
    expect(encodeQuatAt([NaN, 0, 0, 1], 0)).toBe(QUAT_IDENTITY_BITS);
    expect(quatStatus.sanitized).toBe(true);
    encodeQuatAt([0, 0, 0, 1], 0);
    expect(quatStatus.sanitized).toBe(false);
  });

  it('encodeQuatColumns encodes columns into out[outIndex ..], counts the invalid ones and writes nothing else', () => {
    const r = rng(6);
    const n = 300; // more than one internal block
    const qx = new Float32Array(n),
      qy = new Float32Array(n),
      qz = new Float32Array(n),
      qw = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      const q = randomQuat(r);
      qx[i] = q[0];
      qy[i] = q[1];
      qz[i] = q[2];
      qw[i] = q[3];
    }
    qx[7] = NaN;
    qy[150] = Infinity;
    qx[299] = 0;
    qy[299] = 0;
    qz[299] = 0;
    qw[299] = 0;
    const outCodes = new Int32Array(n + 10).fill(0x5a5a5a5a);
    expect(encodeQuatColumns(qx, qy, qz, qw, n, outCodes, 5)).toBe(3);
    for (let i = 0; i < 5; i++) expect(outCodes[i]).toBe(0x5a5a5a5a);
    for (let i = n + 5; i < n + 10; i++) expect(outCodes[i]).toBe(0x5a5a5a5a);
    for (let i = 0; i < n; i++) expect(outCodes[5 + i]).toBe(encodeQuat(qx[i], qy[i], qz[i], qw[i]));
    expect(outCodes[5 + 7]).toBe(QUAT_IDENTITY_BITS);
    expect(encodeQuatColumns(qx, qy, qz, qw, 0, outCodes, 0)).toBe(0);
    expect(outCodes[0]).toBe(0x5a5a5a5a);
  });
});

describe('quatIsEncodable', () => {
  it('agrees with what the encoders store: the identity exactly for the quaternions it refuses', () => {
    const cases = [
      [0, 0, 0, 1],
      [0, 0, 0, 0],
      [NaN, 0, 0, 1],
      [0, Infinity, 0, 1],
      [1e-11, 0, 0, 0],
      [1e-9, 0, 0, 0],
      [1e10, 0, 0, 0],
      [3, 4, 0, 0],
    ];
    const qx = new Float32Array(1),
      qy = new Float32Array(1),
      qz = new Float32Array(1),
      qw = new Float32Array(1);
    const out = new Int32Array(1);
    const verdicts = cases.map(([x, y, z, w]) => {
      qx[0] = x;
      qy[0] = y;
      qz[0] = z;
      qw[0] = w;
      const invalid = encodeQuatColumns(qx, qy, qz, qw, 1, out, 0);
      expect(quatIsEncodable(x, y, z, w)).toBe(invalid === 0);
      return quatIsEncodable(x, y, z, w);
    });
    expect(verdicts).toEqual([true, false, false, false, false, true, false, true]);
  });
});
