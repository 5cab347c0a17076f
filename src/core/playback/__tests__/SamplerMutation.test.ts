import { describe, expect, it } from 'vitest';
import { Sampler } from '../Sampler';
import { SampleBuffer } from '../SampleBuffer';
import { TimeControl } from '../TimeControl';
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

  it('the game time of a decoded pair is interpolated; sampleTime samples where the TimeControl is', () => {
    // Kills `ha.time + (hb.time - ha.time) * t` → `ha.time - …` and `hb.time + ha.time` in `run`
    // (decoded pairs: the second sample of a pair), and `sampleTime`'s body left out.
    const rec = quietRecorder();
    for (let f = 0; f < 4; f++) {
      rec.beginFrame(10 + f * f, 1); // times 10, 11, 14, 19
      rec.entity(1, f, 0, 0, 0, 0, 0, 1);
      rec.endFrame();
    }
    const s = new Sampler(rec.reader);
    const out = new SampleBuffer();
    for (const [p, time] of [
      [1.25, 11.75],
      [1.25, 11.75],
      [2.5, 16.5],
      [2.5, 16.5],
    ] as const) {
      s.sample(p, out);
      expect([out.time, out.positions[0]], `at ${p}`).toEqual([time, p]);
    }
    expect(s.decodeCount).toBe(3);
    const tc = new TimeControl(rec.reader);
    tc.seek(1.75);
    out.count = 0;
    expect(s.sampleTime(tc, out)).toBe(true);
    expect([out.count, out.t, out.time, out.positions[0]]).toEqual([1, 0.75, 13.25, 1.75]);
  });

  it('the camera: x and z lerped, the nearer frame from t = 0.5 exactly when it moved past the threshold', () => {
    // Kills in `blendCamera`: `cb[0] - ca[0]` → `cb[0] + ca[0]`, `ca[2] + dz * t` → `ca[2] - dz * t`
    // and `dz / t`, and `t >= 0.5` → `t > 0.5` for a camera that jumped.
    const rec = quietRecorder();
    for (const [x, z] of [
      [1, 3],
      [5, 19],
    ]) {
      rec.beginFrame(rec.reader.frameCount, 1);
      rec.camera(x, 0, z, 0, 0, 0, 1, 1);
      rec.entity(1, 0, 0, 0, 0, 0, 0, 1);
      rec.endFrame();
    }
    const out = new SampleBuffer();
    for (const s of [new Sampler(rec.reader), new Sampler(rec.reader)]) {
      s.sample(0.25, out); // from the ring, then decoded
      s.sample(0.25, out);
      expect([out.camera[0], out.camera[2]]).toEqual([2, 7]);
    }
    const near = new Sampler(rec.reader, { teleportThreshold: 1 });
    near.sample(0.5, out);
    expect([out.camera[0], out.camera[2]]).toEqual([5, 19]);
    near.sample(0.5, out);
    expect([out.camera[0], out.camera[2]]).toEqual([5, 19]);
  });
});
