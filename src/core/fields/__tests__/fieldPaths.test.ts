import { describe, expect, it } from 'vitest';
import { fieldSectionAt, H_SANITIZED } from '../../format/layout';
import { Playback } from '../../playback/Playback';
import { Recorder } from '../../record/Recorder';
import type { FieldSchema } from '../FieldSchema';

/**
 * The three ways a kind's rows reach the frame give the same bytes: a columns call of typed columns
 * (staged in the field area in the frame's layout, moved with one copy: `FieldArea`), a columns
 * call of plain arrays (the staging columns, `FieldRows.writeColumn` and `writeBlock`), and
 * per-entity calls (converted straight into the frame, `writeRawBlock`); and the per-entity values
 * read back as a plain reference computes them. Counts cross the bool word (32 rows) and the
 * conversion tile (256 rows); columns are longer than their rows (a copy spills into the next
 * columns, and the padding bytes of a byte column must still be 0); invalid values of every type
 * are repaired, counted and flagged alike.
 */

/** Fields in an order where long float and int columns spill into byte columns after them. */
const SPEC = {
  hp: 'f32',
  lvl: 'u8',
  dir: 'vec3',
  mode: 'enum',
  n: 'i32',
  on: 'bool',
  who: 'entity',
  mass: 'f32',
} as const;
const MAX_ID = 1 << 20;
const NAMES = ['idle', 'walk', 'run'];

/** A deterministic sequence in [0, 1). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** One frame's inputs: ids and one typed column per field, longer than the rows. */
interface Frame {
  count: number;
  ids: Int32Array;
  cols: [Float32Array, Uint8Array, Float32Array, Uint8Array, Int32Array, Uint8Array, Int32Array, Float32Array];
}

function frameOf(rnd: () => number, count: number, first: number): Frame {
  const len = count + 7; // longer than the rows
  const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)];
  const bad = () => rnd() < 0.04;
  const float = () =>
    bad() ? pick([Number.NaN, Number.POSITIVE_INFINITY, -Number.POSITIVE_INFINITY]) : (rnd() - 0.5) * 1e4;
  const cols: Frame['cols'] = [
    Float32Array.from({ length: len }, float),
    Uint8Array.from({ length: len }, () => Math.floor(rnd() * 256)),
    Float32Array.from({ length: len * 3 }, float),
    Uint8Array.from({ length: len }, () => (bad() ? 3 + Math.floor(rnd() * 250) : Math.floor(rnd() * 3))),
    Int32Array.from({ length: len }, () => Math.floor((rnd() - 0.5) * 2 ** 32)),
    Uint8Array.from({ length: len }, () => pick([0, 0, 1, 2, 255])),
    Int32Array.from({ length: len }, () => (bad() ? pick([-2, MAX_ID, -(2 ** 31)]) : Math.floor(rnd() * 500) - 1)),
    Float32Array.from({ length: len }, float),
  ];
  return { count, ids: Int32Array.from({ length: len }, (_, i) => first + i), cols };
}

/** The values entity i of `fr` gives a per-entity call, slot by slot. */
function slotsOf(fr: Frame, i: number): number[] {
  const c = fr.cols;
  return [c[0][i], c[1][i], c[2][i * 3], c[2][i * 3 + 1], c[2][i * 3 + 2], c[3][i], c[4][i], c[5][i], c[6][i], c[7][i]];
}

/** What a reader gives back for each slot of entity i (repaired values; NaN for an enum or entity of none). */
function expectedOf(fr: Frame, i: number): number[] {
  const s = slotsOf(fr, i);
  const f32 = (v: number) => (Number.isFinite(Math.fround(v)) ? Math.fround(v) : 0);
  return [
    f32(s[0]),
    s[1],
    f32(s[2]),
    f32(s[3]),
    f32(s[4]),
    s[5] < NAMES.length ? s[5] : Number.NaN,
    s[6],
    s[7] !== 0 ? 1 : 0,
    s[8] >= -1 && s[8] < MAX_ID && s[8] !== -1 ? s[8] : Number.NaN,
    f32(s[9]),
  ];
}

/** How many slots of entity i are invalid. */
function badOf(fr: Frame, i: number): number {
  const s = slotsOf(fr, i);
  let n = 0;
  for (const k of [0, 2, 3, 4, 9]) if (!Number.isFinite(s[k])) n++;
  if (s[5] >= NAMES.length) n++;
  if (s[8] < -1 || s[8] >= MAX_ID) n++;
  return n;
}

type Way = 'typed' | 'plain' | 'perEntity';

function makeRecorder(budget = 1 << 20): { r: Recorder; S: FieldSchema } {
  const r = new Recorder({
    maxFrames: 64,
    arenaBytes: 8 << 20,
    maxEntityId: MAX_ID,
    fieldBudgetBytes: budget,
    onWarning: () => {},
  });
  const S = r.declareFields('unit', SPEC);
  for (const n of NAMES) S.code(n);
  return { r, S };
}

/** Records `fr`'s entities (a batch) and their fields one way. */
function record(r: Recorder, S: FieldSchema, fr: Frame, way: Way, f: number): void {
  const n = fr.count;
  const pos = new Float32Array(n * 3);
  const rot = new Float32Array(n * 4);
  for (let i = 0; i < n; i++) rot[i * 4 + 3] = 1;
  r.beginFrame(f, 1);
  if (way === 'perEntity') {
    const v = new Float64Array(S.slots);
    for (let i = 0; i < n; i++) {
      r.entity(fr.ids[i], 0, 0, 0, 0, 0, 0, 1);
      v.set(slotsOf(fr, i));
      r.fields(fr.ids[i], S, v);
    }
  } else {
    r.entityBatch(n, fr.ids, pos, rot);
    r.fieldColumns(S, n, fr.ids, way === 'typed' ? fr.cols : fr.cols.map((c) => Array.from(c)));
  }
  r.endFrame();
}

/** The frame's field section words, its sanitized count and the entities' SANITIZED bits. */
function fieldsOf(r: Recorder, f: number): { words: number[]; sanitized: number; flagged: number[] } {
  const u = r.ring.u32;
  const at = r.ring.offsetOf(f);
  const from = fieldSectionAt(u, at);
  const words = Array.from(u.subarray(from, at + r.reader.bytesOf(f) / 4));
  const flagged: number[] = [];
  for (let e = 0; e < r.reader.entityCountOf(f); e++) if (r.reader.flagsAt(f, e) & 128) flagged.push(e);
  return { words, sanitized: u[at + H_SANITIZED], flagged };
}

describe('field paths: typed columns, plain columns and per-entity calls store the same bytes', () => {
  it('every type, counts across the bool word and the tile, long columns, invalid values', () => {
    const ways: Way[] = ['typed', 'plain', 'perEntity'];
    const recs = ways.map(() => makeRecorder());
    const rnd = random(0x5eed);
    const counts = [1, 3, 31, 32, 33, 63, 64, 65, 130, 7, 200, 4, 129, 255, 256, 257, 600];
    counts.forEach((count, f) => {
      const fr = frameOf(rnd, count, 100 + f * 3);
      ways.forEach((way, k) => record(recs[k].r, recs[k].S, fr, way, f));
      const ref = fieldsOf(recs[2].r, f);
      for (const k of [0, 1]) expect(fieldsOf(recs[k].r, f), `${ways[k]}, frame ${f} (${count} rows)`).toEqual(ref);
      // The per-entity recording reads back as the reference says.
      const pb = new Playback(recs[2].r.reader);
      const out = new Float64Array(3);
      let bad = 0;
      for (let i = 0; i < count; i++) {
        const h = recs[2].r.entities.lookup(fr.ids[i]);
        const got: number[] = [];
        for (let field = 0; field < 8; field++) {
          pb.fields.valueAt(h, field, f, out);
          got.push(...Array.from(out.subarray(0, field === 2 ? 3 : 1)));
        }
        expect(got, `frame ${f}, row ${i}`).toEqual(expectedOf(fr, i));
        expect(recs[2].r.reader.flagsAt(f, i) >> 7, `frame ${f}, row ${i} flagged`).toBe(badOf(fr, i) > 0 ? 1 : 0);
        bad += badOf(fr, i);
      }
      expect(ref.sanitized, `frame ${f}: values repaired`).toBe(bad);
    });
    const invalid = recs.map(({ r }) => r.stats.invalidFieldValues);
    expect(invalid[0]).toBeGreaterThan(10);
    expect(invalid).toEqual([invalid[0], invalid[0], invalid[0]]);
  });

  it('falls back alike: a second columns call, a per-entity call over a staged row, a duplicate entity, over budget', () => {
    const rnd = random(0xfa11);
    const fr = frameOf(rnd, 90, 500);
    const ref = makeRecorder();
    record(ref.r, ref.S, fr, 'perEntity', 0);
    const want = fieldsOf(ref.r, 0);
    const n = fr.count;
    const pos = new Float32Array(n * 3);
    const rot = new Float32Array(n * 4);
    for (let i = 0; i < n; i++) rot[i * 4 + 3] = 1;
    const half = (from: number, to: number) =>
      fr.cols.map((c, f) => (f === 2 ? c.slice(from * 3, to * 3) : c.slice(from, to))) as Frame['cols'];

    // Two columns calls for the kind, the second after more entities: the first block leaves the area.
    const two = makeRecorder();
    two.r.beginFrame(0, 1);
    two.r.entityBatch(40, fr.ids, pos, rot);
    two.r.fieldColumns(two.S, 40, fr.ids, half(0, 40));
    two.r.entityBatch(n - 40, fr.ids.slice(40), pos, rot);
    two.r.fieldColumns(two.S, n - 40, fr.ids.slice(40), half(40, n));
    two.r.endFrame();
    expect(fieldsOf(two.r, 0)).toEqual(want);

    // A per-entity call for the last entity replaces its staged row.
    const over = makeRecorder();
    const other = frameOf(random(7), n, 500);
    over.r.beginFrame(0, 1);
    over.r.entityBatch(n, fr.ids, pos, rot);
    over.r.fieldColumns(over.S, n, fr.ids, other.cols);
    over.r.fieldColumns(over.S, n - 1, fr.ids, fr.cols); // the same entities again: written over
    over.r.fields(fr.ids[n - 1], over.S, slotsOf(fr, n - 1));
    over.r.endFrame();
    expect(fieldsOf(over.r, 0).words).toEqual(want.words);

    // Straight after the block: a per-entity call replaces the last entity's row; another kind's is dropped.
    const after = makeRecorder();
    const OTHER = after.r.declareFields('other', { x: 'f32' });
    after.r.beginFrame(0, 1);
    after.r.entityBatch(n, fr.ids, pos, rot);
    const last = fr.cols.map((c) => c.slice()) as Frame['cols'];
    last[0][n - 1] = 12345; // replaced below
    after.r.fieldColumns(after.S, n, fr.ids, last);
    after.r.fields(fr.ids[n - 1], after.S, slotsOf(fr, n - 1));
    after.r.fields(fr.ids[n - 1], OTHER, [1]);
    after.r.endFrame();
    expect(fieldsOf(after.r, 0).words).toEqual(want.words);
    expect(after.r.stats.fieldRowsDropped).toBe(1);

    // A duplicate entity (dropped by the resolver, its row with it): the rows after it move up.
    const dup = makeRecorder();
    const ids = Int32Array.from(fr.ids);
    ids[50] = ids[49];
    dup.r.beginFrame(0, 1);
    dup.r.entityBatch(n, ids, pos, rot);
    dup.r.fieldColumns(dup.S, n, ids, fr.cols);
    dup.r.endFrame();
    const dupRef = makeRecorder();
    dupRef.r.beginFrame(0, 1);
    const v = new Float64Array(dupRef.S.slots);
    for (let i = 0; i < n; i++) {
      dupRef.r.entity(ids[i], 0, 0, 0, 0, 0, 0, 1);
      v.set(slotsOf(fr, i));
      dupRef.r.fields(ids[i], dupRef.S, v);
    }
    dupRef.r.endFrame();
    expect(dup.r.reader.entityCountOf(0)).toBe(n - 1);
    expect(fieldsOf(dup.r, 0)).toEqual(fieldsOf(dupRef.r, 0));

    // Over budget: the rows that fit are kept, as from the staging columns.
    const budget = 1024;
    const small = makeRecorder(budget);
    record(small.r, small.S, fr, 'typed', 0);
    const smallRef = makeRecorder(budget);
    record(smallRef.r, smallRef.S, fr, 'plain', 0);
    expect(small.r.stats.fieldRowsOverBudget).toBeGreaterThan(0);
    expect(fieldsOf(small.r, 0)).toEqual(fieldsOf(smallRef.r, 0));
    expect(small.r.stats.fieldRowsOverBudget).toBe(smallRef.r.stats.fieldRowsOverBudget);
  });
});
