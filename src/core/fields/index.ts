export {
  BLOCK_HEADER_WORDS,
  BLOCK_LISTED,
  BLOCK_SCHEMA_MASK,
  blockWords,
  columnWords,
  ENUM_NONE,
  FIELD_BOOL,
  FIELD_ENTITY,
  FIELD_ENUM,
  FIELD_F32,
  FIELD_I32,
  FIELD_TYPES,
  FIELD_U8,
  FIELD_VEC3,
  type FieldInfo,
  type FieldType,
  fieldComponents,
  MAX_ENUM_NAMES,
  MAX_FIELD_SCHEMAS,
  MAX_FIELDS_PER_KIND,
  NO_ENTITY,
} from './fieldLayout';
export { type FieldQuery, FieldReader, FieldValue } from './FieldReader';
export { FieldSchema } from './FieldSchema';
export { FieldSchemas, type FieldSpec } from './FieldSchemas';
