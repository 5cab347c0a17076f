/**
 * The field writer's edges (FieldStage, FieldRows, FieldArea, fieldBlocks) that the random model
 * test (fieldStageMutation.model.test.ts) reaches rarely or not at all: each case names the mutants
 * (Stryker's notation, lines of the sources as measured in run `fwrite`) or the bug it pins.
 */
import { describe, expect, it } from 'vitest';
import { H_SANITIZED } from '../../format/layout';
import type { Recorder } from '../../record/Recorder';
import { FrameModel } from './fieldModelKit';
import { batch, put, read, recorder, sanitized, section } from './fieldStageKit';

describe('field writer: repairs flagged', () => {
  it('flags an entity whose per-entity row was repaired before a columns call overwrote it', () => {
    // Bug (fixed): the repair of the per-entity row was counted (stats, the frame's sanitized
    // count) but its entity was not flagged SANITIZED when the columns call gave valid values.
    const { r } = recorder();
    const S = r.declareFields('a', { hp: 'f32', n: 'u8' });
    r.beginFrame(0, 1);
    batch(r, [1, 2, 3]);
    r.fields(3, S, [Number.NaN, 7]); // 1 repair, then overwritten with valid values
    r.fieldColumns(
      S,
      2,
      [3, 1],
      [
        [30, 10],
        [3, 1],
      ],
    );
    r.endFrame();
    expect([read(r, 1, 0, 0), read(r, 3, 0, 0), read(r, 3, 1, 0)]).toEqual([[10], [30], [3]]);
    expect(r.stats.invalidFieldValues).toBe(1);
    expect(r.ring.u32[r.ring.offsetOf(0) + H_SANITIZED]).toBe(1);
    expect([0, 1, 2].map((e) => sanitized(r, 0, e))).toEqual([false, false, true]);
  });
});

/** Records one frame of `ids` (one by one or as a batch) with `stage` staging their fields into both the recorder and a model. */
function frameOf(
  r: Recorder,
  frame: number,
  ids: number[],
  oneByOne: boolean,
  stage: (m: FrameModel) => void,
): FrameModel {
  const m = new FrameModel(1 << 16);
  r.beginFrame(frame, 1);
  if (oneByOne) {
    for (const id of ids) {
      put(r, id);
      m.entity(id);
      stage(m);
    }
  } else {
    batch(r, ids);
    for (const id of ids) m.entity(id);
    stage(m);
  }
  r.endFrame();
  return m;
}

describe('field writer: block sizes at the word and tile edges', () => {
  it('packs bools of 31, 32, 33, 64 and 65 rows through every path', () => {
    // fieldBlocks 179 (`rest >= 32` → `>`: a full last word of bits masked to 0), 162, 176;
    // FieldArea 145 to 147 (bools packed from the staging copy), fieldBlocks 334, 93 to 96.
    const { r } = recorder({ arenaBytes: 1 << 16, maxFrames: 64 });
    const S = r.declareFields('a', { on: 'bool', n: 'u8' });
    let frame = 0;
    for (const n of [31, 32, 33, 64, 65]) {
      const ids = Array.from({ length: n }, (_, i) => i + 1);
      const on = (i: number) => (i % 3 === 0 || i === n - 1 ? 1 : 0);
      // Per-entity rows: a run, converted straight into the frame.
      let i = 0;
      let m = frameOf(r, frame, ids, true, (mm) => {
        const v = [on(i), i];
        r.fields(ids[i], S, v);
        mm.fields(S, v);
        i++;
      });
      expect(section(r, frame++), `${n} per entity`).toEqual(m.section());
      // Typed columns (the field area), plain columns (the staging columns in order), and backwards.
      for (const shape of ['typed', 'plain', 'backwards']) {
        const named = shape === 'backwards' ? ids.slice().reverse() : ids;
        const bools = named.map((id) => on(id - 1));
        const bytes = named.map((id) => id);
        const cols = shape === 'typed' ? [Uint8Array.from(bools), Uint8Array.from(bytes)] : [bools, bytes];
        m = frameOf(r, frame, ids, false, (mm) => {
          r.fieldColumns(S, n, named, cols);
          mm.columns(S, n, named, cols);
        });
        expect(section(r, frame++), `${n} ${shape}`).toEqual(m.section());
      }
    }
  });

  it('converts per-entity rows across the 256-row tiles, repairs at each edge', () => {
    // fieldBlocks 252, 253 (the tiles), 269 to 285, 304 to 323, 340 to 359 (two rows a step and the
    // last odd row), 287 to 298, 324 to 332, 360 to 368 (the repair passes within a tile).
    const { r } = recorder({ arenaBytes: 4 << 20 });
    const S = r.declareFields('a', { f: 'f32', v: 'vec3', i: 'i32', e: 'entity', u: 'u8', s: 'enum', b: 'bool' });
    S.code('x');
    S.code('y');
    let frame = 0;
    for (const n of [256, 513]) {
      for (const badAt of [-1, 0, 255, 256, n - 2]) {
        const before = r.stats.invalidFieldValues;
        const ids = Array.from({ length: n }, (_, i) => i);
        let i = 0;
        const m = frameOf(r, frame, ids, true, (mm) => {
          const bad = i === badAt || (badAt >= 0 && i === badAt + 1 && i % 2 === 0);
          const v = bad
            ? [Number.NaN, 1, Number.POSITIVE_INFINITY, 3, 1.5, 1 << 16, 256, 2, 7]
            : [i / 2, i, -i, i * 0.25, i * 1000, i - 1, i & 255, i % 2, i % 3];
          r.fields(i, S, v);
          mm.fields(S, v);
          i++;
        });
        expect(section(r, frame), `${n} rows, bad at ${badAt}`).toEqual(m.section());
        expect(r.stats.invalidFieldValues - before, `${n} ${badAt}`).toBe(m.invalid);
        const flags = Array.from({ length: n }, (_, e) => sanitized(r, frame, e));
        expect(
          flags.map((f, e) => f === m.flagged.has(e)).every((x) => x),
          `${n} ${badAt}`,
        ).toBe(true);
        frame++;
      }
    }
  });
});

describe('field writer: a row given twice by two ways', () => {
  it('keeps the per-entity values of an entity a columns call gave a row just before, in every form', () => {
    // FieldStage 410 (`rows.rawCount === 0` dropped: the area block copied whole over the replaced row).
    for (const typed of [true, false]) {
      const { r } = recorder();
      const S = r.declareFields('a', { hp: 'f32', n: 'i32' });
      const m = frameOf(r, 0, [1, 2, 3], false, (mm) => {
        const cols = typed
          ? [Float32Array.of(1, 2, 3), Int32Array.of(4, 5, 6)]
          : [
              [1, 2, 3],
              [4, 5, 6],
            ];
        r.fieldColumns(S, 3, [1, 2, 3], cols);
        mm.columns(S, 3, [1, 2, 3], cols);
        r.fields(3, S, [30, 60]);
        mm.fields(S, [30, 60]);
      });
      expect(section(r, 0), `typed ${typed}`).toEqual(m.section());
      expect(read(r, 3, 0, 0)).toEqual([30]);
    }
  });

  it('does not take a columns call naming an entity with a per-entity row first as new rows', () => {
    // FieldStage 275 (`start > highIndex` → `>=`: the entity with a row taken as one without).
    const { r } = recorder();
    const S = r.declareFields('a', { hp: 'f32' });
    const m = new FrameModel(1 << 16);
    r.beginFrame(0, 1);
    put(r, 5);
    m.entity(5);
    r.fields(5, S, [50]);
    m.fields(S, [50]);
    batch(r, [6, 7]);
    m.entity(6);
    m.entity(7);
    r.fieldColumns(S, 3, [5, 6, 7], [[51, 60, 70]]);
    m.columns(S, 3, [5, 6, 7], [[51, 60, 70]]);
    r.endFrame();
    expect(section(r, 0)).toEqual(m.section());
    expect([5, 6, 7].map((id) => read(r, id, 0, 0))).toEqual([[51], [60], [70]]);
  });
});
