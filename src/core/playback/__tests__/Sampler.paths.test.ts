import { describe, expect, it } from 'vitest';
import type { EntityBuffer, FrameHeader } from '../../read/buffers';
import type { FrameReader } from '../../read/FrameReader';
import { HANDLE_MASK, HEADER_WORDS } from '../../format/layout';
import { Sampler } from '../Sampler';
import { Presence, SampleBuffer } from '../SampleBuffer';
import { axisAngle } from '../../../../tests/helpers/rotations';
import { quietRecorder } from './helpers';
import type { Recorder } from '../../record/Recorder';

/**
 * The sampler's edges, each with data that tells the right answer from a near miss: teleports along
 * y and z alone and a move of exactly the threshold, a 180° turn (the shortest-path tie), frames
 * where only one side holds bones, NaN and empty input, the frame cache's slot choice (content and
 * decode counts), `invalidate`, a reader whose handles lie beyond its entity table, a reader that
 * fails to decode, and the match generation wrapping around.
 */

const ID = [0, 0, 0, 1] as const;

/** Every field of the rows of `out`, for comparing two samples. */
function rows(out: SampleBuffer): unknown[] {
  const r: unknown[] = [out.count, out.frameA, out.frameB, out.t, out.time, out.hasCamera, out.boneTotal];
  if (out.hasCamera) r.push(Array.from(out.camera));
  for (let k = 0; k < out.count; k++) {
    const s = out.boneStart[k];
    const c = s >= 0 ? out.boneCount[k] : 0;
    r.push([
      out.handles[k],
      out.ids[k],
      out.spawnFrames[k],
      out.presence[k],
      out.flags[k],
      Array.from(out.positions.subarray(k * 3, k * 3 + 3)),
      Array.from(out.rotations.subarray(k * 4, k * 4 + 4)),
      s,
      c,
      Array.from(out.boneRotations.subarray(s * 4, (s + c) * 4)),
      Array.from(out.boneOffsets.subarray(s * 3, (s + c) * 3)),
    ]);
  }
  return r;
}

/** What a sampler that has cached nothing gives at `p`. */
function fresh(reader: FrameReader, p: number, threshold = Number.POSITIVE_INFINITY): unknown[] {
  const out = new SampleBuffer();
  new Sampler(reader, { teleportThreshold: threshold }).sample(p, out);
  return rows(out);
}

/** Twelve frames: ids 0..5 every frame; 6 appears in odd frames only; bones on 0 and 3; x, y and z motion. */
function world(rec: Recorder, frames = 12): void {
  for (let f = 0; f < frames; f++) {
    rec.beginFrame(f * 0.5, 0.5);
    rec.camera(f, 2 * f, -f, ...axisAngle(0, 0, 1, 0.1 * f), 1 + f / 10);
    for (let id = 0; id < 7; id++) {
      if (id === 6 && f % 2 === 0) continue;
      const q = axisAngle(1, id % 2, 1, 0.3 * id + 0.2 * f);
      rec.entity(id, id + f, 2 * id - f, f * (id + 1) * 0.5, q[0], q[1], q[2], q[3], (f + id) % 4);
      if (id % 3 === 0)
        rec.bones(id, 2, [...axisAngle(1, 0, 0, 0.1 * f), ...axisAngle(0, 1, 0, 0.2 * f + id)], [f, id, 1, -f, 2, id]);
    }
    rec.endFrame();
  }
}

describe('Sampler paths', () => {
  it('teleports are measured in x, y and z; a move of exactly the threshold is blended (entities and camera)', () => {
    const rec = quietRecorder();
    // Each step moves entity 1 and the camera by one of: 6 in z, 6 in y, exactly 5 (3, 4, 0).
    const steps = [
      [0, 0, 0],
      [0, 0, 6],
      [0, 6, 6],
      [3, 10, 6],
    ];
    for (let f = 0; f < steps.length; f++) {
      const [x, y, z] = steps[f];
      rec.beginFrame(f, 1);
      rec.camera(x, y, z, ...ID, 1);
      rec.entity(1, x, y, z, ...ID, 0);
      rec.endFrame();
    }
    const s = new Sampler(rec.reader, { teleportThreshold: 5 });
    const out = new SampleBuffer();
    for (const [p, want] of [
      [0.25, steps[0]], // z: teleport, the nearer frame
      [0.75, steps[1]],
      [1.25, steps[1]], // y: teleport
      [1.75, steps[2]],
      [2.25, [0.75, 7, 6]], // exactly 5: blended
      [2.75, [2.25, 9, 6]],
    ] as const) {
      s.sample(p, out);
      expect([Array.from(out.positions.subarray(0, 3)), Array.from(out.camera.subarray(0, 3))], `at ${p}`).toEqual([
        want,
        want,
      ]);
    }
  });

  it('threshold 0 is allowed (every move is a teleport); a bad threshold names the option', () => {
    const rec = quietRecorder();
    world(rec, 2);
    const s = new Sampler(rec.reader, { teleportThreshold: 0 });
    const out = new SampleBuffer();
    s.sample(0.25, out);
    expect(Array.from(out.positions.subarray(0, 3))).toEqual([0, 0, 0]);
    s.sample(0.75, out);
    expect(Array.from(out.positions.subarray(0, 3))).toEqual([1, -1, 0.5]);
    expect(() => new Sampler(rec.reader, { teleportThreshold: -1 })).toThrow(/teleportThreshold must be >= 0/);
  });

  it('a 180° turn (cos exactly 0) is not flipped: entity and camera agree with math/slerp', () => {
    const rec = quietRecorder();
    for (const q of [ID, [1, 0, 0, 0]] as const) {
      rec.beginFrame(rec.reader.frameCount, 1);
      rec.camera(0, 0, 0, q[0], q[1], q[2], q[3], 1);
      rec.entity(1, 0, 0, 0, q[0], q[1], q[2], q[3], 0);
      rec.endFrame();
    }
    const out = new SampleBuffer();
    new Sampler(rec.reader).sample(0.25, out);
    const want = [Math.sin(Math.PI / 8), 0, 0, Math.cos(Math.PI / 8)];
    for (let c = 0; c < 4; c++) {
      expect(out.rotations[c]).toBeCloseTo(want[c], 6);
      expect(out.camera[3 + c]).toBeCloseTo(want[c], 6);
    }
  });

  it('bones where only one of the two frames holds any: the frame that has them, blended or not', () => {
    const rec = quietRecorder();
    const rots = [...axisAngle(1, 0, 0, 0.5), ...axisAngle(0, 1, 0, 1)];
    for (let f = 0; f < 4; f++) {
      rec.beginFrame(f, 1);
      rec.entity(1, f, 0, 0, ...ID, 0);
      if (f === 1 || f === 2) rec.bones(1, 2, rots, [f, 1, 2, 3, 4, f]); // frames 0 and 3 hold no bones at all
      rec.endFrame();
    }
    const s = new Sampler(rec.reader);
    const out = new SampleBuffer();
    for (const [p, offs] of [
      [0.25, [1, 1, 2, 3, 4, 1]], // only B has bones
      [0.75, [1, 1, 2, 3, 4, 1]],
      [2.25, [2, 1, 2, 3, 4, 2]], // only A has bones
      [2.75, [2, 1, 2, 3, 4, 2]],
      [1.5, [1.5, 1, 2, 3, 4, 1.5]], // both: blended
    ] as const) {
      s.sample(p, out);
      expect([out.boneStart[0], out.boneCount[0], out.boneTotal], `at ${p}`).toEqual([0, 2, 2]);
      expect(Array.from(out.boneOffsets.subarray(0, 6))).toEqual(offs);
      for (let j = 0; j < 8; j++) expect(out.boneRotations[j]).toBeCloseTo(rots[j], 2); // stored in 32 bits
    }
  });

  it('NaN and an empty reader give false, no rows and no camera, even when frame 0 is held', () => {
    const rec = quietRecorder();
    const s = new Sampler(rec.reader);
    const out = new SampleBuffer();
    world(rec, 3);
    expect(s.sample(0.5, out)).toBe(true);
    expect([out.count, out.hasCamera]).toEqual([7, true]);
    expect(s.sample(Number.NaN, out)).toBe(false);
    expect([out.count, out.hasCamera]).toEqual([0, false]);
    s.sample(1, out);
    rec.clear();
    expect(s.sample(1, out)).toBe(false);
    expect([out.count, out.hasCamera]).toEqual([0, false]);
  });

  it('the frame cache: each frame decoded once, cached frames never overwritten by their neighbour', () => {
    const rec = quietRecorder();
    world(rec);
    const s = new Sampler(rec.reader, { teleportThreshold: 3 });
    const out = new SampleBuffer();
    // [position, decodes so far]
    const visits: [number, number][] = [
      [0, 1], // frame 0 (at the ring's offset 0), cold: one decode
      [0, 1],
      [2, 2],
      [9, 3],
      [2, 3], // two whole frames in turn: both stay cached
      [9, 3],
      [5.5, 5],
      [4.5, 6], // back by one frame: 5 is kept where it is, 4 decoded beside it
      [3.5, 7],
      [4.5, 8],
      [5.5, 9],
      [6.5, 10],
      [6, 10],
      [5.5, 11],
      [10.25, 13],
      [11, 13],
      [10, 13],
      [9.5, 14],
    ];
    for (const [p, decodes] of visits) {
      s.sample(p, out);
      expect(rows(out), `at ${p}`).toEqual(fresh(rec.reader, p, 3));
      expect(s.decodeCount, `decodes at ${p}`).toBe(decodes);
    }
  });

  it('invalidate drops both cached frames and the match; the next sample decodes again and is the same', () => {
    const rec = quietRecorder();
    world(rec);
    const s = new Sampler(rec.reader);
    const out = new SampleBuffer();
    for (const [p, n] of [
      [1.5, 2],
      [1, 1],
      [2, 1],
      [0.5, 2],
      [3, 1],
    ] as const) {
      s.sample(p, out);
      const before = rows(out);
      const decodes = s.decodeCount;
      s.invalidate();
      s.sample(p, out);
      expect(s.decodeCount, `at ${p}`).toBe(decodes + n);
      expect(rows(out)).toEqual(before);
      expect(rows(out)).toEqual(fresh(rec.reader, p));
    }
  });

  it('a reader whose handles lie beyond its entity table (a foreign reader) is matched by handle all the same', () => {
    const rec = quietRecorder();
    world(rec, 4);
    const real = rec.reader;
    const cap = real.entities.capacity;
    // Handle h reads as `cap + h` (the first exactly the capacity), with ids and spawn frames to match.
    const ids = new Int32Array(cap * 2 + 8);
    const spawns = new Int32Array(cap * 2 + 8);
    for (let h = 0; h < cap; h++) {
      ids[cap + h] = real.entities.ids[h];
      spawns[cap + h] = real.entities.spawnFrames[h];
    }
    const shifted = Object.create(real) as FrameReader;
    Object.defineProperty(shifted, 'entities', { value: { capacity: cap, ids, spawnFrames: spawns } });
    shifted.readEntities = (frame: number, out: EntityBuffer, withBones?: boolean): boolean => {
      if (!real.readEntities(frame, out, withBones)) return false;
      for (let i = 0; i < out.count; i++) out.handles[i] += cap;
      return true;
    };
    for (const p of [1.25, 1.75, 2.5, 0, 3]) {
      const out = new SampleBuffer();
      expect(new Sampler(shifted).sample(p, out)).toBe(true);
      const want = new SampleBuffer();
      new Sampler(real).sample(p, want);
      expect(out.count).toBe(want.count);
      for (let k = 0; k < out.count; k++) {
        expect(out.handles[k]).toBe(want.handles[k] + cap);
        expect([out.ids[k], out.presence[k]]).toEqual([want.ids[k], want.presence[k]]);
      }
      expect(Array.from(out.positions.subarray(0, out.count * 3))).toEqual(
        Array.from(want.positions.subarray(0, want.count * 3)),
      );
    }
  });

  it('a foreign reader whose only handle, in frame B only, is exactly its table capacity', () => {
    const rec = quietRecorder();
    for (let f = 0; f < 2; f++) {
      rec.beginFrame(f, 1);
      if (f === 1) rec.entity(5, f, 0, 0, ...ID, 0); // in frame B only
      rec.endFrame();
    }
    const real = rec.reader;
    const cap = real.entities.capacity;
    const h0 = real.entities.lookup(5);
    const ids = new Int32Array(cap + 1);
    ids[cap] = 5;
    const shifted = Object.create(real) as FrameReader;
    Object.defineProperty(shifted, 'entities', { value: { capacity: cap, ids, spawnFrames: new Int32Array(cap + 1) } });
    // The handle word in the ring itself, so that a seek read from the ring's words sees it as well.
    const word = real.offsetOf(1) + HEADER_WORDS;
    const u = real.ring.u32;
    expect(u[word] & HANDLE_MASK).toBe(h0);
    u[word] = (u[word] & ~HANDLE_MASK) | cap;
    const out = new SampleBuffer();
    new Sampler(shifted).sample(0.5, out);
    expect([out.count, out.handles[0], out.ids[0], out.presence[0], out.positions[0]]).toEqual([
      1,
      cap,
      5,
      Presence.ONLY_B,
      1,
    ]);
  });

  it('a whole frame with fewer entities than its slot held before: no bones from beyond the rows', () => {
    const rec = quietRecorder();
    const bones = (id: number, turn: number): void =>
      rec.bones(id, 2, [...axisAngle(1, 0, 0, turn), ...axisAngle(0, 1, 0, turn + 1)], [turn, 0, 0, 0, turn, 0]);
    const frame = (ids: number[], withBones: number[], turn: number): void => {
      rec.beginFrame(rec.reader.frameCount, 1);
      for (const id of ids) {
        rec.entity(id, id, 0, 0, ...ID, 0);
        if (withBones.includes(id)) bones(id, turn + id);
      }
      rec.endFrame();
    };
    frame([1, 2, 3, 4], [1, 4], 0); // frame 0: the fourth row has bones (slots 2-3)
    frame([2, 3, 5, 4], [4], 0.5); // frame 1: only the fourth row has bones (slot 0)
    frame([1, 2, 3], [1], 1); // frame 2, in frame 0's slot: three rows
    const s = new Sampler(rec.reader);
    const out = new SampleBuffer();
    for (const p of [0, 1, 2]) {
      s.sample(p, out);
      expect(rows(out), `at ${p}`).toEqual(fresh(rec.reader, p));
    }
  });

  it('a frame the reader fails to decode: false, no rows, no camera; the next good sample is whole', () => {
    const rec = quietRecorder();
    world(rec, 6);
    const real = rec.reader;
    let failing = -1;
    const flaky = Object.create(real) as FrameReader;
    flaky.readEntities = (frame: number, out: EntityBuffer, withBones?: boolean): boolean =>
      frame !== failing && real.readEntities(frame, out, withBones);
    flaky.readHeader = (frame: number, out: FrameHeader): boolean => real.readHeader(frame, out);
    const s = new Sampler(flaky);
    const out = new SampleBuffer();
    for (const [p, bad] of [
      [2.5, 3], // B fails
      [2.5, -1],
      [1.5, 1], // A fails
      [1.5, -1],
      [4, 4], // a whole frame fails
      [4, -1],
      [3.5, -1],
      [1.5, -1], // frames 1 and 2 cached, 2 the more recent
      [5, 5], // decoded over frame 1's slot (its header read, its entities not): that slot no longer holds frame 1
      [1, -1],
    ] as const) {
      failing = bad;
      const ok = s.sample(p, out);
      expect(ok, `at ${p}`).toBe(bad < 0);
      if (bad >= 0) expect([out.count, out.hasCamera]).toEqual([0, false]);
      else expect(rows(out), `at ${p}`).toEqual(fresh(real, p));
    }
  });

  it('the match generation wraps around without matching a stale handle', () => {
    const rec = quietRecorder();
    // Entity 1 in every frame; entity 2 in frames 1 and 4 only.
    for (let f = 0; f < 6; f++) {
      rec.beginFrame(f, 1);
      rec.entity(1, f, 0, 0, ...ID, 0);
      if (f === 1 || f === 4) rec.entity(2, 100 + f, 0, 0, ...ID, 0);
      rec.endFrame();
    }
    const s = new Sampler(rec.reader);
    const out = new SampleBuffer();
    s.sample(0.5, out); // entity 2 marked "in B" with the first generation
    // Next: near the end of the generation range (white box: reaching it by sampling takes a billion matches).
    (s as unknown as { gen: number }).gen = 0x7ffffff0 - 2;
    for (const p of [2.5, 4.5, 3.5, 1.5, 0.5, 4.5, 2.5, 3.5, 1.5, 0.5, 2.5, 4.5, 3.5]) {
      s.sample(p, out);
      expect(rows(out), `at ${p}`).toEqual(fresh(rec.reader, p));
    }
  });
});
