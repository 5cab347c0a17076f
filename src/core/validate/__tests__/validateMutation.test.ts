/**
 * The validity rules and the once-only warnings, each rule at its bounds and with its message. The
 * recorder and the loader reach these through their own tests; these cases pin the rules themselves,
 * so that a mutant of one (a bound moved by one, a message emptied, a check dropped) fails here.
 * Comments name the mutants (Stryker's notation) a case kills.
 */
import { describe, expect, it } from 'vitest';
import { MAX_BONES } from '../../format/layout';
import { QUAT_IDENTITY_BITS, encodeQuat } from '../../math/quat';
import {
  MAX_ARENA_BYTES,
  MAX_CHANNEL_BUDGET,
  MAX_COLOR,
  MAX_ENTITIES_PER_FRAME,
  MAX_ENTITY_ID,
  MAX_FRAMES,
  MAX_KINDS,
  MAX_STATIC_BYTES,
  MAX_STATIC_LAYERS,
  MAX_STRING_LENGTH,
  USER_FLAGS_MASK,
  channelBudgetProblem,
  colorProblem,
  firstNonFiniteF32,
  isFiniteF32,
  isIntIn,
  isPositiveF32,
  quatWordIsValid,
  repairString,
  skeletonProblem,
  stringProblem,
} from '../rules';
import { WarnOnce } from '../WarnOnce';

/** 2^128 − 2^104: the largest double that rounds to the largest float32 rather than to Infinity. */
const F32_EDGE = 2 ** 128 - 2 ** 104;

describe('limits', () => {
  it('are the values docs/replay-format.md states', () => {
    // `256 * 1024 * 1024` → `256 * 1024 / 1024` or `256 / 1024 * 1024`, and the like.
    expect([MAX_STRING_LENGTH, MAX_KINDS, MAX_STATIC_LAYERS, MAX_STATIC_BYTES]).toEqual([
      65536, 65536, 4096, 268435456,
    ]);
    expect([MAX_CHANNEL_BUDGET, MAX_COLOR, MAX_FRAMES, MAX_ENTITIES_PER_FRAME]).toEqual([
      1048576, 0xffffff, 1048576, 1048576,
    ]);
    expect([MAX_ENTITY_ID, MAX_ARENA_BYTES, USER_FLAGS_MASK]).toEqual([1073741824, 1073741824, 0x7f]);
  });
});

describe('isFiniteF32 / isPositiveF32', () => {
  it('accepts what a float32 holds finitely and refuses what rounds to Infinity', () => {
    // `f - f === 0` → `true` / `!==` / `f + f`: each flips one of these.
    expect(isFiniteF32(0)).toBe(true);
    expect(isFiniteF32(-0)).toBe(true);
    expect(isFiniteF32(1e-46)).toBe(true);
    expect(isFiniteF32(-3.5)).toBe(true);
    expect(isFiniteF32(F32_EDGE)).toBe(true);
    expect(isFiniteF32(2 ** 128 - 2 ** 103)).toBe(false);
    expect(isFiniteF32(1e39)).toBe(false);
    expect(isFiniteF32(Number.NaN)).toBe(false);
    expect(isFiniteF32(Number.NEGATIVE_INFINITY)).toBe(false);
  });

  it('a zoom must be a finite float32 above 0', () => {
    // `f > 0` → `>= 0` (0 and 1e-46 pass), `&&` → `||` (NaN, Infinity, -1 pass), `f - f === 0` → `true`.
    expect(isPositiveF32(0.5)).toBe(true);
    expect(isPositiveF32(1e-45)).toBe(true);
    expect(isPositiveF32(F32_EDGE)).toBe(true);
    expect(isPositiveF32(0)).toBe(false);
    expect(isPositiveF32(1e-46)).toBe(false);
    expect(isPositiveF32(-1)).toBe(false);
    expect(isPositiveF32(Number.POSITIVE_INFINITY)).toBe(false);
    expect(isPositiveF32(1e39)).toBe(false);
    expect(isPositiveF32(Number.NaN)).toBe(false);
  });
});

describe('firstNonFiniteF32', () => {
  it('finds the first bad value inside [start, end) only', () => {
    const f = new Float32Array([Number.NaN, 1, 2, Number.POSITIVE_INFINITY, 4, Number.NaN, 6]);
    // `i = start` → `i = 0`: would report index 0.
    expect(firstNonFiniteF32(f, 1, 7)).toBe(3);
    // `i < end` → `<=`: would read index 3 when the range ends there.
    expect(firstNonFiniteF32(f, 1, 3)).toBe(-1);
    expect(firstNonFiniteF32(f, 4, 5)).toBe(-1);
    expect(firstNonFiniteF32(f, 4, 6)).toBe(5);
    // The last element of the range counts (`i < end` → `i < end - 1` would miss it).
    expect(firstNonFiniteF32(f, 0, 1)).toBe(0);
    expect(firstNonFiniteF32(new Float32Array([1, Number.NEGATIVE_INFINITY]), 0, 2)).toBe(1);
    expect(firstNonFiniteF32(new Float32Array(0), 0, 0)).toBe(-1);
  });
});

describe('quatWordIsValid', () => {
  const word = (a: number, b: number, c: number, top = 0) => ((top << 30) | (a << 20) | (b << 10) | c) >>> 0;

  it('accepts every word the encoder writes', () => {
    expect(quatWordIsValid(QUAT_IDENTITY_BITS)).toBe(true);
    for (const q of [
      [0, 0, 0, 1],
      [1, 0, 0, 0],
      [0.5, 0.5, 0.5, 0.5],
      [0.5, -0.5, 0.5, -0.5],
      [Math.SQRT1_2, 0, 0, Math.SQRT1_2],
      [0, -Math.SQRT1_2, Math.SQRT1_2, 0],
    ]) {
      expect(quatWordIsValid(encodeQuat(q[0], q[1], q[2], q[3]))).toBe(true);
    }
  });

  it('refuses a code of 1023 in each position, and accepts 1022 where the sum allows', () => {
    // `ca > 1022` → `>= 1022` / `false`, and the same for cb and cc; `||` → `&&`.
    expect(quatWordIsValid(word(1023, 511, 511))).toBe(false);
    expect(quatWordIsValid(word(511, 1023, 511))).toBe(false);
    expect(quatWordIsValid(word(511, 511, 1023))).toBe(false);
    expect(quatWordIsValid(word(1022, 511, 511))).toBe(true);
    expect(quatWordIsValid(word(511, 1022, 511))).toBe(true);
    expect(quatWordIsValid(word(511, 511, 1022))).toBe(true);
    expect(quatWordIsValid(word(0, 511, 511))).toBe(true);
    // The two top bits (the largest component's index) do not matter.
    expect(quatWordIsValid(word(1022, 511, 511, 3))).toBe(true);
    expect(quatWordIsValid(word(511, 511, 1023, 3))).toBe(false);
  });

  it('refuses three components whose squares sum past 1, at the edge of the sum', () => {
    // (c − 511) · √2/1022 each: 1022 and 0 give ±1/√2, so two of them sum to exactly 1 (within the
    // rounding the decoder has), a third past it. `- a * a` → `+`, `>= 0` → `> 0` / `< 0`, `- 511` → `+`.
    expect(quatWordIsValid(word(1022, 1022, 1022))).toBe(false);
    expect(quatWordIsValid(word(1022, 1022, 511))).toBe(false);
    expect(quatWordIsValid(word(0, 1022, 511))).toBe(false);
    expect(quatWordIsValid(word(1022, 511, 0))).toBe(false);
    expect(quatWordIsValid(word(511, 0, 1022))).toBe(false);
    expect(quatWordIsValid(word(1022, 1021, 551))).toBe(false);
    expect(quatWordIsValid(word(551, 1022, 1021))).toBe(false);
    expect(quatWordIsValid(word(1022, 811, 811))).toBe(true);
    expect(quatWordIsValid(word(211, 1022, 211))).toBe(true);
    expect(quatWordIsValid(word(811, 211, 1022))).toBe(true);
  });

  it('agrees with the rule computed plainly over a sweep of codes', () => {
    const step = Math.SQRT2 / 1022;
    for (let ca = 0; ca <= 1023; ca += 31) {
      for (let cb = 0; cb <= 1023; cb += 29) {
        for (const cc of [0, 200, 511, 800, 1022, 1023]) {
          const a = (ca - 511) * step,
            b = (cb - 511) * step,
            c = (cc - 511) * step;
          const expected = ca <= 1022 && cb <= 1022 && cc <= 1022 && 1 - a * a - b * b - c * c >= 0;
          expect(quatWordIsValid(word(ca, cb, cc))).toBe(expected);
        }
      }
    }
  });
});

describe('stringProblem / repairString', () => {
  it('names what is wrong, with the type and the lengths', () => {
    // Each message string → '' is killed by the exact text; `v === null ? 'null'` → `false`.
    expect(stringProblem('guard')).toBeNull();
    expect(stringProblem('')).toBeNull();
    expect(stringProblem(null)).toBe('is not a string (null)');
    expect(stringProblem(undefined)).toBe('is not a string (undefined)');
    expect(stringProblem(12)).toBe('is not a string (number)');
    expect(stringProblem({})).toBe('is not a string (object)');
    expect(stringProblem('\uD800')).toBe('contains a lone surrogate');
    expect(stringProblem('a\uDC00')).toBe('contains a lone surrogate');
    expect(stringProblem('\uD83D\uDE00')).toBeNull();
  });

  it('allows exactly maxLength units (`v.length > maxLength` → `>=`)', () => {
    expect(stringProblem('abc', 3)).toBeNull();
    expect(stringProblem('abcd', 3)).toBe('is 4 characters long, more than 3');
    expect(stringProblem('x'.repeat(MAX_STRING_LENGTH))).toBeNull();
    expect(stringProblem('x'.repeat(MAX_STRING_LENGTH + 1))).toBe(
      `is ${MAX_STRING_LENGTH + 1} characters long, more than ${MAX_STRING_LENGTH}`,
    );
  });

  it('repairs: String() of a non-string, U+FFFD for lone surrogates, the same string when valid', () => {
    const s = 'valid \uD83D\uDE00';
    expect(repairString(s)).toBe(s);
    expect(repairString(42)).toBe('42');
    expect(repairString(null)).toBe('null');
    expect(repairString('a\uD800b')).toBe('a\uFFFDb');
    expect(repairString('\uDC00x\uD800')).toBe('\uFFFDx\uFFFD');
  });

  it('cuts to maxLength, never between the halves of a pair', () => {
    // `s.length > maxLength` → `>=`: a string of exactly maxLength whose last unit is a high
    // surrogate of a pair would lose it.
    expect(repairString('ab\uD83D\uDE00', 4)).toBe('ab\uD83D\uDE00');
    expect(repairString('abcdef', 4)).toBe('abcd');
    expect(repairString('abcd', 4)).toBe('abcd');
    // Unit 3 (index cut − 1) is a high surrogate: the pair is dropped whole. `cut - 1` → `cut + 1`,
    // `last >= 0xd800` → `>`, `<= 0xdbff` → `<`, `cut--` → `cut++`, `&&` → `||` each change this.
    expect(repairString('abc\uD83D\uDE00', 4)).toBe('abc');
    expect(repairString('abc\uD800\uDC00z', 4)).toBe('abc');
    expect(repairString('abc\uDBFF\uDFFFz', 4)).toBe('abc');
    // A low surrogate or a plain unit at the cut stays.
    expect(repairString('ab\uD83D\uDE00z', 4)).toBe('ab\uD83D\uDE00');
    expect(repairString('abc\uD7FFz', 4)).toBe('abc\uD7FF');
    expect(repairString('abc\uDC00z', 4)).toBe('abc\uFFFD');
    expect(repairString('abc\uE000z', 4)).toBe('abc\uE000');
  });

  it('uses the default maximum', () => {
    expect(repairString('y'.repeat(MAX_STRING_LENGTH + 5)).length).toBe(MAX_STRING_LENGTH);
    expect(repairString('y'.repeat(MAX_STRING_LENGTH)).length).toBe(MAX_STRING_LENGTH);
  });

  it('gives the same answers without the native String.prototype.isWellFormed / toWellFormed', () => {
    const proto = String.prototype as { isWellFormed?: unknown; toWellFormed?: unknown };
    const saved = [proto.isWellFormed, proto.toWellFormed];
    try {
      proto.isWellFormed = undefined;
      proto.toWellFormed = undefined;
      // The fallback regular expressions: a high surrogate without a low one after it, a low one
      // without a high one before it; every lone one replaced (the `g` flag).
      expect(stringProblem('\uD83D\uDE00')).toBeNull();
      expect(stringProblem('plain')).toBeNull();
      expect(stringProblem('\uD800a')).toBe('contains a lone surrogate');
      expect(stringProblem('a\uDC00')).toBe('contains a lone surrogate');
      expect(stringProblem('\uD800')).toBe('contains a lone surrogate');
      expect(repairString('\uD800a\uDC00b\uD83D\uDE00\uDBFF')).toBe('\uFFFDa\uFFFDb\uD83D\uDE00\uFFFD');
      expect(repairString('\uDE00\uD83D')).toBe('\uFFFD\uFFFD');
    } finally {
      proto.isWellFormed = saved[0];
      proto.toWellFormed = saved[1];
    }
    expect(typeof proto.isWellFormed).toBe(typeof saved[0]);
  });
});

describe('skeletonProblem', () => {
  it('accepts trees and forests, in any order of parents', () => {
    expect(skeletonProblem([])).toBeNull();
    expect(skeletonProblem([-1])).toBeNull();
    expect(skeletonProblem([-1, 0, 1, 1, 0])).toBeNull();
    expect(skeletonProblem([2, 2, -1, 1])).toBeNull(); // parents after children
    expect(skeletonProblem([-1, -1, 1, 0])).toBeNull();
    expect(skeletonProblem(new Int16Array([-1, 0, 0, 2]))).toBeNull();
  });

  it('allows MAX_BONES bones and not one more (`n <= MAX_BONES` → `<`)', () => {
    const chain = Array.from({ length: MAX_BONES }, (_, i) => i - 1);
    expect(skeletonProblem(chain)).toBeNull();
    chain.push(MAX_BONES - 1);
    expect(skeletonProblem(chain)).toBe(`has ${MAX_BONES + 1} bones; at most ${MAX_BONES} are allowed`);
  });

  it('refuses a bone count below 0 (`n >= 0` → `true`)', () => {
    expect(skeletonProblem({ length: -1 } as ArrayLike<number>)).toBe(`has -1 bones; at most ${MAX_BONES} are allowed`);
    expect(skeletonProblem({ length: Number.NaN } as ArrayLike<number>)).toBe(
      `has NaN bones; at most ${MAX_BONES} are allowed`,
    );
  });

  it('refuses parents out of range or not integers, naming the bone', () => {
    // `v >= -1` → `> -1`, `v < n` → `<=`, `Number.isInteger` dropped, `typeof` check dropped.
    expect(skeletonProblem([-1, 2])).toBe("bone 1's parent 2 is not -1 or a bone index below 2");
    expect(skeletonProblem([-2])).toBe("bone 0's parent -2 is not -1 or a bone index below 1");
    expect(skeletonProblem([-1, 0.5])).toBe("bone 1's parent 0.5 is not -1 or a bone index below 2");
    expect(skeletonProblem([-1, '0'])).toBe("bone 1's parent 0 is not -1 or a bone index below 2");
    expect(skeletonProblem([-1, Number.NaN])).toBe("bone 1's parent NaN is not -1 or a bone index below 2");
    expect(skeletonProblem([-1, null])).toBe("bone 1's parent null is not -1 or a bone index below 2");
    expect(skeletonProblem([-1, 0, 1])).toBeNull(); // the last index allowed is n − 1
  });

  it('finds cycles, including one reached from a bone outside it, and self-parents', () => {
    expect(skeletonProblem([0])).toBe("bone 0's parent chain is a cycle");
    expect(skeletonProblem([1, 0])).toBe("bone 0's parent chain is a cycle");
    expect(skeletonProblem([-1, 2, 3, 1])).toBe("bone 1's parent chain is a cycle");
    // Bone 0 reaches the root; the cycle 2 → 3 → 2 is first met from bone 1.
    expect(skeletonProblem([-1, 2, 3, 2])).toBe("bone 1's parent chain is a cycle");
    // A bone whose chain joins one already known to reach a root is fine (state 2 is not 1).
    expect(skeletonProblem([-1, 0, 0, 1, 3, 4, 2])).toBeNull();
    // A long chain visited from its leaf first, then every bone again: each walk stops at state 2.
    const reversed = Array.from({ length: 50 }, (_, i) => (i === 49 ? -1 : i + 1));
    expect(skeletonProblem(reversed)).toBeNull();
    reversed[49] = 0;
    expect(skeletonProblem(reversed)).toBe("bone 0's parent chain is a cycle");
  });
});

describe('isIntIn, channelBudgetProblem, colorProblem', () => {
  it('isIntIn includes both bounds and needs an integer number', () => {
    expect(isIntIn(0, 0, 3)).toBe(true);
    expect(isIntIn(3, 0, 3)).toBe(true);
    expect(isIntIn(-1, 0, 3)).toBe(false);
    expect(isIntIn(4, 0, 3)).toBe(false);
    expect(isIntIn(1.5, 0, 3)).toBe(false);
    expect(isIntIn('2', 0, 3)).toBe(false);
    expect(isIntIn(Number.NaN, 0, 3)).toBe(false);
  });

  it('a budget is an integer in [0, MAX_CHANNEL_BUDGET]', () => {
    expect(channelBudgetProblem(0)).toBeNull();
    expect(channelBudgetProblem(MAX_CHANNEL_BUDGET)).toBeNull();
    expect(channelBudgetProblem(MAX_CHANNEL_BUDGET + 1)).toBe(
      `budget ${MAX_CHANNEL_BUDGET + 1} is not an integer in [0, ${MAX_CHANNEL_BUDGET}]`,
    );
    expect(channelBudgetProblem(-1)).toBe(`budget -1 is not an integer in [0, ${MAX_CHANNEL_BUDGET}]`);
    expect(channelBudgetProblem(2.5)).toBe(`budget 2.5 is not an integer in [0, ${MAX_CHANNEL_BUDGET}]`);
  });

  it('a colour is an integer in [0, 0xFFFFFF]', () => {
    expect(colorProblem(0)).toBeNull();
    expect(colorProblem(MAX_COLOR)).toBeNull();
    expect(colorProblem(MAX_COLOR + 1)).toBe('colour 16777216 is not an integer in [0, 0xFFFFFF]');
    expect(colorProblem(-1)).toBe('colour -1 is not an integer in [0, 0xFFFFFF]');
    expect(colorProblem('red')).toBe('colour red is not an integer in [0, 0xFFFFFF]');
  });
});

describe('WarnOnce', () => {
  it('reports each key once, with its first message, and says which keys were reported', () => {
    const seen: string[] = [];
    const w = new WarnOnce((m) => seen.push(m));
    expect(w.has('nan')).toBe(false);
    w.warn('nan', 'first');
    w.warn('nan', 'second');
    w.warn('budget', 'third');
    expect(seen).toEqual(['first', 'third']);
    expect(w.has('nan')).toBe(true);
    expect(w.has('budget')).toBe(true);
    expect(w.has('other')).toBe(false);
  });

  it('survives a throwing sink, and does not call it again for that key', () => {
    let calls = 0;
    const w = new WarnOnce(() => {
      calls++;
      throw new Error('handler failed');
    });
    expect(() => w.warn('a', 'x')).not.toThrow();
    expect(() => w.warn('a', 'x')).not.toThrow();
    expect(() => w.warn('b', 'y')).not.toThrow();
    expect(calls).toBe(2);
    expect(w.has('a')).toBe(true);
  });
});
