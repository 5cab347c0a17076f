import { describe, expect, it } from 'vitest';
import { Presence, SampleBuffer } from '../SampleBuffer';

/**
 * SampleBuffer's own logic, written by hand into its rows: the nearer frame at t = 0.5 exactly, the
 * handle index (rows without a handle, handles beyond any seen before, a handle that left the rows,
 * a new layout claimed or forgotten), and the layout claim by owner and key.
 */

function rowsOf(out: SampleBuffer, handles: number[]): void {
  out.ensure(handles.length);
  out.count = handles.length;
  handles.forEach((h, k) => {
    out.handles[k] = h;
  });
}

describe('SampleBuffer', () => {
  it('inNearerFrame: both frames always, A before t = 0.5, B from t = 0.5', () => {
    // `p === Presence.BOTH ||` → false, `this.t < 0.5` → `<=`, `this.t >= 0.5` → `>`, the ONLY_A test → true / false.
    const out = new SampleBuffer(3);
    out.count = 3;
    out.presence[0] = Presence.BOTH;
    out.presence[1] = Presence.ONLY_A;
    out.presence[2] = Presence.ONLY_B;
    const seen = [0, 0.49, 0.5, 1].map((t) => {
      out.t = t;
      return [0, 1, 2].map((i) => out.inNearerFrame(i));
    });
    expect(seen).toEqual([
      [true, true, false],
      [true, true, false],
      [true, false, true],
      [true, false, true],
    ]);
  });

  it('indexOfHandle: the row of each handle, -1 for any other, rebuilt when a new layout is claimed', () => {
    const out = new SampleBuffer();
    const owner = {};
    rowsOf(out, [5, -1, 0, 63]);
    expect(out.claimLayout(owner, 1)).toBe(false);
    expect([5, 0, 63].map((h) => out.indexOfHandle(h))).toEqual([0, 2, 3]);
    // A row without a handle (-1) is skipped; handles not in the rows, negative, NaN or beyond the table give -1.
    expect([-1, 1, 4, 64, 1e9, Number.NaN, 0.5].map((h) => out.indexOfHandle(h))).toEqual([-1, -1, -1, -1, -1, -1, -1]);
    // The same layout claimed again: the rows are as they were, and so is the index.
    expect(out.claimLayout(owner, 1)).toBe(true);
    expect(out.indexOfHandle(63)).toBe(3);
    // A new layout (another key): the handles 5 and 63 left, 200 (beyond the table so far) and 0 moved.
    rowsOf(out, [200, 0, 7]);
    expect(out.claimLayout(owner, 2)).toBe(false);
    expect([200, 0, 7, 5, 63, 199, 201].map((h) => out.indexOfHandle(h))).toEqual([0, 1, 2, -1, -1, -1, -1]);
    // Another owner with the same key is a new layout as well; so is any layout after invalidateLayout.
    rowsOf(out, [7]);
    expect(out.claimLayout({}, 2)).toBe(false);
    expect([7, 200, 0].map((h) => out.indexOfHandle(h))).toEqual([0, -1, -1]);
    expect(out.claimLayout(owner, 2)).toBe(false);
    out.invalidateLayout();
    rowsOf(out, [3, 7]);
    expect(out.claimLayout(owner, 2)).toBe(false);
    expect([3, 7].map((h) => out.indexOfHandle(h))).toEqual([0, 1]);
    // Rows edited by hand, then invalidateLayout: the index follows the edit.
    out.handles[0] = 9;
    out.invalidateLayout();
    expect([9, 3].map((h) => out.indexOfHandle(h))).toEqual([0, -1]);
  });

  it('indexOfHandle over many layouts: each answers for its own rows only', () => {
    const out = new SampleBuffer();
    const owner = {};
    for (let key = 0; key < 300; key++) {
      const hs = [key % 17, 100 + (key % 5), key];
      rowsOf(out, [...new Set(hs)]);
      out.claimLayout(owner, key);
      const rows = [...new Set(hs)];
      for (let h = 0; h < 310; h += 1) {
        const want = rows.indexOf(h);
        if (out.indexOfHandle(h) !== want) throw new Error(`layout ${key}, handle ${h}: ${out.indexOfHandle(h)}`);
      }
    }
  });
});
