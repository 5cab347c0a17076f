/**
 * The slerp a game would write for its own snapshot playback (the JSON and msgpackr peers use it):
 * shortest path (b negated when `a·b < 0`), `sin((1-t)θ)/sin θ` and `sin(tθ)/sin θ` weights, and a
 * normalised lerp when the two are nearly equal (`cos θ > 0.9995`), where the weights lose digits.
 * Float64 throughout; writes x, y, z, w into `out` at `o`.
 *
 * @example
 * const out = new Float64Array(4);
 * slerpTextbook(0, 0, 0, 1, 0, 0, Math.sin(0.5), Math.cos(0.5), 0.5, out, 0); // 0.5 rad about z
 */
export function slerpTextbook(
  ax: number,
  ay: number,
  az: number,
  aw: number,
  bx: number,
  by: number,
  bz: number,
  bw: number,
  t: number,
  out: Float64Array,
  o: number,
): void {
  let cos = ax * bx + ay * by + az * bz + aw * bw;
  if (cos < 0) {
    cos = -cos;
    bx = -bx;
    by = -by;
    bz = -bz;
    bw = -bw;
  }
  if (cos > 0.9995) {
    const x = ax + (bx - ax) * t;
    const y = ay + (by - ay) * t;
    const z = az + (bz - az) * t;
    const w = aw + (bw - aw) * t;
    const inv = 1 / Math.sqrt(x * x + y * y + z * z + w * w);
    out[o] = x * inv;
    out[o + 1] = y * inv;
    out[o + 2] = z * inv;
    out[o + 3] = w * inv;
    return;
  }
  const theta = Math.acos(cos);
  const inv = 1 / Math.sin(theta);
  const s0 = Math.sin((1 - t) * theta) * inv;
  const s1 = Math.sin(t * theta) * inv;
  out[o] = s0 * ax + s1 * bx;
  out[o + 1] = s0 * ay + s1 * by;
  out[o + 2] = s0 * az + s1 * bz;
  out[o + 3] = s0 * aw + s1 * bw;
}
