import {
  FRAME_HAS_CAMERA,
  FRAME_TRUNCATED,
  HANDLE_MASK,
  HEADER_WORDS,
  H_CAM_ROT,
  H_CAM_X,
  H_CAM_ZOOM,
  H_DT,
  H_ENTITY_COUNT,
  H_FLAGS,
  H_FRAME,
  H_TIME,
  H_TOTAL_WORDS,
} from '../core/format/layout';
import { FieldSchemas } from '../core/fields/FieldSchemas';
import { QUAT_IDENTITY_BITS } from '../core/math/quat';
import { FrameReader } from '../core/read/FrameReader';
import { ChannelRegistry } from '../core/store/ChannelRegistry';
import { frameChannelMask, primitiveChannelMask } from '../core/format/channelMask';
import { EntityTable } from '../core/store/EntityTable';
import { FrameRing } from '../core/store/FrameRing';
import { StaticLayers } from '../core/store/StaticLayers';
import { type SaveReplayOptions, saveReplay } from '../replay/saveReplay';
import { LiveError } from './LiveError';
import type { LiveMeta } from './messages';
import { LIFE_ENDED, LiveMessageType, type LiveHello, type LiveLimits, type LiveMessageTypeCode } from './protocol';
import { LiveValidator, applyFieldSchemas } from './LiveValidator';

/** Settings of a `LiveStore`; see `DEFAULT_LIVE_STORE_OPTIONS`. */
export interface LiveStoreOptions {
  /** Seconds of game time kept (older frames are evicted); the window beyond the game's own ring. */
  windowSeconds: number;
  /** The store's arena in bytes (allocated once): frames are also evicted when it is full. */
  maxBytes: number;
  /** Most frames held. */
  maxFrames: number;
  /** What the stream's messages may hold. */
  limits: Partial<LiveLimits>;
}

/** 10 minutes, in a 128 MiB arena, at most 2^16 frames (18 minutes at 60 fps). */
export const DEFAULT_LIVE_STORE_OPTIONS: Readonly<LiveStoreOptions> = Object.freeze({
  windowSeconds: 600,
  maxBytes: 128 * 1024 * 1024,
  maxFrames: 1 << 16,
  limits: {},
});

const HANDLE_MASK_ = HANDLE_MASK;

/**
 * The viewer's copy of a live session: it checks each message of the stream (`LiveValidator`) and
 * rebuilds a ring of its own, read through `reader` exactly like a recorder's or a loaded file's, so
 * `Playback`, the overlay (`overlay.showReplay(store)`) and `saveReplay` work on it unchanged. It
 * keeps a bounded window (`windowSeconds`, `maxBytes`, `maxFrames`) that can be far longer than
 * the game's ring.
 *
 * Frame numbers are the game's. Frames the viewer did not receive (the game skipped them on a slow
 * link, or the viewer was disconnected) are held as header-only frames flagged `truncated`, with
 * the time interpolated and the previous camera, so the frame numbers stay contiguous; a gap
 * longer than the store's `maxFrames` starts the window over. Game handles are mapped to the
 * store's own, because the game recycles a handle once its ring forgot it, while the store may
 * still hold frames of the old life.
 *
 * @example
 * const store = new LiveStore({ windowSeconds: 600 });
 * socket.onmessage = (e) => store.accept(new Uint8Array(e.data)); // throws LiveError on a bad stream
 * overlay.showReplay(store);
 */
export class LiveStore {
  public readonly options: Readonly<LiveStoreOptions>;
  public readonly validator: LiveValidator;
  public readonly ring: FrameRing;
  public readonly entities: EntityTable;
  public readonly channels = new ChannelRegistry(0);
  public readonly eventKinds: string[] = [];
  /** Texture names of the display records received (META `textures`), by index. */
  public readonly textures: string[] = [];
  public readonly staticLayers = new StaticLayers();
  /**
   * The custom field schemas received (META `fieldSchemas`), with their enum names: the reader's,
   * so `new Playback(store.reader).fields` (the inspector) reads the game's fields.
   */
  public readonly fieldSchemas = new FieldSchemas();
  public readonly reader: FrameReader;
  /** No bookmarks come over the stream (the viewer adds its own). */
  public readonly bookmarks: ReadonlyArray<{ frame: number; label: string }> = [];
  /** Frames received, and frames held as gaps (header-only) because they never arrived. */
  public framesReceived = 0;
  public gapFrames = 0;
  /** Frames the game reported skipping (the sum of the frames' `skipped` counts). */
  public framesSkippedBySender = 0;
  /** Bumped on every accepted message that changed what the store holds. */
  public version = 0;

  /** Store handle of each game handle's current life, or -1. */
  private g2v = new Int32Array(64).fill(-1);
  /** Store handles whose game handle went to a new life: released once their frames are evicted. */
  private retired = new Int32Array(64);
  private retiredHead = 0;
  private retiredTail = 0;
  private readonly session = { id: '' };

  public constructor(options: Partial<LiveStoreOptions> = {}) {
    this.options = Object.freeze({ ...DEFAULT_LIVE_STORE_OPTIONS, ...options });
    this.validator = new LiveValidator(this.options.limits);
    this.ring = new FrameRing(this.options.maxBytes, this.options.maxFrames);
    this.entities = new EntityTable(1024, this.validator.limits.maxEntityId);
    this.reader = new FrameReader(
      this.ring,
      this.entities,
      this.channels,
      this.eventKinds,
      this.textures,
      this.fieldSchemas,
    );
    this.ring.onEvict = (frame) => this.onEvict(frame);
  }

  /** The session's hello, or null before it. */
  public get hello(): LiveHello | null {
    return this.validator.hello;
  }

  /**
   * Checks one message of the stream and applies it. Returns its type (the caller handles the
   * types the store has nothing to do with: commands, session lists).
   * @throws LiveError when the message is malformed, too large or out of order; the store keeps
   *   what it held, and the stream should be dropped.
   */
  public accept(bytes: Uint8Array): LiveMessageTypeCode {
    const v = this.validator;
    const type = v.accept(bytes);
    if (type === LiveMessageType.HELLO) {
      const hello = v.hello as LiveHello;
      if (hello.session !== this.session.id) {
        this.startOver();
        this.session.id = hello.session;
      }
      this.version++;
    } else if (type === LiveMessageType.META) {
      this.applyMeta(v.meta as LiveMeta);
      this.version++;
    } else if (type === LiveMessageType.FRAME) {
      LiveError.guard(() => this.applyFrame());
      this.version++;
    }
    return type;
  }

  /**
   * A `.rwd` file of frames `from..to` (clamped to the frames held), with everything it needs
   * (entities, channels, kinds, skeletons, event kinds, textures, custom field schemas, static layers): `loadReplay` and
   * `npx rewindable info` read it like any replay.
   *
   * @example
   * download(store.saveRange(store.reader.oldestFrame, store.reader.newestFrame, { compression: 'xor-delta' }));
   */
  public saveRange(from: number, to: number, options: Partial<SaveReplayOptions> = {}): Uint8Array {
    const ring = this.ring;
    const first = Math.max(from, ring.oldestFrame);
    const last = Math.min(to, ring.newestFrame);
    let words = 0;
    for (let f = first; f <= last && ring.frameCount > 0; f++) words += ring.wordsOf(f);
    const count = Math.max(0, last - first + 1);
    const copy = new FrameRing(Math.max(1024, words * 4 + 8), Math.max(1, count));
    for (let f = first; f <= last && ring.frameCount > 0; f++) {
      const at = ring.offsetOf(f);
      const n = ring.u32[at + H_TOTAL_WORDS];
      const to32 = copy.reserve(n);
      copy.u32.set(ring.u32.subarray(at, at + n), to32);
      copy.commit(f, n);
    }
    const hello = this.hello;
    const fields: Record<string, string> =
      hello === null ? {} : { game: hello.game, session: hello.session, startedAt: hello.startedAt };
    return saveReplay(
      {
        reader: new FrameReader(copy, this.entities, this.channels, this.eventKinds, this.textures, this.fieldSchemas),
        staticLayers: this.staticLayers,
      },
      {
        buildId: hello?.buildId ?? '',
        platform: 'live stream',
        ...options,
        fields: { ...fields, ...(options.fields ?? {}) },
      },
    );
  }

  /** Drops every frame and life (a new session). */
  public startOver(): void {
    this.ring.clear();
    this.entities.clear();
    this.fieldSchemas.clear();
    this.g2v.fill(-1);
    this.retiredHead = 0;
    this.retiredTail = 0;
  }

  private applyMeta(meta: LiveMeta): void {
    if (meta.channels !== undefined) {
      const c = this.channels;
      meta.channels.forEach((ch, i) => {
        if (i < c.count) c.setBudget(i, ch.budget);
        else c.register(ch.name, { color: ch.color, budget: ch.budget });
      });
    }
    const t = this.entities;
    if (meta.kinds !== undefined) for (let k = t.kinds.length; k < meta.kinds.length; k++) t.internKind(meta.kinds[k]);
    if (meta.skeletons !== undefined) {
      for (let k = 0; k < t.kinds.length; k++) t.skeletons[k] = meta.skeletons[k] ?? undefined;
    }
    if (meta.eventKinds !== undefined)
      for (let k = this.eventKinds.length; k < meta.eventKinds.length; k++) this.eventKinds.push(meta.eventKinds[k]);
    if (meta.textures !== undefined)
      for (let k = this.textures.length; k < meta.textures.length; k++) this.textures.push(meta.textures[k]);
    if (meta.fieldSchemas !== undefined) applyFieldSchemas(meta.fieldSchemas, this.fieldSchemas);
    if (meta.staticLayers !== undefined) {
      const keep = new Set(meta.staticLayers.map((l) => l.name));
      for (const l of this.staticLayers.list()) if (!keep.has(l.name)) this.staticLayers.delete(l.name);
      for (const l of meta.staticLayers) {
        this.staticLayers.setEncoded(l.name, l.words, l.primCount);
        this.channels.markUsed(primitiveChannelMask(l.words, 0, l.words.length));
      }
    }
  }

  private applyFrame(): void {
    const v = this.validator;
    const frame = v.frame;
    const ring = this.ring;
    // Lives first: a game handle that starts a new life gets a new store handle.
    for (let i = 0; i < v.lifeCount; i++)
      this.applyLife(v.lifeHandle[i], v.lifeId[i], v.lifeSpawn[i], v.lifeKind[i], v.lifeFlags[i], v.lifeLabel[i]);
    // Frames that never arrived: header-only, so the numbers stay contiguous (or start over).
    if (ring.frameCount > 0) {
      const gap = frame - ring.newestFrame - 1;
      if (gap >= ring.maxFrames) ring.clear();
      else if (gap > 0) this.fillGap(gap, frame, v.f64[H_TIME >>> 1]);
    }
    const words = v.frameWords;
    const at = ring.reserve(words);
    if (at < 0)
      throw new LiveError(
        'TOO_LARGE',
        `frame of ${words * 4} bytes is larger than the store's arena`,
        `frame[${frame}]`,
      );
    const u = ring.u32;
    u.set(v.words.subarray(0, words), at);
    const n = u[at + H_ENTITY_COUNT];
    const t = this.entities;
    const g2v = this.g2v;
    for (let k = at + HEADER_WORDS, end = at + HEADER_WORDS + n; k < end; k++) {
      const w = u[k];
      const h = g2v[w & HANDLE_MASK_];
      u[k] = ((w & ~HANDLE_MASK_) | h) >>> 0;
      t.setLastFrame(h, frame, t.isEnded(h));
    }
    // The channels this frame draws on (a panel lists only the channels in use).
    this.channels.markUsed(frameChannelMask(u, at));
    ring.commit(frame, words);
    this.framesReceived++;
    this.framesSkippedBySender += v.skipped;
    this.evictByTime();
  }

  private applyLife(
    gh: number,
    id: number,
    spawn: number,
    kind: number,
    flags: number,
    label: string | undefined,
  ): void {
    const t = this.entities;
    if (gh >= this.g2v.length) {
      const g = new Int32Array(Math.max(gh + 1, this.g2v.length * 2)).fill(-1);
      g.set(this.g2v);
      this.g2v = g;
    }
    let h = this.g2v[gh];
    if (h < 0 || t.ids[h] !== id || t.spawnFrames[h] !== spawn) {
      if (h >= 0) this.retire(h);
      h = t.allocate(id, spawn);
      if (h < 0) throw new LiveError('TOO_LARGE', 'the store ran out of entity handles', 'lives');
      this.g2v[gh] = h;
    }
    t.kindOf[h] = kind;
    t.labels[h] = label;
    if ((flags & LIFE_ENDED) !== 0) t.end(h);
  }

  private retire(h: number): void {
    const ring = this.ring;
    if (ring.frameCount === 0 || this.entities.lastFrame(h) < ring.oldestFrame) {
      this.entities.release(h);
      return;
    }
    if (this.retiredTail === this.retired.length) {
      const live = this.retired.subarray(this.retiredHead, this.retiredTail);
      const g = new Int32Array(Math.max(64, live.length * 2));
      g.set(live);
      this.retired = g;
      this.retiredTail -= this.retiredHead;
      this.retiredHead = 0;
    }
    this.retired[this.retiredTail++] = h;
  }

  private onEvict(frame: number): void {
    const t = this.entities;
    while (this.retiredHead < this.retiredTail && t.lastFrame(this.retired[this.retiredHead]) <= frame) {
      t.release(this.retired[this.retiredHead++]);
    }
    if (this.retiredHead === this.retiredTail) {
      this.retiredHead = 0;
      this.retiredTail = 0;
    }
  }

  private fillGap(gap: number, frame: number, time: number): void {
    const ring = this.ring;
    const prev = ring.newestFrame;
    const pAt = ring.offsetOf(prev);
    const t0 = ring.f64[(pAt + H_TIME) >>> 1];
    const cam = new Uint32Array(5);
    cam.set(ring.u32.subarray(pAt + H_CAM_X, pAt + H_CAM_ZOOM + 1));
    const hasCamera = (ring.u32[pAt + H_FLAGS] & FRAME_HAS_CAMERA) !== 0;
    const step = (time - t0) / (frame - prev);
    for (let i = 1; i <= gap; i++) {
      const at = ring.reserve(HEADER_WORDS);
      const u = ring.u32;
      u.fill(0, at, at + HEADER_WORDS);
      u[at + H_FRAME] = prev + i;
      ring.f64[(at + H_TIME) >>> 1] = t0 + step * i;
      ring.f32[at + H_DT] = step;
      u[at + H_FLAGS] = FRAME_TRUNCATED | (hasCamera ? FRAME_HAS_CAMERA : 0);
      if (hasCamera) u.set(cam, at + H_CAM_X);
      else {
        u[at + H_CAM_ROT] = QUAT_IDENTITY_BITS;
        ring.f32[at + H_CAM_ZOOM] = 1;
      }
      u[at + H_TOTAL_WORDS] = HEADER_WORDS;
      ring.commit(prev + i, HEADER_WORDS);
    }
    this.gapFrames += gap;
  }

  private evictByTime(): void {
    const ring = this.ring;
    const newest = this.reader.timeOf(ring.newestFrame);
    const limit = this.options.windowSeconds;
    while (ring.frameCount > 1 && newest - this.reader.timeOf(ring.oldestFrame) > limit) ring.evictOldest();
  }
}
