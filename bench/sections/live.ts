import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { WebSocket } from 'ws';
import { connectLive } from '../../src/live/connectLive';
import { LiveSender } from '../../src/live/LiveSender';
import { LiveStore } from '../../src/live/LiveStore';
import type { LiveTransport, WebSocketConstructor } from '../../src/live/LiveTransport';
import { LiveViewer } from '../../src/live/LiveViewer';
import type { BenchContext, BenchSection, SectionResult } from '../lib/BenchSection';
import { repoRoot } from '../lib/repoRoot';
import { median } from '../lib/stats';
import { RewindablePeer } from '../peers/RewindablePeer';
import { Workload } from '../Workload';

/**
 * The live section (issue 18): what streaming costs the game, how late frames reach a viewer, how
 * many streams one server relays, and how small the server's persisted files are.
 *
 * - `liveSendMsPerFrame1k`: 1,000 workload entities recorded at 60 fps; a frame recorded and sent
 *   (to a transport that copies the message, as a socket does) minus a frame only recorded, median
 *   of 7 runs of 600 frames.
 * - `liveLatencyMs`: one game at 60 fps → `rewindable serve` on 127.0.0.1 (its own process) → one
 *   viewer; from the frame's end to its acceptance into the viewer's `LiveStore`, median over 3 s.
 * - `liveServerStreams`: the most 1,000-entity streams at 60 fps (a game and a viewer each) the
 *   server relays for 3 s with every viewer receiving ≥ 95% of its game's frames and no game
 *   skipping more than 5% (tried at 5, 10, 15, 20, 30 streams; games and viewers share this process).
 * - `livePersistRatio`: bytes of the `.rwd` the server writes (xor-delta, `LiveStore.saveRange`)
 *   over the game ring's bytes, for the same 900 frames.
 */
const ENTITIES = 1000;
const WS = WebSocket as unknown as WebSocketConstructor;
const ROOT = repoRoot();
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

class CopyTransport implements LiveTransport {
  public onMessage = null;
  public onOpen = null;
  public onClose = null;
  public isOpen = true;
  public bufferedAmount = 0;
  private readonly sink = new Uint8Array(1 << 21);
  public send(bytes: Uint8Array): void {
    this.sink.set(bytes, 0);
  }
  public close(): void {
    this.isOpen = false;
  }
}

function sendCost(context: BenchContext, frames: number): { sendMs: number; recordMs: number; runs: number[] } {
  const time = (withSender: boolean): number => {
    const world = new Workload({ entities: ENTITIES, seed: 0x11ce });
    const peer = new RewindablePeer(900, ENTITIES);
    const sender = withSender ? new LiveSender(peer.recorder, new CopyTransport(), {}) : null;
    for (let f = 0; f < 300; f++) {
      world.step();
      peer.record(world);
    }
    let ms = 0;
    for (let f = 0; f < frames; f++) {
      world.step();
      const t0 = performance.now();
      peer.record(world);
      ms += performance.now() - t0;
    }
    sender?.close();
    return ms / frames;
  };
  const withRuns: number[] = [];
  const withoutRuns: number[] = [];
  context.probe('live send');
  for (let i = 0; i < 7; i++) {
    withoutRuns.push(time(false));
    withRuns.push(time(true));
  }
  const recordMs = median(Float64Array.from(withoutRuns), withoutRuns.length);
  const bothMs = median(Float64Array.from(withRuns), withRuns.length);
  return { sendMs: Math.max(0, bothMs - recordMs), recordMs, runs: withRuns.map((w, i) => w - withoutRuns[i]) };
}

async function startServer(): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'bench/lib/liveServerProcess.ts')], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /PORT (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', () => reject(new Error('live server process exited')));
  });
  return {
    url: `ws://127.0.0.1:${port}`,
    stop: () =>
      new Promise((r) => {
        child.once('exit', () => r());
        child.stdin.end();
      }),
  };
}

interface Stream {
  world: Workload;
  peer: RewindablePeer;
  sender: LiveSender;
  viewer: LiveViewer;
  endedAt: Map<number, number>;
  latencies: number[];
  received: number;
}

async function runStreams(url: string, count: number, seconds: number): Promise<Stream[]> {
  const streams: Stream[] = [];
  for (let i = 0; i < count; i++) {
    const world = new Workload({ entities: ENTITIES, seed: 0x5000 + i });
    const peer = new RewindablePeer(900, ENTITIES);
    const sender = connectLive(peer.recorder, url, { WebSocket: WS, game: `bench ${i}` });
    const viewer = LiveViewer.connect(url, { WebSocket: WS, store: { maxBytes: 16 << 20, maxFrames: 4096 } });
    const s: Stream = { world, peer, sender, viewer, endedAt: new Map(), latencies: [], received: 0 };
    peer.recorder.onFrameEnd((f) => s.endedAt.set(f, performance.now()));
    streams.push(s);
  }
  const deadline = performance.now() + 10_000;
  while (streams.some((s) => !s.sender.transport.isOpen || !s.viewer.transport.isOpen) && performance.now() < deadline)
    await sleep(10);
  for (const s of streams) {
    s.viewer.follow(s.sender.hello.session);
    const inner = s.viewer.transport.onMessage;
    s.viewer.transport.onMessage = (bytes) => {
      inner?.(bytes);
      if (bytes[0] === 3 && s.viewer.store.hello !== null) {
        const f = s.viewer.store.reader.newestFrame;
        const at = s.endedAt.get(f);
        if (at !== undefined) {
          s.latencies.push(performance.now() - at);
          s.endedAt.delete(f);
        }
        s.received++;
      }
    };
  }
  // Let the resyncs settle, then run at 60 fps.
  const tick = (): void => {
    for (const s of streams) {
      s.world.step();
      s.peer.record(s.world);
    }
  };
  for (let i = 0; i < 10; i++) {
    tick();
    await sleep(16);
  }
  for (const s of streams) {
    s.received = 0;
    s.latencies.length = 0;
    s.sender.stats.framesSent = 0;
    s.sender.stats.framesSkipped = 0;
  }
  const start = performance.now();
  let frames = 0;
  while (performance.now() - start < seconds * 1000) {
    const due = Math.floor((performance.now() - start) / (1000 / 60));
    while (frames <= due) {
      tick();
      frames++;
    }
    await sleep(2);
  }
  await sleep(300);
  return streams;
}

function closeStreams(streams: Stream[]): void {
  for (const s of streams) {
    s.sender.close();
    s.viewer.close();
  }
}

function persistRatio(): { ratio: number; fileBytes: number; ringBytes: number } {
  const world = new Workload({ entities: ENTITIES, seed: 0x2e3a1d });
  const peer = new RewindablePeer(900, ENTITIES, 32 << 20);
  const store = new LiveStore({ maxBytes: 64 << 20, maxFrames: 4096 });
  const transport: LiveTransport = {
    ...new CopyTransport(),
    isOpen: true,
    bufferedAmount: 0,
    send: (b) => store.accept(b.slice()),
    close: () => {},
  };
  new LiveSender(peer.recorder, transport, {});
  for (let f = 0; f < 900; f++) {
    world.step();
    peer.record(world);
  }
  const file = store.saveRange(0, 899, { compression: 'xor-delta' });
  const ringBytes = peer.recorder.ring.bytesUsed;
  return { ratio: file.length / ringBytes, fileBytes: file.length, ringBytes };
}

export const liveSection: BenchSection = {
  name: 'live',
  async run(context): Promise<SectionResult> {
    context.log('## live streaming (issue 18)');
    const send = sendCost(context, context.quick ? 200 : 600);
    context.log(
      `game-side cost of streaming, 1,000 entities: ${send.sendMs.toFixed(4)} ms a frame (record alone ${send.recordMs.toFixed(4)} ms; target ≤ 0.2)`,
    );

    const server = await startServer();
    let latency = Number.NaN;
    const tried: Array<{ streams: number; ok: boolean; minReceived: number; maxSkipped: number }> = [];
    try {
      await context.settle('live latency');
      const one = await runStreams(server.url, 1, context.quick ? 1 : 3);
      latency = median(Float64Array.from(one[0].latencies), one[0].latencies.length);
      closeStreams(one);
      context.log(
        `latency, frame end to the viewer's store, 60 fps via rewindable serve on 127.0.0.1: median ${latency.toFixed(2)} ms over ${one[0].latencies.length} frames (target ≤ 50)`,
      );
      for (const n of context.quick ? [5, 10] : [5, 10, 15, 20, 30]) {
        await context.settle(`live ${n} streams`);
        const streams = await runStreams(server.url, n, context.quick ? 1 : 3);
        const minReceived = Math.min(
          ...streams.map((s) => s.received / Math.max(1, s.sender.stats.framesSent + s.sender.stats.framesSkipped)),
        );
        const maxSkipped = Math.max(
          ...streams.map(
            (s) => s.sender.stats.framesSkipped / Math.max(1, s.sender.stats.framesSent + s.sender.stats.framesSkipped),
          ),
        );
        closeStreams(streams);
        const ok = minReceived >= 0.95 && maxSkipped <= 0.05;
        tried.push({ streams: n, ok, minReceived, maxSkipped });
        context.log(
          `${n} streams of 1,000 entities at 60 fps: least received ${(minReceived * 100).toFixed(1)}%, most skipped ${(maxSkipped * 100).toFixed(1)}% → ${ok ? 'kept up' : 'fell behind'}`,
        );
        await sleep(300);
        if (!ok) break;
      }
    } finally {
      await server.stop();
    }
    const streamsOk = tried.filter((t) => t.ok).reduce((m, t) => Math.max(m, t.streams), 0);
    const persist = persistRatio();
    context.log(
      `persisted .rwd (xor-delta) ÷ ring bytes, 900 frames × 1,000 entities: ${persist.ratio.toFixed(3)} (target ≤ 0.6)`,
    );
    return {
      figures: {
        liveSendMsPerFrame1k: Math.round(send.sendMs * 10000) / 10000,
        liveLatencyMs: Math.round(latency * 100) / 100,
        liveServerStreams: streamsOk,
        livePersistRatio: Math.round(persist.ratio * 1000) / 1000,
      },
      details: { send, latency, tried, persist },
    };
  },
};
