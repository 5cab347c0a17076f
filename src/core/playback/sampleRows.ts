import { SLERP_COEF_LENGTH, SLERP_T, slerpWithCoefficients } from '../math/slerp';
import type { EntityBuffer } from '../read/buffers';
import type { SampleBuffer } from './SampleBuffer';

/**
 * The sampler's rows: one entity copied from a decoded frame into a `SampleBuffer` row, or its bones
 * blended between two frames, by the current blend (`seriesCoef`). `Sampler` finds, decodes and
 * matches the two frames and blends the transforms in its own loop; these are the pieces it calls
 * per row. Internal to the sampler.
 */

/**
 * The current blend: the slerp coefficients for the blend factor at `seriesCoef[BLEND_T]` (see
 * `math/slerp.ts`). The blend factor travels through this array rather than as an argument: a
 * double passed to a function the engine does not inline is boxed, and the sample path must not
 * allocate.
 */
export const seriesCoef = new Float64Array(SLERP_COEF_LENGTH);
export const BLEND_T = SLERP_T;

/** Copies entity `i` of a decoded frame (transform, flags, bones) into row `k`. */
export function copyEntity(src: EntityBuffer, i: number, out: SampleBuffer, k: number): void {
  const sp = src.positions;
  const sr = src.rotations;
  const op = out.positions;
  const or = out.rotations;
  const p = i * 3;
  const q = i * 4;
  const o3 = k * 3;
  const o4 = k * 4;
  op[o3] = sp[p];
  op[o3 + 1] = sp[p + 1];
  op[o3 + 2] = sp[p + 2];
  or[o4] = sr[q];
  or[o4 + 1] = sr[q + 1];
  or[o4 + 2] = sr[q + 2];
  or[o4 + 3] = sr[q + 3];
  out.flags[k] = src.flags[i];
  if (out.boneStart[k] >= 0) {
    if (src.boneStart[i] >= 0) copyBones(src, i, out, k);
    else out.boneCount[k] = 0;
  }
}

/** Copies the bones of entity `i` into row `k`'s bone slots (which reserve at least that many). */
export function copyBones(src: EntityBuffer, i: number, out: SampleBuffer, k: number): void {
  const c = src.boneCount[i];
  const s = src.boneStart[i];
  const d = out.boneStart[k];
  out.boneCount[k] = c;
  const sr = src.boneRotations;
  const so = src.boneOffsets;
  const dr = out.boneRotations;
  const dof = out.boneOffsets;
  for (let j = 0; j < c * 4; j++) dr[d * 4 + j] = sr[s * 4 + j];
  for (let j = 0; j < c * 3; j++) dof[d * 3 + j] = so[s * 3 + j];
}

/**
 * Bones of a row in both frames: blended bone by bone when both frames hold the same bone count;
 * otherwise the nearer frame's bones (or the only frame's that has any).
 */
export function blendBones(
  a: EntityBuffer,
  ia: number,
  b: EntityBuffer,
  ib: number,
  out: SampleBuffer,
  k: number,
): void {
  const t = seriesCoef[BLEND_T];
  const sa = a.boneStart[ia];
  const sb = b.boneStart[ib];
  const ca = sa >= 0 ? a.boneCount[ia] : 0;
  const cb = sb >= 0 ? b.boneCount[ib] : 0;
  if (ca !== cb) {
    const useB = cb > 0 && (t >= 0.5 || ca === 0);
    if (useB) copyBones(b, ib, out, k);
    else copyBones(a, ia, out, k);
    return;
  }
  const d = out.boneStart[k];
  out.boneCount[k] = ca;
  const ar = a.boneRotations;
  const br = b.boneRotations;
  const dr = out.boneRotations;
  for (let j = 0; j < ca; j++) slerpWithCoefficients(seriesCoef, ar, (sa + j) * 4, br, (sb + j) * 4, dr, (d + j) * 4);
  const ao = a.boneOffsets;
  const bo = b.boneOffsets;
  const dof = out.boneOffsets;
  for (let j = 0; j < ca * 3; j++) {
    const x = ao[sa * 3 + j];
    dof[d * 3 + j] = x + (bo[sb * 3 + j] - x) * t;
  }
}
