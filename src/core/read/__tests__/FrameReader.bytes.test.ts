import { describe, expect, it } from 'vitest';
import { HEADER_WORDS } from '../../format/layout';
import { Recorder } from '../../record/Recorder';

describe('FrameReader.bytesOf', () => {
  it("is the frame's size in the ring: header plus 20 bytes an entity (plus primitives); 0 when not held", () => {
    const rec = new Recorder({ maxFrames: 4, onWarning: () => undefined });
    for (let f = 0; f < 6; f++) {
      rec.beginFrame(f / 60, 1 / 60);
      for (let i = 0; i < f; i++) rec.entity(i + 1, i, 0, 0, 0, 0, 0, 1);
      rec.endFrame();
    }
    const r = rec.reader;
    expect(r.oldestFrame).toBe(2);
    for (let f = 2; f <= 5; f++) {
      expect(r.bytesOf(f)).toBe(HEADER_WORDS * 4 + f * 20);
      // The ring pads frames to 8 bytes.
      expect(r.ring.wordsOf(f) * 4 - r.bytesOf(f)).toBeGreaterThanOrEqual(0);
      expect(r.ring.wordsOf(f) * 4 - r.bytesOf(f)).toBeLessThan(8);
    }
    expect(r.bytesOf(1)).toBe(0);
    expect(r.bytesOf(6)).toBe(0);
    expect(r.bytesOf(Number.NaN)).toBe(0);
  });
});
