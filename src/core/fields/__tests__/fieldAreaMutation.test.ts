/**
 * FieldArea called directly (the recorder's stage of a typed columns call in the frame's layout):
 * which columns qualify and which blocks fit (`stage` returns -1 and writes nothing otherwise: the
 * recorder then takes the staging columns, which write the same frame, so only these calls tell the
 * two apart), the words a block holds with its repairs, `copyOut` into the area's own buffer or
 * another, and `unpack` back into the staging columns. Comments name the mutants (Stryker's
 * notation, lines of FieldArea.ts as measured in run `fwa`) a case kills.
 */
import { describe, expect, it } from 'vitest';
import { FieldArea } from '../FieldArea';
import { FieldRows } from '../FieldRows';
import { FieldSchemas } from '../FieldSchemas';
import { FieldStage } from '../FieldStage';
import type { FieldType } from '../fieldLayout';

const MAX_ID = 1000;
const bits = (v: number) => new Uint32Array(Float32Array.of(v).buffer)[0];

function rowsOf(spec: Record<string, FieldType>, names = 0): FieldRows {
  const s = new FieldSchemas().declare('k', spec);
  for (let i = 0; i < names; i++) s.code(`n${i}`);
  return new FieldRows(s, 64, MAX_ID);
}

/** An area of `words` words at word 2 of a buffer of its own (so that `base` is not 0). */
function area(words: number): FieldArea {
  return new FieldArea({ buffer: new ArrayBuffer((words + 4) * 4), byteOffset: 8, bytes: words * 4 });
}

describe('FieldArea.stage: which columns qualify', () => {
  it('takes a typed array of each type, exactly long enough or at most twice plus 64', () => {
    // 98 (`columns.length < n`), 107 (the column checks), 109 (`len < count * per`, the long-column bound), 111, 114, 117.
    const cases: Array<[FieldType, (n: number) => ArrayLike<number>, ArrayLike<number>[]]> = [
      ['f32', (n) => new Float32Array(n), [new Float64Array(4), new Int32Array(4), [1, 2, 3, 4]]],
      ['vec3', (n) => new Float32Array(3 * n), [new Float64Array(12), new Float32Array(11)]],
      ['i32', (n) => new Int32Array(n), [new Float32Array(4), new Uint32Array(4), new Uint8Array(4)]],
      ['entity', (n) => new Int32Array(n), [new Float32Array(4), new Int16Array(4)]],
      ['u8', (n) => new Uint8Array(n), [new Int8Array(4), new Uint8ClampedArray(4), new Int32Array(4)]],
      ['bool', (n) => new Uint8Array(n), [new Int8Array(4), new Float32Array(4)]],
      ['enum', (n) => new Uint8Array(n), [new Uint8ClampedArray(4), new Int32Array(4)]],
    ];
    for (const [type, make, bad] of cases) {
      const per = type === 'vec3' ? 3 : 1;
      const ok = (len: number) => {
        const rows = rowsOf({ x: type }, 3);
        return area(1024).stage(rows, 4, [make(len / per)], MAX_ID);
      };
      expect(ok(4 * per), type).toBe(0);
      expect(ok(2 * 4 * per + 64 - ((2 * 4 * per + 64) % per)), type).toBe(0);
      expect(ok(4 * per - per), type).toBe(-1);
      if (per === 1) expect(ok(2 * 4 + 65), type).toBe(-1);
      else expect(ok(2 * 12 + 66), type).toBe(-1);
      for (const col of bad) expect(area(1024).stage(rowsOf({ x: type }, 3), 4, [col], MAX_ID), type).toBe(-1);
      for (const col of [null, undefined, 5, 'abcd'])
        expect(area(1024).stage(rowsOf({ x: type }, 3), 4, [col as never], MAX_ID), `${type} ${col}`).toBe(-1);
      // Fewer columns than fields.
      expect(area(1024).stage(rowsOf({ x: type, y: 'f32' }, 3), 4, [make(4)], MAX_ID), type).toBe(-1);
    }
  });

  it('stages a block that fits the area to its last word, and none that passes it', () => {
    // 112, 115, 118 (each column's reach, its spill counted), 120, 122 (`p > reach`), 123 (`reach > words` → `>=`).
    const fits = (spec: Record<string, FieldType>, cols: ArrayLike<number>[], words: number) => {
      const a = area(words);
      const rows = rowsOf(spec, 3);
      const got = a.stage(rows, 4, cols, MAX_ID);
      return [got, a.used, rows.directAt, rows.directRows];
    };
    // Header 3 + f32 4 + bool 1 + u8 1 = 9 words.
    const spec: Record<string, FieldType> = { a: 'f32', b: 'bool', c: 'u8' };
    const cols = () => [new Float32Array(4), new Uint8Array(4), new Uint8Array(4)];
    expect(fits(spec, cols(), 9)).toEqual([0, 9, 0, 4]);
    expect(fits(spec, cols(), 8)).toEqual([-1, 0, -1, 0]);
    // The last column's spill: an i32 column of 20 values reaches 3 + 20 words.
    expect(fits({ a: 'i32' }, [new Int32Array(20)], 23)).toEqual([0, 7, 0, 4]);
    expect(fits({ a: 'i32' }, [new Int32Array(20)], 22)).toEqual([-1, 0, -1, 0]);
    expect(fits({ a: 'entity' }, [new Int32Array(20)], 22)[0]).toBe(-1);
    expect(fits({ a: 'f32' }, [new Float32Array(20)], 23)[0]).toBe(0);
    expect(fits({ a: 'f32' }, [new Float32Array(20)], 22)[0]).toBe(-1);
    // A u8 column of 21 bytes spills into 6 words, an enum's too; a bool's copy stays in the staging column.
    expect(fits({ a: 'u8' }, [new Uint8Array(21)], 9)[0]).toBe(0);
    expect(fits({ a: 'u8' }, [new Uint8Array(21)], 8)[0]).toBe(-1);
    expect(fits({ a: 'enum' }, [new Uint8Array(21)], 8)[0]).toBe(-1);
    expect(fits({ a: 'bool' }, [new Uint8Array(21)], 4)).toEqual([0, 4, 0, 4]);
    // A vec3's copy is moved value by value: no spill.
    expect(fits({ a: 'vec3' }, [new Float32Array(60)], 15)).toEqual([0, 15, 0, 4]);
    expect(fits({ a: 'vec3' }, [new Float32Array(60)], 14)[0]).toBe(-1);
    // The spill of an earlier column counts too, where later columns are shorter.
    expect(fits({ a: 'i32', b: 'bool' }, [new Int32Array(30), new Uint8Array(4)], 33)[0]).toBe(0);
    expect(fits({ a: 'i32', b: 'bool' }, [new Int32Array(30), new Uint8Array(4)], 32)[0]).toBe(-1);
  });

  it('counts the farthest reach of every column, whatever the order of the columns', () => {
    // 112, 115, 118 (`true`: a later, shorter column's reach replacing an earlier, longer one's),
    // 118:39 (`len - 3`: a byte column's spill under-counted). Otherwise the copy throws past the area.
    const st = (spec: Record<string, FieldType>, cols: ArrayLike<number>[]) =>
      area(12).stage(rowsOf(spec), 4, cols, MAX_ID);
    // An i32 column reaching word 12 (the area's end), then a u8 column of 21 bytes reaching word 13.
    expect(st({ a: 'i32', b: 'u8' }, [new Int32Array(9), new Uint8Array(21)])).toBe(-1);
    expect(st({ a: 'i32', b: 'u8' }, [new Int32Array(9), new Uint8Array(17)])).toBe(0);
    // A long column first, past the area, then a short one of each kind.
    expect(st({ a: 'i32', b: 'f32' }, [new Int32Array(10), new Float32Array(4)])).toBe(-1);
    expect(st({ a: 'f32', b: 'i32' }, [new Float32Array(10), new Int32Array(4)])).toBe(-1);
    expect(st({ a: 'i32', b: 'enum' }, [new Int32Array(10), new Uint8Array(4)])).toBe(-1);
    expect(st({ a: 'i32', b: 'f32' }, [new Int32Array(9), new Float32Array(4)])).toBe(0);
  });

  it('has an area of its own of 64 kB by default', () => {
    // 74 (the default storage).
    const a = new FieldArea();
    expect([a.words, a.u32.length, a.u8.length]).toEqual([16384, 16384, 65536]);
    expect(a.stage(rowsOf({ a: 'i32' }), 4, [Int32Array.of(1, 2, 3, 4)], MAX_ID)).toBe(0);
    expect(a.stage(rowsOf({ a: 'i32' }), 16381, [new Int32Array(16381)], MAX_ID)).toBe(-1);
  });

  it('stages the next block after the last, and begins anew', () => {
    // 99 (`at = used`), 158 to 160, 86 (`begin`).
    const a = area(100);
    const r1 = rowsOf({ a: 'i32' });
    const r2 = rowsOf({ a: 'i32', b: 'u8' });
    expect(a.stage(r1, 3, [Int32Array.of(1, 2, 3)], MAX_ID)).toBe(0);
    expect(a.stage(r2, 2, [Int32Array.of(7, 8), Uint8Array.of(9, 10)], MAX_ID)).toBe(0);
    expect([r1.directAt, r1.directRows, r2.directAt, r2.directRows, a.used]).toEqual([0, 3, 6, 2, 12]);
    expect(Array.from(a.u32.subarray(9, 12))).toEqual([7, 8, 9 | (10 << 8)]);
    a.begin();
    expect(a.used).toBe(0);
  });
});

describe('FieldArea.stage: values and repairs', () => {
  it('repairs each non-finite float wherever it falls among the four sums', () => {
    // 165 to 190 (checkFloats: the four lanes, the tail, the sum, the repair pass).
    for (let count = 1; count <= 9; count++) {
      for (let at = 0; at < count; at++) {
        for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
          const a = area(64);
          const rows = rowsOf({ a: 'f32' });
          const col = Float32Array.from({ length: count }, (_, i) => i + 0.5);
          col[at] = bad;
          expect(a.stage(rows, count, [col], MAX_ID), `${count} ${at}`).toBe(1);
          const want = Array.from(col, (v, i) => (i === at ? 0 : bits(v)));
          expect(Array.from(a.u32.subarray(3, 3 + count)), `${count} ${at}`).toEqual(want);
        }
      }
    }
    const a = area(64);
    expect(a.stage(rowsOf({ a: 'f32' }), 6, [Float32Array.of(Number.NaN, 1, Number.NaN, 2, 3, Infinity)], MAX_ID)).toBe(
      3,
    );
    expect(a.stage(rowsOf({ a: 'f32' }), 3, [Float32Array.of(-3e38, 3e38, -0)], MAX_ID)).toBe(0);
    // The copy's spill (a NaN just past the rows) is no value of the column: 184 (`j <= end`).
    const b = area(64);
    const spill = [Float32Array.of(Number.NaN, 1, Number.NaN), Int32Array.of(5, 6)];
    expect(b.stage(rowsOf({ a: 'f32', b: 'i32' }), 2, spill, MAX_ID)).toBe(1);
    expect(Array.from(b.u32.subarray(3, 7))).toEqual([0, bits(1), 5, 6]);
  });

  it('repairs vec3 components that are not finite, in any axis, moving x, y, z to columns', () => {
    // 225 to 254 (stageVec3: the axes' columns, the sums, the exponent mask).
    for (let at = 0; at < 9; at++) {
      for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
        const a = area(64);
        const col = Float32Array.from({ length: 9 }, (_, i) => (i % 2 === 0 ? i + 1 : -(i + 1)) * 1e30);
        col[at] = bad;
        expect(a.stage(rowsOf({ v: 'vec3' }), 3, [col], MAX_ID), `${at}`).toBe(1);
        const want: number[] = [];
        for (let axis = 0; axis < 3; axis++)
          for (let q = 0; q < 3; q++) want.push(q * 3 + axis === at ? 0 : bits(col[q * 3 + axis]));
        expect(Array.from(a.u32.subarray(3, 12)), `${at}`).toEqual(want);
      }
    }
    // Stale words after the columns (NaN bits) are no values of the column: 247 (`i <= end`).
    const a = area(64);
    a.u32.fill(0x7fc00000);
    const cols = [Float32Array.of(1, Number.NaN, 3), Int32Array.of(4)];
    expect(a.stage(rowsOf({ v: 'vec3', n: 'i32' }), 1, cols, MAX_ID)).toBe(1);
    expect(Array.from(a.u32.subarray(3, 7))).toEqual([bits(1), 0, bits(3), 4]);
  });

  it('repairs entity ids outside [-1, maxEntityId) and enum codes without a name', () => {
    // 194 to 218 (checkEntities, checkEnums at their bounds), 152 (the names of the schema).
    const a = area(64);
    const rows = rowsOf({ e: 'entity', s: 'enum' }, 3);
    const ids = Int32Array.of(-2, -1, 0, MAX_ID - 1, MAX_ID, -2147483648);
    const codes = Uint8Array.of(0, 2, 3, 254, 255, 1);
    expect(a.stage(rows, 6, [ids, codes], MAX_ID)).toBe(6);
    expect(Array.from(a.i32.subarray(3, 9))).toEqual([-1, -1, 0, MAX_ID - 1, -1, -1]);
    expect(Array.from(a.u8.subarray(36, 44))).toEqual([0, 2, 255, 255, 255, 1, 0, 0]);
  });

  it('zeroes the padding of byte columns over stale words and an earlier spill', () => {
    // 149 to 155 (the padding loop's bounds).
    const a = area(64);
    a.u32.fill(0xffffffff);
    const rows = rowsOf({ a: 'u8', b: 'enum', c: 'bool' }, 9);
    // The u8 column of 5 bytes copied from a longer column (its spill is the enum column's, then overwritten).
    expect(
      a.stage(
        rows,
        5,
        [Uint8Array.of(1, 2, 3, 4, 5, 6, 7, 8, 9), Uint8Array.of(8, 7, 6, 5, 4), Uint8Array.of(1, 0, 2, 0, 1)],
        MAX_ID,
      ),
    ).toBe(0);
    expect(Array.from(a.u32.subarray(3, 8))).toEqual([0x04030201, 5, 0x05060708, 4, 0b10101]);
    expect(a.u32[8]).toBe(0xffffffff);
  });
});

describe('FieldArea.copyOut and unpack', () => {
  it('writes a block into its own buffer at the target offset, or word by word into another', () => {
    // 260 to 275 (the header, `blockWordsOf`, the shared-buffer test, `base + at`, the target offset).
    const buffer = new ArrayBuffer(1024 * 4);
    const a = new FieldArea({ buffer, byteOffset: 512 * 4, bytes: 256 * 4 });
    const rows = rowsOf({ a: 'i32', b: 'vec3', c: 'u8', d: 'bool' });
    a.stage(rowsOf({ a: 'f32' }), 1, [Float32Array.of(1)], MAX_ID); // a first block: `at` is 4
    expect(
      a.stage(
        rows,
        2,
        [Int32Array.of(5, 6), Float32Array.of(1, 2, 3, 4, 5, 6), Uint8Array.of(7, 8), Uint8Array.of(0, 9)],
        MAX_ID,
      ),
    ).toBe(0);
    const block = [0, 2, 17, 5, 6, bits(1), bits(4), bits(2), bits(5), bits(3), bits(6), 7 | (8 << 8), 0b10];
    const view = (byteOffset: number, buf: ArrayBuffer = buffer) => ({
      u32: new Uint32Array(buf, byteOffset, 64),
      f32: new Float32Array(buf, byteOffset, 64),
      u8: new Uint8Array(buf, byteOffset, 256),
      frameCount: 0,
      newestFrame: -1,
      buffer: buf,
      byteOffset,
    });
    const shared = view(40 * 4);
    expect(a.copyOut(rows, 17, shared, 10)).toBe(block.length);
    expect(Array.from(shared.u32.subarray(10, 10 + block.length))).toEqual(block);
    expect(shared.u32[9]).toBe(0);
    expect(shared.u32[10 + block.length]).toBe(0);
    a.u32[a.used] = 99; // the word after the block: 272 (`i <= words`)
    const other = view(8, new ArrayBuffer(2048));
    expect(a.copyOut(rows, 17, other, 3)).toBe(block.length);
    expect(Array.from(other.u32.subarray(2, 4 + block.length))).toEqual([0, ...block, 0]);
  });

  it('moves a block back into the staging columns, every type', () => {
    // 281 to 311 (unpack: each type's columns, the bool bits past a word, the bytes, the next column's offset).
    const a = area(256);
    const rows = rowsOf({ v: 'vec3', f: 'f32', i: 'i32', e: 'entity', b: 'bool', u: 'u8', s: 'enum' }, 3);
    const n = 35;
    const seq = (k: number, f: (i: number) => number) => Array.from({ length: k }, (_, i) => f(i));
    const cols = [
      Float32Array.from(seq(3 * n, (i) => i / 4)),
      Float32Array.from(seq(n, (i) => -i)),
      Int32Array.from(seq(n, (i) => i * 1000 - 7)),
      Int32Array.from(seq(n, (i) => i - 1)),
      Uint8Array.from(seq(n, (i) => (i % 3 === 0 ? 1 : 0))),
      Uint8Array.from(seq(n, (i) => 200 + i)),
      Uint8Array.from(seq(n, (i) => i % 3)),
    ];
    a.stage(rowsOf({ a: 'u8' }), 3, [Uint8Array.of(1, 2, 3)], MAX_ID);
    expect(a.stage(rows, n, cols, MAX_ID)).toBe(0);
    a.unpack(rows);
    expect([rows.directAt, rows.directRows]).toEqual([-1, 0]);
    expect(Array.from(rows.f32[0].subarray(0, 3 * n))).toEqual(Array.from(cols[0]));
    expect(Array.from(rows.f32[1].subarray(0, n))).toEqual(Array.from(cols[1]));
    expect(Array.from(rows.i32[2].subarray(0, n))).toEqual(Array.from(cols[2]));
    expect(Array.from(rows.i32[3].subarray(0, n))).toEqual(Array.from(cols[3]));
    expect(Array.from(rows.u8[4].subarray(0, n))).toEqual(Array.from(cols[4]));
    expect(Array.from(rows.u8[5].subarray(0, n))).toEqual(Array.from(cols[5]));
    expect(Array.from(rows.u8[6].subarray(0, n))).toEqual(Array.from(cols[6]));
  });
});

describe('FieldStage.areaBytes', () => {
  it('is the budget rounded up to 8 bytes, at most 4 MB, plus 4 kB', () => {
    // FieldStage 94 (the clamps and the rounding).
    const got = [-8, 0, 1, 8, 9, (4 << 20) - 1, 4 << 20, 8 << 20].map((b) => FieldStage.areaBytes(b));
    expect(got).toEqual([4096, 4096, 4104, 4104, 4112, (4 << 20) + 4096, (4 << 20) + 4096, (4 << 20) + 4096]);
  });
});
