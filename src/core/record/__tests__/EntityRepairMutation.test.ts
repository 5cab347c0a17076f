import { describe, expect, it } from 'vitest';
import { EntityFlags } from '../../format/layout';
import { EntityBuffer } from '../../read/buffers';
import type { Recorder } from '../Recorder';
import { quiet } from './helpers';

/**
 * EntityRepair.ts (issue 20, sixth pass): the repair of a NaN position from the copy of the previous
 * frame that the open frame's reservation evicted (`keepPrevious`, `positionFromSnapshot`), in the two
 * cases the fifth pass left: a new life given the handle of a life that ended in the evicted frame,
 * and a continued life whose row index lies past the copy's rows. Frames are read back; each case
 * names the mutants it kills.
 */

const S = EntityFlags.SANITIZED;

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

function entity(r: Recorder, id: number, x: number, y: number, z: number): void {
  r.entity(id, x, y, z, 0, 0, 0, 1);
}

describe.each([false, true])('EntityRepair: the copy of the evicted previous frame (wasm %s)', (wasm) => {
  // Kills `continued && this.snapshotFrame === prev` → `true` and → `continued || ...` (126:18): id 1
  // is despawned after frame 0, so frame 1's reservation evicts frame 0 and releases id 1's handle 0,
  // which the new life of id 3 then takes; its NaN position must be the origin, not id 1's position
  // read from the copy of frame 0 under the same handle.
  it('a new life on a handle released by the evicted frame starts at the origin', () => {
    const r = quiet({ maxFrames: 1, arenaBytes: 1 << 16, wasm });
    r.beginFrame(0, 1);
    entity(r, 1, 5, 6, 7);
    entity(r, 2, 1, 2, 3);
    r.endFrame();
    const h1 = r.entities.lookup(1);
    r.despawn(1);
    r.beginFrame(1, 1);
    entity(r, 2, 1, 2, 3);
    entity(r, 3, Number.NaN, 8, 9);
    r.endFrame();
    expect(r.reader.frameCount).toBe(1);
    // The premise: the new life reuses the released handle.
    expect(r.entities.lookup(3)).toBe(h1);
    expect(rows(r, 1)).toEqual([
      [2, 1, 2, 3, 0],
      [3, 0, 0, 0, S],
    ]);
  });

  // Kills `hint < n && (s[hint] & HANDLE_MASK) === h` → `true && ...`, `hint <= n`, `hint >= n`
  // (150:13): id 2's row in frame 1 is row 2, past frame 0's two rows, so the hint names no row of
  // the copy; the copy's word 2 is then id 1's x, whose float bits 0x40000001 have id 2's handle (1)
  // in their low 24 bits. Read as a row, it would copy words past the copy's positions.
  it("a continued life whose row is past the copy's rows is found by the search, not the hint", () => {
    const r = quiet({ maxFrames: 1, arenaBytes: 1 << 16, wasm });
    const x1 = new Float32Array(new Uint32Array([0x40000001]).buffer)[0];
    r.beginFrame(0, 1);
    entity(r, 1, x1, 6, 7);
    entity(r, 2, 11, 12, 13);
    r.endFrame();
    expect(r.entities.lookup(2)).toBe(1);
    r.beginFrame(1, 1);
    entity(r, 1, x1, 6, 7);
    entity(r, 4, 20, 21, 22);
    entity(r, 2, Number.NaN, 0, Number.POSITIVE_INFINITY);
    r.endFrame();
    expect(r.reader.frameCount).toBe(1);
    expect(rows(r, 1)).toEqual([
      [1, x1, 6, 7, 0],
      [4, 20, 21, 22, 0],
      [2, 11, 12, 13, S],
    ]);
  });
});
