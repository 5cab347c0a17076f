import { LiveSender } from './LiveSender';
import type { LiveSenderOptions, LiveSource } from './LiveSenderOptions';
import {
  BroadcastChannelTransport,
  type LiveTransport,
  type WebSocketConstructor,
  WebSocketTransport,
} from './LiveTransport';

/** Settings of `connectLive`: the sender's, plus the WebSocket class and a token for the server. */
export interface ConnectLiveOptions extends LiveSenderOptions {
  /** The WebSocket class (Node: `WebSocket` from the `ws` package); default `globalThis.WebSocket`. */
  WebSocket: WebSocketConstructor | null;
  /** The server's shared token (`npx rewindable serve --token`), sent as `?token=`. */
  token: string | null;
}

function randomSession(): string {
  const bytes = new Uint8Array(9);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The URL a game publishes to: `ws://host:port` gets the `/publish` path, and `token` as a query.
 *
 * @example
 * publishUrl('ws://127.0.0.1:7070', null); // 'ws://127.0.0.1:7070/publish'
 */
export function liveUrl(base: string, path: '/publish' | '/view', token: string | null): string {
  const u = new URL(base);
  if (u.pathname === '' || u.pathname === '/') u.pathname = path;
  if (token !== null) u.searchParams.set('token', token);
  return u.toString();
}

/**
 * One call: streams every frame `recorder` ends to a live viewer, and returns the sender (`close()`
 * it to stop). `target` is the server's URL (`ws://127.0.0.1:7070`, from `npx rewindable serve`),
 * `'tab'` for viewer tabs of the same origin (BroadcastChannel, no server), or a transport of your
 * own. The game is never blocked: see `LiveSender`.
 *
 * @example
 * import { connectLive } from 'rewindable/live';
 * const live = connectLive(recorder, 'ws://127.0.0.1:7070', { game: 'my game', buildId: BUILD });
 * const tab = connectLive(recorder, 'tab', { game: 'my game', commands: { pause: (frame) => { overlay.pause(); return true; } } });
 */
export function connectLive(
  recorder: LiveSource,
  target: string | LiveTransport,
  options: Partial<ConnectLiveOptions> = {},
): LiveSender {
  const session = options.session ?? randomSession();
  let transport: LiveTransport;
  if (typeof target !== 'string') transport = target;
  else if (target === 'tab') transport = new BroadcastChannelTransport('game', session);
  else
    transport = new WebSocketTransport(liveUrl(target, '/publish', options.token ?? null), {
      WebSocket: options.WebSocket ?? null,
    });
  const { WebSocket: _ws, token: _token, ...senderOptions } = options;
  return new LiveSender(recorder, transport, { ...senderOptions, session });
}
