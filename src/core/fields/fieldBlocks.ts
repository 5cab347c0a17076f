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
 * is row r's entity index in the frame) at word `w` of `t`; returns the word after it. `inOrder`:
 * `order[q]` is q (the rows in staging order, none dropped).
 */
export function writeBlock(
  t: FieldTarget,
  w: number,
  rows: FieldRows,
  k: number,
  listed: boolean,
  order: Int32Array,
  keys: Float64Array,
  inOrder: boolean,
): number {
  const { u32, f32, u8 } = t;
  // Rows in staging order, none dropped (the usual case): columns copy without the order.
  if (inOrder) return writeBlockInOrder(t, w, rows, k, listed, keys);
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

/** Whether typed arrays are little-endian here (byte `i` of a word is its bits `8i .. 8i + 7`). */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * `writeBlock` when block row q is row q: every column copied a 32-bit word at a time from the
 * staging columns' word views (`FieldRows.w32`), an f32 as its bits, four u8 or enum bytes a word,
 * and bools packed from four staged bytes a word (any nonzero byte is true).
 */
function writeBlockInOrder(
  t: FieldTarget,
  w: number,
  rows: FieldRows,
  k: number,
  listed: boolean,
  keys: Float64Array,
): number {
  const { u32, u8 } = t;
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
    const s = rows.w32[f];
    if (type === FIELD_F32 || type === FIELD_I32 || type === FIELD_ENTITY) {
      for (let q = 0; q < k; q++) u32[w + q] = s[q];
      w += k;
    } else if (type === FIELD_VEC3) {
      const y = w + k;
      const z = w + 2 * k;
      for (let q = 0, i = 0; q < k; q++, i += 3) {
        u32[w + q] = s[i];
        u32[y + q] = s[i + 1];
        u32[z + q] = s[i + 2];
      }
      w += 3 * k;
    } else if (type === FIELD_BOOL) {
      w = packBools(u32, w, rows.u8[f], s, k);
    } else {
      const words = (k + 3) >>> 2;
      for (let x = 0; x < words; x++) u32[w + x] = s[x];
      // The padding bytes of the last word are 0 (the staging column holds older rows there).
      for (let b = w * 4 + k, end = (w + words) * 4; b < end; b++) u8[b] = 0;
      w += words;
    }
  }
  return w;
}

/**
 * Packs the first `k` staged bool bytes (`bytes`, viewed as words by `words`: its length a multiple
 * of 32) into bits at word `w` of `u32`; returns the word after them.
 */
function packBools(u32: Uint32Array, w: number, bytes: Uint8Array, words: Uint32Array, k: number): number {
  const out = (k + 31) >>> 5;
  for (let x = 0; x < out; x++) {
    let bits = 0;
    if (LITTLE_ENDIAN) {
      // Eight words of four bytes: each byte folded to its low bit, the four bits gathered.
      for (let j = 0, i = x * 8; j < 8; j++, i++) {
        let v = words[i];
        v |= v >>> 4;
        v |= v >>> 2;
        v |= v >>> 1;
        v &= 0x01010101;
        bits |= ((v | (v >>> 7) | (v >>> 14) | (v >>> 21)) & 0xf) << (j * 4);
      }
    } else {
      for (let b = 0, i = x * 32; b < 32; b++, i++) if (bytes[i] !== 0) bits |= 1 << b;
    }
    const rest = k - x * 32;
    u32[w + x] = rest >= 32 ? bits : bits & ((1 << rest) - 1);
  }
  return w + out;
}
