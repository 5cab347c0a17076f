import { describe, expect, it } from 'vitest';
import { Sampler } from '../Sampler';
import { SampleBuffer } from '../SampleBuffer';
import { quietRecorder } from './helpers';

/**
 * Sampler edges that the reference and path tests pass over; each case names the mutant of
 * Sampler.ts it kills.
 */

describe('Sampler edges', () => {
  it('an empty recording decodes nothing: the sample fails before looking for frames', () => {
    // Kills `r.frameCount === 0 ||` → `false` in `run` (the empty reader would be asked to decode).
    const rec = quietRecorder();
    const s = new Sampler(rec.reader);
    const out = new SampleBuffer();
    out.count = 5;
    out.hasCamera = true;
    for (const p of [0, 0.5, 3, -1]) {
      expect(s.sample(p, out)).toBe(false);
      expect([out.count, out.hasCamera]).toEqual([0, false]);
    }
    expect(s.decodeCount).toBe(0);
    // After clear() too: nothing held, nothing decoded.
    rec.beginFrame(0, 1);
    rec.entity(1, 1, 2, 3, 0, 0, 0, 1);
    rec.endFrame();
    expect(s.sample(0, out)).toBe(true);
    expect(s.decodeCount).toBe(1);
    rec.clear();
    expect(s.sample(0.5, out)).toBe(false);
    expect(s.decodeCount).toBe(1);
  });
});
