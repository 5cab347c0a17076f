import { describe, expect, it } from 'vitest';
import { HANDLE_MASK, HEADER_WORDS } from '../../format/layout';
import { Recorder } from '../../record/Recorder';

/**
 * A life recorded with fields and never described takes its schema's kind, also when the kind's
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
