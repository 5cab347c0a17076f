import { describe, expect, it } from 'vitest';
import { QUAT_IDENTITY_BITS, decodeQuat, encodeQuat, quatStatus } from '../quat';

/** Seeded PRNG (mulberry32) so failures reproduce. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Angle in degrees between two rotations (q and -q are the same rotation). */
function angleDeg(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const na = Math.hypot(a[0], a[1], a[2], a[3]);
  const nb = Math.hypot(b[0], b[1], b[2], b[3]);
  const d = Math.abs(a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]) / (na * nb);
  return (2 * Math.acos(Math.min(1, d)) * 180) / Math.PI;
}

function randomQuat(r: () => number): number[] {
  // Uniform random rotation (Shoemake).
  const u1 = r(), u2 = r(), u3 = r();
  const s1 = Math.sqrt(1 - u1), s2 = Math.sqrt(u1);
  return [s1 * Math.sin(2 * Math.PI * u2), s1 * Math.cos(2 * Math.PI * u2), s2 * Math.sin(2 * Math.PI * u3), s2 * Math.cos(2 * Math.PI * u3)];
}

/**
 * The codec's true worst case is about 0.274°, where all four components are near ±½ (the largest,
 * rebuilt from the other three, collects their rounding errors). Uniform random rotations stay
 * under 0.26°.
 */
const BOUND_DEG = 0.275;

describe('smallest-three quaternion codec', () => {
  const out = new Float32Array(4);

  it('stays within the error bound over 100k uniform random rotations', () => {
    const r = rng(1);
    let worst = 0;
    for (let i = 0; i < 100_000; i++) {
      const q = randomQuat(r);
      decodeQuat(encodeQuat(q[0], q[1], q[2], q[3]), out, 0);
      worst = Math.max(worst, angleDeg(q, out));
    }
    expect(worst).toBeLessThan(BOUND_DEG);
    expect(worst).toBeGreaterThan(0.01); // it really is lossy: the test measures something
  });

  it('stays within the bound in the worst regions: two or more components near 1/√2 and ties for largest', () => {
    const r = rng(2);
    const h = Math.SQRT1_2;
    let worst = 0;
    const cases: number[][] = [];
    for (let i = 0; i < 20_000; i++) {
      const e = (r() - 0.5) * 0.02;
      const sign = r() < 0.5 ? -1 : 1;
      cases.push([h + e, sign * (h - e), (r() - 0.5) * 0.01, (r() - 0.5) * 0.01]);
      cases.push([0.5 + e, 0.5 - e, sign * 0.5, 0.5]);
      cases.push([(r() - 0.5) * 0.01, h, (r() - 0.5) * 0.01, -h + e]);
    }
    for (const q of cases) {
      decodeQuat(encodeQuat(q[0], q[1], q[2], q[3]), out, 0);
      worst = Math.max(worst, angleDeg(q, out));
    }
    expect(worst).toBeLessThan(BOUND_DEG);
  });

  it('reaches its worst case near (±½, ±½, ±½, ±½) and stays within it there', () => {
    const q = [0.49885, -0.49885, 0.49885, 0.50344];
    decodeQuat(encodeQuat(q[0], q[1], q[2], q[3]), out, 0);
    const err = angleDeg(q, out);
    expect(err).toBeGreaterThan(0.26);
    expect(err).toBeLessThan(BOUND_DEG);
  });

  it('treats q and -q as the same rotation and decodes a positive largest component', () => {
    const q = [0.1, -0.7, 0.2, 0.6];
    const a = encodeQuat(q[0], q[1], q[2], q[3]);
    const b = encodeQuat(-q[0], -q[1], -q[2], -q[3]);
    expect(a).toBe(b);
    decodeQuat(a, out, 0);
    expect(out[1]).toBeGreaterThan(0); // y was largest in magnitude, stored positive
  });

  it('keeps 2D rotations exactly in the plane (x = y = 0)', () => {
    for (let k = 0; k < 360; k += 7) {
      const h = (k * Math.PI) / 360;
      decodeQuat(encodeQuat(0, 0, Math.sin(h), Math.cos(h)), out, 0);
      expect(out[0]).toBe(0);
      expect(out[1]).toBe(0);
    }
  });

  it('normalises its input and repairs zero / NaN / infinite quaternions to the identity', () => {
    decodeQuat(encodeQuat(0, 0, 2, 0), out, 0);
    expect(Array.from(out)).toEqual([0, 0, 1, 0]);
    expect(quatStatus.sanitized).toBe(false);
    for (const bad of [[0, 0, 0, 0], [NaN, 0, 0, 1], [Infinity, 0, 0, 1], [1e-30, 0, 0, 0]]) {
      expect(encodeQuat(bad[0], bad[1], bad[2], bad[3])).toBe(QUAT_IDENTITY_BITS);
      expect(encodeQuat(bad[0], bad[1], bad[2], bad[3]) | 0).toBe(QUAT_IDENTITY_BITS); // a small integer
      expect(quatStatus.sanitized).toBe(true);
    }
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
});
