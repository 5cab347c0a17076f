/**
 * Everything replay files offer outside `src/replay`, in two tiers: saving and loading (re-exported
 * by the `rewindable` entry), and the file format's pieces (re-exported by `rewindable/format`).
 */

// ── Game-facing: save and load ──────────────────────────────────────────────────────────────────
export {
  DEFAULT_SAVE_REPLAY_OPTIONS, type ReplayBookmark, type ReplayInfo, type ReplaySource, type SaveReplayOptions,
  saveReplay,
} from './saveReplay';
export { DEFAULT_LOAD_REPLAY_OPTIONS, type LoadReplayOptions, type LoadedReplay, loadReplay } from './loadReplay';
export { ReplayError, type ReplayErrorCode, type ReplayWarning, type ReplayWarningCode } from './ReplayError';
export {
  DEFAULT_REPLAY_LIMITS, REPLAY_FILE_EXTENSION, type ReplayCompression, type ReplayLimits,
} from './replayFormat';

// ── Advanced (rewindable/format): the file format ──────────────────────────────────────────────
export {
  BUILTIN_CHANNEL_NAMES, MAX_FRAME_NUMBER, REPLAY_CODECS, REPLAY_FORMAT_VERSION, REPLAY_MAGIC, REPLAY_MAGIC_BYTES,
  REPLAY_MIN_FORMAT_VERSION,
} from './replayFormat';
export { CHECKSUM_SEED, checksumWords } from './checksum';
export { type XorDeltaHeader, xorDeltaBound, xorDeltaDecode, xorDeltaEncode, xorDeltaHeader } from './xorDelta';
