import { describe, expect, it } from 'vitest';
import { rng } from '../../../../tests/helpers/random';
import type { EntityColumns } from '../EntityColumns';
import type { EntityStage } from '../EntityStage';
import type { Recorder } from '../Recorder';
import { quiet, warningsOf } from './helpers';

/**
 * EntityStage entry by entry (issue 20, sixth pass): what `entityBatch` and `entityColumns` stage in
 * the open frame (ids, flags, the seven float columns), what they refuse and count, and the call's
 * bounds (`callStart`, `callCount`), against a plain model of `entity()`'s rules, over every kind of
 * array, stages already part filled, columns at the block copy's length limits and a full stage.
 * The recorder's tests see the same inputs only through the resolved frame.
 */

const CAP = 16;
const MAX_ID = 1000;

function stageOf(r: Recorder): EntityStage {
  return (r as unknown as { stage: EntityStage }).stage;
}

interface Entry {
  id: number;
  p: [number, number, number];
  q: [number, number, number, number];
  flags: number;
}

/** What the stage holds: the expected staged entries, and the counts of refusals and repairs. */
interface Model {
  staged: Entry[];
  badIds: number;
  overCapacity: number;
  repairedFlags: number;
}

const validId = (id: number): boolean => id >= 0 && id < MAX_ID && (id | 0) === id;

/** `entity()`'s rules for one entry, given the entries staged so far. */
function stageModel(m: Model, e: Entry): void {
  if (m.staged.length >= CAP || !validId(e.id)) {
    if (validId(e.id)) m.overCapacity++;
    else m.badIds++;
    return;
  }
  let flags = e.flags;
  if ((flags & 127) !== flags) {
    flags = (flags & 0xff) === flags ? flags & 127 : 0;
    m.repairedFlags++;
  }
  m.staged.push({ ...e, flags });
}

/** The counts of refusals and repairs so far (the recorder's are per recording, the model's per frame). */
function counts(r: Recorder): [number, number, number] {
  return [r.stats.idsOutOfRange, r.stats.entitiesOverCapacity, r.stats.invalidFlags];
}

function expectStage(r: Recorder, m: Model, base: [number, number, number] = [0, 0, 0]): void {
  const s = stageOf(r);
  const f32 = (v: number): number => Math.fround(v);
  const n = m.staged.length;
  expect(s.count).toBe(n);
  expect(Array.from(s.ids.subarray(0, n))).toEqual(m.staged.map((e) => e.id));
  expect(Array.from(s.flags.subarray(0, n))).toEqual(m.staged.map((e) => e.flags));
  const cols = [s.x, s.y, s.z, s.qx, s.qy, s.qz, s.qw];
  cols.forEach((col, k) => {
    const want = m.staged.map((e) => f32(k < 3 ? e.p[k] : e.q[k - 3]));
    expect(Array.from(col.subarray(0, n))).toEqual(want);
  });
  const now = counts(r);
  expect([now[0] - base[0], now[1] - base[1], now[2] - base[2]]).toEqual([m.badIds, m.overCapacity, m.repairedFlags]);
  expect(s.dropped).toBe(m.badIds + m.overCapacity);
}

function randomEntries(random: () => number, count: number, badShare: number): Entry[] {
  const odd = [-1, MAX_ID, 1.5, Number.NaN, -0.5, 2 ** 40];
  const flagValues = [0, 1, 5, 127, 128, 200, 255, 256, -1, 3.5, 1000];
  return Array.from({ length: count }, () => ({
    id: random() < badShare ? odd[Math.floor(random() * odd.length)] : Math.floor(random() * MAX_ID),
    p: [random() * 100 - 50, random() * 10, random() - 0.5],
    q: [random() - 0.5, random() - 0.5, random() - 0.5, random() + 0.1],
    flags: random() < 0.3 ? flagValues[Math.floor(random() * flagValues.length)] : Math.floor(random() * 128),
  }));
}

/** Columns of `entries` as `make` builds each field's array (ids with `ids`). */
function columnsOf(
  entries: Entry[],
  make: (v: number[]) => ArrayLike<number>,
  ids: (v: number[]) => ArrayLike<number> = make,
  flags?: (v: number[]) => ArrayLike<number>,
  extra = 0,
): EntityColumns {
  const pad = (v: number[]): number[] => v.concat(new Array<number>(extra).fill(0));
  const f = (get: (e: Entry) => number): ArrayLike<number> => make(pad(entries.map(get)));
  return {
    ids: ids(pad(entries.map((e) => e.id))),
    x: f((e) => e.p[0]),
    y: f((e) => e.p[1]),
    z: f((e) => e.p[2]),
    qx: f((e) => e.q[0]),
    qy: f((e) => e.q[1]),
    qz: f((e) => e.q[2]),
    qw: f((e) => e.q[3]),
    flags: flags === undefined ? undefined : flags(pad(entries.map((e) => e.flags))),
  };
}

/** Stages `before` entries one by one with `entity()`, as a frame's first calls. */
function prefix(r: Recorder, m: Model, before: Entry[]): void {
  for (const e of before) {
    r.entity(e.id, ...e.p, ...e.q, e.flags);
    stageModel(m, e);
  }
}

const ARRAYS: Array<[string, (v: number[]) => ArrayLike<number>]> = [
  ['plain arrays', (v) => v],
  ['Float64Array', (v) => Float64Array.from(v)],
  ['Float32Array', (v) => Float32Array.from(v)],
];

describe('EntityStage: entityBatch', () => {
  it.each(ARRAYS)('stages what entity() stages, entry by entry (%s)', (_, make) => {
    // Kills batch's id check (`id >= 0` → `> 0`, `id < max` → `<=`, `(id | 0) === id` → `true`, `||` →
    // `&&`, `n >= cap` → `>`), each column's index (`p + 1`, `q + 3`...), the flags' repair (`& USER_FLAGS`,
    // `(fl & 0xff) === fl`, `? … : 0`), the count cut (`count < ids.length`), and `callStart`/`callCount`.
    const random = rng(31);
    const r = quiet({ maxEntitiesPerFrame: CAP, maxEntityId: MAX_ID, wasm: false, maxFrames: 4 });
    for (let round = 0; round < 40; round++) {
      const base = counts(r);
      r.beginFrame(round, 1 / 60);
      const m: Model = { staged: [], badIds: 0, overCapacity: 0, repairedFlags: 0 };
      // Every fifth frame fills the stage: the call's last entries are refused as over capacity.
      prefix(r, m, randomEntries(random, round % 5 === 0 ? 12 : Math.floor(random() * 6), 0.1));
      const entries = randomEntries(random, 1 + Math.floor(random() * 14), 0.2);
      const cut = round % 4 === 0 ? entries.length + 3 : entries.length - Math.floor(random() * 2);
      const start = stageOf(r).count;
      const withFlags = round % 3 !== 0;
      r.entityBatch(
        cut,
        make(entries.map((e) => e.id)),
        make(entries.flatMap((e) => e.p)),
        make(entries.flatMap((e) => e.q)),
        withFlags ? make(entries.map((e) => e.flags)) : undefined,
      );
      const given = entries.slice(0, Math.min(cut, entries.length));
      for (const e of given) stageModel(m, withFlags ? e : { ...e, flags: 0 });
      expectStage(r, m, base);
      expect([stageOf(r).callStart, stageOf(r).callCount]).toEqual([start, given.length]);
      r.endFrame();
    }
  });

  it('stages nothing for a count of 0 or below, and says so in callCount', () => {
    // Kills `count > 0 ? … : 0` → `count >= 0`/`true`.
    const r = quiet({ maxEntitiesPerFrame: CAP, maxEntityId: MAX_ID, wasm: false });
    r.beginFrame(0, 1 / 60);
    r.entity(3, 0, 0, 0, 0, 0, 0, 1);
    for (const count of [0, -2]) {
      r.entityBatch(count, [1, 2], [0, 0, 0, 0, 0, 0], [0, 0, 0, 1, 0, 0, 0, 1]);
      expect([stageOf(r).count, stageOf(r).callStart, stageOf(r).callCount]).toEqual([1, 1, 0]);
      r.entityColumns(
        count,
        columnsOf([], (v) => v),
      );
      expect([stageOf(r).count, stageOf(r).callStart, stageOf(r).callCount]).toEqual([1, 1, 0]);
    }
    r.endFrame();
  });
});

describe('EntityStage: entityColumns', () => {
  it.each(ARRAYS)('stages what entity() stages, entry by entry (%s, with and without flags)', (_, make) => {
    // Kills stageColumns' checks and columns as for batch, and the block copy's conditions where they
    // change what is staged: `valid === c` → `true` (bad ids copied), `c > 0` dropped, `fitsBlock`'s
    // `len >= count` → `true` (a short column copied), `n + len <= length` → `true` (a copy past the
    // stage throws), the flags' `instanceof Uint8Array` → `true`.
    const random = rng(47);
    const r = quiet({ maxEntitiesPerFrame: CAP, maxEntityId: MAX_ID, wasm: false, maxFrames: 4 });
    for (let round = 0; round < 60; round++) {
      const base = counts(r);
      r.beginFrame(round, 1 / 60);
      const m: Model = { staged: [], badIds: 0, overCapacity: 0, repairedFlags: 0 };
      prefix(r, m, randomEntries(random, round % 5 === 0 ? 12 : Math.floor(random() * 6), 0.1));
      const entries = randomEntries(random, 1 + Math.floor(random() * 14), round % 2 === 0 ? 0.2 : 0);
      const flagsAs = round % 3;
      const flags = flagsAs === 0 ? undefined : flagsAs === 1 ? make : (v: number[]) => Uint8Array.from(v);
      // Short columns past the count (block copies), or longer ones.
      const extra = [0, 0, 1, 3, 40][round % 5];
      const cut = round % 7 === 0 ? entries.length + 2 : entries.length;
      const start = stageOf(r).count;
      r.entityColumns(cut, columnsOf(entries, make, make, flags, extra));
      const given = entries.concat(
        // A count past the entries reaches the padding: ids 0, one entry each (ids.length cuts it).
        Array.from({ length: Math.min(cut, entries.length + extra) - entries.length }, () => ({
          id: 0,
          p: [0, 0, 0] as [number, number, number],
          q: [0, 0, 0, 0] as [number, number, number, number],
          flags: 0,
        })),
      );
      for (const e of given) {
        // A Uint8Array keeps each flag's low byte (what a game's byte column holds).
        const fl = flags === undefined ? 0 : flagsAs === 2 ? Uint8Array.of(e.flags)[0] : e.flags;
        stageModel(m, { ...e, flags: fl });
      }
      expectStage(r, m, base);
      expect([stageOf(r).callStart, stageOf(r).callCount]).toEqual([start, given.length]);
      expect(stageOf(r).lastId).toBe(m.staged.length > 0 ? m.staged[m.staged.length - 1].id : -1);
      r.endFrame();
    }
  });

  it('block-copies Int32Array ids unchecked; a bad one is dropped when the frame resolves', () => {
    // Kills `ids instanceof Int32Array ? c : 0` → `c` for other arrays (bad ids copied), clearHighFlags'
    // id test (`ids[i] >= 0` → `true`, `< max` → `<=`: a bad entry's flags repaired and counted).
    const r = quiet({ maxEntitiesPerFrame: CAP, maxEntityId: MAX_ID, wasm: false });
    r.beginFrame(0, 1 / 60);
    const cols = {
      ids: Int32Array.of(4, -3, MAX_ID, 7),
      x: Float32Array.of(1, 2, 3, 4),
      y: new Float32Array(4),
      z: new Float32Array(4),
      qx: new Float32Array(4),
      qy: new Float32Array(4),
      qz: new Float32Array(4),
      qw: Float32Array.of(1, 1, 1, 1),
      flags: Uint8Array.of(130, 200, 255, 9),
    };
    r.entityColumns(4, cols);
    const s = stageOf(r);
    expect([s.count, s.dropped]).toEqual([4, 0]);
    expect(Array.from(s.ids.subarray(0, 4))).toEqual([4, -3, MAX_ID, 7]);
    // Bit 7 cleared and counted for the entries in range only.
    expect(Array.from(s.flags.subarray(0, 4))).toEqual([2, 200, 255, 9]);
    expect(r.stats.invalidFlags).toBe(1);
    r.endFrame();
    expect(r.stats.idsOutOfRange).toBe(2);
    expect(r.reader.entityCountOf(0)).toBe(2);
    // The same ids in a Float64Array are checked and refused while staging.
    r.beginFrame(1, 1 / 60);
    r.entityColumns(4, { ...cols, ids: Float64Array.from(cols.ids) });
    expect([s.count, s.dropped, r.stats.idsOutOfRange]).toEqual([2, 2, 4]);
    expect(Array.from(s.ids.subarray(0, 2))).toEqual([4, 7]);
    expect(Array.from(s.x.subarray(0, 2))).toEqual([1, 4]);
    r.endFrame();
  });

  it('clears bit 7 of block-copied flags in every word the call covers, from any start', () => {
    // Kills the word scan's bounds (`n >>> 2` → `n << 2`, `(n + c + 3) >>> 2` → `n + c - 3`/`<= `),
    // `high |= words[w]` → `&=`, `high & 0x80808080` → `true`/`false`, and clearHighFlags' loop bounds.
    const r = quiet({ maxEntitiesPerFrame: 32, maxEntityId: MAX_ID, wasm: false, maxFrames: 4 });
    let frame = 0;
    for (let before = 0; before < 8; before++) {
      for (let count = 1; count <= 9; count++) {
        for (const at of [0, count - 1, count >> 1]) {
          const repaired = r.stats.invalidFlags;
          r.beginFrame(frame++, 1 / 60);
          for (let k = 0; k < before; k++) r.entity(500 + k, 0, 0, 0, 0, 0, 0, 1, 5);
          const flags = new Uint8Array(count).fill(3);
          flags[at] = 0x80 | 6;
          r.entityColumns(count, {
            ids: Int32Array.from({ length: count }, (_, k) => k),
            x: new Float32Array(count),
            y: new Float32Array(count),
            z: new Float32Array(count),
            qx: new Float32Array(count),
            qy: new Float32Array(count),
            qz: new Float32Array(count),
            qw: new Float32Array(count).fill(1),
            flags,
          });
          const s = stageOf(r);
          const want = [
            ...new Array<number>(before).fill(5),
            ...Array.from({ length: count }, (_, k) => (k === at ? 6 : 3)),
          ];
          expect(Array.from(s.flags.subarray(0, before + count))).toEqual(want);
          expect(r.stats.invalidFlags - repaired).toBe(1);
          r.endFrame();
        }
      }
    }
  });

  it('falls back to one by one for columns too long to copy, or past the stage, with the same result', () => {
    // Kills fitsBlock's `len <= 2 * count + 64` → `true` together with `n + len <= length` (a long column
    // copied past the stage throws), and the stage-full refusals after a block copy.
    for (const extra of [0, 1, 64, 65, 200]) {
      const r = quiet({ maxEntitiesPerFrame: 300, maxEntityId: MAX_ID, wasm: false });
      r.beginFrame(0, 1 / 60);
      for (let k = 0; k < 290; k++) r.entity(k, k, 0, 0, 0, 0, 0, 1);
      const count = 20;
      const len = count + extra;
      const col = (f: (k: number) => number): Float32Array => Float32Array.from({ length: len }, (_, k) => f(k));
      r.entityColumns(count, {
        ids: Int32Array.from({ length: len }, (_, k) => 600 + k),
        x: col((k) => k + 0.5),
        y: col(() => 1),
        z: col(() => 2),
        qx: col(() => 0),
        qy: col(() => 0),
        qz: col(() => 0),
        qw: col(() => 1),
      });
      const s = stageOf(r);
      expect([s.count, s.dropped, r.stats.entitiesOverCapacity]).toEqual([300, 10, 10]);
      expect(Array.from(s.ids.subarray(288, 300))).toEqual([
        288,
        289,
        ...Array.from({ length: 10 }, (_, k) => 600 + k),
      ]);
      expect(Array.from(s.x.subarray(290, 300))).toEqual(Array.from({ length: 10 }, (_, k) => k + 0.5));
      r.endFrame();
    }
    // A block copy that exactly fills the stage.
    const r = quiet({ maxEntitiesPerFrame: 24, maxEntityId: MAX_ID, wasm: false });
    r.beginFrame(0, 1 / 60);
    for (let k = 0; k < 4; k++) r.entity(k, 0, 0, 0, 0, 0, 0, 1);
    const n = 20;
    const f = (v: number): Float32Array => new Float32Array(n).fill(v);
    r.entityColumns(n, {
      ids: Int32Array.from({ length: n }, (_, k) => 100 + k),
      x: f(9),
      y: f(8),
      z: f(7),
      qx: f(0),
      qy: f(0),
      qz: f(0),
      qw: f(1),
    });
    expect([stageOf(r).count, stageOf(r).dropped, stageOf(r).ids[23], stageOf(r).z[23]]).toEqual([24, 0, 119, 7]);
    r.endFrame();
  });
});

describe('EntityStage: short columns', () => {
  it('reads past the end of a column shorter than the count as NaN, never stale staging', () => {
    // Kills fitsBlock's `len >= count` → `true` (a short column block-copied leaves the staging's old values).
    const r = quiet({ maxEntitiesPerFrame: CAP, maxEntityId: MAX_ID, wasm: false, maxFrames: 4 });
    r.beginFrame(0, 1 / 60);
    for (let k = 0; k < 6; k++) r.entity(k, 7, 7, 7, 0, 0, 0, 1);
    r.endFrame();
    r.beginFrame(1, 1 / 60);
    const ones = new Float32Array(6).fill(1);
    r.entityColumns(6, {
      ids: Int32Array.of(0, 1, 2, 3, 4, 5),
      x: Float32Array.of(1, 2, 3),
      y: ones,
      z: ones,
      qx: ones,
      qy: ones,
      qz: ones,
      qw: ones,
    });
    expect(Array.from(stageOf(r).x.subarray(0, 6))).toEqual([1, 2, 3, Number.NaN, Number.NaN, Number.NaN]);
    r.endFrame();
  });

  it('takes the whole part of a fractional count', () => {
    // Kills columns' `count | 0` → `count` (2.5 entries would stage 3).
    const r = quiet({ maxEntitiesPerFrame: CAP, maxEntityId: MAX_ID, wasm: false, maxFrames: 4 });
    r.beginFrame(0, 1 / 60);
    const f = (): Float32Array => new Float32Array(4).fill(1);
    r.entityColumns(2.5, {
      ids: Int32Array.of(1, 2, 3, 4),
      x: f(),
      y: f(),
      z: f(),
      qx: f(),
      qy: f(),
      qz: f(),
      qw: f(),
    });
    expect([stageOf(r).count, stageOf(r).callCount]).toEqual([2, 2]);
    // entityBatch alike (it staged 3 before the sixth session: the two forms disagreed).
    r.entityBatch(
      1.5,
      Int32Array.of(5, 6, 7),
      new Float32Array(9),
      Float32Array.of(0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1),
      new Uint8Array(3),
    );
    expect([stageOf(r).count, stageOf(r).callCount]).toEqual([3, 1]);
    r.endFrame();
  });
});

describe('EntityStage: refusals', () => {
  it('names the capacity in the over-capacity warning, once, and counts bad ids as such', () => {
    // Kills refuse's id test (`(id | 0) === id` → `true`...: a bad id counted as over capacity), the
    // 'cap' message emptied, `!has('cap')` → `false`, and `dropped++` → `--`.
    const r = quiet({ maxEntitiesPerFrame: 2, maxEntityId: MAX_ID, wasm: false });
    r.beginFrame(0, 1 / 60);
    for (const id of [1, 2, 3, 4, 2.5, -1]) r.entity(id, 0, 0, 0, 0, 0, 0, 1);
    const s = stageOf(r);
    expect([s.count, s.dropped, r.stats.entitiesOverCapacity, r.stats.idsOutOfRange]).toEqual([2, 4, 2, 2]);
    expect(warningsOf(r).filter((w) => w.includes('entities in one frame'))).toEqual([
      'rewindable: more than 2 entities in one frame; the rest were dropped',
    ]);
    r.endFrame();
    r.beginFrame(1, 1 / 60);
    expect([s.count, s.dropped, s.callStart, s.callCount, s.lastId]).toEqual([0, 0, -1, 0, -1]);
    r.endFrame();
  });

  it('repairs entity() flags through repairFlags: the low 7 bits of a byte, else 0', () => {
    // Kills repairFlags' `(flags & 0xff) === flags` → `true`/`false` and `flags & USER_FLAGS` → `|`.
    const r = quiet({ maxEntitiesPerFrame: CAP, maxEntityId: MAX_ID, wasm: false });
    r.beginFrame(0, 1 / 60);
    const flags = [200, 255, 256, -1, 0.5, 128];
    flags.forEach((f, k) => r.entity(k, 0, 0, 0, 0, 0, 0, 1, f));
    expect(Array.from(stageOf(r).flags.subarray(0, 6))).toEqual([72, 127, 0, 0, 0, 0]);
    expect(r.stats.invalidFlags).toBe(6);
    r.endFrame();
  });
});
