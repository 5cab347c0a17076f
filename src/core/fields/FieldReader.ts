import {
  fieldSectionAt,
  H_ENTITY_COUNT as H_ENTITY_COUNT_,
  H_TOTAL_WORDS as H_TOTAL_WORDS_,
  HANDLE_MASK as HANDLE_MASK_,
  HEADER_WORDS as HEADER_WORDS_,
} from '../format/layout';
import type { FrameRing } from '../store/FrameRing';
import type { EntityTable } from '../store/EntityTable';
import {
  BLOCK_HEADER_WORDS as BLOCK_HEADER_WORDS_,
  BLOCK_LISTED as BLOCK_LISTED_,
  BLOCK_SCHEMA_MASK as BLOCK_SCHEMA_MASK_,
  ENUM_NONE as ENUM_NONE_,
  FIELD_BOOL as FIELD_BOOL_,
  FIELD_ENTITY as FIELD_ENTITY_,
  FIELD_ENUM as FIELD_ENUM_,
  FIELD_F32 as FIELD_F32_,
  FIELD_I32 as FIELD_I32_,
  FIELD_U8 as FIELD_U8_,
  FIELD_VEC3 as FIELD_VEC3_,
  NO_ENTITY as NO_ENTITY_,
  blockWords,
  columnWords,
  type FieldInfo,
} from './fieldLayout';
import type { FieldSchema } from './FieldSchema';
import type { FieldSchemas } from './FieldSchemas';

// Local copies of the layout constants: hot loops then read plain locals, not module bindings
// (which some loaders, e.g. tsx and vitest, turn into getters).
const BLOCK_HEADER_WORDS = BLOCK_HEADER_WORDS_;
const BLOCK_LISTED = BLOCK_LISTED_;
const BLOCK_SCHEMA_MASK = BLOCK_SCHEMA_MASK_;
const ENUM_NONE = ENUM_NONE_;
const FIELD_BOOL = FIELD_BOOL_;
const FIELD_ENTITY = FIELD_ENTITY_;
const FIELD_ENUM = FIELD_ENUM_;
const FIELD_F32 = FIELD_F32_;
const FIELD_I32 = FIELD_I32_;
const FIELD_U8 = FIELD_U8_;
const FIELD_VEC3 = FIELD_VEC3_;
const H_ENTITY_COUNT = H_ENTITY_COUNT_;
const H_TOTAL_WORDS = H_TOTAL_WORDS_;
const HANDLE_MASK = HANDLE_MASK_;
const HEADER_WORDS = HEADER_WORDS_;
const NO_ENTITY = NO_ENTITY_;

const FIELD_ABSENT = 0;
const FIELD_INTERPOLATED = 1;
const FIELD_NEAREST = 2;

/**
 * What `FieldQuery.valueAt` returns: `ABSENT` (no value at that position), `INTERPOLATED` (between
 * the frames around it: f32, i32, u8, vec3) or `NEAREST` (the nearer frame's: bool, enum, entity,
 * or the only one of the two frames that has a value).
 *
 * @example
 * if (playback.fields.valueAt(h, f, pos, out) === FieldValue.INTERPOLATED) label += ' (interpolated)';
 */
export const FieldValue = { ABSENT: FIELD_ABSENT, INTERPOLATED: FIELD_INTERPOLATED, NEAREST: FIELD_NEAREST } as const;

/**
 * The read side of recorded custom fields: a life's schema, one field at a fractional frame
 * position, and one field over a frame range (`series`). Allocates nothing.
 *
 * @example
 * const out = new Float64Array(3);
 * for (const info of playback.fields.schemaOf(handle)) {
 *   const how = playback.fields.valueAt(handle, info.index, playback.time.position, out);
 *   if (how !== 0) console.log(info.name, out.subarray(0, info.components));
 * }
 * const health = new Float64Array(900);
 * playback.fields.series(handle, 0, oldest, oldest + 899, health); // NaN where the life has no value
 */
export interface FieldQuery {
  /** The fields of the life's kind; [] when its kind declared none. */
  schemaOf(handle: number): readonly FieldInfo[];
  /**
   * One field of a life at a fractional frame `position` into `out[0..components)`. f32, i32, u8
   * and vec3 interpolate between the two frames around `position`; bool, enum and entity take the
   * nearer frame. Returns 0 when absent, 1 when interpolated, 2 when nearest-frame. An enum gives
   * its interned code (NaN for a repaired value), an entity the referenced game id (NaN when none),
   * a bool 0 or 1.
   */
  valueAt(handle: number, field: number, position: number, out: Float64Array): number;
  /** The name of enum `code` of the life's kind, or undefined. */
  enumName(handle: number, field: number, code: number): string | undefined;
  /**
   * One field of one life over frames [from, to] into `out` (components values per frame), NaN
   * where the life has no value; returns the frames written (at most what `out` holds). Reads only
   * the life's value in each frame, never the whole frame.
   */
  series(handle: number, field: number, from: number, to: number, out: Float64Array): number;
}

const EMPTY: readonly FieldInfo[] = Object.freeze([]);

/**
 * `FieldQuery` over a ring of frames (a recorder's, a loaded replay's, a live stream's), its entity
 * table and field schemas. `Playback.fields` is one.
 *
 * @example
 * const fields = new FieldReader(recorder.reader.ring, recorder.entities, recorder.fieldSchemas);
 */
export class FieldReader implements FieldQuery {
  /** Where the last `locate` found the value: the column's first word and the row. */
  private colAt = 0;
  private row = 0;
  private rows = 0;
  /** Entity index of the last located life (a hint for the next frame). */
  private hint = -1;
  private readonly a = new Float64Array(3);
  private readonly b = new Float64Array(3);

  public constructor(
    private readonly ring: FrameRing,
    private readonly entities: EntityTable,
    public readonly schemas: FieldSchemas,
  ) {}

  /** The schema of `handle`'s kind, or undefined. */
  public schemaFor(handle: number): FieldSchema | undefined {
    const t = this.entities;
    if (this.schemas.count === 0 || !(handle >= 0 && handle < t.capacity) || t.used[handle] !== 1) return undefined;
    const k = t.kindOf[handle];
    return k >= 0 ? this.schemas.ofKind(t.kinds[k]) : undefined;
  }

  public schemaOf(handle: number): readonly FieldInfo[] {
    return this.schemaFor(handle)?.fields ?? EMPTY;
  }

  public enumName(handle: number, field: number, code: number): string | undefined {
    const s = this.schemaFor(handle);
    if (s === undefined || s.types[field] !== FIELD_ENUM) return undefined;
    return s.enumNames[code];
  }

  public valueAt(handle: number, field: number, position: number, out: Float64Array): number {
    const s = this.schemaFor(handle);
    if (s === undefined || !validField(s, field) || !(position - position === 0)) return FIELD_ABSENT;
    const type = s.types[field];
    const c = type === FIELD_VEC3 ? 3 : 1;
    const f0 = Math.floor(position);
    const t = position - f0;
    const a = this.a;
    const b = this.b;
    const has0 = this.read(s, handle, field, f0, a);
    if (t === 0) {
      if (!has0) return FIELD_ABSENT;
      for (let k = 0; k < c; k++) out[k] = a[k];
      return type === FIELD_BOOL || type === FIELD_ENUM || type === FIELD_ENTITY ? FIELD_NEAREST : FIELD_INTERPOLATED;
    }
    const has1 = this.read(s, handle, field, f0 + 1, b);
    if (!has0 && !has1) return FIELD_ABSENT;
    const lerp = type === FIELD_F32 || type === FIELD_I32 || type === FIELD_U8 || type === FIELD_VEC3;
    if (lerp && has0 && has1) {
      for (let k = 0; k < c; k++) out[k] = a[k] + (b[k] - a[k]) * t;
      return FIELD_INTERPOLATED;
    }
    const useB = has1 && (!has0 || t >= 0.5);
    const src = useB ? b : a;
    for (let k = 0; k < c; k++) out[k] = src[k];
    return FIELD_NEAREST;
  }

  public series(handle: number, field: number, from: number, to: number, out: Float64Array): number {
    const s = this.schemaFor(handle);
    if (s === undefined || !validField(s, field)) return 0;
    if (!(Number.isInteger(from) && Number.isInteger(to)) || to < from) return 0;
    const c = s.types[field] === FIELD_VEC3 ? 3 : 1;
    const frames = Math.min(to - from + 1, Math.floor(out.length / c));
    const spawn = this.entities.spawnFrames[handle];
    const last = this.entities.lastFrame(handle);
    const a = this.a;
    for (let q = 0; q < frames; q++) {
      const frame = from + q;
      const o = q * c;
      if (frame >= spawn && frame <= last && this.read(s, handle, field, frame, a)) {
        for (let k = 0; k < c; k++) out[o + k] = a[k];
      } else {
        for (let k = 0; k < c; k++) out[o + k] = Number.NaN;
      }
    }
    return frames;
  }

  /** Reads `field` of `handle` in `frame` into `out`; false when the frame or the value is absent. */
  private read(s: FieldSchema, handle: number, field: number, frame: number, out: Float64Array): boolean {
    if (!this.locate(s, handle, field, frame)) return false;
    const r = this.row;
    const w = this.colAt;
    const type = s.types[field];
    if (type === FIELD_F32) out[0] = this.ring.f32[w + r];
    else if (type === FIELD_VEC3) {
      const f = this.ring.f32;
      const rows = this.rows;
      out[0] = f[w + r];
      out[1] = f[w + rows + r];
      out[2] = f[w + 2 * rows + r];
    } else if (type === FIELD_I32) out[0] = this.ring.u32[w + r] | 0;
    else if (type === FIELD_ENTITY) {
      const v = this.ring.u32[w + r];
      out[0] = v === NO_ENTITY ? Number.NaN : v;
    } else if (type === FIELD_BOOL) out[0] = (this.ring.u32[w + (r >>> 5)] >>> (r & 31)) & 1;
    else {
      const v = this.ring.u8[w * 4 + r];
      out[0] = type === FIELD_ENUM && v === ENUM_NONE ? Number.NaN : v;
    }
    return true;
  }

  /**
   * Finds `field` of `handle` in `frame`: sets `colAt`, `row` and `rows`. Walks the frame's block
   * headers only (one per kind recorded), never the values of other entities.
   */
  private locate(s: FieldSchema, handle: number, field: number, frame: number): boolean {
    const ring = this.ring;
    const at = ring.offsetOf(frame);
    if (at < 0) return false;
    const u = ring.u32;
    const n = u[at + H_ENTITY_COUNT];
    const base = at + HEADER_WORDS;
    let i = this.hint;
    if (!(i >= 0 && i < n && (u[base + i] & HANDLE_MASK) === handle)) {
      i = -1;
      for (let k = 0; k < n; k++) {
        if ((u[base + k] & HANDLE_MASK) === handle) {
          i = k;
          break;
        }
      }
      if (i < 0) return false;
      this.hint = i;
    }
    const end = at + u[at + H_TOTAL_WORDS];
    let w = fieldSectionAt(u, at);
    const schemas = this.schemas;
    while (w + BLOCK_HEADER_WORDS <= end) {
      const head = u[w];
      const rows = u[w + 1];
      const listed = (head & BLOCK_LISTED) !== 0;
      const si = head & BLOCK_SCHEMA_MASK;
      if (si !== s.index) {
        const other = schemas.at(si);
        if (other === undefined) return false;
        w += blockWords(other.types, rows, listed);
        continue;
      }
      let r: number;
      if (listed) r = findSorted(u, w + BLOCK_HEADER_WORDS, rows, i);
      else {
        r = i - u[w + 2];
        if (r >= rows) r = -1;
      }
      if (r < 0) return false;
      let col = w + BLOCK_HEADER_WORDS + (listed ? rows : 0);
      const types = s.types;
      for (let f = 0; f < field; f++) col += columnWords(types[f], rows);
      this.colAt = col;
      this.row = r;
      this.rows = rows;
      return true;
    }
    return false;
  }
}

/** Position of `v` in the strictly increasing `u[from, from + count)`, or -1. */
function findSorted(u: Uint32Array, from: number, count: number, v: number): number {
  let lo = 0;
  let hi = count - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const x = u[from + mid];
    if (x === v) return mid;
    if (x < v) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** A field index of `schema`: an integer in range (a fractional index would read a neighbour's column). */
function validField(schema: FieldSchema, field: number): boolean {
  return field >= 0 && field < schema.types.length && (field | 0) === field;
}
