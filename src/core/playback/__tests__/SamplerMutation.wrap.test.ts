import { describe, expect, it } from 'vitest';
import type { FrameReader } from '../../read/FrameReader';
import { Sampler } from '../Sampler';
import { SampleBuffer } from '../SampleBuffer';
import { axisAngle } from '../../../../tests/helpers/rotations';
import { quietRecorder } from './helpers';

/**
 * The two generation counters of the sampler wrapping around: the match's (`gen`, one step of 2 per
 * match of two decoded frames) and the seek's (`livesGen`, one per seek from the ring's words). Each
 * stamps its per-handle table and starts over below 0x7ffffff0, clearing the stamps. Reaching that by
 * sampling takes a billion matches or two billion seeks, so the counters are set by hand (white box).
 */

type Counters = { gen: number; livesGen: number };

function rows(out: SampleBuffer): unknown[] {
  const r: unknown[] = [out.count, out.frameA, out.frameB, out.t];
  for (let k = 0; k < out.count; k++) {
    r.push([
      out.ids[k],
      out.presence[k],
      Array.from(out.positions.subarray(k * 3, k * 3 + 3)),
      Array.from(out.rotations.subarray(k * 4, k * 4 + 4)),
    ]);
  }
  return r;
}

function fresh(reader: FrameReader, p: number): unknown[] {
  const out = new SampleBuffer();
  new Sampler(reader).sample(p, out);
  return rows(out);
}

/**
 * Ten frames: entities 0..3 in every frame, entity 9 in frames 0 to 2 only (one life), moving and
 * turning; `bones`: entity 0 carries a bone (every pair is then decoded and matched).
 */
function recording(bones: boolean): FrameReader {
  const rec = quietRecorder({ arenaBytes: 1 << 16 });
  for (let f = 0; f < 10; f++) {
    rec.beginFrame(f, 1);
    for (const id of [0, 1, 2, 3, 9]) {
      if (id === 9 && f > 2) continue;
      rec.entity(id, id * 10 + f, f, -id, ...axisAngle(0, 1, 0, 0.1 * f + id), 0);
      if (bones && id === 0) rec.bones(id, 1, axisAngle(1, 0, 0, 0.2 * f), [f, 0, 0]);
    }
    rec.endFrame();
  }
  return rec.reader;
}

describe('Sampler, generation counters wrapping around', () => {
  it('the seek’s counter starts over with the stamps cleared, and never runs past the int32 range', () => {
    // Sampler `sampleFromRing`: `livesGen >= 0x7ffffff0` → false or `<`: the counter ran past 2^31,
    // whose stamps an Int32Array stores as -2^31, so no entity of B was found any more; the stamps
    // not cleared at the wrap (the reset left out): entity 9's stamp from the first seek (1) was
    // taken for the new first generation's, matching it to a row of B it is not in.
    const reader = recording(false);
    const s = new Sampler(reader);
    const out = new SampleBuffer();
    s.sample(0.5, out); // generation 1: entity 9 stamped in frame 1
    (s as unknown as Counters).livesGen = 0x7ffffff0 - 1;
    s.sample(4.5, out); // generation 0x7ffffff0
    expect(rows(out)).toEqual(fresh(reader, 4.5));
    s.sample(2.5, out); // the wrap: generation 1 again; entity 9 is in frame 2, not in frame 3
    expect(rows(out)).toEqual(fresh(reader, 2.5));
    expect(out.count).toBe(5);
    // Twenty seeks more, over alternating pairs.
    for (let i = 0; i < 20; i++) {
      const p = i % 2 === 0 ? 5.25 : 6.75;
      s.sample(p, out);
      expect(rows(out), `seek ${i} at ${p}`).toEqual(fresh(reader, p));
    }
    expect(s.decodeCount).toBe(0);
    // Sampler: `livesGen >= 0x7ffffff0` → `<` (a reset at every seek below the limit, none at it):
    // a counter exactly at the limit ran on past 2^31.
    const at = new Sampler(reader);
    (at as unknown as Counters).livesGen = 0x7ffffff0;
    for (let i = 0; i < 20; i++) {
      const p = i % 2 === 0 ? 5.25 : 6.75;
      at.sample(p, out);
      expect(rows(out), `seek ${i} at ${p}, from the limit`).toEqual(fresh(reader, p));
    }
  });

  it('the match’s counter starts over exactly at 0x7ffffff0, and never runs past the int32 range', () => {
    // Sampler `match`: `gen >= 0x7ffffff0` → `<`: a counter already at the limit was never reset
    // (and ran past 2^31, where no entity of B was found any more).
    const reader = recording(true);
    const s = new Sampler(reader);
    const out = new SampleBuffer();
    s.sample(0.5, out);
    (s as unknown as Counters).gen = 0x7ffffff0;
    for (let i = 0; i < 24; i++) {
      const p = 1.5 + (i % 6);
      s.sample(p, out);
      expect(rows(out), `match ${i} at ${p}`).toEqual(fresh(reader, p));
    }
    expect(s.decodeCount).toBeGreaterThan(24);
  });

  it('the match table grows with the entity table between two matches', () => {
    // Sampler `ensureTable`: `need * 2 <= this.table.length` → `need / 2`: after the entity table
    // grew, the match table was not grown with it, and B's new handles were written past its end
    // (lost: their entities were not matched).
    const rec = quietRecorder({ maxEntitiesPerFrame: 16 });
    const s = new Sampler(rec.reader);
    const out = new SampleBuffer();
    const first = rec.reader.entities.capacity;
    let f = 0;
    const frame = (ids: number[]): void => {
      rec.beginFrame(f, 1);
      for (const id of ids) {
        rec.entity(id, id, f, 0, 0, 0, 0, 1, 0);
        if (id === ids[0]) rec.bones(id, 1, [0, 0, 0, 1], [f, 0, 0]); // every pair is decoded and matched
      }
      rec.endFrame();
      f++;
    };
    frame([0, 1]);
    frame([0, 1]);
    s.sample(0.5, out); // the match table sized for the first capacity
    for (let k = 0; rec.reader.entities.capacity < first * 4; k++) frame([100 + 2 * k, 101 + 2 * k]);
    frame([100 + 2 * (f - 3), 101 + 2 * (f - 3), 7]);
    const p = f - 1.5;
    s.sample(p, out);
    expect(rows(out)).toEqual(fresh(rec.reader, p));
    expect(out.count).toBe(3);
    expect(s.decodeCount).toBe(4);
  });
});
