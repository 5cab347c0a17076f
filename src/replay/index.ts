/**
 * What replay files offer a game: saving and loading, re-exported by the `rewindable` entry. The
 * file format's pieces (magic, versions, checksum, xor-delta) are listed by `src/format/index.ts`
 * (`rewindable/format`) straight from the modules.
 */
export {
  DEFAULT_SAVE_REPLAY_OPTIONS,
  type ReplayBookmark,
  type ReplayInfo,
  type ReplaySource,
  type SaveReplayOptions,
  saveReplay,
} from './saveReplay';
export { DEFAULT_LOAD_REPLAY_OPTIONS, type LoadReplayOptions, type LoadedReplay, loadReplay } from './loadReplay';
export { ReplayError, type ReplayErrorCode, type ReplayWarning, type ReplayWarningCode } from './ReplayError';
export {
  DEFAULT_REPLAY_LIMITS,
  REPLAY_FILE_EXTENSION,
  type ReplayCompression,
  type ReplayLimits,
} from './replayFormat';
