import type { Playback } from '../../core/playback/Playback';

/** The type of a recorded custom field, as the recorder declares it. */
export type InspectorFieldType = 'f32' | 'i32' | 'u8' | 'bool' | 'enum' | 'entity' | 'vec3';

/** One custom field of an entity's kind: its name, type, index in the kind's schema and values per frame (3 for vec3). */
export interface InspectorFieldInfo {
  readonly name: string;
  readonly type: InspectorFieldType;
  readonly index: number;
  readonly components: number;
}

/**
 * What the inspector reads custom fields through: the read side of the recorder's custom fields
 * (`playback.fields`, a `FieldQuery`, has this shape), or any object of the same shape (a tool's
 * own per-entity values, a test's).
 *
 * - `schemaOf(handle)`: the fields of the entity's kind (`[]` when it declared none).
 * - `valueAt(handle, field, position, out)`: the value at a (fractional) frame into `out`
 *   (`components` numbers); returns 0 when absent, 1 when interpolated, 2 when taken from the
 *   nearest frame. Enums give their code, entity references the referenced game id (NaN: none).
 * - `enumName(handle, field, code)`: the string of an enum code.
 * - `series(handle, field, from, to, out)`: the values of whole frames `from..to` into `out`
 *   (`components` per frame, NaN where absent); returns the frames written.
 *
 * @example
 * const fields: InspectorFieldSource = playback.fields;
 * for (const f of fields.schemaOf(handle)) fields.valueAt(handle, f.index, 120, out);
 */
export interface InspectorFieldSource {
  schemaOf(handle: number): readonly InspectorFieldInfo[];
  valueAt(handle: number, field: number, position: number, out: Float64Array): number;
  enumName(handle: number, field: number, code: number): string | undefined;
  series(handle: number, field: number, from: number, to: number, out: Float64Array): number;
}

/**
 * The custom fields of a playback: its `fields` (the recording's own, `FieldQuery`; a kind that
 * declared none has an empty schema). The default of the inspector's `fields` option; a tool may
 * give its own `InspectorFieldSource` instead.
 *
 * @example
 * new EntityInspector(overlay, { fields: fieldSourceOf }); // the default
 */
export function fieldSourceOf(playback: Playback): InspectorFieldSource | null {
  return playback.fields;
}
