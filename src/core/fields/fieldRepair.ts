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
