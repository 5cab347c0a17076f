import { SLERP_COEF_LENGTH, SLERP_T, slerpWithCoefficients } from '../math/slerp';
import type { EntityBuffer } from '../read/buffers';
import type { EntityTable } from '../store/EntityTable';
import { Presence, type SampleBuffer } from './SampleBuffer';

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

/**
 * From this cos θ up (rotations up to 16.2° apart, what a frame step nearly always is), the entity
 * blends evaluate only the first 4 of the series' terms: term k is at most 2^-k (|b_k| ≤ |b_(k-1)|·k/(2k+1)),
 * so with |cos θ - 1| ≤ 0.01 the terms left out add up to less than 6.3e-10 in either weight, far
 * below the float32 precision (1.2e-7) of the whole series.
 */
export const SLERP_SHORT_MIN_COS = 0.99;

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
 * (`display[k]` 0: a binding leaves the object's own). `fromB` null: the rows are `a`'s, as decoded
 * (the match of one frame, `fromA[k]` = k). Called only when `a` or `b` holds display state.
 */
export function sampleDisplay(
  a: EntityBuffer,
  b: EntityBuffer,
  fromA: Int32Array,
  fromB: Int32Array | null,
  n: number,
  out: SampleBuffer,
): void {
  out.hasDisplay = true;
  out.ensureDisplay(n);
  const t = seriesCoef[BLEND_T];
  const nearB = t >= 0.5;
  const od = out.display;
  const os = out.scales;
  const oa = out.alphas;
  const ot = out.textures;
  for (let k = 0; k < n; k++) {
    const ia = fromA[k];
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

/**
 * Rows that depend only on the match (`fromA`/`fromB`, `rows` of them; `single` when both frames
 * are one): handle, id, spawn frame, presence, bone slots. Called once per new match.
 */
export function writeLayout(
  a: EntityBuffer,
  b: EntityBuffer,
  single: boolean,
  fromA: Int32Array,
  fromB: Int32Array,
  rows: number,
  entities: EntityTable,
  out: SampleBuffer,
): void {
  const ids = entities.ids;
  const spawns = entities.spawnFrames;
  let bones = 0;
  if (a.boneTotal === 0 && (single || b.boneTotal === 0)) {
    // No bones in either frame (the usual case): no per-row bone reads, which in B are in random
    // order when the frames' orders differ.
    const ah = a.handles;
    const bh = b.handles;
    const oh = out.handles;
    const oi = out.ids;
    const os = out.spawnFrames;
    const op = out.presence;
    const obs = out.boneStart;
    const obc = out.boneCount;
    for (let k = 0; k < rows; k++) {
      const ia = fromA[k];
      const ib = fromB[k];
      const h = ia >= 0 ? ah[ia] : bh[ib];
      oh[k] = h;
      oi[k] = ids[h];
      os[k] = spawns[h];
      op[k] = single ? Presence.BOTH : (ia >= 0 ? Presence.ONLY_A : 0) | (ib >= 0 ? Presence.ONLY_B : 0);
      obs[k] = -1;
      obc[k] = 0;
    }
    out.ensureBones(0);
    out.boneTotal = 0;
    return;
  }
  for (let k = 0; k < rows; k++) {
    const ia = fromA[k];
    const ib = fromB[k];
    const h = ia >= 0 ? a.handles[ia] : b.handles[ib];
    out.handles[k] = h;
    out.ids[k] = ids[h];
    out.spawnFrames[k] = spawns[h];
    out.presence[k] = single ? Presence.BOTH : (ia >= 0 ? Presence.ONLY_A : 0) | (ib >= 0 ? Presence.ONLY_B : 0);
    const ca = ia >= 0 && a.boneStart[ia] >= 0 ? a.boneCount[ia] : 0;
    const cb = !single && ib >= 0 && b.boneStart[ib] >= 0 ? b.boneCount[ib] : 0;
    const c = ca > cb ? ca : cb;
    if (c > 0) {
      out.boneStart[k] = bones;
      bones += c;
    } else {
      out.boneStart[k] = -1;
    }
    out.boneCount[k] = 0;
  }
  out.ensureBones(bones);
  out.boneTotal = bones;
}

/** t = 0 (integer position or concrete mode): the rows are frame A as decoded. */
export function copyFrame(a: EntityBuffer, out: SampleBuffer): void {
  const n = a.count;
  const ap = a.positions;
  const ar = a.rotations;
  const op = out.positions;
  const or = out.rotations;
  const of = out.flags;
  const af = a.flags;
  for (let i = 0; i < n * 3; i++) op[i] = ap[i];
  for (let i = 0; i < n * 4; i++) or[i] = ar[i];
  for (let i = 0; i < n; i++) of[i] = af[i];
  if (a.boneTotal > 0) {
    for (let i = 0; i < n; i++) if (a.boneStart[i] >= 0) copyBones(a, i, out, i);
  }
}
