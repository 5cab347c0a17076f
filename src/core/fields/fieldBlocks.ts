import {
  BLOCK_HEADER_WORDS as BLOCK_HEADER_WORDS_,
  BLOCK_LISTED as BLOCK_LISTED_,
  columnWords,
  ENUM_NONE as ENUM_NONE_,
  FIELD_BOOL as FIELD_BOOL_,
  FIELD_ENTITY as FIELD_ENTITY_,
  FIELD_ENUM as FIELD_ENUM_,
  FIELD_F32 as FIELD_F32_,
  FIELD_I32 as FIELD_I32_,
  FIELD_U8 as FIELD_U8_,
  FIELD_VEC3 as FIELD_VEC3_,
  MAX_FIELDS_PER_KIND,
} from './fieldLayout';
import type { FieldFn } from '../kernel/EntityKernel';
import type { FieldRawPool } from './FieldRawPool';
import { repairI32, repairU8 } from './fieldRepair';
import type { FieldRows } from './FieldRows';

// Local copies of the layout constants: hot loops then read plain locals, not module bindings
// (which some loaders, e.g. tsx and vitest, turn into getters).
const BLOCK_HEADER_WORDS = BLOCK_HEADER_WORDS_;
const BLOCK_LISTED = BLOCK_LISTED_;
const ENUM_NONE = ENUM_NONE_;
const FIELD_BOOL = FIELD_BOOL_;
const FIELD_ENTITY = FIELD_ENTITY_;
const FIELD_ENUM = FIELD_ENUM_;
const FIELD_F32 = FIELD_F32_;
const FIELD_I32 = FIELD_I32_;
const FIELD_U8 = FIELD_U8_;
const FIELD_VEC3 = FIELD_VEC3_;

/** Where a field block is written: the ring's views (see `FieldStage.write`). */
export interface FieldTarget {
  readonly u32: Uint32Array;
  readonly f32: Float32Array;
  readonly u8: Uint8Array;
  /** Frames the ring holds, and its newest (`FieldOrder.assignKindsHeld`). */
  readonly frameCount: number;
  readonly newestFrame: number;
  /** The buffer of the views and their byte offset in it (a `FieldArea` block moves by `copyWithin` when it is its own). */
  readonly buffer: ArrayBufferLike;
  readonly byteOffset: number;
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
  w = writeHeader(u32, w, rows, k, listed, keys, keys[0]);
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
export function packBools(u32: Uint32Array, w: number, bytes: Uint8Array, words: Uint32Array, k: number): number {
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

/**
 * Writes the block header and, for a listed block, the entity index column (`keys`); returns the
 * word after them. `first`: a contiguous block's first entity index.
 */
function writeHeader(
  u32: Uint32Array,
  w: number,
  rows: FieldRows,
  k: number,
  listed: boolean,
  keys: Float64Array | null,
  first: number,
): number {
  u32[w] = rows.schema.index | (listed ? BLOCK_LISTED : 0);
  u32[w + 1] = k;
  u32[w + 2] = listed ? 0 : first;
  w += BLOCK_HEADER_WORDS;
  if (listed && keys !== null) {
    for (let q = 0; q < k; q++) u32[w + q] = keys[q];
    w += k;
  }
  return w;
}

/**
 * Rows converted per tile by `writeRawBlock`: their raw values (20 kB for 10 slots a row) stay in the
 * L1 cache across fields (256 measured faster than 64: fewer loops of a field to start).
 */
const TILE = 256;
/** `writeRawBlock`'s word offset of each field's column (most fields a kind declares). */
const columnAt = new Int32Array(MAX_FIELDS_PER_KIND);

/**
 * Writes a block of rows `0 .. k` of `rows` (block row q is row q; `keys[q]` its entity index in the
 * frame, for a listed block; `first`: a contiguous block's first entity index), every one staged by a per-entity call and not yet converted (`FieldRows.stageRaw`), at
 * word `w` of `t`: each value converted and checked straight into its column, field by field over
 * tiles of rows, repaired as `FieldRows.materialize` repairs it (rows marked in `rowBad`). Returns
 * the values repaired; the block takes `blockWords(types, k, listed)` words.
 */
export function writeRawBlock(
  t: FieldTarget,
  w: number,
  rows: FieldRows,
  k: number,
  listed: boolean,
  keys: Float64Array | null,
  first: number,
  maxId: number,
  pool: FieldRawPool | null = null,
): number {
  const { u32, f32, u8 } = t;
  w = writeHeader(u32, w, rows, k, listed, keys, first);
  const types = rows.schema.types;
  const n = types.length;
  for (let f = 0; f < n; f++) {
    const type = types[f];
    columnAt[f] = w;
    const words = columnWords(type, k);
    // Bits are set one by one, and byte columns end with padding bytes: both start as 0.
    if (type === FIELD_BOOL) u32.fill(0, w, w + words);
    else if (type === FIELD_U8 || type === FIELD_ENUM) u32[w + words - 1] = 0;
    w += words;
  }
  const slotOf = rows.schema.slotOf;
  const slots = rows.schema.slots;
  const names = rows.schema.enumNames.length;
  const raw = rows.raw;
  if (pool?.converts(raw, rows.rowBad, t.buffer)) return convertRawBlock(t, rows, k, maxId, pool);
  let bad = 0;
  const rowBad = rows.rowBad;
  for (let q0 = 0; q0 < k; q0 += TILE) {
    const q1 = q0 + TILE < k ? q0 + TILE : k;
    for (let f = 0; f < n; f++) {
      const type = types[f];
      const o = slotOf[f];
      const c = columnAt[f];
      // One pass converts and stores, summing what tells an invalid value (no branch per value);
      // only a tile and field with one is checked again value by value, and repaired as
      // `FieldRows.materialize` repairs (in this function: a rarely run function would run
      // unoptimised, boxing its doubles).
      let acc = 0;
      if (type === FIELD_F32 || type === FIELD_VEC3) {
        // A vec3's slots x, y, z are consecutive, and so are its columns. x * 0 is 0 when x is finite.
        const axes = type === FIELD_VEC3 ? 3 : 1;
        for (let a = 0; a < axes; a++) {
          const col = c + a * k;
          // Two rows a step, each with its own sum: two chains of additions, not one.
          let q = q0;
          let i = q0 * slots + o + a;
          let acc1 = 0;
          for (; q + 1 < q1; q += 2, i += 2 * slots) {
            const v = Math.fround(raw[i]);
            const v1 = Math.fround(raw[i + slots]);
            f32[col + q] = v;
            f32[col + q + 1] = v1;
            acc += v * 0;
            acc1 += v1 * 0;
          }
          if (q < q1) {
            const v = Math.fround(raw[i]);
            f32[col + q] = v;
            acc += v * 0;
          }
          acc += acc1;
        }
        if (acc !== 0) {
          for (let a = 0; a < axes; a++) {
            const col = c + a * k;
            for (let q = q0, i = q0 * slots + o + a; q < q1; q++, i += slots) {
              const v = Math.fround(raw[i]);
              if (v - v === 0) continue;
              u32[col + q] = 0;
              bad++;
              rowBad[q] = 1;
            }
          }
        }
      } else if (type === FIELD_I32 || type === FIELD_ENTITY) {
        // |v - (v | 0)| is 0 for an int32; an entity id also lies in [-1, maxId).
        const entity = type === FIELD_ENTITY;
        const lo = entity ? -1 : -2147483648;
        const hi = entity ? maxId : 2147483648;
        let q = q0;
        let i = q0 * slots + o;
        let acc1 = 0;
        for (; q + 1 < q1; q += 2, i += 2 * slots) {
          const v = raw[i];
          const v1 = raw[i + slots];
          const x = v | 0;
          const x1 = v1 | 0;
          u32[c + q] = x;
          u32[c + q + 1] = x1;
          acc += Math.abs(v - x) + (x < lo || x >= hi ? 1 : 0);
          acc1 += Math.abs(v1 - x1) + (x1 < lo || x1 >= hi ? 1 : 0);
        }
        if (q < q1) {
          const v = raw[i];
          const x = v | 0;
          u32[c + q] = x;
          acc += Math.abs(v - x) + (x < lo || x >= hi ? 1 : 0);
        }
        acc += acc1;
        if (acc !== 0) {
          for (let q = q0, i = q0 * slots + o; q < q1; q++, i += slots) {
            const v = raw[i];
            if ((v | 0) === v && (!entity || (v >= -1 && v < maxId))) continue;
            u32[c + q] = entity ? -1 : repairI32(v);
            bad++;
            rowBad[q] = 1;
          }
        }
      } else if (type === FIELD_BOOL) {
        for (let q = q0, i = q0 * slots + o; q < q1; q++, i += slots) if (raw[i]) u32[c + (q >>> 5)] |= 1 << (q & 31);
      } else {
        // A byte: |v - (v & 255)| is 0 for an integer in [0, 255]; an enum code also names a name.
        const b = c * 4;
        const u8Type = type === FIELD_U8;
        const hi = u8Type ? 256 : names;
        let q = q0;
        let i = q0 * slots + o;
        let acc1 = 0;
        for (; q + 1 < q1; q += 2, i += 2 * slots) {
          const v = raw[i];
          const v1 = raw[i + slots];
          const x = v & 255;
          const x1 = v1 & 255;
          u8[b + q] = x;
          u8[b + q + 1] = x1;
          acc += Math.abs(v - x) + (x >= hi ? 1 : 0);
          acc1 += Math.abs(v1 - x1) + (x1 >= hi ? 1 : 0);
        }
        if (q < q1) {
          const v = raw[i];
          const x = v & 255;
          u8[b + q] = x;
          acc += Math.abs(v - x) + (x >= hi ? 1 : 0);
        }
        acc += acc1;
        if (acc !== 0) {
          for (let q = q0, i = q0 * slots + o; q < q1; q++, i += slots) {
            const v = raw[i];
            if ((v | 0) === v && v >= 0 && v < hi) continue;
            u8[b + q] = u8Type ? repairU8(v) : ENUM_NONE;
            bad++;
            rowBad[q] = 1;
          }
        }
      }
    }
  }
  return bad;
}

/**
 * `writeRawBlock` through the entity kernel (`pool.convert`, WebAssembly SIMD, four rows a step):
 * the rows and their `rowBad` marks staged in the recorder's buffer (`FieldRawPool`), the block in
 * the frame, one call per column (three for a vec3), which converts, repairs as the JavaScript path
 * does and marks the repaired rows. Returns the values repaired. The columns start at `columnAt`.
 */
function convertRawBlock(t: FieldTarget, rows: FieldRows, k: number, maxId: number, pool: FieldRawPool): number {
  const convert = pool.convert as FieldFn;
  const schema = rows.schema;
  const types = schema.types;
  const slotOf = schema.slotOf;
  const stride = schema.slots * 8;
  const src = rows.raw.byteOffset;
  const marks = rows.rowBad.byteOffset;
  const dst = t.byteOffset;
  const enumHi = schema.enumNames.length - 1;
  let bad = 0;
  for (let f = 0; f < types.length; f++) {
    const type = types[f];
    const c = dst + columnAt[f] * 4;
    const p = src + slotOf[f] * 8;
    if (type === FIELD_VEC3) {
      bad +=
        convert(FIELD_F32, p, stride, k, c, 0, 0, marks) +
        convert(FIELD_F32, p + 8, stride, k, c + k * 4, 0, 0, marks) +
        convert(FIELD_F32, p + 16, stride, k, c + k * 8, 0, 0, marks);
    } else if (type === FIELD_I32) bad += convert(type, p, stride, k, c, -2147483648, 2147483647, marks);
    else if (type === FIELD_ENTITY) bad += convert(type, p, stride, k, c, -1, maxId - 1, marks);
    else if (type === FIELD_U8) bad += convert(type, p, stride, k, c, 0, 255, marks);
    else if (type === FIELD_ENUM) bad += convert(type, p, stride, k, c, 0, enumHi, marks);
    else bad += convert(type, p, stride, k, c, 0, 0, marks);
  }
  return bad;
}
