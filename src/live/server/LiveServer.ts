/// <reference types="node" />
import { timingSafeEqual } from 'node:crypto';
import { existsSync } from 'node:fs';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import { join } from 'node:path';
import { type RawData, type WebSocket, WebSocketServer } from 'ws';
import { LiveError } from '../LiveError';
import { parseSubscribe } from '../messages';
import {
  DEFAULT_LIVE_LIMITS,
  type LiveLimits,
  LiveMessageType,
  type LiveSessionInfo,
  decodeBody,
  encodeMessage,
  messageType,
} from '../protocol';
import { LiveValidator } from '../LiveValidator';
import { DEFAULT_LIVE_SERVER_OPTIONS, type LiveServerOptions } from './LiveServerOptions';
import { serveFile } from './serveFile';
import { DEFAULT_PERSIST_OPTIONS, SessionPersister } from './SessionPersister';
import { minimalViewerPage } from './minimalPage';

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);
/** Resyncs a session asks its game for at most this often. */
const RESYNC_INTERVAL_MS = 500;

interface Viewer {
  readonly socket: WebSocket;
  session: Session | null;
  wanted: string | null;
  /** Missed a frame: gets nothing but hellos until the game's next hello. */
  waiting: boolean;
}

interface Session {
  readonly id: string;
  info: { game: string; buildId: string; startedAt: string };
  publisher: WebSocket | null;
  readonly validator: LiveValidator;
  readonly persister: SessionPersister | null;
  readonly viewers: Set<Viewer>;
  frames: number;
  lastResync: number;
  resyncPending: boolean;
}

/**
 * `npx rewindable serve`: serves the viewer page and relays live sessions, games publish on
 * `/publish`, viewers follow on `/view`. Every message a game sends is checked (`LiveValidator`, or
 * the persister's `LiveStore`) before it is relayed; a stream that fails gets an `ERROR` message
 * and is closed, and nothing else is affected. A slow viewer misses frames (never slowing the game
 * or other viewers) and catches up with a resync. Binds loopback unless told otherwise.
 *
 * @example
 * const server = await LiveServer.start({ port: 0 });
 * console.log(server.url); // ws://127.0.0.1:PORT
 * await server.close();
 */
export class LiveServer {
  public readonly options: Readonly<LiveServerOptions>;
  public readonly sessions = new Map<string, Session>();
  private readonly viewers = new Set<Viewer>();
  private readonly limits: LiveLimits;
  private constructor(
    private readonly http: Server,
    private readonly wss: WebSocketServer,
    options: LiveServerOptions,
  ) {
    this.options = Object.freeze(options);
    this.limits = { ...DEFAULT_LIVE_LIMITS, ...options.limits };
  }

  /**
   * Starts a server and resolves once it listens.
   * @throws Error when asked to bind a non-loopback interface without `allowRemote`.
   */
  public static start(options: Partial<LiveServerOptions> = {}): Promise<LiveServer> {
    const o: LiveServerOptions = { ...DEFAULT_LIVE_SERVER_OPTIONS, ...options };
    if (!LOOPBACK.has(o.host) && !o.allowRemote) {
      return Promise.reject(
        new Error(`refusing to listen on ${o.host} without --allow-remote (anyone who can reach it sees your game)`),
      );
    }
    const limits = { ...DEFAULT_LIVE_LIMITS, ...o.limits };
    const http = createServer();
    const wss = new WebSocketServer({ noServer: true, maxPayload: limits.maxMessageBytes });
    const server = new LiveServer(http, wss, o);
    http.on('request', (req, res) => server.onRequest(req, res));
    http.on('upgrade', (req, socket, head) => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      if ((url.pathname !== '/publish' && url.pathname !== '/view') || !server.authorized(url)) {
        socket.end(
          `HTTP/1.1 ${url.pathname === '/publish' || url.pathname === '/view' ? '401 Unauthorized' : '404 Not Found'}\r\nConnection: close\r\n\r\n`,
        );
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => {
        if (url.pathname === '/publish') server.onPublisher(ws);
        else server.onViewer(ws);
      });
    });
    return new Promise((done, fail) => {
      http.once('error', fail);
      http.listen(o.port, o.host, () => {
        http.off('error', fail);
        if (!LOOPBACK.has(o.host)) {
          o.log(
            `WARNING: listening on ${o.host}: anyone who can reach this port sees the games streamed to it${o.token === null ? ' (no --token set)' : ''}`,
          );
        }
        const served = o.viewerDir !== null && existsSync(join(o.viewerDir, 'viewer.html'));
        if (o.viewerDir !== null && !served)
          o.log(`WARNING: no viewer.html in ${o.viewerDir} (run npm run build:demo); serving the minimal page`);
        o.log(
          `rewindable serve: open http://${server.hostForUrl()}:${server.port}/ (${served ? 'the viewer, attached to this server' : 'the session list'}) · games publish to ${server.url}`,
        );
        done(server);
      });
    });
  }

  /** The port listened on. */
  public get port(): number {
    const a = this.http.address();
    return typeof a === 'object' && a !== null ? a.port : this.options.port;
  }

  /** The URL games and viewers connect to (`ws://host:port`). */
  public get url(): string {
    return `ws://${this.hostForUrl()}:${this.port}`;
  }

  /** The sessions, as viewers see them. */
  public list(): LiveSessionInfo[] {
    return [...this.sessions.values()].map((s) => ({
      session: s.id,
      ...s.info,
      connected: s.publisher !== null,
      frames: s.frames,
      viewers: s.viewers.size,
    }));
  }

  /** Closes every connection, saves what persistence holds, stops listening. */
  public close(): Promise<void> {
    for (const s of this.sessions.values()) s.persister?.flush();
    for (const client of this.wss.clients) client.terminate();
    this.wss.close();
    return new Promise((done) => {
      this.http.closeAllConnections?.();
      this.http.close(() => done());
    });
  }

  /**
   * `/viewer.html?live=ws://HOST:PORT` (with the token given), HOST:PORT as the browser reached the
   * server (its Host header, when it is a plain host and port) or the address listened on.
   */
  public viewerPath(hostHeader: string | undefined, token: string | null): string {
    const host =
      hostHeader !== undefined && /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(hostHeader)
        ? hostHeader
        : `${this.hostForUrl()}:${this.port}`;
    const q = new URLSearchParams({ live: `ws://${host}` });
    if (token !== null) q.set('token', token);
    return `/viewer.html?${q.toString()}`;
  }

  private hostForUrl(): string {
    return this.options.host.includes(':') ? `[${this.options.host}]` : this.options.host;
  }

  private authorized(url: URL): boolean {
    const want = this.options.token;
    if (want === null) return true;
    const given = Buffer.from(url.searchParams.get('token') ?? '');
    const expected = Buffer.from(want);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private onRequest(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405).end();
      return;
    }
    if (url.pathname === '/sessions') {
      if (!this.authorized(url)) {
        res.writeHead(401).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(this.list()));
      return;
    }
    const dir = this.options.viewerDir;
    if (dir !== null && existsSync(join(dir, 'viewer.html'))) {
      if (url.pathname === '/') {
        // The built viewer, attached to this server: it connects back to the address it was opened at.
        res.writeHead(302, { location: this.viewerPath(req.headers.host, url.searchParams.get('token')) }).end();
        return;
      }
      if (!serveFile(dir, url.pathname, res)) res.writeHead(404).end();
      return;
    }
    if (url.pathname === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(minimalViewerPage());
      return;
    }
    res.writeHead(404).end();
  }

  private onPublisher(ws: WebSocket): void {
    let session: Session | null = null;
    ws.on('message', (data: RawData, isBinary: boolean) => {
      try {
        if (!isBinary) throw new LiveError('BAD_MESSAGE', 'text message; the protocol is binary');
        const bytes = rawBytes(data);
        if (session === null) {
          session = this.openSession(ws, bytes);
          return;
        }
        this.fromPublisher(session, bytes);
      } catch (e) {
        this.refuse(ws, LiveError.from(e), session?.id ?? 'new session');
      }
    });
    ws.on('close', () => {
      if (session !== null && session.publisher === ws) {
        session.publisher = null;
        session.persister?.flush();
        this.broadcastSessions();
      }
    });
    ws.on('error', () => {});
  }

  /** The first message of a game: its hello. */
  private openSession(ws: WebSocket, bytes: Uint8Array): Session {
    if (messageType(bytes, this.limits.maxMessageBytes) !== LiveMessageType.HELLO)
      throw new LiveError('PROTOCOL', 'a game must start with its hello');
    const probe = new LiveValidator(this.limits);
    probe.accept(bytes);
    const hello = probe.hello;
    if (hello === null) throw new LiveError('PROTOCOL', 'no hello');
    let s = this.sessions.get(hello.session);
    if (s !== undefined && s.publisher !== null)
      throw new LiveError('PROTOCOL', `session ${hello.session} already has a game connected`);
    if (s === undefined) {
      if (this.sessions.size >= this.options.maxSessions) this.dropOldestIdleSession();
      if (this.sessions.size >= this.options.maxSessions)
        throw new LiveError('TOO_LARGE', `the server relays at most ${this.options.maxSessions} sessions`);
      const p = this.options.persist;
      const persister =
        p === null ? null : new SessionPersister({ ...DEFAULT_PERSIST_OPTIONS, ...p }, this.limits, this.options.log);
      s = {
        id: hello.session,
        info: { game: hello.game, buildId: hello.buildId, startedAt: hello.startedAt },
        publisher: ws,
        validator: persister === null ? new LiveValidator(this.limits) : persister.store.validator,
        persister,
        viewers: new Set(),
        frames: 0,
        lastResync: 0,
        resyncPending: false,
      };
      this.sessions.set(s.id, s);
      this.options.log(`session ${s.id}: ${hello.game} (build ${JSON.stringify(hello.buildId)}) connected`);
    } else {
      s.publisher = ws;
      this.options.log(`session ${s.id}: ${hello.game} reconnected`);
    }
    this.fromPublisher(s, bytes);
    for (const v of this.viewers) if (v.session === null && v.wanted === s.id) this.attach(v, s);
    this.broadcastSessions();
    return s;
  }

  private fromPublisher(s: Session, bytes: Uint8Array): void {
    const type = s.persister !== null ? s.persister.store.accept(bytes) : s.validator.accept(bytes);
    switch (type) {
      case LiveMessageType.HELLO:
      case LiveMessageType.META:
      case LiveMessageType.FRAME:
      case LiveMessageType.BYE:
      case LiveMessageType.COMMAND_RESULT:
        break;
      default:
        throw new LiveError('PROTOCOL', `a game does not send message type ${type}`);
    }
    if (type === LiveMessageType.HELLO) s.resyncPending = false;
    if (type === LiveMessageType.FRAME) {
      s.frames++;
      s.persister?.afterFrame();
    }
    let missed = false;
    for (const v of s.viewers) {
      if (v.waiting) {
        if (type !== LiveMessageType.HELLO) {
          missed = true;
          continue;
        }
        v.waiting = false;
      }
      if (type === LiveMessageType.FRAME && v.socket.bufferedAmount > this.options.viewerMaxBufferedBytes) {
        v.waiting = true; // it misses this frame, so it needs the lives again: wait for a resync
        missed = true;
        continue;
      }
      v.socket.send(bytes);
    }
    if (missed) this.requestResync(s);
    if (type === LiveMessageType.BYE) s.persister?.flush();
  }

  private onViewer(ws: WebSocket): void {
    if (this.viewers.size >= this.options.maxViewers) {
      this.refuse(
        ws,
        new LiveError('TOO_LARGE', `the server takes at most ${this.options.maxViewers} viewers`),
        'viewer',
      );
      return;
    }
    const v: Viewer = { socket: ws, session: null, wanted: null, waiting: true };
    this.viewers.add(v);
    ws.send(encodeMessage(LiveMessageType.SESSIONS, { sessions: this.list() }));
    ws.on('message', (data: RawData, isBinary: boolean) => {
      try {
        if (!isBinary) throw new LiveError('BAD_MESSAGE', 'text message; the protocol is binary');
        const bytes = rawBytes(data);
        const type = messageType(bytes, 1 << 16);
        if (type === LiveMessageType.SUBSCRIBE) {
          const id = parseSubscribe(decodeBody(bytes, 'subscribe'));
          v.session?.viewers.delete(v);
          v.session = null;
          v.wanted = id;
          const s = this.sessions.get(id);
          if (s !== undefined) this.attach(v, s);
          this.broadcastSessions();
        } else if (type === LiveMessageType.COMMAND) {
          const pub = v.session?.publisher ?? null;
          if (pub === null) throw new LiveError('PROTOCOL', 'command without a connected game');
          pub.send(bytes);
        } else if (type === LiveMessageType.RESYNC) {
          if (v.session !== null) {
            v.waiting = true;
            this.requestResync(v.session);
          }
        } else {
          throw new LiveError('PROTOCOL', `a viewer does not send message type ${type}`);
        }
      } catch (e) {
        this.refuse(ws, LiveError.from(e), 'viewer');
      }
    });
    ws.on('close', () => {
      this.viewers.delete(v);
      if (v.session !== null) {
        v.session.viewers.delete(v);
        this.broadcastSessions();
      }
    });
    ws.on('error', () => {});
  }

  private attach(v: Viewer, s: Session): void {
    v.session = s;
    v.waiting = true;
    s.viewers.add(v);
    this.requestResync(s);
  }

  /** Asks the game for its hello and full state with the next frame (at most every 500 ms, unless none is pending). */
  private requestResync(s: Session): void {
    const now = Date.now();
    if (s.publisher === null || (s.resyncPending && now - s.lastResync < RESYNC_INTERVAL_MS)) return;
    s.resyncPending = true;
    s.lastResync = now;
    s.publisher.send(encodeMessage(LiveMessageType.RESYNC));
  }

  private broadcastSessions(): void {
    const msg = encodeMessage(LiveMessageType.SESSIONS, { sessions: this.list() });
    for (const v of this.viewers) if (v.socket.readyState === 1) v.socket.send(msg);
  }

  private dropOldestIdleSession(): void {
    for (const [id, s] of this.sessions) {
      if (s.publisher === null && s.viewers.size === 0) {
        s.persister?.flush();
        this.sessions.delete(id);
        return;
      }
    }
  }

  private refuse(ws: WebSocket, e: LiveError, who: string): void {
    this.options.log(`refused ${who}: ${e.message}`);
    try {
      if (ws.readyState === 1)
        ws.send(encodeMessage(LiveMessageType.ERROR, { code: e.code, detail: e.message.slice(0, 1000) }));
      ws.close(1008, e.code);
    } catch {
      ws.terminate();
    }
  }
}

function rawBytes(data: RawData): Uint8Array {
  if (Array.isArray(data)) return new Uint8Array(Buffer.concat(data));
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}
