/**
 * The codec's and the rotation helpers' edges, called directly: the 2D angle helpers against a
 * rotated vector, the decoder at offsets and on codes whose rebuilt largest component would be the
 * square root of a negative number, the identity's bits, and the encoders' validity bounds at the
 * float32 squared norms next to 1e-20 and 1e20. quat.test.ts sweeps rotations against the float32
 * definition; these cases pin what the sweeps do not reach, so that a mutant fails here. Comments
 * name the mutants (Stryker's notation) a case kills.
 */
import { describe, expect, it } from 'vitest';
import {
  QUAT_IDENTITY_BITS,
  angleZToQuat,
  decodeQuat,
  decodeQuatAt,
  encodeQuat,
  encodeQuatColumns,
  quatIsEncodable,
  quatIsEncodableAt,
  quatStatus,
  quatToAngleZ,
} from '../quat';
import { qmul } from '../../../../tests/helpers/rotations';

const INV_SCALE = (2 * Math.SQRT1_2) / 1022;

/** The angle about z of the x axis rotated by q: an independent route to `quatToAngleZ`. */
function rotatedXAngle(q: ArrayLike<number>): number {
  const v = qmul(qmul(q, [1, 0, 0, 0]), [-q[0], -q[1], -q[2], q[3]]);
  return Math.atan2(v[1], v[0]);
}

describe('module state', () => {
  it('quatStatus starts as not sanitized, before any encode', () => {
    // { sanitized: false } → {} / { sanitized: true }. (This file's first test: nothing encoded yet.)
    expect(quatStatus).toEqual({ sanitized: false });
  });
});

describe('2D angle helpers', () => {
  it('angleZToQuat writes a rotation about z at an index, and quatToAngleZ reads it back', () => {
    // h = angle * 0.5 → angle / 0.5 / angle + 0.5; each write of out[i..i+3] (indices + 1 → - 1...).
    const out = new Float64Array(9).fill(7);
    for (const angle of [0.3, -2.5, 3, 1e-3]) {
      angleZToQuat(angle, out, 3);
      expect(Array.from(out)).toEqual([7, 7, 7, 0, 0, Math.sin(angle * 0.5), Math.cos(angle * 0.5), 7, 7]);
      expect(quatToAngleZ(out, 3)).toBeCloseTo(angle, 12);
      out.fill(7);
    }
  });

  it('quatToAngleZ is the heading of the rotated x axis, for rotations about any axis', () => {
    // Each term of atan2(2 (wz + xy), 1 - 2 (y² + z²)) (signs, products, the index offsets).
    const q = new Float64Array(6);
    const cases = [
      [0.1, 0.2, 0.3, 0.927],
      [-0.5, 0.4, 0.2, 0.742],
      [0.3, -0.6, 0.5, -0.5],
      [0.7, 0.1, -0.1, 0.7],
    ];
    for (const c of cases) {
      const n = Math.hypot(c[0], c[1], c[2], c[3]);
      q.set(
        c.map((v) => v / n),
        2,
      );
      expect(quatToAngleZ(q, 2)).toBeCloseTo(rotatedXAngle(q.subarray(2)), 12);
    }
  });
});

describe('decoder edges', () => {
  it('decodeQuatAt reads words[at] and writes out[offset .. offset + 4) only', () => {
    const words = new Uint32Array([0, encodeQuat(0.1, -0.7, 0.2, 0.6) >>> 0, 0]);
    const direct = new Float64Array(4);
    decodeQuat(words[1], direct, 0);
    const out = new Float64Array(7).fill(9);
    decodeQuatAt(words, 1, out, 2);
    expect([out[0], out[1], out[6]]).toEqual([9, 9, 9]);
    expect(Array.from(out.subarray(2, 6))).toEqual(Array.from(direct));
    // y is the largest (index 1), stored positive; the others in index order.
    expect(out[3]).toBeGreaterThan(0.69);
    expect(out[2]).toBeCloseTo(-0.1 / Math.hypot(0.1, 0.7, 0.2, 0.6), 2);
    expect(out[4]).toBeCloseTo(-0.2 / Math.hypot(0.1, 0.7, 0.2, 0.6), 2);
    expect(out[5]).toBeCloseTo(-0.6 / Math.hypot(0.1, 0.7, 0.2, 0.6), 2);
  });

  it('decodes each field at its place: a, b, c around the largest component, 511 as 0', () => {
    // (bits >>> 20) & 1023 etc., - 511, * INV_SCALE, and OTHERS for each idx.
    const out = new Float64Array(4);
    for (let idx = 0; idx < 4; idx++) {
      const bits = ((idx << 30) | (600 << 20) | (511 << 10) | 400) >>> 0;
      decodeQuat(bits, out, 0);
      const a = 89 * INV_SCALE;
      const c = -111 * INV_SCALE;
      const others = [0, 1, 2, 3].filter((i) => i !== idx);
      expect(out[idx]).toBeCloseTo(Math.sqrt(1 - a * a - c * c), 12);
      expect(out[others[0]]).toBeCloseTo(a, 12);
      expect(out[others[1]]).toBe(0);
      expect(out[others[2]]).toBeCloseTo(c, 12);
    }
  });

  it('a code whose three small components exceed unit length rebuilds the largest as 0, not NaN', () => {
    // r > 0 ? sqrt(r) : 0 → sqrt(r) (NaN); 1 - a² - b² - c² → + ...
    const out = new Float64Array(4);
    decodeQuat((3 << 30) | (1022 << 20) | (1022 << 10) | 1022, out, 0);
    expect(out[3]).toBe(0);
    expect(Array.from(out.subarray(0, 3))).toEqual([511 * INV_SCALE, 511 * INV_SCALE, 511 * INV_SCALE]);
    decodeQuat(0 | (0 << 20) | (0 << 10) | 0, out, 0);
    expect(out[0]).toBe(0);
    expect(Array.from(out.subarray(1))).toEqual([-511 * INV_SCALE, -511 * INV_SCALE, -511 * INV_SCALE]);
  });

  it('the identity is w largest with three zero codes', () => {
    expect(QUAT_IDENTITY_BITS).toBe((3 << 30) | (511 << 20) | (511 << 10) | 511);
    expect(encodeQuat(0, 0, 0, 1)).toBe(QUAT_IDENTITY_BITS);
    expect(encodeQuat(0, 0, 0, -1)).toBe(QUAT_IDENTITY_BITS);
  });
});

describe('encodeQuatColumns on the exact path', () => {
  it('writes each entry decided in float32 at its own index', () => {
    // roundExact(idx, k4, out, at + j) → at - j: exact ties (two equal components) take the exact path.
    const n = 40;
    const qx = new Float32Array(n);
    const qy = new Float32Array(n);
    const qz = new Float32Array(n);
    const qw = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      const a = 0.05 + 0.01 * i;
      qx[i] = a;
      qy[i] = a;
      qz[i] = 0.3 - 0.005 * i;
      qw[i] = Math.sqrt(Math.max(0, 1 - 2 * a * a - qz[i] * qz[i])) + 0.3;
    }
    const out = new Int32Array(n + 8).fill(0x1234);
    expect(encodeQuatColumns(qx, qy, qz, qw, n, out, 8)).toBe(0);
    for (let i = 0; i < n; i++) expect(out[8 + i]).toBe(encodeQuat(qx[i], qy[i], qz[i], qw[i]));
    expect(Array.from(out.subarray(0, 8))).toEqual(new Array(8).fill(0x1234));
    // Distinct codes: a wrong index would repeat or misplace one.
    expect(new Set(out.subarray(8)).size).toBe(n);
  });
});

describe('validity bounds at the float32 squared norm', () => {
  const f = Math.fround;
  const MIN = f(1e-20);
  const MAX = f(1e20);
  /** The float32 squared norm of (x, y, 0, 0) as the encoders compute it. */
  const n2 = (x: number, y: number): number => f(f(f(f(x * x) + f(y * y)) + 0) + 0);
  /** The float32 values next to `x`. */
  const bits = new Float32Array(1);
  const ints = new Int32Array(bits.buffer);
  const step = (x: number, k: number): number => {
    bits[0] = x;
    ints[0] += k;
    return bits[0];
  };
  /** Float32 x and y whose squared norm is exactly `target`: x just under √target, y making up the rest. */
  const exactly = (target: number): [number, number] => {
    const r = f(Math.sqrt(target));
    for (let k = -40; k <= 0; k++) {
      const x = step(r, k);
      if (f(x * x) >= target) continue;
      const ry = f(Math.sqrt(target - f(x * x)));
      for (let j = -40; j <= 40; j++) if (n2(x, step(ry, j)) === target) return [x, step(ry, j)];
    }
    throw new Error(`no float32 pair squares to ${target}`);
  };

  it('a squared norm of exactly either bound is invalid, one float32 step inside is valid', () => {
    // n2 > MIN → >= / true; n2 < MAX → <= / true (in normaliseBlock and in quatIsEncodableAt).
    const cols = [new Float32Array(1), new Float32Array(1), new Float32Array(1), new Float32Array(1)];
    const out = new Int32Array(1);
    const check = (x: number, y: number, valid: boolean): void => {
      cols[0][0] = x;
      cols[1][0] = y;
      expect(encodeQuatColumns(cols[0], cols[1], cols[2], cols[3], 1, out, 0)).toBe(valid ? 0 : 1);
      expect(out[0] === QUAT_IDENTITY_BITS).toBe(!valid);
      expect(quatIsEncodable(x, y, 0, 0)).toBe(valid);
      expect(quatIsEncodableAt(cols[0], cols[1], cols[2], cols[3], 0)).toBe(valid);
      encodeQuat(x, y, 0, 0);
      expect(quatStatus.sanitized).toBe(!valid);
    };
    const [x0, y0] = exactly(MIN);
    expect(n2(x0, y0)).toBe(MIN);
    check(x0, y0, false);
    const x1 = step(x0, 1);
    expect(n2(x1, y0)).toBeGreaterThan(MIN);
    check(x1, y0, true);
    const [x2, y2] = exactly(MAX);
    expect(n2(x2, y2)).toBe(MAX);
    check(x2, y2, false);
    const x3 = step(x2, -1);
    expect(n2(x3, y2)).toBeLessThan(MAX);
    check(x3, y2, true);
  });

  it('every component counts in the squared norm', () => {
    // A term of ((x² + y²) + z²) + w² dropped or subtracted: a unit quaternion along each axis.
    for (let k = 0; k < 4; k++) {
      const q = [0, 0, 0, 0];
      q[k] = 1;
      expect(quatIsEncodable(q[0], q[1], q[2], q[3])).toBe(true);
      q[k] = 0.5;
      q[(k + 1) % 4] = 0;
      expect(quatIsEncodable(q[0], q[1], q[2], q[3])).toBe(true);
    }
  });

  it('quatIsEncodableAt reads entry i of each column', () => {
    const qx = new Float32Array([0, 0, 0]);
    const qy = new Float32Array([0, 0, 0]);
    const qz = new Float32Array([0, 0, 0]);
    const qw = new Float32Array([0, 0, 0]);
    for (const [col, i] of [
      [qx, 2],
      [qy, 1],
      [qz, 2],
      [qw, 1],
    ] as const) {
      col[i] = 1;
      expect([0, 1, 2].map((k) => quatIsEncodableAt(qx, qy, qz, qw, k))).toEqual([0, 1, 2].map((k) => k === i));
      col[i] = 0;
    }
  });
});
