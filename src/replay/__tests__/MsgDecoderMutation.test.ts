/**
 * The strict MessagePack decoder called directly, byte by byte: every type byte at the edges of its
 * range, every width of integer, string, bin, array and map with the value and the position after it,
 * every refusal with its code, path and message, and the limits (nesting depth, claimed counts) at
 * exactly their bound and one past it. The loader's tests reach the decoder through whole files and
 * check codes only; these cases pin values, positions and wording, so that a mutant (a range moved by
 * one, a width's read dropped, a message emptied, a path not popped) fails here. Comments name the
 * mutants (Stryker's notation) a case kills.
 */
import { describe, expect, it } from 'vitest';
import { MsgDecoder, MsgFloat } from '../MsgDecoder';
import { ReplayError } from '../ReplayError';

/** Decodes `bytes` from byte `at`; returns the value and the position after it. */
function dec(bytes: number[] | Uint8Array, at = 0, root = 'v'): { value: unknown; position: number } {
  const d = new MsgDecoder(bytes instanceof Uint8Array ? bytes : Uint8Array.from(bytes));
  const value = d.decode(at, root);
  return { value, position: d.position };
}

/** The value of `bytes`, checking that decoding ends at the last byte. */
function val(bytes: number[]): unknown {
  const r = dec(bytes);
  expect(r.position).toBe(bytes.length);
  return r.value;
}

/** The ReplayError decoding `bytes` throws, as { code, path, detail }. */
function failure(
  bytes: number[] | Uint8Array,
  root = 'v',
  d?: MsgDecoder,
): { code: string; path?: string; detail: string } {
  const decoder = d ?? new MsgDecoder(bytes instanceof Uint8Array ? bytes : Uint8Array.from(bytes));
  try {
    decoder.decode(0, root);
  } catch (e) {
    expect(e).toBeInstanceOf(ReplayError);
    const r = e as ReplayError;
    return { code: r.code, path: r.path, detail: r.detail };
  }
  throw new Error('did not throw');
}

/** A MessagePack string header and bytes (`form`: the type byte to use). */
function str(s: string, form: 'fix' | 0xd9 | 0xda | 0xdb = 'fix'): number[] {
  const b = [...new TextEncoder().encode(s)];
  const n = b.length;
  if (form === 'fix') return [0xa0 | n, ...b];
  if (form === 0xd9) return [0xd9, n, ...b];
  if (form === 0xda) return [0xda, n >>> 8, n & 0xff, ...b];
  return [0xdb, n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff, ...b];
}

const be16 = (n: number): number[] => [n >>> 8, n & 0xff];
const be32 = (n: number): number[] => [n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];

describe('MsgDecoder: values', () => {
  it('fixints at both ends of their ranges', () => {
    // t <= 0x7f → < 0x7f; t >= 0xe0 → > 0xe0; t - 256 → t + 256.
    expect(val([0x00])).toBe(0);
    expect(val([0x01])).toBe(1);
    expect(val([0x7f])).toBe(127);
    expect(val([0xe0])).toBe(-32);
    expect(val([0xff])).toBe(-1);
  });

  it('nil, booleans', () => {
    expect(val([0xc0])).toBe(null);
    expect(val([0xc2])).toBe(false);
    expect(val([0xc3])).toBe(true);
  });

  it('unsigned integers of every width, at their largest', () => {
    expect(val([0xcc, 0xff])).toBe(255);
    expect(val([0xcc, 0x80])).toBe(128);
    expect(val([0xcd, 0xff, 0xfe])).toBe(65534);
    expect(val([0xce, 0xff, 0xff, 0xff, 0xfe])).toBe(4294967294);
    // hi · 2^32 + lo (→ hi / 2^32, − lo, hi · 2^32 · lo...).
    expect(val([0xcf, 0, 0, 0, 3, 0, 0, 0, 5])).toBe(3 * 4294967296 + 5);
    expect(val([0xcf, 0, 0x1f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff])).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('signed integers of every width, sign-extended', () => {
    expect(val([0xd0, 0x80])).toBe(-128);
    expect(val([0xd0, 0xff])).toBe(-1);
    expect(val([0xd0, 0x7f])).toBe(127);
    expect(val([0xd1, 0x80, 0x00])).toBe(-32768);
    expect(val([0xd1, 0x7f, 0xff])).toBe(32767);
    expect(val([0xd1, 0xff, 0xfe])).toBe(-2);
    expect(val([0xd2, 0x80, 0, 0, 0])).toBe(-2147483648);
    expect(val([0xd2, 0x7f, 0xff, 0xff, 0xff])).toBe(2147483647);
    expect(val([0xd2, 0xff, 0xff, 0xff, 0xfd])).toBe(-3);
    expect(val([0xd3, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe])).toBe(-2);
    expect(val([0xd3, 0xff, 0xff, 0xff, 0xfe, 0, 0, 0, 7])).toBe(-2 * 4294967296 + 7);
    expect(val([0xd3, 0, 0, 0, 2, 0, 0, 0, 9])).toBe(2 * 4294967296 + 9);
  });

  it('floats as MsgFloat, float32 and float64, and the position after them', () => {
    const f32 = new DataView(new ArrayBuffer(4));
    f32.setFloat32(0, 0.1);
    const f64 = new DataView(new ArrayBuffer(8));
    f64.setFloat64(0, 0.1);
    const bytes = [0x93, 0xca, ...new Uint8Array(f32.buffer), 0xcb, ...new Uint8Array(f64.buffer), 0x07];
    const v = val(bytes) as unknown[];
    expect(v[0]).toBeInstanceOf(MsgFloat);
    expect((v[0] as MsgFloat).value).toBe(Math.fround(0.1));
    expect(v[1]).toBeInstanceOf(MsgFloat);
    expect((v[1] as MsgFloat).value).toBe(0.1);
    expect(v[2]).toBe(7);
  });

  it('strings: fixstr at 0 and 31 bytes, str8, str16 and str32, ASCII and UTF-8 on both paths', () => {
    // t <= 0xbf → < 0xbf; t & 0x1f → t | 0x1f.
    expect(val([0xa0])).toBe('');
    const s31 = 'abcdefghijklmnopqrstuvwxyz01234';
    expect(val(str(s31))).toBe(s31);
    expect(val(str('hi', 0xd9))).toBe('hi');
    expect(val(str('hé', 0xda))).toBe('hé');
    expect(val(str('日本', 0xdb))).toBe('日本');
    // 32 bytes (the last of the ASCII loop) and 33 (TextDecoder): n <= 32 → < 32 / true / false.
    const s32 = `${s31}5`;
    expect(val(str(s32, 0xd9))).toBe(s32);
    expect(val(str(`${s32}6`, 0xd9))).toBe(`${s32}6`);
    // A non-ASCII byte last in a short string, and first: c >= 0x80 → > 0x80 / false.
    expect(val(str('abc\u0080', 0xd9))).toBe('abc\u0080');
    expect(val(str('\u00e9t\u00e9'))).toBe('été');
    const long = `${'x'.repeat(40)}✓`;
    expect(val(str(long, 0xda))).toBe(long);
    // A string followed by more bytes: the loop stops at its end (i < start + n → <=).
    expect(val([0x92, ...str('ab'), ...str('cd')])).toEqual(['ab', 'cd']);
    // Decoded from a later offset: the loop starts at the string, not at 0.
    expect(dec([0xa2, 0x78, 0x79, ...str('zq')], 3).value).toBe('zq');
  });

  it('bin of every width is a view on the input, without a copy', () => {
    const bytes = Uint8Array.from([0x93, 0xc4, 2, 9, 8, 0xc5, 0, 3, 1, 2, 3, 0xc6, 0, 0, 0, 1, 0xaa]);
    const r = dec(bytes);
    expect(r.position).toBe(bytes.length);
    const [a, b, c] = r.value as Uint8Array[];
    expect(Array.from(a)).toEqual([9, 8]);
    expect(Array.from(b)).toEqual([1, 2, 3]);
    expect(Array.from(c)).toEqual([0xaa]);
    expect(a.buffer).toBe(bytes.buffer);
    expect(c.byteOffset).toBe(16);
    // Long widths: 256 and 65,536 bytes.
    const b16 = new Uint8Array(3 + 256);
    b16.set([0xc5, 1, 0]);
    b16[258] = 77;
    const v16 = dec(b16).value as Uint8Array;
    expect(v16.length).toBe(256);
    expect(v16[255]).toBe(77);
    const b32 = new Uint8Array(5 + 65536);
    b32.set([0xc6, 0, 1, 0, 0]);
    b32[5 + 65535] = 5;
    const v32 = dec(b32).value as Uint8Array;
    expect(v32.length).toBe(65536);
    expect(v32[65535]).toBe(5);
  });

  it('arrays: fixarray of 0 and 15, array16 and array32', () => {
    // t <= 0x9f → < 0x9f; t & 0x0f → t | 0x0f.
    expect(val([0x90])).toEqual([]);
    const fifteen = Array.from({ length: 15 }, (_, i) => i);
    expect(val([0x9f, ...fifteen])).toEqual(fifteen);
    expect(val([0x91, 0x05])).toEqual([5]);
    expect(val([0xdc, ...be16(3), 1, 2, 3])).toEqual([1, 2, 3]);
    expect(val([0xdd, ...be32(2), 0xc3, 0xc2])).toEqual([true, false]);
    const many = Array.from({ length: 300 }, (_, i) => i & 0x7f);
    expect(val([0xdc, ...be16(300), ...many])).toEqual(many);
  });

  it('maps: fixmap of 0 and 15, map16 and map32, keys in every string form', () => {
    // t <= 0x8f → < 0x8f; t & 0x0f → t | 0x0f.
    expect(val([0x80])).toEqual(new Map());
    const keys = 'abcdefghijklmno'.split('');
    const fixmap = [0x8f, ...keys.flatMap((k, i) => [...str(k), i])];
    expect(val(fixmap)).toEqual(new Map(keys.map((k, i) => [k, i])));
    expect(val([0xde, ...be16(1), ...str('k', 0xd9), 0x01])).toEqual(new Map([['k', 1]]));
    expect(val([0xdf, ...be32(2), ...str('a', 0xda), 0x02, ...str('b', 0xdb), 0x03])).toEqual(
      new Map([
        ['a', 2],
        ['b', 3],
      ]),
    );
    // Key forms at the fixstr range's ends: 0xa0 (the empty key) and 0xbf (31 bytes).
    const k31 = 'k'.repeat(31);
    expect(val([0x82, 0xa0, 0x01, ...str(k31), 0x02])).toEqual(
      new Map([
        ['', 1],
        [k31, 2],
      ]),
    );
    // Nested values.
    expect(val([0x81, ...str('m'), 0x92, 0x80, 0x90])).toEqual(new Map([['m', [new Map(), []]]]));
  });

  it('decodes from the offset given and leaves the position after the value', () => {
    const bytes = [0x01, 0x02, 0xcd, 0x12, 0x34, 0x05];
    expect(dec(bytes, 2)).toEqual({ value: 0x1234, position: 5 });
    expect(dec(bytes, 5)).toEqual({ value: 5, position: 6 });
    const d = new MsgDecoder(Uint8Array.from([0xce, 0, 0, 1, 0, 0xd9, 1, 0x41]));
    expect(d.decode(0, 'a')).toBe(256);
    expect(d.position).toBe(5);
    expect(d.decode(d.position, 'b')).toBe('A');
    expect(d.position).toBe(8);
  });

  it('reads a view at an offset of a larger buffer', () => {
    const big = new Uint8Array(16);
    big.set([0xcd, 0x01, 0x02, 0xcb, 0x3f, 0xf8, 0, 0, 0, 0, 0, 0], 4);
    const view = big.subarray(4, 16);
    const d = new MsgDecoder(view);
    expect(d.decode(0, 'x')).toBe(0x0102);
    expect((d.decode(3, 'x') as MsgFloat).value).toBe(1.5);
  });
});

describe('MsgDecoder: refusals', () => {
  it('0xc1 and the extension types, with the type byte', () => {
    expect(failure([0xc1])).toEqual({ code: 'CORRUPT', path: 'v', detail: 'MessagePack byte 0xc1 is never used' });
    for (const t of [0xc7, 0xc8, 0xc9, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8]) {
      expect(failure([t, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18])).toEqual({
        code: 'CORRUPT',
        path: 'v',
        detail: `MessagePack extension type (byte 0x${t.toString(16)}): the format uses none`,
      });
    }
  });

  it('a value cut short says how many bytes it needs; a value ending at the last byte is whole', () => {
    // position + n > length → >= (an exact fit refused), → true, the message emptied.
    const cases: Array<[number[], number]> = [
      [[], 1],
      [[0xcc], 1],
      [[0xcd, 1], 2],
      [[0xce, 1, 2, 3], 4],
      [[0xcf, 0, 0, 0, 0, 1], 4],
      [[0xca, 0, 0], 4],
      [[0xcb, 0, 0, 0, 0, 0, 0, 0], 8],
      [[0xa3, 0x41, 0x42], 3],
      [[0xd9, 40, 0x41], 40],
      [[0xc4, 3, 1, 2], 3],
      [[0xc5, 0], 2],
    ];
    for (const [bytes, n] of cases) {
      expect(failure(bytes)).toEqual({
        code: 'TRUNCATED',
        path: 'v',
        detail: `the file ends inside a MessagePack value (${n} more bytes needed)`,
      });
    }
    expect(val([0xcd, 1, 2])).toBe(258);
    expect(val([0xca, 0, 0, 0, 0])).toEqual(new MsgFloat(0));
    expect(val([0xcb, 0, 0, 0, 0, 0, 0, 0, 0])).toEqual(new MsgFloat(0));
    expect(val([0xa2, 0x41, 0x42])).toBe('AB');
    expect(Array.from(val([0xc4, 2, 1, 2]) as Uint8Array)).toEqual([1, 2]);
  });

  it('invalid UTF-8 on both string paths', () => {
    const bad = { code: 'CORRUPT', path: 'v', detail: 'a string is not valid UTF-8' };
    expect(failure([0xa1, 0x80])).toEqual(bad);
    expect(failure([0xa2, 0x41, 0xff])).toEqual(bad);
    expect(failure([0xd9, 40, ...new Array<number>(39).fill(0x41), 0xc3])).toEqual(bad);
  });

  it('an array or map claiming more elements than bytes remain, at exactly the bound', () => {
    // n > left → >= (an exact fit refused) / true; 2 · n > left → >=, 2 / n, left + position...
    expect(failure([0x93, 1, 2])).toEqual({
      code: 'TRUNCATED',
      path: 'v',
      detail: 'an array of 3 elements cannot fit in the 2 bytes left',
    });
    expect(val([0x93, 1, 2, 3])).toEqual([1, 2, 3]);
    expect(failure([0xdd, 0xff, 0xff, 0xff, 0xff, 1, 2])).toEqual({
      code: 'TRUNCATED',
      path: 'v',
      detail: 'an array of 4294967295 elements cannot fit in the 2 bytes left',
    });
    expect(failure([0x82, 0xa0, 0x01, 0xa0])).toEqual({
      code: 'TRUNCATED',
      path: 'v',
      detail: 'a map of 2 entries cannot fit in the 3 bytes left',
    });
    expect(val([0x81, 0xa0, 0x01])).toEqual(new Map([['', 1]]));
    expect(val([0x82, 0xa0, 0x01, 0xa1, 0x61, 0x02])).toEqual(
      new Map([
        ['', 1],
        ['a', 2],
      ]),
    );
    // Decoded from an offset: the bytes left are counted from the position, not from 0.
    expect(dec([0x00, 0x00, 0x92, 1, 2], 2).value).toEqual([1, 2]);
    expect(dec([0x00, 0x00, 0x81, 0xa0, 2], 2).value).toEqual(new Map([['', 2]]));
    const d = new MsgDecoder(Uint8Array.from([0x00, 0x00, 0x92, 1]));
    expect(() => d.decode(2, 'v')).toThrow('an array of 2 elements cannot fit in the 1 bytes left');
    const m = new MsgDecoder(Uint8Array.from([0x00, 0x00, 0x81, 0xa0]));
    expect(() => m.decode(2, 'v')).toThrow('a map of 1 entries cannot fit in the 1 bytes left');
  });

  it('a map whose entries run past the end is TRUNCATED at the next key', () => {
    // The count fits (2 · 2 ≤ 4) but the first entry takes all 4 bytes: `need(1)` before the key.
    expect(failure([0x82, 0xa1, 0x61, 0xcc, 0x05])).toEqual({
      code: 'TRUNCATED',
      path: 'v',
      detail: 'the file ends inside a MessagePack value (1 more bytes needed)',
    });
  });

  it('map keys must be strings: every non-string type byte is refused with its index and byte', () => {
    for (const t of [0x00, 0x7f, 0x80, 0x9f, 0xc0, 0xc4, 0xcc, 0xd8, 0xdc, 0xde, 0xe0]) {
      expect(failure([0x82, 0xa0, 0x01, t, 0x00, 0x00, 0x00, 0x00, 0x00])).toEqual({
        code: 'CORRUPT',
        path: 'v',
        detail: `map key 1 is not a string (MessagePack byte 0x${t.toString(16)})`,
      });
    }
    expect(failure([0x81, 0x01, 0x02])).toEqual({
      code: 'CORRUPT',
      path: 'v',
      detail: 'map key 0 is not a string (MessagePack byte 0x1)',
    });
  });

  it('a key twice is CORRUPT, named (its first 64 units)', () => {
    expect(failure([0x83, ...str('a'), 1, ...str('b'), 2, ...str('a'), 3])).toEqual({
      code: 'CORRUPT',
      path: 'v',
      detail: 'key "a" appears twice',
    });
    const long = `${'k'.repeat(64)}TAIL`;
    expect(failure([0x82, ...str(long, 0xd9), 1, ...str(long, 0xd9), 2])).toEqual({
      code: 'CORRUPT',
      path: 'v',
      detail: `key "${'k'.repeat(64)}" appears twice`,
    });
  });

  it('nesting: 64 levels of arrays or maps decode, 65 are TOO_LARGE', () => {
    // depth >= 64 → > 64 / true / false; depth + 1 → depth - 1.
    const arrays = (levels: number): number[] => [...new Array<number>(levels - 1).fill(0x91), 0x90];
    let v = val(arrays(64));
    for (let i = 0; i < 63; i++) v = (v as unknown[])[0];
    expect(v).toEqual([]);
    const deep = failure(arrays(65));
    expect(deep.code).toBe('TOO_LARGE');
    expect(deep.detail).toBe('values nested deeper than 64 levels');
    expect(deep.path).toBe(`v${'[0]'.repeat(64)}`);
    const maps = (levels: number): number[] => [
      ...new Array<number>(levels - 1).fill(0).flatMap(() => [0x81, 0xa0]),
      0x80,
    ];
    let m = val(maps(64));
    for (let i = 0; i < 63; i++) m = (m as Map<string, unknown>).get('');
    expect(m).toEqual(new Map());
    const deepMap = failure(maps(65));
    expect(deepMap.code).toBe('TOO_LARGE');
    expect(deepMap.detail).toBe('values nested deeper than 64 levels');
    expect(deepMap.path).toBe(`v${'.'.repeat(64)}`);
    // A map at the 64th level holds its key and a scalar value one level further down: no limit applies.
    let last = val([...arrays(64).slice(0, 63), 0x81, 0xa0, 0x00]);
    for (let i = 0; i < 63; i++) last = (last as unknown[])[0];
    expect(last).toEqual(new Map([['', 0]]));
  });
});

describe('MsgDecoder: error paths', () => {
  it('name the root, array indices and map keys down to the value, and only those', () => {
    // path.push / pop removed, `[${p}]` and `.${p}` emptied.
    const bytes = [0x82, ...str('a'), 0x92, 1, 2, ...str('b'), 0x93, 0x01, 0x81, ...str('c'), 0x90, 0xc1];
    expect(failure(bytes, 'header')).toEqual({
      code: 'CORRUPT',
      path: 'header.b[2]',
      detail: 'MessagePack byte 0xc1 is never used',
    });
    const inner = [0x92, 0x80, 0x81, ...str('key'), 0x92, 0x00, 0xc1];
    expect(failure(inner, 'frames').path).toBe('frames[1].key[1]');
    // A duplicate key is reported at the map, before the key is pushed.
    expect(failure([0x91, 0x82, ...str('x'), 0, ...str('x'), 0], 'r').path).toBe('r[0]');
  });

  it('cut long keys to 64 units with an ellipsis', () => {
    // p.length > 64 → >= 64 / true / false; slice(0, 64) → the whole key.
    const k64 = 'a'.repeat(64);
    const k65 = `${'b'.repeat(64)}X`;
    expect(failure([0x81, ...str(k64, 0xd9), 0xc1], 'h').path).toBe(`h.${k64}`);
    expect(failure([0x81, ...str(k65, 0xd9), 0xc1], 'h').path).toBe(`h.${'b'.repeat(64)}…`);
  });

  it('start afresh on each decode: the root and path of the last decode only', () => {
    // this.path.length = 0 removed; this.root = root removed.
    const d = new MsgDecoder(Uint8Array.from([0x91, 0x81, 0xa1, 0x61, 0xc1, 0x92, 0x00, 0xc1]));
    expect(() => d.decode(0, 'first')).toThrow(ReplayError);
    try {
      d.decode(5, 'second');
      throw new Error('did not throw');
    } catch (e) {
      expect((e as ReplayError).path).toBe('second[1]');
    }
  });
});
