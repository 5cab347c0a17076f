/**
 * The xor-delta codec at its edges: the size bound, a word count of exactly 128 (two varint bytes),
 * an empty header, data ending at a group boundary, words past the previous frame that are zero,
 * and nothing written past the decoded words. Comments name the mutants (Stryker's notation) a case
 * kills.
 */
import { describe, expect, it } from 'vitest';
import { type XorDeltaHeader, xorDeltaBound, xorDeltaDecode, xorDeltaEncode, xorDeltaHeader } from '../xorDelta';

function encode(cur: number[], prev: number[]): Uint8Array {
  const c = Uint32Array.from(cur);
  const p = Uint32Array.from(prev);
  const out = new Uint8Array(xorDeltaBound(c.length));
  const end = xorDeltaEncode(c, 0, c.length, p, 0, p.length, out, 0);
  return out.subarray(0, end);
}

describe('xorDelta edges', () => {
  it('bounds an encoded frame by 5 + ceil(words / 4) + 4 · words bytes', () => {
    // `5 + ceil(...)` → `5 - ...`, `words / 4` → `words * 4`.
    expect([0, 1, 4, 5, 9].map(xorDeltaBound)).toEqual([5, 10, 22, 27, 44]);
  });

  it('writes a word count of 128 as two varint bytes, 127 as one', () => {
    // `v >= 0x80` → `v > 0x80`.
    const w128 = new Array(128).fill(0);
    expect([...encode(w128, []).subarray(0, 2)]).toEqual([0x80, 0x01]);
    expect(encode(new Array(127).fill(0), [])[0]).toBe(127);
    const h: XorDeltaHeader = { words: 0, dataAt: 0 };
    const bin = encode(w128, []);
    xorDeltaHeader(bin, 0, bin.length, h);
    expect(h).toEqual({ words: 128, dataAt: 2 });
  });

  it('an empty header gives words and dataAt of -1', () => {
    // `out.words = -1` → `+1`.
    const h: XorDeltaHeader = { words: 7, dataAt: 7 };
    xorDeltaHeader(new Uint8Array(0), 0, 0, h);
    expect(h).toEqual({ words: -1, dataAt: -1 });
  });

  it('fails when the data ends exactly at a group boundary', () => {
    // `p >= end` → `p > end` / `false`.
    const bin = encode([1, 2, 3, 4, 5, 6, 7, 8], []);
    const h: XorDeltaHeader = { words: 0, dataAt: 0 };
    xorDeltaHeader(bin, 0, bin.length, h);
    const dst = new Uint32Array(8);
    const firstGroupEnd = h.dataAt + 1 + 4; // tag and four one-byte words
    expect(xorDeltaDecode(bin, h.dataAt, firstGroupEnd, 8, new Uint32Array(0), 0, 0, dst, 0)).toBe(false);
    expect(xorDeltaDecode(bin, h.dataAt, bin.length, 8, new Uint32Array(0), 0, 0, dst, 0)).toBe(true);
    expect([...dst]).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('decodes zero words past the previous frame as 0, not as what follows the previous frame', () => {
    // `tag === 0 && g + n <= shared`: `g + n` → `g - n`, `<=` → `>`, the test → `true`.
    const prev = Uint32Array.from([1, 2, 3, 4, 5, 6, 7, 8]);
    const bin = encode([1, 2, 3, 4, 0, 0, 0, 0], [1, 2, 3, 4]);
    const h: XorDeltaHeader = { words: 0, dataAt: 0 };
    xorDeltaHeader(bin, 0, bin.length, h);
    const dst = new Uint32Array(8).fill(99);
    expect(xorDeltaDecode(bin, h.dataAt, bin.length, 8, prev, 0, 4, dst, 0)).toBe(true);
    expect([...dst]).toEqual([1, 2, 3, 4, 0, 0, 0, 0]);
  });

  it('writes exactly the decoded words, whatever the last group holds', () => {
    // `words - g < 4 ? words - g : 4` → `words + g` / `false`; `k < n` → `k <= n` in both loops.
    const prev = Uint32Array.from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    for (const cur of [
      [1, 2, 3, 4, 5, 6], // a changed partial group
      [1, 2, 3, 4, 5, 6, 7, 8], // an unchanged last group
      [9, 2, 3, 4, 5, 6, 7, 8], // a changed first group, an unchanged last one
      [1, 2, 3, 4, 70000, 6, 7, 8], // a changed last group
    ]) {
      const n = cur.length;
      const bin = encode(cur, [...prev.subarray(0, 12)]);
      const h: XorDeltaHeader = { words: 0, dataAt: 0 };
      xorDeltaHeader(bin, 0, bin.length, h);
      const dst = new Uint32Array(16).fill(0xeeeeeeee);
      expect(xorDeltaDecode(bin, h.dataAt, bin.length, n, prev, 0, 12, dst, 2)).toBe(true);
      expect([...dst.subarray(2, 2 + n)]).toEqual(cur);
      expect([dst[0], dst[1], ...dst.subarray(2 + n)]).toEqual(new Array(16 - n).fill(0xeeeeeeee));
    }
  });
});
