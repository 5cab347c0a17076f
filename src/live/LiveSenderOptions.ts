import type { FrameReader } from '../core/read/FrameReader';
import type { StaticLayers } from '../core/store/StaticLayers';
import type { LiveCommandName } from './protocol';

/** What a sender streams: a `Recorder` fits. */
export interface LiveSource {
  readonly reader: FrameReader;
  readonly staticLayers: StaticLayers;
  readonly options: {
    readonly maxFrames: number;
    readonly arenaBytes: number;
    readonly maxEntitiesPerFrame: number;
    readonly maxEntityId: number;
  };
  onFrameEnd(listener: (frame: number) => void): () => void;
}

/**
 * A two-way command's handler: returns `true` (done) or a reason it could not (a string). Only the
 * commands given a handler are allowed; viewers' other commands are refused.
 */
export type LiveCommandHandler = (frame: number) => true | string;

/** Settings of `LiveSender` (and `connectLive`); see `DEFAULT_LIVE_SENDER_OPTIONS`. */
export interface LiveSenderOptions {
  /** The game's name, shown in the viewer's session list. */
  game: string;
  /** The game's build id. */
  buildId: string;
  /** The session id; `null`: a random one. Keep it to let viewers follow a restarted game as one session. */
  session: string | null;
  /** Frames are skipped (with a gap marker) while the transport holds more than this many unsent bytes. */
  maxBufferedBytes: number;
  /** Two-way commands the game allows: `pause` (pause the game at a frame), `seek` (move its paused overlay). */
  commands: Partial<Record<LiveCommandName, LiveCommandHandler>>;
  /** Problems (a refused command, a malformed message from a viewer); default: ignored. */
  onWarning: ((message: string) => void) | null;
}

export const DEFAULT_LIVE_SENDER_OPTIONS: Readonly<LiveSenderOptions> = Object.freeze({
  game: 'game',
  buildId: '',
  session: null,
  maxBufferedBytes: 2 * 1024 * 1024,
  commands: {},
  onWarning: null,
});
