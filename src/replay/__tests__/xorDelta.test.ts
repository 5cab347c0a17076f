import { describe, expect, it } from 'vitest';
import { CHECKSUM_SEED, checksumWords } from '../checksum';
import { xorDeltaBound, xorDeltaDecode, xorDeltaEncode, xorDeltaHeader } from '../xorDelta';
import type { XorDeltaHeader } from '../xorDelta';
import { rng } from './helpers';

function encode(cur: Uint32Array, prev: Uint32Array): Uint8Array {
  const out = new Uint8Array(xorDeltaBound(cur.length));
  return out.slice(0, xorDeltaEncode(cur, 0, cur.length, prev, 0, prev.length, out, 0));
}

function decode(bytes: Uint8Array, prev: Uint32Array): Uint32Array | null {
  const h: XorDeltaHeader = { words: 0, dataAt: 0 };
  xorDeltaHeader(bytes, 0, bytes.length, h);
  if (h.words < 0) return null;
  const dst = new Uint32Array(h.words);
  return xorDeltaDecode(bytes, h.dataAt, bytes.length, h.words, prev, 0, prev.length, dst, 0) ? dst : null;
}

describe('xor-delta codec', () => {
  it('round-trips frames of any length against previous frames of any length', () => {
    const r = rng(5);
    for (let c = 0; c < 300; c++) {
      const n = Math.floor(r() * 70);
      const prev = Uint32Array.from({ length: Math.floor(r() * 70) }, () => Math.floor(r() * 2 ** 32));
      // Mixed: equal words, small changes, big changes.
      const cur = Uint32Array.from({ length: n }, (_, i) => {
        const p = i < prev.length ? prev[i] : 0;
        const k = r();
        return (
          (k < 0.4
            ? p
            : k < 0.6
              ? p ^ Math.floor(r() * 256)
              : k < 0.8
                ? p ^ Math.floor(r() * 65536)
                : Math.floor(r() * 2 ** 32)) >>> 0
        );
      });
      const bytes = encode(cur, prev);
      expect(bytes.length).toBeLessThanOrEqual(xorDeltaBound(n));
      expect(Array.from(decode(bytes, prev) ?? [])).toEqual(Array.from(cur));
    }
  });

  it('stores unchanged words in two bits and small changes in one or two bytes', () => {
    const prev = Uint32Array.from({ length: 400 }, (_, i) => i * 2654435761);
    expect(encode(prev, prev).length).toBe(2 + 100); // varint of 400, then one zero tag per group
    const small = prev.map((v) => v ^ 0x7f);
    expect(encode(small, prev).length).toBe(2 + 100 + 400);
    const mid = prev.map((v) => v ^ 0x1234);
    expect(encode(mid, prev).length).toBe(2 + 100 + 800);
  });

  it('rejects data that runs out, has bytes left over, or non-canonical tag bits', () => {
    const r = rng(8);
    const prev = Uint32Array.from({ length: 30 }, () => Math.floor(r() * 2 ** 32));
    const cur = Uint32Array.from({ length: 30 }, () => Math.floor(r() * 2 ** 32));
    const bytes = encode(cur, prev);
    for (let cut = 0; cut < bytes.length; cut++) expect(decode(bytes.subarray(0, cut), prev)).toBeNull();
    expect(decode(new Uint8Array([...bytes, 0]), prev)).toBeNull();
    const five = encode(Uint32Array.of(0, 0, 0, 0, 0), new Uint32Array(0));
    expect(Array.from(five)).toEqual([5, 0, 0]);
    expect(decode(Uint8Array.of(5, 0, 0b0100), new Uint32Array(0))).toBeNull(); // a tag for a 6th word
  });

  it('reads word counts as LEB128 varints of at most 5 bytes', () => {
    const h: XorDeltaHeader = { words: 0, dataAt: 0 };
    xorDeltaHeader(Uint8Array.of(0xe5, 0x8e, 0x26), 0, 3, h);
    expect(h).toEqual({ words: 624485, dataAt: 3 });
    xorDeltaHeader(Uint8Array.of(0x80, 0x80, 0x80, 0x80, 0x80, 0x01), 0, 6, h);
    expect(h.words).toBe(-1);
    xorDeltaHeader(Uint8Array.of(0x80), 0, 1, h);
    expect(h.words).toBe(-1);
    const big = new Uint8Array(8);
    const end = xorDeltaEncode(new Uint32Array(0), 0, 0, new Uint32Array(0), 0, 0, big, 0);
    expect(Array.from(big.subarray(0, end))).toEqual([0]);
  });
});

describe('frame checksum', () => {
  it('is FNV-1a over 32-bit words and changes with any single word', () => {
    expect(checksumWords(new Uint32Array(0), 0, 0, CHECKSUM_SEED)).toBe(0x811c9dc5);
    expect(checksumWords(Uint32Array.of(1), 0, 1, CHECKSUM_SEED)).toBe(Math.imul(0x811c9dc5 ^ 1, 0x01000193) >>> 0);
    const r = rng(3);
    const words = Uint32Array.from({ length: 64 }, () => Math.floor(r() * 2 ** 32));
    const base = checksumWords(words, 0, words.length, CHECKSUM_SEED);
    for (let i = 0; i < words.length; i++) {
      const copy = words.slice();
      copy[i] ^= 1 << (i % 32);
      expect(checksumWords(copy, 0, copy.length, CHECKSUM_SEED)).not.toBe(base);
    }
    // Checksumming in pieces equals checksumming at once.
    const half = checksumWords(words, 0, 32, CHECKSUM_SEED);
    expect(checksumWords(words, 32, 32, half)).toBe(base);
  });
});
