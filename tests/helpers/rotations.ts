import { quatAngleDeg } from '../../bench/lib/quatError';

/**
 * Rotations for tests: uniform random rotations and perturbations of a given one (from a seeded
 * `rng`, tests/helpers/random.ts, so a failure reproduces), axis-angle construction, the Hamilton
 * product and the angle between two rotations.
 */

/** A uniform random rotation (Shoemake) as [x, y, z, w]. */
export function randomQuat(r: () => number): [number, number, number, number] {
  const u1 = r(),
    u2 = r(),
    u3 = r();
  const s1 = Math.sqrt(1 - u1),
    s2 = Math.sqrt(u1);
  return [
    s1 * Math.sin(2 * Math.PI * u2),
    s1 * Math.cos(2 * Math.PI * u2),
    s2 * Math.sin(2 * Math.PI * u3),
    s2 * Math.cos(2 * Math.PI * u3),
  ];
}

/** `q` plus a uniform perturbation of ±eps/2 per component, normalised. */
export function near(r: () => number, q: number[], eps: number): number[] {
  const p = q.map((v) => v + (r() - 0.5) * eps);
  const n = Math.hypot(p[0], p[1], p[2], p[3]);
  return p.map((v) => v / n);
}

/** Rotation of `angle` radians about the unit axis (ax, ay, az). */
export function axisAngle(ax: number, ay: number, az: number, angle: number): [number, number, number, number] {
  const l = Math.hypot(ax, ay, az);
  const s = Math.sin(angle / 2) / l;
  return [ax * s, ay * s, az * s, Math.cos(angle / 2)];
}

/** Hamilton product a * b. */
export function qmul(a: ArrayLike<number>, b: ArrayLike<number>): [number, number, number, number] {
  const [ax, ay, az, aw] = [a[0], a[1], a[2], a[3]];
  const [bx, by, bz, bw] = [b[0], b[1], b[2], b[3]];
  return [
    aw * bx + ax * bw + ay * bz - az * by,
    aw * by - ax * bz + ay * bw + az * bx,
    aw * bz + ax * by - ay * bx + az * bw,
    aw * bw - ax * bx - ay * by - az * bz,
  ];
}

/**
 * Angle in radians of the rotation taking q1 to q2 (q and -q are the same rotation): the bench's
 * `quatAngleDeg` (accurate for tiny angles) on quaternions stored at an offset.
 */
export function rotationDistance(q1: ArrayLike<number>, i1: number, q2: ArrayLike<number>, i2: number): number {
  const deg = quatAngleDeg(q1[i1], q1[i1 + 1], q1[i1 + 2], q1[i1 + 3], q2[i2], q2[i2 + 1], q2[i2 + 2], q2[i2 + 3]);
  return (deg * Math.PI) / 180;
}
