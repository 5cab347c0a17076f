import { HANDLE_MASK, HEADER_WORDS, H_ENTITY_COUNT, MAX_HANDLES, MAX_TEXTURES } from '../core/format/layout';
import { channelBudgetProblem, colorProblem, skeletonProblem } from '../core/validate/rules';
import { FrameReader } from '../core/read/FrameReader';
import { FieldSchemas } from '../core/fields/FieldSchemas';
import { FIELD_TYPES, MAX_ENUM_NAMES, MAX_FIELD_SCHEMAS, MAX_FIELDS_PER_KIND } from '../core/fields/fieldLayout';
import { ChannelRegistry, MAX_CHANNELS } from '../core/store/ChannelRegistry';
import { EntityTable } from '../core/store/EntityTable';
import { FrameRing } from '../core/store/FrameRing';
import { StaticLayers } from '../core/store/StaticLayers';
import { CHECKSUM_SEED, checksumWords } from './checksum';
import { frameChannelMask, primitiveChannelMask } from '../core/format/channelMask';
import { checkFrame, checkPrimitives, rowOfSorted } from './checkFrames';
import type { FrameCheckContext } from './checkFrames';
import { ReplayError } from './ReplayError';
import type { ReplayWarning } from './ReplayError';
import {
  BUILTIN_CHANNEL_NAMES,
  DEFAULT_REPLAY_LIMITS,
  HOST_IS_LITTLE_ENDIAN,
  MAX_FRAME_NUMBER,
  REPLAY_CODECS,
  REPLAY_FIELDS_VERSION,
  REPLAY_FORMAT_VERSION,
  REPLAY_MAGIC_BYTES,
  REPLAY_MIN_FORMAT_VERSION,
} from './replayFormat';
import type { ReplayCompression, ReplayLimits } from './replayFormat';
import type { ReplayBookmark, ReplayInfo } from './saveReplay';
import { MapReader } from './MapReader';
import { MsgDecoder } from './MsgDecoder';
import { asArray, asBin, asBool, asInt, asString, corrupt, tooLarge, typeName } from './schema';
import { WarningList } from './WarningList';
import { xorDeltaDecode, xorDeltaHeader } from './xorDelta';
import type { XorDeltaHeader } from './xorDelta';

/** Settings of `loadReplay`; see `DEFAULT_LOAD_REPLAY_OPTIONS`. */
export interface LoadReplayOptions {
  /** The running game's build id; a file from another build loads with a `BUILD_MISMATCH` warning. `null`: no check. */
  expectedBuildId: string | null;
  /** Whether to check the frame checksum (a pass over every word; off only for diagnosis). */
  verifyChecksum: boolean;
  /** Caps on every size and count (merged over `DEFAULT_REPLAY_LIMITS`). */
  limits: Partial<ReplayLimits>;
  /** Called for each warning as it is found (they are also in `LoadedReplay.warnings`). */
  onWarning: ((warning: ReplayWarning) => void) | null;
  /**
   * Diagnostics: incremented by the words, records and handles walked, so tests can prove the work
   * is bounded by the input rather than by counts the file claims.
   */
  workCounter: { units: number } | null;
}

/** The defaults merged under the options given to `loadReplay`. */
export const DEFAULT_LOAD_REPLAY_OPTIONS: Readonly<LoadReplayOptions> = {
  expectedBuildId: null,
  verifyChecksum: true,
  limits: {},
  onWarning: null,
  workCounter: null,
};

/** A loaded replay: fresh core objects over the file's frames, independent of any live recording. */
export interface LoadedReplay {
  /** Format version of the file. */
  readonly formatVersion: number;
  readonly buildId: string;
  /** When it was saved (ISO 8601, as written). */
  readonly savedAt: string;
  /** The info block; `fields` is a prototype-less object. */
  readonly info: ReplayInfo;
  readonly bookmarks: ReplayBookmark[];
  readonly compression: ReplayCompression;
  /** Size of the file. */
  readonly fileBytes: number;
  /** Size of the frame words (uncompressed). */
  readonly frameBytes: number;
  readonly ring: FrameRing;
  readonly entities: EntityTable;
  readonly channels: ChannelRegistry;
  readonly eventKinds: string[];
  /** Texture names of the display state (format 2; empty in a format-1 file). */
  readonly textures: string[];
  readonly staticLayers: StaticLayers;
  /** Reads the loaded frames, like `recorder.reader` reads live ones. */
  readonly reader: FrameReader;
  /** Non-fatal problems (build mismatch, unknown fields). */
  readonly warnings: ReplayWarning[];
}

const MAX_WARNINGS = 64;
const MAX_U32 = 0xffffffff;
/**
 * The loaded entity table keeps the file's handles while it is at most this dense (slots ≤ 2 ×
 * rows + 1,024); a sparser file has its handles renumbered to rows, so that memory follows the
 * rows the file holds, not the largest handle it names.
 */
const DENSE_FACTOR = 2;
const DENSE_SLACK = 1024;

interface ParsedChannel {
  name: string;
  color: number;
  budget: number;
}

interface ParsedEntities {
  handle: Int32Array;
  id: Int32Array;
  spawn: Int32Array;
  last: Int32Array;
  kind: Int32Array;
  label: Array<string | undefined>;
  ended: Uint8Array;
}

interface ParsedFrames {
  first: number;
  count: number;
  words: number;
  codec: ReplayCompression;
  checksum: number | null;
}

/**
 * Reads the version after the magic: a MessagePack non-negative integer of any width (fixint,
 * uint8..uint64, or int8..int64 holding a value ≥ 0). A version too large for a double is still
 * larger than any this reader knows.
 */
function readVersion(bytes: Uint8Array, at: number): { version: number; next: number } {
  if (at >= bytes.length) throw new ReplayError('TRUNCATED', 'the file ends before the format version', 'version');
  const t = bytes[at];
  const width =
    t <= 0x7f ? 0 : t >= 0xcc && t <= 0xcf ? 1 << (t - 0xcc) : t >= 0xd0 && t <= 0xd3 ? 1 << (t - 0xd0) : -1;
  if (width < 0) corrupt('version', `expected a non-negative integer (MessagePack type byte 0x${t.toString(16)})`);
  if (at + 1 + width > bytes.length)
    throw new ReplayError('TRUNCATED', 'the file ends inside the format version', 'version');
  if (t >= 0xd0 && bytes[at + 1] >= 0x80) corrupt('version', 'the format version is negative');
  let version = width === 0 ? t : 0;
  for (let i = 0; i < width; i++) version = version * 256 + bytes[at + 1 + i];
  return { version, next: at + 1 + width };
}

function parseString(v: unknown, path: string, limits: ReplayLimits): string {
  return asString(v, path, limits.maxStringLength);
}

function parseInfo(v: unknown, limits: ReplayLimits, warnings: WarningList): ReplayInfo {
  const m = MapReader.of(v, 'header.info', warnings);
  const platform = parseString(m.req('platform'), 'header.info.platform', limits);
  const note = parseString(m.req('note'), 'header.info.note', limits);
  const fields = Object.create(null) as Record<string, string>;
  const raw = m.opt('fields');
  if (raw !== undefined) {
    if (!(raw instanceof Map)) corrupt('header.info.fields', `expected a map, found ${typeName(raw)}`);
    if (raw.size > limits.maxInfoFields)
      tooLarge('header.info.fields', `${raw.size} fields exceed the limit of ${limits.maxInfoFields}`);
    for (const [key, value] of raw) {
      const k = parseString(key, 'header.info.fields', limits);
      // A prototype-less object: a key such as "__proto__" is an ordinary own property.
      fields[k] = parseString(value, `header.info.fields[${JSON.stringify(k.slice(0, 64))}]`, limits);
    }
  }
  m.done();
  return { platform, note, fields };
}

function parseChannels(v: unknown, limits: ReplayLimits, warnings: WarningList): ParsedChannel[] {
  const arr = asArray(v, 'header.channels', MAX_CHANNELS);
  if (arr.length < BUILTIN_CHANNEL_NAMES.length)
    corrupt('header.channels', `${arr.length} channels, at least ${BUILTIN_CHANNEL_NAMES.length} expected`);
  const names = new Set<string>();
  return arr.map((c, i) => {
    const path = `header.channels[${i}]`;
    const m = MapReader.of(c, path, warnings);
    const name = parseString(m.req('name'), `${path}.name`, limits);
    if (i < BUILTIN_CHANNEL_NAMES.length && name !== BUILTIN_CHANNEL_NAMES[i]) {
      corrupt(
        `${path}.name`,
        `built-in channel ${i} must be "${BUILTIN_CHANNEL_NAMES[i]}", found ${JSON.stringify(name.slice(0, 64))}`,
      );
    }
    if (names.has(name)) corrupt(`${path}.name`, `channel ${JSON.stringify(name.slice(0, 64))} is listed twice`);
    names.add(name);
    const color = m.req('color');
    const budget = m.req('budget');
    const problem = colorProblem(color) ?? channelBudgetProblem(budget);
    if (problem !== null) corrupt(`${path}.${colorProblem(color) !== null ? 'color' : 'budget'}`, problem);
    m.done();
    return { name, color: color as number, budget: budget as number };
  });
}

function parseNames(v: unknown, path: string, limits: ReplayLimits, unique: boolean): string[] {
  const arr = asArray(v, path, limits.maxKinds);
  const seen = new Set<string>();
  return arr.map((k, i) => {
    const name = parseString(k, `${path}[${i}]`, limits);
    if (unique) {
      if (seen.has(name)) corrupt(`${path}[${i}]`, `${JSON.stringify(name.slice(0, 64))} is listed twice`);
      seen.add(name);
    }
    return name;
  });
}

/** Parent arrays, by the recorder's rule (`skeletonProblem`): a viewer walking to the root must end. */
function parseSkeletons(v: unknown, kindCount: number): Array<Int16Array | undefined> {
  if (v === undefined) return [];
  const arr = asArray(v, 'header.skeletons', kindCount);
  return arr.map((s, k) => {
    if (s === null) return undefined;
    const path = `header.skeletons[${k}]`;
    if (!Array.isArray(s)) corrupt(path, `expected an array or nil, found ${typeName(s)}`);
    const problem = skeletonProblem(s);
    if (problem !== null) corrupt(path, `the skeleton ${problem}`);
    return Int16Array.from(s as number[]);
  });
}

function intColumn(m: MapReader, key: string, n: number, min: number, max: number, large = false): Int32Array {
  const path = `header.entities.${key}`;
  const arr = asArray(m.req(key), path, n);
  if (arr.length !== n) corrupt(path, `${arr.length} entries, the handle column has ${n}`);
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) out[i] = asInt(arr[i], `${path}[${i}]`, min, max, large);
  return out;
}

function parseEntities(v: unknown, kindCount: number, limits: ReplayLimits, warnings: WarningList): ParsedEntities {
  const m = MapReader.of(v, 'header.entities', warnings);
  const handles = asArray(m.req('handle'), 'header.entities.handle', limits.maxHandles);
  const n = handles.length;
  const handle = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const h = asInt(handles[i], `header.entities.handle[${i}]`, 0, MAX_HANDLES - 1);
    if (i > 0 && h <= handle[i - 1]) corrupt(`header.entities.handle[${i}]`, 'handles must be strictly increasing');
    handle[i] = h;
  }
  const id = intColumn(m, 'id', n, 0, Math.min(limits.maxEntityId, 1 << 30) - 1, true);
  const spawn = intColumn(m, 'spawnFrame', n, 0, MAX_FRAME_NUMBER);
  const last = intColumn(m, 'lastFrame', n, 0, MAX_FRAME_NUMBER);
  for (let i = 0; i < n; i++)
    if (last[i] < spawn[i])
      corrupt(`header.entities.lastFrame[${i}]`, `${last[i]} is before the spawn frame ${spawn[i]}`);
  const kind = intColumn(m, 'kind', n, -1, kindCount - 1);
  const labels = asArray(m.req('label'), 'header.entities.label', n);
  if (labels.length !== n) corrupt('header.entities.label', `${labels.length} entries, the handle column has ${n}`);
  const label = labels.map((l, i) => (l === null ? undefined : parseString(l, `header.entities.label[${i}]`, limits)));
  const endedRaw = asArray(m.req('ended'), 'header.entities.ended', n);
  if (endedRaw.length !== n) corrupt('header.entities.ended', `${endedRaw.length} entries, the handle column has ${n}`);
  const ended = new Uint8Array(n);
  for (let i = 0; i < n; i++) ended[i] = asBool(endedRaw[i], `header.entities.ended[${i}]`) ? 1 : 0;
  m.done();
  return { handle, id, spawn, last, kind, label, ended };
}

function parseBookmarks(v: unknown, limits: ReplayLimits, warnings: WarningList): ReplayBookmark[] {
  if (v === undefined) return [];
  const arr = asArray(v, 'header.bookmarks', limits.maxBookmarks);
  return arr.map((b, i) => {
    const path = `header.bookmarks[${i}]`;
    const m = MapReader.of(b, path, warnings);
    const frame = asInt(m.req('frame'), `${path}.frame`, 0, MAX_FRAME_NUMBER);
    const label = parseString(m.req('label'), `${path}.label`, limits);
    m.done();
    return { frame, label };
  });
}

function parseStaticLayers(
  v: unknown,
  channelCount: number,
  limits: ReplayLimits,
  warnings: WarningList,
  work: { units: number } | null,
): Array<{ name: string; primCount: number; words: Uint32Array }> {
  if (v === undefined) return [];
  const arr = asArray(v, 'header.staticLayers', limits.maxStaticLayers);
  const names = new Set<string>();
  let bytes = 0;
  return arr.map((l, i) => {
    const path = `header.staticLayers[${i}]`;
    const m = MapReader.of(l, path, warnings);
    const name = parseString(m.req('name'), `${path}.name`, limits);
    if (names.has(name)) corrupt(`${path}.name`, `layer ${JSON.stringify(name.slice(0, 64))} is listed twice`);
    names.add(name);
    const primCount = asInt(m.req('primCount'), `${path}.primCount`, 0, MAX_U32);
    const bin = asBin(m.req('words'), `${path}.words`);
    if (bin.length % 4 !== 0) corrupt(`${path}.words`, `${bin.length} bytes is not a whole number of words`);
    bytes += bin.length;
    if (bytes > limits.maxStaticBytes)
      tooLarge(`${path}.words`, `static layers exceed the limit of ${limits.maxStaticBytes} bytes`);
    m.done();
    const words = new Uint32Array(bin.length / 4);
    new Uint8Array(words.buffer).set(bin);
    const walked = checkPrimitives(
      words,
      new Float32Array(words.buffer),
      0,
      words.length,
      primCount,
      channelCount,
      `${path}.words`,
    );
    if (work !== null) work.units += walked;
    return { name, primCount, words };
  });
}

/** The custom field schemas of a format-3 header: each kind among `kinds` once, fields and enum names valid. */
function parseFieldSchemas(v: unknown, kinds: string[], limits: ReplayLimits, warnings: WarningList): FieldSchemas {
  const schemas = new FieldSchemas();
  if (v === undefined) return schemas;
  const arr = asArray(v, 'header.fieldSchemas', Math.min(MAX_FIELD_SCHEMAS, limits.maxKinds));
  arr.forEach((raw, i) => {
    const path = `header.fieldSchemas[${i}]`;
    const m = MapReader.of(raw, path, warnings);
    const kind = parseString(m.req('kind'), `${path}.kind`, limits);
    if (!kinds.includes(kind)) corrupt(`${path}.kind`, `${JSON.stringify(kind.slice(0, 64))} is not among the kinds`);
    if (schemas.ofKind(kind) !== undefined)
      corrupt(`${path}.kind`, `${JSON.stringify(kind.slice(0, 64))} has two schemas`);
    const names = asArray(m.req('names'), `${path}.names`, MAX_FIELDS_PER_KIND);
    const types = asArray(m.req('types'), `${path}.types`, MAX_FIELDS_PER_KIND);
    if (names.length !== types.length) corrupt(`${path}.types`, `${types.length} types for ${names.length} names`);
    const pairs = names.map(
      (n, k) =>
        [
          parseString(n, `${path}.names[${k}]`, limits),
          FIELD_TYPES[asInt(types[k], `${path}.types[${k}]`, 0, FIELD_TYPES.length - 1)],
        ] as const,
    );
    const enumNames = asArray(m.req('enumNames'), `${path}.enumNames`, MAX_ENUM_NAMES).map((n, k) =>
      parseString(n, `${path}.enumNames[${k}]`, limits),
    );
    m.done();
    let schema: ReturnType<FieldSchemas['declare']>;
    try {
      schema = schemas.declare(kind, pairs);
    } catch (e) {
      corrupt(path, e instanceof Error ? e.message.replace(/^rewindable: /, '') : String(e));
    }
    enumNames.forEach((n, k) => {
      if (schema.code(n) !== k) corrupt(`${path}.enumNames[${k}]`, `${JSON.stringify(n.slice(0, 64))} is listed twice`);
    });
  });
  return schemas;
}

function parseFramesSummary(v: unknown, limits: ReplayLimits, warnings: WarningList): ParsedFrames {
  const m = MapReader.of(v, 'header.frames', warnings);
  const first = asInt(m.req('first'), 'header.frames.first', 0, MAX_FRAME_NUMBER);
  const count = asInt(m.req('count'), 'header.frames.count', 0, limits.maxFrames, true);
  if (count > 0 && first + count - 1 > MAX_FRAME_NUMBER)
    corrupt('header.frames.count', `frames past ${MAX_FRAME_NUMBER}`);
  const words = asInt(
    m.req('words'),
    'header.frames.words',
    count * HEADER_WORDS,
    Math.floor(limits.maxFrameBytes / 4),
    true,
  );
  const codecName = parseString(m.req('codec'), 'header.frames.codec', limits);
  const codec = REPLAY_CODECS.find((c) => c === codecName);
  if (codec === undefined) corrupt('header.frames.codec', `unknown codec ${JSON.stringify(codecName.slice(0, 64))}`);
  const rawChecksum = m.opt('checksum');
  const checksum = rawChecksum === undefined ? null : asInt(rawChecksum, 'header.frames.checksum', 0, MAX_U32);
  m.done();
  return { first, count, words, codec, checksum };
}

/** Rewrites every entity word's handle (sorted column `handles`) as its row, in `count` frames from `first`. */
function renumberHandles(ring: FrameRing, first: number, count: number, handles: Int32Array): void {
  const u = ring.u32;
  for (let i = 0; i < count; i++) {
    const at = ring.offsetOf(first + i);
    const n = u[at + H_ENTITY_COUNT];
    for (let k = at + HEADER_WORDS; k < at + HEADER_WORDS + n; k++) {
      const w = u[k];
      u[k] = (w & ~HANDLE_MASK) | rowOfSorted(handles, w & HANDLE_MASK);
    }
  }
}

/**
 * Loads a `.rwd` file into fresh core objects (ring, entity table, channels, event kinds, static
 * layers) and a `FrameReader` over them, after validating the magic, the version and every size,
 * count and frame section, so nothing the reader later decodes can be out of bounds. Never touches
 * a live recording.
 *
 * @throws ReplayError with a `code` (`BAD_MAGIC`, `NEWER_VERSION`, `TRUNCATED`, `CORRUPT`,
 *   `CHECKSUM`, `TOO_LARGE`...) and a `path` naming what is wrong. Nothing else escapes.
 * @example
 * const replay = loadReplay(await file.arrayBuffer(), { expectedBuildId: GAME_BUILD });
 * for (const w of replay.warnings) console.warn(w.message);
 * const playback = new Playback(replay.reader);
 */
export function loadReplay(bytes: Uint8Array | ArrayBuffer, options: Partial<LoadReplayOptions> = {}): LoadedReplay {
  try {
    return load(bytes, options);
  } catch (e) {
    if (e instanceof ReplayError) throw e;
    // Anything else still reaches the caller typed: an allocation the engine refused is TOO_LARGE.
    const message = e instanceof Error ? e.message : String(e);
    if (e instanceof RangeError && /alloc|length/i.test(message))
      throw new ReplayError('TOO_LARGE', `out of memory: ${message}`);
    throw new ReplayError('CORRUPT', `unexpected failure: ${message}`);
  }
}

function load(input: Uint8Array | ArrayBuffer, options: Partial<LoadReplayOptions>): LoadedReplay {
  const o: LoadReplayOptions = { ...DEFAULT_LOAD_REPLAY_OPTIONS, ...options };
  const limits: ReplayLimits = { ...DEFAULT_REPLAY_LIMITS, ...o.limits };
  const work = o.workCounter;
  const bytes = input instanceof ArrayBuffer ? new Uint8Array(input) : input;
  if (!(bytes instanceof Uint8Array))
    throw new ReplayError('BAD_INPUT', `expected a Uint8Array or ArrayBuffer, found ${typeName(bytes)}`);
  if (!HOST_IS_LITTLE_ENDIAN) throw new ReplayError('UNSUPPORTED_PLATFORM', 'replay files need a little-endian host');
  if (bytes.length > limits.maxFileBytes) {
    throw new ReplayError('TOO_LARGE', `${bytes.length} bytes exceed the limit of ${limits.maxFileBytes}`, 'file');
  }
  if (work !== null) work.units += 1;

  // Magic, then version: checked on raw bytes, before anything is decoded.
  for (let i = 0; i < REPLAY_MAGIC_BYTES.length; i++) {
    if (i >= bytes.length) {
      const detail =
        bytes.length === 0
          ? 'the file is empty'
          : `the file ends after ${bytes.length} bytes, inside the RWND signature`;
      throw new ReplayError('TRUNCATED', detail, 'magic');
    }
    if (bytes[i] !== REPLAY_MAGIC_BYTES[i])
      throw new ReplayError('BAD_MAGIC', 'not a rewindable replay (no RWND signature)', 'magic');
  }
  const { version, next } = readVersion(bytes, REPLAY_MAGIC_BYTES.length);
  if (version > REPLAY_FORMAT_VERSION) {
    throw new ReplayError(
      'NEWER_VERSION',
      `the file is format version ${version}; this reader knows versions up to ${REPLAY_FORMAT_VERSION}. Update rewindable to open it.`,
      'version',
    );
  }
  if (version < REPLAY_MIN_FORMAT_VERSION) {
    throw new ReplayError(
      'UNSUPPORTED_VERSION',
      `format version ${version} is not supported (${REPLAY_MIN_FORMAT_VERSION}..${REPLAY_FORMAT_VERSION} are)`,
      'version',
    );
  }

  // The header map and the frames array.
  if (next >= bytes.length) throw new ReplayError('TRUNCATED', 'the file ends after the format version', 'header');
  const decoder = new MsgDecoder(bytes);
  const headerValue = decoder.decode(next, 'header');
  if (decoder.position >= bytes.length) throw new ReplayError('TRUNCATED', 'the file ends after the header', 'frames');
  const framesValue = decoder.decode(decoder.position, 'frames');
  const end = decoder.position;
  if (end !== bytes.length) corrupt('file', `${bytes.length - end} unexpected bytes after the frames`);

  const warnings = new WarningList(MAX_WARNINGS, o.onWarning);
  const h = MapReader.of(headerValue, 'header', warnings);
  const buildId = parseString(h.req('buildId'), 'header.buildId', limits);
  const savedAtRaw = h.opt('savedAt');
  const savedAt = savedAtRaw === undefined ? '' : parseString(savedAtRaw, 'header.savedAt', limits);
  const info = parseInfo(h.req('info'), limits, warnings);
  const channelList = parseChannels(h.req('channels'), limits, warnings);
  const kinds = parseNames(h.req('kinds'), 'header.kinds', limits, true);
  const skeletons = parseSkeletons(h.opt('skeletons'), kinds.length);
  const eventKinds = parseNames(h.req('eventKinds'), 'header.eventKinds', limits, false);
  // Format 2: texture names of the display state; a format-1 file has none (and no display section).
  const texturesRaw = h.opt('textures');
  const textures = texturesRaw === undefined ? [] : parseNames(texturesRaw, 'header.textures', limits, false);
  if (textures.length > MAX_TEXTURES)
    tooLarge('header.textures', `${textures.length} texture names exceed the limit of ${MAX_TEXTURES}`);
  const fieldSchemas =
    version >= REPLAY_FIELDS_VERSION ? parseFieldSchemas(h.opt('fieldSchemas'), kinds, limits, warnings) : null;
  const ents = parseEntities(h.req('entities'), kinds.length, limits, warnings);
  const bookmarks = parseBookmarks(h.opt('bookmarks'), limits, warnings);
  const layers = parseStaticLayers(h.opt('staticLayers'), channelList.length, limits, warnings, work);
  const summary = parseFramesSummary(h.req('frames'), limits, warnings);
  h.done();

  // Frame payloads: sizes against the real bytes, before allocating the arena.
  const list = asArray(framesValue, 'frames', limits.maxFrames);
  const count = summary.count;
  if (list.length !== count) corrupt('frames', `${list.length} frames present, the header says ${count}`);
  const maxWords = Math.floor(limits.maxFrameBytes / 4);
  const frameWords = new Int32Array(count);
  const dataAt = new Int32Array(count);
  const bins: Uint8Array[] = new Array<Uint8Array>(count);
  const vh: XorDeltaHeader = { words: 0, dataAt: 0 };
  let total = 0;
  let arenaWords = 0;
  for (let i = 0; i < count; i++) {
    const bin = asBin(list[i], `frames[${i}]`);
    let words: number;
    if (summary.codec === 'none') {
      if (bin.length % 4 !== 0) corrupt(`frames[${i}]`, `${bin.length} bytes is not a whole number of words`);
      words = bin.length / 4;
      dataAt[i] = 0;
    } else {
      xorDeltaHeader(bin, 0, bin.length, vh);
      if (vh.words < 0) corrupt(`frames[${i}]`, 'malformed word count');
      words = vh.words;
      if (Math.ceil(words / 4) > bin.length - vh.dataAt)
        corrupt(`frames[${i}]`, `${words} words cannot fit in ${bin.length} bytes`);
      dataAt[i] = vh.dataAt;
    }
    if (words < HEADER_WORDS)
      corrupt(`frames[${i}]`, `frame of ${words} words is shorter than its ${HEADER_WORDS}-word header`);
    total += words;
    if (total > maxWords) tooLarge('frames', `frame data exceeds the limit of ${limits.maxFrameBytes} bytes`);
    frameWords[i] = words;
    arenaWords += words + (words % 2);
    bins[i] = bin;
  }
  if (total !== summary.words) corrupt('header.frames.words', `says ${summary.words} words, the frames hold ${total}`);

  // What frames are checked against. Every structure is sized by the rows the file holds: a
  // handle table only while handles are dense, else lookups by binary search and renumbering.
  const rows = ents.handle.length;
  const largest = rows > 0 ? ents.handle[rows - 1] + 1 : 0;
  const dense = largest <= DENSE_FACTOR * rows + DENSE_SLACK;
  let rowOfHandle: Int32Array | null = null;
  if (dense) {
    rowOfHandle = new Int32Array(largest).fill(-1);
    for (let i = 0; i < rows; i++) rowOfHandle[ents.handle[i]] = i;
  }
  const ctx: FrameCheckContext = {
    handles: ents.handle,
    rowOfHandle,
    spawn: ents.spawn,
    last: ents.last,
    stamp: new Int32Array(rows).fill(-1),
    channelCount: channelList.length,
    eventKindCount: eventKinds.length,
    textureCount: textures.length,
    maxEntitiesPerFrame: limits.maxEntitiesPerFrame,
    fieldSchemas,
    fieldStamp: new Int32Array(fieldSchemas === null ? 0 : fieldSchemas.count).fill(-1),
    previousTime: Number.NEGATIVE_INFINITY,
    work,
  };
  if (work !== null) work.units += (dense ? largest : 0) + rows;

  // The ring: sized exactly, so frames go in one after another and nothing is evicted.
  const ring = new FrameRing(Math.max(1024, arenaWords * 4), Math.max(1, count));
  const u32 = ring.u32;
  let checksum = CHECKSUM_SEED;
  let prevAt = 0;
  let prevWords = 0;
  // The channels the frames draw on (a panel lists only the channels in use).
  let usedChannels = 0;
  for (let i = 0; i < count; i++) {
    const words = frameWords[i];
    const at = ring.reserve(words);
    const bin = bins[i];
    if (summary.codec === 'none') {
      ring.u8.set(bin, at * 4);
    } else if (!xorDeltaDecode(bin, dataAt[i], bin.length, words, u32, prevAt, prevWords, u32, at)) {
      corrupt(`frames[${i}]`, 'compressed data does not decode to the words it claims');
    }
    const frame = summary.first + i;
    if (o.verifyChecksum) checksum = checksumWords(u32, at, words, checksum);
    checkFrame(u32, ring.f32, ring.f64, at, words, frame, i, ctx);
    usedChannels |= frameChannelMask(u32, at);
    ring.commit(frame);
    prevAt = at;
    prevWords = words;
  }
  if (o.verifyChecksum && summary.checksum !== null && checksum !== summary.checksum) {
    throw new ReplayError(
      'CHECKSUM',
      `frame data checksum is 0x${checksum.toString(16)}, the header says 0x${summary.checksum.toString(16)}`,
      'frames',
    );
  }
  // Sparse handles become rows (only now: xor-delta decodes each frame against the previous one's
  // words as stored).
  if (!dense) renumberHandles(ring, summary.first, count, ents.handle);

  // Entity table: the file's handles (or rows, when renumbered), so frame words decode unchanged.
  // Ids map through a sparse map: its memory follows the rows, not the largest id.
  const slots = dense ? largest : rows;
  const slotOf = (i: number): number => (dense ? ents.handle[i] : i);
  const entities = new EntityTable(slots, limits.maxEntityId, undefined, true);
  for (const k of kinds) entities.internKind(k);
  for (let k = 0; k < skeletons.length; k++) {
    const s = skeletons[k];
    if (s !== undefined) entities.skeletons[k] = s;
  }
  for (let hd = 0; hd < slots; hd++) entities.allocate(0, 0);
  if (rowOfHandle !== null) for (let hd = 0; hd < slots; hd++) if (rowOfHandle[hd] < 0) entities.release(hd);
  entities.map(0, -1);
  for (let i = 0; i < rows; i++) {
    const hd = slotOf(i);
    entities.ids[hd] = ents.id[i];
    entities.spawnFrames[hd] = ents.spawn[i];
    entities.setLastFrame(hd, ents.last[i], ents.ended[i] === 1);
    entities.kindOf[hd] = ents.kind[i];
    entities.labels[hd] = ents.label[i];
  }
  // An id maps to its newest life.
  for (let i = 0; i < rows; i++) {
    const hd = slotOf(i);
    const cur = entities.lookup(ents.id[i]);
    if (cur < 0 || entities.spawnFrames[cur] <= ents.spawn[i]) entities.map(ents.id[i], hd);
  }

  const channels = new ChannelRegistry(0);
  channelList.forEach((c, i) => {
    if (i < BUILTIN_CHANNEL_NAMES.length) channels.setBudget(i, c.budget);
    else channels.register(c.name, { color: c.color, budget: c.budget });
  });
  channels.markUsed(usedChannels);
  const staticLayers = new StaticLayers();
  for (const l of layers) {
    staticLayers.setEncoded(l.name, l.words, l.primCount);
    channels.markUsed(primitiveChannelMask(l.words, 0, l.words.length));
  }

  if (o.expectedBuildId !== null && o.expectedBuildId !== buildId) {
    warnings.add({
      code: 'BUILD_MISMATCH',
      message: `the replay was recorded by build ${JSON.stringify(buildId)}, this is build ${JSON.stringify(o.expectedBuildId)}; it may not match the current game`,
    });
  }
  warnings.finish();

  return {
    formatVersion: version,
    buildId,
    savedAt,
    info,
    bookmarks,
    compression: summary.codec,
    fileBytes: bytes.length,
    frameBytes: total * 4,
    ring,
    entities,
    channels,
    eventKinds,
    textures,
    staticLayers,
    reader: new FrameReader(ring, entities, channels, eventKinds, textures, fieldSchemas ?? new FieldSchemas()),
    warnings: warnings.list,
  };
}
