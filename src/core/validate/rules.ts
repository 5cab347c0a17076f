/**
 * The validity rules of everything a frame or a replay file holds, in one place: the recorder
 * repairs or refuses input by these rules, and `loadReplay` refuses a file that breaks them, so that
 * whatever the recorder stores, a saved file of it loads. docs/replay-format.md states the same
 * rules in prose (section "Validity rules").
 *
 * Hot paths (the recorder's per-entity and per-primitive checks) inline the float rule as
 * `Math.fround(v) - Math.fround(v) === 0` rather than calling `isFiniteF32`: a double passed to a
 * call that the engine does not inline is boxed. Both are the same rule (the stored float32 is
 * finite), and the property test of src/replay/__tests__ proves recorder and loader agree.
 */

import { MAX_BONES } from '../format/layout';

/** Longest string anywhere in a replay (kinds, labels, names, notes), in UTF-16 code units. */
export const MAX_STRING_LENGTH = 1 << 16;
/** Most entity kinds, and most event kinds. */
export const MAX_KINDS = 1 << 16;
/** Most static layers. */
export const MAX_STATIC_LAYERS = 4096;
/** Most bytes of encoded static layer records, all layers together. */
export const MAX_STATIC_BYTES = 256 * 1024 * 1024;
/** Largest per-channel primitive budget (primitives per frame). */
export const MAX_CHANNEL_BUDGET = 1 << 20;
/** Largest colour: 0xRRGGBB. */
export const MAX_COLOR = 0xffffff;
/** Most frames a recorder holds, and a file. */
export const MAX_FRAMES = 1 << 20;
/** Most entities in one frame (the bone record's entity index has 20 bits). */
export const MAX_ENTITIES_PER_FRAME = 1 << 20;
/** Entity ids are integers below this at most (`RecorderOptions.maxEntityId`). */
export const MAX_ENTITY_ID = 1 << 30;
/** Largest arena, and most frame bytes in a file. */
export const MAX_ARENA_BYTES = 1 << 30;
/** Display flag bits a game may set (bit 7, `SANITIZED`, is the recorder's). */
export const USER_FLAGS_MASK = 0x7f;

/**
 * Whether `v` is finite once stored as a float32: NaN, ±Infinity and finite doubles beyond float32
 * range (|v| ≥ 2^128 − 2^103, which round to ±Infinity) are not. Tiny values (1e-45, −0) are.
 *
 * @example
 * isFiniteF32(1e38); // true
 * isFiniteF32(1e39); // false: stored as Infinity
 */
export function isFiniteF32(v: number): boolean {
  const f = Math.fround(v);
  return f - f === 0;
}

/**
 * Whether `v` stored as a float32 is finite and above 0 (a camera zoom): 1e-46 rounds to 0 and is
 * not.
 *
 * @example
 * isPositiveF32(0.5); // true
 * isPositiveF32(1e-46); // false
 */
export function isPositiveF32(v: number): boolean {
  const f = Math.fround(v);
  return f > 0 && f - f === 0;
}

/** Index of the first non-finite float32 in `f[start, end)`, or -1. */
export function firstNonFiniteF32(f: Float32Array, start: number, end: number): number {
  for (let i = start; i < end; i++) {
    const v = f[i];
    if (v - v !== 0) return i;
  }
  return -1;
}

/** √2 / 1022: one code step of a smallest-three component (src/core/math/quat.ts). */
const QUAT_STEP = Math.SQRT2 / 1022;

/**
 * Whether a smallest-three rotation word decodes to a unit quaternion: each 10-bit code is at most
 * 1022, and the three components' squares sum to at most 1 (computed as the decoder computes them),
 * so the rebuilt largest component is real. Every word the encoder writes passes.
 *
 * @example
 * quatWordIsValid(QUAT_IDENTITY_BITS); // true
 * quatWordIsValid(0x3ff); // false: a code of 1023
 */
export function quatWordIsValid(bits: number): boolean {
  const ca = (bits >>> 20) & 1023,
    cb = (bits >>> 10) & 1023,
    cc = bits & 1023;
  if (ca > 1022 || cb > 1022 || cc > 1022) return false;
  const a = (ca - 511) * QUAT_STEP,
    b = (cb - 511) * QUAT_STEP,
    c = (cc - 511) * QUAT_STEP;
  return 1 - a * a - b * b - c * c >= 0;
}

/**
 * What is wrong with a string a replay stores (a kind, a label, a name), or null: it must be a
 * string of at most `maxLength` UTF-16 units, well-formed (no lone surrogate: a file holds UTF-8,
 * which cannot encode one).
 *
 * @example
 * stringProblem('guard'); // null
 * stringProblem('\uD800'); // 'contains a lone surrogate'
 */
export function stringProblem(v: unknown, maxLength = MAX_STRING_LENGTH): string | null {
  if (typeof v !== 'string') return `is not a string (${v === null ? 'null' : typeof v})`;
  if (v.length > maxLength) return `is ${v.length} characters long, more than ${maxLength}`;
  if (!isWellFormed(v)) return 'contains a lone surrogate';
  return null;
}

/**
 * The string a replay stores for game input `v` (per-frame input is repaired, never refused):
 * `String(v)` for a non-string, lone surrogates replaced by U+FFFD, cut to `maxLength` units
 * (never between the two halves of a pair). Returns `v` itself when it is valid.
 *
 * @example
 * repairString('a\uD800b'); // 'a\uFFFDb'
 */
export function repairString(v: unknown, maxLength = MAX_STRING_LENGTH): string {
  let s = typeof v === 'string' ? v : String(v);
  if (!isWellFormed(s)) s = toWellFormed(s);
  if (s.length > maxLength) {
    let cut = maxLength;
    const last = s.charCodeAt(cut - 1);
    if (last >= 0xd800 && last <= 0xdbff) cut--;
    s = s.slice(0, cut);
  }
  return s;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATES = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function isWellFormed(s: string): boolean {
  const native = (s as { isWellFormed?: () => boolean }).isWellFormed;
  return typeof native === 'function' ? native.call(s) : !LONE_SURROGATE.test(s);
}

function toWellFormed(s: string): string {
  const native = (s as { toWellFormed?: () => string }).toWellFormed;
  return typeof native === 'function' ? native.call(s) : s.replace(LONE_SURROGATES, '\uFFFD');
}

/**
 * What is wrong with a bone hierarchy, or null: `parents` must hold at most `MAX_BONES` (4,095)
 * entries, each an integer in [-1, length) (−1 for a root), and no bone may be its own ancestor
 * (a parent chain must end at a root).
 *
 * @example
 * skeletonProblem([-1, 0, 1]); // null
 * skeletonProblem([1, 0]); // "bone 0's parent chain is a cycle"
 */
export function skeletonProblem(parents: ArrayLike<unknown>): string | null {
  const n = parents.length;
  if (!(n >= 0 && n <= MAX_BONES)) return `has ${n} bones; at most ${MAX_BONES} are allowed`;
  const p = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const v = parents[i];
    if (!(typeof v === 'number' && Number.isInteger(v) && v >= -1 && v < n)) {
      return `bone ${i}'s parent ${String(v)} is not -1 or a bone index below ${n}`;
    }
    p[i] = v;
  }
  const state = new Uint8Array(n); // 0 new, 1 on the current walk, 2 known to reach a root
  for (let i = 0; i < n; i++) {
    let j = i;
    while (j >= 0 && state[j] === 0) {
      state[j] = 1;
      j = p[j];
    }
    if (j >= 0 && state[j] === 1) return `bone ${i}'s parent chain is a cycle`;
    for (j = i; j >= 0 && state[j] === 1; j = p[j]) state[j] = 2;
  }
  return null;
}

/** Whether `v` is an integer in [min, max]. */
export function isIntIn(v: unknown, min: number, max: number): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
}

/**
 * What is wrong with a channel option, or null: a budget is an integer in [0, `MAX_CHANNEL_BUDGET`],
 * a colour an integer in [0, 0xFFFFFF].
 */
export function channelBudgetProblem(budget: unknown): string | null {
  return isIntIn(budget, 0, MAX_CHANNEL_BUDGET)
    ? null
    : `budget ${String(budget)} is not an integer in [0, ${MAX_CHANNEL_BUDGET}]`;
}

/** See `channelBudgetProblem`. */
export function colorProblem(color: unknown): string | null {
  return isIntIn(color, 0, MAX_COLOR) ? null : `colour ${String(color)} is not an integer in [0, 0xFFFFFF]`;
}
