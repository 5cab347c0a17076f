import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { EntityBuffer, EventBuffer, FrameHeader, PrimitiveBuffer } from '../../core/read/buffers';
import { rng } from '../../../tests/helpers/random';
import { LiveError } from '../LiveError';
import { LiveSender } from '../LiveSender';
import { LiveStore } from '../LiveStore';
import { LiveViewer } from '../LiveViewer';
import type { WebSocketConstructor } from '../LiveTransport';
import { LiveServer } from '../server/LiveServer';
import { LoopbackTransport, TestGame } from './helpers';

const WS = WebSocket as unknown as WebSocketConstructor;

/** A valid stream: hello, meta, 60 frames (with lives, labels, bones, primitives, events). */
function validStream(): Uint8Array[] {
  const game = new TestGame(12, 9);
  const t = new LoopbackTransport(null, true);
  new LiveSender(game.recorder, t, { game: 'fuzz' });
  for (let f = 0; f < 60; f++) game.step();
  return t.sent;
}

/** One mutation of a message: flipped bytes, overwritten words, truncation, extension, a new type byte. */
function mutate(msg: Uint8Array, r: () => number): Uint8Array {
  const m = msg.slice();
  const kind = Math.floor(r() * 6);
  if (kind === 0) {
    for (let i = 0, n = 1 + Math.floor(r() * 4); i < n; i++) m[Math.floor(r() * m.length)] ^= 1 << Math.floor(r() * 8);
    return m;
  }
  if (kind === 1 && m.length >= 8) {
    const at = 4 * Math.floor(r() * (m.length / 4));
    const v = [0, 1, 0xffffffff, 0x7fffffff, 0x80000000, Math.floor(r() * 2 ** 32)][Math.floor(r() * 6)];
    new DataView(m.buffer).setUint32(Math.min(at, m.length - 4), v >>> 0, true);
    return m;
  }
  if (kind === 2) return m.subarray(0, Math.floor(r() * m.length));
  if (kind === 3) {
    const out = new Uint8Array(m.length + 1 + Math.floor(r() * 64));
    out.set(m);
    for (let i = m.length; i < out.length; i++) out[i] = Math.floor(r() * 256);
    return out;
  }
  if (kind === 4) {
    m[0] = Math.floor(r() * 12);
    return m;
  }
  // A float word made NaN or infinite.
  const at = 4 * Math.floor(r() * (m.length / 4));
  new DataView(m.buffer).setUint32(Math.min(at, Math.max(0, m.length - 4)), r() < 0.5 ? 0x7fc00000 : 0x7f800000, true);
  return m;
}

const header = new FrameHeader();
const ents = new EntityBuffer();
const prims = new PrimitiveBuffer();
const events = new EventBuffer();

/** What a viewer decodes from an accepted store must be in bounds and finite. */
function decodeAll(store: LiveStore): void {
  const r = store.reader;
  for (let f = r.oldestFrame; r.frameCount > 0 && f <= r.newestFrame; f++) {
    if (
      !r.readHeader(f, header) ||
      !r.readEntities(f, ents) ||
      !r.readPrimitives(f, 0xffffffff, prims) ||
      !r.readEvents(f, events)
    ) {
      throw new Error(`frame ${f} not readable`);
    }
    for (let i = 0; i < ents.count * 3; i++)
      if (!Number.isFinite(ents.positions[i])) throw new Error('non-finite position');
    for (let i = 0; i < ents.count; i++)
      if (store.entities.used[ents.handles[i]] !== 1) throw new Error('dangling handle');
  }
}

const closers: Array<() => unknown> = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()?.();
});

describe('hostile live streams', () => {
  it('every mutated message is refused with a LiveError or accepted into a store that decodes safely (1,500 cases)', () => {
    const stream = validStream();
    const r = rng(0x51ee7);
    let refused = 0;
    for (let c = 0; c < 1500; c++) {
      const store = new LiveStore({ maxBytes: 1 << 20, maxFrames: 256 });
      const target = 1 + Math.floor(r() * (stream.length - 1)); // never the first hello: that is another test
      try {
        for (let i = 0; i < stream.length; i++) store.accept(i === target ? mutate(stream[i], r) : stream[i]);
      } catch (e) {
        if (!(e instanceof LiveError)) throw new Error(`case ${c}: ${String(e)}`);
        refused++;
      }
      decodeAll(store);
    }
    expect(refused).toBeGreaterThan(750);
  });

  it('garbage instead of a hello is refused', () => {
    const r = rng(3);
    const hello = validStream()[0];
    for (let c = 0; c < 500; c++) {
      const store = new LiveStore({ maxBytes: 1 << 20, maxFrames: 16 });
      try {
        store.accept(mutate(hello, r));
      } catch (e) {
        expect(e).toBeInstanceOf(LiveError);
      }
    }
  });

  it('the server refuses hostile games with an ERROR and a close; another session keeps streaming', async () => {
    const server = await LiveServer.start({ port: 0 });
    closers.push(() => server.close());
    const game = new TestGame(10, 4);
    const { connectLive } = await import('../connectLive');
    const sender = connectLive(game.recorder, server.url, { WebSocket: WS, game: 'honest' });
    closers.push(() => sender.close());
    const viewer = LiveViewer.connect(server.url, { WebSocket: WS });
    closers.push(() => viewer.close());
    const deadline = Date.now() + 10_000;
    while (!sender.transport.isOpen && Date.now() < deadline) await new Promise((res) => setTimeout(res, 10));
    viewer.follow(sender.hello.session);
    const timer = setInterval(() => game.step(), 5);
    closers.push(() => clearInterval(timer));

    const stream = validStream();
    const r = rng(77);
    for (let c = 0; c < 40; c++) {
      const ws = new WebSocket(`${server.url}/publish`);
      await new Promise((res) => ws.once('open', res));
      const replies: Buffer[] = [];
      ws.on('message', (d: Buffer) => replies.push(d));
      const closed = new Promise<number>((res) => ws.once('close', (code) => res(code)));
      const target = c % 2 === 0 ? 0 : 1 + Math.floor(r() * (stream.length - 1));
      for (let i = 0; i <= target; i++) ws.send(i === target ? mutate(stream[i], r) : stream[i]);
      // A mutation can leave the message valid: then the connection stays open; close it ourselves.
      const code = await Promise.race([closed, new Promise<number>((res) => setTimeout(() => res(0), 300))]);
      if (code !== 0) {
        expect(code).toBe(1008);
        expect(replies.some((b) => b[0] === 9)).toBe(true); // an ERROR message came first
      }
      ws.terminate();
    }
    const before = viewer.store.reader.newestFrame;
    const end = Date.now() + 5000;
    while (viewer.store.reader.newestFrame < before + 20 && Date.now() < end)
      await new Promise((res) => setTimeout(res, 10));
    expect(viewer.store.reader.newestFrame).toBeGreaterThanOrEqual(before + 20);
    expect(viewer.errors).toEqual([]);
  });
});
