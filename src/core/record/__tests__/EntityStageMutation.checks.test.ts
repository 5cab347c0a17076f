import { describe, expect, it } from 'vitest';
import { EntityBuffer } from '../../read/buffers';
import type { EntityColumns } from '../EntityColumns';
import type { EntityStage } from '../EntityStage';
import type { Recorder } from '../Recorder';
import { quiet, warningsOf } from './helpers';

/**
 * EntityStage, the survivors of run `mstage` (issue 20, seventh pass) that EntityStageMutation.test.ts
 * let through: the id check in front of `entityColumns`' block copy for columns that are not an
 * Int32Array (its random frames always mixed a valid id in, which sends the call to the one-by-one
 * path whatever the check says), the frame's close, and an over-capacity refusal of id 0. Each case
 * names the mutants it kills.
 */

const MAX_ID = 1000;
const BACKENDS = [false, true] as const;

function stageOf(r: Recorder): EntityStage {
  return (r as unknown as { stage: EntityStage }).stage;
}

/** Each row of `frame` as `id@spawnFrame`. */
function lifeRows(r: Recorder, frame: number): string[] {
  const e = new EntityBuffer();
  expect(r.reader.readHandles(frame, e)).toBe(true);
  const t = r.entities;
  return Array.from(e.handles.subarray(0, e.count), (h) => `${t.ids[h]}@${t.spawnFrames[h]}`);
}

/** Typed columns that fit the block copy, ids as given (a Float64Array: checked while staging). */
function columns(ids: number[]): EntityColumns {
  const n = ids.length;
  const f = (v: number): Float32Array => new Float32Array(n).fill(v);
  return { ids: Float64Array.from(ids), x: f(4), y: f(5), z: f(6), qx: f(0), qy: f(0), qz: f(0), qw: f(1) };
}

describe.each(BACKENDS)('EntityStage: the id check before the block copy (wasm %s)', (wasm) => {
  it('refuses a Float64Array column of ids that are all out of range or fractional, while staging', () => {
    // Kills the check's mutants that let a bad id into the block copy, where the Int32Array staging
    // truncates it: `!(…)` → `(…)` (202:11: a column of bad ids only copied whole), `(id | 0) === id`
    // → `!==` (202:36: 1.5 recorded as id 1), `id < max` → `true` and `id >= max` (202:24: 2^32 + 5
    // recorded as id 5).
    for (const bad of [[1.5], [2 ** 32 + 5], [2.5, 2 ** 32 + 7, 3.25]]) {
      const r = quiet({ maxEntitiesPerFrame: 16, maxEntityId: MAX_ID, wasm });
      r.beginFrame(0, 1 / 60);
      r.entity(9, 0, 0, 0, 0, 0, 0, 1);
      r.entityColumns(bad.length, columns(bad));
      const s = stageOf(r);
      expect([s.count, s.dropped, Array.from(s.ids.subarray(0, s.count))]).toEqual([1, bad.length, [9]]);
      r.endFrame();
      expect(lifeRows(r, 0)).toEqual(['9@0']);
      expect(r.stats.idsOutOfRange).toBe(bad.length);
      expect(warningsOf(r)).toEqual([
        `rewindable: entity id ${String(bad[0])} is not an integer in [0, ${MAX_ID}); the entity was dropped`,
      ]);
    }
  });

  it('stages none of a column of negative ids or ids equal to the bound, so displayColumns refuses to follow it', () => {
    // Kills `id >= 0` → `id < 0` (202:13) and `id < max` → `<=` (202:24): the integers those accept
    // are dropped only when the frame resolves, so the staged call then looks whole and
    // `displayColumns` writes display state for it instead of dropping the call.
    for (const bad of [[-1, -7], [MAX_ID]]) {
      const r = quiet({ maxEntitiesPerFrame: 16, maxEntityId: MAX_ID, wasm });
      r.beginFrame(0, 1 / 60);
      r.entity(3, 0, 0, 0, 0, 0, 0, 1);
      r.entityColumns(bad.length, columns(bad));
      const s = stageOf(r);
      expect([s.count, s.callStart, s.callCount, Array.from(s.ids.subarray(0, s.count))]).toEqual([
        1,
        1,
        bad.length,
        [3],
      ]);
      const ones = new Float32Array(bad.length).fill(1);
      r.displayColumns(bad.length, { scaleX: ones, scaleY: ones, alpha: ones });
      expect(r.stats.displayDropped).toBe(1);
      r.endFrame();
      expect(lifeRows(r, 0)).toEqual(['3@0']);
      expect(r.stats.idsOutOfRange).toBe(bad.length);
    }
  });
});

describe.each(BACKENDS)('EntityStage: the frame closed, a full stage (wasm %s)', (wasm) => {
  it('stages nothing between endFrame and the next beginFrame: the call is refused as outside a frame', () => {
    // Kills `close()` emptied (100:24): `limit` stayed at the capacity, so `entity()` after `endFrame`
    // staged its entry (none of it reached a frame, and no warning said so).
    const r = quiet({ maxEntitiesPerFrame: 16, maxEntityId: MAX_ID, wasm });
    r.beginFrame(0, 1 / 60);
    r.entity(1, 0, 0, 0, 0, 0, 0, 1);
    r.endFrame();
    r.entity(2, 0, 0, 0, 0, 0, 0, 1);
    r.entity2D(3, 0, 0, 0);
    expect([stageOf(r).count, r.stats.callsOutsideFrame]).toEqual([1, 2]);
    expect(warningsOf(r)).toEqual(['rewindable: recorder called outside beginFrame/endFrame; the call was ignored']);
    r.beginFrame(1, 1 / 60);
    r.entity(1, 0, 0, 0, 0, 0, 0, 1);
    r.endFrame();
    expect(lifeRows(r, 1)).toEqual(['1@0']);
  });

  it('counts id 0 past the capacity as over capacity, not as a bad id', () => {
    // Kills refuse's `id >= 0` → `id > 0` (115:11): id 0 refused for a full stage was counted and
    // warned as an id out of range.
    const r = quiet({ maxEntitiesPerFrame: 2, maxEntityId: MAX_ID, wasm });
    r.beginFrame(0, 1 / 60);
    for (const id of [5, 6, 0]) r.entity(id, 0, 0, 0, 0, 0, 0, 1);
    expect([r.stats.entitiesOverCapacity, r.stats.idsOutOfRange]).toEqual([1, 0]);
    expect(warningsOf(r)).toEqual(['rewindable: more than 2 entities in one frame; the rest were dropped']);
    r.endFrame();
    expect(lifeRows(r, 0)).toEqual(['5@0', '6@0']);
  });
});
