import { Recorder } from '../../record/Recorder';
import type { RecorderOptions } from '../../record/RecorderOptions';

/** A quiet recorder for tests (warnings collected instead of printed). */
export function quietRecorder(options: Partial<RecorderOptions> = {}): Recorder & { warnings: string[] } {
  const warnings: string[] = [];
  const r = new Recorder({ onWarning: (m) => warnings.push(m), ...options }) as Recorder & { warnings: string[] };
  r.warnings = warnings;
  return r;
}

/** Deterministic PRNG (mulberry32) in [0, 1). */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A uniformly random unit quaternion (x, y, z, w). */
export function randomQuat(rand: () => number): [number, number, number, number] {
  // Shoemake's method.
  const u1 = rand();
  const u2 = rand() * 2 * Math.PI;
  const u3 = rand() * 2 * Math.PI;
  const a = Math.sqrt(1 - u1);
  const b = Math.sqrt(u1);
  return [a * Math.sin(u2), a * Math.cos(u2), b * Math.sin(u3), b * Math.cos(u3)];
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

/** Angle in radians of the rotation taking q1 to q2 (q and -q are the same rotation). */
export function rotationDistance(q1: ArrayLike<number>, i1: number, q2: ArrayLike<number>, i2: number): number {
  const n1 = Math.hypot(q1[i1], q1[i1 + 1], q1[i1 + 2], q1[i1 + 3]);
  const n2 = Math.hypot(q2[i2], q2[i2 + 1], q2[i2 + 2], q2[i2 + 3]);
  // The 4D angle between unit quaternions is 2·atan2(|a - b|, |a + b|) (well conditioned near 0,
  // unlike acos); the rotation angle is twice that.
  const s = Math.sign(q1[i1] * q2[i2] + q1[i1 + 1] * q2[i2 + 1] + q1[i1 + 2] * q2[i2 + 2] + q1[i1 + 3] * q2[i2 + 3]) || 1;
  let dm = 0;
  let dp = 0;
  for (let k = 0; k < 4; k++) {
    const a = q1[i1 + k] / n1;
    const b = (s * q2[i2 + k]) / n2;
    dm += (a - b) ** 2;
    dp += (a + b) ** 2;
  }
  return 4 * Math.atan2(Math.sqrt(dm), Math.sqrt(dp));
}
