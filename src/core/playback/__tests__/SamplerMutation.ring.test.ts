import { describe, expect, it } from 'vitest';
import { Sampler } from '../Sampler';
import { SampleBuffer } from '../SampleBuffer';
import { axisAngle } from '../../../../tests/helpers/rotations';
import { quietRecorder } from './helpers';

/**
 * What a seek (a sample whose two frames are not cached, read straight from the ring) leaves in the
 * caller's buffer besides the rows, and when the sampler reads from the ring rather than decoding:
 * the sampled position, no bones or display state left from an earlier sample into the same buffer,
 * the nearer frame's over-budget bits at t = 0.5 exactly, and a pair sampled from the ring again
 * once the sampler has left it (after other samples, or `invalidate`).
 */

/** Frames 0..9 of 3 entities; frames 0 and 1 carry bones and display state, odd frames are over budget. */
function recording() {
  const rec = quietRecorder({ primitiveBudget: 1 });
  for (let f = 0; f < 10; f++) {
    rec.beginFrame(f * 0.5, 0.5);
    for (let id = 0; id < 3; id++) {
      rec.entity(id, id + f, 2 * f, -f, ...axisAngle(0, 0, 1, 0.1 * f + id), id === 1 ? f % 2 : 0);
      if (f < 2 && id === 2) {
        rec.bones(id, 1, axisAngle(1, 0, 0, 0.2 * f), [f, 0, 0]);
        rec.display(id, 1, 2, 0.5, true);
      }
    }
    if (f % 2 === 1) {
      rec.draw.point(0, 0, 0, 0, 1, 0xffffff);
      rec.draw.point(0, 1, 1, 1, 1, 0xffffff); // over the budget of 1
    }
    rec.endFrame();
  }
  return rec;
}

describe('Sampler, what a seek leaves in the buffer', () => {
  it('a seek into a buffer that held bones and display state leaves neither; the position is the one sampled', () => {
    // Sampler 303, 304 (`out.boneTotal = 0`, `out.hasDisplay = false` after a seek, left out): the
    // previous sample's bones and display state stayed; 205 (`out.position = p` before the seek,
    // left out): the position stayed the previous sample's.
    const rec = recording();
    const s = new Sampler(rec.reader);
    const out = new SampleBuffer();
    s.sample(0.5, out); // frames with bones and display state: decoded
    expect(out.boneTotal).toBe(1);
    expect(out.hasDisplay).toBe(true);
    const d = s.decodeCount;
    s.sample(6.25, out);
    expect(s.decodeCount, 'a seek').toBe(d);
    expect([out.position, out.frameA, out.frameB, out.t, out.boneTotal, out.hasDisplay]).toEqual([
      6.25,
      6,
      7,
      0.25,
      0,
      false,
    ]);
    for (let k = 0; k < out.count; k++) expect(out.boneStart[k]).toBe(-1);
    expect(Array.from(out.positions.subarray(0, 3))).toEqual([6.25, 12.5, -6.25]);
    expect(out.time).toBe(3.125);
  });

  it('the over-budget bits and flags of the nearer frame: B from t = 0.5 exactly', () => {
    // Sampler 308 (`t >= 0.5 → t > 0.5` for a seek's over-budget bits).
    const rec = recording();
    for (const [p, over, flags] of [
      [4.5, 1, 1],
      [4.49, 0, 0],
      [5.5, 0, 0],
      [5.49, 1, 1],
    ] as const) {
      const s = new Sampler(rec.reader);
      const seek = new SampleBuffer();
      s.sample(p, seek);
      expect(s.decodeCount).toBe(0);
      const dec = new SampleBuffer();
      s.sample(p, dec);
      expect(s.decodeCount).toBe(2);
      for (const out of [seek, dec]) {
        expect([out.overBudget, out.flags[1]], `at ${p}`).toEqual([over, flags]);
      }
    }
  });

  it('a pair is read from the ring again once the sampler has left it, or after invalidate', () => {
    // Sampler 278 (`this.ringFrame = -1` when a repeated pair is decoded, left out) and 315 (the
    // same in `invalidate`): the sampler then took the pair for one being scrubbed and decoded it.
    const rec = recording();
    const s = new Sampler(rec.reader);
    const first = new SampleBuffer();
    const out = new SampleBuffer();
    s.sample(3.5, first); // from the ring
    expect(s.decodeCount).toBe(0);
    s.sample(3.5, out); // the same pair again: decoded and kept
    expect(s.decodeCount).toBe(2);
    s.sample(7, out); // two whole frames: both cached frames replaced
    s.sample(9, out);
    expect(s.decodeCount).toBe(4);
    s.sample(3.5, out); // neither frame cached: a seek, from the ring
    expect(s.decodeCount).toBe(4);
    expect(out.t).toBe(0.5);
    expect(Array.from(out.positions.subarray(0, 3))).toEqual(Array.from(first.positions.subarray(0, 3)));
    s.invalidate();
    s.sample(3.5, out); // the same pair right after invalidate: from the ring again
    expect(s.decodeCount).toBe(4);
    s.sample(3.5, out); // and now decoded
    expect(s.decodeCount).toBe(6);
  });
});
