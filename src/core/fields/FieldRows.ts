import {
  ENUM_NONE as ENUM_NONE_,
  FIELD_BOOL as FIELD_BOOL_,
  FIELD_ENTITY as FIELD_ENTITY_,
  FIELD_ENUM as FIELD_ENUM_,
  FIELD_F32 as FIELD_F32_,
  FIELD_I32 as FIELD_I32_,
  FIELD_U8 as FIELD_U8_,
  FIELD_VEC3 as FIELD_VEC3_,
} from './fieldLayout';
import { repairI32, repairU8 } from './fieldRepair';
import { FieldRawPool } from './FieldRawPool';
import type { FieldSchema } from './FieldSchema';

// Local copies of the layout constants: hot loops then read plain locals, not module bindings
// (which some loaders, e.g. tsx and vitest, turn into getters).
const ENUM_NONE = ENUM_NONE_;
const FIELD_BOOL = FIELD_BOOL_;
const FIELD_ENTITY = FIELD_ENTITY_;
const FIELD_ENUM = FIELD_ENUM_;
const FIELD_F32 = FIELD_F32_;
const FIELD_I32 = FIELD_I32_;
const FIELD_U8 = FIELD_U8_;
const FIELD_VEC3 = FIELD_VEC3_;

const fr = Math.fround;

/**
 * The staged rows of one field schema in the open frame: each row's staged entity index and one
 * typed column per field (f32 and vec3 in float32 columns, vec3 interleaved x, y, z; i32 and entity
 * in int32 columns; u8, bool and enum in byte columns), validated as they are written. Columns grow
 * by doubling, only past their largest size so far.
 *
 * Internal to the recorder.
 *
 * Size: over 450 lines, one rule in four shapes: `materialize` (deferred rows, field by field),
 * `writeRow`, `writeColumn` and `writeColumnBlock` each convert and repair every field type the
 * same way, in loops with the type known and nothing called per value, into columns this class
 * owns and grows. Splitting them would put that rule, and the columns, in two files.
 *
 * @example
 * const rows = new FieldRows(schema, 64, 1 << 24);
 * const bad = rows.writeRow(rows.add(entityIndex), values, 0); // values repaired, counted in bad
 */
export class FieldRows {
  /** Rows staged this frame. */
  public count = 0;
  /** The schema's kind index in the entity table (-1 until first needed). */
  public kindIndex = -1;
  /** Staged entity index of each row. */
  public rows: Int32Array;
  /** Float columns of f32 and vec3 fields (empty for others). */
  public readonly f32: Float32Array[];
  /** Int columns of i32 and entity fields. */
  public readonly i32: Int32Array[];
  /** Byte columns of u8, bool and enum fields (their length a multiple of 32; a bool byte is true when nonzero). */
  public readonly u8: Uint8Array[];
  /**
   * Each column's bytes as 32-bit words (made when the column is): `endFrame` copies a column
   * into the frame a word at a time, 4 bytes of a byte column or one f32 as its bits.
   */
  public readonly w32: Uint32Array[];
  private readonly types: Uint8Array;
  private readonly slots: number;
  private static readonly EMPTY_F = new Float32Array(0);
  private static readonly EMPTY_I = new Int32Array(0);
  private static readonly EMPTY_B = new Uint8Array(0);

  public constructor(
    public readonly schema: FieldSchema,
    capacity: number,
    private readonly maxEntityId: number,
    private readonly pool: FieldRawPool = FieldRows.NO_POOL,
  ) {
    this.types = schema.types;
    this.rows = new Int32Array(capacity);
    this.slots = schema.slots;
    this.raw = pool.take(capacity * schema.slots);
    this.isRaw = new Uint8Array(capacity);
    this.rowBad = pool.takeBytes(capacity);
    this.f32 = [];
    this.i32 = [];
    this.u8 = [];
    this.w32 = [];
    for (let f = 0; f < this.types.length; f++) {
      this.f32.push(FieldRows.EMPTY_F);
      this.i32.push(FieldRows.EMPTY_I);
      this.u8.push(FieldRows.EMPTY_B);
      this.w32.push(FieldRows.EMPTY_W);
      this.makeColumn(f, capacity, false);
    }
  }

  private static readonly EMPTY_W = new Uint32Array(0);
  /** Rows staged in arrays of their own (converted in JavaScript). */
  private static readonly NO_POOL = new FieldRawPool();

  /** (Re)allocates column `f` for `cap` rows, keeping its values when `keep`, with its word view. */
  private makeColumn(f: number, cap: number, keep: boolean): void {
    const t = this.types[f];
    if (t === FIELD_F32 || t === FIELD_VEC3) {
      const c = new Float32Array(cap * (t === FIELD_VEC3 ? 3 : 1));
      if (keep) c.set(this.f32[f]);
      this.f32[f] = c;
      this.w32[f] = new Uint32Array(c.buffer);
    } else if (t === FIELD_I32 || t === FIELD_ENTITY) {
      const c = new Int32Array(cap);
      if (keep) c.set(this.i32[f]);
      this.i32[f] = c;
      this.w32[f] = new Uint32Array(c.buffer);
    } else {
      // Whole words of 32 bytes: bools are packed from 8 words at a time.
      const c = new Uint8Array((cap + 31) & ~31);
      if (keep) c.set(this.u8[f]);
      this.u8[f] = c;
      this.w32[f] = new Uint32Array(c.buffer);
    }
  }

  /**
   * Per-entity rows as given (`stageRaw`): `slots` doubles a row, converted and checked column by
   * column at `endFrame` (`materialize`, or `writeRawBlock` straight into the frame), which is much
   * cheaper than a type dispatch per value in the call. `isRaw[r]`: row r is here, not yet in the
   * typed columns.
   */
  public raw: Float64Array;
  public isRaw: Uint8Array;
  /** Rows whose values `materialize` repaired (their entity gets `SANITIZED`). */
  public rowBad: Uint8Array;
  /** Rows staged by `stageRaw` and not yet moved into the typed columns. */
  public rawCount = 0;
  /**
   * Rows `0 .. directRows` live in a block of the recorder's field area (`FieldArea.stage`), at
   * word `directAt` there (-1: none), not in the typed columns.
   */
  public directAt = -1;
  public directRows = 0;
  /** Staged entity index of the area block's row 0 (its rows are entities `directStart ..`). */
  public directStart = 0;
  /**
   * The area block's rows are not yet written in `rows` and the stage's per-entity marks
   * (`FieldStage.markRows` writes them when anything but the block's one copy needs them).
   */
  public unmarked = false;

  /**
   * A run of per-entity rows (`copyRaw`): rows `0 .. count` are staged entities
   * `runNext - count .. runNext`, their values in `raw`, and neither `rows`, `isRaw`, `rawCount` nor
   * the stage's marks are written yet (`endRun`). -1: no run.
   */
  public runNext = -1;

  /** Ends the run: its rows become raw rows (`isRaw`, `rawCount`; the caller writes `rows`). */
  public endRun(): void {
    const c = this.count;
    this.isRaw.fill(1, 0, c);
    this.rawCount = c;
    this.runNext = -1;
  }

  /**
   * The handles of the lives of the block this kind last wrote whole (`FieldOrder.assignKindsHeld`),
   * `kindsCount` of them, each known to have a kind; written at the `kindsWrite`-th `write` of its
   * stage, in frame `kindsFrame` (-1: unknown).
   */
  public kindsKnown = new Int32Array(0);
  public kindsCount = 0;
  public kindsWrite = -2;
  public kindsFrame = -1;

  /** Forgets the staged rows. */
  public reset(): void {
    this.runNext = -1;
    this.isRaw.fill(0, 0, this.count);
    this.rowBad.fill(0, 0, this.count);
    this.count = 0;
    this.rawCount = 0;
    this.directAt = -1;
    this.directRows = 0;
    this.unmarked = false;
  }

  /** Copies `values` (one slot a component) as row `r`, unchecked until `materialize`. */
  public stageRaw(r: number, values: ArrayLike<number>): void {
    const slots = this.slots;
    const raw = this.raw;
    const o = r * slots;
    for (let k = 0; k < slots; k++) raw[o + k] = values[k];
    if (this.isRaw[r] === 0) {
      this.isRaw[r] = 1;
      this.rawCount++;
    }
  }

  /** Copies `values` (one slot a component) as row `r` of a run (`runNext`): only the values. */
  public copyRaw(r: number, values: ArrayLike<number>): void {
    const slots = this.slots;
    const raw = this.raw;
    const o = r * slots;
    let k = 0;
    for (; k + 4 <= slots; k += 4) {
      raw[o + k] = values[k];
      raw[o + k + 1] = values[k + 1];
      raw[o + k + 2] = values[k + 2];
      raw[o + k + 3] = values[k + 3];
    }
    for (; k < slots; k++) raw[o + k] = values[k];
  }

  /** Moves raw row `r` into the typed columns now (a columns call is about to write some of its fields). */
  public materializeRow(r: number): number {
    if (this.isRaw[r] === 0) return 0;
    this.isRaw[r] = 0;
    this.rawCount--;
    const bad = this.writeRow(r, this.raw, r * this.slots);
    if (bad > 0) this.rowBad[r] = 1;
    return bad;
  }

  /**
   * Converts every raw row into the typed columns, field by field (one tight loop per field, its
   * type known), repairing invalid values as `writeRow` does and marking their rows in `rowBad`.
   * Returns the values repaired.
   */
  public materialize(): number {
    if (this.rawCount === 0) return 0;
    const n = this.count;
    const slots = this.slots;
    const raw = this.raw;
    const isRaw = this.isRaw;
    const rowBad = this.rowBad;
    const types = this.types;
    const slotOf = this.schema.slotOf;
    const names = this.schema.enumNames.length;
    const maxId = this.maxEntityId;
    let bad = 0;
    for (let f = 0; f < types.length; f++) {
      const t = types[f];
      const o = slotOf[f];
      if (t === FIELD_F32) {
        const c = this.f32[f];
        for (let r = 0; r < n; r++) {
          if (isRaw[r] === 0) continue;
          const v = fr(raw[r * slots + o]);
          if (v - v === 0) c[r] = v;
          else {
            c[r] = 0;
            bad++;
            rowBad[r] = 1;
          }
        }
      } else if (t === FIELD_VEC3) {
        const c = this.f32[f];
        for (let r = 0; r < n; r++) {
          if (isRaw[r] === 0) continue;
          for (let k = 0; k < 3; k++) {
            const v = fr(raw[r * slots + o + k]);
            if (v - v === 0) c[r * 3 + k] = v;
            else {
              c[r * 3 + k] = 0;
              bad++;
              rowBad[r] = 1;
            }
          }
        }
      } else if (t === FIELD_I32 || t === FIELD_ENTITY) {
        const c = this.i32[f];
        const entity = t === FIELD_ENTITY;
        for (let r = 0; r < n; r++) {
          if (isRaw[r] === 0) continue;
          const v = raw[r * slots + o];
          if ((v | 0) === v && (!entity || (v >= -1 && v < maxId))) c[r] = v;
          else {
            c[r] = entity ? -1 : repairI32(v);
            bad++;
            rowBad[r] = 1;
          }
        }
      } else {
        const c = this.u8[f];
        for (let r = 0; r < n; r++) {
          if (isRaw[r] === 0) continue;
          const v = raw[r * slots + o];
          if (t === FIELD_BOOL) c[r] = v ? 1 : 0;
          else if (t === FIELD_U8) {
            if ((v & 255) === v) c[r] = v;
            else {
              c[r] = repairU8(v);
              bad++;
              rowBad[r] = 1;
            }
          } else if ((v | 0) === v && v >= 0 && v < names) c[r] = v;
          else {
            c[r] = ENUM_NONE;
            bad++;
            rowBad[r] = 1;
          }
        }
      }
    }
    for (let r = 0; r < n; r++) isRaw[r] = 0;
    this.rawCount = 0;
    return bad;
  }

  /** Adds a row for staged entity `index` and returns it. */
  public add(index: number): number {
    const r = this.count;
    if (r >= this.rows.length) this.grow(r + 1);
    this.rows[r] = index;
    this.count = r + 1;
    return r;
  }

  /** Makes room for `rows` rows. */
  public grow(rows: number): void {
    let cap = this.rows.length;
    if (rows <= cap) return;
    while (cap < rows) cap *= 2;
    const r = new Int32Array(cap);
    r.set(this.rows);
    this.rows = r;
    const raw = this.pool.take(cap * this.slots);
    raw.set(this.raw);
    this.raw = raw;
    const isRaw = new Uint8Array(cap);
    isRaw.set(this.isRaw);
    this.isRaw = isRaw;
    const rowBad = this.pool.takeBytes(cap);
    rowBad.set(this.rowBad);
    this.rowBad = rowBad;
    for (let f = 0; f < this.types.length; f++) this.makeColumn(f, cap, true);
  }

  /**
   * Writes row `r` from `values` (one slot per component, from slot `o`); returns how many values
   * were repaired. No double is passed to a call on the valid path.
   */
  public writeRow(r: number, values: ArrayLike<number>, o: number): number {
    const types = this.types;
    const names = this.schema.enumNames.length;
    const maxId = this.maxEntityId;
    let bad = 0;
    let s = o;
    for (let f = 0; f < types.length; f++) {
      const t = types[f];
      if (t === FIELD_F32) {
        const v = fr(values[s++]);
        if (v - v === 0) this.f32[f][r] = v;
        else {
          this.f32[f][r] = 0;
          bad++;
        }
      } else if (t === FIELD_VEC3) {
        const c = this.f32[f];
        for (let k = 0; k < 3; k++) {
          const v = fr(values[s++]);
          if (v - v === 0) c[r * 3 + k] = v;
          else {
            c[r * 3 + k] = 0;
            bad++;
          }
        }
      } else if (t === FIELD_I32) {
        const v = values[s++];
        if ((v | 0) === v) this.i32[f][r] = v;
        else {
          this.i32[f][r] = repairI32(v);
          bad++;
        }
      } else if (t === FIELD_ENTITY) {
        const v = values[s++];
        if ((v | 0) === v && v >= -1 && v < maxId) this.i32[f][r] = v;
        else {
          this.i32[f][r] = -1;
          bad++;
        }
      } else if (t === FIELD_U8) {
        const v = values[s++];
        if ((v & 255) === v) this.u8[f][r] = v;
        else {
          this.u8[f][r] = repairU8(v);
          bad++;
        }
      } else if (t === FIELD_BOOL) {
        this.u8[f][r] = values[s++] ? 1 : 0;
      } else {
        const v = values[s++];
        if ((v | 0) === v && v >= 0 && v < names) this.u8[f][r] = v;
        else {
          this.u8[f][r] = ENUM_NONE;
          bad++;
        }
      }
    }
    return bad;
  }

  /**
   * Writes field `f` of the rows `match[0..count)` (-1: skip) from the caller's column: value i of
   * the column goes to row `match[i]` (a vec3 column holds x, y, z at `3 · i`). Returns the values
   * repaired.
   */
  public writeColumn(f: number, match: Int32Array, count: number, column: ArrayLike<number>): number {
    const t = this.types[f];
    let bad = 0;
    if (column === null || typeof column !== 'object') {
      for (let i = 0; i < count; i++) if (match[i] >= 0) bad += this.repairMissing(f, match[i]);
      return bad;
    }
    if (t === FIELD_F32) {
      const c = this.f32[f];
      for (let i = 0; i < count; i++) {
        const r = match[i];
        if (r < 0) continue;
        const v = fr(column[i]);
        if (v - v === 0) c[r] = v;
        else {
          c[r] = 0;
          bad++;
        }
      }
    } else if (t === FIELD_VEC3) {
      const c = this.f32[f];
      for (let i = 0; i < count; i++) {
        const r = match[i];
        if (r < 0) continue;
        for (let k = 0; k < 3; k++) {
          const v = fr(column[i * 3 + k]);
          if (v - v === 0) c[r * 3 + k] = v;
          else {
            c[r * 3 + k] = 0;
            bad++;
          }
        }
      }
    } else if (t === FIELD_I32 || t === FIELD_ENTITY) {
      const c = this.i32[f];
      const entity = t === FIELD_ENTITY;
      const maxId = this.maxEntityId;
      for (let i = 0; i < count; i++) {
        const r = match[i];
        if (r < 0) continue;
        const v = column[i];
        if ((v | 0) === v && (!entity || (v >= -1 && v < maxId))) c[r] = v;
        else {
          c[r] = entity ? -1 : repairI32(v);
          bad++;
        }
      }
    } else {
      const c = this.u8[f];
      const names = this.schema.enumNames.length;
      for (let i = 0; i < count; i++) {
        const r = match[i];
        if (r < 0) continue;
        const v = column[i];
        if (t === FIELD_BOOL) c[r] = v ? 1 : 0;
        else if (t === FIELD_U8) {
          if ((v & 255) === v) c[r] = v;
          else {
            c[r] = repairU8(v);
            bad++;
          }
        } else if ((v | 0) === v && v >= 0 && v < names) c[r] = v;
        else {
          c[r] = ENUM_NONE;
          bad++;
        }
      }
    }
    return bad;
  }

  /**
   * Writes field `f` of rows `r0 .. r0 + count` from value `0 ..` of the caller's column when the
   * column is a typed array of the staging column's own type and not much longer than needed: one
   * block copy (`TypedArray.set`), then a check pass over what was stored, repaired where needed.
   * Returns the values repaired, or -1 when the column does not qualify (use `writeColumn`).
   */
  public writeColumnBlock(f: number, r0: number, count: number, column: ArrayLike<number>): number {
    const t = this.types[f];
    const per = t === FIELD_VEC3 ? 3 : 1;
    const len = column.length;
    if (!ArrayBuffer.isView(column) || len < count * per || len > 2 * count * per + 64) return -1;
    if (t === FIELD_F32 || t === FIELD_VEC3) {
      if (!(column instanceof Float32Array)) return -1;
      this.grow(r0 + Math.ceil(len / per));
      const c = this.f32[f];
      c.set(column, r0 * per);
      // A float32 is finite when x * 0 is 0: one pass, no branch per value.
      let acc = 0;
      const end = (r0 + count) * per;
      for (let i = r0 * per; i < end; i++) acc += c[i] * 0;
      if (acc === 0) return 0;
      let bad = 0;
      for (let i = r0 * per; i < end; i++) {
        if (c[i] - c[i] !== 0) {
          c[i] = 0;
          bad++;
        }
      }
      return bad;
    }
    if (t === FIELD_I32 || t === FIELD_ENTITY) {
      if (!(column instanceof Int32Array)) return -1;
      this.grow(r0 + len);
      const c = this.i32[f];
      c.set(column, r0);
      if (t === FIELD_I32) return 0;
      const maxId = this.maxEntityId;
      let bad = 0;
      for (let i = r0; i < r0 + count; i++) {
        const v = c[i];
        if (v < -1 || v >= maxId) {
          c[i] = -1;
          bad++;
        }
      }
      return bad;
    }
    if (!(column instanceof Uint8Array)) return -1;
    this.grow(r0 + len);
    const c = this.u8[f];
    c.set(column, r0);
    // A bool byte stays as given: any nonzero byte is true (the frame's bit is set at endFrame).
    if (t !== FIELD_ENUM) return 0;
    const names = this.schema.enumNames.length;
    let bad = 0;
    for (let i = r0; i < r0 + count; i++) {
      if (c[i] >= names) {
        c[i] = ENUM_NONE;
        bad++;
      }
    }
    return bad;
  }

  /** Stores the repaired value of field `f` in row `r` (its column was missing); returns the values repaired. */
  private repairMissing(f: number, r: number): number {
    const t = this.types[f];
    if (t === FIELD_F32) this.f32[f][r] = 0;
    else if (t === FIELD_VEC3) this.f32[f].fill(0, r * 3, r * 3 + 3);
    else if (t === FIELD_I32) this.i32[f][r] = 0;
    else if (t === FIELD_ENTITY) this.i32[f][r] = -1;
    else if (t === FIELD_ENUM) this.u8[f][r] = ENUM_NONE;
    else this.u8[f][r] = 0;
    return t === FIELD_VEC3 ? 3 : 1;
  }
}
