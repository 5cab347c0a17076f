/**
 * The recording side of custom fields (`Recorder.fields`, `Recorder.fieldColumns`: the stage, its
 * staging rows, the field area, the order of a kind's rows and the block writers), pinned by what
 * a frame stores and what reads back, never by how: the field section's words (the replay format,
 * fieldLayout.ts) for rows given out of entity order or dropped with their entity, every value read
 * back after repairs, the repair and drop counters with the entities flagged `SANITIZED`, and the
 * kind a life takes from its fields. Comments name the mutants (Stryker's notation, lines of the
 * sources as measured) a case kills.
 */
import { describe, expect, it } from 'vitest';
import type { Recorder } from '../../record/Recorder';
import { BLOCK_LISTED } from '../fieldLayout';
import { batch, bits, put, read, recorder, section } from './fieldStageKit';

describe('field stage: block layout', () => {
  it('writes rows given out of entity order in entity order, contiguous', () => {
    // FieldOrder 54 (`if (sorted)` → false), 58 to 63 (the sort scratch), FieldStage's general path.
    const { r } = recorder();
    const S = r.declareFields('a', { hp: 'f32' });
    r.beginFrame(0, 1);
    batch(r, [1, 2, 3, 4]);
    put(r, 9);
    r.fields(9, S, [7]); // the last entity's row first
    r.fieldColumns(S, 4, [1, 2, 3, 4], [[10, 20, 30, 40]]);
    r.endFrame();
    expect(section(r, 0)).toEqual([0, 5, 0, ...[10, 20, 30, 40, 7].map(bits)]);
    expect([1, 2, 3, 4, 9].map((id) => read(r, id, 0, 0))).toEqual([[10], [20], [30], [40], [7]]);
  });

  it('leaves out the rows of entities the resolver dropped, in every path', () => {
    // FieldOrder 47 (`e < 0` → false: a dropped row kept), FieldStage.writeDirect's kept check.
    const { r } = recorder();
    const S = r.declareFields('a', { hp: 'f32' });
    // Per-entity rows, the duplicate's row dropped with it.
    r.beginFrame(0, 1);
    put(r, 1);
    r.fields(1, S, [1]);
    put(r, 1); // a duplicate: dropped by the resolver
    r.fields(1, S, [2]);
    put(r, 2);
    r.fields(2, S, [3]);
    r.endFrame();
    expect(section(r, 0)).toEqual([0, 2, 0, bits(1), bits(3)]);
    // A typed columns call (the field area) whose second entity is a duplicate.
    r.beginFrame(1, 1);
    batch(r, [1, 2, 2, 3]);
    r.fieldColumns(S, 4, [1, 2, 2, 3], [Float32Array.of(10, 20, 21, 30)]);
    r.endFrame();
    expect(section(r, 1)).toEqual([0, 3, 0, bits(10), bits(20), bits(30)]);
    // The same where the dropped entity is the block's first.
    r.beginFrame(2, 1);
    put(r, 5);
    batch(r, [5, 6, 7]);
    r.fieldColumns(S, 3, [5, 6, 7], [Float32Array.of(50, 60, 70)]);
    r.endFrame();
    expect(section(r, 2)).toEqual([0, 2, 1, bits(60), bits(70)]);
    expect(read(r, 5, 0, 2)).toBeNull();
    expect(read(r, 6, 0, 2)).toEqual([60]);
    expect(r.stats.fieldRowsDropped).toBe(0);
  });

  it("lists the entity index of each row when the kind's entities are not contiguous", () => {
    const { r } = recorder();
    const A = r.declareFields('a', { hp: 'f32' });
    const B = r.declareFields('b', { on: 'bool' });
    r.beginFrame(0, 1);
    for (let id = 0; id < 5; id++) {
      put(r, id);
      if (id === 1 || id === 3) r.fields(id, B, [1]);
      else r.fields(id, A, [id]);
    }
    r.endFrame();
    expect(section(r, 0)).toEqual([
      (0 | BLOCK_LISTED) >>> 0,
      3,
      0,
      0,
      2,
      4,
      bits(0),
      bits(2),
      bits(4),
      (1 | BLOCK_LISTED) >>> 0,
      2,
      0,
      1,
      3,
      0b11,
    ]);
  });

  it('keeps every value of hundreds of rows of one kind, in order and out of order', () => {
    // FieldOrder 36 (`Math.max` → `Math.min`: order and keys too short past 128 rows), 58 (the
    // sort scratch grown with the order).
    const { r } = recorder({ arenaBytes: 4 << 20 });
    const S = r.declareFields('a', { n: 'i32', v: 'vec3' });
    const N = 300;
    const ids = Array.from({ length: N }, (_, i) => i);
    r.beginFrame(0, 1);
    for (const id of ids) {
      put(r, id);
      r.fields(id, S, [id * 3 - 7, id, -id, id / 2]);
    }
    r.endFrame();
    // Out of order: a columns call naming the ids backwards (plain arrays: the staging columns).
    r.beginFrame(1, 1);
    batch(r, ids);
    const back = ids.slice().reverse();
    r.fieldColumns(S, N, back, [back.map((id) => id * 5), back.flatMap((id) => [id + 1, id + 2, id + 3])]);
    r.endFrame();
    for (const id of [0, 1, 63, 64, 127, 128, 129, 200, 299]) {
      expect(read(r, id, 0, 0), `id ${id}`).toEqual([id * 3 - 7]);
      expect(read(r, id, 1, 0, 3), `id ${id}`).toEqual([id, -id, id / 2]);
      expect(read(r, id, 0, 1), `id ${id}`).toEqual([id * 5]);
      expect(read(r, id, 1, 1, 3), `id ${id}`).toEqual([id + 1, id + 2, id + 3]);
    }
    // Both blocks contiguous: header, then the i32 column.
    expect(section(r, 0).slice(0, 6)).toEqual([0, N, 0, -7 >>> 0, -4 >>> 0, -1 >>> 0]);
    expect(section(r, 1).slice(0, 6)).toEqual([0, N, 0, 0, 5, 10]);
    expect(r.stats.invalidFieldValues).toBe(0);
  });
});

describe('field stage: the kind a life takes', () => {
  /** The kind name of id's life (null: none). */
  const kindOf = (r: Recorder, id: number) => {
    const k = r.entities.kindOf[r.entities.lookup(id)];
    return k < 0 ? null : r.entities.kinds[k];
  };

  it("gives its schema's kind to the lives with rows only, and keeps a described kind", () => {
    // FieldOrder 74, 92 (`kindOf < 0` → true, `<= 0`: a described kind overwritten), 91
    // (`entityBase - from`, `e <= end`: other entities' lives given the kind).
    const { r } = recorder();
    const A = r.declareFields('a', { x: 'f32' }); // kind index 0
    const B = r.declareFields('b', { y: 'f32' });
    const all = (f: number, each: (id: number) => void) => {
      r.beginFrame(f, 1);
      for (let id = 0; id < 40; id++) each(id);
      r.endFrame();
    };
    all(0, (id) => {
      put(r, id);
      if (id === 3 || id === 13 || id === 23) r.describe(id, 'a');
      if (id === 34) r.describe(id, 'boss');
    });
    // Contiguous, in order: entities 3..5.
    all(1, (id) => {
      put(r, id);
      if (id >= 3 && id <= 5) r.fields(id, B, [id]);
    });
    // Listed: 13 and 15.
    all(2, (id) => {
      put(r, id);
      if (id === 13 || id === 15) r.fields(id, B, [id]);
    });
    // A typed columns call for the last three staged (the field area's one copy): 22..24.
    all(3, (id) => {
      if (id < 20 || id > 24) put(r, id);
      if (id === 24) {
        batch(r, [20, 21, 22, 23, 24]);
        r.fieldColumns(B, 3, [22, 23, 24], [Float32Array.of(1, 2, 3)]);
      }
    });
    // Out of order: 34's row first, then 32 and 30 by a columns call of plain arrays.
    all(4, (id) => {
      put(r, id);
      if (id === 34) {
        r.fields(34, A, [1]);
        r.fieldColumns(A, 2, [32, 30], [[1, 2]]);
      }
    });
    const got = Object.fromEntries(
      [0, 2, 3, 4, 5, 6, 12, 13, 14, 15, 16, 21, 22, 23, 24, 25, 29, 30, 31, 32, 33, 34].map((id) => [
        id,
        kindOf(r, id),
      ]),
    );
    expect(got).toEqual({
      0: null,
      2: null,
      3: 'a', // described
      4: 'b',
      5: 'b',
      6: null,
      12: null,
      13: 'a',
      14: null,
      15: 'b',
      16: null,
      21: null,
      22: 'b',
      23: 'a',
      24: 'b',
      25: null,
      29: null,
      30: 'a',
      31: null,
      32: 'a',
      33: null,
      34: 'boss',
    });
  });
});
