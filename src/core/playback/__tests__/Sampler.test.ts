import { describe, expect, it } from 'vitest';
import { EntityFlags } from '../../format/layout';
import { EntityBuffer } from '../../read/buffers';
import { Sampler } from '../Sampler';
import { Presence, SampleBuffer } from '../SampleBuffer';
import { rng } from '../../../../tests/helpers/random';
import { axisAngle, randomQuat, rotationDistance } from '../../../../tests/helpers/rotations';
import { quietRecorder } from './helpers';
import type { Recorder } from '../../record/Recorder';

/** A world of `n` entities moving and turning; recorded for `frames` frames, in a shuffled order each frame. */
function movingWorld(rec: Recorder, n: number, frames: number, seed = 1): void {
  const rand = rng(seed);
  for (let f = 0; f < frames; f++) {
    rec.beginFrame(f / 60, 1 / 60);
    const order = Array.from({ length: n }, (_, i) => i);
    for (let i = n - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    for (const id of order) {
      const q = axisAngle(1, id % 3, 2, 0.1 * id + 0.05 * f);
      rec.entity(
        id,
        id * 10 + f * 1.5,
        -id + f * 0.25,
        id * 0.5,
        q[0],
        q[1],
        q[2],
        q[3],
        (f + id) % 3 === 0 ? EntityFlags.DAMAGED : 0,
      );
    }
    rec.endFrame();
  }
}

function rowOf(out: SampleBuffer, _rec: Recorder, id: number): number {
  for (let i = 0; i < out.count; i++) if (out.ids[i] === id) return i;
  return -1;
}

describe('Sampler', () => {
  it('is exact at integer positions: the rows are the decoded frame', () => {
    const rec = quietRecorder();
    movingWorld(rec, 50, 5);
    const s = new Sampler(rec.reader);
    const out = new SampleBuffer();
    const eb = new EntityBuffer();
    for (const f of [0, 2, 4]) {
      expect(s.sample(f, out)).toBe(true);
      rec.reader.readEntities(f, eb);
      expect(out.count).toBe(eb.count);
      expect(out.frameA).toBe(f);
      expect(out.frameB).toBe(f);
      expect(out.t).toBe(0);
      expect(out.time).toBe(rec.reader.timeOf(f));
      for (let i = 0; i < eb.count; i++) {
        const k = out.indexOfHandle(eb.handles[i]);
        expect(k).toBeGreaterThanOrEqual(0);
        expect(out.presence[k]).toBe(Presence.BOTH);
        expect(out.flags[k]).toBe(eb.flags[i]);
        for (let c = 0; c < 3; c++) expect(out.positions[k * 3 + c]).toBe(eb.positions[i * 3 + c]);
        for (let c = 0; c < 4; c++) expect(out.rotations[k * 4 + c]).toBe(eb.rotations[i * 4 + c]);
      }
    }
  });

  it('lerps positions, slerps rotations, takes flags from the nearer frame, matched by unique id despite reordering', () => {
    const rec = quietRecorder();
    movingWorld(rec, 64, 3, 7);
    const s = new Sampler(rec.reader);
    const out = new SampleBuffer();
    const a = new EntityBuffer();
    const b = new EntityBuffer();
    rec.reader.readEntities(1, a);
    rec.reader.readEntities(2, b);
    for (const t of [0.25, 0.5, 0.75]) {
      s.sample(1 + t, out);
      expect(out.count).toBe(64);
      expect(out.frameA).toBe(1);
      expect(out.frameB).toBe(2);
      expect(out.t).toBeCloseTo(t, 12);
      for (let ia = 0; ia < a.count; ia++) {
        const h = a.handles[ia];
        let ib = 0;
        while (b.handles[ib] !== h) ib++;
        const k = out.indexOfHandle(h);
        expect(out.handles[k]).toBe(h);
        expect(out.ids[k]).toBe(rec.entities.ids[h]);
        expect(out.presence[k]).toBe(Presence.BOTH);
        for (let c = 0; c < 3; c++) {
          const want = a.positions[ia * 3 + c] + (b.positions[ib * 3 + c] - a.positions[ia * 3 + c]) * t;
          expect(out.positions[k * 3 + c]).toBeCloseTo(want, 3);
        }
        // Constant angular speed: the blend is t of the way along the arc.
        const total = rotationDistance(a.rotations, ia * 4, b.rotations, ib * 4);
        expect(rotationDistance(a.rotations, ia * 4, out.rotations, k * 4)).toBeCloseTo(total * t, 5);
        expect(rotationDistance(out.rotations, k * 4, b.rotations, ib * 4)).toBeCloseTo(total * (1 - t), 5);
        expect(out.flags[k]).toBe(t >= 0.5 ? b.flags[ib] : a.flags[ia]);
      }
    }
    // The flags do change between the frames for some entities, so the check above means something.
    let differ = 0;
    for (let i = 0; i < a.count; i++) {
      const ib = Array.from(b.handles.subarray(0, b.count)).indexOf(a.handles[i]);
      if (a.flags[i] !== b.flags[ib]) differ++;
    }
    expect(differ).toBeGreaterThan(10);
  });

  it("reports entities present in only one frame, with that frame's values", () => {
    const rec = quietRecorder();
    rec.beginFrame(0, 1);
    rec.entity(1, 0, 0, 0, 0, 0, 0, 1);
    rec.entity(2, 5, 5, 0, 0, 0, 0, 1, EntityFlags.HIGHLIGHTED); // leaves
    rec.endFrame();
    rec.beginFrame(1, 1);
    rec.entity(3, 7, 8, 9, 0, 0, 0, 1); // arrives
    rec.entity(1, 10, 0, 0, 0, 0, 0, 1);
    rec.endFrame();
    const s = new Sampler(rec.reader);
    const out = new SampleBuffer();
    s.sample(0.25, out);
    expect(out.count).toBe(3);
    const r1 = rowOf(out, rec, 1);
    const r2 = rowOf(out, rec, 2);
    const r3 = rowOf(out, rec, 3);
    expect(out.presence[r1]).toBe(Presence.BOTH);
    expect(out.positions[r1 * 3]).toBeCloseTo(2.5, 6);
    expect(out.presence[r2]).toBe(Presence.ONLY_A);
    expect(Array.from(out.positions.subarray(r2 * 3, r2 * 3 + 3))).toEqual([5, 5, 0]);
    expect(out.flags[r2]).toBe(EntityFlags.HIGHLIGHTED);
    expect(out.presence[r3]).toBe(Presence.ONLY_B);
    expect(Array.from(out.positions.subarray(r3 * 3, r3 * 3 + 3))).toEqual([7, 8, 9]);
    // Rows: A's entities in A's order, then B's newcomers.
    expect([r1, r2, r3]).toEqual([0, 1, 2]);
    expect(out.inNearerFrame(r1)).toBe(true);
    expect(out.inNearerFrame(r2)).toBe(true);
    expect(out.inNearerFrame(r3)).toBe(false);
    s.sample(0.5, out);
    expect(out.inNearerFrame(r2)).toBe(false);
    expect(out.inNearerFrame(r3)).toBe(true);
  });

  it('does not smear a teleport: beyond the threshold the nearer frame is shown', () => {
    const rec = quietRecorder();
    const q0 = axisAngle(0, 0, 1, 0);
    const q1 = axisAngle(0, 0, 1, 1);
    rec.beginFrame(0, 1);
    rec.camera(0, 0, 0, 0, 0, 0, 1, 1);
    rec.entity(1, 0, 0, 0, ...q0);
    rec.entity(2, 0, 0, 0, ...q0);
    rec.endFrame();
    rec.beginFrame(1, 1);
    rec.camera(1000, 0, 0, 0, 0, 0, 1, 2);
    rec.entity(1, 1000, 0, 0, ...q1); // teleports
    rec.entity(2, 50, 0, 0, ...q1); // walks
    rec.endFrame();
    const s = new Sampler(rec.reader, { teleportThreshold: 100 });
    const out = new SampleBuffer();
    s.sample(0.3, out);
    expect(out.positions[0]).toBe(0);
    expect(rotationDistance(out.rotations, 0, q0, 0)).toBeLessThan(0.005);
    expect(out.positions[3]).toBeCloseTo(15, 4);
    expect(out.camera[0]).toBe(0);
    expect(out.camera[7]).toBe(1);
    s.sample(0.7, out);
    expect(out.positions[0]).toBe(1000);
    expect(rotationDistance(out.rotations, 0, q1, 0)).toBeLessThan(0.005);
    expect(out.camera[0]).toBe(1000);
    s.teleportThreshold = Number.POSITIVE_INFINITY;
    s.sample(0.7, out);
    expect(out.positions[0]).toBeCloseTo(700, 3);
    expect(out.camera[0]).toBeCloseTo(700, 3);
    expect(out.camera[7]).toBeCloseTo(1.7, 6);
    expect(() => new Sampler(rec.reader, { teleportThreshold: -1 })).toThrow(RangeError);
    // The setter applies the constructor's rule and changes nothing when it throws.
    for (const bad of [-1, NaN, '5' as unknown as number]) {
      expect(() => {
        s.teleportThreshold = bad;
      }).toThrow(RangeError);
      expect(s.teleportThreshold).toBe(Number.POSITIVE_INFINITY);
    }
  });

  it('concrete mode shows the nearest recorded frame, unblended', () => {
    const rec = quietRecorder();
    movingWorld(rec, 10, 4);
    const s = new Sampler(rec.reader, { concrete: true });
    const out = new SampleBuffer();
    const eb = new EntityBuffer();
    s.sample(1.4, out);
    expect([out.frameA, out.frameB, out.t]).toEqual([1, 1, 0]);
    rec.reader.readEntities(1, eb);
    expect(Array.from(out.positions.subarray(0, eb.count * 3))).toEqual(
      Array.from(eb.positions.subarray(0, eb.count * 3)),
    );
    s.sample(1.6, out);
    expect(out.frameA).toBe(2);
    rec.reader.readEntities(2, eb);
    expect(Array.from(out.positions.subarray(0, eb.count * 3))).toEqual(
      Array.from(eb.positions.subarray(0, eb.count * 3)),
    );
    s.concrete = false;
    s.sample(1.6, out);
    expect([out.frameA, out.frameB]).toEqual([1, 2]);
    expect(out.t).toBeCloseTo(0.6, 12);
  });

  it("blends bones bone by bone, and takes the nearer frame's bones when the count changes", () => {
    const rec = quietRecorder();
    const rotsA = [...axisAngle(0, 0, 1, 0), ...axisAngle(1, 0, 0, 0.2), ...axisAngle(0, 1, 0, -1)];
    const rotsB = [...axisAngle(0, 0, 1, 1), ...axisAngle(1, 0, 0, 0.6), ...axisAngle(0, 1, 0, 1)];
    const offA = [0, 0, 0, 0, 10, 0, 0, 20, 0];
    const offB = [0, 0, 0, 0, 12, 0, 0, 30, 2];
    rec.beginFrame(0, 1);
    rec.entity(1, 0, 0, 0, 0, 0, 0, 1);
    rec.bones(1, 3, rotsA, offA);
    rec.entity(2, 0, 0, 0, 0, 0, 0, 1);
    rec.bones(2, 2, rotsA, offA);
    rec.entity(3, 0, 0, 0, 0, 0, 0, 1); // no bones in A
    rec.endFrame();
    rec.beginFrame(1, 1);
    rec.entity(3, 0, 0, 0, 0, 0, 0, 1);
    rec.bones(3, 1, rotsB, offB);
    rec.entity(2, 0, 0, 0, 0, 0, 0, 1);
    rec.bones(2, 3, rotsB, offB); // count changed
    rec.entity(1, 0, 0, 0, 0, 0, 0, 1);
    rec.bones(1, 3, rotsB, offB);
    rec.endFrame();
    const s = new Sampler(rec.reader);
    const out = new SampleBuffer();
    s.sample(0.25, out);
    const r1 = rowOf(out, rec, 1);
    expect(out.boneCount[r1]).toBe(3);
    const b1 = out.boneStart[r1];
    const angles = [
      [0, 1],
      [0.2, 0.6],
      [-1, 1],
    ];
    const axes = [
      [0, 0, 1],
      [1, 0, 0],
      [0, 1, 0],
    ];
    for (let j = 0; j < 3; j++) {
      const want = axisAngle(axes[j][0], axes[j][1], axes[j][2], angles[j][0] + (angles[j][1] - angles[j][0]) * 0.25);
      expect(rotationDistance(out.boneRotations, (b1 + j) * 4, want, 0)).toBeLessThan(0.006);
      for (let c = 0; c < 3; c++) {
        expect(out.boneOffsets[(b1 + j) * 3 + c]).toBeCloseTo(
          offA[j * 3 + c] + (offB[j * 3 + c] - offA[j * 3 + c]) * 0.25,
          5,
        );
      }
    }
    const r2 = rowOf(out, rec, 2);
    expect(out.boneCount[r2]).toBe(2); // A is nearer
    expect(Array.from(out.boneOffsets.subarray(out.boneStart[r2] * 3, out.boneStart[r2] * 3 + 6))).toEqual(
      offA.slice(0, 6),
    );
    const r3 = rowOf(out, rec, 3);
    expect(out.boneCount[r3]).toBe(1); // only B has bones
    s.sample(0.75, out);
    expect(out.boneCount[r2]).toBe(3); // B is nearer
    expect(Array.from(out.boneOffsets.subarray(out.boneStart[r2] * 3, out.boneStart[r2] * 3 + 9))).toEqual(offB);
    // Bone slots never overlap.
    const used = new Set<number>();
    for (let i = 0; i < out.count; i++) {
      for (let j = 0; j < out.boneCount[i]; j++) {
        expect(used.has(out.boneStart[i] + j)).toBe(false);
        used.add(out.boneStart[i] + j);
      }
    }
    expect(Math.max(...used)).toBeLessThan(out.boneTotal);
  });

  it('interpolates the camera and game time; over-budget bits come from the nearer frame', () => {
    const rec = quietRecorder();
    rec.channels.setBudget(0, 1);
    const qa = axisAngle(0, 0, 1, 0.2);
    const qb = axisAngle(0, 0, 1, 0.6);
    rec.beginFrame(10, 0.5);
    rec.camera(0, 10, 0, ...qa, 1);
    rec.draw.point(0, 0, 0, 0, 1, 0xffffff);
    rec.draw.point(0, 0, 0, 0, 1, 0xffffff); // over budget
    rec.endFrame();
    rec.beginFrame(10.5, 0.5);
    rec.camera(100, 30, 0, ...qb, 3);
    rec.endFrame();
    rec.beginFrame(11, 0.5); // no camera
    rec.endFrame();
    const s = new Sampler(rec.reader);
    const out = new SampleBuffer();
    s.sample(0.25, out);
    expect(out.hasCamera).toBe(true);
    expect(out.camera[0]).toBeCloseTo(25, 4);
    expect(out.camera[1]).toBeCloseTo(15, 4);
    expect(out.camera[7]).toBeCloseTo(1.5, 6);
    expect(rotationDistance(out.camera, 3, axisAngle(0, 0, 1, 0.3), 0)).toBeLessThan(0.006);
    expect(out.time).toBeCloseTo(10.125, 9);
    expect(out.overBudget).toBe(1);
    s.sample(0.75, out);
    expect(out.overBudget).toBe(0);
    s.sample(1.5, out); // only frame 1 has a camera
    expect(out.hasCamera).toBe(true);
    expect(out.camera[0]).toBe(100);
    s.sample(2, out);
    expect(out.hasCamera).toBe(false);
  });

  it('a seek decodes nothing; then caches the two neighbour frames: scrubbing within a pair decodes nothing, playing decodes one frame per crossing', () => {
    const rec = quietRecorder();
    movingWorld(rec, 20, 10);
    const s = new Sampler(rec.reader);
    const out = new SampleBuffer();
    s.sample(3.1, out); // a seek: blended from the ring's words, nothing decoded
    expect(s.decodeCount).toBe(0);
    s.sample(3.3, out); // the same pair again: it is being scrubbed, so both frames are decoded and kept
    const d0 = s.decodeCount;
    expect(d0).toBe(2);
    for (let i = 0; i < 50; i++) s.sample(3 + i / 50, out);
    expect(s.decodeCount).toBe(d0);
    // Forward across frames: one new frame each.
    for (let f = 4; f < 9; f++) {
      s.sample(f + 0.5, out);
      expect(s.decodeCount).toBe(d0 + (f - 3));
    }
    // Backward across frames: one new frame each.
    const d1 = s.decodeCount;
    s.sample(7.5, out);
    expect(s.decodeCount).toBe(d1 + 1);
    s.sample(6.5, out);
    expect(s.decodeCount).toBe(d1 + 2);
    // Integer positions reuse a cached frame.
    s.sample(7, out);
    s.sample(6, out);
    expect(s.decodeCount).toBe(d1 + 2);
  });

  it('clamps to the frames held, returns false when empty or NaN, and recovers after the recorder is cleared', () => {
    const rec = quietRecorder({ maxFrames: 5 });
    const s = new Sampler(rec.reader);
    const out = new SampleBuffer();
    expect(s.sample(0, out)).toBe(false);
    expect(out.count).toBe(0);
    movingWorld(rec, 5, 12);
    expect(s.sample(-3, out)).toBe(true);
    expect(out.frameA).toBe(7);
    expect(out.position).toBe(7);
    expect(s.sample(100, out)).toBe(true);
    expect(out.frameA).toBe(11);
    expect(s.sample(Number.NaN, out)).toBe(false);
    rec.clear();
    expect(s.sample(11, out)).toBe(false);
    rec.beginFrame(0, 1);
    rec.entity(9, 1, 2, 3, 0, 0, 0, 1);
    rec.endFrame();
    expect(s.sample(0, out)).toBe(true);
    expect(out.count).toBe(1);
    expect(out.ids[0]).toBe(9);
    expect(out.indexOfHandle(out.handles[0])).toBe(0);
  });

  it('two samplers can share one output buffer; indexOfHandle follows the rows', () => {
    const rec = quietRecorder();
    movingWorld(rec, 30, 4);
    rec.beginFrame(1, 1);
    for (let id = 100; id < 110; id++) rec.entity(id, id, 0, 0, 0, 0, 0, 1);
    rec.endFrame();
    const s1 = new Sampler(rec.reader);
    const s2 = new Sampler(rec.reader);
    const out = new SampleBuffer();
    s1.sample(1.5, out);
    s2.sample(4, out); // frame 4 holds only ids 100..109
    expect(out.count).toBe(10);
    for (let i = 0; i < out.count; i++) {
      expect(out.ids[i]).toBe(100 + i);
      expect(out.indexOfHandle(out.handles[i])).toBe(i);
    }
    s1.sample(1.5, out);
    expect(out.count).toBe(30);
    for (let i = 0; i < out.count; i++) expect(out.indexOfHandle(out.handles[i])).toBe(i);
    expect(out.indexOfHandle(-1)).toBe(-1);
    expect(out.indexOfHandle(1e9)).toBe(-1);
    const h100 = rec.entities.lookup(100);
    expect(out.indexOfHandle(h100)).toBe(-1);
  });

  it('matches thousands of entities with churn exactly like a brute-force join', () => {
    const rec = quietRecorder({ maxEntitiesPerFrame: 5000 });
    const rand = rng(99);
    for (let f = 0; f < 2; f++) {
      rec.beginFrame(f, 1);
      for (let id = 0; id < 4000; id++) {
        if (rand() < 0.2) continue; // absent from this frame
        const q = randomQuat(rand);
        rec.entity(id, rand() * 100, rand() * 100, 0, ...q);
      }
      rec.endFrame();
    }
    const s = new Sampler(rec.reader);
    const out = new SampleBuffer();
    s.sample(0.5, out);
    const a = new EntityBuffer();
    const b = new EntityBuffer();
    rec.reader.readEntities(0, a);
    rec.reader.readEntities(1, b);
    const inA = new Map<number, number>();
    const inB = new Map<number, number>();
    for (let i = 0; i < a.count; i++) inA.set(a.handles[i], i);
    for (let i = 0; i < b.count; i++) inB.set(b.handles[i], i);
    const all = new Set([...inA.keys(), ...inB.keys()]);
    expect(out.count).toBe(all.size);
    for (const h of all) {
      const k = out.indexOfHandle(h);
      expect(k).toBeGreaterThanOrEqual(0);
      const want = (inA.has(h) ? Presence.ONLY_A : 0) | (inB.has(h) ? Presence.ONLY_B : 0);
      expect(out.presence[k]).toBe(want);
      if (want === Presence.BOTH) {
        const ia = inA.get(h)!;
        const ib = inB.get(h)!;
        expect(out.positions[k * 3]).toBeCloseTo((a.positions[ia * 3] + b.positions[ib * 3]) / 2, 3);
      }
    }
  });
});
