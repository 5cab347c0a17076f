/**
 * Strict readers for the MessagePack bodies of the live protocol (hello, meta, commands, the
 * session list), built on the replay loader's value checks: every value's type and range is
 * checked, sizes are bounded by `LiveLimits`, unknown keys are ignored (a newer sender may add
 * optional ones).
 */
import {
  FIELD_TYPES,
  type FieldType,
  MAX_ENUM_NAMES,
  MAX_FIELD_SCHEMAS,
  MAX_FIELDS_PER_KIND,
} from '../core/fields/fieldLayout';
import { FieldSchemas } from '../core/fields/FieldSchemas';
import { MAX_BONES } from '../core/format/layout';
import { MAX_CHANNELS } from '../core/store/ChannelRegistry';
import { checkPrimitives } from '../replay/checkFrames';
import { MapReader } from '../replay/MapReader';
import { BUILTIN_CHANNEL_NAMES, MAX_FRAME_NUMBER } from '../replay/replayFormat';
import { asArray, asBin, asBool, asInt, asString, corrupt, tooLarge } from '../replay/schema';
import { WarningList } from '../replay/WarningList';
import { LiveError } from './LiveError';
import {
  LIVE_COMMANDS,
  LIVE_FORMAT_VERSION,
  LIVE_PROTOCOL,
  LIVE_PROTOCOL_VERSION,
  type LiveCommand,
  type LiveCommandName,
  type LiveCommandResult,
  type LiveHello,
  type LiveLimits,
  type LiveSessionInfo,
} from './protocol';

const MAX_U32 = 0xffffffff;
/** Unknown keys are not reported anywhere: a small list that is thrown away. */
const ignored = (): WarningList => new WarningList(0, null);

/** A channel as META lists it. */
export interface LiveChannel {
  readonly name: string;
  readonly color: number;
  readonly budget: number;
}

/** A static layer as META lists it. */
export interface LiveStaticLayer {
  readonly name: string;
  readonly primCount: number;
  readonly words: Uint32Array;
}

/** A kind's custom field schema as META lists it (the replay header's `fieldSchemas` entry). */
export interface LiveFieldSchema {
  readonly kind: string;
  /** `[name, type]` of each field, in declaration order. */
  readonly fields: ReadonlyArray<readonly [string, FieldType]>;
  /** The kind's interned enum names so far (a stored enum value is a position here). */
  readonly enumNames: readonly string[];
}

/** The body of META: every key optional, each a complete list that replaces the previous one. */
export interface LiveMeta {
  readonly channels?: readonly LiveChannel[];
  readonly kinds?: readonly string[];
  readonly skeletons?: ReadonlyArray<Int16Array | null>;
  readonly eventKinds?: readonly string[];
  /** Texture names of 2D display records (`Recorder.texture`), by index. */
  readonly textures?: readonly string[];
  readonly staticLayers?: readonly LiveStaticLayer[];
  /**
   * Custom field schemas by schema index (a field block's schema number), with the enum names
   * each kind interned so far: sent again whenever a kind declares fields or interns a name.
   */
  readonly fieldSchemas?: readonly LiveFieldSchema[];
}

/**
 * Reads a HELLO body.
 * @throws LiveError `NEWER_VERSION` for a newer protocol or frame format, `CORRUPT`, `TOO_LARGE`.
 */
export function parseHello(v: unknown, limits: LiveLimits): LiveHello {
  return LiveError.guard(() => {
    const m = MapReader.of(v, 'hello', ignored());
    const protocol = asString(m.req('protocol'), 'hello.protocol', 64);
    if (protocol !== LIVE_PROTOCOL) corrupt('hello.protocol', `expected ${JSON.stringify(LIVE_PROTOCOL)}`);
    const version = asInt(m.req('version'), 'hello.version', 1, MAX_U32);
    if (version > LIVE_PROTOCOL_VERSION) {
      throw new LiveError(
        'NEWER_VERSION',
        `the game speaks live protocol version ${version}; this side knows up to ${LIVE_PROTOCOL_VERSION}. Update rewindable.`,
        'hello.version',
      );
    }
    const formatVersion = asInt(m.req('formatVersion'), 'hello.formatVersion', 1, MAX_U32);
    if (formatVersion > LIVE_FORMAT_VERSION) {
      throw new LiveError(
        'NEWER_VERSION',
        `frames of format version ${formatVersion}; this side reads up to ${LIVE_FORMAT_VERSION}. Update rewindable.`,
        'hello.formatVersion',
      );
    }
    const session = asString(m.req('session'), 'hello.session', 128);
    if (!/^[A-Za-z0-9_-]{1,128}$/.test(session))
      corrupt('hello.session', 'expected 1-128 characters of A-Z a-z 0-9 _ -');
    const game = asString(m.req('game'), 'hello.game', limits.maxStringLength);
    const buildId = asString(m.req('buildId'), 'hello.buildId', limits.maxStringLength);
    const startedAt = asString(m.req('startedAt'), 'hello.startedAt', 64);
    const r = MapReader.of(m.req('ring'), 'hello.ring', ignored());
    const ring = {
      maxFrames: asInt(r.req('maxFrames'), 'hello.ring.maxFrames', 1, MAX_U32),
      arenaBytes: asInt(r.req('arenaBytes'), 'hello.ring.arenaBytes', 0, Number.MAX_SAFE_INTEGER),
      maxEntitiesPerFrame: asInt(
        r.req('maxEntitiesPerFrame'),
        'hello.ring.maxEntitiesPerFrame',
        1,
        limits.maxEntitiesPerFrame,
        true,
      ),
      maxEntityId: asInt(r.req('maxEntityId'), 'hello.ring.maxEntityId', 1, limits.maxEntityId, true),
    };
    const commands = asArray(m.req('commands'), 'hello.commands', LIVE_COMMANDS.length).map((c, i) =>
      commandName(c, `hello.commands[${i}]`),
    );
    return { version, formatVersion, session, game, buildId, startedAt, ring, commands };
  });
}

/** The HELLO body for `hello` (the sender's side of `parseHello`). */
export function helloBody(hello: LiveHello): Map<string, unknown> {
  return new Map<string, unknown>([
    ['protocol', LIVE_PROTOCOL],
    ['version', hello.version],
    ['formatVersion', hello.formatVersion],
    ['session', hello.session],
    ['game', hello.game],
    ['buildId', hello.buildId],
    ['startedAt', hello.startedAt],
    ['ring', new Map<string, unknown>(Object.entries(hello.ring))],
    ['commands', [...hello.commands]],
  ]);
}

function commandName(v: unknown, path: string): LiveCommandName {
  const name = asString(v, path, 16);
  const known = LIVE_COMMANDS.find((c) => c === name);
  if (known === undefined) corrupt(path, `unknown command ${JSON.stringify(name)}`);
  return known;
}

function names(v: unknown, path: string, limits: LiveLimits, unique: boolean): string[] {
  const arr = asArray(v, path, limits.maxKinds);
  const seen = new Set<string>();
  return arr.map((k, i) => {
    const name = asString(k, `${path}[${i}]`, limits.maxStringLength);
    if (unique && seen.has(name)) corrupt(`${path}[${i}]`, `${JSON.stringify(name.slice(0, 64))} is listed twice`);
    seen.add(name);
    return name;
  });
}

/**
 * Reads a META body. Lists are checked on their own here; `LiveValidator` checks them against what
 * it already knows (lists only grow, names never change).
 * @throws LiveError `CORRUPT`, `TOO_LARGE`.
 */
export function parseMeta(v: unknown, limits: LiveLimits, channelCount: number): LiveMeta {
  return LiveError.guard(() => {
    const m = MapReader.of(v, 'meta', ignored());
    const out: {
      channels?: LiveChannel[];
      kinds?: string[];
      skeletons?: Array<Int16Array | null>;
      eventKinds?: string[];
      textures?: string[];
      staticLayers?: LiveStaticLayer[];
      fieldSchemas?: LiveFieldSchema[];
    } = {};
    const channels = m.opt('channels');
    if (channels !== undefined) {
      const arr = asArray(channels, 'meta.channels', MAX_CHANNELS);
      if (arr.length < BUILTIN_CHANNEL_NAMES.length)
        corrupt('meta.channels', `${arr.length} channels, at least ${BUILTIN_CHANNEL_NAMES.length} expected`);
      const seen = new Set<string>();
      out.channels = arr.map((c, i) => {
        const path = `meta.channels[${i}]`;
        const cm = MapReader.of(c, path, ignored());
        const name = asString(cm.req('name'), `${path}.name`, limits.maxStringLength);
        if (i < BUILTIN_CHANNEL_NAMES.length && name !== BUILTIN_CHANNEL_NAMES[i])
          corrupt(`${path}.name`, `channel ${i} must be ${BUILTIN_CHANNEL_NAMES[i]}`);
        if (seen.has(name)) corrupt(`${path}.name`, `${JSON.stringify(name.slice(0, 64))} is listed twice`);
        seen.add(name);
        return {
          name,
          color: asInt(cm.req('color'), `${path}.color`, 0, 0xffffff),
          budget: asInt(cm.req('budget'), `${path}.budget`, 0, 0x7fffffff),
        };
      });
    }
    const kinds = m.opt('kinds');
    if (kinds !== undefined) out.kinds = names(kinds, 'meta.kinds', limits, true);
    const skeletons = m.opt('skeletons');
    if (skeletons !== undefined) {
      out.skeletons = asArray(skeletons, 'meta.skeletons', limits.maxKinds).map((s, k) => {
        if (s === null) return null;
        const path = `meta.skeletons[${k}]`;
        const parents = asArray(s, path, MAX_BONES);
        const result = new Int16Array(parents.length);
        for (let i = 0; i < parents.length; i++) result[i] = asInt(parents[i], `${path}[${i}]`, -1, parents.length - 1);
        // No cycles: every chain of parents reaches a root within `length` steps.
        for (let i = 0; i < result.length; i++) {
          let p = result[i];
          for (let steps = 0; p >= 0; steps++) {
            if (steps > result.length) corrupt(`${path}[${i}]`, 'the bone hierarchy has a cycle');
            p = result[p];
          }
        }
        return result;
      });
    }
    const eventKinds = m.opt('eventKinds');
    if (eventKinds !== undefined) out.eventKinds = names(eventKinds, 'meta.eventKinds', limits, false);
    const textures = m.opt('textures');
    if (textures !== undefined) out.textures = names(textures, 'meta.textures', limits, false);
    const layers = m.opt('staticLayers');
    if (layers !== undefined) {
      const arr = asArray(layers, 'meta.staticLayers', limits.maxStaticLayers);
      const seen = new Set<string>();
      const channelsNow = out.channels?.length ?? channelCount;
      let bytes = 0;
      out.staticLayers = arr.map((l, i) => {
        const path = `meta.staticLayers[${i}]`;
        const lm = MapReader.of(l, path, ignored());
        const name = asString(lm.req('name'), `${path}.name`, limits.maxStringLength);
        if (seen.has(name)) corrupt(`${path}.name`, `layer ${JSON.stringify(name.slice(0, 64))} is listed twice`);
        seen.add(name);
        const primCount = asInt(lm.req('primCount'), `${path}.primCount`, 0, MAX_U32);
        const bin = asBin(lm.req('words'), `${path}.words`);
        if (bin.length % 4 !== 0) corrupt(`${path}.words`, `${bin.length} bytes is not a whole number of words`);
        bytes += bin.length;
        if (bytes > limits.maxStaticBytes)
          tooLarge(`${path}.words`, `static layers exceed the limit of ${limits.maxStaticBytes} bytes`);
        const words = new Uint32Array(bin.length / 4);
        new Uint8Array(words.buffer).set(bin);
        checkPrimitives(
          words,
          new Float32Array(words.buffer),
          0,
          words.length,
          primCount,
          channelsNow,
          `${path}.words`,
        );
        return { name, primCount, words };
      });
    }
    const fieldSchemas = m.opt('fieldSchemas');
    if (fieldSchemas !== undefined) out.fieldSchemas = parseFieldSchemas(fieldSchemas, limits);
    return out;
  });
}

/**
 * The `fieldSchemas` list of a META: each entry `{ kind, names, types, enumNames }` as in a replay
 * header, checked by declaring it in a scratch `FieldSchemas` (kinds once each, 1 to 64 fields of
 * distinct names and known types, at most 255 distinct enum names).
 */
function parseFieldSchemas(v: unknown, limits: LiveLimits): LiveFieldSchema[] {
  const scratch = new FieldSchemas();
  return asArray(v, 'meta.fieldSchemas', Math.min(MAX_FIELD_SCHEMAS, limits.maxKinds)).map((raw, i) => {
    const path = `meta.fieldSchemas[${i}]`;
    const m = MapReader.of(raw, path, ignored());
    const kind = asString(m.req('kind'), `${path}.kind`, limits.maxStringLength);
    if (scratch.ofKind(kind) !== undefined)
      corrupt(`${path}.kind`, `${JSON.stringify(kind.slice(0, 64))} has two schemas`);
    const names = asArray(m.req('names'), `${path}.names`, MAX_FIELDS_PER_KIND);
    const types = asArray(m.req('types'), `${path}.types`, MAX_FIELDS_PER_KIND);
    if (names.length !== types.length) corrupt(`${path}.types`, `${types.length} types for ${names.length} names`);
    const fields = names.map(
      (n, k) =>
        [
          asString(n, `${path}.names[${k}]`, limits.maxStringLength),
          FIELD_TYPES[asInt(types[k], `${path}.types[${k}]`, 0, FIELD_TYPES.length - 1)],
        ] as const,
    );
    const enumNames = asArray(m.req('enumNames'), `${path}.enumNames`, MAX_ENUM_NAMES).map((n, k) =>
      asString(n, `${path}.enumNames[${k}]`, limits.maxStringLength),
    );
    let schema: ReturnType<FieldSchemas['declare']>;
    try {
      schema = scratch.declare(kind, fields);
    } catch (e) {
      corrupt(path, e instanceof Error ? e.message.replace(/^rewindable: /, '') : String(e));
    }
    enumNames.forEach((n, k) => {
      if (schema.code(n) !== k)
        corrupt(`${path}.enumNames[${k}]`, `${JSON.stringify(n.slice(0, 64))} is listed twice or not a name`);
    });
    return { kind, fields, enumNames };
  });
}

/** The META `fieldSchemas` entries of `schemas` (the sender's side of `parseMeta`). */
export function fieldSchemasBody(schemas: FieldSchemas): Array<Map<string, unknown>> {
  return schemas.list().map(
    (sc) =>
      new Map<string, unknown>([
        ['kind', sc.kind],
        ['names', sc.fields.map((f) => f.name)],
        ['types', Array.from(sc.types)],
        ['enumNames', [...sc.enumNames]],
      ]),
  );
}

/** Reads a COMMAND body. @throws LiveError */
export function parseCommand(v: unknown): LiveCommand {
  return LiveError.guard(() => {
    const m = MapReader.of(v, 'command', ignored());
    return {
      id: asInt(m.req('id'), 'command.id', 0, MAX_U32),
      command: commandName(m.req('command'), 'command.command'),
      frame: asInt(m.req('frame'), 'command.frame', 0, MAX_FRAME_NUMBER),
    };
  });
}

/** Reads a COMMAND_RESULT body. @throws LiveError */
export function parseCommandResult(v: unknown): LiveCommandResult {
  return LiveError.guard(() => {
    const m = MapReader.of(v, 'commandResult', ignored());
    return {
      id: asInt(m.req('id'), 'commandResult.id', 0, MAX_U32),
      ok: asBool(m.req('ok'), 'commandResult.ok'),
      detail: asString(m.req('detail'), 'commandResult.detail', 1024),
    };
  });
}

/** Reads a SUBSCRIBE body: the session id. @throws LiveError */
export function parseSubscribe(v: unknown): string {
  return LiveError.guard(() => {
    const m = MapReader.of(v, 'subscribe', ignored());
    return asString(m.req('session'), 'subscribe.session', 128);
  });
}

/** Reads a SESSIONS body. @throws LiveError */
export function parseSessions(v: unknown, limits: LiveLimits): LiveSessionInfo[] {
  return LiveError.guard(() => {
    const m = MapReader.of(v, 'sessions', ignored());
    return asArray(m.req('sessions'), 'sessions.sessions', 4096).map((s, i) => {
      const path = `sessions.sessions[${i}]`;
      const sm = MapReader.of(s, path, ignored());
      return {
        session: asString(sm.req('session'), `${path}.session`, 128),
        game: asString(sm.req('game'), `${path}.game`, limits.maxStringLength),
        buildId: asString(sm.req('buildId'), `${path}.buildId`, limits.maxStringLength),
        startedAt: asString(sm.req('startedAt'), `${path}.startedAt`, 64),
        connected: asBool(sm.req('connected'), `${path}.connected`),
        frames: asInt(sm.req('frames'), `${path}.frames`, 0, Number.MAX_SAFE_INTEGER),
        viewers: asInt(sm.req('viewers'), `${path}.viewers`, 0, MAX_U32),
      };
    });
  });
}

/** Reads an ERROR body: `{ code, detail }`. @throws LiveError */
export function parseErrorBody(v: unknown): { code: string; detail: string } {
  return LiveError.guard(() => {
    const m = MapReader.of(v, 'error', ignored());
    return { code: asString(m.req('code'), 'error.code', 64), detail: asString(m.req('detail'), 'error.detail', 4096) };
  });
}
