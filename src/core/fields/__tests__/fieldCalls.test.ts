import { describe, expect, it } from 'vitest';
import { H_SANITIZED, HANDLE_MASK, HEADER_WORDS } from '../../format/layout';
import { Playback } from '../../playback/Playback';
import { Recorder } from '../../record/Recorder';

/**
 * The per-entity call (`Recorder.fields`) with two kinds whose entities alternate, so that neither
 * kind's rows are contiguous (listed blocks), over more frames than the ring holds, with a count
 * that changes from frame to frame (across the bool word and the conversion tile) and invalid
 * values of every checked type: every value read back equals the documented repair of what was
 * given, and the repairs are counted per frame and in the stats.
 */

const MAX_ID = 1 << 20;
const A_SPEC = { hp: 'f32', n: 'i32', on: 'bool', who: 'entity' } as const;
const B_SPEC = { lvl: 'u8', mode: 'enum', dir: 'vec3' } as const;
const NAMES = ['idle', 'walk'];

/** A deterministic sequence in [0, 1). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** The slots an entity gives, and what each reads back as (NaN: an enum or entity of none). */
interface Row {
  slots: number[];
  want: number[];
  bad: number;
}

const fr = Math.fround;
const f32 = (v: number) => (Number.isFinite(fr(v)) ? fr(v) : 0);

function rowA(rnd: () => number): Row {
  const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)];
  const hp = rnd() < 0.05 ? pick([Number.NaN, Number.POSITIVE_INFINITY, 1e39]) : (rnd() - 0.5) * 1e4;
  const n = rnd() < 0.05 ? pick([1.5, -2.5, 2 ** 31, Number.NaN]) : Math.floor((rnd() - 0.5) * 2 ** 32);
  const on = pick([0, 1, 2, -1]);
  const who = rnd() < 0.05 ? pick([-2, MAX_ID, 3.5]) : Math.floor(rnd() * 500) - 1;
  const nOk = (n | 0) === n;
  const whoOk = (who | 0) === who && who >= -1 && who < MAX_ID;
  const repairedN = Number.isFinite(n) ? Math.trunc(Math.min(Math.max(n, -(2 ** 31)), 2 ** 31 - 1)) : 0;
  return {
    slots: [hp, n, on, who],
    want: [f32(hp), nOk ? n : repairedN, on !== 0 ? 1 : 0, whoOk && who !== -1 ? who : Number.NaN],
    bad: (Number.isFinite(fr(hp)) ? 0 : 1) + (nOk ? 0 : 1) + (whoOk ? 0 : 1),
  };
}

function rowB(rnd: () => number): Row {
  const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)];
  const lvl = rnd() < 0.05 ? pick([300, -3, 2.7, Number.NaN]) : Math.floor(rnd() * 256);
  const mode = rnd() < 0.05 ? pick([NAMES.length, 7, -1, 0.5]) : Math.floor(rnd() * NAMES.length);
  const dir = [0, 1, 2].map(() => (rnd() < 0.03 ? Number.NaN : (rnd() - 0.5) * 100));
  const lvlOk = (lvl & 255) === lvl;
  const repairedLvl = Number.isFinite(lvl) ? Math.trunc(Math.min(Math.max(lvl, 0), 255)) : 0;
  const modeOk = (mode | 0) === mode && mode >= 0 && mode < NAMES.length;
  return {
    slots: [lvl, mode, ...dir],
    want: [lvlOk ? lvl : repairedLvl, modeOk ? mode : Number.NaN, ...dir.map(f32)],
    bad: (lvlOk ? 0 : 1) + (modeOk ? 0 : 1) + dir.filter((d) => !Number.isFinite(d)).length,
  };
}

describe('field calls: per-entity calls of alternating kinds', () => {
  it('round-trips every type with repairs, listed blocks, counts that change and the ring wrapping', () => {
    const frames = 30;
    const r = new Recorder({ maxFrames: 8, arenaBytes: 4 << 20, maxEntityId: MAX_ID, onWarning: () => {} });
    const A = r.declareFields('a', A_SPEC);
    const B = r.declareFields('b', B_SPEC);
    for (const n of NAMES) B.code(n);
    const rnd = random(0xca11);
    const va = new Float64Array(A.slots);
    const vb = new Float64Array(B.slots);
    /** rows[f][id]: what entity id gave in frame f. */
    const rows: Row[][] = [];
    let bad = 0;
    for (let f = 0; f < frames; f++) {
      const count = 60 + ((f * 37) % 560); // 60 .. 619: each kind's rows across the bool words and the tile (256)
      const frameRows: Row[] = [];
      let frameBad = 0;
      r.beginFrame(f, 1);
      for (let id = 0; id < count; id++) {
        r.entity(id, id, 0, 0, 0, 0, 0, 1);
        const row = id % 2 === 0 ? rowA(rnd) : rowB(rnd);
        frameRows.push(row);
        frameBad += row.bad;
        if (id % 2 === 0) {
          va.set(row.slots);
          r.fields(id, A, va);
        } else {
          vb.set(row.slots);
          r.fields(id, B, vb);
        }
      }
      r.endFrame();
      rows.push(frameRows);
      bad += frameBad;
      expect(r.ring.u32[r.ring.offsetOf(f) + H_SANITIZED]).toBe(frameBad);
    }
    expect(r.stats.invalidFieldValues).toBe(bad);
    expect(r.stats.fieldRowsDropped).toBe(0);

    const reader = r.reader;
    expect(reader.oldestFrame).toBe(frames - 8);
    const pb = new Playback(reader);
    const out = new Float64Array(3);
    for (let f = reader.oldestFrame; f <= reader.newestFrame; f++) {
      const frameRows = rows[f];
      for (let e = 0; e < reader.entityCountOf(f); e++) {
        const h = r.ring.u32[r.ring.offsetOf(f) + HEADER_WORDS + e] & HANDLE_MASK;
        const id = e; // entities were recorded in id order, none dropped
        const row = frameRows[id];
        const got: number[] = [];
        const fields = id % 2 === 0 ? 4 : 3;
        for (let k = 0; k < fields; k++) {
          pb.fields.valueAt(h, k, f, out);
          got.push(...out.subarray(0, id % 2 === 1 && k === 2 ? 3 : 1));
        }
        expect(got, `frame ${f} entity ${id}`).toEqual(row.want);
        // Lives recorded with fields and never described take their schema's kind.
        expect(r.entities.kinds[r.entities.kindOf[h]], `kind, frame ${f} entity ${id}`).toBe(id % 2 === 0 ? 'a' : 'b');
        expect((reader.flagsAt(f, e) & 128) !== 0, `SANITIZED, frame ${f} entity ${id}`).toBe(row.bad > 0);
      }
    }
  });
});
