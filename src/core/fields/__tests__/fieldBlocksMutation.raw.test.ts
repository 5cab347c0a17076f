/**
 * fieldBlocks.ts's conversion of per-entity rows (`writeRawBlock`), the survivors of run `fblocks7`
 * (issue 20, seventh pass). The conversion sums, per field and tile of 256 rows, what tells an invalid
 * value (`|v - (v | 0)|`, a range test), and checks value by value only a tile whose sum is not 0:
 * a mutant that lets the sum come out 0 while a value is invalid stores it unrepaired. The random
 * values of the other tests always put a valid nonzero value beside the invalid one (which sends the
 * tile to the check whatever the sum says), and no test had more than 256 rows of a kind converted
 * in JavaScript (the WebAssembly kernel converts them since 362f19a). Here each frame is compared
 * word for word with the plain model of fieldModelKit.ts (values, repairs counted, SANITIZED flags),
 * on both backends, and the frames held before a frame are checked unchanged by it (a loop one step
 * past its column writes past the frame when the column is the section's last).
 */
import { describe, expect, it } from 'vitest';
import { H_TOTAL_WORDS } from '../../format/layout';
import type { Recorder } from '../../record/Recorder';
import type { FieldType } from '../fieldLayout';
import type { FieldSchema } from '../FieldSchema';
import { FrameModel } from './fieldModelKit';
import { put, recorder, sanitized, section } from './fieldStageKit';

const MAX_ID = 1000;
const NAMES = ['idle', 'walk', 'run'];
const BACKENDS = [false, true] as const;

type Field = 'n' | 'who' | 'b' | 'st' | 'hp' | 'v' | 'on';
const SPEC = { n: 'i32', who: 'entity', b: 'u8', st: 'enum', hp: 'f32', v: 'vec3', on: 'bool' } as const;

function kind(r: Recorder): FieldSchema {
  const a = r.declareFields('a', SPEC);
  for (const name of NAMES) a.code(name);
  return a;
}

/** A row of `a` with every slot valid (row `q`), then the given fields' values. */
function row(a: FieldSchema, q: number, set: Partial<Record<Field, number>>): number[] {
  const v = new Array<number>(a.slots).fill(0);
  const at = (f: Field) => a.slotOf[a.field(f)];
  v[at('n')] = q - 3;
  v[at('who')] = q % MAX_ID;
  v[at('b')] = q & 255;
  v[at('st')] = q % NAMES.length;
  v[at('hp')] = q / 4;
  v[at('v')] = q;
  v[at('v') + 1] = -q;
  v[at('v') + 2] = 0.5;
  v[at('on')] = q & 1;
  for (const [f, x] of Object.entries(set)) v[at(f as Field)] = x;
  return v;
}

/**
 * Records one frame of `rows` (entity q gets row q, one `fields` call each) and checks its field
 * section, its repairs and its SANITIZED flags against the model.
 */
function frame(r: Recorder, a: FieldSchema, rows: number[][], label: string): void {
  const m = new FrameModel(MAX_ID);
  const before = r.stats.invalidFieldValues;
  r.beginFrame(0, 1 / 60);
  rows.forEach((values, q) => {
    put(r, q);
    m.entity(q);
    r.fields(q, a, values);
    m.fields(a, values);
  });
  r.endFrame();
  const f = r.ring.newestFrame;
  expect(section(r, f), label).toEqual(m.section());
  expect(r.stats.invalidFieldValues - before, `${label}: repairs`).toBe(m.invalid);
  expect(
    rows.map((_, q) => sanitized(r, f, q)),
    `${label}: SANITIZED`,
  ).toEqual(rows.map((_, q) => m.flagged.has(q)));
}

/** One field's values over a block of `values.length` rows, every other field valid (and 0 for `zero`). */
function column(a: FieldSchema, field: Field, values: number[]): number[][] {
  return values.map((x, q) => row(a, q, { n: 0, who: 0, b: 0, st: 0, [field]: x }));
}

describe.each(BACKENDS)('per-entity rows: the invalid-value sums of one tile (wasm %s)', (wasm) => {
  it('repairs an invalid value that the sum alone would take for valid, in the pairs and the tail', () => {
    const { r } = recorder({ wasm, maxEntityId: MAX_ID, maxFrames: 64 });
    const a = kind(r);
    const cases: Array<[Field, number[], string]> = [
      // An int32's bits: 2^31 is stored as -2^31 (`x = v | 0`), which `v + x` sums to 0
      // (317:27 even rows, 318:28 odd rows, 324:27 the tail).
      ['n', [2 ** 31, 0], 'i32 2^31, even row'],
      ['n', [0, 2 ** 31], 'i32 2^31, odd row'],
      ['n', [0, 0, 2 ** 31], 'i32 2^31, the tail'],
      // An entity id below -1 or at the bound, alone in its rows: the range test's mutants that
      // count nothing for it (`x >= lo`, `x < hi`, `x > hi`, `false`, `&&`; 317:37, 317:47,
      // 318:40, 318:51, 324:37, 324:47).
      ['who', [-2, 5], 'entity below -1, even row'],
      ['who', [MAX_ID, 5], 'entity at the bound, even row'],
      ['who', [5, -2], 'entity below -1, odd row'],
      ['who', [5, MAX_ID], 'entity at the bound, odd row'],
      ['who', [5, 6, -2], 'entity below -1, the tail'],
      ['who', [5, 6, MAX_ID], 'entity at the bound, the tail'],
      ['who', [-2], 'entity below -1, one row'],
      // Sums that a subtraction cancels: two halves against one out-of-range id (`Math.abs(...) -
      // (...)`: 317:18 even rows, 318:19 odd rows, 324:18 the tail), and the tail's whole term
      // subtracted (324:11 `acc -=`).
      ['who', [0.5, 1, 2.5, 1, -2, 1], 'entity: halves and a bad id, even rows'],
      ['who', [1, 0.5, 1, 2.5, 1, -2], 'entity: halves and a bad id, odd rows'],
      ['who', [0.5, 3, 2.5, 4, -2], 'entity: halves, then a bad id in the tail'],
      ['who', [-2, 5, -3], 'entity: a bad id in a pair and one in the tail'],
      // A byte: -128 & 255 is 128, which `v + x` sums to 0 (353:27, 354:28, 360:27).
      ['b', [-128, 0], 'u8 -128, even row'],
      ['b', [0, -128], 'u8 -128, odd row'],
      ['b', [0, 0, -128], 'u8 -128, the tail'],
      // The tail's term subtracted (360:11): 0.5 from a pair, 0.5 from the tail.
      ['b', [1.5, 0, -0.5], 'u8: a half in a pair and one in the tail'],
      // An enum code past the names (353:37, 360:37: `false`, `x > hi`, `x < hi`).
      ['st', [NAMES.length, 0], 'enum past the names, even row'],
      ['st', [0, 0, NAMES.length], 'enum past the names, the tail'],
      // Two halves against the tail's code past the names (360:18 `Math.abs(...) - (...)`).
      ['st', [0.5, 0, 1.5, 0, NAMES.length], 'enum: halves, then a code past the names in the tail'],
    ];
    for (const [field, values, label] of cases) frame(r, a, column(a, field, values), label);
  });

  it('converts and repairs every row of a block of several tiles', () => {
    // Kills, for rows past the first tile of 256: each field's start in the rows, `q0 * slots` →
    // `q0 / slots` (273:19, 293:34, 308:17, 328:32, 337:30, 344:17, 364:32); the tile's end `q0 + TILE`
    // → `q0 - TILE` (256:32: rows past the first tile never converted) and → `k` (256:16 `false`: the
    // rows past the first tile converted and their repairs counted again per tile).
    const { r } = recorder({ wasm, maxEntityId: MAX_ID, maxFrames: 8, arenaBytes: 4 << 20 });
    const a = kind(r);
    for (const k of [257, 600]) {
      const rows = Array.from({ length: k }, (_, q) => row(a, q, {}));
      // Invalid values in every field of every tile (none in the first rows of a tile only).
      for (const q of [3, 255, 256, 300, 511, 512, k - 1]) {
        if (q >= k) continue;
        const v = rows[q];
        const at = (f: Field) => a.slotOf[a.field(f)];
        v[at('n')] = 1.5;
        v[at('who')] = -7;
        v[at('b')] = 300;
        v[at('st')] = 9;
        v[at('hp')] = Number.NaN;
        v[at('v') + (q % 3)] = Number.POSITIVE_INFINITY;
      }
      frame(r, a, rows, `${k} rows`);
    }
  });
});

/** How a frame's rows reach the writer: per-entity calls, or a columns call of plain arrays in or out of order. */
const WAYS = ['rows', 'columns', 'reversed'] as const;

/**
 * Records 20 frames into a small ring, each with a listed block of `k` rows of kind `s` (the
 * entities at even places of the frame's 2k - 1, after an entity without fields when `lead`), and
 * checks after each frame that the frames held before it are unchanged. Returns the frame's size.
 */
function ringOfFrames(
  wasm: boolean,
  spec: Record<'x', FieldType>,
  way: (typeof WAYS)[number],
  k: number,
  lead: boolean,
): number {
  const { r } = recorder({ wasm, maxEntityId: MAX_ID, maxFrames: 64, arenaBytes: 2048 });
  const s = r.declareFields('s', spec);
  s.code('one');
  s.code('two');
  const per = spec.x === 'vec3' ? 3 : 1;
  const words = (f: number): number[] => {
    const at = r.ring.offsetOf(f);
    return Array.from(r.ring.u32.subarray(at, at + r.ring.u32[at + H_TOTAL_WORDS]));
  };
  const held = new Map<number, number[]>();
  for (let f = 0; f < 20; f++) {
    r.beginFrame(f, 1 / 60);
    if (lead) put(r, 999);
    // Values that vary per frame (the staging past the last row holds older rows' values).
    const value = (q: number, c: number) => (c === 0 ? (q + f) % 2 : c * 0.25);
    const ids = Array.from({ length: k }, (_, q) => 2 * (way === 'reversed' ? k - 1 - q : q));
    for (let e = 0; e < 2 * k - 1; e++) {
      put(r, e);
      if (way === 'rows' && e % 2 === 0)
        r.fields(
          e,
          s,
          [0, 1, 2].map((c) => value(e, c)),
        );
    }
    if (way !== 'rows')
      r.fieldColumns(s, k, ids, [ids.flatMap((id) => Array.from({ length: per }, (_, c) => value(id, c)))]);
    r.endFrame();
    const newest = r.ring.newestFrame;
    for (const [frame, before] of held) {
      if (!r.reader.has(frame)) held.delete(frame);
      else expect(words(frame), `${way}, ${k} rows: frame ${frame} after frame ${newest}`).toEqual(before);
    }
    held.set(newest, words(newest));
  }
  // The ring wrapped: the oldest frames were evicted, more than two still held.
  expect([r.reader.has(0), held.size > 2]).toEqual([false, true]);
  return words(r.ring.newestFrame).length;
}

describe.each(BACKENDS)('nothing written past the frame (wasm %s)', (wasm) => {
  it.each([
    ['f32', { x: 'f32' }],
    ['vec3', { x: 'vec3' }],
    ['i32', { x: 'i32' }],
    ['entity', { x: 'entity' }],
    ['u8', { x: 'u8' }],
    ['enum', { x: 'enum' }],
  ] as const)('leaves the frames held before unchanged: a block whose last column is %s', (_, spec) => {
    // Kills the loops that run one row past the block's last column: per-entity rows, the pairs'
    // `q + 1 < q1` → `<=` and `q - 1 < q1` (275:18, 310:16), the tail's `q < q1` → `<=` and `true`
    // (283:15, 320:13); a columns call in order, `q < k` → `<=` (134:23), the byte words' `x <= words`
    // (149:23) and their padding's `b <= end` (151:54); out of order, `q < k` → `<=` (81:23, 91:23).
    // Each writes one word (or byte) past the block, which for the section's last block is the first
    // word of the oldest frame held once the ring wrapped, when no padding word lies between the
    // frames: the ring starts frames on even words, so each case runs with an entity without fields
    // before the block's and without, one of which makes the frame's size even. Odd and even row
    // counts reach the pairs and the tail, 5 and 6 rows the padding bytes.
    for (const way of WAYS) {
      for (const k of [5, 6]) {
        const sizes = [false, true].map((lead) => ringOfFrames(wasm, spec, way, k, lead));
        expect(sizes.filter((n) => n % 2 === 0).length).toBe(1);
      }
    }
  });
});
