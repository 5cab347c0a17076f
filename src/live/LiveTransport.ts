/**
 * How live messages travel: a WebSocket to `npx rewindable serve`, or a BroadcastChannel between
 * tabs of one origin. Both are wrapped to this interface, which is all `LiveSender` and the viewer
 * clients use.
 */
export interface LiveTransport {
  /** Whether `send` delivers now (open socket, open channel). */
  readonly isOpen: boolean;
  /**
   * Bytes accepted by `send` and not yet written to the network (`WebSocket.bufferedAmount`; 0 for
   * a BroadcastChannel, which has no backlog). The sender skips frames while it is too high.
   */
  readonly bufferedAmount: number;
  /** Sends one message (the transport copies it, or sends it before returning). */
  send(bytes: Uint8Array): void;
  /** Called with each message received. */
  onMessage: ((bytes: Uint8Array) => void) | null;
  /** Called each time the transport (re)opens. */
  onOpen: (() => void) | null;
  /** Called each time it closes (a reconnecting transport opens again later); `reason` says why. */
  onClose: ((reason: string) => void) | null;
  /** Closes for good (no reconnect). */
  close(): void;
}

/** The subset of the WebSocket API used (the browser's `WebSocket` and the `ws` package's both fit). */
export interface WebSocketLike {
  binaryType: string;
  readonly readyState: number;
  readonly bufferedAmount: number;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: { code?: number; reason?: string }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  send(data: Uint8Array): void;
  close(code?: number, reason?: string): void;
}

/** A WebSocket constructor: `globalThis.WebSocket` in browsers (and Node ≥ 22), or `ws`'s. */
export type WebSocketConstructor = new (url: string) => WebSocketLike;

/** Settings of `WebSocketTransport`. */
export interface WebSocketTransportOptions {
  /** The WebSocket class; default `globalThis.WebSocket`. */
  WebSocket: WebSocketConstructor | null;
  /** Reconnects after a close, waiting `minDelayMs`, doubling up to `maxDelayMs` (reset once open). */
  reconnect: boolean;
  minDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_WEBSOCKET_TRANSPORT_OPTIONS: Readonly<WebSocketTransportOptions> = Object.freeze({
  WebSocket: null,
  reconnect: true,
  minDelayMs: 250,
  maxDelayMs: 5000,
});

/** Turns what a socket or channel delivered into bytes (or null for anything that is not binary). */
export function toBytes(data: unknown): Uint8Array | null {
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (data instanceof Uint8Array) return data;
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (Array.isArray(data) && data.every((d) => d instanceof Uint8Array)) {
    // ws delivers fragmented messages as a list of buffers when binaryType is 'nodebuffer'.
    const total = data.reduce((s: number, d: Uint8Array) => s + d.length, 0);
    const out = new Uint8Array(total);
    let o = 0;
    for (const d of data as Uint8Array[]) {
      out.set(d, o);
      o += d.length;
    }
    return out;
  }
  return null;
}

/** The error listener a closed socket keeps (see `WebSocketTransport.close`). */
function ignoreError(): void {}

/**
 * A WebSocket that reconnects with backoff: the game's link to the server, and the viewer's.
 *
 * @example
 * const t = new WebSocketTransport('ws://127.0.0.1:7070/publish');            // browser
 * const t2 = new WebSocketTransport(url, { WebSocket: (await import('ws')).WebSocket }); // Node
 */
export class WebSocketTransport implements LiveTransport {
  public onMessage: ((bytes: Uint8Array) => void) | null = null;
  public onOpen: (() => void) | null = null;
  public onClose: ((reason: string) => void) | null = null;
  /** Connections opened so far (1 after the first open, 2 after a reconnect...). */
  public opens = 0;
  private readonly options: WebSocketTransportOptions;
  private socket: WebSocketLike | null = null;
  private closed = false;
  private delay: number;
  private timer: ReturnType<typeof setTimeout> | null = null;

  public constructor(
    public readonly url: string,
    options: Partial<WebSocketTransportOptions> = {},
  ) {
    this.options = { ...DEFAULT_WEBSOCKET_TRANSPORT_OPTIONS, ...options };
    this.delay = this.options.minDelayMs;
    this.connect();
  }

  public get isOpen(): boolean {
    return this.socket !== null && this.socket.readyState === 1;
  }

  public get bufferedAmount(): number {
    return this.socket === null ? 0 : this.socket.bufferedAmount;
  }

  public send(bytes: Uint8Array): void {
    if (this.socket !== null && this.socket.readyState === 1) this.socket.send(bytes);
  }

  public close(): void {
    this.closed = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    const s = this.socket;
    this.socket = null;
    if (s !== null) {
      s.onclose = null;
      s.onmessage = null;
      // Not null: ws reports the close of a socket still connecting as an error on the next tick,
      // which Node throws when nothing listens (the game would crash for closing its link early).
      s.onerror = ignoreError;
      s.onopen = null;
      try {
        s.close(1000, 'closed');
      } catch {
        // Closing a socket that never connected can throw in some implementations.
      }
    }
  }

  private connect(): void {
    if (this.closed) return;
    const Ctor = this.options.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
    if (Ctor === undefined)
      throw new Error('rewindable live: no WebSocket class; pass { WebSocket } from the ws package');
    let s: WebSocketLike;
    try {
      s = new Ctor(this.url);
    } catch (e) {
      this.scheduleReconnect(e instanceof Error ? e.message : String(e));
      return;
    }
    s.binaryType = 'arraybuffer';
    this.socket = s;
    s.onopen = () => {
      this.delay = this.options.minDelayMs;
      this.opens++;
      this.onOpen?.();
    };
    s.onmessage = (ev) => {
      const bytes = toBytes(ev.data);
      if (bytes !== null) this.onMessage?.(bytes);
    };
    s.onerror = () => {
      // A close event follows; reconnecting happens there.
    };
    s.onclose = (ev) => {
      if (this.socket !== s) return;
      this.socket = null;
      this.onClose?.(`${ev.code ?? ''} ${ev.reason ?? ''}`.trim());
      this.scheduleReconnect('closed');
    };
  }

  private scheduleReconnect(_why: string): void {
    if (this.closed || !this.options.reconnect || this.timer !== null) return;
    const wait = this.delay;
    this.delay = Math.min(this.options.maxDelayMs, this.delay * 2);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.connect();
    }, wait);
  }
}

/** What goes over the BroadcastChannel: the message and the session it belongs to. */
interface TabEnvelope {
  readonly from: 'game' | 'viewer';
  /** The game's session id; `*` for a viewer's RESYNC to every game. */
  readonly session: string;
  readonly bytes: Uint8Array;
}

/** The subset of BroadcastChannel used. */
export interface BroadcastChannelLike {
  postMessage(message: unknown): void;
  onmessage: ((ev: { data: unknown }) => void) | null;
  close(): void;
}

/** The channel name games and viewer tabs share by default. */
export const LIVE_TAB_CHANNEL = 'rewindable-live';

/**
 * Same origin, no server: a BroadcastChannel between the game's tab and viewer tabs. A game's
 * transport posts its session's messages and hears viewers' messages addressed to its session (or
 * to all); a viewer's hears every game and addresses one (`session`).
 *
 * @example
 * const t = new BroadcastChannelTransport('game', session);
 */
export class BroadcastChannelTransport implements LiveTransport {
  public onMessage: ((bytes: Uint8Array) => void) | null = null;
  /** Viewer side: every message with the session it came from. */
  public onSessionMessage: ((session: string, bytes: Uint8Array) => void) | null = null;
  public onOpen: (() => void) | null = null;
  public onClose: ((reason: string) => void) | null = null;
  public readonly bufferedAmount = 0;
  private readonly channel: BroadcastChannelLike;
  private open = true;

  /**
   * @param role `game` posts as a game, `viewer` as a viewer.
   * @param session the game's session (a viewer: the session it addresses, `*` for all).
   */
  public constructor(
    public readonly role: 'game' | 'viewer',
    public session: string,
    name = LIVE_TAB_CHANNEL,
    channel?: BroadcastChannelLike,
  ) {
    const Ctor = (globalThis as { BroadcastChannel?: new (name: string) => BroadcastChannelLike }).BroadcastChannel;
    if (channel === undefined && Ctor === undefined)
      throw new Error('rewindable live: BroadcastChannel is not available here');
    this.channel = channel ?? new (Ctor as new (name: string) => BroadcastChannelLike)(name);
    this.channel.onmessage = (ev) => this.receive(ev.data);
    // Opens at once; onOpen is called on the next turn, once the caller has set it.
    queueMicrotask(() => {
      if (this.open) this.onOpen?.();
    });
  }

  public get isOpen(): boolean {
    return this.open;
  }

  public send(bytes: Uint8Array): void {
    if (!this.open) return;
    // Structured clone copies a view's whole buffer: post exactly the message's bytes.
    const exact = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
    const envelope: TabEnvelope = { from: this.role, session: this.session, bytes: exact };
    this.channel.postMessage(envelope);
  }

  public close(): void {
    if (!this.open) return;
    this.open = false;
    this.channel.onmessage = null;
    this.channel.close();
    this.onClose?.('closed');
  }

  private receive(data: unknown): void {
    if (data === null || typeof data !== 'object') return;
    const e = data as Partial<TabEnvelope>;
    if (typeof e.session !== 'string' || !(e.bytes instanceof Uint8Array)) return;
    if (this.role === 'game') {
      if (e.from !== 'viewer' || (e.session !== this.session && e.session !== '*')) return;
      this.onMessage?.(e.bytes);
    } else {
      if (e.from !== 'game') return;
      this.onSessionMessage?.(e.session, e.bytes);
      if (e.session === this.session) this.onMessage?.(e.bytes);
    }
  }
}
