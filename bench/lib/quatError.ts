/**
 * Angle, in degrees, of the rotation that takes quaternion `a` to quaternion `b`. Both are
 * normalised first, and q and -q count as the same rotation, so the result is in [0, 180].
 *
 * Computed as `2·atan2(|v|, |w|)` of the relative rotation `conj(a)·b`, which stays accurate for
 * tiny angles (where `2·acos(dot)` loses most of its digits).
 *
 * @example
 * quatAngleDeg(0, 0, 0, 1, 0, 0, Math.sin(0.5), Math.cos(0.5)); // ≈ 57.2958 (1 radian about z)
 * quatAngleDeg(0, 0, 0, 1, 0, 0, 0, -1); // 0 (-identity is the identity)
 */
export function quatAngleDeg(
  ax: number,
  ay: number,
  az: number,
  aw: number,
  bx: number,
  by: number,
  bz: number,
  bw: number,
): number {
  const na = Math.sqrt(ax * ax + ay * ay + az * az + aw * aw);
  const nb = Math.sqrt(bx * bx + by * by + bz * bz + bw * bw);
  if (!(na > 0) || !(nb > 0)) return NaN;
  // conj(a) * b, grouped so that each pair cancels exactly when a === b (a lossless peer reads 0).
  const rx = aw * bx - ax * bw + (az * by - ay * bz);
  const ry = aw * by - ay * bw + (ax * bz - az * bx);
  const rz = aw * bz - az * bw + (ay * bx - ax * by);
  const rw = aw * bw + ax * bx + ay * by + az * bz;
  const v = Math.sqrt(rx * rx + ry * ry + rz * rz);
  return (2 * Math.atan2(v, Math.abs(rw)) * 180) / Math.PI;
}
