import { liveUrl } from './connectLive';
import { LiveError } from './LiveError';
import { parseCommandResult, parseErrorBody, parseHello, parseSessions } from './messages';
import {
  DEFAULT_LIVE_LIMITS,
  type LiveCommandName,
  type LiveCommandResult,
  LiveMessageType,
  type LiveSessionInfo,
  decodeBody,
  encodeMessage,
  messageType,
} from './protocol';
import { LiveStore, type LiveStoreOptions } from './LiveStore';
import {
  BroadcastChannelTransport,
  type LiveTransport,
  type WebSocketConstructor,
  WebSocketTransport,
} from './LiveTransport';

/** Settings of `LiveViewer.connect`. */
export interface LiveViewerOptions {
  /** The store of each session followed (window, arena, limits). */
  store: Partial<LiveStoreOptions>;
  /** The WebSocket class (Node: `ws`'s); default `globalThis.WebSocket`. */
  WebSocket: WebSocketConstructor | null;
  /** The server's shared token, if it has one. */
  token: string | null;
  /** A stream the store refused, a server error; default: ignored. */
  onError: ((error: LiveError) => void) | null;
  /** Commands wait this long for the game's answer. */
  commandTimeoutMs: number;
}

export const DEFAULT_LIVE_VIEWER_OPTIONS: Readonly<LiveViewerOptions> = Object.freeze({
  store: {},
  WebSocket: null,
  token: null,
  onError: null,
  commandTimeoutMs: 5000,
});

/**
 * The viewer's end of a live stream: lists the sessions (from the server, or the games of other tabs
 * of this origin with `'tab'`), follows one into a `LiveStore`, and sends two-way commands. It
 * survives reconnects: it subscribes again and its store keeps what it held (the frames it missed
 * become a gap).
 *
 * @example
 * const viewer = LiveViewer.connect('ws://127.0.0.1:7070');
 * viewer.onSessions = (list) => { if (list.length > 0) viewer.follow(list[0].session); };
 * overlay.showReplay(viewer.store);
 */
export class LiveViewer {
  public readonly options: Readonly<LiveViewerOptions>;
  /** The sessions known, newest start first. */
  public sessions: LiveSessionInfo[] = [];
  /** Called when `sessions` changed. */
  public onSessions: ((sessions: readonly LiveSessionInfo[]) => void) | null = null;
  /** The store of the session followed. */
  public store: LiveStore;
  /** The session followed, or null. */
  public session: string | null = null;
  /** Errors so far (the last few). */
  public readonly errors: LiveError[] = [];
  private readonly pending = new Map<
    number,
    { resolve: (r: LiveCommandResult) => void; timer: ReturnType<typeof setTimeout> }
  >();
  private nextCommand = 1;
  private readonly tab: BroadcastChannelTransport | null;
  private readonly tabSessions = new Map<string, LiveSessionInfo>();

  private constructor(
    public readonly transport: LiveTransport,
    options: LiveViewerOptions,
  ) {
    this.options = Object.freeze(options);
    this.store = new LiveStore(options.store);
    this.tab = transport instanceof BroadcastChannelTransport ? transport : null;
    transport.onMessage = (bytes) => this.receive(bytes);
    transport.onOpen = () => {
      if (this.tab !== null)
        this.tab.send(encodeMessage(LiveMessageType.RESYNC)); // every game says hello
      else if (this.session !== null) this.subscribe(this.session);
    };
    if (this.tab !== null) this.tab.onSessionMessage = (session, bytes) => this.tabMessage(session, bytes);
  }

  /**
   * Connects to a server (`ws://host:port`) or, with `'tab'`, to games in other tabs of this origin.
   *
   * @example
   * const viewer = LiveViewer.connect('tab');
   */
  public static connect(target: string, options: Partial<LiveViewerOptions> = {}): LiveViewer {
    const o: LiveViewerOptions = { ...DEFAULT_LIVE_VIEWER_OPTIONS, ...options };
    const transport =
      target === 'tab'
        ? new BroadcastChannelTransport('viewer', '*')
        : new WebSocketTransport(liveUrl(target, '/view', o.token), { WebSocket: o.WebSocket });
    return new LiveViewer(transport, o);
  }

  /**
   * Follows a session: its frames go into `store` (a new store when it is another session than the
   * one followed).
   */
  public follow(session: string): void {
    if (session !== this.session) {
      this.store = new LiveStore(this.options.store);
      this.session = session;
    }
    this.subscribe(session);
  }

  /**
   * Asks the game to run a two-way command; resolves with its answer (refused unless the game
   * allows the command, or after `commandTimeoutMs`).
   */
  public command(command: LiveCommandName, frame: number): Promise<LiveCommandResult> {
    const id = this.nextCommand++;
    return new Promise((resolve) => {
      const hello = this.store.hello;
      if (hello === null || !hello.commands.includes(command)) {
        resolve({ id, ok: false, detail: `the game does not allow "${command}"` });
        return;
      }
      const timer = setTimeout(() => {
        this.pending.delete(id);
        resolve({ id, ok: false, detail: 'no answer from the game' });
      }, this.options.commandTimeoutMs);
      this.pending.set(id, { resolve, timer });
      this.transport.send(
        encodeMessage(
          LiveMessageType.COMMAND,
          new Map<string, unknown>([
            ['id', id],
            ['command', command],
            ['frame', frame],
          ]),
        ),
      );
    });
  }

  public close(): void {
    for (const p of this.pending.values()) clearTimeout(p.timer);
    this.pending.clear();
    this.transport.close();
  }

  private subscribe(session: string): void {
    if (this.tab !== null) {
      this.tab.session = session;
      this.tab.send(encodeMessage(LiveMessageType.RESYNC));
    } else {
      this.transport.send(encodeMessage(LiveMessageType.SUBSCRIBE, new Map([['session', session]])));
    }
  }

  private receive(bytes: Uint8Array): void {
    try {
      const type = messageType(bytes, this.store.validator.limits.maxMessageBytes);
      switch (type) {
        case LiveMessageType.SESSIONS:
          this.setSessions(parseSessions(decodeBody(bytes, 'sessions'), DEFAULT_LIVE_LIMITS));
          return;
        case LiveMessageType.ERROR: {
          const e = parseErrorBody(decodeBody(bytes, 'error'));
          this.report(new LiveError('PROTOCOL', `server: ${e.code}: ${e.detail}`));
          return;
        }
        case LiveMessageType.COMMAND_RESULT: {
          const r = parseCommandResult(decodeBody(bytes, 'commandResult'));
          const p = this.pending.get(r.id);
          if (p !== undefined) {
            clearTimeout(p.timer);
            this.pending.delete(r.id);
            p.resolve(r);
          }
          return;
        }
        case LiveMessageType.HELLO:
        case LiveMessageType.META:
        case LiveMessageType.FRAME:
        case LiveMessageType.BYE:
          // Until this session's hello, frames refer to lives and lists this viewer was not told.
          if (type !== LiveMessageType.HELLO && this.store.hello === null) return;
          this.store.accept(bytes);
          return;
        default:
          return;
      }
    } catch (e) {
      this.report(LiveError.from(e));
    }
  }

  /** Tabs: every game's messages; hellos make the session list. */
  private tabMessage(session: string, bytes: Uint8Array): void {
    if (
      bytes.length < 4 ||
      (bytes[0] !== LiveMessageType.HELLO && bytes[0] !== LiveMessageType.BYE && bytes[0] !== LiveMessageType.FRAME)
    )
      return;
    const known = this.tabSessions.get(session);
    try {
      if (bytes[0] === LiveMessageType.HELLO) {
        const h = parseHello(decodeBody(bytes, 'hello'), DEFAULT_LIVE_LIMITS);
        if (h.session !== session) return;
        this.tabSessions.set(session, {
          session,
          game: h.game,
          buildId: h.buildId,
          startedAt: h.startedAt,
          connected: true,
          frames: known?.frames ?? 0,
          viewers: 1,
        });
      } else if (bytes[0] === LiveMessageType.BYE && known !== undefined) {
        this.tabSessions.set(session, { ...known, connected: false });
      } else if (known !== undefined) {
        (known as { frames: number }).frames++;
        return;
      } else {
        return;
      }
    } catch (e) {
      this.report(LiveError.from(e));
      return;
    }
    this.setSessions([...this.tabSessions.values()]);
  }

  private setSessions(list: LiveSessionInfo[]): void {
    this.sessions = list.slice().sort((a, b) => (a.startedAt < b.startedAt ? 1 : a.startedAt > b.startedAt ? -1 : 0));
    this.onSessions?.(this.sessions);
  }

  private report(e: LiveError): void {
    this.errors.push(e);
    if (this.errors.length > 16) this.errors.shift();
    this.options.onError?.(e);
  }
}
