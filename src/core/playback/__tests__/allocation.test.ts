import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import { EntityFlags } from '../../format/layout';
import type { Recorder } from '../../record/Recorder';
import { Playback } from '../Playback';
import { Sampler } from '../Sampler';
import { SampleBuffer } from '../SampleBuffer';
import { rng } from '../../../../tests/helpers/random';
import { axisAngle } from '../../../../tests/helpers/rotations';
import { quietRecorder } from './helpers';
import { allocatedBytes } from '../../../../tests/helpers/allocation';

/** A full garbage collection: `globalThis.gc` when node runs with --expose-gc, else enabled at runtime. */
function getGc(): () => void {
  const g = (globalThis as { gc?: () => void }).gc;
  if (typeof g === 'function') return g;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

const ITERATIONS = 100_000;
/**
 * Heap growth allowed over a measured run: room for one-off engine allocations (feedback, code),
 * far below one small object per call (100k × 16 bytes = 1.6 MB; 30k × 16 bytes = 480 kB).
 */
const TOLERANCE_BYTES = 128 * 1024;

interface Measure {
  /** heapUsed after the run minus before it, with no collection in between. */
  grown: number;
  /** Garbage collections that started during the run. */
  collections: number;
  /** heapUsed after a full collection at the end minus before the run. */
  retained: number;
}

/** Start times of every GC, from an observer that lives as long as the file's tests. */
const gcStarts: number[] = [];
const gcObserver = new PerformanceObserver((list) => {
  for (const e of list.getEntries()) gcStarts.push(e.startTime);
});

/**
 * Runs `body` `iterations` times after a warm-up of as many (optimised code, grown buffers) and
 * reports heap growth and collections. A per-call allocation shows as growth (nothing collects it
 * during the synchronous run) or, once it fills the young generation, as a collection.
 */
async function measure(gc: () => void, body: (i: number) => void, iterations = ITERATIONS): Promise<Measure> {
  for (let i = 0; i < iterations; i++) body(i);
  gc();
  gc();
  await new Promise((r) => setTimeout(r, 20));
  const start = performance.now();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < iterations; i++) body(i);
  const after = process.memoryUsage().heapUsed;
  const end = performance.now();
  // GC entries are delivered asynchronously.
  await new Promise((r) => setTimeout(r, 50));
  const collections = gcStarts.filter((t) => t >= start && t <= end).length;
  gc();
  const retained = process.memoryUsage().heapUsed - before;
  return { grown: after - before, collections, retained };
}

describe('allocation', () => {
  let gc: () => void;

  beforeAll(() => {
    gc = getGc();
    gcObserver.observe({ entryTypes: ['gc'] });
    return () => gcObserver.disconnect();
  });

  function world(): { rec: Recorder; sampler: Sampler; out: SampleBuffer; frames: number } {
    const rec = quietRecorder({ maxFrames: 64 });
    const rand = rng(3);
    const rots = new Float32Array(8 * 4);
    const offs = new Float32Array(8 * 3);
    for (let f = 0; f < 40; f++) {
      rec.beginFrame(f / 60, 1 / 60);
      rec.camera(f, 0, 0, 0, 0, 0, 1, 1 + f / 40);
      for (let id = 0; id < 250; id++) {
        if ((id + f) % 17 === 0) continue; // churn: lives end and begin
        const q = axisAngle(1, 2, 3, id * 0.1 + f * (id % 5) * 0.2);
        rec.entity(id, id + f, id - f, 0, q[0], q[1], q[2], q[3], rand() < 0.1 ? EntityFlags.DAMAGED : 0);
        if (id % 25 === 0) {
          for (let b = 0; b < 32; b++) rots[b] = b % 4 === 3 ? 1 : rand() * 0.2;
          for (let b = 0; b < 24; b++) offs[b] = rand() * 10;
          rec.bones(id, 8, rots, offs);
        }
      }
      rec.endFrame();
    }
    return { rec, sampler: new Sampler(rec.reader, { teleportThreshold: 500 }), out: new SampleBuffer(), frames: 40 };
  }

  /** Scrubbing in small steps, playing forward and back, and random seeks: every sampling path. */
  function position(i: number, frames: number): number {
    const phase = i % 3000;
    if (phase < 1000) return 5 + phase * 0.003; // scrub within a few frames
    if (phase < 2000) return (phase - 1000) * 0.03; // play across frames (decodes)
    return ((i * 7919) % (frames * 100)) / 100; // random seeks
  }

  /**
   * Young-generation bytes over `n` calls after a warm-up (tests/helpers/allocation.ts; the least
   * of up to five windows of `n` calls), plus the heap retained over a long run. Young-generation bytes
   * are exact where heap totals are not: they ignore code the optimiser installs meanwhile on a
   * loaded machine.
   */
  async function youngAndRetained(
    body: (i: number) => void,
    n: number,
    long: number,
  ): Promise<{ young: number; retained: number }> {
    for (let i = 0; i < long; i++) body(i);
    let k = long;
    // The least of up to five windows, a pause between them: a one-off event of the engine (a
    // deoptimisation whose recompilation waits for a busy machine's compiler thread, ~40 bytes a
    // call meanwhile) shows in some windows only, while an allocation of the code under test shows
    // in every one.
    let young = Number.POSITIVE_INFINITY;
    for (let w = 0; w < 5 && young >= 1024; w++) {
      if (w > 0) await new Promise((r) => setTimeout(r, 10));
      young = Math.min(
        young,
        allocatedBytes(() => {
          for (let i = 0; i < n; i++) body(k++);
        }),
      );
    }
    const m = await measure(gc, (i) => body(k + i), long);
    return { young, retained: m.retained };
  }

  it('sampling allocates nothing: the heap stays flat over 100k samples', async () => {
    const { sampler, out, frames } = world();
    const m = await youngAndRetained(
      (i) => {
        sampler.concrete = i % 5000 < 200;
        sampler.sample(position(i, frames), out);
      },
      6000,
      ITERATIONS,
    );
    expect(out.count).toBeGreaterThan(220);
    expect(m.young).toBeLessThan(4096); // one 16-byte object per call would be 96 kB
    expect(m.retained).toBeLessThan(TOLERANCE_BYTES);
  });

  it('a playing overlay tick (markers, time, sample) allocates nothing either', async () => {
    const { rec, out } = world();
    const pb = new Playback(rec.reader, { time: { loop: true, maxSpeed: 8 } });
    pb.bookmarks.add(10, 'b');
    pb.time.seek(3);
    pb.time.play();
    const m = await youngAndRetained(
      (i) => {
        if (i % 7000 === 0) pb.time.setSpeed(i % 14000 === 0 ? -3 : 2.5);
        pb.update(1 / 60);
        pb.sample(out);
      },
      6000,
      30_000,
    );
    expect(pb.time.state).toBe('playing');
    expect(out.count).toBeGreaterThan(220);
    expect(m.young).toBeLessThan(4096);
    expect(m.retained).toBeLessThan(TOLERANCE_BYTES);
  });

  it('a playing tick (time update, decode, blend) allocates nothing even when the engine inlines no call (--no-turbo-inlining, child process)', () => {
    // Whether V8 inlines a call varies from run to run; a call it does not inline boxes each double
    // argument, each double it returns, and each rotation code above 2^30 (most of them). This run
    // makes every call a real call, at 8× (a new frame pair decoded and blended every tick).
    // Before the decoder read codes by index (decodeQuatAt) it measured ~1,460 bytes a tick, a box
    // per decoded rotation; before frame numbers were kept int32 (`| 0`) in TimeControl and the
    // sampler, ~80 (five boxed doubles a tick). Now 0.
    const probe = join(dirname(fileURLToPath(import.meta.url)), 'samplingProbe.ts');
    const out = execFileSync(process.execPath, ['--expose-gc', '--no-turbo-inlining', '--import', 'tsx', probe], {
      encoding: 'utf8',
      timeout: 50_000,
    });
    const { entities, bytesPerCall } = JSON.parse(out.trim().split('\n').pop() ?? '{}') as {
      entities: number;
      bytesPerCall: number[];
    };
    expect(entities).toBeGreaterThan(220);
    expect(bytesPerCall).toHaveLength(3);
    expect(Math.min(...bytesPerCall)).toBeLessThan(8); // one boxed double a tick is 16
  });

  it('the measurement detects a variant that allocates one small object per call', async () => {
    const { sampler, out, frames } = world();
    let keep: { frame: number } | null = null;
    const m = await youngAndRetained(
      (i) => {
        sampler.sample(position(i, frames), out);
        keep = { frame: out.frameA }; // the kind of slip the test must catch: ~16 bytes a call
      },
      6000,
      10_000,
    );
    expect(keep).not.toBeNull();
    expect(m.young).toBeGreaterThan(6000 * 16);
  });
});
