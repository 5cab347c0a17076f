/**
 * The loader's small building blocks called directly: the schema checks with their codes, paths and
 * messages at each bound, MapReader's required, optional and unknown fields, the warning list's cap
 * and a throwing listener, ReplayError's message and the checksum. The loader's tests reach these
 * through whole files; these cases pin them, so that a mutant (a bound moved by one, a message
 * emptied, a warning dropped) fails here. Comments name the mutants (Stryker's notation) a case kills.
 */
import { describe, expect, it } from 'vitest';
import { CHECKSUM_SEED, checksumWords } from '../checksum';
import { MapReader } from '../MapReader';
import { MsgFloat } from '../MsgDecoder';
import { ReplayError, type ReplayWarning } from '../ReplayError';
import { asArray, asBin, asBool, asInt, asString, corrupt, tooLarge, typeName } from '../schema';
import { WarningList } from '../WarningList';

/** The ReplayError `fn` throws, as [code, path, detail, message]. */
function failure(fn: () => unknown): [string, string | undefined, string, string] {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ReplayError);
    const r = e as ReplayError;
    expect(r.name).toBe('ReplayError');
    return [r.code, r.path, r.detail, r.message];
  }
  throw new Error('did not throw');
}

describe('ReplayError', () => {
  it('states code, path and detail in its message', () => {
    const e = new ReplayError('CORRUPT', 'bad', 'header.x');
    expect([e.code, e.path, e.detail, e.message]).toEqual([
      'CORRUPT',
      'header.x',
      'bad',
      'rewindable replay CORRUPT at header.x: bad',
    ]);
    const f = new ReplayError('TRUNCATED', 'short');
    expect([f.path, f.message]).toEqual([undefined, 'rewindable replay TRUNCATED: short']);
    expect(f).toBeInstanceOf(Error);
  });
});

describe('schema checks', () => {
  it('typeName names every kind of decoded value', () => {
    class Thing {}
    const bare = Object.create(null) as object;
    const nameless = { constructor: { name: 5 } };
    expect(
      [
        null,
        [1],
        new Uint8Array(1),
        new Map(),
        new MsgFloat(1.5),
        new Thing(),
        {},
        bare,
        nameless,
        'x',
        3,
        true,
        undefined,
      ].map(typeName),
    ).toEqual([
      'nil',
      'array',
      'bin',
      'map',
      'float 1.5',
      'Thing',
      'Object',
      'object',
      'object',
      'string',
      'number',
      'boolean',
      'undefined',
    ]);
  });

  it('corrupt and tooLarge throw their codes with the path', () => {
    expect(failure(() => corrupt('a.b', 'why'))).toEqual([
      'CORRUPT',
      'a.b',
      'why',
      'rewindable replay CORRUPT at a.b: why',
    ]);
    expect(failure(() => tooLarge('c', 'big'))).toEqual([
      'TOO_LARGE',
      'c',
      'big',
      'rewindable replay TOO_LARGE at c: big',
    ]);
  });

  it('asString takes strings up to maxLength', () => {
    expect(asString('abc', 'p', 3)).toBe('abc');
    expect(failure(() => asString('abcd', 'p', 3)).slice(0, 3)).toEqual([
      'TOO_LARGE',
      'p',
      'string of 4 characters exceeds the limit of 3',
    ]);
    expect(failure(() => asString(7, 'p', 3)).slice(0, 3)).toEqual(['CORRUPT', 'p', 'expected a string, found number']);
  });

  it('asInt takes integers in [min, max]; above max is TOO_LARGE only when large', () => {
    expect([asInt(2, 'p', 2, 5), asInt(5, 'p', 2, 5), asInt(-0, 'p', 0, 0)]).toEqual([2, 5, -0]);
    expect(failure(() => asInt(1, 'p', 2, 5)).slice(0, 3)).toEqual(['CORRUPT', 'p', '1 is below 2']);
    expect(failure(() => asInt(6, 'p', 2, 5)).slice(0, 3)).toEqual(['CORRUPT', 'p', '6 is above 5']);
    expect(failure(() => asInt(6, 'p', 2, 5, true)).slice(0, 3)).toEqual([
      'TOO_LARGE',
      'p',
      '6 exceeds the limit of 5',
    ]);
    expect(asInt(5, 'p', 2, 5, true)).toBe(5);
    expect(failure(() => asInt(2.5, 'p', 0, 5)).slice(0, 3)).toEqual([
      'CORRUPT',
      'p',
      'expected an integer, found number',
    ]);
    expect(failure(() => asInt('2', 'p', 0, 5))[2]).toBe('expected an integer, found string');
    expect(failure(() => asInt(new MsgFloat(2), 'p', 0, 5))[2]).toBe('expected an integer, found float 2');
  });

  it('asBool, asBin and asArray take their type only; asArray up to maxLength', () => {
    expect([asBool(false, 'p'), asBool(true, 'p')]).toEqual([false, true]);
    expect(failure(() => asBool(0, 'p'))[2]).toBe('expected a boolean, found number');
    const bin = new Uint8Array(2);
    expect(asBin(bin, 'p')).toBe(bin);
    expect(failure(() => asBin([1], 'p'))[2]).toBe('expected bin, found array');
    const arr = [1, 2];
    expect(asArray(arr, 'p', 2)).toBe(arr);
    expect(failure(() => asArray(arr, 'p', 1)).slice(0, 3)).toEqual([
      'TOO_LARGE',
      'p',
      '2 elements exceed the limit of 1',
    ]);
    expect(failure(() => asArray(new Map(), 'q', 1)).slice(0, 3)).toEqual([
      'CORRUPT',
      'q',
      'expected an array, found map',
    ]);
  });
});

describe('MapReader and WarningList', () => {
  it('reads required and optional keys and warns about each key never asked for', () => {
    const warnings = new WarningList(10, null);
    const m = MapReader.of(
      new Map<unknown, unknown>([
        ['a', 1],
        ['b', undefined],
        ['extra', 2],
        [7, 3],
        ['x'.repeat(70), 4],
      ]),
      'header',
      warnings,
    );
    expect(m.path).toBe('header');
    expect(m.req('a')).toBe(1);
    expect(m.req('b')).toBeUndefined(); // present, with no value
    expect(m.opt('c')).toBeUndefined();
    expect(failure(() => m.req('d')).slice(0, 3)).toEqual(['CORRUPT', 'header.d', 'missing']);
    m.done();
    expect(warnings.list).toEqual([
      { code: 'UNKNOWN_FIELD', message: 'header: unknown field "extra" ignored' },
      { code: 'UNKNOWN_FIELD', message: 'header: unknown field number ignored' },
      { code: 'UNKNOWN_FIELD', message: `header: unknown field "${'x'.repeat(64)}" ignored` },
    ]);
    expect(failure(() => MapReader.of([1], 'frames[2]', warnings)).slice(0, 3)).toEqual([
      'CORRUPT',
      'frames[2]',
      'expected a map, found array',
    ]);
  });

  it('lists at most max unknown-field warnings and says how many more; other warnings always', () => {
    const heard: ReplayWarning[] = [];
    const w = new WarningList(2, (x) => heard.push(x));
    const unknown = (i: number): ReplayWarning => ({ code: 'UNKNOWN_FIELD', message: `u${i}` });
    w.add(unknown(0));
    w.add(unknown(1));
    w.add(unknown(2));
    w.add({ code: 'BUILD_MISMATCH', message: 'b' });
    w.add(unknown(3));
    w.finish();
    expect(w.list.map((x) => x.message)).toEqual(['u0', 'u1', 'b', '2 more warnings were not listed']);
    expect(heard.map((x) => x.message)).toEqual(['u0', 'u1', 'b']);
    expect(w.list[3].code).toBe('UNKNOWN_FIELD');
    w.finish(); // the count is reported once
    expect(w.list).toHaveLength(4);
    const none = new WarningList(2, null);
    none.add(unknown(0));
    none.finish();
    expect(none.list.map((x) => x.message)).toEqual(['u0']);
  });

  it('a throwing listener does not stop the list', () => {
    const w = new WarningList(5, () => {
      throw new Error('listener failed');
    });
    expect(() => w.add({ code: 'BUILD_MISMATCH', message: 'm' })).not.toThrow();
    expect(w.list).toHaveLength(1);
  });
});

describe('checksumWords', () => {
  it('is FNV-1a over 32-bit words of [start, start + words), chained through h', () => {
    const u = new Uint32Array([0xdeadbeef, 1, 2, 0xffffffff, 5]);
    let x = CHECKSUM_SEED | 0;
    for (const v of [1, 2, 0xffffffff]) x = Math.imul(x ^ v, 0x01000193);
    expect(checksumWords(u, 1, 3, CHECKSUM_SEED)).toBe(x >>> 0);
    const half = checksumWords(u, 1, 1, CHECKSUM_SEED);
    expect(checksumWords(u, 2, 2, half)).toBe(x >>> 0);
    expect(checksumWords(u, 0, 0, 0x12345678)).toBe(0x12345678);
    expect(CHECKSUM_SEED).toBe(0x811c9dc5);
  });
});
