import { FieldSchemas } from '../core/fields/FieldSchemas';
import { HEADER_WORDS, H_ENTITY_COUNT } from '../core/format/layout';
import { checkFrame, type FrameCheckContext } from '../replay/checkFrames';
import { MAX_FRAME_NUMBER } from '../replay/replayFormat';
import { LiveError } from './LiveError';
import { type LiveChannel, type LiveFieldSchema, type LiveMeta, parseHello, parseMeta } from './messages';
import {
  DEFAULT_LIVE_LIMITS,
  FRAME_MESSAGE_WORDS,
  FRAME_PADDING_BYTES,
  LIFE_ENDED,
  LIFE_HAS_LABEL,
  LIFE_RECORD_WORDS,
  LiveMessageType,
  type LiveHello,
  type LiveLimits,
  type LiveMessageTypeCode,
  MESSAGE_HEADER_BYTES,
  decodeBody,
  messageType,
} from './protocol';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Checks one session's stream, message by message, as strictly as `loadReplay` checks a file: the
 * framing, every hello and meta value, every life record, and every frame's words (`checkFrame`,
 * the loader's own frame check: sections, record walks, text lengths, finite floats, channel and
 * event kind indices, handles of lives the stream introduced). What it accepted is exposed until
 * the next call: `hello`, `meta`, the staged lives and the frame's words (8-byte aligned, so
 * `FrameRing` code can read its doubles). The viewer's `LiveStore` and the server both use it; a
 * stream that fails is refused as a whole.
 *
 * @example
 * const v = new LiveValidator();
 * const type = v.accept(bytes); // throws LiveError
 * if (type === LiveMessageType.FRAME) console.log(v.frame, v.frameWords, v.lifeCount);
 */
export class LiveValidator {
  public readonly limits: LiveLimits;
  /** The last hello accepted (null before the first). */
  public hello: LiveHello | null = null;
  /** The last meta accepted (valid until the next message). */
  public meta: LiveMeta | null = null;
  /** Channels, kinds and event kinds as of the last meta. */
  public channels: readonly LiveChannel[] = [
    { name: 'ai', color: 0xffc83d, budget: 0 },
    { name: 'physics', color: 0x4dd2ff, budget: 0 },
    { name: 'animation', color: 0xd86bff, budget: 0 },
  ];
  public kinds: readonly string[] = [];
  public eventKinds: readonly string[] = [];
  public textures: readonly string[] = [];
  /**
   * Custom field schemas and their enum names as of the last meta: frames' field sections are
   * checked against them (`checkFieldSection`, as the file loader does).
   */
  public readonly fieldSchemas = new FieldSchemas();
  /** The last frame accepted, or -1. */
  public lastFrame = -1;
  /** Of the last FRAME: its number, the sender's skipped count, its words in `words` from 0. */
  public frame = -1;
  public skipped = 0;
  public frameWords = 0;
  /** Frame words of the last FRAME (from index 0); `f32` and `f64` view the same bytes. */
  public words = new Uint32Array(0);
  public f32 = new Float32Array(0);
  public f64 = new Float64Array(0);
  /** Life records of the last FRAME, `lifeCount` of them. */
  public lifeCount = 0;
  public lifeHandle = new Int32Array(64);
  public lifeId = new Int32Array(64);
  public lifeSpawn = new Int32Array(64);
  public lifeKind = new Int32Array(64);
  public lifeFlags = new Int32Array(64);
  public lifeLabel: Array<string | undefined> = [];

  private ctx: FrameCheckContext;
  private scratch = new Uint8Array(0);
  private framesAccepted = 0;

  public constructor(limits: Partial<LiveLimits> = {}) {
    this.limits = { ...DEFAULT_LIVE_LIMITS, ...limits };
    this.ctx = {
      handles: new Int32Array(0),
      rowOfHandle: new Int32Array(0),
      spawn: new Int32Array(0),
      last: new Int32Array(0),
      stamp: new Int32Array(0),
      previousTime: -Infinity,
      channelCount: 3,
      eventKindCount: 0,
      textureCount: 0,
      maxEntitiesPerFrame: this.limits.maxEntitiesPerFrame,
      fieldSchemas: this.fieldSchemas,
      fieldStamp: new Int32Array(0),
      work: null,
    };
  }

  /** Frames accepted since construction. */
  public get frames(): number {
    return this.framesAccepted;
  }

  /**
   * Checks one message and applies it to the stream's state. Returns its type.
   * @throws LiveError for anything malformed, too large, or out of order.
   */
  public accept(bytes: Uint8Array): LiveMessageTypeCode {
    const type = messageType(bytes, this.limits.maxMessageBytes);
    this.meta = null;
    switch (type) {
      case LiveMessageType.HELLO:
        this.acceptHello(parseHello(decodeBody(bytes, 'hello'), this.limits));
        break;
      case LiveMessageType.META:
        this.requireHello('meta');
        this.acceptMeta(parseMeta(decodeBody(bytes, 'meta'), this.limits, this.channels.length));
        break;
      case LiveMessageType.FRAME:
        this.requireHello('frame');
        LiveError.guard(() => this.acceptFrame(bytes));
        break;
      case LiveMessageType.BYE:
      case LiveMessageType.RESYNC:
        if (bytes.length !== MESSAGE_HEADER_BYTES)
          throw new LiveError('BAD_MESSAGE', 'this message has no body', 'message');
        break;
      default:
        break;
    }
    return type;
  }

  /** Forgets the stream (a new session starts). */
  public reset(): void {
    this.hello = null;
    this.meta = null;
    this.channels = this.channels.slice(0, 3);
    this.kinds = [];
    this.eventKinds = [];
    this.textures = [];
    this.ctx.textureCount = 0;
    this.fieldSchemas.clear();
    this.ctx.fieldStamp.fill(-1);
    this.lastFrame = -1;
    // A live stream's rows are its handles: row h describes handle h, -1 while h has no life yet.
    (this.ctx.rowOfHandle as Int32Array).fill(-1);
    this.ctx.stamp.fill(-1);
    this.ctx.previousTime = -Infinity;
    this.ctx.channelCount = 3;
    this.ctx.eventKindCount = 0;
  }

  private requireHello(what: string): void {
    if (this.hello === null) throw new LiveError('PROTOCOL', `${what} before the hello`, what);
  }

  private acceptHello(hello: LiveHello): void {
    if (this.hello !== null && this.hello.session !== hello.session) this.reset();
    this.hello = hello;
    this.ctx.maxEntitiesPerFrame = Math.min(this.limits.maxEntitiesPerFrame, hello.ring.maxEntitiesPerFrame);
  }

  private acceptMeta(meta: LiveMeta): void {
    if (meta.channels !== undefined) {
      if (meta.channels.length < this.channels.length)
        throw new LiveError(
          'CORRUPT',
          `${meta.channels.length} channels, ${this.channels.length} were announced (channels are never removed)`,
          'meta.channels',
        );
      for (let i = 3; i < this.channels.length; i++) {
        if (meta.channels[i].name !== this.channels[i].name)
          throw new LiveError(
            'CORRUPT',
            `channel ${i} was ${JSON.stringify(this.channels[i].name)}`,
            `meta.channels[${i}].name`,
          );
      }
    }
    checkPrefix(meta.kinds, this.kinds, 'meta.kinds');
    checkPrefix(meta.eventKinds, this.eventKinds, 'meta.eventKinds');
    checkPrefix(meta.textures, this.textures, 'meta.textures');
    const kindCount = meta.kinds?.length ?? this.kinds.length;
    if (meta.skeletons !== undefined && meta.skeletons.length > kindCount) {
      throw new LiveError('CORRUPT', `${meta.skeletons.length} skeletons for ${kindCount} kinds`, 'meta.skeletons');
    }
    const kinds = meta.kinds ?? this.kinds;
    if (meta.fieldSchemas !== undefined) checkFieldSchemas(meta.fieldSchemas, this.fieldSchemas, kinds);
    if (meta.channels !== undefined) this.channels = meta.channels;
    if (meta.kinds !== undefined) this.kinds = meta.kinds;
    if (meta.fieldSchemas !== undefined) {
      applyFieldSchemas(meta.fieldSchemas, this.fieldSchemas);
      const count = this.fieldSchemas.count;
      if (this.ctx.fieldStamp.length < count) {
        const stamp = new Int32Array(Math.max(count, this.ctx.fieldStamp.length * 2, 8)).fill(-1);
        stamp.set(this.ctx.fieldStamp);
        this.ctx.fieldStamp = stamp;
      }
    }
    if (meta.eventKinds !== undefined) this.eventKinds = meta.eventKinds;
    if (meta.textures !== undefined) this.textures = meta.textures;
    this.ctx.textureCount = this.textures.length;
    this.ctx.channelCount = this.channels.length;
    this.ctx.eventKindCount = this.eventKinds.length;
    this.meta = meta;
  }

  private acceptFrame(bytes: Uint8Array): void {
    const total = bytes.length;
    const path = 'frame';
    if (total < FRAME_MESSAGE_WORDS * 4)
      throw new LiveError(
        'TRUNCATED',
        `${total} bytes is shorter than the ${FRAME_MESSAGE_WORDS * 4}-byte frame header`,
        path,
      );
    const frame = readU32(bytes, 4);
    const skipped = readU32(bytes, 8);
    const lifeCount = readU32(bytes, 12);
    const lifeBytes = readU32(bytes, 16);
    const frameWords = readU32(bytes, 20);
    const fpath = `frame[${frame}]`;
    if (frame > MAX_FRAME_NUMBER)
      throw new LiveError('CORRUPT', `frame number ${frame} is above ${MAX_FRAME_NUMBER}`, fpath);
    if (frame <= this.lastFrame)
      throw new LiveError('PROTOCOL', `frame ${frame} does not follow ${this.lastFrame}`, fpath);
    if (skipped > frame)
      throw new LiveError('CORRUPT', `${skipped} frames skipped before frame ${frame}`, `${fpath}.skipped`);
    if (lifeBytes % 4 !== 0)
      throw new LiveError('CORRUPT', `life section of ${lifeBytes} bytes is not whole words`, `${fpath}.lives`);
    if (lifeCount * LIFE_RECORD_WORDS * 4 > lifeBytes)
      throw new LiveError('CORRUPT', `${lifeCount} lives cannot fit in ${lifeBytes} bytes`, `${fpath}.lives`);
    if (frameWords < HEADER_WORDS)
      throw new LiveError(
        'CORRUPT',
        `frame of ${frameWords} words is shorter than its ${HEADER_WORDS}-word header`,
        fpath,
      );
    const used = FRAME_MESSAGE_WORDS * 4 + lifeBytes + frameWords * 4;
    if (used > total) throw new LiveError('TRUNCATED', `the message declares ${used} bytes and holds ${total}`, fpath);
    if (total - used >= FRAME_PADDING_BYTES)
      throw new LiveError(
        'CORRUPT',
        `${total - used} bytes after the frame (at most ${FRAME_PADDING_BYTES - 1} bytes of padding)`,
        fpath,
      );
    for (let i = used; i < total; i++)
      if (bytes[i] !== 0) throw new LiveError('CORRUPT', 'padding after the frame is not zero', fpath);

    // An aligned copy: the frame words start on an 8-byte boundary of `scratch`.
    const frameStart = FRAME_MESSAGE_WORDS * 4 + lifeBytes;
    const pad = (8 - (frameStart % 8)) % 8;
    if (this.scratch.length < pad + used) {
      this.scratch = new Uint8Array(Math.max(pad + used, this.scratch.length * 2));
    }
    const s = this.scratch;
    s.set(bytes.subarray(0, used), pad);
    const u32 = new Uint32Array(s.buffer, 0, s.length >>> 2);
    this.readLives(s, pad + FRAME_MESSAGE_WORDS * 4, lifeCount, pad + frameStart, frame, fpath);

    const at = (pad + frameStart) >>> 2;
    const f32 = new Float32Array(s.buffer, 0, s.length >>> 2);
    const f64 = new Float64Array(s.buffer, 0, s.length >>> 3);
    const n = u32[at + H_ENTITY_COUNT];
    if (n > this.ctx.maxEntitiesPerFrame)
      throw new LiveError(
        'TOO_LARGE',
        `${n} entities exceed the limit of ${this.ctx.maxEntitiesPerFrame}`,
        `${fpath}.entityCount`,
      );
    checkFrame(u32, f32, f64, at, frameWords, frame, frame, this.ctx);
    this.words = at === 0 ? u32 : new Uint32Array(s.buffer, at * 4, frameWords);
    this.f32 = new Float32Array(this.words.buffer, this.words.byteOffset, frameWords);
    this.f64 = new Float64Array(this.words.buffer, this.words.byteOffset, frameWords >>> 1);
    this.frame = frame;
    this.skipped = skipped;
    this.frameWords = frameWords;
    this.lastFrame = frame;
    this.framesAccepted++;
  }

  /** Reads and checks the life records, and makes them the current lives of their game handles. */
  private readLives(s: Uint8Array, start: number, count: number, end: number, frame: number, fpath: string): void {
    if (count > this.lifeHandle.length) {
      if (count > this.limits.maxHandles)
        throw new LiveError('TOO_LARGE', `${count} lives in one frame`, `${fpath}.lives`);
      const cap = Math.max(count, this.lifeHandle.length * 2);
      this.lifeHandle = new Int32Array(cap);
      this.lifeId = new Int32Array(cap);
      this.lifeSpawn = new Int32Array(cap);
      this.lifeKind = new Int32Array(cap);
      this.lifeFlags = new Int32Array(cap);
    }
    this.lifeLabel.length = 0;
    const maxId = Math.min(this.limits.maxEntityId, this.hello?.ring.maxEntityId ?? this.limits.maxEntityId);
    let p = start;
    for (let i = 0; i < count; i++) {
      const path = `${fpath}.lives[${i}]`;
      if (p + LIFE_RECORD_WORDS * 4 > end)
        throw new LiveError('CORRUPT', 'life record overruns the life section', path);
      const handle = readU32(s, p);
      const id = readU32(s, p + 4);
      const spawn = readU32(s, p + 8);
      const kind = readU32(s, p + 12) | 0;
      const flags = readU32(s, p + 16);
      const labelBytes = readU32(s, p + 20);
      p += LIFE_RECORD_WORDS * 4;
      if (handle >= this.limits.maxHandles)
        throw new LiveError(
          'TOO_LARGE',
          `handle ${handle} exceeds the limit of ${this.limits.maxHandles}`,
          `${path}.handle`,
        );
      if (id >= maxId) throw new LiveError('CORRUPT', `id ${id} is not below ${maxId}`, `${path}.id`);
      if (spawn > frame)
        throw new LiveError('CORRUPT', `spawn frame ${spawn} is after frame ${frame}`, `${path}.spawnFrame`);
      if (kind < -1 || kind >= this.kinds.length)
        throw new LiveError('CORRUPT', `kind ${kind} is not among the ${this.kinds.length} kinds`, `${path}.kind`);
      if ((flags & ~(LIFE_ENDED | LIFE_HAS_LABEL)) !== 0)
        throw new LiveError('CORRUPT', `unknown flag bits 0x${flags.toString(16)}`, `${path}.flags`);
      let label: string | undefined;
      if ((flags & LIFE_HAS_LABEL) !== 0) {
        if (labelBytes > this.limits.maxStringLength * 3)
          throw new LiveError('TOO_LARGE', `label of ${labelBytes} bytes`, `${path}.label`);
        const padded = (labelBytes + 3) & ~3;
        if (p + padded > end) throw new LiveError('CORRUPT', 'label overruns the life section', `${path}.label`);
        try {
          label = utf8.decode(s.subarray(p, p + labelBytes));
        } catch {
          throw new LiveError('CORRUPT', 'label is not UTF-8', `${path}.label`);
        }
        if (label.length > this.limits.maxStringLength)
          throw new LiveError('TOO_LARGE', `label of ${label.length} characters`, `${path}.label`);
        p += padded;
      } else if (labelBytes !== 0) {
        throw new LiveError('CORRUPT', 'label bytes without the label flag', `${path}.label`);
      }
      this.lifeHandle[i] = handle;
      this.lifeId[i] = id;
      this.lifeSpawn[i] = spawn;
      this.lifeKind[i] = kind;
      this.lifeFlags[i] = flags;
      this.lifeLabel.push(label);
      this.setLife(handle, spawn);
    }
    if (p !== end) throw new LiveError('CORRUPT', `${end - p} bytes after the last life record`, `${fpath}.lives`);
    this.lifeCount = count;
  }

  private setLife(handle: number, spawn: number): void {
    const ctx = this.ctx;
    const count = ctx.handles.length;
    if (handle >= count) {
      const cap = Math.min(this.limits.maxHandles, Math.max(handle + 1, count * 2, 64));
      const grow32 = (a: Int32Array, fill: number): Int32Array => {
        const g = new Int32Array(cap).fill(fill);
        g.set(a);
        return g;
      };
      const handles = new Int32Array(cap);
      for (let h = 0; h < cap; h++) handles[h] = h;
      ctx.handles = handles;
      ctx.rowOfHandle = grow32(ctx.rowOfHandle as Int32Array, -1);
      ctx.spawn = grow32(ctx.spawn, 0);
      ctx.last = grow32(ctx.last, 0);
      ctx.stamp = grow32(ctx.stamp, -1);
    }
    (ctx.rowOfHandle as Int32Array)[handle] = handle;
    ctx.spawn[handle] = spawn;
    ctx.last[handle] = MAX_FRAME_NUMBER;
  }
}

function readU32(b: Uint8Array, o: number): number {
  return (b[o] | (b[o + 1] << 8) | (b[o + 2] << 16) | (b[o + 3] << 24)) >>> 0;
}

/**
 * A META's field schemas against those known: the known ones again, unchanged (kind, fields), with
 * their enum names only extended; each schema's kind among `kinds` (as in a replay header).
 */
function checkFieldSchemas(next: readonly LiveFieldSchema[], known: FieldSchemas, kinds: readonly string[]): void {
  if (next.length < known.count)
    throw new LiveError(
      'CORRUPT',
      `${next.length} field schemas, ${known.count} were announced (schemas are never removed)`,
      'meta.fieldSchemas',
    );
  next.forEach((n, i) => {
    const path = `meta.fieldSchemas[${i}]`;
    if (!kinds.includes(n.kind))
      throw new LiveError('CORRUPT', `${JSON.stringify(n.kind.slice(0, 64))} is not among the kinds`, `${path}.kind`);
    const k = known.at(i);
    if (k === undefined) return;
    const same =
      k.kind === n.kind &&
      k.fields.length === n.fields.length &&
      n.fields.every(([name, type], f) => k.fields[f].name === name && k.fields[f].type === type);
    if (!same) throw new LiveError('CORRUPT', `schema ${i} (${JSON.stringify(k.kind.slice(0, 64))}) changed`, path);
    checkPrefix(n.enumNames, k.enumNames, `${path}.enumNames`);
  });
}

/** Declares the new schemas of a checked META list and interns their new enum names. */
export function applyFieldSchemas(next: readonly LiveFieldSchema[], schemas: FieldSchemas): void {
  for (const n of next) {
    const schema = schemas.declare(n.kind, n.fields);
    for (let k = schema.enumNames.length; k < n.enumNames.length; k++) schema.code(n.enumNames[k]);
  }
}

/** A list that may only grow: `next` must start with every entry of `known`. */
function checkPrefix(next: readonly string[] | undefined, known: readonly string[], path: string): void {
  if (next === undefined) return;
  if (next.length < known.length)
    throw new LiveError(
      'CORRUPT',
      `${next.length} entries, ${known.length} were announced (entries are never removed)`,
      path,
    );
  for (let i = 0; i < known.length; i++) {
    if (next[i] !== known[i])
      throw new LiveError('CORRUPT', `entry ${i} was ${JSON.stringify(known[i].slice(0, 64))}`, `${path}[${i}]`);
  }
}
