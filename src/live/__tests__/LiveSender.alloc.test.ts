import { describe, expect, it } from 'vitest';
import { allocatedBytes } from '../../../tests/helpers/allocation';
import { Recorder } from '../../core/record/Recorder';
import { LiveSender } from '../LiveSender';
import type { LiveTransport } from '../LiveTransport';

/** Copies each message into one preallocated buffer, as a transport that allocates nothing would. */
class SinkTransport implements LiveTransport {
  public onMessage: ((bytes: Uint8Array) => void) | null = null;
  public onOpen: (() => void) | null = null;
  public onClose: ((reason: string) => void) | null = null;
  public isOpen = true;
  public bufferedAmount = 0;
  public messages = 0;
  public bytes = 0;
  private readonly sink = new Uint8Array(1 << 20);

  public send(bytes: Uint8Array): void {
    this.sink.set(bytes, 0);
    this.messages++;
    this.bytes += bytes.length;
  }

  public close(): void {
    this.isOpen = false;
  }
}

// In a file of its own, like the recorder's allocation test: other tests' type feedback would
// make this measure the suite's history.
describe('LiveSender: allocation', () => {
  it('sends a 1,000-entity frame as it ends without allocating, and skips frames without allocating', () => {
    const rec = new Recorder({ maxFrames: 120, arenaBytes: 4 << 20, maxEntitiesPerFrame: 1024, onWarning: () => {} });
    const n = 1000;
    const ids = new Int32Array(n),
      x = new Float32Array(n),
      y = new Float32Array(n),
      z = new Float32Array(n);
    const qx = new Float32Array(n),
      qy = new Float32Array(n),
      qz = new Float32Array(n),
      qw = new Float32Array(n).fill(1);
    const columns = { ids, x, y, z, qx, qy, qz, qw };
    for (let i = 0; i < n; i++) ids[i] = i;
    // Custom fields on every entity: the frames carry a field section, the META its schema.
    const UNIT = rec.declareFields('crate', { health: 'f32', grounded: 'bool', state: 'enum' });
    const fieldCols = [new Float32Array(n), new Uint8Array(n), new Uint8Array(n).fill(UNIT.code('idle'))];
    // Time as whole numbers, as the recorder's own allocation test does: a fractional time passed to
    // a beginFrame that V8 did not inline is boxed by the caller (the test), not by the recorder.
    const clock = new Int32Array(1);
    const frame = (): void => {
      clock[0]++;
      rec.beginFrame(clock[0], 1);
      for (let i = 0; i < n; i++) {
        x[i] += 0.5;
        y[i] = (i * 7) % 300;
      }
      rec.entityColumns(n, columns);
      rec.fieldColumns(UNIT, n, ids, fieldCols);
      rec.endFrame();
    };
    // Kinds and labels, given once the lives exist (descriptions waiting for a life make the
    // recorder itself allocate a little per frame: that is measured by the recorder's tests).
    frame();
    for (let i = 0; i < n; i++) rec.describe(i, i % 2 === 0 ? 'crate' : 'guard', `unit ${i}`);
    const transport = new SinkTransport();
    const sender = new LiveSender(rec, transport, { game: 'alloc', maxBufferedBytes: 1000 });
    for (let i = 0; i < 3000; i++) frame(); // warm up: shadows, buffers, views, JIT
    const sentBefore = sender.stats.framesSent;
    const young = (): number =>
      allocatedBytes(() => {
        for (let i = 0; i < 1000; i++) frame();
      });
    const sending = Math.min(young(), young(), young());
    expect(sender.stats.framesSent - sentBefore).toBeGreaterThanOrEqual(3000);
    expect(sender.stats.livesSent).toBe(n); // each life told once
    // A slow link: skipped frames allocate nothing either.
    transport.bufferedAmount = 1 << 20;
    const skipping = Math.min(young(), young(), young());
    expect(sender.stats.framesSkipped).toBeGreaterThanOrEqual(3000);
    transport.bufferedAmount = 0;
    expect(sending).toBeLessThan(4000);
    expect(skipping).toBeLessThan(4000);
    // The measure sees allocation: a sender that made one view per frame is caught.
    const leaky = allocatedBytes(() => {
      for (let i = 0; i < 1000; i++) {
        frame();
        new Uint8Array(transport.bytes > 0 ? 8 : 4);
      }
    });
    expect(leaky).toBeGreaterThan(1000 * 16);
  });
});
