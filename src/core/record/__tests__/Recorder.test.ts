import { describe, expect, it } from 'vitest';
import { EntityFlags } from '../../format/layout';
import { EntityBuffer, EventBuffer, FrameHeader } from '../../read/buffers';
import { Channel } from '../../store/ChannelRegistry';
import { arenaBytesFor } from '../RecorderOptions';
import { quiet, warningsOf } from './helpers';

describe('Recorder: entities', () => {
  it('stores positions bit-exactly and flags, with the frame header', () => {
    const r = quiet();
    const xs = [0.1, -123456.789, 3.4028234663852886e38, 1.401298464324817e-45, -0, 42];
    r.beginFrame(1.5, 1 / 60);
    xs.forEach((x, i) => r.entity(1000 + i * 7, x, x / 2, -x, 0, 0, 0, 1, i));
    r.endFrame();
    const h = new FrameHeader();
    const e = new EntityBuffer();
    expect(r.reader.readHeader(0, h)).toBe(true);
    expect(h.frame).toBe(0);
    expect(h.time).toBe(1.5);
    expect(h.dt).toBe(Math.fround(1 / 60));
    expect(h.entityCount).toBe(xs.length);
    expect(r.reader.readEntities(0, e)).toBe(true);
    xs.forEach((x, i) => {
      expect(e.positions[i * 3]).toBe(Math.fround(x));
      expect(e.positions[i * 3 + 1]).toBe(Math.fround(x / 2));
      expect(e.positions[i * 3 + 2]).toBe(Math.fround(-x));
      expect(e.flags[i]).toBe(i);
      expect(r.entities.ids[e.handles[i]]).toBe(1000 + i * 7);
    });
  });

  it('keeps one unique id across frames and gives a reused id a new one', () => {
    const r = quiet();
    const e = new EntityBuffer();
    for (let f = 0; f < 3; f++) {
      r.beginFrame(f, 1);
      r.entity(5, f, 0, 0, 0, 0, 0, 1);
      r.endFrame();
    }
    r.reader.readEntities(0, e);
    const first = e.handles[0];
    r.reader.readEntities(2, e);
    expect(e.handles[0]).toBe(first);
    expect(r.entities.spawnFrames[first]).toBe(0);
    // Gap: absent in frame 3, back in frame 4 → new life.
    r.beginFrame(3, 1);
    r.endFrame();
    r.beginFrame(4, 1);
    r.entity(5, 0, 0, 0, 0, 0, 0, 1);
    r.endFrame();
    r.reader.readEntities(4, e);
    expect(e.handles[0]).not.toBe(first);
    expect(r.entities.spawnFrames[e.handles[0]]).toBe(4);
    // despawn() then recorded next frame → new life even without a gap.
    const second = e.handles[0];
    r.despawn(5);
    r.beginFrame(5, 1);
    r.entity(5, 0, 0, 0, 0, 0, 0, 1);
    r.endFrame();
    r.reader.readEntities(5, e);
    expect(e.handles[0]).not.toBe(second);
    expect(r.entities.spawnFrames[e.handles[0]]).toBe(5);
    expect(r.entities.ids[e.handles[0]]).toBe(5);
  });

  it('records metadata once per life: kind and label, also when described before the entity', () => {
    const r = quiet();
    r.describe(9, 'projectile', 'bolt #9'); // before it exists: pending
    r.beginFrame(0, 1);
    r.entity(9, 0, 0, 0, 0, 0, 0, 1);
    r.entity(3, 0, 0, 0, 0, 0, 0, 1);
    r.describe(3, 'crate', 'crate A');
    r.endFrame();
    const h9 = r.entities.lookup(9);
    const h3 = r.entities.lookup(3);
    expect(r.entities.kinds[r.entities.kindOf[h9]]).toBe('projectile');
    expect(r.entities.labels[h9]).toBe('bolt #9');
    expect(r.entities.kinds[r.entities.kindOf[h3]]).toBe('crate');
    expect(r.entities.labels[h3]).toBe('crate A');
  });

  it('recycles handles only after every frame that mentions them is evicted', () => {
    const r = quiet({ maxFrames: 5 });
    const seen = new Map<number, number>(); // handle -> last frame it appeared
    const e = new EntityBuffer();
    for (let f = 0; f < 200; f++) {
      r.beginFrame(f, 1);
      // Each id lives 3 frames; a new id every frame.
      for (let id = Math.max(0, f - 2); id <= f; id++) r.entity(id, id, 0, 0, 0, 0, 0, 1);
      r.endFrame();
      // Every handle in a held frame maps back to exactly one (id, spawn) pair.
      for (let g = r.reader.oldestFrame; g <= r.reader.newestFrame; g++) {
        r.reader.readEntities(g, e);
        for (let i = 0; i < e.count; i++) {
          const h = e.handles[i];
          const id = r.entities.ids[h];
          expect(e.positions[i * 3]).toBe(id); // the handle still names the right entity
          expect(r.entities.spawnFrames[h]).toBe(id);
          seen.set(h, g);
        }
      }
    }
    // Handles stay bounded: 3 alive per frame over a 5-frame window plus the death FIFO lag.
    expect(r.entities.highWater).toBeLessThan(16);
    expect(r.entities.liveCount).toBeLessThan(12);
  });

  it('repairs NaN/infinite positions from the last good one and flags them', () => {
    const r = quiet();
    r.beginFrame(0, 1);
    r.entity(1, 10, 20, 30, 0, 0, 0, 1);
    r.entity(2, NaN, 0, 0, 0, 0, 0, 1); // no history: stored at the origin
    r.endFrame();
    r.beginFrame(1, 1);
    r.entity(1, Infinity, 5, 5, 0, 0, 0, 1);
    r.entity(2, 1, NaN, 1, 0, 0, 0, 1);
    r.endFrame();
    const e = new EntityBuffer();
    r.reader.readEntities(0, e);
    expect(Array.from(e.positions.subarray(3, 6))).toEqual([0, 0, 0]);
    expect(e.flags[1] & EntityFlags.SANITIZED).toBeTruthy();
    expect(e.flags[0] & EntityFlags.SANITIZED).toBe(0);
    r.reader.readEntities(1, e);
    expect(Array.from(e.positions.subarray(0, 3))).toEqual([10, 20, 30]);
    expect(Array.from(e.positions.subarray(3, 6))).toEqual([0, 0, 0]);
    expect(e.flags[0] & EntityFlags.SANITIZED).toBeTruthy();
    expect(r.stats.invalidPositions).toBe(3);
    const h = new FrameHeader();
    r.reader.readHeader(1, h);
    expect(h.sanitized).toBe(2);
    expect(warningsOf(r).some((w) => w.includes('NaN'))).toBe(true);
  });

  it('stores the identity for zero/non-finite quaternions and normalises others', () => {
    const r = quiet();
    r.beginFrame(0, 1);
    r.entity(1, 0, 0, 0, 0, 0, 0, 0);
    r.entity(2, 0, 0, 0, 0, 0, 3, 4); // length 5 → (0, 0, .6, .8)
    r.endFrame();
    const e = new EntityBuffer();
    r.reader.readEntities(0, e);
    expect(Array.from(e.rotations.subarray(0, 4))).toEqual([0, 0, 0, 1]);
    expect(e.flags[0] & EntityFlags.SANITIZED).toBeTruthy();
    expect(e.rotations[6]).toBeCloseTo(0.6, 2);
    expect(e.rotations[7]).toBeCloseTo(0.8, 2);
    expect(r.stats.invalidRotations).toBe(1);
  });

  it('drops ids out of range, duplicates and over-capacity entities, counting each', () => {
    const r = quiet({ maxEntitiesPerFrame: 3, maxEntityId: 100 });
    r.beginFrame(0, 1);
    r.entity(-1, 0, 0, 0, 0, 0, 0, 1);
    r.entity(100, 0, 0, 0, 0, 0, 0, 1);
    r.entity(1.5, 0, 0, 0, 0, 0, 0, 1);
    r.entity(NaN, 0, 0, 0, 0, 0, 0, 1);
    r.entity(1, 0, 0, 0, 0, 0, 0, 1);
    r.entity(1, 9, 9, 9, 0, 0, 0, 1); // duplicate: first kept
    r.entity(2, 0, 0, 0, 0, 0, 0, 1);
    r.entity(3, 0, 0, 0, 0, 0, 0, 1); // over capacity: three calls were accepted (duplicates count)
    r.entity(4, 0, 0, 0, 0, 0, 0, 1); // over capacity
    r.endFrame();
    expect(r.stats.idsOutOfRange).toBe(4);
    expect(r.stats.duplicateIds).toBe(1);
    expect(r.stats.entitiesOverCapacity).toBe(2);
    const h = new FrameHeader();
    r.reader.readHeader(0, h);
    expect(h.entityCount).toBe(2);
    expect(h.droppedEntities).toBe(7);
    const e = new EntityBuffer();
    r.reader.readEntities(0, e);
    expect(e.positions[0]).toBe(0);
  });

  it('ignores calls outside a begin/end pair and closes an unbalanced frame', () => {
    const r = quiet();
    r.entity(1, 0, 0, 0, 0, 0, 0, 1);
    r.draw.line(Channel.AI, 0, 0, 0, 1, 1, 1, 0xffffff);
    r.camera(0, 0, 0, 0, 0, 0, 1, 1);
    r.endFrame();
    expect(r.stats.callsOutsideFrame).toBe(4);
    expect(r.reader.frameCount).toBe(0);
    r.beginFrame(0, 1);
    r.entity(1, 0, 0, 0, 0, 0, 0, 1);
    r.beginFrame(1, 1); // closes frame 0 first
    r.endFrame();
    expect(r.stats.unbalancedFrames).toBe(1);
    expect(r.reader.frameCount).toBe(2);
    expect(r.reader.entityCountOf(0)).toBe(1);
    expect(warningsOf(r).length).toBeGreaterThan(0);
  });

  it('keeps only the header of a frame larger than the whole arena, and flags it', () => {
    const r = quiet({ arenaBytes: 4096, maxEntitiesPerFrame: 1000 });
    r.beginFrame(0, 1);
    r.entity(1, 1, 2, 3, 0, 0, 0, 1);
    r.endFrame();
    r.beginFrame(1, 1);
    for (let i = 0; i < 500; i++) r.entity(i, i, 0, 0, 0, 0, 0, 1); // 10 kB > 4 kB
    r.endFrame();
    const h = new FrameHeader();
    expect(r.reader.readHeader(1, h)).toBe(true);
    expect(h.truncated).toBe(true);
    expect(h.entityCount).toBe(0);
    expect(h.droppedEntities).toBe(500);
    expect(r.stats.framesTruncated).toBe(1);
    // The earlier frame was not sacrificed for a frame that could never fit... unless space was needed for the header.
    expect(r.reader.has(0)).toBe(true);
    r.beginFrame(2, 1);
    r.entity(1, 7, 7, 7, 0, 0, 0, 1);
    r.endFrame();
    expect(r.reader.entityCountOf(2)).toBe(1);
  });

  it('records the camera, with its zoom, and marks frames without one', () => {
    const r = quiet();
    r.beginFrame(0, 1);
    r.camera(100, 200, 0, 0, 0, Math.sin(0.25), Math.cos(0.25), 2);
    r.endFrame();
    r.beginFrame(1, 1);
    r.endFrame();
    const h = new FrameHeader();
    r.reader.readHeader(0, h);
    expect(h.hasCamera).toBe(true);
    expect(h.camera[0]).toBe(100);
    expect(h.camera[1]).toBe(200);
    expect(h.camera[5]).toBeCloseTo(Math.sin(0.25), 2);
    expect(h.camera[7]).toBe(2);
    r.reader.readHeader(1, h);
    expect(h.hasCamera).toBe(false);
    expect(h.camera[6]).toBe(1);
  });

  it('records bones only while enabled, and drops bones that do not follow their entity', () => {
    const r = quiet();
    const rot = new Float32Array([0, 0, 0, 1, 0, 0, Math.SQRT1_2, Math.SQRT1_2]);
    const off = new Float32Array([0, 0, 0, 0, 10, 0]);
    r.beginFrame(0, 1);
    r.entity(1, 0, 0, 0, 0, 0, 0, 1);
    r.bones(1, 2, rot, off);
    r.entity(2, 0, 0, 0, 0, 0, 0, 1);
    r.bones(1, 2, rot, off); // follows entity 2: dropped
    r.endFrame();
    const e = new EntityBuffer();
    r.reader.readEntities(0, e);
    expect(e.boneStart[0]).toBe(0);
    expect(e.boneCount[0]).toBe(2);
    expect(e.boneStart[1]).toBe(-1);
    expect(e.boneRotations[6]).toBeCloseTo(Math.SQRT1_2, 2);
    expect(e.boneOffsets[4]).toBe(10);
    expect(r.stats.bonesDropped).toBe(1);
    const withBones = r.ring.wordsOf(0);
    r.bonesEnabled = false;
    r.beginFrame(1, 1);
    r.entity(1, 0, 0, 0, 0, 0, 0, 1);
    r.bones(1, 2, rot, off);
    r.entity(2, 0, 0, 0, 0, 0, 0, 1);
    r.endFrame();
    r.reader.readEntities(1, e);
    expect(e.boneStart[0]).toBe(-1);
    expect(r.ring.wordsOf(1)).toBeLessThan(withBones);
    expect(r.stats.bonesDropped).toBe(1);
  });

  it('records events with interned kinds', () => {
    const r = quiet();
    r.beginFrame(0, 1);
    r.event('explosion-start', 7, 1, 2, 3, 0.5);
    r.event(r.eventKind('hit'), -1, 0, 0, 0);
    r.endFrame();
    const ev = new EventBuffer();
    r.reader.readEvents(0, ev);
    expect(ev.count).toBe(2);
    expect(r.eventKinds[ev.kinds[0]]).toBe('explosion-start');
    expect(ev.subjects[0]).toBe(7);
    expect(Array.from(ev.data.subarray(0, 4))).toEqual([1, 2, 3, 0.5]);
    expect(r.eventKinds[ev.kinds[1]]).toBe('hit');
    expect(ev.subjects[1]).toBe(0xffffffff);
  });
});

describe('Recorder: memory', () => {
  it('evicts the oldest frames by count and by bytes ("out of film")', () => {
    const byCount = quiet({ maxFrames: 30 });
    const byBytes = quiet({ maxFrames: 900, arenaBytes: 64 * 1024 });
    for (const r of [byCount, byBytes]) {
      for (let f = 0; f < 2000; f++) {
        r.beginFrame(f / 30, 1 / 30);
        for (let i = 0; i < 50; i++) r.entity(i * 13, f + i, i, 0, 0, 0, Math.sin(f * 0.01), Math.cos(f * 0.01));
        r.endFrame();
      }
      expect(r.reader.newestFrame).toBe(1999);
      const e = new EntityBuffer();
      r.reader.readEntities(r.reader.oldestFrame, e);
      expect(e.count).toBe(50);
      expect(e.positions[0]).toBe(r.reader.oldestFrame);
    }
    expect(byCount.reader.frameCount).toBe(30);
    expect(byBytes.reader.frameCount).toBeLessThan(70);
    expect(byBytes.reader.frameCount).toBeGreaterThan(50);
    expect(byBytes.ring.bytesUsed).toBeLessThanOrEqual(64 * 1024);
  });

  it('a 900-frame ring of 1,000 entities stays under 19 MB at ≤ 21 bytes per entity per frame', () => {
    expect(arenaBytesFor(1000, 900)).toBeLessThan(19 * 1000 * 1000);
    const r = quiet({ arenaBytes: arenaBytesFor(1000, 900) });
    for (let f = 0; f < 950; f++) {
      r.beginFrame(f, 1 / 30);
      for (let i = 0; i < 1000; i++) r.entity(i * 31 + 7, i, f, 0, 0, 0, 0, 1, i & 3);
      r.endFrame();
    }
    expect(r.reader.frameCount).toBe(900);
    expect(r.ring.bytesUsed / (900 * 1000)).toBeLessThanOrEqual(21);
  });

  it('entityBatch() records from flat arrays like entity() does', () => {
    const a = quiet();
    const b = quiet();
    const ids = [4, 9, 4, -1, 12];
    const pos = [1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, NaN, 1, 1];
    const rot = [0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0];
    const fl = [1, 2, 3, 4, 5];
    a.beginFrame(0, 1);
    a.entityBatch(5, ids, pos, rot, fl);
    a.endFrame();
    b.beginFrame(0, 1);
    for (let i = 0; i < 5; i++)
      b.entity(
        ids[i],
        pos[i * 3],
        pos[i * 3 + 1],
        pos[i * 3 + 2],
        rot[i * 4],
        rot[i * 4 + 1],
        rot[i * 4 + 2],
        rot[i * 4 + 3],
        fl[i],
      );
    b.endFrame();
    expect(a.ring.wordsOf(0)).toBe(b.ring.wordsOf(0));
    const wa = a.ring.u32.subarray(a.ring.offsetOf(0), a.ring.offsetOf(0) + a.ring.wordsOf(0));
    const wb = b.ring.u32.subarray(b.ring.offsetOf(0), b.ring.offsetOf(0) + b.ring.wordsOf(0));
    expect(Array.from(wa)).toEqual(Array.from(wb));
    expect(a.reader.entityCountOf(0)).toBe(3); // 4, 9 and 12; the duplicate 4 and the id -1 dropped
    expect(a.stats.duplicateIds).toBe(1);
    expect(a.stats.idsOutOfRange).toBe(1);
    expect(a.stats.invalidPositions).toBe(1);
    expect(a.stats.invalidRotations).toBe(1);
  });

  it('bones() may follow the last entity of entityBatch() and of entityColumns() over plain arrays', () => {
    const r = quiet();
    const rot = new Float32Array([0, 0, 0, 1, 0, 0, 0.6, 0.8]);
    const off = new Float32Array([1, 2, 3, 4, 5, 6]);
    r.beginFrame(0, 1);
    r.entityBatch(2, [10, 11], [0, 0, 0, 1, 1, 1], [0, 0, 0, 1, 0, 0, 0, 1]);
    r.bones(11, 2, rot, off); // 11 was the batch's last entity
    // Plain arrays take entityColumns' per-entry path.
    r.entityColumns(2, {
      ids: [20, 21],
      x: [0, 1],
      y: [0, 1],
      z: [0, 1],
      qx: [0, 0],
      qy: [0, 0],
      qz: [0, 0],
      qw: [1, 1],
    });
    r.bones(21, 2, rot, off);
    r.bones(20, 2, rot, off); // not the last one: dropped
    r.endFrame();
    expect(r.stats.bonesDropped).toBe(1);
    const e = new EntityBuffer();
    r.reader.readEntities(0, e, true);
    const row = (id: number): number =>
      Array.from(e.handles.subarray(0, e.count)).findIndex((h) => r.entities.ids[h] === id);
    for (const id of [11, 21]) {
      const i = row(id);
      expect(e.boneCount[i]).toBe(2);
      expect(Array.from(e.boneOffsets.subarray(e.boneStart[i] * 3, e.boneStart[i] * 3 + 6))).toEqual([
        1, 2, 3, 4, 5, 6,
      ]);
    }
    expect(e.boneStart[row(10)]).toBe(-1);
    expect(e.boneStart[row(20)]).toBe(-1);
  });

  it('entityBatch() refuses bad ids and entries past the capacity like entity() does, frame by frame', () => {
    // 10 entries, room for 6: 4, 9, the duplicate 4, 12, 7 and 8 are staged; -1, 1.5 and NaN are
    // refused as bad ids, 20 as over capacity. The order of refusals and stagings is kept.
    const ids = [4, 9, 4, -1, 12, 1.5, NaN, 7, 8, 20];
    const n = ids.length;
    const pos = Array.from({ length: n * 3 }, (_, k) => k * 0.5);
    const rot = Array.from({ length: n * 4 }, (_, k) => (k % 4 === 3 ? 1 : 0.1 * (k % 3)));
    const fl = Array.from({ length: n }, (_, k) => k);
    const a = quiet({ maxEntitiesPerFrame: 6 });
    const b = quiet({ maxEntitiesPerFrame: 6 });
    for (let f = 0; f < 3; f++) {
      a.beginFrame(f, 1);
      a.entityBatch(n, ids, pos, rot, fl);
      a.endFrame();
      b.beginFrame(f, 1);
      for (let i = 0; i < n; i++) {
        b.entity(
          ids[i],
          pos[i * 3],
          pos[i * 3 + 1],
          pos[i * 3 + 2],
          rot[i * 4],
          rot[i * 4 + 1],
          rot[i * 4 + 2],
          rot[i * 4 + 3],
          fl[i],
        );
      }
      b.endFrame();
      const wa = a.ring.u32.subarray(a.ring.offsetOf(f), a.ring.offsetOf(f) + a.ring.wordsOf(f));
      const wb = b.ring.u32.subarray(b.ring.offsetOf(f), b.ring.offsetOf(f) + b.ring.wordsOf(f));
      expect(Array.from(wa)).toEqual(Array.from(wb));
      expect(a.reader.entityCountOf(f)).toBe(5); // 4, 9, 12, 7, 8
    }
    expect(a.stats.idsOutOfRange).toBe(9);
    expect(a.stats.entitiesOverCapacity).toBe(3);
    expect({ ...a.stats }).toEqual({ ...b.stats });
  });
});
