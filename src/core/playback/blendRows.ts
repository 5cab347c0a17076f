import { SLERP_SERIES_MIN_COS, slerpCoefficients } from '../math/slerp';
import type { EntityBuffer } from '../read/buffers';
import { BLEND_T, blendBones, copyEntity, SLERP_SHORT_MIN_COS, seriesCoef } from './sampleRows';
import type { SampleBuffer } from './SampleBuffer';

/**
 * The squared teleport distance of the blend (`SamplerOptions.teleportThreshold` squared), at
 * index 0: the sampler writes it before each `blendRows` (a double passed in an array is never boxed).
 */
export const blendLimit = new Float64Array(1);

/**
 * The sampler's entity blend between two decoded frames: row `k` is entity `fromA[k]` of `a` and
 * `fromB[k]` of `b` (-1: absent), `n` rows, by the blend factor at `seriesCoef[BLEND_T]` (whose
 * slerp coefficients this computes) and the squared teleport distance at `blendLimit[0]`. Rows in
 * both frames get positions lerped and rotations slerped along the shortest path (unblended, from
 * the nearer frame, when the entity moved farther than the threshold), flags from the nearer frame,
 * bones blended where the layout gave the row bone slots; rows in one frame are copied. The layout
 * (`writeLayout`, or the seek's) is already in `out`: a row's bone slots (`boneStart[k] >= 0`) are
 * what tells it has bones. Internal to the sampler.
 *
 * The loop is inlined by hand: it makes no call that passes a double per entity.
 */
export function blendRows(
  a: EntityBuffer,
  b: EntityBuffer,
  fromA: Int32Array,
  fromB: Int32Array,
  n: number,
  out: SampleBuffer,
): void {
  const c = seriesCoef;
  slerpCoefficients(c);
  const t = c[BLEND_T];
  const ap = a.positions;
  const bp = b.positions;
  const ar = a.rotations;
  const br = b.rotations;
  const af = a.flags;
  const bf = b.flags;
  const op = out.positions;
  const or = out.rotations;
  const of = out.flags;
  const obs = out.boneStart;
  const thr2 = blendLimit[0];
  const nearB = t >= 0.5;
  const u = 1 - t;
  const anyBones = a.boneTotal > 0 || b.boneTotal > 0;
  // Slerp weights sin(tθ)/sin θ and sin((1-t)θ)/sin θ as series in (cos θ - 1), shared by every
  // entity: the SLERP_SERIES_TERMS (10) coefficients of each, unrolled.
  const t0 = c[0],
    t1 = c[1],
    t2 = c[2],
    t3 = c[3],
    t4 = c[4],
    t5 = c[5],
    t6 = c[6],
    t7 = c[7],
    t8 = c[8],
    t9 = c[9];
  const u0 = c[10],
    u1 = c[11],
    u2 = c[12],
    u3 = c[13],
    u4 = c[14],
    u5 = c[15],
    u6 = c[16],
    u7 = c[17],
    u8 = c[18],
    u9 = c[19];
  for (let k = 0; k < n; k++) {
    const ia = fromA[k];
    const ib = fromB[k];
    const o3 = k * 3;
    const o4 = k * 4;
    if (ia >= 0 && ib >= 0) {
      const pa = ia * 3;
      const pb = ib * 3;
      const ax = ap[pa],
        ay = ap[pa + 1],
        az = ap[pa + 2];
      const dx = bp[pb] - ax,
        dy = bp[pb + 1] - ay,
        dz = bp[pb + 2] - az;
      if (dx * dx + dy * dy + dz * dz > thr2) {
        // Teleport: the nearer frame's transform, unblended.
        if (nearB) copyEntity(b, ib, out, k);
        else copyEntity(a, ia, out, k);
        continue;
      }
      op[o3] = ax + dx * t;
      op[o3 + 1] = ay + dy * t;
      op[o3 + 2] = az + dz * t;
      // Shortest-path slerp: `slerpWithCoefficients` (math/slerp.ts) inlined by hand, kept in the
      // loop for speed (slerp.test.ts checks that the two agree), with two shortcuts: equal
      // rotations are kept as they are, and a small angle (|cos| >= SLERP_SHORT_MIN_COS) evaluates
      // the series' first 4 terms only. Series weights up to SLERP_SERIES_MIN_COS, trigonometry
      // beyond. `seekRows` repeats these steps, so that a seek gives the same bits.
      const qa = ia * 4;
      const qb = ib * 4;
      const x0 = ar[qa],
        y0 = ar[qa + 1],
        z0 = ar[qa + 2],
        w0 = ar[qa + 3];
      let x1 = br[qb],
        y1 = br[qb + 1],
        z1 = br[qb + 2],
        w1 = br[qb + 3];
      of[k] = nearB ? bf[ib] : af[ia];
      if (anyBones && obs[k] >= 0) blendBones(a, ia, b, ib, out, k);
      if (x0 === x1 && y0 === y1 && z0 === z1 && w0 === w1) {
        // The same rotation in both frames (a still entity): kept as it is.
        or[o4] = x0;
        or[o4 + 1] = y0;
        or[o4 + 2] = z0;
        or[o4 + 3] = w0;
        continue;
      }
      let cos = x0 * x1 + y0 * y1 + z0 * z1 + w0 * w1;
      if (cos < 0) {
        cos = -cos;
        x1 = -x1;
        y1 = -y1;
        z1 = -z1;
        w1 = -w1;
      }
      let s0: number;
      let s1: number;
      if (cos >= SLERP_SHORT_MIN_COS) {
        // Rotations close together (nearly every frame step): the series' first 4 terms suffice.
        const y = cos - 1;
        const y2 = y * y;
        s1 = t0 + t1 * y + (t2 + t3 * y) * y2;
        s0 = u0 + u1 * y + (u2 + u3 * y) * y2;
      } else if (cos >= SLERP_SERIES_MIN_COS) {
        // Estrin's scheme: shorter dependency chains than Horner.
        const y = cos - 1;
        const y2 = y * y;
        const y4 = y2 * y2;
        s1 = t0 + t1 * y + (t2 + t3 * y) * y2 + (t4 + t5 * y + (t6 + t7 * y) * y2) * y4 + (t8 + t9 * y) * (y4 * y4);
        s0 = u0 + u1 * y + (u2 + u3 * y) * y2 + (u4 + u5 * y + (u6 + u7 * y) * y2) * y4 + (u8 + u9 * y) * (y4 * y4);
      } else {
        const theta = Math.acos(cos);
        const inv = 1 / Math.sin(theta);
        s0 = Math.sin(u * theta) * inv;
        s1 = Math.sin(t * theta) * inv;
      }
      // Exact slerp of unit quaternions is unit; the weights are exact to float32 precision, so no renormalisation.
      or[o4] = s0 * x0 + s1 * x1;
      or[o4 + 1] = s0 * y0 + s1 * y1;
      or[o4 + 2] = s0 * z0 + s1 * z1;
      or[o4 + 3] = s0 * w0 + s1 * w1;
    } else if (ia >= 0) {
      copyEntity(a, ia, out, k);
    } else {
      copyEntity(b, ib, out, k);
    }
  }
}
