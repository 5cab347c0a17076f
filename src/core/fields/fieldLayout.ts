/**
 * Field types and the binary layout of a frame's field section (replay format 3).
 *
 * The field section is the last section of a frame: it starts after the events (and any section a
 * later format adds before it) and runs to the frame's `totalWords`, so a frame without fields has
 * none, and older frames need no conversion. It is a sequence of blocks, one per field schema
 * recorded in the frame; a block holds one row per entity, in increasing entity index:
 *
 * | word | content                                                                                   |
 * |------|-------------------------------------------------------------------------------------------|
 * | 0    | schema index (low 16 bits), `BLOCK_LISTED` (bit 31)                                        |
 * | 1    | rows                                                                                      |
 * | 2    | first entity index (contiguous block: rows are entities `first .. first + rows - 1`), else 0 |
 * | ...  | listed block only: `rows` words, each row's entity index, strictly increasing             |
 * | ...  | one column per field, in declaration order, each starting on a word                       |
 *
 * Column sizes: f32, i32 and entity `rows` words; vec3 `3 · rows` words (all x, then all y, then
 * all z); u8 and enum one byte a row, bool one bit a row (bit `r & 31` of word `r >> 5`), padded to
 * a word. An entity column holds the game id of the referenced entity, `NO_ENTITY` for none.
 *
 * @advanced Exported by `rewindable/format`.
 */

/** The value types a field can have. */
export type FieldType = 'f32' | 'i32' | 'u8' | 'bool' | 'enum' | 'entity' | 'vec3';

/** One declared field of a kind, as the read side reports it. */
export interface FieldInfo {
  readonly name: string;
  readonly type: FieldType;
  /** Position among its kind's fields (the `field` argument of the read calls). */
  readonly index: number;
  /** Values per frame: 3 for vec3, else 1. */
  readonly components: number;
}

/** Type codes, as stored in a replay file's field schemas. */
export const FIELD_F32 = 0;
export const FIELD_I32 = 1;
export const FIELD_U8 = 2;
export const FIELD_BOOL = 3;
export const FIELD_ENUM = 4;
export const FIELD_ENTITY = 5;
export const FIELD_VEC3 = 6;
/** The type names by code. */
export const FIELD_TYPES: readonly FieldType[] = ['f32', 'i32', 'u8', 'bool', 'enum', 'entity', 'vec3'];

/** Block word 0: a listed block (an entity index column follows the block header). */
export const BLOCK_LISTED = 0x80000000;
/** Block word 0: the schema index bits. */
export const BLOCK_SCHEMA_MASK = 0xffff;
/** Words of a block header. */
export const BLOCK_HEADER_WORDS = 3;
/** Most field schemas (kinds with fields) in one recording. */
export const MAX_FIELD_SCHEMAS = 1 << 16;
/** Most fields one kind declares. */
export const MAX_FIELDS_PER_KIND = 64;
/** Most enum names one kind interns (codes 0 .. 254, one byte each). */
export const MAX_ENUM_NAMES = 255;
/** The stored code of an enum value that names nothing (a repaired value). */
export const ENUM_NONE = 255;
/** The stored game id of an entity reference to no entity. */
export const NO_ENTITY = 0xffffffff;

/** Values a field of type `code` takes per row. */
export function fieldComponents(code: number): number {
  return code === FIELD_VEC3 ? 3 : 1;
}

/** Words of a column of `rows` values of type `code`. */
export function columnWords(code: number, rows: number): number {
  switch (code) {
    case FIELD_VEC3:
      return rows * 3;
    case FIELD_U8:
    case FIELD_ENUM:
      return (rows + 3) >>> 2;
    case FIELD_BOOL:
      return (rows + 31) >>> 5;
    default:
      return rows;
  }
}

/** Words of a block of `rows` rows of a schema whose type codes are `types`. */
export function blockWords(types: ArrayLike<number>, rows: number, listed: boolean): number {
  let w = BLOCK_HEADER_WORDS + (listed ? rows : 0);
  for (let i = 0; i < types.length; i++) w += columnWords(types[i], rows);
  return w;
}
