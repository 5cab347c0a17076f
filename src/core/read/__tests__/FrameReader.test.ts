import { describe, expect, it } from 'vitest';
import { EntityFlags } from '../../format/layout';
import { Recorder } from '../../record/Recorder';
import { EntityBuffer } from '../buffers';

function recorded(): Recorder {
  const rec = new Recorder({ maxFrames: 4, onWarning: () => {} });
  for (let f = 0; f < 6; f++) {
    rec.beginFrame(f * 0.25 + 10, f === 3 ? 0 : 1 / 30 + f);
    for (let i = 0; i < 3 + f; i++) rec.entity(100 + i, i, f, 0, 0, 0, 0, 1, i === 1 ? EntityFlags.DAMAGED : 0);
    rec.endFrame();
  }
  return rec;
}

describe('FrameReader accessors that return no double', () => {
  it('timingInto writes time and dt of a held frame, and leaves out alone for one not held', () => {
    const r = recorded().reader;
    const out = new Float64Array([7, 7, 7, 7]);
    expect(r.timingInto(4, out, 1)).toBe(true);
    expect(out[1]).toBe(r.timeOf(4));
    expect(out[2]).toBe(r.dtOf(4));
    expect(out[1]).toBe(11);
    expect(out[2]).toBe(Math.fround(1 / 30 + 4));
    expect(r.timingInto(3, out, 0)).toBe(true);
    expect(out[1]).toBe(0); // a recorded dt of 0 is reported as it is
    out.fill(7);
    expect(r.timingInto(1, out, 0)).toBe(false); // evicted
    expect(r.timingInto(6, out, 0)).toBe(false); // not recorded yet
    expect([...out]).toEqual([7, 7, 7, 7]);
  });

  it('offsetOf is -1 exactly for frames not held, and stable while a frame is held', () => {
    const rec = recorded();
    const r = rec.reader;
    expect(r.offsetOf(1)).toBe(-1);
    expect(r.offsetOf(6)).toBe(-1);
    const at5 = r.offsetOf(5);
    expect(at5).toBeGreaterThanOrEqual(0);
    expect(new Set([2, 3, 4, 5].map((f) => r.offsetOf(f))).size).toBe(4);
    rec.beginFrame(99, 0.1);
    rec.endFrame();
    expect(r.offsetOf(5)).toBe(at5);
    expect(r.offsetOf(2)).toBe(-1);
  });

  it('readHandles gives the handles and flags readEntities gives, and touches nothing else', () => {
    const r = recorded().reader;
    const full = new EntityBuffer();
    const ids = new EntityBuffer(16);
    ids.positions.fill(5);
    for (const f of [2, 5]) {
      expect(r.readEntities(f, full)).toBe(true);
      expect(r.readHandles(f, ids)).toBe(true);
      expect(ids.count).toBe(3 + f);
      expect([...ids.handles.subarray(0, ids.count)]).toEqual([...full.handles.subarray(0, full.count)]);
      expect([...ids.flags.subarray(0, ids.count)]).toEqual([...full.flags.subarray(0, full.count)]);
      expect(ids.flags[1]).toBe(EntityFlags.DAMAGED);
    }
    expect(ids.positions.every((v) => v === 5)).toBe(true);
    expect(r.readHandles(0, ids)).toBe(false);
    expect(ids.count).toBe(8);
  });
});
