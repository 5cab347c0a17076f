/**
 * What the core offers a game: `src/index.ts` (the `rewindable` entry) re-exports these, some
 * classes as types only (a game gets a `ChannelRegistry` from `recorder.channels`, it never builds
 * one). The advanced tier, the frame format and the building blocks under these classes, is listed
 * by `src/format/index.ts` (`rewindable/format`) straight from the modules. What neither lists (the
 * recorder's internals: `DrawRecorder`, `EntityResolver`, `DeathQueue`, `EntityKernel`,
 * `growTyped`, ...) is internal.
 */

// Recording
export { Recorder } from './record/Recorder';
export { DEFAULT_RECORDER_OPTIONS, type RecorderOptions, arenaBytesFor } from './record/RecorderOptions';
export { RecorderStats } from './record/RecorderStats';
export type { EntityColumns } from './record/EntityColumns';
export { Channel, type ChannelInfo, type ChannelOptions, ChannelRegistry, MAX_CHANNELS } from './store/ChannelRegistry';
export { type StaticLayer, StaticLayers } from './store/StaticLayers';
export { EntityFlags, NO_SUBJECT, PrimitiveType, type PrimitiveTypeValue } from './format/layout';
export { type DebugDraw, TeeDraw } from './draw/DebugDraw';
export { cone, cross, stickFigure, wireAabb, wireBox } from './draw/composites';
export { angleZToQuat, quatToAngleZ } from './math/quat';
export {
  type FieldInfo,
  type FieldQuery,
  FieldSchema,
  type FieldSpec,
  type FieldType,
  FieldValue,
} from './fields/index';

// Reading and playback
export { FrameReader } from './read/FrameReader';
export {
  DISPLAY_RECORDED,
  DISPLAY_SHOWN,
  EntityBuffer,
  EventBuffer,
  FrameHeader,
  PrimitiveBuffer,
} from './read/buffers';
export {
  type Bookmark,
  DEFAULT_PLAYBACK_OPTIONS,
  DEFAULT_SAMPLER_OPTIONS,
  DEFAULT_TIME_CONTROL_OPTIONS,
  MarkerKind,
  type MarkerKindValue,
  Playback,
  type PlaybackOptions,
  type PlaybackState,
  Presence,
  type PresenceValue,
  SampleBuffer,
  type SamplerOptions,
  type TimeControlOptions,
  // Received from `Playback`, never built by a game (the root entry exports them as types).
  Bookmarks,
  Lifetimes,
  MarkerIndex,
  Sampler,
  TimeControl,
} from './playback/index';
