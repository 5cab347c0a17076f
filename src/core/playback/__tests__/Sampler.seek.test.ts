import { describe, expect, it } from 'vitest';
import { EntityFlags } from '../../format/layout';
import type { Recorder } from '../../record/Recorder';
import { Sampler } from '../Sampler';
import { Presence, SampleBuffer } from '../SampleBuffer';
import { rng } from '../../../../tests/helpers/random';
import { axisAngle, randomQuat } from '../../../../tests/helpers/rotations';
import { quietRecorder } from './helpers';

/**
 * A seek (neither neighbour frame cached) is sampled straight from the ring's words (`seekRows`);
 * the next sample at the same pair decodes both frames and blends them as before. Every row of the
 * first must equal, bit for bit, what the second gives: the same rows in the same order, the same
 * float32 values. The world re-orders its entities every frame, spawns and kills some (lives in one
 * of the two frames only, and ids that come back as new lives), moves in x, y and z, turns every way
 * (each of the four largest quaternion components, small and large steps: both slerp paths and the
 * shortest-path flip), teleports, and changes flags.
 */

const N = 40;

function seekWorld(rec: Recorder, frames: number, seed: number): void {
  const rand = rng(seed);
  const turns = Array.from({ length: N }, () => randomQuat(rand));
  for (let f = 0; f < frames; f++) {
    rec.beginFrame(f * 0.1 + (f % 3) * 0.01, 0.1);
    if (f % 4 !== 3) rec.camera(f, -f, 2 * f, ...axisAngle(0, 0, 1, 0.2 * f), 1 + f / 8);
    // A new order every frame (a shuffle), as a game that sorts by depth gives.
    const order = Array.from({ length: N }, (_, i) => i);
    for (let i = N - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    for (const id of order) {
      if ((id * 7 + f) % 9 === 0) continue; // absent this frame: a death, and a new life when it returns
      if (id % 11 === 5 && f % 5 >= 3) continue; // gone for two frames
      const step = [0.02, 0.4, 1.5, 2.2, 3.5][id % 5]; // radians per frame
      const q = axisAngle(turns[id][0], turns[id][1], turns[id][2] + 0.1, turns[id][3] * 6 + step * f);
      const tele = id % 8 === 2 && f % 6 === 3 ? 400 : 0;
      const flags = (f + id) % 4 === 0 ? EntityFlags.DAMAGED : id % 3 === 1 ? EntityFlags.HIGHLIGHTED : 0;
      rec.entity(id, id * 2 + f * 0.5 * (id % 3), -id + tele, (id % 4) * f * 0.75 - 3, q[0], q[1], q[2], q[3], flags);
    }
    rec.endFrame();
  }
}

/** Every field of a sample, floats by their bits (so -0 and 0 differ). */
function rows(out: SampleBuffer): unknown[] {
  const bits = (a: Float32Array, from: number, to: number): string =>
    Array.from(new Uint32Array(a.buffer, a.byteOffset + from * 4, to - from)).join(',');
  const r: unknown[] = [out.count, out.frameA, out.frameB, out.t, out.time, out.overBudget, out.hasCamera];
  r.push(out.boneTotal, out.hasDisplay);
  if (out.hasCamera) r.push(bits(out.camera, 0, 8));
  for (let k = 0; k < out.count; k++) {
    r.push([
      out.handles[k],
      out.ids[k],
      out.spawnFrames[k],
      out.presence[k],
      out.flags[k],
      out.boneStart[k],
      out.boneStart[k] >= 0 ? out.boneCount[k] : 0,
      bits(out.positions, k * 3, k * 3 + 3),
      bits(out.rotations, k * 4, k * 4 + 4),
    ]);
  }
  return r;
}

describe('Sampler, a seek read from the ring', () => {
  for (const threshold of [Number.POSITIVE_INFINITY, 100]) {
    it(`equals the decoding path bit for bit, with every kind of row (teleport threshold ${threshold})`, () => {
      const rec = quietRecorder();
      seekWorld(rec, 30, 7);
      const s = new Sampler(rec.reader, { teleportThreshold: threshold });
      const seek = new SampleBuffer();
      const decoded = new SampleBuffer();
      const rand = rng(11);
      const seen = new Set<number>();
      let jumpsBlended = 0;
      for (let n = 0; n < 120; n++) {
        // Pairs far apart, so that neither frame of the next one is cached.
        const fa = (n * 7) % 29;
        const p = fa + [0.05, 0.25, 0.5, 0.75, 0.95][n % 5] + (rand() - 0.5) * 0.04;
        const d0 = s.decodeCount;
        expect(s.sample(p, seek)).toBe(true);
        expect(s.decodeCount, `a seek to ${p} decodes nothing`).toBe(d0);
        expect(s.sample(p, decoded)).toBe(true);
        expect(s.decodeCount, `the second sample at ${p} decodes the pair`).toBe(d0 + 2);
        expect(rows(seek), `at ${p}`).toEqual(rows(decoded));
        for (let k = 0; k < seek.count; k++) seen.add(seek.presence[k]);
        // A jump of 400 in y blended (between 50 and 350) unless the threshold stops it.
        for (let k = 0; k < seek.count; k++) {
          const y = seek.positions[k * 3 + 1];
          if (y > 50 && y < 350) jumpsBlended++;
        }
        for (let k = 0; k < seek.count; k++) expect(seek.indexOfHandle(seek.handles[k])).toBe(k);
      }
      expect([...seen].sort()).toEqual([Presence.ONLY_A, Presence.ONLY_B, Presence.BOTH]);
      if (threshold < 1000) expect(jumpsBlended).toBe(0);
      else expect(jumpsBlended).toBeGreaterThan(10);
    });
  }

  it('rows of one frame only and teleports are reported from their one frame, or the nearer one', () => {
    const rec = quietRecorder();
    const still = axisAngle(0, 0, 1, 0.5);
    for (let f = 0; f < 2; f++) {
      rec.beginFrame(f, 1);
      if (f === 0) rec.entity(1, 1, 2, 3, ...still, EntityFlags.DAMAGED); // dies
      rec.entity(2, 10 * f, 0, 500 * f, ...still, f === 0 ? 0 : EntityFlags.HIGHLIGHTED); // teleports in z
      rec.entity(3, 0, 0, 4 * f, ...axisAngle(1, 0, 0, f), 0); // moves in z and turns
      if (f === 1) rec.entity(4, -1, -2, -3, ...still, EntityFlags.HIGHLIGHTED); // spawns
      rec.endFrame();
    }
    const s = new Sampler(rec.reader, { teleportThreshold: 100 });
    const out = new SampleBuffer();
    for (const t of [0.25, 0.75]) {
      s.invalidate();
      s.sample(t, out);
      expect(s.decodeCount).toBe(0);
      const row = (id: number): number => out.ids.indexOf(id);
      expect(out.count).toBe(4);
      expect([...out.ids.subarray(0, 4)]).toEqual([1, 2, 3, 4]);
      expect([out.presence[row(1)], out.presence[row(3)], out.presence[row(4)]]).toEqual([
        Presence.ONLY_A,
        Presence.BOTH,
        Presence.ONLY_B,
      ]);
      expect([...out.positions.subarray(row(1) * 3, row(1) * 3 + 3)]).toEqual([1, 2, 3]);
      expect(out.flags[row(1)]).toBe(EntityFlags.DAMAGED);
      expect([...out.positions.subarray(row(4) * 3, row(4) * 3 + 3)]).toEqual([-1, -2, -3]);
      expect(out.flags[row(4)]).toBe(EntityFlags.HIGHLIGHTED);
      // The teleport shows the nearer frame, unblended, with that frame's flags.
      expect([...out.positions.subarray(row(2) * 3, row(2) * 3 + 3)]).toEqual(t < 0.5 ? [0, 0, 0] : [10, 0, 500]);
      expect(out.flags[row(2)]).toBe(t < 0.5 ? 0 : EntityFlags.HIGHLIGHTED);
      // z is blended like x and y.
      expect(out.positions[row(3) * 3 + 2]).toBeCloseTo(4 * t, 6);
      expect(out.rotations[row(3) * 4]).toBeCloseTo(Math.sin(t / 2), 2); // 10-bit components
    }
  });

  it('a seek between other visits leaves the cached pair as it was, and the next sample there rewrites every row', () => {
    const rec = quietRecorder();
    seekWorld(rec, 20, 3);
    const s = new Sampler(rec.reader);
    const out = new SampleBuffer();
    s.sample(4.3, out);
    s.sample(4.6, out); // 4 and 5 decoded and matched
    const at46 = rows(out);
    const d = s.decodeCount;
    s.sample(15.5, out); // a seek, from the ring
    expect(s.decodeCount).toBe(d);
    expect(out.frameA).toBe(15);
    s.sample(4.6, out); // back to the cached pair: nothing decoded, and none of the seek's rows left
    expect(s.decodeCount).toBe(d);
    expect(rows(out)).toEqual(at46);
    const index = out.indexOfHandle(out.handles[3]);
    expect(index).toBe(3);
  });

  it('frames with bones or display state take the decoding path (the rows include them)', () => {
    const rec = quietRecorder();
    for (let f = 0; f < 8; f++) {
      rec.beginFrame(f, 1);
      for (let id = 0; id < 4; id++) {
        rec.entity(id, id + f, 0, f, ...axisAngle(0, 1, 0, 0.3 * f + id), 0);
        if (id === 1 && f === 3) rec.bones(id, 1, axisAngle(1, 0, 0, 0.5), [1, 2, 3]); // bones in frame 3 only
        if (id === 2 && f === 6) rec.display(id, 2, 3, 0.5, true); // display state in frame 6 only
      }
      rec.endFrame();
    }
    const out = new SampleBuffer();
    for (const [p, bones, display] of [
      [2.5, 1, false], // B has bones
      [3.5, 1, false], // A has bones
      [5.5, 0, true], // B has display state
      [6.5, 0, true], // A has display state
      [0.5, 0, false], // neither: from the ring
    ] as const) {
      const s = new Sampler(rec.reader);
      s.sample(p, out);
      expect(s.decodeCount, `at ${p}`).toBe(bones > 0 || display ? 2 : 0);
      expect(out.boneTotal, `at ${p}`).toBe(bones);
      expect(out.hasDisplay, `at ${p}`).toBe(display);
    }
  });
});
