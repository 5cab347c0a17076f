import { ReplayError } from '../replay/ReplayError';

/**
 * What went wrong with a live stream:
 * - `BAD_MESSAGE`: not a live protocol message (unknown type, wrong framing, not binary);
 * - `TRUNCATED`: a message ends before the sizes it declares;
 * - `CORRUPT`: a value is missing, of the wrong type, out of range or inconsistent (the frame words
 *   are checked exactly as `loadReplay` checks a file's);
 * - `TOO_LARGE`: a message, a frame or a count is above the receiver's `LiveLimits`;
 * - `NEWER_VERSION`: the peer speaks a newer protocol version (update the viewer or server);
 * - `PROTOCOL`: a valid message at the wrong time (a frame before the hello, a frame number that
 *   goes back);
 * - `UNAUTHORIZED`: the server wants a token and the client gave another one (or none);
 * - `REFUSED`: a two-way command the game does not allow.
 */
export type LiveErrorCode =
  | 'BAD_MESSAGE'
  | 'TRUNCATED'
  | 'CORRUPT'
  | 'TOO_LARGE'
  | 'NEWER_VERSION'
  | 'PROTOCOL'
  | 'UNAUTHORIZED'
  | 'REFUSED';

/**
 * The error every live-stream decoder, store and server check throws: `code` says what kind of
 * problem, `path` where in the message (e.g. `frame[1204].lives[3].kind`).
 *
 * @example
 * try {
 *   store.accept(bytes);
 * } catch (e) {
 *   if (e instanceof LiveError) socket.close(1008, e.code);
 * }
 */
export class LiveError extends Error {
  public readonly code: LiveErrorCode;
  public readonly path: string | undefined;
  public readonly detail: string;

  public constructor(code: LiveErrorCode, detail: string, path?: string) {
    super(`rewindable live ${code}${path !== undefined ? ` at ${path}` : ''}: ${detail}`);
    this.name = 'LiveError';
    this.code = code;
    this.path = path;
    this.detail = detail;
  }

  /**
   * Runs `fn`, turning the replay validators' `ReplayError` (the shared value and frame checks) and
   * any other failure into a `LiveError`, so a receiver sees one error type.
   */
  public static guard<T>(fn: () => T): T {
    try {
      return fn();
    } catch (e) {
      throw LiveError.from(e);
    }
  }

  /** `e` as a `LiveError` (a `ReplayError` keeps its code when the live protocol has it). */
  public static from(e: unknown): LiveError {
    if (e instanceof LiveError) return e;
    if (e instanceof ReplayError) {
      const code: LiveErrorCode =
        e.code === 'TOO_LARGE' ? 'TOO_LARGE' : e.code === 'TRUNCATED' ? 'TRUNCATED' : 'CORRUPT';
      return new LiveError(code, e.detail, e.path);
    }
    const message = e instanceof Error ? e.message : String(e);
    if (e instanceof RangeError && /alloc|length/i.test(message))
      return new LiveError('TOO_LARGE', `out of memory: ${message}`);
    return new LiveError('CORRUPT', `unexpected failure: ${message.slice(0, 200)}`);
  }
}
