import { describe, expect, it } from 'vitest';
import { FrameRing } from '../FrameRing';

/** Writes a frame whose every word is its frame number, so overlap corruption is detectable. */
function put(ring: FrameRing, frame: number, words: number): number {
  const at = ring.reserve(words);
  if (at >= 0) {
    ring.u32.fill(frame, at, at + words);
    ring.commit(frame);
  }
  return at;
}

function check(ring: FrameRing): void {
  for (let f = ring.oldestFrame; f <= ring.newestFrame; f++) {
    const at = ring.offsetOf(f);
    const w = ring.wordsOf(f);
    for (let i = at; i < at + w - 1; i++) if (ring.u32[i] !== f) throw new Error(`frame ${f} corrupted at word ${i}`);
  }
}

describe('FrameRing', () => {
  it('zeroes the padding word of an odd-sized frame, whatever the arena held', () => {
    const ring = new FrameRing(1 << 12, 4);
    ring.u32.fill(0xdeadbeef);
    for (let f = 0; f < 12; f++) {
      const words = 5 + 2 * (f % 3); // odd: one padding word each
      const at = ring.reserve(words + 4); // reserved longer, committed shorter, as the recorder does
      ring.u32.fill(f + 1, at, at + words);
      ring.commit(f, words);
      expect(ring.wordsOf(f)).toBe(words + 1);
      expect(ring.u32[at + words]).toBe(0);
    }
  });

  it('evicts by frame count', () => {
    const ring = new FrameRing(1 << 16, 10);
    const evicted: number[] = [];
    ring.onEvict = (f) => evicted.push(f);
    for (let f = 0; f < 25; f++) put(ring, f, 8);
    expect(ring.frameCount).toBe(10);
    expect(ring.oldestFrame).toBe(15);
    expect(ring.newestFrame).toBe(24);
    expect(evicted).toEqual(Array.from({ length: 15 }, (_, i) => i));
    check(ring);
  });

  it('evicts by bytes and keeps every held frame intact while wrapping many times', () => {
    const ring = new FrameRing(4096, 1000); // 1024 words
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 16) / 65536;
    let wraps = 0;
    let last = -1;
    for (let f = 0; f < 5000; f++) {
      const words = 2 + Math.floor(rnd() * 200);
      const at = put(ring, f, words);
      expect(at).toBeGreaterThanOrEqual(0);
      if (at < last) wraps++;
      last = at;
      check(ring);
      expect(ring.bytesUsed).toBeLessThanOrEqual(4096);
      expect(ring.newestFrame).toBe(f);
    }
    expect(wraps).toBeGreaterThan(100);
    expect(ring.frameCount).toBeGreaterThan(3);
  });

  it('refuses a frame larger than the arena without evicting anything', () => {
    const ring = new FrameRing(1024, 10);
    put(ring, 0, 10);
    expect(ring.reserve(10_000)).toBe(-1);
    expect(ring.frameCount).toBe(1);
    check(ring);
  });

  it('looks frames up in O(1) and reports absent frames', () => {
    const ring = new FrameRing(1 << 14, 4);
    expect(ring.has(0)).toBe(false);
    expect(ring.offsetOf(0)).toBe(-1);
    for (let f = 0; f < 6; f++) put(ring, f, 4);
    expect(ring.has(1)).toBe(false);
    expect(ring.has(2)).toBe(true);
    expect(ring.has(5)).toBe(true);
    expect(ring.has(6)).toBe(false);
    expect(ring.has(2.5)).toBe(false);
  });

  it('rejects a non-contiguous commit and bad construction', () => {
    const ring = new FrameRing(1 << 12, 4);
    put(ring, 3, 4);
    ring.reserve(4);
    expect(() => ring.commit(7)).toThrow(RangeError);
    expect(() => new FrameRing(10, 4)).toThrow(RangeError);
    expect(() => new FrameRing(4096, 0)).toThrow(RangeError);
  });

  it('clear() evicts everything', () => {
    const ring = new FrameRing(1 << 12, 8);
    let n = 0;
    ring.onEvict = () => n++;
    for (let f = 0; f < 5; f++) put(ring, f, 4);
    ring.clear();
    expect(n).toBe(5);
    expect(ring.frameCount).toBe(0);
    put(ring, 9, 4);
    expect(ring.oldestFrame).toBe(9);
  });
});
