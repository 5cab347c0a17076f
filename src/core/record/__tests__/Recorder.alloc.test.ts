import { describe, expect, it } from 'vitest';
import { allocatedBytes } from '../../../../tests/helpers/allocation';
import { Channel } from '../ChannelRegistry';
import { Recorder } from '../Recorder';

// In a file of its own: V8's type feedback from other tests (NaN ids, doubles where integers were)
// would make this measure the test suite's history rather than the recorder.
describe('Recorder: allocation', () => {
  it('allocates nothing per frame in steady state, and the heap stays flat over 100k recorded frames', () => {
    // The recorder's own code must not allocate. Arguments are integers or come through arrays here:
    // a double passed to a call V8 does not inline is boxed by the *caller* (16 bytes), which is the
    // engine's doing and is why `entityBatch()` exists for allocation-free bulk recording.
    const r = new Recorder({ maxFrames: 300, arenaBytes: 4 << 20, onWarning: () => {} });
    const rot = new Float32Array(12 * 4);
    const off = new Float32Array(12 * 3);
    for (let b = 0; b < 12; b++) rot[b * 4 + 3] = 1;
    const N = 40;
    const ids = new Int32Array(N);
    const pos = new Float32Array(N * 3);
    const rots = new Float32Array(N * 4);
    const flags = new Uint8Array(N);
    const M = 24;
    const cols = {
      ids: new Int32Array(M), x: new Float32Array(M), y: new Float32Array(M), z: new Float32Array(M),
      qx: new Float32Array(M), qy: new Float32Array(M), qz: new Float32Array(M), qw: new Float32Array(M),
    };
    for (let i = 0; i < M; i++) {
      cols.ids[i] = 6000 + i;
      cols.qw[i] = 1;
    }
    let f = 0;
    const frame = () => {
      for (let i = 0; i < N; i++) {
        ids[i] = (i * 97 + (f >> 4) * 3) % 4000; // churn: ids come and go
        pos[i * 3] = i + f * 0.1;
        rots[i * 4 + 2] = Math.sin(f * 0.01 + i);
        rots[i * 4 + 3] = Math.cos(f * 0.01 + i);
        flags[i] = f & 1;
      }
      r.beginFrame(f, 1);
      r.camera(f, 0, 0, 0, 0, 0, 1, 1);
      r.entityBatch(N, ids, pos, rots, flags);
      cols.x[f % M] = f;
      cols.qx[(f + 1) % M] = f & 1 ? 0 : NaN; // an invalid quaternion every other frame
      r.entityColumns(M, cols);
      r.entity(5000 + (f & 3), f, 1, 2, 0, 0, 0, 1, 0);
      r.describe(5000 + (f & 3), 'prop', 'crate'); // a new life every frame, described
      r.describe(10000 + (f % 5000), 'ghost'); // never recorded: waits; past 4,096 the oldest is forgotten
      r.bones(5000 + (f & 3), 12, rot, off);
      r.despawn(5000 + (f & 3));
      r.draw.sphere(Channel.AI, f, 0, 0, 4, 0xff0000);
      r.draw.text(Channel.AI, 0, 0, 0, 'state', 0xffffff);
      r.draw.text(Channel.AI, 1, 0, 0, 'more', 0xffffff);
      r.draw.line(Channel.PHYSICS, NaN, 0, 0, 1, 1, 1, 0); // bad input is handled without allocating too
      r.event('tick', -1, 0, 0, 0);
      r.endFrame();
      f++;
    };
    for (let i = 0; i < 20_000; i++) frame(); // warm up: handle table, id pages, JIT
    // Young-generation bytes over 2,000 frames: one 16-byte allocation per frame would show as 32 kB
    // in every window. The least of three windows is taken: a one-off event of the engine (a
    // deoptimisation, whose unoptimised code boxes doubles, seen once in a loaded test run) shows in
    // one window only, while an allocation of the recorder's shows in all three.
    const youngBytes = (): number => allocatedBytes(() => {
      for (let i = 0; i < 2000; i++) frame();
    });
    const young = Math.min(youngBytes(), youngBytes(), youngBytes());
    expect(young).toBeLessThan(4000);
    // The measure itself can see allocation: a frame that allocates is caught.
    const leaky = allocatedBytes(() => {
      for (let i = 0; i < 2000; i++) {
        frame();
        r.draw.words.subarray(0, 1); // one small view object per frame
      }
    });
    expect(leaky).toBeGreaterThan(2000 * 16);
    // And over 100k frames nothing is retained.
    const gc = (globalThis as { gc: () => void }).gc;
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 100_000; i++) frame();
    gc();
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(256 * 1024);
    expect(r.stats.framesRecorded).toBe(f);
  });
});
