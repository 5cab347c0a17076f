export {
  CliExit,
  type CliIo,
  DEFAULT_REPLAY_INFO_OPTIONS,
  MAX_LISTED_FRAMES,
  type ReplayInfoOptions,
  type ReplaySummary,
  replayInfo,
  runCli,
} from './info';
export { SERVE_USAGE, parseServeArgs, runServe } from './serve';
