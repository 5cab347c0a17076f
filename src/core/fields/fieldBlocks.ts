import type { FieldRows } from './FieldRows';
import {
  BLOCK_HEADER_WORDS as BLOCK_HEADER_WORDS_,
  BLOCK_LISTED as BLOCK_LISTED_,
  FIELD_BOOL as FIELD_BOOL_,
  FIELD_ENTITY as FIELD_ENTITY_,
  FIELD_F32 as FIELD_F32_,
  FIELD_I32 as FIELD_I32_,
  FIELD_VEC3 as FIELD_VEC3_,
} from './fieldLayout';

// Local copies of the layout constants: hot loops then read plain locals, not module bindings
// (which some loaders, e.g. tsx and vitest, turn into getters).
const BLOCK_HEADER_WORDS = BLOCK_HEADER_WORDS_;
const BLOCK_LISTED = BLOCK_LISTED_;
const FIELD_BOOL = FIELD_BOOL_;
const FIELD_ENTITY = FIELD_ENTITY_;
const FIELD_F32 = FIELD_F32_;
const FIELD_I32 = FIELD_I32_;
const FIELD_VEC3 = FIELD_VEC3_;

/** Where a field block is written: the ring's views (see `FieldStage.write`). */
export interface FieldTarget {
  readonly u32: Uint32Array;
  readonly f32: Float32Array;
  readonly u8: Uint8Array;
}

/*
 * Writing one kind's staged rows as a block of the frame's field section (layout in
 * fieldLayout.ts). Internal to the recorder's FieldStage.
 */

/**
 * Writes one block of the first `k` rows of `rows` in `order` (row `order[q]` is block row q; `keys[r]`
 * is row r's entity index in the frame) at word `w` of `t`; returns the word after it.
 */
export function writeBlock(
  t: FieldTarget,
  w: number,
  rows: FieldRows,
  k: number,
  listed: boolean,
  order: Int32Array,
  keys: Float64Array,
): number {
  const { u32, f32, u8 } = t;
  // Rows in staging order, none dropped (the usual case): columns copy without the order.
  let identity = true;
  for (let q = 0; q < k && identity; q++) identity = order[q] === q;
  if (identity) return writeBlockInOrder(t, w, rows, k, listed, keys);
  u32[w] = rows.schema.index | (listed ? BLOCK_LISTED : 0);
  u32[w + 1] = k;
  u32[w + 2] = listed ? 0 : keys[order[0]];
  w += BLOCK_HEADER_WORDS;
  if (listed) {
    for (let q = 0; q < k; q++) u32[w + q] = keys[order[q]];
    w += k;
  }
  const types = rows.schema.types;
  for (let f = 0; f < types.length; f++) {
    const type = types[f];
    if (type === FIELD_F32) {
      const c = rows.f32[f];
      for (let q = 0; q < k; q++) f32[w + q] = c[order[q]];
      w += k;
    } else if (type === FIELD_VEC3) {
      const c = rows.f32[f];
      for (let axis = 0; axis < 3; axis++) {
        for (let q = 0; q < k; q++) f32[w + q] = c[order[q] * 3 + axis];
        w += k;
      }
    } else if (type === FIELD_I32 || type === FIELD_ENTITY) {
      const c = rows.i32[f];
      for (let q = 0; q < k; q++) u32[w + q] = c[order[q]]; // an int32 stored as its bits
      w += k;
    } else if (type === FIELD_BOOL) {
      const words = (k + 31) >>> 5;
      u32.fill(0, w, w + words);
      const c = rows.u8[f];
      for (let q = 0; q < k; q++) if (c[order[q]] !== 0) u32[w + (q >>> 5)] |= 1 << (q & 31);
      w += words;
    } else {
      const words = (k + 3) >>> 2;
      u32[w + words - 1] = 0;
      const c = rows.u8[f];
      const b = w * 4;
      for (let q = 0; q < k; q++) u8[b + q] = c[order[q]];
      w += words;
    }
  }
  return w;
}

/** `writeBlock` when block row q is row q. */
function writeBlockInOrder(
  t: FieldTarget,
  w: number,
  rows: FieldRows,
  k: number,
  listed: boolean,
  keys: Float64Array,
): number {
  const { u32, f32, u8 } = t;
  u32[w] = rows.schema.index | (listed ? BLOCK_LISTED : 0);
  u32[w + 1] = k;
  u32[w + 2] = listed ? 0 : keys[0];
  w += BLOCK_HEADER_WORDS;
  if (listed) {
    for (let q = 0; q < k; q++) u32[w + q] = keys[q];
    w += k;
  }
  const types = rows.schema.types;
  for (let f = 0; f < types.length; f++) {
    const type = types[f];
    if (type === FIELD_F32) {
      const c = rows.f32[f];
      for (let q = 0; q < k; q++) f32[w + q] = c[q];
      w += k;
    } else if (type === FIELD_VEC3) {
      const c = rows.f32[f];
      for (let q = 0; q < k; q++) {
        f32[w + q] = c[q * 3];
        f32[w + k + q] = c[q * 3 + 1];
        f32[w + 2 * k + q] = c[q * 3 + 2];
      }
      w += 3 * k;
    } else if (type === FIELD_I32 || type === FIELD_ENTITY) {
      const c = rows.i32[f];
      for (let q = 0; q < k; q++) u32[w + q] = c[q];
      w += k;
    } else if (type === FIELD_BOOL) {
      const words = (k + 31) >>> 5;
      const c = rows.u8[f];
      for (let x = 0; x < words; x++) {
        let bits = 0;
        const end = Math.min(32, k - x * 32);
        for (let b = 0; b < end; b++) bits |= (c[x * 32 + b] & 1) << b;
        u32[w + x] = bits;
      }
      w += words;
    } else {
      const words = (k + 3) >>> 2;
      u32[w + words - 1] = 0;
      const c = rows.u8[f];
      const b = w * 4;
      for (let q = 0; q < k; q++) u8[b + q] = c[q];
      w += words;
    }
  }
  return w;
}
