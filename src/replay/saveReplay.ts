import { Packr } from 'msgpackr';
import { HANDLE_MASK, HEADER_WORDS, H_ENTITY_COUNT, H_TOTAL_WORDS } from '../core/format/layout';
import type { FrameReader } from '../core/read/FrameReader';
import type { StaticLayers } from '../core/store/StaticLayers';
import { stringProblem } from '../core/validate/rules';
import { CHECKSUM_SEED, checksumWords } from './checksum';
import { ReplayError } from './ReplayError';
import {
  DEFAULT_REPLAY_LIMITS,
  HOST_IS_LITTLE_ENDIAN,
  MAX_FRAME_NUMBER,
  REPLAY_CODECS,
  REPLAY_FORMAT_VERSION,
  REPLAY_MAGIC,
} from './replayFormat';
import type { ReplayCompression } from './replayFormat';
import { xorDeltaBound, xorDeltaEncode } from './xorDelta';

/** What `saveReplay` reads: a `Recorder`, a `LoadedReplay`, or any reader (with optional static layers). */
export interface ReplaySource {
  readonly reader: FrameReader;
  readonly staticLayers?: StaticLayers | null;
}

/** A bookmark as plain data (the playback `Bookmarks` list maps to this). */
export interface ReplayBookmark {
  frame: number;
  label: string;
}

/** The info block the game fills in. */
export interface ReplayInfo {
  /** Where the replay was recorded (browser, OS, device). */
  platform: string;
  /** A note from the user (what went wrong). */
  note: string;
  /** Anything else, as strings (level, seed, player name...). */
  fields: Record<string, string>;
}

/** Settings of `saveReplay`; see `DEFAULT_SAVE_REPLAY_OPTIONS`. */
export interface SaveReplayOptions {
  /** The game's build id, checked on load (a mismatch is a warning). */
  buildId: string;
  /** Platform description; `null` uses `navigator.userAgent` when there is one, else ''. */
  platform: string | null;
  /** The user's note. */
  note: string;
  /** Free-form string fields. */
  fields: Readonly<Record<string, string>>;
  /** Bookmarks to store (plain data). */
  bookmarks: ReadonlyArray<Readonly<ReplayBookmark>>;
  /** Whether to store the static layers (navmesh, collision outlines...). */
  includeStaticLayers: boolean;
  /** Frame codec: `none` (fast, default) or `xor-delta` (smaller; see docs/replay-format.md). */
  compression: ReplayCompression;
  /** ISO 8601 time stamp to store; `null` uses the current time. */
  savedAt: string | null;
}

/** The defaults merged under the options given to `saveReplay`. */
export const DEFAULT_SAVE_REPLAY_OPTIONS: Readonly<SaveReplayOptions> = {
  buildId: '',
  platform: null,
  note: '',
  fields: {},
  bookmarks: [],
  includeStaticLayers: true,
  compression: 'none',
  savedAt: null,
};

// Maps as MessagePack maps (never msgpackr records), so any MessagePack decoder reads the header.
const packr = new Packr({ useRecords: false, variableMapSize: true });

const HANDLE_MASK_ = HANDLE_MASK;

function badInput(path: string, detail: string): never {
  throw new ReplayError('BAD_INPUT', detail, path);
}

/** A string the file can hold (the rule `stringProblem`: at most 65,536 units, no lone surrogate). */
function checkString(v: unknown, path: string): string {
  const problem = stringProblem(v);
  if (problem !== null) badInput(path, `the string ${problem}`);
  return v as string;
}

/** Game-provided names and labels: coerced to strings (JS callers may pass numbers), then length-checked. */
function gameString(v: unknown, path: string): string {
  return checkString(typeof v === 'string' ? v : String(v), path);
}

function defaultPlatform(): string {
  const nav = (globalThis as { navigator?: { userAgent?: unknown } }).navigator;
  return nav !== undefined && typeof nav.userAgent === 'string' ? nav.userAgent : '';
}

/** Writes a MessagePack array header (array32) at `o`; returns the new position. */
function writeArray32(out: Uint8Array, o: number, n: number): number {
  out[o] = 0xdd;
  out[o + 1] = n >>> 24;
  out[o + 2] = (n >>> 16) & 0xff;
  out[o + 3] = (n >>> 8) & 0xff;
  out[o + 4] = n & 0xff;
  return o + 5;
}

/** Writes a MessagePack bin header of the smallest form for `n` bytes; returns the new position. */
function writeBinHeader(out: Uint8Array, o: number, n: number): number {
  if (n < 0x100) {
    out[o] = 0xc4;
    out[o + 1] = n;
    return o + 2;
  }
  if (n < 0x10000) {
    out[o] = 0xc5;
    out[o + 1] = n >>> 8;
    out[o + 2] = n & 0xff;
    return o + 3;
  }
  out[o] = 0xc6;
  out[o + 1] = n >>> 24;
  out[o + 2] = (n >>> 16) & 0xff;
  out[o + 3] = (n >>> 8) & 0xff;
  out[o + 4] = n & 0xff;
  return o + 5;
}

function binHeaderSize(n: number): number {
  return n < 0x100 ? 2 : n < 0x10000 ? 3 : 5;
}

/**
 * Saves every frame the source's ring holds, with the entity metadata, channels, kinds, skeletons,
 * event kinds, bookmarks and (optionally) static layers, as a `.rwd` file (see
 * docs/replay-format.md). Frame payloads are the ring's words, copied as binary blocks.
 *
 * Reads the source only; a frame still open (between `beginFrame` and `endFrame`) is not saved.
 *
 * @throws ReplayError `BAD_INPUT` for invalid options (e.g. a string with a lone surrogate or longer
 *   than 65,536 units, a bookmark frame that is not an
 *   integer), `UNSUPPORTED_PLATFORM` on a big-endian host.
 * @example
 * const bytes = saveReplay(recorder, { buildId: GAME_BUILD, note: 'stuck in wall', bookmarks: playback.bookmarks.list() });
 * const url = URL.createObjectURL(new Blob([bytes], { type: 'application/octet-stream' }));
 */
export function saveReplay(source: ReplaySource, options: Partial<SaveReplayOptions> = {}): Uint8Array {
  const o: SaveReplayOptions = { ...DEFAULT_SAVE_REPLAY_OPTIONS, ...options };
  if (!HOST_IS_LITTLE_ENDIAN) throw new ReplayError('UNSUPPORTED_PLATFORM', 'replay files need a little-endian host');
  if (!REPLAY_CODECS.includes(o.compression)) badInput('options.compression', `unknown codec ${String(o.compression)}`);
  const limits = DEFAULT_REPLAY_LIMITS;

  // Options: strings and bookmarks as the loader will accept them.
  const buildId = checkString(o.buildId, 'options.buildId');
  const platform = checkString(o.platform ?? defaultPlatform(), 'options.platform');
  const note = checkString(o.note, 'options.note');
  const savedAt = checkString(o.savedAt ?? new Date().toISOString(), 'options.savedAt');
  const fields = new Map<string, string>();
  if (o.fields === null || typeof o.fields !== 'object') badInput('options.fields', 'expected an object of strings');
  for (const [key, value] of Object.entries(o.fields)) {
    checkString(key, 'options.fields');
    fields.set(key, checkString(value, `options.fields.${key}`));
  }
  if (fields.size > limits.maxInfoFields) badInput('options.fields', `more than ${limits.maxInfoFields} fields`);
  if (!Array.isArray(o.bookmarks)) badInput('options.bookmarks', 'expected an array of { frame, label }');
  if (o.bookmarks.length > limits.maxBookmarks)
    badInput('options.bookmarks', `more than ${limits.maxBookmarks} bookmarks`);
  const bookmarks = o.bookmarks.map((b, i) => {
    const frame = b?.frame;
    if (!(Number.isInteger(frame) && frame >= 0 && frame <= MAX_FRAME_NUMBER)) {
      badInput(`options.bookmarks[${i}].frame`, `expected an integer frame number, found ${String(frame)}`);
    }
    return { frame, label: checkString(b.label, `options.bookmarks[${i}].label`) };
  });

  const reader = source.reader;
  const ring = reader.ring;
  const table = reader.entities;
  const u32 = ring.u32;
  const count = ring.frameCount;
  const first = count > 0 ? ring.oldestFrame : 0;
  if (count > 0 && first + count - 1 > MAX_FRAME_NUMBER) badInput('source', `frame numbers above ${MAX_FRAME_NUMBER}`);

  // One pass over the frames: their extent, the handles they use, the checksum.
  const offsets = new Int32Array(count);
  const lengths = new Int32Array(count);
  const referenced = new Uint8Array(table.highWater);
  let totalWords = 0;
  let checksum = CHECKSUM_SEED;
  for (let i = 0; i < count; i++) {
    const frame = first + i;
    const at = ring.offsetOf(frame);
    const words = u32[at + H_TOTAL_WORDS];
    if (words < HEADER_WORDS || words > ring.wordsOf(frame))
      badInput(`source.ring[${frame}]`, 'frame size is inconsistent');
    offsets[i] = at;
    lengths[i] = words;
    totalWords += words;
    const n = u32[at + H_ENTITY_COUNT];
    const base = at + HEADER_WORDS;
    for (let k = 0; k < n; k++) {
      const h = u32[base + k] & HANDLE_MASK_;
      if (h >= referenced.length || table.used[h] === 0)
        badInput(`source.ring[${frame}]`, `handle ${h} is not in the entity table`);
      referenced[h] = 1;
    }
    checksum = checksumWords(u32, at, words, checksum);
  }

  // Entity metadata of every handle the frames use, as columns.
  const newest = first + count - 1;
  const eHandle: number[] = [];
  const eId: number[] = [];
  const eSpawn: number[] = [];
  const eLast: number[] = [];
  const eKind: number[] = [];
  const eLabel: Array<string | null> = [];
  const eEnded: boolean[] = [];
  for (let h = 0; h < referenced.length; h++) {
    if (referenced[h] === 0) continue;
    eHandle.push(h);
    eId.push(table.ids[h]);
    eSpawn.push(table.spawnFrames[h]);
    eLast.push(Math.max(table.spawnFrames[h], Math.min(table.lastFrame(h), newest)));
    eKind.push(table.kindOf[h]);
    const label = table.labels[h];
    eLabel.push(label === undefined ? null : gameString(label, `source.entities.label[${h}]`));
    eEnded.push(table.isEnded(h));
  }

  const kinds = table.kinds.map((k, i) => gameString(k, `source.entities.kinds[${i}]`));
  const skeletons = kinds.map((_, i) => {
    const s = table.skeletons[i];
    return s === undefined ? null : Array.from(s);
  });
  const eventKinds = reader.eventKinds.map((k, i) => gameString(k, `source.eventKinds[${i}]`));
  const textures = reader.textures.map((k, i) => gameString(k, `source.textures[${i}]`));
  // Custom field schemas: kind, field names and type codes, the kind's interned enum names.
  const fieldSchemas = reader.fieldSchemas.list().map((sc, i) => ({
    kind: gameString(sc.kind, `source.fieldSchemas[${i}].kind`),
    names: sc.fields.map((fi) => gameString(fi.name, `source.fieldSchemas[${i}].names`)),
    types: Array.from(sc.types),
    enumNames: sc.enumNames.map((n) => gameString(n, `source.fieldSchemas[${i}].enumNames`)),
  }));
  const channels = reader.channels.list().map((c) => ({
    name: checkString(c.name, `source.channels[${c.index}].name`),
    color: c.color & 0xffffff,
    budget: c.budget,
  }));
  const staticLayers: Array<{ name: string; primCount: number; words: Uint8Array }> = [];
  if (o.includeStaticLayers && source.staticLayers) {
    for (const layer of source.staticLayers.list()) {
      staticLayers.push({
        name: gameString(layer.name, 'source.staticLayers.name'),
        primCount: layer.primCount,
        words: new Uint8Array(layer.words.buffer, layer.words.byteOffset, layer.words.byteLength),
      });
    }
  }

  const header = {
    buildId,
    savedAt,
    info: { platform, note, fields },
    channels,
    kinds,
    skeletons,
    eventKinds,
    textures,
    fieldSchemas,
    entities: {
      handle: eHandle,
      id: eId,
      spawnFrame: eSpawn,
      lastFrame: eLast,
      kind: eKind,
      label: eLabel,
      ended: eEnded,
    },
    bookmarks,
    staticLayers,
    frames: { first, count, words: totalWords, codec: o.compression, checksum },
  };
  const head = packr.pack(REPLAY_MAGIC);
  const version = packr.pack(REPLAY_FORMAT_VERSION);
  const headerBytes = packr.pack(header);

  // The frames: an array of bins, written straight into the output (one copy of each frame).
  let payloads: Uint8Array | null = null;
  const payloadEnds = new Int32Array(count);
  let framesSize = 5;
  if (o.compression === 'none') {
    for (let i = 0; i < count; i++) framesSize += binHeaderSize(lengths[i] * 4) + lengths[i] * 4;
  } else {
    let bound = 0;
    for (let i = 0; i < count; i++) bound += xorDeltaBound(lengths[i]);
    payloads = new Uint8Array(bound);
    let p = 0;
    for (let i = 0; i < count; i++) {
      const prevAt = i > 0 ? offsets[i - 1] : 0;
      const prevWords = i > 0 ? lengths[i - 1] : 0;
      p = xorDeltaEncode(u32, offsets[i], lengths[i], u32, prevAt, prevWords, payloads, p);
      payloadEnds[i] = p;
      const size = p - (i > 0 ? payloadEnds[i - 1] : 0);
      framesSize += binHeaderSize(size) + size;
    }
  }

  const prefix = head.length + version.length + headerBytes.length;
  const out = new Uint8Array(prefix + framesSize);
  out.set(head, 0);
  out.set(version, head.length);
  out.set(headerBytes, head.length + version.length);
  let w = writeArray32(out, prefix, count);
  const u8 = ring.u8;
  for (let i = 0; i < count; i++) {
    if (payloads === null) {
      const bytes = lengths[i] * 4;
      w = writeBinHeader(out, w, bytes);
      out.set(u8.subarray(offsets[i] * 4, offsets[i] * 4 + bytes), w);
      w += bytes;
    } else {
      const start = i > 0 ? payloadEnds[i - 1] : 0;
      const size = payloadEnds[i] - start;
      w = writeBinHeader(out, w, size);
      out.set(payloads.subarray(start, payloadEnds[i]), w);
      w += size;
    }
  }
  return out;
}
