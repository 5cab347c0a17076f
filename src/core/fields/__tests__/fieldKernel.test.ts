import { describe, expect, it } from 'vitest';
import { Recorder } from '../../record/Recorder';

/**
 * The field kernel's conversion of per-entity field rows (`field` in fieldKernel.wat, reached
 * through `FieldRawPool`) against the JavaScript conversion it replaces (`writeRawBlock`): two
 * recorders, one with the WebAssembly kernel and one without, given the same calls, must hold the
 * same bytes, word for word, and count the same repairs. The values are drawn from what each type
 * repairs (NaN, ±Infinity, doubles past float32, fractions, integers just outside the range, -0),
 * the row counts cover the kernel's four-row steps and its tail (0 to 3 rows left), the bool word's
 * edge and many words, and the ring wraps.
 */

const MAX_ID = 5000;
const SPEC = {
  hp: 'f32',
  n: 'i32',
  lvl: 'u8',
  on: 'bool',
  mode: 'enum',
  who: 'entity',
  dir: 'vec3',
  w: 'f32',
} as const;
const NAMES = ['idle', 'walk', 'run'];
const TAG = { flag: 'bool', k: 'u8' } as const;

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const SPECIAL = [
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  1e39,
  -1e39,
  -0,
  0.5,
  -2.5,
  255,
  256,
  -1,
  -2,
  2 ** 31,
  -(2 ** 31),
  2 ** 31 - 1,
  -(2 ** 31) - 1,
  1e300,
  MAX_ID - 1,
  MAX_ID,
  NAMES.length - 1,
  NAMES.length,
];

/** A value for a slot: usually a valid one of `kind`, sometimes one of the special ones. */
function value(rnd: () => number, kind: string): number {
  if (rnd() < 0.08) return SPECIAL[Math.floor(rnd() * SPECIAL.length)];
  switch (kind) {
    case 'n':
      return Math.floor((rnd() - 0.5) * 2 ** 32);
    case 'lvl':
      return Math.floor(rnd() * 256);
    case 'on':
      return rnd() < 0.5 ? 0 : 1;
    case 'mode':
      return Math.floor(rnd() * NAMES.length);
    case 'who':
      return Math.floor(rnd() * MAX_ID) - 1;
    default:
      return (rnd() - 0.5) * 1e4;
  }
}

const KINDS = ['hp', 'n', 'lvl', 'on', 'mode', 'who', 'dir', 'dir', 'dir', 'w'];

/** Records `frames` frames into both recorders: `counts(f)` entities, kinds laid out by `layout`. */
function recordBoth(
  options: { fieldBudgetBytes?: number },
  frames: number,
  counts: (f: number) => number,
  layout: 'runs' | 'alternating',
  seed: number,
): Recorder[] {
  const rs = [true, false].map(
    (wasm) =>
      new Recorder({ maxFrames: 8, arenaBytes: 8 << 20, maxEntityId: MAX_ID, wasm, onWarning: () => {}, ...options }),
  );
  const schemas = rs.map((r) => {
    const a = r.declareFields('agent', SPEC);
    for (const n of NAMES) a.code(n);
    return { a, t: r.declareFields('tag', TAG) };
  });
  const va = new Float64Array(schemas[0].a.slots);
  const vt = new Float64Array(schemas[0].t.slots);
  const rnd = random(seed);
  for (let f = 0; f < frames; f++) {
    for (const r of rs) r.beginFrame(f / 60, 1 / 60);
    const n = counts(f);
    const tags = layout === 'runs' ? Math.floor(n / 3) : 0;
    for (let i = 0; i < n; i++) {
      const isTag = layout === 'runs' ? i >= n - tags : i % 3 === 1;
      if (isTag) {
        vt[0] = value(rnd, 'on');
        vt[1] = value(rnd, 'lvl');
      } else for (let k = 0; k < KINDS.length; k++) va[k] = value(rnd, KINDS[k]);
      for (let j = 0; j < rs.length; j++) {
        rs[j].entity(i, i, 2 * i, 0, 0, 0, 0, 1);
        if (isTag) rs[j].fields(i, schemas[j].t, vt);
        else rs[j].fields(i, schemas[j].a, va);
      }
    }
    for (const r of rs) r.endFrame();
  }
  return rs;
}

function expectSameRecordings(rs: Recorder[]): void {
  const [withKernel, withoutKernel] = rs;
  expect(withKernel.backend).toBe('wasm-simd');
  expect(withoutKernel.backend).toBe('js');
  expect(withKernel.stats.invalidFieldValues).toBe(withoutKernel.stats.invalidFieldValues);
  expect(withKernel.stats.invalidFieldValues).toBeGreaterThan(0);
  const a = withKernel.ring.u32;
  const b = withoutKernel.ring.u32;
  expect(a.length).toBe(b.length);
  let differ = -1;
  for (let i = 0; i < a.length && differ < 0; i++) if (a[i] !== b[i]) differ = i;
  expect(differ).toBe(-1);
}

describe('custom fields converted by the entity kernel', () => {
  it('hold the same bytes as the JavaScript conversion: runs of each kind, every row count up to 70', () => {
    expectSameRecordings(recordBoth({}, 71, (f) => f, 'runs', 0x51d));
  });

  it('hold the same bytes as the JavaScript conversion: kinds that alternate (listed blocks), 300 rows', () => {
    expectSameRecordings(recordBoth({}, 24, (f) => 250 + ((f * 7) % 53), 'alternating', 0xa17));
  });

  it('hold the same bytes once the staging region is used up (the rows staged and converted in JavaScript)', () => {
    // A budget of 2 kB: the region holds 8 kB, less than a kind's rows take after a few doublings.
    expectSameRecordings(recordBoth({ fieldBudgetBytes: 2048 }, 20, (f) => 5 + f * 9, 'runs', 0xb0d6e7));
  });
});
