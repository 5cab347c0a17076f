import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { loadReplay } from '../../replay/loadReplay';
import { connectLive } from '../connectLive';
import type { LiveSender } from '../LiveSender';
import { LiveViewer } from '../LiveViewer';
import type { WebSocketConstructor } from '../LiveTransport';
import { LiveServer } from '../server/LiveServer';
import { TestGame, frameFingerprint } from './helpers';

const WS = WebSocket as unknown as WebSocketConstructor;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Waits (bounded) until `ok()`; fails with `what` after `ms`. */
async function until(ok: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

/** A game recording a frame every few ms, keeping each frame's fingerprint as it ended. */
class RunningGame {
  public readonly game: TestGame;
  public readonly sender: LiveSender;
  public readonly expected = new Map<number, string>();
  private timer: ReturnType<typeof setInterval> | null = null;

  public constructor(url: string, seed: number, name: string) {
    this.game = new TestGame(30, seed);
    this.sender = connectLive(this.game.recorder, url, {
      WebSocket: WS,
      game: name,
      buildId: 'test-build',
      commands: { pause: () => true },
    });
    this.game.recorder.onFrameEnd((f) => this.expected.set(f, frameFingerprint(this.game.recorder.reader, f)));
  }

  public start(everyMs = 4): void {
    this.timer = setInterval(() => this.game.step(), everyMs);
  }

  public stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  public close(): void {
    this.stop();
    this.sender.close();
  }
}

const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()?.();
});

function follow(url: string, session: string): LiveViewer {
  const v = LiveViewer.connect(url, { WebSocket: WS });
  v.follow(session);
  closers.push(() => v.close());
  return v;
}

function expectSameAsGame(v: LiveViewer, g: RunningGame): number {
  const r = v.store.reader;
  let checked = 0;
  for (let f = r.oldestFrame; r.frameCount > 0 && f <= r.newestFrame; f++) {
    if (r.entityCountOf(f) === 0 && v.store.gapFrames > 0) continue; // a gap frame
    expect(frameFingerprint(r, f)).toBe(g.expected.get(f));
    checked++;
  }
  return checked;
}

describe('rewindable serve: relaying live sessions', () => {
  it('relays a game to two viewers, frame for frame, and lists the session', async () => {
    const server = await LiveServer.start({ port: 0 });
    closers.push(() => server.close());
    const g = new RunningGame(server.url, 1, 'two viewers');
    closers.push(() => g.close());
    await until(() => g.sender.transport.isOpen, 'the game to connect');
    g.start();
    const a = follow(server.url, g.sender.hello.session);
    const b = follow(server.url, g.sender.hello.session);
    await until(() => a.store.reader.frameCount > 100 && b.store.reader.frameCount > 100, 'frames at both viewers');
    g.stop();
    await until(
      () => a.store.reader.newestFrame === g.game.frames - 1 && b.store.reader.newestFrame === g.game.frames - 1,
      'the last frame',
    );
    expect(expectSameAsGame(a, g)).toBeGreaterThan(100);
    expect(expectSameAsGame(b, g)).toBeGreaterThan(100);
    expect(a.store.gapFrames).toBe(0);
    expect(a.sessions.map((s) => s.game)).toContain('two viewers');
    expect(server.list()[0].viewers).toBe(2);
    expect(a.errors).toEqual([]);
    // A two-way command the game allows runs; one it does not is refused.
    expect((await a.command('pause', 10)).ok).toBe(true);
    expect((await a.command('seek', 10)).ok).toBe(false);
  });

  it('game and viewer reconnect after the server restarts; the viewer keeps its history', async () => {
    let server = await LiveServer.start({ port: 0 });
    const port = server.port;
    const g = new RunningGame(server.url, 2, 'restart');
    closers.push(() => g.close());
    await until(() => g.sender.transport.isOpen, 'the game to connect');
    g.start();
    const v = follow(server.url, g.sender.hello.session);
    await until(() => v.store.reader.frameCount > 50, 'frames before the restart');
    const before = v.store.reader.newestFrame;
    await server.close();
    await sleep(100);
    server = await LiveServer.start({ port });
    const restarted = server;
    closers.push(() => restarted.close());
    await until(() => v.store.reader.newestFrame > before + 50, 'frames after the restart', 15_000);
    expect(v.store.reader.oldestFrame).toBeLessThan(before - 40); // what it held before the restart is kept
    expect(v.store.gapFrames).toBeGreaterThan(0); // frames recorded while nothing listened
    expect(g.sender.stats.gaps).toBeGreaterThan(0);
    g.stop();
    await sleep(50);
    expectSameAsGame(v, g);
    expect(v.errors).toEqual([]);
  });

  it('a slow viewer slows neither the game nor the other viewer', async () => {
    const server = await LiveServer.start({ port: 0, viewerMaxBufferedBytes: 32 * 1024 });
    closers.push(() => server.close());
    const g = new RunningGame(server.url, 3, 'slow');
    closers.push(() => g.close());
    await until(() => g.sender.transport.isOpen, 'the game to connect');
    const fast = follow(server.url, g.sender.hello.session);
    // The slow viewer: a raw socket that subscribes, then stops reading.
    const slow = new WebSocket(`${server.url}/view`);
    closers.push(() => slow.terminate());
    await new Promise((r) => slow.once('open', r));
    slow.send(
      Buffer.from(
        Uint8Array.of(8, 0, 0, 0, 0x81, 0xa7, ...Buffer.from('session'), 0xb2, ...Buffer.from(g.sender.hello.session)),
      ),
    );
    await until(() => server.list()[0]?.viewers === 2, 'both viewers subscribed');
    (slow as unknown as { _socket: { pause(): void } })._socket.pause();
    g.start(2);
    await until(() => fast.store.reader.frameCount > 600, 'frames at the fast viewer', 20_000);
    g.stop();
    await until(() => fast.store.reader.newestFrame === g.game.frames - 1, 'the last frame');
    expect(g.sender.stats.framesSkipped).toBe(0);
    expect(fast.store.gapFrames).toBe(0);
    expectSameAsGame(fast, g);
  });

  it('persists each session to rolling .rwd files that load back frame for frame', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rwd-live-'));
    closers.push(() => rmSync(dir, { recursive: true, force: true }));
    const server = await LiveServer.start({ port: 0, persist: { dir, rollSeconds: 1 } });
    const g = new RunningGame(server.url, 4, 'persisted game');
    await until(() => g.sender.transport.isOpen, 'the game to connect');
    g.start();
    await until(() => g.game.frames >= 250, 'frames');
    g.close();
    await sleep(100);
    await server.close();
    const files = readdirSync(dir)
      .filter((n) => n.endsWith('.rwd'))
      .sort();
    expect(files.length).toBeGreaterThanOrEqual(3); // 60 frames a second of game time, a file a second
    let next = 0;
    for (const name of files) {
      const replay = loadReplay(readFileSync(join(dir, name)));
      expect(replay.compression).toBe('xor-delta');
      expect(replay.buildId).toBe('test-build');
      expect(replay.reader.oldestFrame).toBe(next);
      for (let f = replay.reader.oldestFrame; f <= replay.reader.newestFrame; f++) {
        expect(frameFingerprint(replay.reader, f)).toBe(g.expected.get(f));
      }
      next = replay.reader.newestFrame + 1;
    }
    expect(next).toBe(g.game.frames);
  });

  it('refuses to bind another interface without allowRemote, and refuses a wrong token', async () => {
    await expect(LiveServer.start({ host: '0.0.0.0', port: 0 })).rejects.toThrow(/allow-remote/);
    const server = await LiveServer.start({ port: 0, token: 'secret' });
    closers.push(() => server.close());
    const bad = new WebSocket(`${server.url}/view?token=nope`);
    const status = await new Promise<number>((r) =>
      bad.once('unexpected-response', (_req, res) => r(res.statusCode ?? 0)).once('error', () => r(-1)),
    );
    expect(status).toBe(401);
    bad.terminate();
    const g = new RunningGame(server.url, 5, 'with token');
    closers.push(() => g.close());
    await sleep(300);
    expect(g.sender.transport.isOpen).toBe(false);
    const ok = LiveViewer.connect(server.url, { WebSocket: WS, token: 'secret' });
    closers.push(() => ok.close());
    await until(() => ok.transport.isOpen, 'the viewer with the token');
  });
  it('with a built viewer: / opens viewer.html attached to this server, its files are served, nothing outside', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rwd-viewer-'));
    closers.push(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'viewer.html'), '<!doctype html><title>v</title>');
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'assets', 'viewer.js'), 'export {};');
    const lines: string[] = [];
    const server = await LiveServer.start({ port: 0, viewerDir: dir, token: 'tk', log: (l) => lines.push(l) });
    closers.push(() => server.close());
    const base = `http://127.0.0.1:${server.port}`;
    expect(lines.join('\n')).toContain(`open ${base}/ (the viewer, attached to this server)`);
    const root = await fetch(`${base}/?token=tk`, { redirect: 'manual' });
    expect(root.status).toBe(302);
    const to = new URL(root.headers.get('location') ?? '', base);
    expect(to.pathname).toBe('/viewer.html');
    expect(to.searchParams.get('live')).toBe(`ws://127.0.0.1:${server.port}`);
    expect(to.searchParams.get('token')).toBe('tk');
    const page = await fetch(`${base}/viewer.html`);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(await page.text()).toContain('<title>v</title>');
    expect((await fetch(`${base}/assets/viewer.js`)).headers.get('content-type')).toMatch(/javascript/);
    expect((await fetch(`${base}/%2e%2e/%2e%2e/package.json`)).status).toBe(404);
    expect((await fetch(`${base}/%E0%A4%A`)).status).toBe(400);
  });

  it('without a viewer.html in --viewer DIR: warns and serves the minimal page', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rwd-noviewer-'));
    closers.push(() => rmSync(dir, { recursive: true, force: true }));
    const lines: string[] = [];
    const server = await LiveServer.start({ port: 0, viewerDir: dir, log: (l) => lines.push(l) });
    closers.push(() => server.close());
    expect(lines.join('\n')).toMatch(/no viewer\.html in .*build:demo/);
    expect(await (await fetch(`http://127.0.0.1:${server.port}/`)).text()).toContain('rewindable live');
  });
});
