import { describe, expect, it } from 'vitest';
import { EntityFlags } from '../../format/layout';
import { EntityBuffer } from '../../read/buffers';
import type { EntityColumns } from '../EntityColumns';
import type { Recorder } from '../Recorder';
import { quiet } from './helpers';

/** The words of held frame `f`. */
function frameWords(r: Recorder, f: number): number[] {
  const at = r.ring.offsetOf(f);
  return Array.from(r.ring.u32.subarray(at, at + r.ring.wordsOf(f)));
}

/** A frame of awkward input: a duplicate, a bad id, NaN/∞ positions, zero/NaN/unnormalised quaternions. */
function awkward(f: number): EntityColumns & { count: number } {
  const ids = [7, 3, 7, 11, -2, 20 + (f % 3), 5, 9, 40];
  const n = ids.length;
  const c = {
    count: n,
    ids: Int32Array.from(ids),
    x: new Float32Array(n),
    y: new Float32Array(n),
    z: new Float32Array(n),
    qx: new Float32Array(n),
    qy: new Float32Array(n),
    qz: new Float32Array(n),
    qw: new Float32Array(n),
    flags: new Uint8Array(n),
  };
  for (let i = 0; i < n; i++) {
    c.x[i] = i * 10 + f;
    c.y[i] = -i - f * 0.5;
    c.z[i] = i * 0.25;
    const a = 0.37 * i + 0.11 * f;
    c.qx[i] = Math.sin(a) * 0.5;
    c.qy[i] = Math.cos(a * 1.7) * 0.5;
    c.qz[i] = Math.sin(a * 0.3) * 0.5;
    c.qw[i] = 0.5;
    c.flags[i] = (i * 5 + f) & 0x7c;
  }
  c.x[3] = NaN; // id 11: repaired from its previous position (or the origin)
  c.y[6] = Infinity; // id 5
  c.qx[1] = 0;
  c.qy[1] = 0;
  c.qz[1] = 0;
  c.qw[1] = 0; // id 3: zero quaternion
  c.qw[7] = NaN; // id 9
  c.qx[8] *= 3;
  c.qy[8] *= 3;
  c.qz[8] *= 3;
  c.qw[8] *= 3; // id 40: not normalised
  return c;
}

describe('Recorder: entityColumns and the kernel', () => {
  it('entityColumns stores exactly what entity() calls store, bad input included', () => {
    const a = quiet();
    const b = quiet();
    for (let f = 0; f < 6; f++) {
      const c = awkward(f);
      a.beginFrame(f, 1);
      a.entityColumns(c.count, c);
      a.endFrame();
      b.beginFrame(f, 1);
      for (let i = 0; i < c.count; i++) {
        b.entity(c.ids[i], c.x[i], c.y[i], c.z[i], c.qx[i], c.qy[i], c.qz[i], c.qw[i], c.flags![i]);
      }
      b.endFrame();
      expect(frameWords(a, f)).toEqual(frameWords(b, f));
    }
    expect(a.stats.duplicateIds).toBe(6);
    expect(a.stats.idsOutOfRange).toBe(6);
    expect(a.stats.invalidPositions).toBe(12);
    expect(a.stats.invalidRotations).toBe(12);
    expect({ ...a.stats }).toEqual({ ...b.stats });
  });

  it('keeps the right position, rotation and flags for each kept entity when dropped ones leave gaps', () => {
    const r = quiet();
    const c = awkward(0);
    r.beginFrame(0, 1);
    r.entityColumns(c.count, c);
    r.endFrame();
    const e = new EntityBuffer();
    r.reader.readEntities(0, e);
    // Kept, in order: inputs 0 (7), 1 (3), 3 (11), 5 (20), 6 (5), 7 (9), 8 (40); input 2 is a duplicate, 4 a bad id.
    const kept = [0, 1, 3, 5, 6, 7, 8];
    expect(e.count).toBe(kept.length);
    expect(Array.from(e.handles.subarray(0, e.count)).map((h) => r.entities.ids[h])).toEqual([7, 3, 11, 20, 5, 9, 40]);
    kept.forEach((i, k) => {
      const repairedPos = i === 3 || i === 6; // no history in frame 0: the origin
      expect(Array.from(e.positions.subarray(k * 3, k * 3 + 3))).toEqual(
        repairedPos ? [0, 0, 0] : [c.x[i], c.y[i], c.z[i]],
      );
      const badRot = i === 1 || i === 7;
      expect(e.flags[k] & EntityFlags.SANITIZED ? 1 : 0).toBe(repairedPos || badRot ? 1 : 0);
      expect(e.flags[k] & 0x7c).toBe(c.flags![i]);
      if (badRot) {
        expect(Array.from(e.rotations.subarray(k * 4, k * 4 + 4))).toEqual([0, 0, 0, 1]);
      } else {
        const len = Math.hypot(c.qx[i], c.qy[i], c.qz[i], c.qw[i]);
        const dot = Math.abs(
          (e.rotations[k * 4] * c.qx[i] +
            e.rotations[k * 4 + 1] * c.qy[i] +
            e.rotations[k * 4 + 2] * c.qz[i] +
            e.rotations[k * 4 + 3] * c.qw[i]) /
            len,
        );
        expect((2 * Math.acos(Math.min(1, dot)) * 180) / Math.PI).toBeLessThan(0.2);
      }
    });
  });

  it('stores the same bytes with the WebAssembly kernel and with the JavaScript encoder, ring wrapping', () => {
    const wasm = quiet({ maxFrames: 16, arenaBytes: 8192 });
    const js = quiet({ maxFrames: 16, arenaBytes: 8192, wasm: false });
    expect(wasm.backend).toBe('wasm-simd');
    expect(js.backend).toBe('js');
    const n = 37; // not a multiple of the kernel's 4 lanes
    const ids = new Int32Array(n);
    const pos = new Float32Array(n * 3);
    const rot = new Float32Array(n * 4);
    const flags = new Uint8Array(n);
    for (let f = 0; f < 200; f++) {
      for (let i = 0; i < n; i++) {
        ids[i] = (i * 13 + (f >> 2)) % 300;
        pos[i * 3] = Math.sin(i + f) * 100;
        pos[i * 3 + 1] = f;
        pos[i * 3 + 2] = i % 7 === 0 && f % 5 === 0 ? NaN : i;
        const a = i * 0.7 + f * 0.05;
        rot[i * 4] = Math.cos(a * 1.3);
        rot[i * 4 + 1] = Math.sin(a);
        rot[i * 4 + 2] = Math.cos(a * 0.4);
        rot[i * 4 + 3] = i === 5 && f % 3 === 0 ? 0 : Math.sin(a * 2.1);
        // Every user flag bit (the top one is SANITIZED), so a flag landing in the wrong bits of the handle word shows.
        flags[i] = (i * 29 + f * 7) & 0x7f;
      }
      for (const r of [wasm, js]) {
        r.beginFrame(f, 1);
        // Every 3rd frame: an early duplicate (the runs then write at shifted places) and, every
        // 4th, a despawn in the middle of the list (a run stops before it, the life restarts).
        if (f % 3 === 0) r.entity(ids[n - 1], 1, 2, 3, 0, 0, 0, 1, 1);
        r.entityBatch(17, ids, pos, rot, flags);
        if (f % 4 === 1) r.despawn(ids[17]);
        r.entityBatch(n - 17, ids.subarray(17), pos.subarray(51), rot.subarray(68), flags.subarray(17));
        r.endFrame();
      }
      expect(frameWords(wasm, f)).toEqual(frameWords(js, f));
    }
    expect(wasm.stats.framesEvicted).toBeGreaterThan(100);
    expect({ ...wasm.stats }).toEqual({ ...js.stats });
  });

  it('counts entityColumns outside a frame once per call, and refuses bad ids one by one', () => {
    const r = quiet({ maxEntityId: 50 });
    const c = awkward(0);
    r.entityColumns(c.count, c);
    expect(r.stats.callsOutsideFrame).toBe(1);
    r.beginFrame(0, 1);
    r.entityColumns(c.count, { ...c, ids: [1, 2, 60, 3, 1.5, 4, 5, 6, 49], flags: undefined });
    r.endFrame();
    expect(r.stats.idsOutOfRange).toBe(2);
    expect(r.reader.entityCountOf(0)).toBe(7);
    const e = new EntityBuffer();
    r.reader.readEntities(0, e);
    expect(e.flags[0]).toBe(0);
  });
});

describe('Recorder: resolving ids to lives', () => {
  /** Unique ids (numeric id, spawn frame) of the entities held in frame `f`. */
  function lives(r: Recorder, f: number): string[] {
    const e = new EntityBuffer();
    r.reader.readEntities(f, e);
    return Array.from(e.handles.subarray(0, e.count)).map((h) => `${r.entities.ids[h]}@${r.entities.spawnFrames[h]}`);
  }

  it('continues, restarts and drops lives the same whatever the order of the entities', () => {
    const r = quiet();
    const frame = (f: number, ids: number[], despawnFirst: number[] = [], despawnAfter = -1): void => {
      r.beginFrame(f, 1);
      for (const id of despawnFirst) r.despawn(id);
      ids.forEach((id, i) => {
        r.entity(id, i, f, 0, 0, 0, 0, 1);
        if (i === despawnAfter) r.despawn(id);
      });
      r.endFrame();
    };
    frame(0, [1, 2, 3, 4]);
    frame(1, [1, 2, 3, 4]); // same order
    frame(2, [4, 3, 2, 1]); // reversed
    frame(3, [4, 3, 3, 1], [2]); // 2 despawned and gone, 3 twice (the second dropped)
    frame(4, [4, 5, 3, 1], [], 0); // 4 recorded then despawned in the same frame
    frame(5, [4, 5, 3, 1, 2]); // 4 and 2 come back: new lives
    frame(6, [4, 4, 5], [], 0); // 4 recorded, despawned, recorded again: a new life in the same frame
    expect(lives(r, 1)).toEqual(['1@0', '2@0', '3@0', '4@0']);
    expect(lives(r, 2)).toEqual(['4@0', '3@0', '2@0', '1@0']);
    expect(lives(r, 3)).toEqual(['4@0', '3@0', '1@0']);
    expect(lives(r, 4)).toEqual(['4@0', '5@4', '3@0', '1@0']);
    expect(lives(r, 5)).toEqual(['4@5', '5@4', '3@0', '1@0', '2@5']);
    expect(lives(r, 6)).toEqual(['4@5', '4@6', '5@4']);
    expect(r.stats.duplicateIds).toBe(1);
  });

  it('keeps lives right when the handle table grows in the middle of a frame', () => {
    // 64 new lives a frame, each living one frame, 30 frames held: far more handles than the table
    // starts with, so it grows (its arrays are replaced) while a frame is being resolved.
    const r = quiet({ maxEntitiesPerFrame: 64, maxFrames: 30, arenaBytes: 1 << 20 });
    const startCapacity = r.entities.capacity;
    for (let f = 0; f < 40; f++) {
      r.beginFrame(f, 1);
      for (let i = 0; i < 63; i++) r.entity(f * 63 + i, i, f, 0, 0, 0, 0, 1);
      r.entity(100000, f, 0, 0, 0, 0, 0, 1); // one long life throughout, resolved after the growth
      r.endFrame();
    }
    expect(r.entities.capacity).toBeGreaterThan(startCapacity);
    for (let f = 10; f < 40; f++) {
      const l = lives(r, f);
      expect(l.length).toBe(64);
      expect(l[63]).toBe('100000@0');
      for (let i = 0; i < 63; i++) expect(l[i]).toBe(`${f * 63 + i}@${f}`);
    }
    expect(r.stats.duplicateIds).toBe(0);
  });
});
