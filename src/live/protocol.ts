/**
 * The live stream's wire format (specified in docs/live-viewer.md). Every message is one binary
 * WebSocket message (or one BroadcastChannel post): byte 0 is the message type, bytes 1–3 are 0,
 * and the body follows at byte 4. `FRAME` bodies are little-endian 32-bit words (the ring's own
 * frame words, section 5 of docs/replay-format.md); every other body is one MessagePack map with
 * string keys, the encoding of replay file headers.
 */
import { Packr, Unpackr } from 'msgpackr';
import { REPLAY_FORMAT_VERSION } from '../replay/replayFormat';
import { LiveError } from './LiveError';

/** The protocol's name, in every hello. */
export const LIVE_PROTOCOL = 'rewindable-live';
/**
 * The protocol version this code speaks (and the newest it accepts). 2: frames carry their custom
 * field section and META the field schemas (a version-1 viewer would refuse those frames, so it is
 * told to update); version-1 streams (no fields) are still read.
 */
export const LIVE_PROTOCOL_VERSION = 2;
/** The frame word layout the frames follow: the replay file format's version. */
export const LIVE_FORMAT_VERSION = REPLAY_FORMAT_VERSION;

/** Message types (byte 0 of every message). */
export const LiveMessageType = {
  /** game → all: who the game is (msgpack). Sent first, and again on every resync. */
  HELLO: 1,
  /** game → all: channels, kinds, skeletons, event kinds, static layers that changed (msgpack). */
  META: 2,
  /** game → all: one frame, with the lives it introduces or changes (binary). */
  FRAME: 3,
  /** viewer or server → game: send the hello, every description and the lives again with the next frame. */
  RESYNC: 4,
  /** viewer → game: a two-way command (msgpack). */
  COMMAND: 5,
  /** game → viewer: a command's outcome (msgpack). */
  COMMAND_RESULT: 6,
  /** server → viewer: the sessions it relays (msgpack). */
  SESSIONS: 7,
  /** viewer → server: follow one session (msgpack). */
  SUBSCRIBE: 8,
  /** server → client: why it is being disconnected (msgpack). */
  ERROR: 9,
  /** game → all: the session ended (no body). */
  BYE: 10,
} as const;
export type LiveMessageTypeCode = (typeof LiveMessageType)[keyof typeof LiveMessageType];

/** Bytes before every body. */
export const MESSAGE_HEADER_BYTES = 4;
/** Words of a FRAME message before its life records: type, frame, skipped, life count, life bytes, frame words. */
export const FRAME_MESSAGE_WORDS = 6;
/** Words of one life record before its label bytes: handle, id, spawn frame, kind, flags, label bytes. */
export const LIFE_RECORD_WORDS = 6;
/** Life record flag: the game ended this life (`despawn`). */
export const LIFE_ENDED = 1;
/** Life record flag: the record carries a label (else the life has none). */
export const LIFE_HAS_LABEL = 2;
/**
 * A FRAME message may be followed by zero padding up to the next multiple of this many bytes (the
 * sender reuses one view per size class instead of allocating a view per frame).
 */
export const FRAME_PADDING_BYTES = 1024;

/** Caps on what a receiver (viewer store or server) accepts; above them is `TOO_LARGE`. */
export interface LiveLimits {
  /** One message. */
  maxMessageBytes: number;
  /** Entities in one frame. */
  maxEntitiesPerFrame: number;
  /** Game handles (one past the largest). */
  maxHandles: number;
  /** Entity ids must be below this. */
  maxEntityId: number;
  /** Kinds and event kinds, each. */
  maxKinds: number;
  /** Any one string (UTF-16 code units). */
  maxStringLength: number;
  /** Static layers. */
  maxStaticLayers: number;
  /** Encoded words of all static layers, in bytes. */
  maxStaticBytes: number;
}

/** The limits used when none are given. */
export const DEFAULT_LIVE_LIMITS: Readonly<LiveLimits> = Object.freeze({
  maxMessageBytes: 16 * 1024 * 1024,
  maxEntitiesPerFrame: 1 << 18,
  maxHandles: 1 << 20,
  maxEntityId: 1 << 24,
  maxKinds: 1 << 12,
  maxStringLength: 1 << 12,
  maxStaticLayers: 256,
  maxStaticBytes: 8 * 1024 * 1024,
});

/** Who the game is: the body of `HELLO`. */
export interface LiveHello {
  /** Protocol version (`LIVE_PROTOCOL_VERSION`). */
  readonly version: number;
  /** The frame format version (`LIVE_FORMAT_VERSION`). */
  readonly formatVersion: number;
  /** A random id of this run of the game; viewers keep their copy across reconnects of one session. */
  readonly session: string;
  /** The game's name, for the session list. */
  readonly game: string;
  /** The game's build id. */
  readonly buildId: string;
  /** When the session started (ISO 8601). */
  readonly startedAt: string;
  /** The game ring's parameters: frames, arena bytes, entities per frame, entity ids. */
  readonly ring: {
    readonly maxFrames: number;
    readonly arenaBytes: number;
    readonly maxEntitiesPerFrame: number;
    readonly maxEntityId: number;
  };
  /** The two-way commands the game accepts (`pause`, `seek`); empty: none. */
  readonly commands: readonly LiveCommandName[];
}

/** A two-way command: `pause` the game (at `frame`, the viewer's position), `seek` its paused overlay to `frame`. */
export type LiveCommandName = 'pause' | 'seek';
export const LIVE_COMMANDS: readonly LiveCommandName[] = ['pause', 'seek'];

/** Body of `COMMAND`. */
export interface LiveCommand {
  readonly id: number;
  readonly command: LiveCommandName;
  readonly frame: number;
}

/** Body of `COMMAND_RESULT`. */
export interface LiveCommandResult {
  readonly id: number;
  readonly ok: boolean;
  readonly detail: string;
}

/** One session as the server lists it (body of `SESSIONS`: `{ sessions: [...] }`). */
export interface LiveSessionInfo {
  readonly session: string;
  readonly game: string;
  readonly buildId: string;
  readonly startedAt: string;
  /** Whether a game is connected now. */
  readonly connected: boolean;
  /** Frames relayed so far. */
  readonly frames: number;
  readonly viewers: number;
}

/** MessagePack as in replay files: maps as maps, never records, so any decoder reads them. */
const packr = new Packr({ useRecords: false, variableMapSize: true });
const unpackr = new Unpackr({ useRecords: false, mapsAsObjects: false, structuredClone: false, copyBuffers: true });

/**
 * A message of `type` whose body is `body` in MessagePack (everything but FRAME).
 *
 * @example
 * transport.send(encodeMessage(LiveMessageType.SUBSCRIBE, { session }));
 */
export function encodeMessage(type: LiveMessageTypeCode, body?: unknown): Uint8Array {
  const packed = body === undefined ? new Uint8Array(0) : packr.pack(body);
  const out = new Uint8Array(MESSAGE_HEADER_BYTES + packed.length);
  out[0] = type;
  out.set(packed, MESSAGE_HEADER_BYTES);
  return out;
}

/**
 * The type byte of a message, after checking the framing (binary, long enough, bytes 1–3 zero,
 * under the size limit).
 * @throws LiveError `BAD_MESSAGE`, `TOO_LARGE`.
 */
export function messageType(bytes: Uint8Array, maxBytes: number): LiveMessageTypeCode {
  if (!(bytes instanceof Uint8Array)) throw new LiveError('BAD_MESSAGE', 'expected a binary message');
  if (bytes.length > maxBytes)
    throw new LiveError('TOO_LARGE', `${bytes.length} bytes exceed the limit of ${maxBytes}`, 'message');
  if (bytes.length < MESSAGE_HEADER_BYTES)
    throw new LiveError('BAD_MESSAGE', `${bytes.length} bytes is shorter than the 4-byte message header`, 'message');
  if ((bytes[1] | bytes[2] | bytes[3]) !== 0)
    throw new LiveError('BAD_MESSAGE', 'bytes 1-3 of the message header are not 0', 'message');
  const t = bytes[0];
  if (t < LiveMessageType.HELLO || t > LiveMessageType.BYE)
    throw new LiveError('BAD_MESSAGE', `unknown message type ${t}`, 'message');
  return t as LiveMessageTypeCode;
}

/**
 * Decodes the MessagePack body of a non-FRAME message (`undefined` when empty): exactly one value,
 * maps decoded as `Map`.
 * @throws LiveError `CORRUPT`, `TRUNCATED`.
 */
export function decodeBody(bytes: Uint8Array, path: string): unknown {
  if (bytes.length === MESSAGE_HEADER_BYTES) return undefined;
  const body = bytes.subarray(MESSAGE_HEADER_BYTES);
  const values: unknown[] = [];
  try {
    unpackr.unpackMultiple(body, (value: unknown) => {
      values.push(value);
      return values.length < 2;
    });
  } catch (e) {
    const incomplete = typeof e === 'object' && e !== null && (e as { incomplete?: unknown }).incomplete === true;
    const message = e instanceof Error ? e.message : String(e);
    throw new LiveError(incomplete ? 'TRUNCATED' : 'CORRUPT', `MessagePack: ${message.slice(0, 200)}`, path);
  }
  if (values.length !== 1) throw new LiveError('CORRUPT', `${values.length} values in the body, expected 1`, path);
  return values[0];
}
