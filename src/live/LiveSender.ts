import { HANDLE_MASK, HEADER_WORDS, H_ENTITY_COUNT, H_TOTAL_WORDS } from '../core/format/layout';
import { LiveError } from './LiveError';
import { fieldSchemasBody, helloBody, parseCommand } from './messages';
import {
  DEFAULT_LIVE_LIMITS,
  FRAME_MESSAGE_WORDS,
  FRAME_PADDING_BYTES,
  LIFE_ENDED,
  LIFE_HAS_LABEL,
  LIFE_RECORD_WORDS,
  LIVE_FORMAT_VERSION,
  LIVE_PROTOCOL_VERSION,
  type LiveCommandName,
  type LiveHello,
  LiveMessageType,
  decodeBody,
  encodeMessage,
  messageType,
} from './protocol';
import { DEFAULT_LIVE_SENDER_OPTIONS, type LiveSenderOptions, type LiveSource } from './LiveSenderOptions';
import type { LiveTransport } from './LiveTransport';

/** Counters of a `LiveSender`. */
export class LiveSenderStats {
  /** Frames sent, and frames not sent (link closed or slow); each run of skipped frames is one gap. */
  public framesSent = 0;
  public framesSkipped = 0;
  public gaps = 0;
  /** Bytes handed to the transport (frames, with padding, and metadata). */
  public bytesSent = 0;
  /** Hellos sent: one per (re)connection and per resync a viewer asked for. */
  public hellos = 0;
  /** Life records sent (lives new to the stream, or whose kind, label or end changed). */
  public livesSent = 0;
  /** Commands run, and refused. */
  public commandsRun = 0;
  public commandsRefused = 0;
}

const HANDLE_MASK_ = HANDLE_MASK;
const NEVER = -2;

function randomSession(): string {
  const bytes = new Uint8Array(9);
  globalThis.crypto.getRandomValues(bytes);
  let s = '';
  for (const b of bytes) s += b.toString(16).padStart(2, '0');
  return s;
}

/**
 * The game side of a live stream: every frame the recorder ends is sent over `transport` as it
 * ends, as the ring's own words, with the lives it introduces or changes (id, spawn frame, kind,
 * label, end) and, before it when they changed, the channels, kinds, skeletons, event kinds,
 * texture names, static layers and custom field schemas (with the enum names interned so far). It never blocks the game: while the transport is closed or holds more than
 * `maxBufferedBytes`, frames are skipped, and the next frame sent says how many were
 * (`skipped`, the gap marker). Everything is compared against what was sent (not against what
 * happened), so nothing a skipped frame changed is lost. In steady state a frame allocates nothing
 * here: one reused buffer and one reused view per size class.
 *
 * @example
 * const sender = new LiveSender(recorder, new WebSocketTransport('ws://127.0.0.1:7070/publish'), { game: 'my game' });
 * // ... later
 * sender.close();
 */
export class LiveSender {
  public readonly options: Readonly<LiveSenderOptions>;
  public readonly stats = new LiveSenderStats();
  public readonly hello: LiveHello;

  private buffer = new ArrayBuffer(64 * 1024);
  private out8 = new Uint8Array(this.buffer);
  private out32 = new Uint32Array(this.buffer);
  /** One view per message size class (multiples of FRAME_PADDING_BYTES), made once. */
  private views: Array<Uint8Array | undefined> = [];
  private pendingSkip = 0;
  private readonly unsubscribe: () => void;
  private closed = false;
  // What the stream was told, per game handle: the life's spawn frame (NEVER: nothing), id, kind,
  // label and whether it ended.
  private sentSpawn = new Int32Array(0);
  private sentId = new Int32Array(0);
  private sentKind = new Int32Array(0);
  private sentEnded = new Uint8Array(0);
  private sentLabel: Array<string | undefined> = [];
  /** Handles of the last frame sent (their lives may have ended since). */
  private prevHandles = new Int32Array(0);
  private prevCount = 0;
  // What the stream was told of the metadata.
  private sentChannelCount = -1;
  private readonly sentBudgets = new Int32Array(32);
  private sentKindCount = -1;
  private sentSkeletons: Array<Int16Array | undefined> = [];
  private sentEventKinds = -1;
  private sentTextures = -1;
  private sentStaticVersion = -1;
  /** Field schemas sent, and the enum names sent of each. */
  private sentFieldSchemas = -1;
  private sentEnumNames = new Int32Array(8);

  public constructor(
    private readonly source: LiveSource,
    public readonly transport: LiveTransport,
    options: Partial<LiveSenderOptions> = {},
  ) {
    this.options = Object.freeze({ ...DEFAULT_LIVE_SENDER_OPTIONS, ...options });
    const o = source.options;
    const commands = (Object.keys(this.options.commands) as LiveCommandName[]).filter(
      (c) => typeof this.options.commands[c] === 'function',
    );
    this.hello = {
      version: LIVE_PROTOCOL_VERSION,
      formatVersion: LIVE_FORMAT_VERSION,
      session: this.options.session ?? randomSession(),
      game: this.options.game.slice(0, DEFAULT_LIVE_LIMITS.maxStringLength),
      buildId: this.options.buildId.slice(0, DEFAULT_LIVE_LIMITS.maxStringLength),
      startedAt: new Date().toISOString(),
      ring: {
        maxFrames: o.maxFrames,
        arenaBytes: o.arenaBytes,
        maxEntitiesPerFrame: o.maxEntitiesPerFrame,
        maxEntityId: o.maxEntityId,
      },
      commands,
    };
    transport.onOpen = () => this.resync();
    if (transport.isOpen) this.resync();
    transport.onMessage = (bytes) => this.receive(bytes);
    this.unsubscribe = source.onFrameEnd((frame) => this.onFrame(frame));
  }

  /** Stops streaming: says goodbye, closes the transport, stops listening to the recorder. */
  public close(): void {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribe();
    if (this.transport.isOpen) this.transport.send(encodeMessage(LiveMessageType.BYE));
    this.transport.close();
  }

  /** Sends the hello now, and every description and life again with the next frame. */
  public resync(): void {
    if (this.closed || !this.transport.isOpen) return;
    this.sendHello();
  }

  /** Called by the recorder as each frame ends. */
  private onFrame(frame: number): void {
    const t = this.transport;
    if (this.closed) return;
    if (!t.isOpen || t.bufferedAmount > this.options.maxBufferedBytes) {
      if (this.pendingSkip === 0) this.stats.gaps++;
      this.pendingSkip++;
      this.stats.framesSkipped++;
      return;
    }
    this.sendMetaIfChanged();
    this.sendFrame(frame);
  }

  private sendHello(): void {
    this.sentSpawn.fill(NEVER);
    this.sentChannelCount = -1;
    this.sentKindCount = -1;
    this.sentSkeletons = [];
    this.sentEventKinds = -1;
    this.sentTextures = -1;
    this.sentStaticVersion = -1;
    this.sentFieldSchemas = -1;
    this.prevCount = 0;
    this.post(encodeMessage(LiveMessageType.HELLO, helloBody(this.hello)));
    this.stats.hellos++;
  }

  private sendMetaIfChanged(): void {
    const reader = this.source.reader;
    const ch = reader.channels;
    const table = reader.entities;
    let channels = ch.count !== this.sentChannelCount;
    for (let i = 0; !channels && i < ch.count; i++) channels = ch.budgets[i] !== this.sentBudgets[i];
    const kinds = table.kinds.length !== this.sentKindCount;
    let skeletons = table.skeletons.length !== this.sentSkeletons.length;
    for (let k = 0; !skeletons && k < table.skeletons.length; k++)
      skeletons = table.skeletons[k] !== this.sentSkeletons[k];
    const events = reader.eventKinds.length !== this.sentEventKinds;
    const textures = reader.textures.length !== this.sentTextures;
    const layers = this.source.staticLayers.version !== this.sentStaticVersion;
    const fieldSchemas = this.fieldSchemasChanged();
    if (!(channels || kinds || skeletons || events || textures || layers || fieldSchemas)) return;
    const meta = new Map<string, unknown>();
    if (channels) {
      const list = ch.list();
      meta.set(
        'channels',
        list.map(
          (c) =>
            new Map<string, unknown>([
              ['name', c.name],
              ['color', c.color & 0xffffff],
              ['budget', c.budget],
            ]),
        ),
      );
      this.sentChannelCount = list.length;
      for (const c of list) this.sentBudgets[c.index] = c.budget;
    }
    if (kinds || skeletons) {
      meta.set('kinds', [...table.kinds]);
      meta.set(
        'skeletons',
        table.kinds.map((_, k) => {
          const s = table.skeletons[k];
          return s === undefined ? null : Array.from(s);
        }),
      );
      this.sentKindCount = table.kinds.length;
      this.sentSkeletons = table.skeletons.slice();
    }
    if (events) {
      meta.set('eventKinds', [...reader.eventKinds]);
      this.sentEventKinds = reader.eventKinds.length;
    }
    if (textures) {
      meta.set('textures', [...reader.textures]);
      this.sentTextures = reader.textures.length;
    }
    if (layers) {
      const sl = this.source.staticLayers;
      meta.set(
        'staticLayers',
        sl.list().map(
          (l) =>
            new Map<string, unknown>([
              ['name', l.name],
              ['primCount', l.primCount],
              ['words', new Uint8Array(l.words.buffer, l.words.byteOffset, l.words.byteLength)],
            ]),
        ),
      );
      this.sentStaticVersion = sl.version;
    }
    if (fieldSchemas) {
      const schemas = reader.fieldSchemas;
      meta.set('fieldSchemas', fieldSchemasBody(schemas));
      if (this.sentEnumNames.length < schemas.count) this.sentEnumNames = new Int32Array(schemas.count * 2);
      for (let i = 0; i < schemas.count; i++) this.sentEnumNames[i] = schemas.list()[i].enumNames.length;
      this.sentFieldSchemas = schemas.count;
    }
    this.post(encodeMessage(LiveMessageType.META, meta));
  }

  /** Whether a kind declared fields or interned an enum name since the stream was told. */
  private fieldSchemasChanged(): boolean {
    const schemas = this.source.reader.fieldSchemas;
    if (schemas.count !== this.sentFieldSchemas) return true;
    const list = schemas.list();
    for (let i = 0; i < list.length; i++) if (list[i].enumNames.length !== this.sentEnumNames[i]) return true;
    return false;
  }

  private sendFrame(frame: number): void {
    const ring = this.source.reader.ring;
    const at = ring.offsetOf(frame);
    if (at < 0) return;
    const u = ring.u32;
    // The whole frame, its custom field section included (checked against the META's schemas).
    const words = u[at + H_TOTAL_WORDS];
    const n = u[at + H_ENTITY_COUNT];
    const table = this.source.reader.entities;
    if (table.highWater > this.sentSpawn.length) this.growShadow(table.capacity);
    if (n > this.prevHandles.length) this.prevHandles = new Int32Array(Math.max(n, this.prevHandles.length * 2));
    this.ensure(FRAME_MESSAGE_WORDS * 4 + words * 4 + FRAME_PADDING_BYTES);

    // Lives: those of this frame the stream does not know as they are, and lives of the last frame
    // sent that have ended since.
    let p = FRAME_MESSAGE_WORDS * 4;
    let lives = 0;
    const base = at + HEADER_WORDS;
    for (let k = 0; k < n; k++) {
      const h = u[base + k] & HANDLE_MASK_;
      if (this.changed(h)) {
        p = this.writeLife(h, p, words);
        lives++;
      }
    }
    const prev = this.prevHandles;
    for (let k = 0; k < this.prevCount; k++) {
      const h = prev[k];
      if (table.used[h] === 1 && table.spawnFrames[h] === this.sentSpawn[h] && this.changed(h)) {
        p = this.writeLife(h, p, words);
        lives++;
      }
    }
    for (let k = 0; k < n; k++) prev[k] = u[base + k] & HANDLE_MASK_;
    this.prevCount = n;

    const out = this.out32;
    const lifeBytes = p - FRAME_MESSAGE_WORDS * 4;
    out[0] = LiveMessageType.FRAME;
    out[1] = frame;
    out[2] = this.pendingSkip;
    out[3] = lives;
    out[4] = lifeBytes;
    out[5] = words;
    const w0 = p >>> 2;
    for (let i = 0; i < words; i++) out[w0 + i] = u[at + i];
    const end = p + words * 4;
    const size = Math.ceil(end / FRAME_PADDING_BYTES) * FRAME_PADDING_BYTES;
    this.out8.fill(0, end, size);
    const cls = size / FRAME_PADDING_BYTES;
    let view = this.views[cls];
    if (view === undefined) {
      view = new Uint8Array(this.buffer, 0, size);
      this.views[cls] = view;
    }
    this.transport.send(view);
    this.stats.bytesSent += size;
    this.stats.framesSent++;
    this.stats.livesSent += lives;
    this.pendingSkip = 0;
  }

  /** Whether game handle `h`'s life differs from what the stream was told. */
  private changed(h: number): boolean {
    const t = this.source.reader.entities;
    return (
      this.sentSpawn[h] !== t.spawnFrames[h] ||
      this.sentId[h] !== t.ids[h] ||
      this.sentKind[h] !== t.kindOf[h] ||
      this.sentLabel[h] !== t.labels[h] ||
      this.sentEnded[h] !== (t.lastSeen[h] < 0 ? 1 : 0)
    );
  }

  /** Writes handle `h`'s life record at byte `p` and records it as sent; returns the next byte. */
  private writeLife(h: number, p: number, frameWords: number): number {
    const t = this.source.reader.entities;
    const label = t.labels[h];
    const ended = t.lastSeen[h] < 0 ? 1 : 0;
    let labelBytes = 0;
    if (label !== undefined) {
      const text =
        label.length > DEFAULT_LIVE_LIMITS.maxStringLength
          ? label.slice(0, DEFAULT_LIVE_LIMITS.maxStringLength)
          : label;
      this.ensure(p + LIFE_RECORD_WORDS * 4 + text.length * 3 + 4 + frameWords * 4 + FRAME_PADDING_BYTES);
      labelBytes = encoder.encodeInto(text, this.out8.subarray(p + LIFE_RECORD_WORDS * 4)).written ?? 0;
    } else {
      this.ensure(p + LIFE_RECORD_WORDS * 4 + frameWords * 4 + FRAME_PADDING_BYTES);
    }
    const o = this.out32;
    const w = p >>> 2;
    o[w] = h;
    o[w + 1] = t.ids[h];
    o[w + 2] = t.spawnFrames[h];
    o[w + 3] = t.kindOf[h];
    o[w + 4] = (ended ? LIFE_ENDED : 0) | (label !== undefined ? LIFE_HAS_LABEL : 0);
    o[w + 5] = labelBytes;
    const padded = (labelBytes + 3) & ~3;
    this.out8.fill(0, p + LIFE_RECORD_WORDS * 4 + labelBytes, p + LIFE_RECORD_WORDS * 4 + padded);
    this.sentSpawn[h] = t.spawnFrames[h];
    this.sentId[h] = t.ids[h];
    this.sentKind[h] = t.kindOf[h];
    this.sentLabel[h] = label;
    this.sentEnded[h] = ended;
    return p + LIFE_RECORD_WORDS * 4 + padded;
  }

  private growShadow(capacity: number): void {
    const cap = Math.max(capacity, 64);
    const grow = (a: Int32Array, fill: number): Int32Array<ArrayBuffer> => {
      const g = new Int32Array(cap).fill(fill);
      g.set(a);
      return g;
    };
    this.sentSpawn = grow(this.sentSpawn, NEVER);
    this.sentId = grow(this.sentId, 0);
    this.sentKind = grow(this.sentKind, 0);
    const ended = new Uint8Array(cap);
    ended.set(this.sentEnded);
    this.sentEnded = ended;
  }

  /** Makes the output buffer hold at least `bytes` (keeping what is written). */
  private ensure(bytes: number): void {
    if (bytes <= this.buffer.byteLength) return;
    const next = new ArrayBuffer(Math.ceil(Math.max(bytes, this.buffer.byteLength * 2) / 8) * 8);
    new Uint8Array(next).set(this.out8);
    this.buffer = next;
    this.out8 = new Uint8Array(next);
    this.out32 = new Uint32Array(next);
    this.views = [];
  }

  private post(bytes: Uint8Array): void {
    this.transport.send(bytes);
    this.stats.bytesSent += bytes.length;
  }

  private receive(bytes: Uint8Array): void {
    try {
      const type = messageType(bytes, 1 << 16);
      if (type === LiveMessageType.RESYNC) {
        this.resync();
      } else if (type === LiveMessageType.COMMAND) {
        this.runCommand(bytes);
      }
    } catch (e) {
      this.options.onWarning?.(`rewindable live: ignored a message from a viewer: ${LiveError.from(e).message}`);
    }
  }

  private runCommand(bytes: Uint8Array): void {
    const c = parseCommand(decodeBody(bytes, 'command'));
    const handler = this.options.commands[c.command];
    let ok = false;
    let detail: string;
    if (typeof handler !== 'function') {
      detail = `the game does not allow "${c.command}"`;
    } else {
      try {
        const r = handler(c.frame);
        ok = r === true;
        detail = r === true ? '' : String(r);
      } catch (e) {
        detail = `the game's handler threw: ${e instanceof Error ? e.message : String(e)}`;
      }
    }
    if (ok) this.stats.commandsRun++;
    else this.stats.commandsRefused++;
    if (!ok) this.options.onWarning?.(`rewindable live: command ${c.command} refused: ${detail}`);
    this.post(
      encodeMessage(
        LiveMessageType.COMMAND_RESULT,
        new Map<string, unknown>([
          ['id', c.id],
          ['ok', ok],
          ['detail', detail.slice(0, 1024)],
        ]),
      ),
    );
  }
}

const encoder = new TextEncoder();
