/**
 * `rewindable/format`: the advanced entry, for tools that read or write rewindable's bytes directly
 * (a custom loader, a converter, a profiler) and for code that assembles the playback parts itself.
 * A game needs none of it: `rewindable` is the game-facing entry.
 *
 * - The frame layout (docs/concepts.md, "What is stored per frame"): header word offsets (`H_*`),
 *   flags, handle and bone bit fields, primitive record types and sizes, event records.
 * - Rotations: the smallest-three codec (`encodeQuat*`, `decodeQuat*`) and the sampler's slerp
 *   (`slerpInto`, or `slerpCoefficients` once and `slerpWithCoefficients` per quaternion).
 * - Storage: `FrameRing` (the arena), `EntityTable` (one row per unique id), `ChannelRegistry` and
 *   `StaticLayers` as classes, so a loader can build a `FrameReader` over bytes of its own.
 * - The parts `Playback` bundles, to use one alone: `TimeControl`, `Sampler`, `Bookmarks`,
 *   `MarkerIndex`, `Lifetimes`.
 * - The replay file format (docs/replay-format.md): magic, versions, codecs, limits, the checksum
 *   and the xor-delta codec.
 *
 * These follow the file format's version, not the game-facing API's stability: a new format version
 * may change them.
 *
 * @example
 * import { H_ENTITY_COUNT, H_TIME } from 'rewindable/format';
 * const ring = recorder.reader.ring;
 * const at = ring.offsetOf(frame);                 // the frame's first word in the arena, -1 when not held
 * const entities = ring.u32[at + H_ENTITY_COUNT];
 * const time = ring.f64[(at + H_TIME) >>> 1];
 */

// The frame layout
export {
  BONE_INDEX_BITS,
  BONE_INDEX_MASK,
  EVENT_WORDS,
  FRAME_FIELDS_OVER_BUDGET,
  FRAME_HAS_CAMERA,
  FRAME_TRUNCATED,
  HANDLE_BITS,
  HANDLE_MASK,
  HEADER_WORDS,
  H_BONE_WORDS,
  H_CAM_ROT,
  H_CAM_X,
  H_CAM_Y,
  H_CAM_Z,
  H_CAM_ZOOM,
  H_DROPPED_ENTITIES,
  H_DROPPED_PRIMS,
  H_DROPPED_TEXT,
  H_DT,
  H_ENTITY_COUNT,
  H_EVENT_COUNT,
  H_FLAGS,
  H_FRAME,
  H_OVER_BUDGET,
  H_PRIM_COUNT,
  H_PRIM_WORDS,
  H_SANITIZED,
  H_TIME,
  H_TOTAL_WORDS,
  MAX_BONES,
  MAX_HANDLES,
  PRIM_AABB,
  PRIM_ARROW,
  PRIM_FLOATS,
  PRIM_LINE,
  PRIM_POINT,
  PRIM_SPHERE,
  PRIM_TEXT,
  PRIM_TYPE_COUNT,
  PRIM_WORDS,
  fieldSectionAt,
  textRecordWords,
} from '../core/format/layout';

// Custom fields: types, the field section's blocks, the schemas and their reader
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
  fieldComponents,
  FieldReader,
  FieldSchemas,
  MAX_ENUM_NAMES,
  MAX_FIELD_SCHEMAS,
  MAX_FIELDS_PER_KIND,
  NO_ENTITY,
} from '../core/fields/index';
// The root entry exports it as a type only.
export { FieldSchema } from '../core/fields/index';

// The rotation codec
export {
  QUAT_IDENTITY_BITS,
  decodeQuat,
  decodeQuatAt,
  encodeQuat,
  encodeQuatAt,
  encodeQuatColumns,
  quatIsEncodable,
  quatIsEncodableAt,
  quatStatus,
} from '../core/math/quat';
export { SLERP_COEF_LENGTH, SLERP_T, slerpCoefficients, slerpInto, slerpWithCoefficients } from '../core/math/slerp';

// Storage and decoding
export { FrameRing } from '../core/store/FrameRing';
export { EntityTable } from '../core/store/EntityTable';
export type { PrimitiveEncoder } from '../core/store/StaticLayers';
export { decodePrimitives } from '../core/read/FrameReader';
// Classes the root entry exports as types only.
export { ChannelRegistry, RecorderStats, StaticLayers } from '../core/index';

// The parts Playback bundles
export { Bookmarks, Lifetimes, MarkerIndex, Sampler, TimeControl } from '../core/index';

// The replay file format
export {
  BUILTIN_CHANNEL_NAMES,
  MAX_FRAME_NUMBER,
  REPLAY_CODECS,
  REPLAY_FORMAT_VERSION,
  REPLAY_MAGIC,
  REPLAY_MAGIC_BYTES,
  REPLAY_MIN_FORMAT_VERSION,
} from '../replay/replayFormat';
export { CHECKSUM_SEED, checksumWords } from '../replay/checksum';
export { type XorDeltaHeader, xorDeltaBound, xorDeltaDecode, xorDeltaEncode, xorDeltaHeader } from '../replay/xorDelta';
