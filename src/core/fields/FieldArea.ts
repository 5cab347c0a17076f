import type { FieldTarget } from './fieldBlocks';
import { packBools } from './fieldBlocks';
import {
  BLOCK_HEADER_WORDS as BLOCK_HEADER_WORDS_,
  columnWords,
  ENUM_NONE as ENUM_NONE_,
  FIELD_BOOL as FIELD_BOOL_,
  FIELD_ENTITY as FIELD_ENTITY_,
  FIELD_ENUM as FIELD_ENUM_,
  FIELD_F32 as FIELD_F32_,
  FIELD_I32 as FIELD_I32_,
  FIELD_VEC3 as FIELD_VEC3_,
} from './fieldLayout';
import type { FieldRows } from './FieldRows';

// Local copies of the layout constants: hot loops then read plain locals, not module bindings
// (which some loaders, e.g. tsx and vitest, turn into getters).
const BLOCK_HEADER_WORDS = BLOCK_HEADER_WORDS_;
const ENUM_NONE = ENUM_NONE_;
const FIELD_BOOL = FIELD_BOOL_;
const FIELD_ENTITY = FIELD_ENTITY_;
const FIELD_ENUM = FIELD_ENUM_;
const FIELD_F32 = FIELD_F32_;
const FIELD_I32 = FIELD_I32_;
const FIELD_VEC3 = FIELD_VEC3_;

/** Where a `FieldArea` lives: `bytes` bytes at `byteOffset` (a multiple of 8) of `buffer`. */
export interface FieldAreaStorage {
  readonly buffer: ArrayBufferLike;
  readonly byteOffset: number;
  readonly bytes: number;
}

/**
 * The recorder's field area: the blocks of the open frame's columns calls (`Recorder.fieldColumns`)
 * staged in their final layout (fieldLayout.ts), so that `endFrame` moves each into the frame with
 * one `copyWithin` when the area shares its buffer with the arena (the recorder places it right
 * after the arena), instead of copying column by column.
 *
 * `stage` takes a columns call whose columns are all typed arrays of their field's own type (a
 * Float32Array for f32 and vec3, an Int32Array for i32 and entity, a Uint8Array for u8, bool and
 * enum, none much longer than needed): each column is block-copied (`TypedArray.set`) to its place,
 * then checked in one pass where its type can be invalid (non-finite floats, enum codes without a
 * name, entity ids outside `[-1, maxEntityId)`); vec3 is moved from x, y, z rows to columns in one
 * pass that also checks, and bools are packed to bits from a copy in the staging byte column. A copy longer than its column spills into the columns
 * after it, which are written later; the area keeps room for the spill of the last.
 *
 * Internal to the recorder (its `FieldStage`).
 *
 * @example
 * const area = new FieldArea({ buffer, byteOffset, bytes: 1 << 16 });
 * area.begin(); // beginFrame
 * const bad = area.stage(rows, count, columns, maxEntityId); // -1: not this path
 * area.copyOut(rows, first, ring, w); // endFrame: the block, its rows entities first.. of the frame
 */
export class FieldArea {
  /** The area as words, floats and bytes. */
  public readonly u32: Uint32Array;
  public readonly f32: Float32Array;
  public readonly i32: Int32Array;
  public readonly u8: Uint8Array;
  /** Size of the area in words. */
  public readonly words: number;
  /** Words taken by the open frame's blocks. */
  public used = 0;
  /** The whole buffer as words (`copyWithin` moves a block from the area into the arena). */
  private readonly all: Uint32Array;
  /** The area's first word in `all`. */
  private readonly base: number;
  private readonly buffer: ArrayBufferLike;

  /** `storage` defaults to a buffer of its own of 64 kB (blocks then move word by word). */
  public constructor(storage?: FieldAreaStorage) {
    const s = storage ?? { buffer: new ArrayBuffer(1 << 16), byteOffset: 0, bytes: 1 << 16 };
    this.buffer = s.buffer;
    this.words = s.bytes >>> 2;
    this.u32 = new Uint32Array(s.buffer, s.byteOffset, this.words);
    this.f32 = new Float32Array(s.buffer, s.byteOffset, this.words);
    this.i32 = new Int32Array(s.buffer, s.byteOffset, this.words);
    this.u8 = new Uint8Array(s.buffer, s.byteOffset, this.words * 4);
    this.all = new Uint32Array(s.buffer, 0, s.buffer.byteLength >>> 2);
    this.base = s.byteOffset >>> 2;
  }

  /** Starts a frame with no block staged. */
  public begin(): void {
    this.used = 0;
  }

  /**
   * Stages rows `0 .. count` of `rows` (its first rows of the frame, staged entities in order) from
   * `columns` as a block of the area (`rows.directAt`, `rows.directRows`); returns the values
   * repaired, or -1 when a column does not qualify or the block does not fit (nothing written).
   */
  public stage(rows: FieldRows, count: number, columns: ArrayLike<ArrayLike<number>>, maxEntityId: number): number {
    const types = rows.schema.types;
    const n = types.length;
    if (columns.length < n) return -1;
    const at = this.used;
    // Where each copy reaches: a column longer than its rows spills into the next ones.
    let p = at + BLOCK_HEADER_WORDS;
    let reach = p;
    for (let f = 0; f < n; f++) {
      const t = types[f];
      const col = columns[f];
      const per = t === FIELD_VEC3 ? 3 : 1;
      if (col === null || typeof col !== 'object' || !ArrayBuffer.isView(col)) return -1;
      const len = col.length;
      if (len < count * per || len > 2 * count * per + 64) return -1;
      if (t === FIELD_F32 || t === FIELD_VEC3) {
        if (!(col instanceof Float32Array)) return -1;
        if (t === FIELD_F32 && p + len > reach) reach = p + len;
      } else if (t === FIELD_I32 || t === FIELD_ENTITY) {
        if (!(col instanceof Int32Array)) return -1;
        if (p + len > reach) reach = p + len;
      } else {
        if (!(col instanceof Uint8Array)) return -1;
        if (t !== FIELD_BOOL && p + ((len + 3) >>> 2) > reach) reach = p + ((len + 3) >>> 2);
      }
      p += columnWords(t, count);
    }
    if (p > reach) reach = p;
    if (reach > this.words) return -1;
    let bad = 0;
    p = at + BLOCK_HEADER_WORDS;
    for (let f = 0; f < n; f++) {
      const t = types[f];
      const col = columns[f];
      if (t === FIELD_F32) {
        this.f32.set(col as Float32Array, p);
        bad += this.checkFloats(p, count);
        p += count;
      } else if (t === FIELD_VEC3) {
        bad += this.stageVec3(col as Float32Array, p, count);
        p += 3 * count;
      } else if (t === FIELD_I32) {
        this.i32.set(col as Int32Array, p);
        p += count;
      } else if (t === FIELD_ENTITY) {
        this.i32.set(col as Int32Array, p);
        bad += this.checkEntities(p, count, maxEntityId);
        p += count;
      } else if (t === FIELD_BOOL) {
        // Packed from a copy in the staging byte column (whole words, any nonzero byte true).
        rows.grow(col.length);
        rows.u8[f].set(col as Uint8Array);
        p = packBools(this.u32, p, rows.u8[f], rows.w32[f], count);
      } else {
        const words = (count + 3) >>> 2;
        const b = p * 4;
        this.u8.set(col as Uint8Array, b);
        if (t === FIELD_ENUM) bad += this.checkEnums(b, count, rows.schema.enumNames.length);
        // Padding bytes 0 (the copy, or an earlier column's spill, may have left values there).
        for (let i = b + count, end = (p + words) * 4; i < end; i++) this.u8[i] = 0;
        p += words;
      }
    }
    rows.directAt = at;
    rows.directRows = count;
    this.used = p;
    return bad;
  }

  /** Non-finite floats of the `count` words at `p` become 0; returns how many. */
  private checkFloats(p: number, count: number): number {
    const f32 = this.f32;
    // A float is finite when x * 0 is 0: one pass, no branch per value, four sums so that each
    // addition need not wait for the one before.
    let a = 0;
    let b = 0;
    let c = 0;
    let d = 0;
    let i = p;
    const end = p + count;
    for (; i + 3 < end; i += 4) {
      a += f32[i] * 0;
      b += f32[i + 1] * 0;
      c += f32[i + 2] * 0;
      d += f32[i + 3] * 0;
    }
    for (; i < end; i++) a += f32[i] * 0;
    if (a + b + c + d === 0) return 0;
    let bad = 0;
    for (let j = p; j < end; j++) {
      if (f32[j] - f32[j] !== 0) {
        this.u32[j] = 0;
        bad++;
      }
    }
    return bad;
  }

  /** Entity ids of the `count` words at `p` outside `[-1, maxId)` become -1; returns how many. */
  private checkEntities(p: number, count: number, maxId: number): number {
    const i32 = this.i32;
    let bad = 0;
    for (let i = p, end = p + count; i < end; i++) {
      const v = i32[i];
      if (v < -1 || v >= maxId) {
        i32[i] = -1;
        bad++;
      }
    }
    return bad;
  }

  /** Enum codes of the `count` bytes at byte `b` without a name (`>= names`) become `ENUM_NONE`; returns how many. */
  private checkEnums(b: number, count: number, names: number): number {
    const u8 = this.u8;
    let bad = 0;
    for (let i = b, end = b + count; i < end; i++) {
      if (u8[i] >= names) {
        u8[i] = ENUM_NONE;
        bad++;
      }
    }
    return bad;
  }

  /**
   * Moves a vec3 column (x, y, z per row) to the x, y and z columns at word `p`, non-finite
   * components as 0; returns how many. A float32 read and written back keeps its bits (a NaN, the
   * one exception, is repaired anyway).
   */
  private stageVec3(col: Float32Array, p: number, count: number): number {
    const f = this.f32;
    const y = p + count;
    const z = p + 2 * count;
    // x * 0 is 0 when x is finite; three sums, one per axis.
    let ax = 0;
    let ay = 0;
    let az = 0;
    for (let q = 0, i = 0; q < count; q++, i += 3) {
      const a = col[i];
      const b = col[i + 1];
      const c = col[i + 2];
      f[p + q] = a;
      f[y + q] = b;
      f[z + q] = c;
      ax += a * 0;
      ay += b * 0;
      az += c * 0;
    }
    if (ax + ay + az === 0) return 0;
    let bad = 0;
    const u = this.u32;
    for (let i = p, end = p + 3 * count; i < end; i++) {
      if ((u[i] & 0x7f800000) === 0x7f800000) {
        u[i] = 0;
        bad++;
      }
    }
    return bad;
  }

  /**
   * Writes the block of `rows` (staged by `stage`) at word `w` of `t`, its rows the frame's entities
   * `first ..`: one `copyWithin` when `t` shares the area's buffer. Returns the words written.
   */
  public copyOut(rows: FieldRows, first: number, t: FieldTarget, w: number): number {
    const at = rows.directAt;
    const u = this.u32;
    u[at] = rows.schema.index;
    u[at + 1] = rows.directRows;
    u[at + 2] = first;
    const words = blockWordsOf(rows);
    if (t.buffer === this.buffer) {
      const src = this.base + at;
      this.all.copyWithin((t.byteOffset >>> 2) + w, src, src + words);
    } else {
      const out = t.u32;
      for (let i = 0; i < words; i++) out[w + i] = u[at + i];
    }
    return words;
  }

  /**
   * Moves the block of `rows` back into its staging columns (rows `0 .. directRows`) and forgets
   * it: the frame needs the general path (more rows for the kind, rows dropped, over budget).
   */
  public unpack(rows: FieldRows): void {
    const c = rows.directRows;
    const types = rows.schema.types;
    const u = this.u32;
    let p = rows.directAt + BLOCK_HEADER_WORDS;
    for (let f = 0; f < types.length; f++) {
      const t = types[f];
      const s = rows.w32[f];
      if (t === FIELD_VEC3) {
        for (let i = 0; i < c; i++) {
          s[3 * i] = u[p + i];
          s[3 * i + 1] = u[p + c + i];
          s[3 * i + 2] = u[p + 2 * c + i];
        }
        p += 3 * c;
      } else if (t === FIELD_F32 || t === FIELD_I32 || t === FIELD_ENTITY) {
        for (let i = 0; i < c; i++) s[i] = u[p + i];
        p += c;
      } else if (t === FIELD_BOOL) {
        const b = rows.u8[f];
        for (let i = 0; i < c; i++) b[i] = (u[p + (i >>> 5)] >>> (i & 31)) & 1;
        p += (c + 31) >>> 5;
      } else {
        const b = rows.u8[f];
        for (let i = 0; i < c; i++) b[i] = this.u8[p * 4 + i];
        p += (c + 3) >>> 2;
      }
    }
    rows.directAt = -1;
    rows.directRows = 0;
  }
}

/** Words of the contiguous block of `rows`' staged area rows. */
function blockWordsOf(rows: FieldRows): number {
  const types = rows.schema.types;
  let w = BLOCK_HEADER_WORDS;
  for (let f = 0; f < types.length; f++) w += columnWords(types[f], rows.directRows);
  return w;
}
