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

/**
 * The 2D display state of the sample's `n` rows: row `k` is entity `fromA[k]` of `a` and
 * `fromB[k]` of `b` (-1: absent). Scale and alpha are blended by the current blend when both
 * frames hold display state for the row; visibility and texture come from the nearer frame (or the
 * only one that has the row). A row without display state in the frame it takes it from has none
 * (`display[k]` 0: a binding leaves the object's own). `fromB` null: the rows are `a`'s, as decoded.
 */
export function sampleDisplay(
  a: EntityBuffer,
  b: EntityBuffer,
  fromA: Int32Array,
  fromB: Int32Array | null,
  n: number,
  out: SampleBuffer,
): void {
  out.hasDisplay = a.hasDisplay || b.hasDisplay;
  if (!out.hasDisplay) return;
  out.ensureDisplay(n);
  const t = seriesCoef[BLEND_T];
  const nearB = t >= 0.5;
  const od = out.display;
  const os = out.scales;
  const oa = out.alphas;
  const ot = out.textures;
  for (let k = 0; k < n; k++) {
    const ia = fromB === null ? k : fromA[k];
    const ib = fromB === null ? -1 : fromB[k];
    const da = ia >= 0 && a.hasDisplay ? a.display[ia] : 0;
    const db = ib >= 0 && b.hasDisplay ? b.display[ib] : 0;
    // The nearer frame that holds the row gives visibility and texture.
    const useB = ib >= 0 && (ia < 0 || nearB);
    const src = useB ? b : a;
    const i = useB ? ib : ia;
    const d = useB ? db : da;
    od[k] = d;
    if (d === 0) continue;
    ot[k] = src.textures[i];
    if (da !== 0 && db !== 0) {
      const sa = a.scales;
      const sb = b.scales;
      const x = sa[ia * 2];
      const y = sa[ia * 2 + 1];
      os[k * 2] = x + (sb[ib * 2] - x) * t;
      os[k * 2 + 1] = y + (sb[ib * 2 + 1] - y) * t;
      const al = a.alphas[ia];
      oa[k] = al + (b.alphas[ib] - al) * t;
    } else {
      os[k * 2] = src.scales[i * 2];
      os[k * 2 + 1] = src.scales[i * 2 + 1];
      oa[k] = src.alphas[i];
    }
  }
}
