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
import { fieldSectionAt, H_SANITIZED, H_TOTAL_WORDS } from '../../format/layout';
import { Playback } from '../../playback/Playback';
import { Recorder } from '../../record/Recorder';
import { BLOCK_LISTED } from '../fieldLayout';

const SANITIZED = 128;

function recorder(opts: ConstructorParameters<typeof Recorder>[0] = {}): { r: Recorder; warnings: string[] } {
  const warnings: string[] = [];
  const r = new Recorder({
    maxFrames: 16,
    arenaBytes: 1 << 20,
    maxEntityId: 1 << 16,
    onWarning: (m) => warnings.push(m),
    ...opts,
  });
  return { r, warnings };
}

/** The field section of frame `f`, as words. */
function section(r: Recorder, f: number): number[] {
  const u = r.ring.u32;
  const at = r.ring.offsetOf(f);
  return Array.from(u.subarray(fieldSectionAt(u, at), at + u[at + H_TOTAL_WORDS]));
}

/** A float32's bits, as the section stores it. */
const bits = (v: number) => new Uint32Array(Float32Array.of(v).buffer)[0];

/** Field `field` of id's life in frame `f` (components values; null when absent). */
function read(r: Recorder, id: number, field: number, f: number, c = 1): number[] | null {
  const pb = new Playback(r.reader);
  const out = new Float64Array(3);
  const h = r.entities.lookup(id);
  return pb.fields.valueAt(h, field, f, out) === 0 ? null : Array.from(out.subarray(0, c));
}

/** Flags of the entity at index `e` of frame `f`, SANITIZED bit only. */
const sanitized = (r: Recorder, f: number, e: number) => (r.reader.flagsAt(f, e) & SANITIZED) !== 0;

const put = (r: Recorder, id: number) => r.entity(id, id, 0, 0, 0, 0, 0, 1);

function batch(r: Recorder, ids: number[]): void {
  const rot = new Float32Array(ids.length * 4);
  for (let i = 0; i < ids.length; i++) rot[i * 4 + 3] = 1;
  r.entityBatch(ids.length, Int32Array.from(ids), new Float32Array(ids.length * 3), rot);
}

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

describe('field stage: calls and repairs', () => {
  const SPEC = { hp: 'f32', n: 'i32', lvl: 'u8', on: 'bool', st: 'enum', who: 'entity', v: 'vec3' } as const;
  /** What a row of each field reads back as (vec3 three values). */
  const readRow = (r: Recorder, id: number, f: number) =>
    [0, 1, 2, 3, 4, 5, 6].flatMap((k) => read(r, id, k, f, k === 6 ? 3 : 1) ?? [null]);

  it("replaces an entity's row on a second call, and drops one of another kind, counted and warned once", () => {
    const { r, warnings } = recorder();
    const S = r.declareFields('a', SPEC);
    const O = r.declareFields('o', { m: 'u8' });
    S.code('x');
    S.code('y');
    r.beginFrame(0, 1);
    put(r, 1);
    r.fields(1, S, [1, 2, 3, 1, 0, 7, 1, 2, 3]);
    r.fields(1, S, [9, 8, 7, 0, 1, 6, 4, 5, 6]);
    r.fields(1, O, [5]);
    put(r, 2);
    r.fields(2, O, [5]);
    r.fields(2, S, [1, 1, 1, 1, 1, 1, 1, 1, 1]);
    r.fields(2, S, [1, 1, 1, 1, 1, 1, 1, 1, 1]);
    r.endFrame();
    expect(readRow(r, 1, 0)).toEqual([9, 8, 7, 0, 1, 6, 4, 5, 6]);
    expect(read(r, 2, 0, 0)).toEqual([5]);
    expect(r.stats.fieldRowsDropped).toBe(3);
    expect(r.stats.invalidFieldValues).toBe(0);
    const dropped = warnings.filter((w) => w.includes('dropped'));
    expect(dropped).toEqual([
      'rewindable: fields of entity 1 dropped: already has fields of another kind in this frame',
    ]);
  });

  it('repairs every slot of a row given as no array or too short, and counts each', () => {
    // FieldStage.row's non-object values; FieldRows.materialize and writeRawBlock's repairs.
    const { r } = recorder();
    const S = r.declareFields('a', SPEC);
    S.code('x');
    r.beginFrame(0, 1);
    put(r, 1);
    r.fields(1, S, null as never);
    put(r, 2);
    r.fields(2, S, [2.5]);
    put(r, 3);
    r.fields(3, S, [3, 4, 5, 1, 0, 2, 6, 7, 8]);
    r.endFrame();
    // f32 0, i32 0, u8 0, bool 0, enum none, entity none, vec3 0 0 0: 8 repairs (a bool is never invalid).
    const none = [0, 0, 0, 0, Number.NaN, Number.NaN, 0, 0, 0];
    expect(readRow(r, 1, 0)).toEqual(none);
    expect(readRow(r, 2, 0)).toEqual([2.5, ...none.slice(1)]);
    expect(readRow(r, 3, 0)).toEqual([3, 4, 5, 1, 0, 2, 6, 7, 8]);
    // 8 + 7 (the second row's f32 is given).
    expect(r.stats.invalidFieldValues).toBe(15);
    expect(r.ring.u32[r.ring.offsetOf(0) + H_SANITIZED]).toBe(15);
    expect([0, 1, 2].map((e) => sanitized(r, 0, e))).toEqual([true, true, false]);
  });

  it('repairs the columns a columns call misses, per type, and counts each value', () => {
    const { r, warnings } = recorder();
    const S = r.declareFields('a', SPEC);
    S.code('x');
    r.beginFrame(0, 1);
    batch(r, [1, 2]);
    // Only the first two columns given (plain arrays).
    r.fieldColumns(
      S,
      2,
      [1, 2],
      [
        [1.5, 2.5],
        [3, 4],
      ],
    );
    r.endFrame();
    const missing = [0, 0, Number.NaN, Number.NaN, 0, 0, 0];
    expect(readRow(r, 1, 0)).toEqual([1.5, 3, ...missing]);
    expect(readRow(r, 2, 0)).toEqual([2.5, 4, ...missing]);
    // u8, bool, enum, entity one each, vec3 three: 7 a row.
    expect(r.stats.invalidFieldValues).toBe(14);
    expect([0, 1].map((e) => sanitized(r, 0, e))).toEqual([true, true]);
    expect(warnings.filter((w) => w.includes('invalid for its type')).length).toBe(1);
    // Typed columns, one missing (not the field area: the staging columns).
    r.beginFrame(1, 1);
    batch(r, [1, 2, 3]);
    r.fieldColumns(
      S,
      3,
      [1, 2, 3],
      [
        Float32Array.of(1, 2, 3),
        Int32Array.of(4, 5, 6),
        Uint8Array.of(7, 8, 9),
        Uint8Array.of(0, 1, 2),
        Uint8Array.of(0, 0, 0),
        Int32Array.of(-1, 0, 1),
      ],
    );
    r.endFrame();
    expect(readRow(r, 3, 1)).toEqual([3, 6, 9, 1, 0, 1, 0, 0, 0]);
    expect(r.stats.invalidFieldValues).toBe(14 + 9);
  });

  it('takes the count of a columns call as given, clipped to the ids, and nothing for none', () => {
    const { r } = recorder();
    const S = r.declareFields('a', { hp: 'f32' });
    r.beginFrame(0, 1);
    batch(r, [1, 2, 3, 4, 5]);
    r.fieldColumns(S, 0, [1], [[1]]);
    r.fieldColumns(S, -3, [1], [[1]]);
    r.fieldColumns(S, Number.NaN, [1], [[1]]);
    expect(r.stats.fieldRowsDropped).toBe(0);
    r.fieldColumns(S, 2.7, [1, 2, 3], [[10, 20, 30]]); // 2 rows
    r.fieldColumns(S, 9, [4, 5], [[40, 50, 60]]); // 2 rows: the ids given
    r.endFrame();
    expect([1, 2, 3, 4, 5].map((id) => read(r, id, 0, 0))).toEqual([[10], [20], null, [40], [50]]);
    expect(r.stats.fieldRowsDropped).toBe(0);
  });

  it('matches ids in any order, drops the ids not recorded in the frame, counted and warned once', () => {
    const { r, warnings } = recorder();
    const S = r.declareFields('a', { hp: 'f32', n: 'u8' });
    r.beginFrame(0, 1);
    batch(r, [10, 11, 12, 13, 14, 15]);
    // Wraps around: 14 then 11 (before it), 99 and 7 unknown, 15, 10.
    r.fieldColumns(
      S,
      6,
      [14, 11, 99, 7, 15, 10],
      [
        [140, 110, 990, 70, 150, 100],
        [14, 11, 99, 7, 15, 10],
      ],
    );
    r.endFrame();
    expect([10, 11, 12, 13, 14, 15].map((id) => read(r, id, 0, 0))).toEqual([[100], [110], null, null, [140], [150]]);
    expect([10, 11, 14, 15].map((id) => read(r, id, 1, 0))).toEqual([[10], [11], [14], [15]]);
    expect(r.stats.fieldRowsDropped).toBe(2);
    expect(warnings.filter((w) => w.includes('dropped'))).toEqual([
      'rewindable: fields of entity 99 dropped: not recorded in this frame',
    ]);
    // The last ids staged, given in order but one of them already with fields: matched one by one.
    r.beginFrame(1, 1);
    batch(r, [1, 2, 3]);
    r.fields(3, S, [33, 3]);
    r.fieldColumns(S, 3, [1, 2, 3], [Float32Array.of(1, 2, 3), Uint8Array.of(1, 2, 30)]);
    r.endFrame();
    expect([1, 2, 3].map((id) => read(r, id, 0, 1)![0] + read(r, id, 1, 1)![0])).toEqual([2, 4, 33]);
  });

  it('lets a columns call overwrite rows of per-entity calls, counting the repairs of both', () => {
    // FieldStage.matchRows' `materializeRow` of a raw row (its repairs counted), FieldRows.materializeRow.
    const { r } = recorder();
    const S = r.declareFields('a', { hp: 'f32', n: 'i32', lvl: 'u8' });
    r.beginFrame(0, 1);
    batch(r, [1, 2, 3]);
    r.fields(3, S, [Number.NaN, 2, 7]); // 1 repair (FieldStage `b > 0` → `b > 1`), then overwritten
    r.fieldColumns(
      S,
      2,
      [3, 1],
      [
        [30, 10],
        [3, 1],
        [300, 1],
      ],
    ); // u8 300 repaired: 1
    r.endFrame();
    expect([1, 2, 3].map((id) => [read(r, id, 0, 0), read(r, id, 1, 0), read(r, id, 2, 0)])).toEqual([
      [[10], [1], [1]],
      [null, null, null],
      [[30], [3], [255]],
    ]);
    expect(r.stats.invalidFieldValues).toBe(2);
    expect(r.ring.u32[r.ring.offsetOf(0) + H_SANITIZED]).toBe(2);
    expect([0, 1, 2].map((e) => sanitized(r, 0, e))).toEqual([false, false, true]);
  });

  it('keeps two columns calls of a kind in one frame, and the later values of ids given twice', () => {
    // FieldArea.unpack (the first call's block back into the staging columns), every type.
    const { r } = recorder();
    const S = r.declareFields('a', SPEC);
    S.code('x');
    S.code('y');
    const cols = (k: number) => [
      Float32Array.of(k, k + 1),
      Int32Array.of(-k, -k - 1),
      Uint8Array.of(k, k + 1),
      Uint8Array.of(k & 1, (k + 1) & 1),
      Uint8Array.of(k & 1, (k + 1) & 1),
      Int32Array.of(k, -1),
      Float32Array.of(k, 2 * k, 3 * k, k + 1, 2 * k + 2, 3 * k + 3),
    ];
    r.beginFrame(0, 1);
    batch(r, [1, 2]);
    r.fieldColumns(S, 2, [1, 2], cols(10));
    batch(r, [3, 4]);
    r.fieldColumns(S, 2, [3, 4], cols(20));
    batch(r, [5, 6]);
    r.fieldColumns(S, 2, [5, 6], cols(30));
    r.fieldColumns(S, 2, [5, 6], cols(40)); // the same ids again: these values
    r.endFrame();
    const row = (k: number) => [k, -k, k, k & 1, k & 1, k === -1 ? Number.NaN : k, k, 2 * k, 3 * k];
    expect(readRow(r, 1, 0)).toEqual(row(10));
    expect(readRow(r, 2, 0)).toEqual([11, -11, 11, 1, 1, Number.NaN, 11, 22, 33]);
    expect(readRow(r, 3, 0)).toEqual(row(20));
    expect(readRow(r, 4, 0)).toEqual([21, -21, 21, 1, 1, Number.NaN, 21, 42, 63]);
    expect(readRow(r, 5, 0)).toEqual(row(40));
    expect(readRow(r, 6, 0)).toEqual([41, -41, 41, 1, 1, Number.NaN, 41, 82, 123]);
    expect(section(r, 0).slice(0, 3)).toEqual([0, 6, 0]);
    expect(r.stats.invalidFieldValues).toBe(0);
  });

  it('drops the rows past the field budget from a typed columns call, keeping the first', () => {
    // FieldStage.write: the area block over the room unpacked, cut to the budget.
    const { r, warnings } = recorder({ fieldBudgetBytes: 64 }); // 16 words: 3 header + 13 f32
    const S = r.declareFields('a', { hp: 'f32' });
    const ids = Array.from({ length: 20 }, (_, i) => i);
    r.beginFrame(0, 1);
    batch(r, ids);
    r.fieldColumns(S, 20, ids, [Float32Array.from(ids, (i) => i * 2)]);
    r.endFrame();
    expect(section(r, 0)).toEqual([0, 13, 0, ...ids.slice(0, 13).map((i) => bits(i * 2))]);
    expect(r.stats.fieldRowsOverBudget).toBe(7);
    expect(warnings.filter((w) => w.includes('fieldBudgetBytes'))).toEqual([
      "rewindable: a frame's fields exceed fieldBudgetBytes (64); the rows past it were dropped",
    ]);
    // A second kind after a first that fills the budget: none of its rows.
    const B = r.declareFields('b', { n: 'u8' });
    r.beginFrame(1, 1);
    batch(r, ids);
    r.fieldColumns(S, 13, ids.slice(0, 13), [Float32Array.from(ids.slice(0, 13))]);
    r.fieldColumns(B, 7, ids.slice(13), [Uint8Array.of(1, 2, 3, 4, 5, 6, 7)]);
    r.endFrame();
    expect(section(r, 1).length).toBe(16);
    expect(read(r, 13, 0, 1)).toBeNull();
    expect(r.stats.fieldRowsOverBudget).toBe(14);
  });

  it('flags the kept entity of a repaired row when an earlier entity was dropped', () => {
    // FieldStage.flagRepaired through `keptIndex`, in the per-entity path and the columns path.
    const { r } = recorder();
    const S = r.declareFields('a', { hp: 'f32', who: 'entity' });
    r.beginFrame(0, 1);
    put(r, 1);
    put(r, 1); // dropped
    put(r, 2);
    r.fields(2, S, [1, -1]);
    put(r, 3);
    r.fields(3, S, [Number.NaN, 1]);
    r.endFrame();
    expect([0, 1, 2].map((e) => sanitized(r, 0, e))).toEqual([false, false, true]);
    expect(read(r, 3, 0, 0)).toEqual([0]);
    r.beginFrame(1, 1);
    batch(r, [1, 1, 2, 3]);
    r.fieldColumns(S, 4, [1, 1, 2, 3], [Float32Array.of(1, 1, Number.NaN, 3), Int32Array.of(-1, -1, -1, 1 << 20)]);
    r.endFrame();
    expect([0, 1, 2].map((e) => sanitized(r, 1, e))).toEqual([false, true, true]);
    expect([read(r, 2, 0, 1), read(r, 3, 1, 1)]).toEqual([[0], [Number.NaN]]);
    expect(r.stats.invalidFieldValues).toBe(3);
    expect(r.ring.u32[r.ring.offsetOf(1) + H_SANITIZED]).toBe(2);
  });
});

describe('field stage: the validity bounds, in every path', () => {
  it("repairs exactly the values past each type's bounds, whichever way the rows come", () => {
    // The same four rows through the six ways a kind's rows reach the frame; each bound (an enum
    // code equal to the names interned, an entity id equal to maxEntityId, -1 and -2, the float32
    // range) is checked alike: FieldArea.checkEnums and checkEntities (`>=` → `>`),
    // writeRawBlock's `hi` and sums, FieldRows.writeColumnBlock, writeColumn and materialize.
    const { r } = recorder(); // maxEntityId 65,536
    const S = r.declareFields('a', { st: 'enum', who: 'entity', lvl: 'u8', n: 'i32', hp: 'f32', v: 'vec3' });
    for (const n of ['p', 'q', 'r']) S.code(n);
    const MAX = 3.4e38;
    const rows = [
      [2, 65535, 255, 2147483647, MAX, -MAX, 0, 0],
      [3, 65536, 0, -2147483648, Number.POSITIVE_INFINITY, Number.NaN, 1, Number.NEGATIVE_INFINITY],
      [0, -1, 1, -1, Number.NEGATIVE_INFINITY, 1, 2, 3],
      [255, -2, 128, 0, 1e-45, 0, 0, 0],
    ];
    const fr = Math.fround;
    const want = [
      [2, 65535, 255, 2147483647, fr(MAX), fr(-MAX), 0, 0],
      [Number.NaN, Number.NaN, 0, -2147483648, 0, 0, 1, 0],
      [0, Number.NaN, 1, -1, 0, 1, 2, 3],
      [Number.NaN, Number.NaN, 128, 0, fr(1e-45), 0, 0, 0],
    ];
    const ids = [1, 2, 3, 4];
    const typed = (order: number[]) => [
      Uint8Array.from(order, (i) => rows[i][0]),
      Int32Array.from(order, (i) => rows[i][1]),
      Uint8Array.from(order, (i) => rows[i][2]),
      Int32Array.from(order, (i) => rows[i][3]),
      Float32Array.from(order, (i) => rows[i][4]),
      Float32Array.from(order.flatMap((i) => rows[i].slice(5))),
    ];
    const plain = (order: number[]) =>
      [0, 1, 2, 3, 4].map((k) => order.map((i) => rows[i][k])).concat([order.flatMap((i) => rows[i].slice(5))]);
    const valid = [0, 0, 0, 0, 0, 0, 0, 0];
    const paths: Array<(f: number) => void> = [
      // Per-entity calls, in order: converted straight into the frame.
      () => {
        for (let i = 0; i < 4; i++) {
          put(r, ids[i]);
          r.fields(ids[i], S, rows[i]);
        }
      },
      // A typed columns call of the last staged entities: the field area.
      () => {
        batch(r, ids);
        r.fieldColumns(S, 4, ids, typed([0, 1, 2, 3]));
      },
      // Plain arrays: the staging columns, value by value.
      () => {
        batch(r, ids);
        r.fieldColumns(S, 4, ids, plain([0, 1, 2, 3]));
      },
      // Typed columns after another entity's per-entity row: block copies into the staging columns.
      () => {
        put(r, 9);
        r.fields(9, S, valid);
        batch(r, ids);
        r.fieldColumns(S, 4, ids, typed([0, 1, 2, 3]));
      },
      // Per-entity rows with one dropped (a duplicate): the staging columns, then the general writer.
      () => {
        put(r, 9);
        r.fields(9, S, valid);
        put(r, 9);
        r.fields(9, S, valid);
        for (let i = 0; i < 4; i++) {
          put(r, ids[i]);
          r.fields(ids[i], S, rows[i]);
        }
      },
      // Typed columns naming the ids backwards: matched one by one.
      () => {
        batch(r, ids);
        r.fieldColumns(S, 4, [4, 3, 2, 1], typed([3, 2, 1, 0]));
      },
    ];
    const pb = () => new Playback(r.reader);
    const out = new Float64Array(3);
    paths.forEach((path, f) => {
      r.beginFrame(f, 1);
      path(f);
      r.endFrame();
      const reader = pb();
      for (let i = 0; i < 4; i++) {
        const h = r.entities.lookup(ids[i]);
        const got: number[] = [];
        for (let k = 0; k < 6; k++) {
          reader.fields.valueAt(h, k, f, out);
          got.push(...out.subarray(0, k === 5 ? 3 : 1));
        }
        expect(got, `path ${f} row ${i}`).toEqual(want[i]);
        const e = r.reader.indexOf(f, h);
        expect(sanitized(r, f, e), `path ${f} row ${i} SANITIZED`).toBe(i > 0);
      }
      // Row 1: enum, entity, f32, vec3 x and z; row 2: f32; row 3: enum and entity.
      expect(r.ring.u32[r.ring.offsetOf(f) + H_SANITIZED], `path ${f}`).toBe(8);
      expect(r.stats.invalidFieldValues, `path ${f}`).toBe(8 * (f + 1));
    });
  });
});
