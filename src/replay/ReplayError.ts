/**
 * What went wrong with a replay file:
 * - `BAD_MAGIC`: not a rewindable replay (the file does not start with the `RWND` signature);
 * - `NEWER_VERSION`: written by a newer format version than this reader knows;
 * - `UNSUPPORTED_VERSION`: a version number this reader cannot read (0, or one it dropped);
 * - `TRUNCATED`: the file ends early;
 * - `CORRUPT`: a value is missing, of the wrong type, out of range or inconsistent;
 * - `CHECKSUM`: the frame data does not match its checksum;
 * - `TOO_LARGE`: a size or count is above the reader's limits (`ReplayLimits`);
 * - `BAD_INPUT`: `saveReplay` was given something it cannot write;
 * - `UNSUPPORTED_PLATFORM`: the host is big-endian (replay words are little-endian).
 */
export type ReplayErrorCode =
  | 'BAD_MAGIC'
  | 'NEWER_VERSION'
  | 'UNSUPPORTED_VERSION'
  | 'TRUNCATED'
  | 'CORRUPT'
  | 'CHECKSUM'
  | 'TOO_LARGE'
  | 'BAD_INPUT'
  | 'UNSUPPORTED_PLATFORM';

/**
 * The only error `loadReplay` and `saveReplay` throw. `code` says what kind of problem it is and
 * `path` where in the file (e.g. `header.entities.id[12]` or `frames[40].primitives[3]`).
 *
 * @example
 * try {
 *   const replay = loadReplay(bytes);
 * } catch (e) {
 *   if (e instanceof ReplayError && e.code === 'NEWER_VERSION') alert('Please update the viewer.');
 *   else throw e;
 * }
 */
export class ReplayError extends Error {
  /** The kind of problem. */
  public readonly code: ReplayErrorCode;
  /** Where in the file, when known. */
  public readonly path: string | undefined;
  /** The problem without the code and path prefix. */
  public readonly detail: string;

  public constructor(code: ReplayErrorCode, detail: string, path?: string) {
    super(`rewindable replay ${code}${path !== undefined ? ` at ${path}` : ''}: ${detail}`);
    this.name = 'ReplayError';
    this.code = code;
    this.path = path;
    this.detail = detail;
  }
}

/** Kinds of non-fatal problems found while loading. */
export type ReplayWarningCode = 'BUILD_MISMATCH' | 'UNKNOWN_FIELD';

/** A problem that did not stop the load. */
export interface ReplayWarning {
  readonly code: ReplayWarningCode;
  readonly message: string;
}
