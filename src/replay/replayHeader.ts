/**
 * The header of a `.rwd` file: the format version after the magic, then every block of the header
 * map (info, channels, kinds, skeletons, event kinds, textures, field schemas, entity columns,
 * bookmarks, static layers, frames summary), each checked against the limits and the recorder's
 * rules, in the order the loader has always read them (so the first problem reported is the same).
 */
import { HEADER_WORDS, MAX_HANDLES, MAX_TEXTURES } from '../core/format/layout';
import { FieldSchemas } from '../core/fields/FieldSchemas';
import { FIELD_TYPES, MAX_ENUM_NAMES, MAX_FIELD_SCHEMAS, MAX_FIELDS_PER_KIND } from '../core/fields/fieldLayout';
import { MAX_CHANNELS } from '../core/store/ChannelRegistry';
import { channelBudgetProblem, colorProblem, skeletonProblem } from '../core/validate/rules';
import { checkPrimitives } from './checkFrames';
import { MapReader } from './MapReader';
import { ReplayError } from './ReplayError';
import { BUILTIN_CHANNEL_NAMES, MAX_FRAME_NUMBER, REPLAY_CODECS, REPLAY_FIELDS_VERSION } from './replayFormat';
import type { ReplayCompression, ReplayLimits } from './replayFormat';
import type { ReplayBookmark, ReplayInfo } from './saveReplay';
import { asArray, asBin, asBool, asInt, asString, corrupt, tooLarge, typeName } from './schema';
import type { WarningList } from './WarningList';

const MAX_U32 = 0xffffffff;

export interface ParsedChannel {
  name: string;
  color: number;
  budget: number;
}

export interface ParsedEntities {
  handle: Int32Array;
  id: Int32Array;
  spawn: Int32Array;
  last: Int32Array;
  kind: Int32Array;
  label: Array<string | undefined>;
  ended: Uint8Array;
}

export interface ParsedFrames {
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
export function readVersion(bytes: Uint8Array, at: number): { version: number; next: number } {
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
): ParsedLayer[] {
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

/** A static layer of the header: its primitives' words, checked. */
export interface ParsedLayer {
  name: string;
  primCount: number;
  words: Uint32Array;
}

/** Everything the header map holds, parsed and checked. */
export interface ParsedHeader {
  buildId: string;
  savedAt: string;
  info: ReplayInfo;
  channelList: ParsedChannel[];
  kinds: string[];
  skeletons: Array<Int16Array | undefined>;
  eventKinds: string[];
  textures: string[];
  /** `null` before format 3 (no custom fields). */
  fieldSchemas: FieldSchemas | null;
  ents: ParsedEntities;
  bookmarks: ReplayBookmark[];
  layers: ParsedLayer[];
  summary: ParsedFrames;
}

/** Parses the decoded header map of a file of format `version`; unknown keys become warnings. */
export function parseHeader(
  headerValue: unknown,
  version: number,
  limits: ReplayLimits,
  warnings: WarningList,
  work: { units: number } | null,
): ParsedHeader {
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
  return {
    buildId,
    savedAt,
    info,
    channelList,
    kinds,
    skeletons,
    eventKinds,
    textures,
    fieldSchemas,
    ents,
    bookmarks,
    layers,
    summary,
  };
}
