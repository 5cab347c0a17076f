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

/** Frames 0..9 of 3 entities; frames 8 and 9 carry bones and display state, odd frames are over budget. */
function recording() {
  const rec = quietRecorder({ primitiveBudget: 1 });
  for (let f = 0; f < 10; f++) {
    rec.beginFrame(f * 0.5, 0.5);
    for (let id = 0; id < 3; id++) {
      rec.entity(id, id + f, 2 * f, -f, ...axisAngle(0, 0, 1, 0.1 * f + id), id === 1 ? f % 2 : 0);
      if (f >= 8 && id === 2) {
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
    s.sample(8.5, out); // frames with bones and display state: decoded
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
    // Sampler: the last seek's pair forgotten when it is decoded, and in `invalidate` (once
    // `ringFrame = -1`, now `ringTime = NaN`; left out, the sampler took the pair (frame A = 1)
    // for one being scrubbed and decoded it).
    const rec = recording();
    const s = new Sampler(rec.reader);
    const first = new SampleBuffer();
    const out = new SampleBuffer();
    s.sample(1.5, first); // from the ring
    expect(s.decodeCount).toBe(0);
    s.sample(1.5, out); // the same pair again: decoded and kept
    expect(s.decodeCount).toBe(2);
    s.sample(7, out); // two whole frames: both cached frames replaced
    s.sample(5, out);
    expect(s.decodeCount).toBe(4);
    s.sample(1.5, out); // neither frame cached: a seek, from the ring
    expect(s.decodeCount).toBe(4);
    expect(out.t).toBe(0.5);
    expect(Array.from(out.positions.subarray(0, 3))).toEqual(Array.from(first.positions.subarray(0, 3)));
    s.invalidate();
    s.sample(1.5, out); // the same pair right after invalidate: from the ring again
    expect(s.decodeCount).toBe(4);
    s.sample(1.5, out); // and now decoded
    expect(s.decodeCount).toBe(6);
  });

  it('a seek reads from the ring whatever the pair holds: no entities, frame B at word 0, handles past the first table', () => {
    // Sampler 294 (`n < 0 → n <= 0`): two frames without entities (0 rows) were decoded instead.
    const empty = quietRecorder();
    for (let f = 0; f < 2; f++) {
      empty.beginFrame(f, 1);
      empty.endFrame();
    }
    const se = new Sampler(empty.reader);
    const out = new SampleBuffer();
    expect(se.sample(0.5, out)).toBe(true);
    expect([se.decodeCount, out.count, out.frameA, out.frameB]).toEqual([0, 0, 0, 1]);

    // Sampler 271 (`atB < 0 → atB <= 0`): frame B written at word 0 of a ring that wrapped.
    const small = quietRecorder({ arenaBytes: 1024 });
    let atZero = -1;
    for (let f = 0; f < 40 && atZero < 0; f++) {
      small.beginFrame(f, 1);
      for (let id = 0; id < 3; id++) small.entity(id, f + id, 0, 0, 0, 0, 0, 1, 0);
      small.endFrame();
      const r = small.reader;
      if (f > r.oldestFrame && r.offsetOf(f) === 0) atZero = f;
    }
    expect(atZero).toBeGreaterThan(0);
    const sz = new Sampler(small.reader);
    expect(sz.sample(atZero - 0.5, out)).toBe(true);
    expect(sz.decodeCount).toBe(0);
    expect([out.count, out.positions[0], out.positions[3]]).toEqual([3, atZero - 0.5, atZero + 0.5]);

    // Sampler 282 (`cap * 4 → cap / 4`): after the entity table grew, the seek's table was not
    // grown with it, and a pair naming the new handles was decoded instead.
    const churn = quietRecorder({ maxEntitiesPerFrame: 16 });
    const sc = new Sampler(churn.reader);
    const firstCap = churn.reader.entities.capacity;
    let f = 0;
    const frame = (ids: number[]): void => {
      churn.beginFrame(f, 1);
      for (const id of ids) churn.entity(id, id, f, 0, 0, 0, 0, 1, 0);
      churn.endFrame();
      f++;
    };
    frame([0, 1]);
    frame([0, 1]);
    sc.sample(0.5, out); // the seek's table sized for the first capacity
    // New lives every frame (each id once), until the entity table has grown twice over.
    for (let k = 0; churn.reader.entities.capacity < firstCap * 4; k++) frame([100 + 2 * k, 101 + 2 * k]);
    const last = f - 1;
    const d = sc.decodeCount;
    frame([100 + 2 * (last - 2), 7]);
    expect(sc.sample(last + 0.5, out)).toBe(true);
    expect(sc.decodeCount).toBe(d);
    const ids = Array.from(out.ids.subarray(0, out.count)).sort((a, b) => a - b);
    expect(ids).toEqual([7, 100 + 2 * (last - 2), 101 + 2 * (last - 2)].sort((a, b) => a - b));
  });
});
