import {
  FIELD_ENTITY as FIELD_ENTITY_,
  FIELD_ENUM as FIELD_ENUM_,
  FIELD_F32 as FIELD_F32_,
  FIELD_I32 as FIELD_I32_,
  FIELD_U8 as FIELD_U8_,
  FIELD_VEC3 as FIELD_VEC3_,
} from './fieldLayout';
import type { FieldSchema } from './FieldSchema';

const FIELD_ENTITY = FIELD_ENTITY_;
const FIELD_ENUM = FIELD_ENUM_;
const FIELD_F32 = FIELD_F32_;
const FIELD_I32 = FIELD_I32_;
const FIELD_U8 = FIELD_U8_;
const FIELD_VEC3 = FIELD_VEC3_;

/*
 * The repairs of invalid field values (docs/concepts.md, "Custom fields"), shared by the staging
 * columns (`FieldRows`) and the conversion of per-entity rows straight into a frame
 * (`writeRawBlock`). Internal to the recorder.
 */

const I32_MIN = -2147483648;
const I32_MAX = 2147483647;

/** An int32 field's repair: a finite value truncated and clamped to int32, else 0. */
export function repairI32(v: number): number {
  return v - v === 0 ? Math.trunc(v < I32_MIN ? I32_MIN : v > I32_MAX ? I32_MAX : v) : 0;
}

/** A u8 field's repair: a finite value truncated and clamped to [0, 255], else 0. */
export function repairU8(v: number): number {
  return v - v === 0 ? Math.trunc(v < 0 ? 0 : v > 255 ? 255 : v) : 0;
}

/**
 * Whether row `i` of a columns call (`columns[f]` field f's values, a vec3 three a row) holds a value
 * the recorder repairs, or misses a column: the rare search for the entities to flag `SANITIZED`.
 */
export function invalidAt(
  schema: FieldSchema,
  columns: ArrayLike<ArrayLike<number>>,
  i: number,
  maxEntityId: number,
): boolean {
  const types = schema.types;
  for (let f = 0; f < types.length; f++) {
    const col = f < columns.length ? columns[f] : null;
    if (col === null || typeof col !== 'object') return true;
    const t = types[f];
    const n = t === FIELD_VEC3 ? 3 : 1;
    for (let k = 0; k < n; k++) {
      const v = col[i * n + k];
      if (t === FIELD_F32 || t === FIELD_VEC3) {
        const x = Math.fround(v);
        if (x - x !== 0) return true;
      } else if (t === FIELD_I32) {
        if ((v | 0) !== v) return true;
      } else if (t === FIELD_ENTITY) {
        if ((v | 0) !== v || v < -1 || v >= maxEntityId) return true;
      } else if (t === FIELD_U8) {
        if ((v & 255) !== v) return true;
      } else if (t === FIELD_ENUM) {
        if ((v | 0) !== v || v < 0 || v >= schema.enumNames.length) return true;
      }
    }
  }
  return false;
}
