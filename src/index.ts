/**
 * `rewindable`: what a game uses. Record (`Recorder`, `Channel`, `EntityFlags`, debug draw), read
 * back (`FrameReader` and the buffers it fills), play back (`Playback`, `SampleBuffer`), save and
 * load replay files, and the option, stat and error types of each. docs/concepts.md ("The public
 * API") lists the tiers; the frame and file format and the building blocks under these classes are
 * in `rewindable/format` (src/format/index.ts).
 *
 * Classes that a game receives but never constructs (`ChannelRegistry`, `StaticLayers`,
 * `TimeControl`, `Sampler`, `MarkerIndex`, ...) are exported here as types only.
 */

// Recording
export {
  Channel,
  DEFAULT_RECORDER_OPTIONS,
  EntityFlags,
  FieldValue,
  MAX_CHANNELS,
  NO_SUBJECT,
  PrimitiveType,
  Recorder,
  TeeDraw,
  angleZToQuat,
  arenaBytesFor,
  cone,
  cross,
  quatToAngleZ,
  stickFigure,
  wireAabb,
  wireBox,
} from './core/index';
export type {
  ChannelInfo,
  ChannelOptions,
  ChannelRegistry,
  DebugDraw,
  EntityColumns,
  FieldInfo,
  FieldQuery,
  FieldSchema,
  FieldSpec,
  FieldType,
  PrimitiveTypeValue,
  RecorderOptions,
  RecorderStats,
  StaticLayer,
  StaticLayers,
} from './core/index';

// Reading and playback
export {
  DEFAULT_PLAYBACK_OPTIONS,
  DEFAULT_SAMPLER_OPTIONS,
  DEFAULT_TIME_CONTROL_OPTIONS,
  DISPLAY_RECORDED,
  DISPLAY_SHOWN,
  EntityBuffer,
  EventBuffer,
  FrameHeader,
  FrameReader,
  MarkerKind,
  Playback,
  Presence,
  PrimitiveBuffer,
  SampleBuffer,
} from './core/index';
export type {
  Bookmark,
  Bookmarks,
  Lifetimes,
  MarkerIndex,
  MarkerKindValue,
  PlaybackOptions,
  PlaybackState,
  PresenceValue,
  Sampler,
  SamplerOptions,
  TimeControl,
  TimeControlOptions,
} from './core/index';

// Replay files
export {
  DEFAULT_LOAD_REPLAY_OPTIONS,
  DEFAULT_REPLAY_LIMITS,
  DEFAULT_SAVE_REPLAY_OPTIONS,
  REPLAY_FILE_EXTENSION,
  ReplayError,
  loadReplay,
  saveReplay,
} from './replay/index';
export type {
  LoadReplayOptions,
  LoadedReplay,
  ReplayBookmark,
  ReplayCompression,
  ReplayErrorCode,
  ReplayInfo,
  ReplayLimits,
  ReplaySource,
  ReplayWarning,
  ReplayWarningCode,
  SaveReplayOptions,
} from './replay/index';
