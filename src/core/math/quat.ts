/**
 * Smallest-three quaternion compression into 32 bits: a 2-bit index of the largest component, then
 * the three others quantized to 10 bits each over [-1/√2, 1/√2]. The largest component is rebuilt
 * as `sqrt(1 - a² - b² - c²)`; q and -q are the same rotation, so the largest is stored positive.
 *
 * Worst-case error is about 0.274°, near (±½, ±½, ±½, ±½) where the rebuilt largest component collects
 * the others' rounding errors; uniform random rotations stay under 0.26° (tests and `npm run bench`).
 */

const INV_SQRT2 = Math.SQRT1_2;
/** 1022 steps (not 1023) so that 0 is exactly representable: 2D rotations keep x = y = 0. */
const STEPS = 1022;
const MID = 511;
const MASK10 = 1023;
const SCALE = STEPS / (2 * INV_SQRT2);
const INV_SCALE = (2 * INV_SQRT2) / STEPS;

/** The three "other" component indices for each largest-component index (branch-free lookup). */
const OTHERS = new Uint8Array([1, 2, 3, 0, 2, 3, 0, 1, 3, 0, 1, 2]);
/** The normalised quaternion as float32, and the same bits as int32 (for branch-free compares). */
const normF32 = new Float32Array(4);
const normI32 = new Int32Array(normF32.buffer);
/** The identity (w largest, the others 0). */
const IDENTITY = (3 << 30) | (MID << 20) | (MID << 10) | MID;

/** Outcome of `encodeQuat` on the last call: whether the input had to be repaired. */
export const quatStatus = { sanitized: false };

const args = new Float64Array(4);

/**
 * Encodes a rotation (x, y, z, w) as 32 bits, returned as a signed int32 (store it in a typed
 * array). The input need not be normalised; a zero, NaN or infinite quaternion encodes the identity
 * and sets `quatStatus.sanitized`.
 *
 * @example
 * const bits = encodeQuat(0, 0, Math.sin(0.5), Math.cos(0.5));
 * const out = new Float32Array(4);
 * decodeQuat(bits, out, 0); // ≈ [0, 0, 0.479, 0.878]
 */
export function encodeQuat(x: number, y: number, z: number, w: number): number {
  args[0] = x;
  args[1] = y;
  args[2] = z;
  args[3] = w;
  return encodeQuatAt(args, 0);
}

/**
 * `encodeQuat` reading x, y, z, w from `src[offset..offset+3]`. Hot paths use this form: passing an
 * array and an index never boxes a double at a call boundary, so it allocates nothing even when V8
 * does not inline it.
 *
 * The choice of the largest component and of the sign is arithmetic, not branches, because which
 * component is largest changes at random from one entity to the next.
 */
export function encodeQuatAt(src: ArrayLike<number>, offset: number): number {
  const x = src[offset], y = src[offset + 1], z = src[offset + 2], w = src[offset + 3];
  const n2 = x * x + y * y + z * z + w * w;
  // NaN/Infinity/zero all fail this test (NaN compares false).
  if (!(n2 > 1e-20 && n2 < 1e20)) {
    quatStatus.sanitized = true;
    return IDENTITY;
  }
  quatStatus.sanitized = false;
  // Games pass unit quaternions: near 1, one Newton step from 1 is exact to ~4e-7, far below the
  // quantization step (1.4e-3), and saves a square root and a division.
  const inv = n2 > 0.999 && n2 < 1.001 ? 1.5 - 0.5 * n2 : 1 / Math.sqrt(n2);
  const f = normF32;
  const b = normI32;
  f[0] = x * inv;
  f[1] = y * inv;
  f[2] = z * inv;
  f[3] = w * inv;
  // |component| compared as integers (the float's bits without the sign): no data-dependent branch,
  // because which component is largest changes at random from one entity to the next.
  const bx = b[0] & 0x7fffffff, by = b[1] & 0x7fffffff, bz = b[2] & 0x7fffffff, bw = b[3] & 0x7fffffff;
  const d01 = bx - by;
  const m01 = bx - (d01 & (d01 >> 31)); // max(bx, by)
  const g01 = d01 >>> 31; // 1 when y beats x
  const d23 = bz - bw;
  const m23 = bz - (d23 & (d23 >> 31));
  const g23 = d23 >>> 31;
  const high = (m01 - m23) >>> 31; // 1 when the larger of z, w beats the larger of x, y
  const idx = g01 + high * (2 + g23 - g01);
  // Negate everything when the largest is negative (q and -q are the same rotation).
  const scale = SCALE - 2 * SCALE * (b[idx] >>> 31);
  const o = idx * 3;
  // |component| ≤ 1/√2, so value + 511.5 is in [0.5, 1022.5]: truncation is rounding, and no clamp
  // is needed (a normalisation error of 1e-7 can at worst give 1023, still 10 bits and decodable).
  const qa = (f[OTHERS[o]] * scale + 511.5) | 0;
  const qb = (f[OTHERS[o + 1]] * scale + 511.5) | 0;
  const qc = (f[OTHERS[o + 2]] * scale + 511.5) | 0;
  // A signed int32 (not `>>> 0`): it stays a small integer in V8, where a uint32 above 2^31 would
  // be boxed as a heap number on every return. Stored into a Uint32Array it is the same 32 bits.
  return (idx << 30) | (qa << 20) | (qb << 10) | qc;
}

/**
 * Decodes 32 bits from `encodeQuat` into `out[offset .. offset + 3]` as x, y, z, w. The result is
 * unit length and its largest component is positive.
 */
export function decodeQuat(bits: number, out: Float32Array | Float64Array, offset: number): void {
  const idx = bits >>> 30;
  const a = (((bits >>> 20) & MASK10) - MID) * INV_SCALE;
  const b = (((bits >>> 10) & MASK10) - MID) * INV_SCALE;
  const c = ((bits & MASK10) - MID) * INV_SCALE;
  const r = 1 - a * a - b * b - c * c;
  const l = r > 0 ? Math.sqrt(r) : 0;
  const o = idx * 3;
  out[offset + idx] = l;
  out[offset + OTHERS[o]] = a;
  out[offset + OTHERS[o + 1]] = b;
  out[offset + OTHERS[o + 2]] = c;
}

/** The identity rotation, encoded. */
export const QUAT_IDENTITY_BITS = IDENTITY;

/**
 * Shortest-path spherical interpolation of two unit quaternions stored at `a[ai]` and `b[bi]`,
 * written to `out[oi]`. Falls back to normalised lerp when they are nearly equal.
 */
export function slerpInto(
  a: ArrayLike<number>,
  ai: number,
  b: ArrayLike<number>,
  bi: number,
  t: number,
  out: Float32Array | Float64Array,
  oi: number,
): void {
  const ax = a[ai], ay = a[ai + 1], az = a[ai + 2], aw = a[ai + 3];
  let bx = b[bi], by = b[bi + 1], bz = b[bi + 2], bw = b[bi + 3];
  let cos = ax * bx + ay * by + az * bz + aw * bw;
  if (cos < 0) {
    cos = -cos;
    bx = -bx; by = -by; bz = -bz; bw = -bw;
  }
  let s0: number;
  let s1: number;
  if (cos > 0.9995) {
    s0 = 1 - t;
    s1 = t;
  } else {
    const theta = Math.acos(cos);
    const inv = 1 / Math.sin(theta);
    s0 = Math.sin((1 - t) * theta) * inv;
    s1 = Math.sin(t * theta) * inv;
  }
  let x = s0 * ax + s1 * bx;
  let y = s0 * ay + s1 * by;
  let z = s0 * az + s1 * bz;
  let w = s0 * aw + s1 * bw;
  const n = 1 / Math.sqrt(x * x + y * y + z * z + w * w);
  x *= n; y *= n; z *= n; w *= n;
  out[oi] = x;
  out[oi + 1] = y;
  out[oi + 2] = z;
  out[oi + 3] = w;
}

/** Rotation about the z axis (radians) of the quaternion at `q[i]`: what a 2D game displays. */
export function quatToAngleZ(q: ArrayLike<number>, i: number): number {
  const x = q[i], y = q[i + 1], z = q[i + 2], w = q[i + 3];
  return Math.atan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z));
}

/** Writes the quaternion for a rotation of `angle` radians about z into `out[i]`. */
export function angleZToQuat(angle: number, out: Float32Array | Float64Array, i: number): void {
  const h = angle * 0.5;
  out[i] = 0;
  out[i + 1] = 0;
  out[i + 2] = Math.sin(h);
  out[i + 3] = Math.cos(h);
}
