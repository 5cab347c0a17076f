import { describe, expect, it } from 'vitest';
import type { FrameReader } from '../../read/FrameReader';
import { Sampler } from '../Sampler';
import { SampleBuffer } from '../SampleBuffer';
import { axisAngle } from '../../../../tests/helpers/rotations';
import { quietRecorder } from './helpers';

/**
 * Frame numbers held again with other content (what `FrameReader.offsetOf` warns of: a ring refilled
 * with reused frame numbers, a reader swapped under the sampler): the sampler recognises a frame it
 * has cached, or the pair it last read from the ring, by frame number, word offset and time, all
 * three. Each case changes one of them and keeps the other two, through a reader whose prototype is
 * swapped from one recording to another (every method and field then reads the new one).
 */

/**
 * A recording of the same three entities (same ids, all from frame 0) at the given times; frame f
 * pads its words with a draw text of `pads[f]` characters (none at 0), so that frame offsets can
 * be made equal or not; positions and turns depend on `shift`.
 */
function recording(times: readonly number[], pads: readonly number[], shift: number): FrameReader {
  const rec = quietRecorder({ arenaBytes: 1 << 16 });
  times.forEach((time, f) => {
    rec.beginFrame(time, 1);
    for (let id = 0; id < 3; id++) rec.entity(id, shift + f + id, f * 2, id, ...axisAngle(0, 0, 1, shift + 0.2 * f), 0);
    const pad = pads[f] ?? 0;
    if (pad > 0) rec.draw.text(0, 0, 0, 0, 'x'.repeat(pad), 0xffffff);
    rec.endFrame();
  });
  return rec.reader;
}

/** A reader that reads `first` until `swap(next)`, then `next`. */
function swappable(first: FrameReader): { reader: FrameReader; swap(next: FrameReader): void } {
  const reader = Object.create(first) as FrameReader;
  return { reader, swap: (next) => Object.setPrototypeOf(reader, next) };
}

function rows(out: SampleBuffer): unknown[] {
  return [
    out.count,
    out.frameA,
    out.frameB,
    out.time,
    Array.from(out.ids.subarray(0, out.count)),
    Array.from(out.positions.subarray(0, out.count * 3)),
    Array.from(out.rotations.subarray(0, out.count * 4)),
  ];
}

function fresh(reader: FrameReader, p: number): unknown[] {
  const out = new SampleBuffer();
  new Sampler(reader).sample(p, out);
  return rows(out);
}

/** A recording at `times` whose frame 1 is at word `offset` (frame 0 padded with points and entities of its own). */
function frameOneAt(offset: number, times: readonly number[], shift: number): FrameReader {
  // Frame 1's offset grows with the text's length: the least length that reaches `offset`.
  let lo = 0;
  let hi = offset * 4;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (recording(times, [mid], shift).offsetOf(1) < offset) lo = mid + 1;
    else hi = mid;
  }
  const r = recording(times, [lo], shift);
  if (r.offsetOf(1) === offset) return r;
  throw new Error(`no padding puts frame 1 at word ${offset}`);
}

describe('Sampler, frame numbers held again with other content', () => {
  it('a cached frame is not reused when only its time, only its offset or only its number matches', () => {
    // Sampler `find`: `time === s0.time` → true and `at === s0.offset` → true (and the same of s1):
    // the first two cases; `s0.frame === frame` → true (and s1's): the third, where frame 1 of the
    // second recording lies at the offset, and has the time, of frame 2 of the first.
    const x = recording([0, 1, 2, 3], [], 0);
    const sameOffsets = recording([0, 1.5, 2.5, 3], [], 10);
    const sameTimes = recording([0, 1, 2, 3], [8, 8], 20);
    expect(sameTimes.offsetOf(1)).not.toBe(x.offsetOf(1));
    expect(sameTimes.offsetOf(2)).not.toBe(x.offsetOf(2));
    expect([sameOffsets.offsetOf(1), sameOffsets.offsetOf(2)]).toEqual([x.offsetOf(1), x.offsetOf(2)]);
    const shiftedTimes = [0, 2, 3];
    const shifted = frameOneAt(x.offsetOf(2), shiftedTimes, 30);
    expect(shifted.offsetOf(1)).toBe(x.offsetOf(2));
    for (const [y, targets] of [
      [sameOffsets, [1, 2]],
      [sameTimes, [1, 2]],
      [shifted, [1]],
    ] as const) {
      // Frames 1 and 2 cached in either slot (the first decoded goes to slot 0), then the swap.
      for (const order of [
        [1, 2],
        [2, 1],
      ]) {
        for (const p of targets) {
          const { reader, swap } = swappable(x);
          const s = new Sampler(reader);
          const out = new SampleBuffer();
          for (const f of order) s.sample(f, out);
          expect(s.decodeCount).toBe(2);
          swap(y);
          s.sample(p, out);
          expect(s.decodeCount, `${order} then ${p}`).toBe(3);
          expect(rows(out), `${order} then ${p}`).toEqual(fresh(y, p));
        }
      }
    }
  });

  it('a seek is read from the ring when only frame A, only its offset, only B’s offset or only the time is the last seek’s', () => {
    // Sampler `sampleFromRing`: each of `fa === this.ringFrame`, `atA === this.ringAtA`,
    // `atB === this.ringAtB`, `ha.time === this.ringTime` → true: the pair was taken for the last
    // seek's, being scrubbed, and decoded (the rows are the same either way; the decode count tells).
    const x = recording([0, 1, 2, 3], [8, 16], 0);
    const timeOnly = recording([0, 1.5, 2, 3], [8, 16], 10); // same offsets, A's time differs
    const atAOnly = recording([0, 1, 2, 3], [16, 8], 20); // A moves, B stays
    const atBOnly = recording([0, 1, 2, 3], [8, 24], 30); // A stays, B moves
    // Frame 1 where x's frame 2 is, frame 2 where x's frame 3 is, frame 1 at x's frame 2's time.
    const shiftedTimes = [0, 2, 3, 4];
    const fa = frameOneAt(x.offsetOf(2), shiftedTimes, 40);
    expect([timeOnly.offsetOf(1), timeOnly.offsetOf(2)]).toEqual([x.offsetOf(1), x.offsetOf(2)]);
    expect(atAOnly.offsetOf(1)).not.toBe(x.offsetOf(1));
    expect(atAOnly.offsetOf(2)).toBe(x.offsetOf(2));
    expect(atBOnly.offsetOf(1)).toBe(x.offsetOf(1));
    expect(atBOnly.offsetOf(2)).not.toBe(x.offsetOf(2));
    expect([fa.offsetOf(1), fa.offsetOf(2), fa.timeOf(1)]).toEqual([x.offsetOf(2), x.offsetOf(3), x.timeOf(2)]);
    for (const [y, p, q] of [
      [timeOnly, 1.5, 1.5],
      [atAOnly, 1.5, 1.5],
      [atBOnly, 1.5, 1.5],
      [fa, 2.5, 1.5],
    ] as const) {
      const { reader, swap } = swappable(x);
      const s = new Sampler(reader);
      const out = new SampleBuffer();
      s.sample(p, out); // a seek, from the ring
      expect(s.decodeCount).toBe(0);
      swap(y);
      s.sample(q, out); // another pair: a seek again
      expect(s.decodeCount, `${p} then ${q}`).toBe(0);
      expect(rows(out)).toEqual(fresh(y, q));
      s.sample(q, out); // now the same pair again: decoded
      expect(s.decodeCount).toBe(2);
    }
  });
});
