import { describe, expect, it } from 'vitest';
import type { EntityColumns } from '../EntityColumns';
import type { Recorder } from '../Recorder';
import { rng } from '../../../../tests/helpers/random';
import { quiet } from './helpers';

/**
 * `entityBatch` and `entityColumns`, over every kind of column they take (Int32Array, Uint32Array
 * and Float64Array ids, float32 and float64 columns, Uint8Array and plain flags, plain arrays,
 * columns too long to block-copy, several calls per frame), against `entity()` called once per
 * entry with the same values: the frames must hold the same words and the statistics must agree.
 * The data holds what the checks are about: ids that are not integers or out of range, duplicates,
 * flags with bit 7 or out of a byte, more entries than a frame takes, NaN positions, bones after
 * the last entry of a call.
 */

const MAX_ID = 1000;
const CAPACITY = 40;

type Variant = {
  name: string;
  ids: (n: number) => { length: number; [i: number]: number };
  floats: (n: number) => { length: number; [i: number]: number };
  flags: ((n: number) => { length: number; [i: number]: number }) | null;
  /** Ids this column type can hold besides valid ones. */
  badIds: number[];
  /** Flag values this column type can hold. */
  flagValues: number[];
  /** Column length beyond the count (0: exact). */
  slack: number;
  /** Entries split over this many calls per frame. */
  calls: number;
};

const plain = (n: number): number[] => new Array<number>(n).fill(0);
const BYTE_FLAGS = [0, 1, 5, 127, 128, 200, 255];
const ANY_FLAGS = [...BYTE_FLAGS, 300, -1, 0.5, Number.NaN];

const VARIANTS: Variant[] = [
  {
    name: 'Int32Array ids, Float32Array columns, Uint8Array flags',
    ids: (n) => new Int32Array(n),
    floats: (n) => new Float32Array(n),
    flags: (n) => new Uint8Array(n),
    badIds: [-1, MAX_ID, 2 ** 31 - 1],
    flagValues: BYTE_FLAGS,
    slack: 0,
    calls: 1,
  },
  {
    name: 'Float64Array ids and columns, no flags',
    ids: (n) => new Float64Array(n),
    floats: (n) => new Float64Array(n),
    flags: null,
    badIds: [1.5, -1, Number.NaN, MAX_ID, 2 ** 32 + 3, -0.5],
    flagValues: [0],
    slack: 0,
    calls: 1,
  },
  {
    name: 'Float64Array ids, Float32Array columns, Float64Array flags',
    ids: (n) => new Float64Array(n),
    floats: (n) => new Float32Array(n),
    flags: (n) => new Float64Array(n),
    badIds: [0.25, MAX_ID + 0.5],
    flagValues: ANY_FLAGS,
    slack: 0,
    calls: 2,
  },
  {
    name: 'Uint32Array ids, Uint8Array flags, three calls a frame',
    ids: (n) => new Uint32Array(n),
    floats: (n) => new Float32Array(n),
    flags: (n) => new Uint8Array(n),
    badIds: [MAX_ID, 2 ** 32 - 1],
    flagValues: BYTE_FLAGS,
    slack: 0,
    calls: 3,
  },
  {
    name: 'plain arrays',
    ids: plain,
    floats: plain,
    flags: plain,
    badIds: [1.5, -1, Number.NaN, MAX_ID, Number.POSITIVE_INFINITY],
    flagValues: ANY_FLAGS,
    slack: 0,
    calls: 1,
  },
  {
    name: 'typed columns too long to block-copy',
    ids: (n) => new Int32Array(n),
    floats: (n) => new Float32Array(n),
    flags: (n) => new Uint8Array(n),
    badIds: [-1],
    flagValues: BYTE_FLAGS,
    slack: 200,
    calls: 1,
  },
  {
    name: 'typed columns a little longer than the count',
    ids: (n) => new Int32Array(n),
    floats: (n) => new Float32Array(n),
    flags: null,
    badIds: [],
    flagValues: [0],
    slack: 3,
    calls: 2,
  },
];

interface Frame {
  count: number;
  columns: Required<Omit<EntityColumns, 'flags'>> & { flags?: EntityColumns['flags'] };
  /** Positions and rotations interleaved, for `entityBatch`. */
  positions: number[];
  rotations: number[];
}

function makeFrame(v: Variant, rand: () => number, f: number): Frame {
  const count = 20 + Math.floor(rand() * 26); // sometimes past the capacity of 40
  const len = count + v.slack;
  const c = {
    ids: v.ids(len),
    x: v.floats(len),
    y: v.floats(len),
    z: v.floats(len),
    qx: v.floats(len),
    qy: v.floats(len),
    qz: v.floats(len),
    qw: v.floats(len),
    ...(v.flags ? { flags: v.flags(len) } : {}),
  };
  for (let i = 0; i < len; i++) {
    const roll = rand();
    c.ids[i] =
      roll < 0.1 && v.badIds.length > 0
        ? v.badIds[Math.floor(rand() * v.badIds.length)]
        : roll < 0.15
          ? 7
          : Math.floor(rand() * 60);
    c.x[i] = rand() < 0.03 ? Number.NaN : (rand() - 0.5) * 1000 + f;
    c.y[i] = (rand() - 0.5) * 1000;
    c.z[i] = (rand() - 0.5) * 50;
    c.qx[i] = rand() - 0.5;
    c.qy[i] = rand() - 0.5;
    c.qz[i] = rand() - 0.5;
    c.qw[i] = rand();
    if (c.flags) c.flags[i] = v.flagValues[Math.floor(rand() * v.flagValues.length)];
  }
  const positions: number[] = [];
  const rotations: number[] = [];
  for (let i = 0; i < len; i++) {
    positions.push(c.x[i], c.y[i], c.z[i]);
    rotations.push(c.qx[i], c.qy[i], c.qz[i], c.qw[i]);
  }
  return { count, columns: c, positions, rotations };
}

const BONE_ROTS = [0, 0, 0, 1, 0, 0.6, 0, 0.8];
const BONE_OFFS = [1, 2, 3, 4, 5, 6];

/** The calls' ranges [from, to) of a frame's entries. */
function ranges(count: number, calls: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (let k = 0; k < calls; k++) out.push([Math.floor((count * k) / calls), Math.floor((count * (k + 1)) / calls)]);
  return out;
}

/** Columns holding entries [from, to) of `c` (typed subarrays keep their type). */
function slice(c: Frame['columns'], from: number, to: number, slack: number): EntityColumns {
  const cut = <T extends { length: number }>(a: T): T => {
    const end = Math.min(a.length, to + slack);
    return (ArrayBuffer.isView(a)
      ? (a as unknown as Int32Array).subarray(from, end)
      : (a as unknown as number[]).slice(from, end)) as unknown as T;
  };
  return {
    ids: cut(c.ids),
    x: cut(c.x),
    y: cut(c.y),
    z: cut(c.z),
    qx: cut(c.qx),
    qy: cut(c.qy),
    qz: cut(c.qz),
    qw: cut(c.qw),
    ...(c.flags ? { flags: cut(c.flags) } : {}),
  };
}

function reference(r: Recorder, fr: Frame, v: Variant): void {
  const c = fr.columns;
  for (const [from, to] of ranges(fr.count, v.calls)) {
    for (let i = from; i < to; i++) {
      r.entity(c.ids[i], c.x[i], c.y[i], c.z[i], c.qx[i], c.qy[i], c.qz[i], c.qw[i], c.flags ? c.flags[i] : 0);
    }
    if (to > from) r.bones(c.ids[to - 1], 2, BONE_ROTS, BONE_OFFS);
  }
}

function frameWords(r: Recorder): number[][] {
  const out: number[][] = [];
  for (let f = r.reader.oldestFrame; f <= r.reader.newestFrame; f++) {
    const at = r.ring.offsetOf(f);
    out.push(Array.from(r.ring.u32.subarray(at, at + r.ring.wordsOf(f))));
  }
  return out;
}

function expectSameRecording(a: Recorder, b: Recorder): void {
  expect(frameWords(b)).toEqual(frameWords(a));
  expect({ ...b.stats }).toEqual({ ...a.stats });
  const ids = (r: Recorder): number[] => Array.from(r.entities.ids.subarray(0, r.entities.highWater));
  expect(ids(b)).toEqual(ids(a));
}

describe('Recorder entry points agree with entity()', () => {
  for (const v of VARIANTS) {
    it(`entityColumns: ${v.name}`, () => {
      const rand = rng(v.name.length);
      const want = quiet({ maxEntityId: MAX_ID, maxEntitiesPerFrame: CAPACITY });
      const got = quiet({ maxEntityId: MAX_ID, maxEntitiesPerFrame: CAPACITY });
      for (let f = 0; f < 12; f++) {
        const fr = makeFrame(v, rand, f);
        want.beginFrame(f, 1);
        reference(want, fr, v);
        want.endFrame();
        got.beginFrame(f, 1);
        for (const [from, to] of ranges(fr.count, v.calls)) {
          got.entityColumns(to - from, slice(fr.columns, from, to, v.slack));
          if (to > from) got.bones(fr.columns.ids[to - 1], 2, BONE_ROTS, BONE_OFFS);
        }
        got.endFrame();
      }
      expect(want.stats.framesRecorded).toBe(12);
      expectSameRecording(want, got);
    });
  }

  it('entityBatch over plain and Float64Array arrays, with and without flags', () => {
    for (const v of [VARIANTS[1], VARIANTS[2], VARIANTS[4]]) {
      const rand = rng(5);
      const want = quiet({ maxEntityId: MAX_ID, maxEntitiesPerFrame: CAPACITY });
      const got = quiet({ maxEntityId: MAX_ID, maxEntitiesPerFrame: CAPACITY });
      for (let f = 0; f < 8; f++) {
        const fr = makeFrame(v, rand, f);
        want.beginFrame(f, 1);
        reference(want, fr, v);
        want.endFrame();
        got.beginFrame(f, 1);
        const c = fr.columns;
        for (const [from, to] of ranges(fr.count, v.calls)) {
          const flags = c.flags
            ? ArrayBuffer.isView(c.flags)
              ? (c.flags as Float64Array).subarray(from, to)
              : (c.flags as number[]).slice(from, to)
            : undefined;
          const ids = ArrayBuffer.isView(c.ids)
            ? (c.ids as Float64Array).subarray(from, to)
            : (c.ids as number[]).slice(from, to);
          got.entityBatch(
            to - from,
            ids,
            fr.positions.slice(from * 3, to * 3),
            fr.rotations.slice(from * 4, to * 4),
            flags,
          );
          if (to > from) got.bones(c.ids[to - 1], 2, BONE_ROTS, BONE_OFFS);
        }
        got.endFrame();
      }
      expectSameRecording(want, got);
    }
  });

  it('a count past the ids is cut there; zero and negative counts record nothing', () => {
    const want = quiet();
    const got = quiet();
    const ids = new Int32Array([3, 4, 5]);
    const col = new Float32Array([1, 2, 3]);
    const columns: EntityColumns = { ids, x: col, y: col, z: col, qx: col, qy: col, qz: col, qw: col };
    want.beginFrame(0, 1);
    for (let i = 0; i < 3; i++) want.entity(ids[i], col[i], col[i], col[i], col[i], col[i], col[i], col[i]);
    want.endFrame();
    got.beginFrame(0, 1);
    got.entityColumns(0, columns);
    got.entityColumns(-5, columns);
    got.entityBatch(-1, [1], [0, 0, 0], [0, 0, 0, 1]);
    got.entityColumns(100, columns);
    got.endFrame();
    expectSameRecording(want, got);
    // Outside a frame: ignored and counted.
    got.entityColumns(3, columns);
    got.entityBatch(1, [1], [0, 0, 0], [0, 0, 0, 1]);
    expect(got.stats.callsOutsideFrame).toBe(2);
  });
});
