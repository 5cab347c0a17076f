/**
 * checkFields.ts called directly (issue 20, sixth pass): each check of a frame's field section at its
 * bound and one past it, with its path and message, on sections written word by word from the
 * layout (docs/replay-format.md, "Field section"). Until now only the fuzz suite, which the mutation
 * runs leave out, reached most of these checks. Comments name the mutants (Stryker's notation) a case
 * kills.
 */
import { describe, expect, it } from 'vitest';
import { FieldSchemas } from '../../core/fields/FieldSchemas';
import { BLOCK_LISTED } from '../../core/fields/fieldLayout';
import { checkFieldSection } from '../checkFields';
import { ReplayError } from '../ReplayError';

/** Schema 0: every column type; schema 1: one float. Schema 0's enum has the names a, b, c. */
function schemas(): FieldSchemas {
  const s = new FieldSchemas();
  const all = s.declare('agent', [
    ['hp', 'f32'],
    ['team', 'enum'],
    ['alive', 'bool'],
    ['pos', 'vec3'],
    ['level', 'u8'],
    ['score', 'i32'],
    ['target', 'entity'],
  ]);
  for (const name of ['a', 'b', 'c']) all.code(name);
  s.declare('crate', [['x'.repeat(70), 'f32']]);
  return s;
}

/** A field section under construction: words and the floats over them. */
class Section {
  public readonly u = new Uint32Array(256);
  public readonly f = new Float32Array(this.u.buffer);
  public readonly u8 = new Uint8Array(this.u.buffer);
  /** Words before the section (a frame's header and entities would be there). */
  public readonly start = 4;
  public end = this.start;
  public word(v: number): number {
    this.u[this.end] = v;
    return this.end++;
  }
  public float(v: number): number {
    this.f[this.end] = v;
    return this.end++;
  }
  /** A byte column (u8 or enum) of the given codes: its words, padding bytes set to `pad`. */
  public bytes(codes: number[], pad = 0): number {
    const at = this.end;
    const words = (codes.length + 3) >>> 2;
    for (let k = 0; k < words * 4; k++) this.u8[at * 4 + k] = k < codes.length ? codes[k] : pad;
    this.end += words;
    return at;
  }
  /** A block of schema 0 for `rows` rows; `listed` gives entity indices, else the rows start at `first`. */
  public agent(
    rows: number,
    first: number,
    listed?: number[],
    patch?: { hp?: number; team?: number[]; pos?: number },
  ): void {
    this.word(listed !== undefined ? BLOCK_LISTED : 0);
    this.word(rows);
    this.word(listed !== undefined ? 0 : first);
    for (const i of listed ?? []) this.word(i);
    for (let r = 0; r < rows; r++) this.float(r === 0 && patch?.hp !== undefined ? patch.hp : 10 + r);
    this.bytes(patch?.team ?? Array.from({ length: rows }, (_, r) => r % 3), 0xee);
    for (let w = 0; w < (rows + 31) >>> 5; w++) this.word(0x5);
    for (let r = 0; r < rows * 3; r++) this.float(r === 2 && patch?.pos !== undefined ? patch.pos : r * 0.5);
    this.bytes(Array.from({ length: rows }, (_, r) => 200 + r));
    // i32 and entity columns: any word (NaN bits included) is a valid value.
    for (let r = 0; r < rows; r++) this.word(0x7fc00000 + r);
    for (let r = 0; r < rows; r++) this.word(0xffffffff);
  }
  /** A block of schema 1 (one float column). */
  public crate(rows: number, first: number, x = 1.5): void {
    this.word(1);
    this.word(rows);
    this.word(first);
    for (let r = 0; r < rows; r++) this.float(r === 0 ? x : r);
  }
}

/** What checking `s` (a frame of `n` entities) gives: the blocks walked, or the error's path and detail. */
function check(s: Section, n: number, frame = 7, stamp = new Int32Array(2).fill(-1)): number | string {
  try {
    return checkFieldSection(s.u, s.f, s.start, s.end, n, frame, schemas(), stamp, 'frames[3]');
  } catch (e) {
    expect(e).toBeInstanceOf(ReplayError);
    const r = e as ReplayError;
    expect(r.code).toBe('CORRUPT');
    return `${r.path}: ${r.detail}`;
  }
}

describe('checkFieldSection: sections that pass', () => {
  // Kills the walk (`w < end` → `<=`, `w = c` → removed, `b++`), every column's width (`c += words`),
  // the listed branch (`c += rows`), the bounds at equality (`rows > n` → `>=`, `first + rows > n`
  // → `>=`, `i >= n` → `>`, `c + words > end` → `>=`, `c + rows > end` → `>=`), the increasing
  // test's first row (`r > 0 &&` → `r >= 0`/true), the enum's ENUM_NONE and padding bytes
  // (`r < rows` → `<=`), and the float check's types (`t === FIELD_F32 || t === FIELD_VEC3` → true:
  // the i32 column holds NaN bits).
  it("blocks of every column type, contiguous and listed, at the entity count's bounds", () => {
    const s = new Section();
    s.agent(3, 2, undefined, { team: [0, 2, 255] }); // rows 2..4 of 5: first + rows = n
    s.crate(5, 0); // rows = n
    expect(check(s, 5)).toBe(2);
    const t = new Section();
    t.agent(2, 0, [0, 4]); // listed, the first index 0 and the last n - 1
    expect(check(t, 5)).toBe(1);
    expect(check(new Section(), 5)).toBe(0);
  });

  // Kills `stamp[si] === frame` → true and `stamp[si] = frame` → removed: a schema stamped in an
  // earlier frame may have a block again; the stamp is the frame's after the check.
  it('a schema seen in an earlier frame, and the stamps left', () => {
    const s = new Section();
    s.crate(1, 0);
    s.agent(1, 1);
    const stamp = Int32Array.of(6, 6);
    expect(check(s, 2, 7, stamp)).toBe(2);
    expect(Array.from(stamp)).toEqual([7, 7]);
  });
});

describe('checkFieldSection: each refusal, with its path and message', () => {
  // Kills `w + BLOCK_HEADER_WORDS > end` → `>=` (a header that ends the section exactly then fails
  // on its column, not its header), `+` → `-`, and the message.
  it('a block header overrunning the section', () => {
    const s = new Section();
    s.word(1);
    s.word(1);
    expect(check(s, 5)).toBe('frames[3].fields[0]: block header overruns the field section');
    s.word(0);
    expect(check(s, 5)).toBe('frames[3].fields[0]: column 0 overruns the field section');
  });

  // Kills the unknown-bits mask (`BLOCK_LISTED | BLOCK_SCHEMA_MASK` → `&`, `~` dropped, `!== 0` →
  // `=== 0`) and its message; the schema lookup (`schema === undefined` → false) and its message.
  it('unknown bits in the block word, and a schema the file does not declare', () => {
    const s = new Section();
    s.crate(1, 0);
    s.u[s.start] = 0x10001;
    expect(check(s, 5)).toBe('frames[3].fields[0]: unknown bits in word 0x10001');
    s.u[s.start] = 0x40000001;
    expect(check(s, 5)).toBe('frames[3].fields[0]: unknown bits in word 0x40000001');
    s.u[s.start] = 2;
    expect(check(s, 5)).toBe('frames[3].fields[0]: schema 2 is not among the 2 field schemas');
  });

  // Kills the second block's path (`b++`), `stamp[si] === frame` → false, and the message.
  it('two blocks of one schema in a frame', () => {
    const s = new Section();
    s.crate(1, 0);
    s.crate(1, 1);
    expect(check(s, 5)).toBe('frames[3].fields[1]: schema 1 has two blocks in one frame');
  });

  // Kills `rows === 0 ||` → false, `rows > n` → `>=` / false, and the message.
  it('no rows, or more rows than entities', () => {
    const s = new Section();
    s.crate(0, 0);
    s.word(0);
    expect(check(s, 5)).toBe('frames[3].fields[0]: 0 rows, the frame has 5 entities');
    const t = new Section();
    t.crate(6, 0);
    expect(check(t, 5)).toBe('frames[3].fields[0]: 6 rows, the frame has 5 entities');
  });

  // Kills `first !== 0` → false, `c + rows > end` → `>=` / false, the index checks (`i >= n` →
  // false/`>`, `i <= u[c + r - 1]` → `<`, `c + r - 1` → `+ 1`) and their messages.
  it('a listed block: a first index, indices past the section, out of range or not increasing', () => {
    const withFirst = new Section();
    withFirst.agent(2, 0, [0, 1]);
    withFirst.u[withFirst.start + 2] = 1;
    expect(check(withFirst, 5)).toBe('frames[3].fields[0]: a listed block has a first index');
    const cut = new Section();
    cut.word(BLOCK_LISTED | 1);
    cut.word(2);
    cut.word(0);
    cut.word(0);
    expect(check(cut, 5)).toBe('frames[3].fields[0]: entity indices overrun the field section');
    cut.word(1);
    expect(check(cut, 5)).toBe('frames[3].fields[0]: column 0 overruns the field section');
    const cases: Array<[number[], string]> = [
      [[0, 5], 'entity index 5 of row 1 is not increasing and below the entity count 5'],
      [[5, 6], 'entity index 5 of row 0 is not increasing and below the entity count 5'],
      [[2, 2], 'entity index 2 of row 1 is not increasing and below the entity count 5'],
      [[3, 1], 'entity index 1 of row 1 is not increasing and below the entity count 5'],
    ];
    for (const [indices, detail] of cases) {
      const s = new Section();
      s.agent(2, 0, indices);
      expect(check(s, 5), indices.join()).toBe(`frames[3].fields[0]: ${detail}`);
    }
    // Increasing by more than one passes (the check compares with the previous index, not r).
    const gaps = new Section();
    gaps.agent(3, 0, [1, 3, 4]);
    expect(check(gaps, 5)).toBe(1);
  });

  // Kills `first + rows > n` → `>=` / false / `first - rows`, and the message's range (`first +
  // rows - 1`).
  it('a contiguous block past the entity count', () => {
    const s = new Section();
    s.agent(3, 3);
    expect(check(s, 5)).toBe('frames[3].fields[0]: rows 3..5 are not below the entity count 5');
  });

  // Kills `c + words > end` → `>=` / false and its message's column index.
  it('a column overrunning the section', () => {
    const s = new Section();
    s.agent(2, 0);
    s.end -= 1; // the entity column's last word
    expect(check(s, 5)).toBe('frames[3].fields[0]: column 6 overruns the field section');
  });

  // Kills the float check (`t === FIELD_F32` → false, `t === FIELD_VEC3` → false, `>= 0` → `> 0`,
  // the range `c + words`), its message (the column index, the name cut to 64 characters).
  it("a non-finite float or vector component, at the column's first and last value", () => {
    const nan = new Section();
    nan.agent(2, 0, undefined, { hp: Number.NaN });
    expect(check(nan, 5)).toBe('frames[3].fields[0]: column 0 (hp) holds a non-finite value');
    const inf = new Section();
    inf.agent(1, 0, undefined, { pos: Number.NEGATIVE_INFINITY });
    expect(check(inf, 5)).toBe('frames[3].fields[0]: column 3 (pos) holds a non-finite value');
    const crate = new Section();
    crate.crate(1, 0, Number.POSITIVE_INFINITY);
    expect(check(crate, 5)).toBe(`frames[3].fields[0]: column 0 (${'x'.repeat(64)}) holds a non-finite value`);
    // At the section's start (word `start`, not 0) and as a block's last float.
    const last = new Section();
    last.crate(3, 0);
    last.f[last.end - 1] = Number.NaN;
    expect(check(last, 5)).toBe(`frames[3].fields[0]: column 0 (${'x'.repeat(64)}) holds a non-finite value`);
  });

  // Kills the enum check (`t === FIELD_ENUM` → false, `v >= names` → `>`, `&& v !== ENUM_NONE` →
  // `||`, the byte read `c * 4 + r`) and its message.
  it('an enum code past the names, at the last row', () => {
    const s = new Section();
    s.agent(3, 0, undefined, { team: [0, 1, 3] });
    expect(check(s, 5)).toBe('frames[3].fields[0]: enum code 3 of row 2 names none of the 3 names');
    const t = new Section();
    t.agent(2, 0, undefined, { team: [254, 0] });
    expect(check(t, 5)).toBe('frames[3].fields[0]: enum code 254 of row 0 names none of the 3 names');
    // The u8 column after it holds codes 200 and up: not an enum, not checked.
    const u = new Section();
    u.agent(2, 0, undefined, { team: [2, 255] });
    expect(check(u, 5)).toBe(1);
  });
});
