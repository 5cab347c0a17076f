/**
 * The field writer (FieldStage, FieldRows, FieldArea, fieldBlocks) against a plain model
 * (fieldModelKit.ts): random frames mixing every way rows reach a frame (per-entity runs, rows
 * replaced or refused, typed and plain columns calls naming the last entities, others, unrecorded
 * ids, missing columns, duplicates the resolver drops), each checked word for word against the
 * field section the model builds, with every kept entity's SANITIZED flag and the frame's repair
 * and drop counters. Many of the writer's mutants change some word of some frame; those a case
 * kills by name are listed there; the rest fall to this test as a whole.
 */
import { describe, expect, it } from 'vitest';
import type { FieldSchema } from '../FieldSchema';
import { FrameModel } from './fieldModelKit';
import { batch, put, recorder, sanitized, section } from './fieldStageKit';

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const MAX_ID = 1 << 16;
const FRAMES = 40;

/** A value of type `t`: mostly valid, sometimes one the recorder repairs (`typed`: what the typed column can hold). */
function value(rand: () => number, t: number, names: number, typed: boolean): number {
  const bad = rand() < 0.06;
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
  switch (t) {
    case 0:
    case 6:
      if (bad) return pick([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, typed ? Number.NaN : 1e39]);
      return Math.round((rand() - 0.5) * 2000) / 8 + (rand() < 0.3 ? 0.1 : 0);
    case 1:
      if (bad && !typed) return pick([1.5, 3e9, -3e9, Number.NaN]);
      return Math.floor((rand() - 0.5) * 2 ** 32);
    case 5:
      if (bad) return typed ? pick([-2, MAX_ID, -100]) : pick([-2, MAX_ID, 2.5, Number.NaN]);
      return Math.floor(rand() * (MAX_ID + 1)) - 1;
    case 2:
      if (bad && !typed) return pick([256, -1, 3.7, Number.NaN]);
      return Math.floor(rand() * 256);
    case 3:
      return typed ? pick([0, 0, 1, 2, 255]) : pick([0, 1, 0, 1, 2, Number.NaN, -1]);
    default:
      if (bad) return typed ? pick([names, 254, 255]) : pick([names, 255, -1, 1.5]);
      return Math.floor(rand() * names);
  }
}

/** Column f of a columns call for `c` rows, typed (the field area, block copies) or plain. */
function column(rand: () => number, schema: FieldSchema, f: number, c: number, typed: boolean): ArrayLike<number> {
  const t = schema.types[f];
  const per = t === 6 ? 3 : 1;
  // Sometimes longer than needed (the copy's spill), rarely too long for a block copy.
  const extra = rand() < 0.3 ? Math.floor(rand() * (c * per + 64)) : rand() < 0.05 ? 2 * c * per + 65 : 0;
  const xs = Array.from({ length: c * per + extra }, () => value(rand, t, schema.enumNames.length, typed));
  if (!typed) return xs;
  if (t === 0 || t === 6) return Float32Array.from(xs);
  if (t === 1 || t === 5) return Int32Array.from(xs);
  return Uint8Array.from(xs);
}

/** Records `frames` frames of random calls and checks each against the model (`budget`: fieldBudgetBytes). */
function randomFrames(seed: number, frames: number, budget: number): Record<string, number> {
  const { r, warnings } = recorder({ maxFrames: 64, arenaBytes: 40 * 1024, fieldBudgetBytes: budget });
  const A = r.declareFields('a', { hp: 'f32', v: 'vec3', n: 'i32', tgt: 'entity', b: 'u8', on: 'bool', st: 'enum' });
  const B = r.declareFields('b', { on: 'bool', k: 'u8' });
  const C = r.declareFields('c', { p: 'vec3', id: 'entity' });
  const D = r.declareFields('d', { x: 'f32' });
  for (const name of ['idle', 'walk', 'run']) A.code(name);
  const kinds = [A, B, C, D];
  const rand = rng(seed);
  // What the frames held, so that the test shows it reached each case.
  const seen = { words: 0, listed: 0, repairs: 0, dropped: 0, flagged: 0, overBudget: 0, wraps: 0 };
  let last = 0;
  for (let frame = 0; frame < frames; frame++) {
    const m = new FrameModel(MAX_ID);
    const before = {
      invalid: r.stats.invalidFieldValues,
      dropped: r.stats.fieldRowsDropped,
      over: r.stats.fieldRowsOverBudget,
    };
    const big = frame % 12 === 11;
    let nextId = Math.floor(rand() * 50);
    let kind = kinds[Math.floor(rand() * 4)];
    r.beginFrame(frame, 1 / 60);
    const segments = big ? 3 : 1 + Math.floor(rand() * 6);
    for (let g = 0; g < segments; g++) {
      if (rand() < 0.3) kind = kinds[Math.floor(rand() * 4)];
      const id = () => (rand() < 0.04 && m.ids.length > 0 ? m.ids[Math.floor(rand() * m.ids.length)] : nextId++);
      if (rand() < 0.5) {
        // Entities one by one, most with per-entity fields.
        const n = big ? 100 + Math.floor(rand() * 200) : Math.floor(rand() * 40);
        for (let i = 0; i < n; i++) {
          const e = id();
          put(r, e);
          m.entity(e);
          if (rand() < 0.85) {
            if (rand() < 0.05) kind = kinds[Math.floor(rand() * 4)];
            const vals = Array.from({ length: kind.slots }, (_, s) => {
              let f = 0;
              while (f + 1 < kind.types.length && kind.slotOf[f + 1] <= s) f++;
              return value(rand, kind.types[f], kind.enumNames.length, false);
            });
            if (rand() < 0.03) vals.length = Math.floor(rand() * kind.slots); // too short
            const form = rand();
            const given = form < 0.02 ? (null as never) : form < 0.5 ? Float64Array.from(vals) : vals;
            r.fields(e, kind, given);
            m.fields(kind, given);
            if (rand() < 0.05) {
              // The same entity again: the same kind replaces the row, another kind is dropped.
              const other = rand() < 0.5 ? kind : kinds[Math.floor(rand() * 4)];
              const again = Array.from({ length: other.slots }, () => Math.floor(rand() * 2));
              r.fields(e, other, again);
              m.fields(other, again);
            }
          }
          if (rand() < 0.02) {
            r.fields(e + 100000, kind, [0]);
            m.refused();
          }
        }
      } else {
        // A batch of entities, then maybe a columns call naming them (or others).
        const n = big ? 100 + Math.floor(rand() * 200) : 1 + Math.floor(rand() * 40);
        const ids = Array.from({ length: n }, id);
        batch(r, ids);
        for (const e of ids) m.entity(e);
        if (rand() < 0.8) {
          const typed = rand() < 0.6;
          let named = ids.slice();
          const shape = rand();
          if (shape < 0.1) named.reverse();
          else if (shape < 0.2) named = named.filter(() => rand() < 0.7);
          else if (shape < 0.25) named.splice(Math.floor(rand() * named.length), 0, 900000);
          else if (shape < 0.3 && m.ids.length > n) named = m.ids.slice(0, Math.floor(rand() * m.ids.length));
          if (named.length > 0) {
            const c = named.length;
            const cols: Array<ArrayLike<number> | null> = kind.types.length
              ? Array.from(kind.types, (_, f) => column(rand, kind, f, c, typed))
              : [];
            const cut = rand();
            if (cut < 0.04) cols[Math.floor(rand() * cols.length)] = null;
            else if (cut < 0.08) cols.length = Math.floor(rand() * cols.length);
            const count = rand() < 0.05 ? c + 5 : rand() < 0.05 ? c - 0.5 : c;
            r.fieldColumns(kind, count, named, cols as ArrayLike<ArrayLike<number>>);
            m.columns(kind, count, named, cols as ArrayLike<ArrayLike<number>>);
          }
        }
      }
    }
    r.endFrame();
    // The arena wraps: frames are written over older frames' words (stale padding and bits).
    const at = r.ring.offsetOf(frame);
    if (at < last) seen.wraps++;
    last = at;
    const words = m.section(Math.floor(budget / 4));
    expect(section(r, frame), `frame ${frame}`).toEqual(words);
    seen.words += words.length;
    seen.listed += words.some((w) => w >= 0x80000000 && w - 0x80000000 < 4) ? 1 : 0;
    seen.repairs += m.invalid;
    seen.dropped += m.dropped;
    seen.flagged += m.flagged.size;
    seen.overBudget += m.overBudget;
    const kept = m.kept();
    const flags = kept.flatMap((e, s) => (e < 0 ? [] : [sanitized(r, frame, e) === m.flagged.has(s)]));
    expect(
      flags.every((x) => x),
      `frame ${frame}: SANITIZED flags`,
    ).toBe(true);
    expect(r.stats.invalidFieldValues - before.invalid, `frame ${frame}: repairs`).toBe(m.invalid);
    expect(r.stats.fieldRowsDropped - before.dropped, `frame ${frame}: dropped`).toBe(m.dropped);
    expect(r.stats.fieldRowsOverBudget - before.over, `frame ${frame}: over budget`).toBe(m.overBudget);
  }
  const budgetWarnings = warnings.filter((w) => w.includes('fieldBudgetBytes'));
  expect(budgetWarnings).toEqual(
    seen.overBudget > 0
      ? [
          `rewindable: a frame's fields exceed fieldBudgetBytes (${Math.floor(budget / 4) * 4}); the rows past it were dropped`,
        ]
      : [],
  );
  return seen;
}

describe('field writer against a plain model', () => {
  it('writes every frame of random calls as the model does', () => {
    const seen = randomFrames(20, FRAMES, 1 << 20);
    expect(seen.overBudget).toBe(0);
    const { overBudget, wraps, ...rest } = seen;
    expect([overBudget, wraps >= 2, Object.values(rest).every((n) => n > 20)], JSON.stringify(seen)).toEqual([
      0,
      true,
      true,
    ]);
  });

  it('cuts each block to the rows that fit the field budget, as the model does', () => {
    // FieldStage.write's budget (the room left, the cut, `overBudget`, the counter, the warning),
    // writeRun's and writeDirect's `words > room`.
    for (const budget of [0, 12, 40, 401, 1500]) {
      const seen = randomFrames(budget + 3, 10, budget);
      expect(seen.overBudget > 0, `${budget}: ${JSON.stringify(seen)}`).toBe(true);
    }
  });
});
