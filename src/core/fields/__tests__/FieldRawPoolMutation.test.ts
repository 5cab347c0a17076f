import { describe, expect, it } from 'vitest';
import type { FieldFn } from '../../kernel/EntityKernel';
import { FieldRawPool } from '../FieldRawPool';

/**
 * FieldRawPool called directly (run `fwriter`, seventh session: 41 of its 60 mutants survived the
 * fields tests, since rows staged in the region or in arrays of their own are converted into the same
 * bytes). Its documented rules: views handed out in order from the region's first multiple of 8, each
 * zeroed, while the region has room (to its last byte); arrays of their own once it is used up, or
 * without a region or a kernel conversion; `converts` only for rows, marks and target all in the
 * region's buffer; `bytesFor` four times the budget, at most 16 MB, a multiple of 8. Each case names
 * the mutants it kills.
 */

const convert: FieldFn = () => 0;

/** A 256-byte buffer of 0xff, and a region of `bytes` bytes at byte 12 of it. */
function region(bytes: number): { buffer: ArrayBuffer; pool: FieldRawPool } {
  const buffer = new ArrayBuffer(256);
  new Uint8Array(buffer).fill(0xff);
  return { buffer, pool: new FieldRawPool({ buffer, byteOffset: 12, bytes }, convert) };
}

describe('FieldRawPool, mutation pass', () => {
  it('hands out zeroed views of the region in order, from its first multiple of 8 to its last byte', () => {
    // Kills `Math.ceil(byteOffset / 8) * 8` → `byteOffset * 8` (58:36), the end `byteOffset - bytes`
    // (59:25), take's and takeBytes' room tests (`false`, `||`, `true`, `buffer === null`, `<`, `>`,
    // `next - bytes`, the blocks emptied: 65, 77) and takeBytes' `Math.ceil(bytes / 8) * 8` → `bytes * 8`
    // (76:29).
    const { buffer, pool } = region(100);
    // Region [12, 112): views start at 16.
    const a = pool.take(4);
    expect([a.buffer === buffer, a.byteOffset, a.length, ...a]).toEqual([true, 16, 4, 0, 0, 0, 0]);
    const m = pool.takeBytes(5);
    expect([m.buffer === buffer, m.byteOffset, m.length, ...m]).toEqual([true, 48, 5, 0, 0, 0, 0, 0]);
    // 56 bytes from 56: exactly to the region's end.
    const b = pool.take(7);
    expect([b.buffer === buffer, b.byteOffset, b.length, ...b]).toEqual([true, 56, 7, 0, 0, 0, 0, 0, 0, 0]);
    // Used up: arrays of their own, zeroed.
    const c = pool.take(1);
    const d = pool.takeBytes(1);
    expect([c.buffer === buffer, c.length, c[0], d.buffer === buffer, d.length, d[0]]).toEqual([
      false,
      1,
      0,
      false,
      1,
      0,
    ]);
    // The bytes around the views are as they were: before 16, between the marks and the next view
    // (53 to 55, the marks' padding) and past the region.
    const u8 = new Uint8Array(buffer);
    expect([...u8.subarray(0, 16)]).toEqual(new Array(16).fill(0xff));
    expect([...u8.subarray(53, 56)]).toEqual([0xff, 0xff, 0xff]);
    expect([...u8.subarray(112)]).toEqual(new Array(256 - 112).fill(0xff));
  });

  it('refuses a view one byte past the region, and marks rounded up to 8 bytes', () => {
    // Kills `next + bytes <= end` → `<` / `true` (65:33) and the same of takeBytes (77:33) at the edge.
    const { buffer, pool } = region(44);
    // Region [12, 56): 40 bytes from 16. Six float64s do not fit, five do, then nothing.
    expect(pool.take(6).buffer === buffer).toBe(false);
    expect(pool.take(5).byteOffset).toBe(16);
    expect(pool.take(1).buffer === buffer).toBe(false);
    const p2 = region(52).pool;
    // [12, 64): 48 bytes from 16; 40 taken, then marks of 8 bytes fit exactly, then nothing.
    expect(p2.take(5).byteOffset).toBe(16);
    const marks = p2.takeBytes(8);
    expect([marks.byteOffset, marks.length]).toEqual([56, 8]);
    expect(p2.takeBytes(1).byteOffset).toBe(0);
    // Marks of 1 byte take 8: after them, 8 bytes more still fit.
    const p3 = region(28).pool;
    // [12, 40): 24 bytes from 16.
    expect(p3.takeBytes(1).byteOffset).toBe(16);
    expect(p3.take(1).byteOffset).toBe(24);
    expect(p3.takeBytes(8).byteOffset).toBe(32);
    expect(p3.take(1).byteOffset).toBe(0);
  });

  it('uses no region without storage or without a conversion', () => {
    // Kills `usable`'s `storage !== undefined && convert !== null` → `true`, `false`, `||`, and each
    // side `true` or negated (55:20, 55:45).
    const buffer = new ArrayBuffer(256);
    for (const pool of [
      new FieldRawPool(),
      new FieldRawPool(undefined, convert),
      new FieldRawPool({ buffer, byteOffset: 0, bytes: 256 }),
      new FieldRawPool({ buffer, byteOffset: 0, bytes: 256 }, null),
    ]) {
      const v = pool.take(2);
      const m = pool.takeBytes(3);
      expect([pool.convert, v.buffer === buffer, v.length, m.buffer === buffer, m.length]).toEqual([
        null,
        false,
        2,
        false,
        3,
      ]);
      expect(pool.converts(v, m, buffer)).toBe(false);
    }
    const used = new FieldRawPool({ buffer, byteOffset: 0, bytes: 256 }, convert);
    expect(used.convert).toBe(convert);
    expect(used.take(2).buffer === buffer).toBe(true);
  });

  it('converts only rows, marks and a target all in its buffer', () => {
    // Kills `converts` emptied (90:91), `convert !== null` → `=== null` (92:7), `marks.buffer ===` →
    // `true` / `!==` (92:62) and `target ===` → `true` / `!==` (92:94).
    const { buffer, pool } = region(200);
    const raw = pool.take(4);
    const marks = pool.takeBytes(4);
    expect(pool.converts(raw, marks, buffer)).toBe(true);
    expect(pool.converts(new Float64Array(4), marks, buffer)).toBe(false);
    expect(pool.converts(raw, new Uint8Array(4), buffer)).toBe(false);
    expect(pool.converts(raw, marks, new ArrayBuffer(256))).toBe(false);
  });

  it('sizes the region at four times the budget, at most 16 MB, in whole float64s', () => {
    // Kills bytesFor's `/ 8` → `* 8`, `Math.min` → `Math.max` (101:22), `* 4` → `/ 4` and
    // `Math.max(budgetBytes, 0)` → `Math.min` (101:31).
    expect([0, -5, 1, 3, 10, 4096, 4 << 20, (4 << 20) + 1, 1e12].map((b) => FieldRawPool.bytesFor(b))).toEqual([
      0,
      0,
      8,
      16,
      40,
      16384,
      16 << 20,
      16 << 20,
      16 << 20,
    ]);
  });
});
