import { describe, expect, it } from 'vitest';
import { EntityFlags } from '../../format/layout';
import { EntityBuffer, FrameHeader } from '../../read/buffers';
import type { Recorder } from '../Recorder';
import { quiet, warningsOf } from './helpers';

/**
 * EntityRepair through the recorder (issue 20, fifth pass), pinned by the frames read back: a NaN
 * position takes the entity's position in the previous frame (found when the order changed, from
 * the ring or from the copy kept when the new frame evicted it), the origin for a new life; a bad
 * rotation is stored as the identity and flagged on the right row when entries before it were
 * dropped; dropped entries leave no gap (a frame with dropped entries reads back like the frame of
 * the kept entries alone). Each case names the EntityRepair mutants it kills.
 */

interface Row {
  id: number;
  x: number;
  y: number;
  z: number;
  q?: [number, number, number, number];
  flags?: number;
}

function record(r: Recorder, frame: number, rows: Row[]): void {
  r.beginFrame(frame, 1);
  for (const e of rows) {
    const q = e.q ?? [0, 0, Math.sin(e.id / 10), Math.cos(e.id / 10)];
    r.entity(e.id, e.x, e.y, e.z, q[0], q[1], q[2], q[3], e.flags ?? 0);
  }
  r.endFrame();
}

/** The frame's rows as [id, x, y, z, flags]. */
function rows(r: Recorder, frame: number): number[][] {
  const e = new EntityBuffer();
  expect(r.reader.readEntities(frame, e, false)).toBe(true);
  const out: number[][] = [];
  for (let i = 0; i < e.count; i++) {
    out.push([r.entities.ids[e.handles[i]], ...e.positions.subarray(3 * i, 3 * i + 3), e.flags[i]]);
  }
  return out;
}

function entities(r: Recorder, frame: number): EntityBuffer {
  const e = new EntityBuffer();
  expect(r.reader.readEntities(frame, e, false)).toBe(true);
  return e;
}

const S = EntityFlags.SANITIZED;

describe('EntityRepair.position', () => {
  // Kills: `continued && reader.has(prev)` (→ true/false, `&&` → `||`), `prev = frame - 1` (→ +),
  // the hint search's result (`li >= 0 &&` → true), the origin block emptied (stale words stay),
  // the SANITIZED flag (`|=` → `&=`), the counter, the warning's id (`table.ids[h]`).
  it('takes the previous position when the order changed; the origin for a new life, a despawned id or a gap', () => {
    const r = quiet({ maxEntitiesPerFrame: 64, wasm: false });
    const base = (f: number): Row[] =>
      Array.from({ length: 8 }, (_, id) => ({ id, x: 10 * id + f, y: 100 - id, z: f }));
    record(r, 0, base(0));
    r.despawn(6); // id 6's life ends: in frame 1 it is a new life
    // Frame 1: reversed, id 7 missing (its next appearance is a new life), id 20 new.
    const f1 = base(1).slice(0, 7).reverse();
    const nan = Number.NaN;
    f1[1] = { ...f1[1], x: nan }; // id 5
    f1[5] = { ...f1[5], y: Number.POSITIVE_INFINITY, flags: 3 }; // id 1
    f1[0] = { ...f1[0], z: nan }; // id 6: despawned, a new life
    f1.push({ id: 20, x: nan, y: 1, z: 1 });
    record(r, 1, f1);
    expect(rows(r, 1)).toEqual([
      [6, 0, 0, 0, S],
      [5, 50, 95, 0, S],
      [4, 41, 96, 1, 0],
      [3, 31, 97, 1, 0],
      [2, 21, 98, 1, 0],
      [1, 10, 99, 0, 3 | S],
      [0, 1, 100, 1, 0],
      [20, 0, 0, 0, S],
    ]);
    // Frame 2: id 7 back after a gap (a new life) with a NaN position: the origin, not frame 0's.
    record(r, 2, [
      { id: 7, x: nan, y: nan, z: nan },
      { id: 5, x: nan, y: 0, z: 0 },
    ]);
    expect(rows(r, 2)).toEqual([
      [7, 0, 0, 0, S],
      [5, 50, 95, 0, S], // frame 1's repaired position is its last good one
    ]);
    expect(r.stats.invalidPositions).toBe(6);
    const header = new FrameHeader();
    r.reader.readHeader(1, header);
    expect(header.sanitized).toBe(4);
    expect(warningsOf(r).filter((w) => w.includes('NaN or infinite position'))).toEqual([
      'rewindable: entity 6 has a NaN or infinite position; its last good position was stored',
    ]);
  });

  // Kills: positionFromSnapshot's hint test (`(s[hint] & HANDLE_MASK) === h` → true), its search
  // loop (`j < 0 &&` → true, `k < n` → `<=`), the three copied words' indices (`n + j * 3 + 1`...),
  // `return false` when absent → true, keepPrevious's count and copy (`n * 4`), `snapshotFrame === prev`.
  it.each([
    ['a ring of one frame', { maxFrames: 1, arenaBytes: 1 << 16 }, 12],
    // Frames over half the arena: the reservation evicts the previous frame before it resolves, so
    // the positions come from the copy EntityRepair kept (keepPrevious, positionFromSnapshot).
    ['frames over half the arena', { maxFrames: 8, arenaBytes: 2048 }, 60],
  ] as const)('%s: the evicted previous frame still gives positions, whatever the order', (_, options, n) => {
    const r = quiet({ ...options, maxEntitiesPerFrame: 200, wasm: false });
    const at = (id: number, f: number) => [100 * id + f, -3 * id - f, id * 0.25 + f];
    for (let f = 0; f < 5; f++) {
      // Each frame in another order (rotated by f, reversed on odd frames), id 1000 + f new each other frame.
      let ids = Array.from({ length: n }, (_, i) => (i + f * 5) % n);
      if (f % 2 === 1) ids = ids.reverse();
      if (f % 2 === 0) ids.unshift(1000 + f);
      const frame: Row[] = ids.map((id) => {
        const [x, y, z] = at(id, f);
        const bad = f > 0 && (id + f) % 3 === 0;
        return { id, x: bad ? Number.NaN : x, y, z: bad ? Number.NEGATIVE_INFINITY : z };
      });
      record(r, f, frame);
      expect(r.reader.frameCount).toBe(1);
      const want = ids.map((id) => {
        const bad = f > 0 && (id + f) % 3 === 0;
        if (bad && id >= 1000) return [id, 0, 0, 0, S]; // a new life: the origin
        if (!bad) return [id, ...at(id, f), 0];
        // The previous frame's position, itself possibly repaired from the one before.
        let g = f - 1;
        while (g > 0 && (id + g) % 3 === 0) g--;
        return [id, ...at(id, g), S];
      });
      expect(rows(r, f), `frame ${f}`).toEqual(want);
    }
  });

  // Kills: EntityRepair.clear() emptied (the copy of frame 2 would still answer for "frame 2" after
  // the recorder was cleared, whose next frames number from 0 again... the new life never is
  // continued, so the origin is what a cleared recorder stores).
  it('after clear(), a NaN position of a recorded id is the origin', () => {
    const r = quiet({ maxFrames: 1, arenaBytes: 1 << 16, wasm: false });
    for (let f = 0; f < 3; f++) record(r, f, [{ id: 1, x: 5, y: 6, z: 7 }]);
    r.clear();
    for (let f = 0; f < 3; f++) record(r, f, [{ id: 1, x: f === 2 ? Number.NaN : 1, y: 2, z: 3 }]);
    const last = r.reader.newestFrame;
    expect(rows(r, last)).toEqual([[1, 1, 2, 3, S]]);
  });
});

describe('EntityRepair.rotations and compact', () => {
  // Kills: rotations()'s `at < 0 ||` (a dropped duplicate's bad quaternion counted), the SANITIZED
  // bit's word (`base + at` → `base - at`, `base + i`), `count++` removed, the warning's id;
  // compact()'s moves (`k === i` skip, `p + k * 3 + 1`, `r + k`), and both copyWithin calls.
  it('a frame with dropped entries reads back like the frame of its kept entries alone', () => {
    for (const wasm of [false, true]) {
      const zero: [number, number, number, number] = [0, 0, 0, 0];
      const full: Row[] = [
        { id: 0, x: 1, y: 2, z: 3 },
        { id: 1 << 30, x: 9, y: 9, z: 9 }, // out of range
        { id: 1, x: 4, y: 5, z: 6, flags: 1 },
        { id: 1, x: 7, y: 7, z: 7, q: zero }, // duplicate with a bad rotation: dropped, not counted
        { id: 2, x: 8, y: 9, z: 10, q: [Number.NaN, 0, 0, 1] },
        { id: -1, x: 0, y: 0, z: 0 }, // out of range
        { id: 3, x: 11, y: 12, z: 13, q: [0, 0.6, 0, 0.8] },
        { id: 2, x: 0, y: 0, z: 0 }, // duplicate
        { id: 4, x: 14, y: 15, z: 16, q: zero, flags: 2 },
        { id: 5, x: 17, y: 18, z: 19 },
      ];
      const kept = [0, 2, 4, 6, 8, 9].map((i) => full[i]);
      const a = quiet({ maxEntitiesPerFrame: 16, wasm });
      const b = quiet({ maxEntitiesPerFrame: 16, wasm });
      for (let f = 0; f < 3; f++) {
        // Frame 1 holds the drops; frames 0 and 2 are the kept entries (the handles match).
        record(a, f, f === 1 ? full : kept);
        record(b, f, kept);
      }
      const ea = entities(a, 1);
      const eb = entities(b, 1);
      expect(ea.count).toBe(6);
      expect(Array.from(ea.positions.subarray(0, 18))).toEqual(Array.from(eb.positions.subarray(0, 18)));
      expect(Array.from(ea.rotations.subarray(0, 24))).toEqual(Array.from(eb.rotations.subarray(0, 24)));
      expect(Array.from(ea.flags.subarray(0, 6))).toEqual([0, 1, S, 0, 2 | S, 0]);
      expect(Array.from(ea.flags.subarray(0, 6))).toEqual(Array.from(eb.flags.subarray(0, 6)));
      // The identity for both bad rotations.
      expect(Array.from(ea.rotations.subarray(8, 12))).toEqual([0, 0, 0, 1]);
      expect(Array.from(ea.rotations.subarray(16, 20))).toEqual([0, 0, 0, 1]);
      expect(a.stats.invalidRotations).toBe(6); // 2 a frame: the dropped duplicate's is not counted
      expect(a.stats.duplicateIds).toBe(2);
      expect(a.stats.idsOutOfRange).toBe(2);
      expect(warningsOf(a).filter((w) => w.includes('quaternion'))).toEqual([
        'rewindable: entity 2 has a quaternion that cannot be encoded (zero, NaN, infinite, or a norm below about 1e-10 or above about 1e10); the identity was stored',
      ]);
      const h = new FrameHeader();
      a.reader.readHeader(1, h);
      expect([h.sanitized, h.droppedEntities]).toEqual([2, 4]);
    }
  });

  // Kills: rotations()'s `base >= 0` → true and position()'s `at >= 0` → true: a frame cut to its
  // header (base and at are -1) must not write the SANITIZED bit or a position into the arena words
  // before it, which hold the frame stored at word 0.
  it('a frame cut to its header repairs nothing into the arena', () => {
    const r = quiet({ maxFrames: 8, arenaBytes: 1024, maxEntitiesPerFrame: 200, wasm: false });
    record(r, 0, [
      { id: 0, x: 1, y: 2, z: 3 },
      { id: 1, x: 4, y: 5, z: 6 },
    ]);
    const before = Array.from(r.ring.u32.subarray(0, 32));
    const big: Row[] = Array.from({ length: 60 }, (_, id) => ({
      id,
      x: id < 2 ? Number.NaN : id,
      y: 0,
      z: 0,
      q: id < 8 ? [0, 0, 0, 0] : undefined,
    }));
    record(r, 1, big);
    const h = new FrameHeader();
    r.reader.readHeader(1, h);
    expect(h.truncated).toBe(true);
    expect(Array.from(r.ring.u32.subarray(0, 32))).toEqual(before);
    expect(rows(r, 0)).toEqual([
      [0, 1, 2, 3, 0],
      [1, 4, 5, 6, 0],
    ]);
  });
});
