import { describe, expect, it } from 'vitest';
import { HANDLE_MASK, HEADER_WORDS } from '../../format/layout';
import { Playback } from '../../playback/Playback';
import { Recorder } from '../../record/Recorder';

/**
 * Runs of per-entity calls (consecutive entities of one kind, staged without their rows and marks,
 * `FieldRows.runNext`) and what else may happen to them in a frame. First: a life recorded with fields and never described takes its schema's kind, also when the kind's
 * block skips the look-up of lives it saw in the frame before (`FieldOrder.assignKindsHeld`): rings
 * of 1 to 3 frames evict that frame, so the handles of ended lives are given to new lives, often at
 * the same row; some frames record the entities without fields, and both the per-entity call and
 * the columns form are checked.
 */

const SLOTS = 6;

/** A deterministic sequence in [0, 1). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function run(maxFrames: number, columns: boolean, seed: number): void {
  const r = new Recorder({ maxFrames, maxEntitiesPerFrame: 64 });
  const unit = r.declareFields('unit', { hp: 'f32', n: 'i32' });
  const rnd = random(seed);
  const ids = Int32Array.from({ length: SLOTS }, (_, i) => i);
  let nextId = SLOTS;
  const values = new Float64Array(unit.slots);
  const hp = new Float32Array(SLOTS);
  const n = new Int32Array(SLOTS);
  for (let f = 0; f < 60; f++) {
    r.beginFrame(f / 60, 1 / 60);
    // A new life in a slot: the old one despawned, a new id (or an ended one again) in its place.
    for (let s = 0; s < SLOTS; s++) {
      if (rnd() < 0.3) {
        r.despawn(ids[s]);
        ids[s] = rnd() < 0.5 ? nextId++ : ids[s];
      }
    }
    const withFields = rnd() < 0.8;
    for (let s = 0; s < SLOTS; s++) {
      r.entity(ids[s], s, 0, 0, 0, 0, 0, 1);
      values[0] = s;
      values[1] = f;
      hp[s] = s;
      n[s] = f;
      if (withFields && !columns) r.fields(ids[s], unit, values);
    }
    if (withFields && columns) r.fieldColumns(unit, SLOTS, ids, [hp, n]);
    r.endFrame();
    if (!withFields) continue;
    const u = r.ring.u32;
    const at = r.ring.offsetOf(r.reader.newestFrame);
    for (let s = 0; s < SLOTS; s++) {
      const h = u[at + HEADER_WORDS + s] & HANDLE_MASK;
      expect(r.entities.kinds[r.entities.kindOf[h]], `ring ${maxFrames}, frame ${f}, slot ${s}`).toBe('unit');
    }
  }
}

describe('kinds of the lives of a whole block', () => {
  it('every life recorded with fields has its kind, its handle recycled or not', () => {
    for (const maxFrames of [1, 2, 3])
      for (const columns of [false, true]) for (const seed of [1, 2, 3]) run(maxFrames, columns, seed);
  });
});

/** The value of field 0 and 1 of `id` in the newest frame, read back. */
function readBack(r: Recorder, id: number): number[] {
  const pb = new Playback(r.reader);
  const out = new Float64Array(3);
  const h = r.entities.lookup(id);
  const f = r.reader.newestFrame;
  pb.fields.valueAt(h, 0, f, out);
  const a = out[0];
  pb.fields.valueAt(h, 1, f, out);
  return [a, out[0]];
}

describe('a run and the calls that end it', () => {
  it('a run, then per-entity calls again, a replaced row, a columns call after it and over it', () => {
    const r = new Recorder({ maxFrames: 4, maxEntitiesPerFrame: 64 });
    const unit = r.declareFields('unit', { hp: 'f32', n: 'i32' });
    const v = new Float64Array(unit.slots);
    for (let frame = 0; frame < 3; frame++) {
      r.beginFrame(frame, 1);
      // Entities 0..9 by per-entity calls (a run), 10..19 by a columns call after them.
      for (let id = 0; id < 10; id++) {
        r.entity(id, id, 0, 0, 0, 0, 0, 1);
        v[0] = id + 0.5;
        v[1] = id * 10 + frame;
        r.fields(id, unit, v);
      }
      if (frame === 1) {
        // A second call for the last entity replaces its row.
        v[0] = 99.5;
        r.fields(9, unit, v);
      }
      const ids = Int32Array.from({ length: 10 }, (_, i) => 10 + i);
      for (const id of ids) r.entity(id, id, 0, 0, 0, 0, 0, 1);
      r.fieldColumns(unit, 10, ids, [Float32Array.from(ids, (id) => id + 0.25), Int32Array.from(ids, (id) => -id)]);
      if (frame === 2) {
        // A columns call over entities of the run: its values replace theirs.
        r.fieldColumns(unit, 3, Int32Array.of(2, 3, 4), [Float32Array.of(7, 8, 9), Int32Array.of(70, 80, 90)]);
      }
      r.endFrame();
      for (let id = 0; id < 20; id++) {
        let want = id < 10 ? [id + 0.5, id * 10 + frame] : [id + 0.25, -id];
        if (frame === 1 && id === 9) want = [99.5, 90 + frame];
        if (frame === 2 && id >= 2 && id <= 4) want = [id + 5, (id + 5) * 10];
        expect(readBack(r, id), `frame ${frame}, entity ${id}`).toEqual(want);
      }
    }
    expect(r.stats.fieldRowsDropped).toBe(0);
    expect(r.stats.invalidFieldValues).toBe(0);
  });
});
