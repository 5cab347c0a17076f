/**
 * The read side of custom fields (`FieldReader`: `valueAt`, `series`, `enumName`, `schemaOf`) over
 * recordings made here with known values: interpolation of every numeric type, the nearer frame at
 * exactly half way, a value on one side only, positions and fields out of range, series clipped to
 * the output and the life, and a kind's block found after other kinds' blocks, contiguous or listed.
 * Comments name the mutants (Stryker's notation, FieldReader.ts lines as measured) a case kills.
 */
import { describe, expect, it } from 'vitest';
import { HANDLE_MASK, HEADER_WORDS } from '../../format/layout';
import { Playback } from '../../playback/Playback';
import { Recorder } from '../../record/Recorder';
import { FieldValue } from '../FieldReader';

function recorder(): Recorder {
  return new Recorder({ maxFrames: 64, arenaBytes: 1 << 20, onWarning: () => {} });
}

const { ABSENT, INTERPOLATED, NEAREST } = FieldValue;

describe('FieldReader.valueAt', () => {
  /** One entity (id 1) of kind 'a' in frames 0 and 1, another (id 2) only in frame 1. */
  function twoFrames() {
    const r = recorder();
    const S = r.declareFields('a', {
      hp: 'f32',
      n: 'i32',
      lvl: 'u8',
      on: 'bool',
      st: 'enum',
      who: 'entity',
      v: 'vec3',
    });
    const x = S.code('x');
    const y = S.code('y');
    const rows = [
      [10, -10, 0, 0, x, 5, 0, 10, -4],
      [20, 10, 200, 1, y, 6, 4, 30, 4],
    ];
    for (let f = 0; f < 2; f++) {
      r.beginFrame(f, 1);
      r.entity(1, 0, 0, 0, 0, 0, 0, 1);
      r.fields(1, S, rows[f]);
      if (f === 1) {
        r.entity(2, 0, 0, 0, 0, 0, 0, 1);
        r.fields(2, S, [7, 8, 9, 1, y, 3, 1, 2, 3]);
      }
      r.endFrame();
    }
    return { r, pb: new Playback(r.reader), h1: r.entities.lookup(1), h2: r.entities.lookup(2), x, y };
  }

  it('interpolates f32, i32, u8 and vec3 between the two frames around the position', () => {
    // Kills `a[k] + (b[k] - a[k]) * t` variants (159), `lerp` dropping a type (157), and the
    // interpolation taken for the nearest types.
    const { pb, h1 } = twoFrames();
    const out = new Float64Array(3);
    const at = (field: number, p: number) => {
      const how = pb.fields.valueAt(h1, field, p, out);
      return [how, ...out.subarray(0, field === 6 ? 3 : 1)];
    };
    expect(at(0, 0.25)).toEqual([INTERPOLATED, 12.5]);
    expect(at(1, 0.25)).toEqual([INTERPOLATED, -5]);
    expect(at(1, 0.75)).toEqual([INTERPOLATED, 5]);
    expect(at(2, 0.75)).toEqual([INTERPOLATED, 150]);
    expect(at(6, 0.5)).toEqual([INTERPOLATED, 2, 20, 0]);
    expect(at(6, 0.25)).toEqual([INTERPOLATED, 1, 15, -2]);
    // On a frame: that frame's value, interpolated types say so.
    expect(at(2, 1)).toEqual([INTERPOLATED, 200]);
    expect(at(1, 0)).toEqual([INTERPOLATED, -10]);
    expect(at(6, 1)).toEqual([INTERPOLATED, 4, 30, 4]);
  });

  it('takes the nearer frame for bool, enum and entity, the later one from exactly half way', () => {
    // Kills `t >= 0.5` → `t > 0.5` (162) and `useB` mutants.
    const { pb, h1, x, y } = twoFrames();
    const out = new Float64Array(3);
    const at = (field: number, p: number) => [pb.fields.valueAt(h1, field, p, out), out[0]];
    expect(at(3, 0.49)).toEqual([NEAREST, 0]);
    expect(at(3, 0.5)).toEqual([NEAREST, 1]);
    expect(at(4, 0.49)).toEqual([NEAREST, x]);
    expect(at(4, 0.5)).toEqual([NEAREST, y]);
    expect(at(5, 0.5)).toEqual([NEAREST, 6]);
    expect(at(5, 0)).toEqual([NEAREST, 5]);
    expect(at(4, 1)).toEqual([NEAREST, y]);
    expect(at(3, 1)).toEqual([NEAREST, 1]);
  });

  it('takes the only frame with a value, on either side, for every type', () => {
    // Entity 2 has no value in frame 0: from 0.1 on, the value of frame 1 (`!has0` → b, 162).
    const { pb, h1, h2 } = twoFrames();
    const out = new Float64Array(3);
    expect(pb.fields.valueAt(h2, 0, 0.1, out)).toBe(NEAREST);
    expect(out[0]).toBe(7);
    expect(pb.fields.valueAt(h2, 6, 0.2, out)).toBe(NEAREST);
    expect(Array.from(out)).toEqual([1, 2, 3]);
    expect(pb.fields.valueAt(h2, 1, 0.4, out)).toBe(NEAREST);
    expect(out[0]).toBe(8);
    // On frame 0 itself: no value (t is 0 and frame 0 has none).
    out.fill(-1);
    expect(pb.fields.valueAt(h2, 0, 0, out)).toBe(ABSENT);
    expect(out[0]).toBe(-1);
    // Past the newest frame: the newest frame's value, even at 0.9 (`has1` false → a).
    expect(pb.fields.valueAt(h1, 0, 1.9, out)).toBe(NEAREST);
    expect(out[0]).toBe(20);
    expect(pb.fields.valueAt(h1, 6, 1.7, out)).toBe(NEAREST);
    expect(Array.from(out)).toEqual([4, 30, 4]);
    // Neither frame: absent, `out` untouched.
    out.fill(-1);
    expect(pb.fields.valueAt(h1, 0, 2.5, out)).toBe(ABSENT);
    expect(pb.fields.valueAt(h1, 0, -1.5, out)).toBe(ABSENT);
    expect(pb.fields.valueAt(h1, 0, -1, out)).toBe(ABSENT);
    expect(Array.from(out)).toEqual([-1, -1, -1]);
    // Before the first frame, from half way: the first frame's value.
    expect(pb.fields.valueAt(h1, 0, -0.5, out)).toBe(NEAREST);
    expect(out[0]).toBe(10);
  });

  it('gives nothing for a position that is not finite, a field out of range or a life without fields', () => {
    const { r, pb, h1 } = twoFrames();
    const out = new Float64Array(3).fill(-1);
    for (const p of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])
      expect(pb.fields.valueAt(h1, 0, p, out), String(p)).toBe(ABSENT);
    for (const f of [-1, 7, 100, 0.5, 5.5]) expect(pb.fields.valueAt(h1, f, 0, out), `field ${f}`).toBe(ABSENT);
    for (const h of [-1, 1e6, 0.5]) expect(pb.fields.valueAt(h, 0, 0, out), `handle ${h}`).toBe(ABSENT);
    expect(Array.from(out)).toEqual([-1, -1, -1]);
    // A life of a kind without fields (described), and one with no kind.
    r.beginFrame(2, 1);
    r.entity(3, 0, 0, 0, 0, 0, 0, 1);
    r.describe(3, 'rock');
    r.entity(4, 0, 0, 0, 0, 0, 0, 1);
    r.endFrame();
    const pb2 = new Playback(r.reader);
    for (const id of [3, 4]) {
      const h = r.entities.lookup(id);
      expect(pb2.fields.schemaOf(h)).toEqual([]);
      expect(pb2.fields.valueAt(h, 0, 2, out)).toBe(ABSENT);
      expect(pb2.fields.series(h, 0, 0, 2, new Float64Array(3))).toBe(0);
      expect(pb2.fields.enumName(h, 0, 0)).toBeUndefined();
    }
    expect(pb2.fields.schemaOf(h1).map((i) => i.name)).toEqual(['hp', 'n', 'lvl', 'on', 'st', 'who', 'v']);
  });

  it('writes only the components of the field into out', () => {
    // `c` always 3 (144), and `k <= c` in the three copies (152, 159, 164): out past the
    // components stays as it was.
    const { pb, h1, h2 } = twoFrames();
    const out = new Float64Array(4);
    const cases: Array<[number, number, number]> = [
      [h1, 0, 0], // on a frame
      [h1, 0, 0.25], // interpolated
      [h1, 3, 0.75], // nearest
      [h2, 1, 0.3], // one side only
    ];
    for (const [h, field, p] of cases) {
      out.fill(-1);
      expect(pb.fields.valueAt(h, field, p, out), `${field} at ${p}`).not.toBe(ABSENT);
      expect(Array.from(out.subarray(1)), `${field} at ${p}`).toEqual([-1, -1, -1]);
    }
    out.fill(-1);
    pb.fields.valueAt(h1, 6, 0.5, out);
    expect(out[3]).toBe(-1);
    pb.fields.valueAt(h1, 6, 1, out);
    expect(out[3]).toBe(-1);
  });

  it('names enum codes of enum fields only', () => {
    // Kills `s.types[field] !== FIELD_ENUM` → false (136).
    const { pb, h1 } = twoFrames();
    expect([0, 1].map((c) => pb.fields.enumName(h1, 4, c))).toEqual(['x', 'y']);
    expect(pb.fields.enumName(h1, 4, 2)).toBeUndefined();
    expect(pb.fields.enumName(h1, 0, 0)).toBeUndefined();
    expect(pb.fields.enumName(h1, 3, 1)).toBeUndefined();
    expect(pb.fields.enumName(h1, 9, 0)).toBeUndefined();
  });

  it('gives nothing when the recording declared no fields at all', () => {
    // A life whose kind is known but declared no fields (the `count === 0` short cut, 125, is equivalent).
    const r = recorder();
    r.beginFrame(0, 1);
    r.entity(1, 0, 0, 0, 0, 0, 0, 1);
    r.describe(1, 'a');
    r.endFrame();
    const pb = new Playback(r.reader);
    const h = r.entities.lookup(1);
    expect(pb.fields.schemaOf(h)).toEqual([]);
    expect(pb.fields.valueAt(h, 0, 0, new Float64Array(1))).toBe(ABSENT);
  });
});

describe('FieldReader.series', () => {
  /** Entity 5 lives frames 2..6 (despawned after 6), with hp = 10 f and v = (f, 2f, 3f). */
  function life() {
    const r = recorder();
    const S = r.declareFields('a', { hp: 'f32', v: 'vec3' });
    for (let f = 0; f < 10; f++) {
      r.beginFrame(f, 1);
      r.entity(9, 0, 0, 0, 0, 0, 0, 1);
      r.fields(9, S, [-f, 0, 0, 0]);
      if (f >= 2 && f <= 6) {
        r.entity(5, 0, 0, 0, 0, 0, 0, 1);
        r.fields(5, S, [10 * f, f, 2 * f, 3 * f]);
      }
      if (f === 6) r.despawn(5);
      r.endFrame();
    }
    return { r, pb: new Playback(r.reader), h: r.entities.lookup(5) ?? -1 };
  }

  it('writes one value per frame, NaN outside the life, clipped to the output', () => {
    const { r, pb } = life();
    // The handle of id 5's life, from frame 2's entity words.
    const h = handleIn(r, 2, 5);
    const out = new Float64Array(12).fill(-1);
    expect(pb.fields.series(h, 0, 0, 9, out)).toBe(10);
    expect(Array.from(out)).toEqual([
      Number.NaN,
      Number.NaN,
      20,
      30,
      40,
      50,
      60,
      Number.NaN,
      Number.NaN,
      Number.NaN,
      -1,
      -1,
    ]);
    // One frame, from === to.
    out.fill(-1);
    expect(pb.fields.series(h, 0, 4, 4, out)).toBe(1);
    expect(out[0]).toBe(40);
    expect(out[1]).toBe(-1);
    // Clipped to what `out` holds: 3 frames of vec3 in 10 slots.
    out.fill(-1);
    expect(pb.fields.series(h, 1, 3, 9, out.subarray(0, 10))).toBe(3);
    expect(Array.from(out.subarray(0, 10))).toEqual([3, 6, 9, 4, 8, 12, 5, 10, 15, -1]);
    // A range past the life's last frame.
    out.fill(-1);
    expect(pb.fields.series(h, 1, 6, 7, out)).toBe(2);
    expect(Array.from(out.subarray(0, 7))).toEqual([6, 12, 18, Number.NaN, Number.NaN, Number.NaN, -1]);
  });

  it('writes nothing for ranges and fields it cannot read', () => {
    const { r, pb } = life();
    const h = handleIn(r, 2, 5);
    const out = new Float64Array(4).fill(-1);
    expect(pb.fields.series(h, 0, 5, 4, out)).toBe(0);
    expect(pb.fields.series(h, 0, 5, 3, out)).toBe(0); // `to < from` dropped: -1 (171)
    expect(pb.fields.series(h, 0, 0.5, 4, out)).toBe(0);
    expect(pb.fields.series(h, 0, 0, 4.5, out)).toBe(0);
    expect(pb.fields.series(h, 0, Number.NaN, 4, out)).toBe(0);
    expect(pb.fields.series(h, 2, 0, 4, out)).toBe(0);
    expect(pb.fields.series(h, -1, 0, 4, out)).toBe(0);
    expect(pb.fields.series(h, 0.5, 0, 4, out)).toBe(0); // a fractional field index is no field
    expect(pb.fields.series(h, 0, 0, 4, new Float64Array(0))).toBe(0);
    expect(pb.fields.series(h, 1, 0, 4, new Float64Array(2))).toBe(0);
    expect(Array.from(out)).toEqual([-1, -1, -1, -1]);
  });
});

describe('FieldReader: finding a block', () => {
  it('finds a kind after other kinds, in contiguous and listed blocks, wherever the entity is', () => {
    // Three kinds interleaved: a (ids 0, 3, 6, ...) listed, b (1, 4, 7, ...) listed, and c
    // contiguous at the end. Every value read back is the one given.
    const r = recorder();
    const A = r.declareFields('a', { x: 'f32' });
    const B = r.declareFields('b', { on: 'bool', v: 'vec3', n: 'i32' });
    const C = r.declareFields('c', { lvl: 'u8', k: 'enum' });
    C.code('p');
    C.code('q');
    const N = 40;
    for (let f = 0; f < 3; f++) {
      r.beginFrame(f, 1);
      for (let id = 0; id < N; id++) {
        r.entity(id, 0, 0, 0, 0, 0, 0, 1);
        if (id >= 30) r.fields(id, C, [(id * 7 + f) & 255, (id + f) & 1]);
        else if (id % 3 === 0) r.fields(id, A, [id + f / 4]);
        else if (id % 3 === 1) r.fields(id, B, [(id + f) & 1, id, -id, f, id * 1000 + f]);
        // id % 3 === 2: no fields
      }
      r.endFrame();
    }
    const pb = new Playback(r.reader);
    const out = new Float64Array(3);
    for (let f = 0; f < 3; f++) {
      for (let id = 0; id < N; id++) {
        const h = r.entities.lookup(id);
        const read = (field: number, c = 1) => {
          const how = pb.fields.valueAt(h, field, f, out);
          return how === ABSENT ? null : Array.from(out.subarray(0, c));
        };
        if (id >= 30) {
          expect([read(0), read(1)], `c ${id} @${f}`).toEqual([[(id * 7 + f) & 255], [(id + f) & 1]]);
        } else if (id % 3 === 0) expect(read(0), `a ${id} @${f}`).toEqual([id + f / 4]);
        else if (id % 3 === 1)
          expect([read(0), read(1, 3), read(2)], `b ${id} @${f}`).toEqual([
            [(id + f) & 1],
            [id, -id, f],
            [id * 1000 + f],
          ]);
        else expect(read(0), `none ${id} @${f}`).toBeNull();
      }
    }
    // Reading in a different entity order (the hint of the last entity is wrong each time).
    for (let id = N - 1; id >= 0; id -= 7) {
      const h = r.entities.lookup(id);
      if (id >= 30) {
        pb.fields.valueAt(h, 0, 1, out);
        expect(out[0]).toBe((id * 7 + 1) & 255);
      } else if (id % 3 === 0) {
        pb.fields.valueAt(h, 0, 2, out);
        expect(out[0]).toBe(id + 0.5);
      }
    }
  });

  it('gives nothing for a life in a frame where its kind has rows but not its own', () => {
    // The contiguous block's bounds (`r >= rows` → `r > rows`, 255): every life is of kind a, frame 0
    // has rows for entities 2 and 3 only, frame 1 (listed) for 0, 3 and 5.
    const r = recorder();
    const A = r.declareFields('a', { x: 'f32' });
    r.beginFrame(0, 1);
    for (let id = 0; id < 6; id++) {
      r.entity(id, 0, 0, 0, 0, 0, 0, 1);
      r.describe(id, 'a');
      if (id >= 2 && id <= 3) r.fields(id, A, [id]);
    }
    r.endFrame();
    r.beginFrame(1, 1);
    for (let id = 0; id < 6; id++) {
      r.entity(id, 0, 0, 0, 0, 0, 0, 1);
      if (id === 0 || id === 3 || id === 5) r.fields(id, A, [id * 10]);
    }
    r.endFrame();
    const pb = new Playback(r.reader);
    const out = new Float64Array(1);
    const got = (f: number) =>
      [0, 1, 2, 3, 4, 5].map((id) => (pb.fields.valueAt(r.entities.lookup(id), 0, f, out) === ABSENT ? null : out[0]));
    expect(got(0)).toEqual([null, null, 2, 3, null, null]);
    expect(got(1)).toEqual([0, null, null, 30, null, 50]);
    expect(pb.fields.schemaOf(r.entities.lookup(4)).length).toBe(1);
  });
});

/** The handle of the life of `id` recorded in `frame` (its entity words). */
function handleIn(r: Recorder, frame: number, id: number): number {
  const at = r.ring.offsetOf(frame);
  for (let e = 0; e < r.reader.entityCountOf(frame); e++) {
    const h = r.ring.u32[at + HEADER_WORDS + e] & HANDLE_MASK;
    if (r.entities.ids[h] === id) return h;
  }
  throw new Error(`no entity ${id} in frame ${frame}`);
}
