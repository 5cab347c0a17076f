/**
 * FieldRows called directly (the staging rows of one kind): which columns `writeColumnBlock` takes
 * as one block copy (it returns -1 otherwise, and the stage then writes value by value the same
 * frame, so only these calls tell the two apart), what it stores and repairs from row `r0` on,
 * growth keeping every column, and the raw rows' bookkeeping. Comments name the mutants
 * (Stryker's notation, lines of FieldRows.ts as measured in run `fwb`) a case kills.
 */
import { describe, expect, it } from 'vitest';
import type { FieldType } from '../fieldLayout';
import { FieldRows } from '../FieldRows';
import { FieldSchemas } from '../FieldSchemas';

const MAX_ID = 1000;

function rowsOf(spec: Record<string, FieldType>, capacity = 64, names = 3): FieldRows {
  const s = new FieldSchemas().declare('k', spec);
  for (let i = 0; i < names; i++) s.code(`n${i}`);
  return new FieldRows(s, capacity, MAX_ID);
}

describe('FieldRows.writeColumnBlock', () => {
  it('takes a typed array of the column type, exactly long enough or at most twice plus 64', () => {
    // 479 to 483, 502, 518 (the qualification: view, length bounds, type).
    const cases: Array<[FieldType, (n: number) => ArrayLike<number>, ArrayLike<number>[]]> = [
      ['f32', (n) => new Float32Array(n), [new Float64Array(4), new Int32Array(4), [1, 2, 3, 4]]],
      ['vec3', (n) => new Float32Array(3 * n), [new Float64Array(12), new Float32Array(11)]],
      ['i32', (n) => new Int32Array(n), [new Float32Array(4), new Uint32Array(4), [1, 2, 3, 4]]],
      ['entity', (n) => new Int32Array(n), [new Float32Array(4), new Int16Array(4)]],
      ['u8', (n) => new Uint8Array(n), [new Int8Array(4), new Uint8ClampedArray(4), [1, 2, 3, 4]]],
      ['bool', (n) => new Uint8Array(n), [new Int8Array(4), new Float32Array(4)]],
      ['enum', (n) => new Uint8Array(n), [new Uint8ClampedArray(4), new Int32Array(4)]],
    ];
    for (const [type, make, bad] of cases) {
      const per = type === 'vec3' ? 3 : 1;
      const ok = (len: number) => rowsOf({ x: type }).writeColumnBlock(0, 2, 4, make(len / per));
      expect(ok(4 * per), type).toBe(0);
      expect(ok(2 * 4 * per + 64 - ((2 * 4 * per + 64) % per)), type).toBe(0);
      expect(ok(4 * per - per), type).toBe(-1);
      expect(ok(per === 1 ? 2 * 4 + 65 : 2 * 12 + 66), type).toBe(-1);
      for (const col of bad) expect(rowsOf({ x: type }).writeColumnBlock(0, 0, 4, col), type).toBe(-1);
    }
  });

  it('stores rows r0.. and repairs non-finite floats, entity ids out of range and enum codes without a name', () => {
    // 484 to 532: the copy at `r0 * per`, the finite sum and the repair pass over rows r0 .. r0 + count
    // only, the entity and enum bounds, the growth for a column longer than the rows.
    const rows = rowsOf({ v: 'vec3', f: 'f32', e: 'entity', s: 'enum', i: 'i32', u: 'u8', b: 'bool' }, 4);
    const n = 5;
    const r0 = 3;
    const vec = Float32Array.of(
      1,
      Number.NaN,
      3,
      4,
      5,
      6,
      7,
      8,
      Number.POSITIVE_INFINITY,
      10,
      11,
      12,
      13,
      14,
      -Infinity,
    );
    expect(rows.writeColumnBlock(0, r0, n, vec)).toBe(3);
    expect(rows.writeColumnBlock(1, r0, n, Float32Array.of(1, 2, 3, 4, Number.NaN, Number.NaN))).toBe(1);
    expect(rows.writeColumnBlock(2, r0, n, Int32Array.of(-2, -1, MAX_ID - 1, MAX_ID, 0, MAX_ID))).toBe(2);
    expect(rows.writeColumnBlock(3, r0, n, Uint8Array.of(0, 2, 3, 255, 1, 9))).toBe(2);
    expect(rows.writeColumnBlock(4, r0, n, Int32Array.of(-5, 2 ** 31 - 1, 0, 1, 2))).toBe(0);
    expect(rows.writeColumnBlock(5, r0, n, Uint8Array.of(255, 0, 1, 2, 3))).toBe(0);
    expect(rows.writeColumnBlock(6, r0, n, Uint8Array.of(0, 2, 0, 255, 1))).toBe(0);
    expect(rows.rows.length).toBe(16); // grown for r0 + 6 rows (the longest column): 4 → 8 → 16
    expect(Array.from(rows.f32[0].subarray(9, 24))).toEqual([1, 0, 3, 4, 5, 6, 7, 8, 0, 10, 11, 12, 13, 14, 0]);
    expect(Array.from(rows.f32[1].subarray(3, 9))).toEqual([1, 2, 3, 4, 0, Number.NaN]);
    expect(Array.from(rows.i32[2].subarray(3, 9))).toEqual([-1, -1, MAX_ID - 1, -1, 0, MAX_ID]);
    expect(Array.from(rows.u8[3].subarray(3, 9))).toEqual([0, 2, 255, 255, 1, 9]);
    expect(Array.from(rows.i32[4].subarray(3, 8))).toEqual([-5, 2 ** 31 - 1, 0, 1, 2]);
    expect(Array.from(rows.u8[6].subarray(3, 8))).toEqual([0, 2, 0, 255, 1]);
  });
});

describe('FieldRows: growth and raw rows', () => {
  it('keeps every column, the raw values and their marks when it grows', () => {
    // 95 to 114 (makeColumn keeping values), 303 to 329 (add, grow: doubling, each array copied).
    const rows = rowsOf({ v: 'vec3', f: 'f32', i: 'i32', b: 'bool', s: 'enum' }, 2);
    for (let r = 0; r < 5; r++) {
      expect(rows.add(10 + r)).toBe(r);
      rows.writeRow(r, [r, r + 0.5, -r, r / 2, r * 7, r % 2, r % 3], 0);
    }
    rows.stageRaw(4, [Number.NaN, 1, 2, 3, 4, 1, 2]);
    rows.rowBad[3] = 1;
    expect(rows.rows.length).toBe(8);
    rows.grow(9);
    expect(rows.rows.length).toBe(16);
    rows.grow(16);
    expect(rows.rows.length).toBe(16);
    expect(Array.from(rows.rows.subarray(0, 6))).toEqual([10, 11, 12, 13, 14, 0]);
    expect(Array.from(rows.f32[0].subarray(0, 12))).toEqual([0, 0.5, -0, 1, 1.5, -1, 2, 2.5, -2, 3, 3.5, -3]);
    expect(Array.from(rows.f32[1].subarray(0, 4))).toEqual([0, 0.5, 1, 1.5]);
    expect(Array.from(rows.i32[2].subarray(0, 4))).toEqual([0, 7, 14, 21]);
    expect(Array.from(rows.u8[3].subarray(0, 5))).toEqual([0, 1, 0, 1, 0]);
    expect(Array.from(rows.u8[4].subarray(0, 5))).toEqual([0, 1, 2, 0, 1]);
    expect([rows.u8[3].length, rows.w32[3].length, rows.w32[0].length, rows.w32[2].length]).toEqual([32, 8, 48, 16]);
    expect(Array.from(rows.raw.subarray(28, 35))).toEqual([Number.NaN, 1, 2, 3, 4, 1, 2]);
    expect(Array.from(rows.isRaw.subarray(0, 6))).toEqual([0, 0, 0, 0, 1, 0]);
    expect(Array.from(rows.rowBad.subarray(0, 6))).toEqual([0, 0, 0, 1, 0, 0]);
    expect(rows.rawCount).toBe(1);
    // The raw row converted: its repair counted and marked.
    expect(rows.materialize()).toBe(1);
    expect([rows.rawCount, rows.isRaw[4], rows.rowBad[4], rows.f32[0][12]]).toEqual([0, 0, 1, 0]);
    rows.reset();
    expect([rows.count, rows.rawCount, rows.directAt, rows.directRows, rows.runNext, rows.unmarked]).toEqual([
      0,
      0,
      -1,
      0,
      -1,
      false,
    ]);
    expect(Array.from(rows.rowBad.subarray(0, 6))).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it('copies a raw row of any number of slots, and counts a raw row once however often it is staged', () => {
    // 180 to 204 (stageRaw's count, copyRaw's groups of four and the rest), 150 (endRun).
    for (let fields = 1; fields <= 9; fields++) {
      const spec: Record<string, FieldType> = {};
      for (let f = 0; f < fields; f++) spec[`f${f}`] = 'f32';
      const rows = rowsOf(spec, 4);
      const values = Array.from({ length: fields }, (_, k) => k + 1);
      rows.copyRaw(1, values);
      expect(Array.from(rows.raw.subarray(0, 3 * fields)), `${fields}`).toEqual([
        ...new Array(fields).fill(0),
        ...values,
        ...new Array(fields).fill(0),
      ]);
      rows.stageRaw(2, values);
      rows.stageRaw(2, values);
      expect(rows.rawCount).toBe(1);
      rows.count = 3;
      rows.runNext = 7;
      rows.endRun();
      expect([rows.rawCount, rows.runNext, ...rows.isRaw.subarray(0, 4)]).toEqual([3, -1, 1, 1, 1, 0]);
    }
  });
});
