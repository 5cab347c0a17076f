import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { type WebSocketConstructor, WebSocketTransport } from '../LiveTransport';

const WS = WebSocket as unknown as WebSocketConstructor;

const servers: Server[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});

/** A TCP server that accepts connections and never answers the WebSocket handshake. */
async function silentServer(): Promise<number> {
  const server = createServer((socket) => sockets.push(socket));
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('WebSocketTransport', () => {
  it('closes a socket still connecting (Node, ws) without an unhandled error', async () => {
    // ws reports the close of a socket still in its handshake as an 'error' event on the next tick;
    // with no listener left, Node throws it as an uncaught exception (a game or tool that closes its
    // live link early would crash). The transport keeps a listener for it.
    const port = await silentServer();
    const uncaught: unknown[] = [];
    const onUncaught = (e: unknown): void => {
      uncaught.push(e);
    };
    const previous = process.listeners('uncaughtException');
    process.removeAllListeners('uncaughtException');
    process.on('uncaughtException', onUncaught);
    try {
      const t = new WebSocketTransport(`ws://127.0.0.1:${port}/publish`, { WebSocket: WS });
      await new Promise((r) => setTimeout(r, 50));
      expect(t.isOpen).toBe(false);
      t.close();
      await new Promise((r) => setTimeout(r, 50));
    } finally {
      process.removeListener('uncaughtException', onUncaught);
      for (const l of previous) process.on('uncaughtException', l);
    }
    expect(uncaught.map(String)).toEqual([]);
  });
});
