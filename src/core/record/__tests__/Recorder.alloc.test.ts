import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { allocatedBytes } from '../../../../tests/helpers/allocation';
import { allocationWorkload } from './allocationWorkload';

const HERE = dirname(fileURLToPath(import.meta.url));

// In a file of its own: V8's type feedback from other tests (NaN ids, doubles where integers were)
// would make this measure the test suite's history rather than the recorder.
describe('Recorder: allocation', () => {
  it('allocates nothing per frame in steady state, and the heap stays flat over 100k recorded frames', () => {
    const w = allocationWorkload();
    const r = w.recorder;
    for (let i = 0; i < 20_000; i++) w.frame(); // warm up: handle table, id pages, JIT
    // Young-generation bytes over 2,000 frames: one 16-byte allocation per frame would show as 32 kB
    // in every window. The least of three windows is taken: a one-off event of the engine shows in
    // one window only, while an allocation of the recorder's shows in all three.
    const youngBytes = (): number =>
      allocatedBytes(() => {
        for (let i = 0; i < 2000; i++) w.frame();
      });
    const young = Math.min(youngBytes(), youngBytes(), youngBytes());
    expect(young).toBeLessThan(4000);
    // The measure itself can see allocation: a frame that allocates is caught.
    const leaky = allocatedBytes(() => {
      for (let i = 0; i < 2000; i++) {
        w.frame();
        r.draw.words.subarray(0, 1); // one small view object per frame
      }
    });
    expect(leaky).toBeGreaterThan(2000 * 16);
    // And over 100k frames nothing is retained.
    const gc = (globalThis as { gc: () => void }).gc;
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 100_000; i++) w.frame();
    gc();
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(256 * 1024);
    expect(r.stats.framesRecorded).toBe(w.frames());
  });

  it('allocates nothing either when the engine inlines no call (V8 --no-turbo-inlining, in a child process)', () => {
    // Whether V8 inlines a call varies from run to run (concurrent compiles, feedback timing). A
    // call it does not inline boxes each double argument (16 bytes), so the recorder must not pass
    // doubles between its own functions on a per-entity path. This run makes the worst case the
    // only case: before entityBatch staged in place, it failed here with ~1.9 kB a frame.
    const out = execFileSync(
      process.execPath,
      ['--expose-gc', '--no-turbo-inlining', '--import', 'tsx', join(HERE, 'allocationProbe.ts')],
      { encoding: 'utf8', timeout: 50_000 },
    );
    const { windows } = JSON.parse(out.trim().split('\n').pop() ?? '{}') as { windows: number[] };
    expect(windows).toHaveLength(3);
    expect(Math.min(...windows)).toBeLessThan(4000);
  });
});
