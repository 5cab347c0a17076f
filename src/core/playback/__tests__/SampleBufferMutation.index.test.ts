import { describe, expect, it } from 'vitest';
import { SampleBuffer } from '../SampleBuffer';

/**
 * SampleBuffer's state before any sample, and its handle index across the generation wrap-around
 * (the stamp counter is reset before it reaches 2^31, where an `Int32Array` stamp would no longer
 * equal it). The counter is set near the bound through a cast: 2^31 rebuilds would take hours.
 */

function rowsOf(out: SampleBuffer, handles: number[]): void {
  out.ensure(handles.length);
  out.count = handles.length;
  handles.forEach((h, k) => {
    out.handles[k] = h;
  });
}

/** The private generation counter of the index. */
const gen = (out: SampleBuffer): { indexGen: number } => out as unknown as { indexGen: number };

describe('SampleBuffer before and across the index wrap-around', () => {
  // Kills: `hasCamera = false` → `true`, `frameA = -1` / `frameB = -1` → `+1`, `layoutKey = -1`
  // (claimLayout with key 1 first), and the sizes of the fresh columns.
  it('a fresh buffer says it holds no sample', () => {
    const out = new SampleBuffer();
    expect([out.count, out.hasCamera, out.frameA, out.frameB, out.t, out.overBudget]).toEqual([0, false, -1, -1, 0, 0]);
    expect(out.position).toBeNaN();
    expect(out.time).toBeNaN();
    expect([out.ids.length, out.spawnFrames.length, out.presence.length, out.camera.length]).toEqual([0, 0, 0, 8]);
    expect(out.indexOfHandle(0)).toBe(-1);
    const sized = new SampleBuffer(20, 5);
    expect([sized.ids.length, sized.spawnFrames.length, sized.presence.length]).toEqual([20, 20, 20]);
    expect(sized.boneRotations.length).toBeGreaterThanOrEqual(5 * 4);
  });

  // Kills: `indexValid = false` → `true` (a fresh buffer's index would stay empty).
  it('a buffer filled by hand, before any layout is claimed, indexes its rows', () => {
    const out = new SampleBuffer();
    rowsOf(out, [4, 9, 2]);
    expect([2, 4, 9, 3].map((h) => out.indexOfHandle(h))).toEqual([2, 0, 1, -1]);
  });

  // Kills: `indexGen >= 0x7ffffff0` → `false` (the counter passes 2^31 - 1: an Int32Array stamp
  // of 2^31 reads back as -2^31, every lookup fails), the reset's `indexGen = 0` left out (the
  // same), and `indexStamp.fill(0)` left out (a stamp from before the wrap equals a generation
  // after it: a handle that left the rows is found again).
  it('answers for the current rows only across the wrap-around of its generation counter', () => {
    const out = new SampleBuffer();
    const owner = {};
    let key = 0;
    // Generation 1: handle 40 at row 0. It is never in the rows again.
    rowsOf(out, [40, 3]);
    out.claimLayout(owner, key++);
    expect(out.indexOfHandle(40)).toBe(0);
    expect(gen(out).indexGen).toBe(1);
    gen(out).indexGen = 0x7ffffff0 - 20;
    for (let i = 0; i < 60; i++) {
      const rows = [3 + (i % 7), 20 + (i % 5), 11];
      rowsOf(out, rows);
      out.claimLayout(owner, key++);
      const got = [40, 3, 4, 5, 6, 7, 8, 9, 11, 20, 21, 22, 23, 24].map((h) => out.indexOfHandle(h));
      const want = [40, 3, 4, 5, 6, 7, 8, 9, 11, 20, 21, 22, 23, 24].map((h) => rows.indexOf(h));
      expect(got, `rebuild ${i}, generation ${gen(out).indexGen}`).toEqual(want);
    }
    // It wrapped: the counter is small again.
    expect(gen(out).indexGen).toBeLessThan(100);
  });
});
