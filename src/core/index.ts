/**
 * Everything the core offers outside `src/core`, in two tiers. `src/index.ts` (the `rewindable`
 * entry) re-exports the first, what a game uses; `src/format.ts` (`rewindable/format`) the second,
 * the frame format and the building blocks under the game-facing classes (some of which the root
 * entry exports as types only). What is not listed here (the recorder's internals: `DrawRecorder`,
 * `EntityResolver`, `DeathQueue`, `EntityKernel`, `growTyped`, ...) is internal.
 */

// ── Game-facing: recording ──────────────────────────────────────────────────────────────────────
export { Recorder } from './record/Recorder';
export { DEFAULT_RECORDER_OPTIONS, type RecorderOptions, arenaBytesFor } from './record/RecorderOptions';
export { RecorderStats } from './record/RecorderStats';
export type { EntityColumns } from './record/EntityColumns';
export { Channel, type ChannelInfo, type ChannelOptions, ChannelRegistry, MAX_CHANNELS } from './store/ChannelRegistry';
export { type PrimitiveEncoder, type StaticLayer, StaticLayers } from './store/StaticLayers';
export { EntityFlags, NO_SUBJECT, PrimitiveType, type PrimitiveTypeValue } from './format/layout';
export { type DebugDraw, TeeDraw } from './draw/DebugDraw';
export { cone, cross, stickFigure, wireAabb, wireBox } from './draw/composites';
export { angleZToQuat, quatToAngleZ } from './math/quat';

// ── Game-facing: reading and playback ───────────────────────────────────────────────────────────
export { FrameReader } from './read/FrameReader';
export { EntityBuffer, EventBuffer, FrameHeader, PrimitiveBuffer } from './read/buffers';
export {
  type Bookmark, DEFAULT_PLAYBACK_OPTIONS, DEFAULT_SAMPLER_OPTIONS, DEFAULT_TIME_CONTROL_OPTIONS, MarkerKind,
  type MarkerKindValue, Playback, type PlaybackOptions, type PlaybackState, Presence, type PresenceValue,
  SampleBuffer, type SamplerOptions, type TimeControlOptions,
} from './playback/index';

// ── Advanced (rewindable/format): the frame layout ──────────────────────────────────────────────
export {
  BONE_INDEX_BITS, BONE_INDEX_MASK, EVENT_WORDS, FRAME_HAS_CAMERA, FRAME_TRUNCATED, HANDLE_BITS, HANDLE_MASK,
  HEADER_WORDS, H_BONE_WORDS, H_CAM_ROT, H_CAM_X, H_CAM_Y, H_CAM_Z, H_CAM_ZOOM, H_DROPPED_ENTITIES, H_DROPPED_PRIMS,
  H_DROPPED_TEXT, H_DT, H_ENTITY_COUNT, H_EVENT_COUNT, H_FLAGS, H_FRAME, H_OVER_BUDGET, H_PRIM_COUNT, H_PRIM_WORDS,
  H_SANITIZED, H_TIME, H_TOTAL_WORDS, MAX_BONES, MAX_HANDLES, PRIM_AABB, PRIM_ARROW, PRIM_FLOATS, PRIM_LINE,
  PRIM_POINT, PRIM_SPHERE, PRIM_TEXT, PRIM_TYPE_COUNT, PRIM_WORDS, textRecordWords,
} from './format/layout';
// ── Advanced: the rotation codec ───────────────────────────────────────────────────────────────
export {
  QUAT_IDENTITY_BITS, decodeQuat, decodeQuatAt, encodeQuat, encodeQuatAt, encodeQuatColumns, quatIsEncodable,
  quatIsEncodableAt, quatStatus, slerpInto,
} from './math/quat';
// ── Advanced: storage, decoding, the parts `Playback` bundles ──────────────────────────────────
export { FrameRing } from './store/FrameRing';
export { EntityTable } from './store/EntityTable';
export { decodePrimitives } from './read/FrameReader';
export { Bookmarks, Lifetimes, MarkerIndex, Sampler, TimeControl } from './playback/index';
