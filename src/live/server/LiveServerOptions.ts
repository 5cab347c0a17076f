import type { LiveLimits } from '../protocol';
import type { PersistOptions } from './SessionPersister';

/** Settings of `LiveServer.start`; see `DEFAULT_LIVE_SERVER_OPTIONS`. */
export interface LiveServerOptions {
  /** Interface to bind: loopback by default. Anything else needs `allowRemote`. */
  host: string;
  /** Port (0: any free port). */
  port: number;
  /** Required to listen on a non-loopback interface (the server then warns, and a token is advised). */
  allowRemote: boolean;
  /** A shared token clients must give (`?token=`); null: none. */
  token: string | null;
  /** A built viewer to serve (the directory holding viewer.html, e.g. dist-demo); null or missing: a minimal page. */
  viewerDir: string | null;
  /** Rolling `.rwd` files of every session; null: no persistence. */
  persist: (Partial<PersistOptions> & { dir: string }) | null;
  /** What a stream's messages may hold. */
  limits: Partial<LiveLimits>;
  /** Sessions and viewers at once. */
  maxSessions: number;
  maxViewers: number;
  /** A viewer whose socket holds more unsent bytes than this misses frames (and catches up with a resync). */
  viewerMaxBufferedBytes: number;
  /** Log lines (start, sessions, refused streams). */
  log: (line: string) => void;
}

export const DEFAULT_LIVE_SERVER_OPTIONS: Readonly<LiveServerOptions> = Object.freeze({
  host: '127.0.0.1',
  port: 7070,
  allowRemote: false,
  token: null,
  viewerDir: null,
  persist: null,
  limits: {},
  maxSessions: 64,
  maxViewers: 256,
  viewerMaxBufferedBytes: 4 * 1024 * 1024,
  log: () => {},
});
