/**
 * The calls of custom fields and their repairs (`Recorder.fields`, `Recorder.fieldColumns`), pinned
 * by what reads back and what is counted: a row replaced or dropped, rows given as no array or too
 * short, missing columns, counts clipped, ids matched in any order or not recorded, columns calls
 * over per-entity rows, two columns calls of a kind, the field budget, SANITIZED through dropped
 * entities, and each type's validity bounds through the six ways rows reach a frame. Comments name
 * the mutants (Stryker's notation, lines of the sources as measured) a case kills.
 */
import { describe, expect, it } from 'vitest';
import type { Recorder } from '../../record/Recorder';
import { H_SANITIZED } from '../../format/layout';
import { Playback } from '../../playback/Playback';
import { batch, bits, put, read, recorder, sanitized, section } from './fieldStageKit';

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

  it('counts the repairs of a per-entity row a columns call overwrites, at the entity bound', () => {
    // FieldRows.writeRow's entity check `v < maxId` → `v <= maxId` (the raw row moved one by one).
    const { r } = recorder(); // maxEntityId 65,536
    const S = r.declareFields('a', { who: 'entity', n: 'i32' });
    r.beginFrame(0, 1);
    batch(r, [1, 2]);
    r.fields(2, S, [65536, 7]); // 1 repair, then overwritten
    r.fieldColumns(
      S,
      2,
      [2, 1],
      [
        [5, 65535],
        [6, 8],
      ],
    );
    r.endFrame();
    expect([read(r, 1, 0, 0), read(r, 2, 0, 0), read(r, 2, 1, 0)]).toEqual([[65535], [5], [6]]);
    expect(r.stats.invalidFieldValues).toBe(1);
  });

  it('repairs a non-finite float that is the last value of a block-copied column', () => {
    // FieldRows.writeColumnBlock's finite sum over every copied value (its last one skipped: `end - 1`).
    const { r } = recorder();
    const S = r.declareFields('a', { hp: 'f32', v: 'vec3' });
    r.beginFrame(0, 1);
    put(r, 9);
    r.fields(9, S, [1, 1, 1, 1]); // the kind has a row: the columns go to the staging columns
    batch(r, [1, 2, 3]);
    r.fieldColumns(
      S,
      3,
      [1, 2, 3],
      [Float32Array.of(1, 2, Number.NaN), Float32Array.of(1, 2, 3, 4, 5, 6, 7, 8, Number.NEGATIVE_INFINITY)],
    );
    r.endFrame();
    expect([1, 2, 3].map((id) => read(r, id, 0, 0))).toEqual([[1], [2], [0]]);
    expect(read(r, 3, 1, 0, 3)).toEqual([7, 8, 0]);
    expect(r.stats.invalidFieldValues).toBe(2);
    expect(r.ring.u32[r.ring.offsetOf(0) + H_SANITIZED]).toBe(2);
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
