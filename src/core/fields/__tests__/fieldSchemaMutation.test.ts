/**
 * The field declarations (`FieldSchemas`, `FieldSchema`), the section's size arithmetic
 * (`fieldLayout.ts`) and the value repairs (`fieldRepair.ts`), against values worked out here by
 * hand: every type's slots and column words at the bool word and byte word edges, each declaration
 * error with its message, the enum name limit, and each repair at its bounds. Comments name the
 * mutants (Stryker's notation, line numbers of the sources as measured) a case kills.
 */
import { describe, expect, it } from 'vitest';
import {
  BLOCK_HEADER_WORDS,
  blockWords,
  columnWords,
  FIELD_BOOL,
  FIELD_ENTITY,
  FIELD_ENUM,
  FIELD_F32,
  FIELD_I32,
  FIELD_TYPES,
  FIELD_U8,
  FIELD_VEC3,
  fieldComponents,
  MAX_ENUM_NAMES,
  MAX_FIELD_SCHEMAS,
  MAX_FIELDS_PER_KIND,
} from '../fieldLayout';
import { invalidAt, repairI32, repairU8 } from '../fieldRepair';
import { FieldSchemas } from '../FieldSchemas';

describe('fieldLayout: sizes', () => {
  it('gives the components and column words of every type at the word edges', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map(fieldComponents)).toEqual([1, 1, 1, 1, 1, 1, 3]);
    const rows = [0, 1, 3, 4, 5, 31, 32, 33, 64, 65];
    const words = (code: number) => rows.map((r) => columnWords(code, r));
    expect(words(FIELD_F32)).toEqual(rows);
    expect(words(FIELD_I32)).toEqual(rows);
    expect(words(FIELD_ENTITY)).toEqual(rows);
    expect(words(FIELD_VEC3)).toEqual(rows.map((r) => 3 * r));
    // One byte a row, padded to a word.
    expect(words(FIELD_U8)).toEqual([0, 1, 1, 1, 2, 8, 8, 9, 16, 17]);
    expect(words(FIELD_ENUM)).toEqual([0, 1, 1, 1, 2, 8, 8, 9, 16, 17]);
    // One bit a row, padded to a word.
    expect(words(FIELD_BOOL)).toEqual([0, 1, 1, 1, 1, 1, 1, 2, 2, 3]);
  });

  it('adds the header, the listed index column and every column', () => {
    const types = [FIELD_F32, FIELD_U8, FIELD_BOOL, FIELD_VEC3];
    // 5 rows: 5 + 2 + 1 + 15 = 23 column words.
    expect(blockWords(types, 5, false)).toBe(BLOCK_HEADER_WORDS + 23);
    expect(blockWords(types, 5, true)).toBe(BLOCK_HEADER_WORDS + 5 + 23);
    expect(blockWords([], 7, true)).toBe(BLOCK_HEADER_WORDS + 7);
    expect(blockWords(types, 0, true)).toBe(BLOCK_HEADER_WORDS);
    expect(BLOCK_HEADER_WORDS).toBe(3);
    expect(FIELD_TYPES).toEqual(['f32', 'i32', 'u8', 'bool', 'enum', 'entity', 'vec3']);
  });
});

describe('fieldRepair', () => {
  it('truncates and clamps an int32, 0 for a non-finite value', () => {
    const cases: Array<[number, number]> = [
      [0, 0],
      [-2.5, -2],
      [2.9, 2],
      [2147483647, 2147483647],
      [2147483647.5, 2147483647],
      [2147483648, 2147483647],
      [1e20, 2147483647],
      [-2147483648, -2147483648],
      [-2147483648.5, -2147483648],
      [-2147483649, -2147483648],
      [-1e20, -2147483648],
      [Number.NaN, 0],
      [Number.POSITIVE_INFINITY, 0],
      [Number.NEGATIVE_INFINITY, 0],
    ];
    for (const [v, want] of cases) expect(repairI32(v), String(v)).toBe(want);
  });

  it('truncates and clamps a u8 to [0, 255], 0 for a non-finite value', () => {
    const cases: Array<[number, number]> = [
      [0, 0],
      [-0.5, 0],
      [-1, 0],
      [-300, 0],
      [2.7, 2],
      [255, 255],
      [255.5, 255],
      [256, 255],
      [1e9, 255],
      [Number.NaN, 0],
      [Number.POSITIVE_INFINITY, 0],
      [Number.NEGATIVE_INFINITY, 0],
    ];
    for (const [v, want] of cases) expect(repairU8(v), String(v)).toBe(want);
  });

  it('finds the rows of a columns call that hold a value to repair, or miss a column', () => {
    const schemas = new FieldSchemas();
    const S = schemas.declare('k', { a: 'f32', b: 'i32', c: 'u8', d: 'bool', e: 'enum', f: 'entity', g: 'vec3' });
    S.code('x');
    S.code('y');
    const maxId = 100;
    // Row 0 valid everywhere; each later column holds one invalid value at row 1 (and 2 for vec3).
    const good = (): number[][] => [[1.5], [-7], [255], [7], [1], [-1], [1, 2, 3]];
    expect(invalidAt(S, good(), 0, maxId)).toBe(false);
    const bad: Array<[number, number]> = [
      [0, Number.NaN],
      [0, Number.POSITIVE_INFINITY],
      [0, 1e39], // finite as a double, infinite as a float32
      [1, 0.5],
      [1, 2 ** 31],
      [2, 256],
      [2, -1],
      [2, 1.5],
      [4, 2], // only two names
      [4, -1],
      [4, 0.5],
      [5, -2],
      [5, maxId],
      [5, 1.5],
      [6, Number.NaN],
    ];
    for (const [f, v] of bad) {
      const cols = good();
      cols[f][0] = v;
      expect(invalidAt(S, cols, 0, maxId), `field ${f} value ${v}`).toBe(true);
    }
    // The edges that are valid: entity maxId - 1, enum code 1, u8 0, i32 -2^31.
    const edge = good();
    edge[5][0] = maxId - 1;
    edge[4][0] = 1;
    edge[2][0] = 0;
    edge[1][0] = -(2 ** 31);
    expect(invalidAt(S, edge, 0, maxId)).toBe(false);
    // A bool is never invalid.
    const on = good();
    on[3][0] = Number.NaN;
    expect(invalidAt(S, on, 0, maxId)).toBe(false);
    // Each vec3 component of row i is at 3i + k.
    const v3 = [
      [0, 0],
      [0, 0],
      [0, 0],
      [0, 0],
      [0, 0],
      [0, 0],
      [1, 2, 3, 4, 5, Number.NaN],
    ];
    expect(invalidAt(S, v3, 0, maxId)).toBe(false);
    expect(invalidAt(S, v3, 1, maxId)).toBe(true);
    // A missing or non-object column; a column past `length` is missing (fieldRepair 49: `f <= length`, `true`).
    expect(invalidAt(S, good().slice(0, 6), 0, maxId)).toBe(true);
    const short = { ...good(), length: 6 };
    expect(invalidAt(S, short, 0, maxId)).toBe(true);
    const notObject = good() as unknown as unknown[];
    notObject[2] = 5;
    expect(invalidAt(S, notObject as number[][], 0, maxId)).toBe(true);
    // A bool column that is no object: missing too, though no bool value is invalid (50: `typeof` → false).
    const notObjectBool = good() as unknown as unknown[];
    notObjectBool[3] = 5;
    expect(invalidAt(S, notObjectBool as number[][], 0, maxId)).toBe(true);
    const nul = good() as unknown as unknown[];
    nul[0] = null;
    expect(invalidAt(S, nul as number[][], 0, maxId)).toBe(true);
  });
});

describe('FieldSchema', () => {
  it('lays out the slots of each field, vec3 three, and finds fields by name', () => {
    const schemas = new FieldSchemas();
    const S = schemas.declare('agent', [
      ['hp', 'f32'],
      ['vel', 'vec3'],
      ['n', 'i32'],
      ['dir', 'vec3'],
      ['on', 'bool'],
    ]);
    expect(S.kind).toBe('agent');
    expect(S.index).toBe(0);
    expect(S.owner).toBe(schemas);
    expect(Array.from(S.types)).toEqual([FIELD_F32, FIELD_VEC3, FIELD_I32, FIELD_VEC3, FIELD_BOOL]);
    expect(Array.from(S.slotOf)).toEqual([0, 1, 4, 5, 8]);
    expect(S.slots).toBe(9);
    expect(S.fields.map((f) => [f.name, f.type, f.index, f.components])).toEqual([
      ['hp', 'f32', 0, 1],
      ['vel', 'vec3', 1, 3],
      ['n', 'i32', 2, 1],
      ['dir', 'vec3', 3, 3],
      ['on', 'bool', 4, 1],
    ]);
    expect(Object.isFrozen(S.fields)).toBe(true);
    expect(Object.isFrozen(S.fields[1])).toBe(true);
    expect(['hp', 'vel', 'n', 'dir', 'on', 'nope', ''].map((n) => S.field(n))).toEqual([0, 1, 2, 3, 4, -1, -1]);
  });

  it('tells whether the kind has an enum field, wherever it is', () => {
    const schemas = new FieldSchemas();
    expect(schemas.declare('a', { x: 'f32', y: 'u8', z: 'entity' }).hasEnums).toBe(false);
    expect(schemas.declare('b', { s: 'enum', x: 'f32' }).hasEnums).toBe(true);
    expect(schemas.declare('c', { x: 'f32', y: 'bool', s: 'enum' }).hasEnums).toBe(true);
  });

  it('interns enum names once, up to 255, refusing bad strings without using a code', () => {
    const S = new FieldSchemas().declare('a', { s: 'enum' });
    expect(S.code('idle')).toBe(0);
    expect(S.code('run')).toBe(1);
    expect(S.code('idle')).toBe(0);
    expect(S.code('a\ud800')).toBe(-1); // a lone surrogate
    expect(S.code(42 as unknown as string)).toBe(-1);
    expect(S.code('x'.repeat(65_537))).toBe(-1);
    expect(S.enumNames).toEqual(['idle', 'run']);
    expect(S.code('')).toBe(2); // the empty string is a name
    for (let i = 3; i < MAX_ENUM_NAMES; i++) expect(S.code(`n${i}`)).toBe(i);
    expect(S.enumNames.length).toBe(255);
    expect(S.code('one too many')).toBe(-1);
    expect(S.enumNames.length).toBe(255);
    // Names interned before stay valid.
    expect(S.code('run')).toBe(1);
    expect(S.code(`n${MAX_ENUM_NAMES - 1}`)).toBe(254);
  });
});

describe('FieldSchemas', () => {
  it('lists, counts, finds by index and kind, and forgets on clear', () => {
    const schemas = new FieldSchemas();
    expect(schemas.count).toBe(0);
    expect(schemas.list()).toEqual([]);
    const a = schemas.declare('a', { x: 'f32' });
    const b = schemas.declare('b', { y: 'u8' });
    expect(schemas.count).toBe(2);
    expect(schemas.list()).toEqual([a, b]);
    expect([schemas.at(0), schemas.at(1), schemas.at(2)]).toEqual([a, b, undefined]);
    expect(schemas.ofKind('b')).toBe(b);
    expect(schemas.ofKind('c')).toBeUndefined();
    expect(b.index).toBe(1);
    schemas.clear();
    expect(schemas.count).toBe(0);
    expect(schemas.list()).toEqual([]);
    expect(schemas.ofKind('a')).toBeUndefined();
    expect(schemas.at(0)).toBeUndefined();
    const c = schemas.declare('b', { z: 'i32' }); // other fields than before the clear
    expect(c.index).toBe(0);
    expect(c).not.toBe(b);
  });

  it('returns the same schema for the same fields, and refuses other fields for a kind', () => {
    const schemas = new FieldSchemas();
    const a = schemas.declare('a', { x: 'f32', y: 'vec3' });
    expect(
      schemas.declare('a', [
        ['x', 'f32'],
        ['y', 'vec3'],
      ]),
    ).toBe(a);
    const k = 'k'.repeat(100);
    schemas.declare(k, { x: 'f32' });
    const differently = (kind: string, spec: Record<string, string>) => () => schemas.declare(kind, spec as never);
    expect(differently('a', { x: 'f32' })).toThrow("rewindable: declareFields('a'): already declared differently");
    expect(differently('a', { x: 'f32', y: 'vec3', z: 'u8' })).toThrow('already declared differently');
    expect(differently('a', { x: 'f32', z: 'vec3' })).toThrow('already declared differently');
    expect(differently('a', { x: 'f32', y: 'f32' })).toThrow('already declared differently');
    expect(differently('a', { y: 'vec3', x: 'f32' })).toThrow('already declared differently');
    // The kind is cut to 64 units in messages.
    expect(differently(k, { x: 'u8' })).toThrow(
      `rewindable: declareFields('${'k'.repeat(64)}'): already declared differently`,
    );
    expect(schemas.count).toBe(2);
  });

  it('refuses bad declarations with a message naming the problem, changing nothing', () => {
    const schemas = new FieldSchemas();
    const bad = (kind: unknown, spec: unknown) => () => schemas.declare(kind as string, spec as never);
    expect(bad(7, { x: 'f32' })).toThrow('rewindable: declareFields: the kind is not a string (number)');
    expect(bad('a\udc00', { x: 'f32' })).toThrow('rewindable: declareFields: the kind contains a lone surrogate');
    expect(bad('a', null)).toThrow("rewindable: declareFields('a'): expected an object of field types");
    expect(bad('a', 'f32')).toThrow("rewindable: declareFields('a'): expected an object of field types");
    expect(bad('a', {})).toThrow("rewindable: declareFields('a'): declare 1 to 64 fields (got 0)");
    expect(bad('a', [])).toThrow('declare 1 to 64 fields (got 0)');
    const many = Object.fromEntries(Array.from({ length: MAX_FIELDS_PER_KIND + 1 }, (_, i) => [`f${i}`, 'u8']));
    expect(bad('a', many)).toThrow('declare 1 to 64 fields (got 65)');
    expect(bad('a', [[5, 'f32']])).toThrow("rewindable: declareFields('a'): a field name is not a string (number)");
    expect(bad('a', [['x\ud800', 'f32']])).toThrow('a field name contains a lone surrogate');
    expect(
      bad('a', [
        ['x', 'f32'],
        ['x', 'u8'],
      ]),
    ).toThrow("rewindable: declareFields('a'): field 'x' declared twice");
    expect(bad('a', { x: 'f64' })).toThrow(
      "rewindable: declareFields('a'): field 'x' has unknown type f64 (f32, i32, u8, bool, enum, entity, vec3)",
    );
    // A pair that is not an array: the element is taken as a name without a type.
    expect(bad('a', ['x'])).toThrow("field 'x' has unknown type undefined");
    const long = 'n'.repeat(100);
    expect(
      bad('a', [
        [long, 'f32'],
        [long, 'f32'],
      ]),
    ).toThrow(`field '${'n'.repeat(64)}' declared twice`);
    expect(bad('a', [[long, 'q']])).toThrow(`field '${'n'.repeat(64)}' has unknown type q`);
    expect(bad('k'.repeat(80), {})).toThrow(`declareFields('${'k'.repeat(64)}'): declare 1 to 64 fields`);
    expect(schemas.count).toBe(0);
    expect(schemas.ofKind('a')).toBeUndefined();
    // Exactly 64 fields is allowed.
    const most = Object.fromEntries(Array.from({ length: MAX_FIELDS_PER_KIND }, (_, i) => [`f${i}`, 'u8']));
    expect(schemas.declare('a', most as never).slots).toBe(64);
  });

  it('declares at most 65,536 kinds', () => {
    const schemas = new FieldSchemas();
    const spec = { x: 'u8' } as const;
    for (let i = 0; i < MAX_FIELD_SCHEMAS; i++) schemas.declare(`k${i}`, spec);
    expect(schemas.count).toBe(MAX_FIELD_SCHEMAS);
    expect(() => schemas.declare('one more', spec)).toThrow('rewindable: declareFields: 65536 kinds declared fields');
    // A kind declared before still returns its schema.
    expect(schemas.declare('k65535', spec).index).toBe(65535);
    expect(schemas.count).toBe(MAX_FIELD_SCHEMAS);
  });
});
