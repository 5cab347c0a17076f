import { describe, expect, it } from 'vitest';
import { slerpCoefficients, slerpInto } from '../../math/slerp';
import { EntityBuffer } from '../../read/buffers';
import type { EntityTable } from '../../store/EntityTable';
import { Presence, SampleBuffer } from '../SampleBuffer';
import {
  BLEND_T,
  blendBones,
  copyBones,
  copyEntity,
  copyFrame,
  sampleDisplay,
  seriesCoef,
  writeLayout,
} from '../sampleRows';

/**
 * The sampler's row pieces (sampleRows.ts) called directly on buffers written by hand, every
 * column of the output compared whole with what the test computes: rows copied to other rows,
 * bones at slots other than 0 with gaps between them, values past the rows in use (so a loop that
 * runs one step too far shows), an output filled with sentinels beforehand (so a write that should
 * not happen shows), bone counts left as garbage where `boneStart` is -1 (as the contract allows),
 * and the blend's bounds (t just under 0.5 and exactly 0.5). Each case names the mutants it kills.
 */

const fr = Math.fround;
const SENT = -7;

/** A unit quaternion distinct for every slot (the bone rotations of slot `s`). */
function quat(s: number): number[] {
  const q = [0.1 * s + 0.05, 0.2 - 0.03 * s, 0.05 * s, 1];
  const n = Math.hypot(q[0], q[1], q[2], q[3]);
  return q.map((v) => v / n);
}

/**
 * An entity buffer of `rows` rows (plus one filled past them), each value distinct: positions
 * `base + 10 i + c`, rotations `base + 100 + 10 i + c`, flags `base + i`; bone slot s holds
 * rotation `quat(s + base)` and offsets `base + 1000 + 10 s + c`. `bones[i]` = [start, count]
 * (start -1: none, with the count left as garbage).
 */
function frame(base: number, rows: number, bones: Array<[number, number]> = []): EntityBuffer {
  const e = new EntityBuffer(rows + 1, 16);
  e.count = rows;
  for (let i = 0; i <= rows; i++) {
    e.handles[i] = base + i;
    e.flags[i] = (base + i) & 0xff;
    for (let c = 0; c < 3; c++) e.positions[i * 3 + c] = base + 10 * i + c + 0.25;
    for (let c = 0; c < 4; c++) e.rotations[i * 4 + c] = base + 100 + 10 * i + c + 0.5;
    e.boneStart[i] = -1;
    e.boneCount[i] = 0;
  }
  for (let s = 0; s < 16; s++) {
    const q = quat(s + base);
    for (let c = 0; c < 4; c++) e.boneRotations[s * 4 + c] = q[c];
    for (let c = 0; c < 3; c++) e.boneOffsets[s * 3 + c] = base + 1000 + 10 * s + c;
  }
  let total = 0;
  bones.forEach(([start, count], i) => {
    e.boneStart[i] = start;
    e.boneCount[i] = count;
    if (start >= 0) total += count;
  });
  e.boneTotal = total;
  return e;
}

/** An output of `rows` rows and 16 bone slots, every column set to `SENT`. */
function sentinelOut(rows: number): SampleBuffer {
  const out = new SampleBuffer(rows, 16);
  for (const a of [
    out.handles,
    out.flags,
    out.positions,
    out.rotations,
    out.boneStart,
    out.boneCount,
    out.boneRotations,
    out.boneOffsets,
    out.ids,
    out.spawnFrames,
    out.presence,
  ]) {
    a.fill(SENT);
  }
  out.boneTotal = SENT;
  return out;
}

/** A plain copy of a typed array (to build the expected columns from). */
const arr = (a: ArrayLike<number>): number[] => Array.from(a);

function setBlend(t: number): void {
  seriesCoef[BLEND_T] = t;
  slerpCoefficients(seriesCoef);
}

describe('copyEntity and copyBones', () => {
  // Kills: copyEntity's index arithmetic (p, q, o3, o4 and each `+ 1/2/3`), the flags copy,
  // `out.boneStart[k] >= 0` → `> 0` / `true` / `false`, `src.boneStart[i] >= 0` → `> 0` / `true` /
  // `false`, the `boneCount[k] = 0` block; copyBones' `c * 4` / `c * 3` loops (`<=`, `/`), and
  // `d * 4 + j`, `s * 4 + j`, `d * 3 + j`, `s * 3 + j` (each `-` or `/`).
  it('copies transform, flags and bones into another row; bones only where the row reserves slots', () => {
    const src = frame(20, 4, [
      [0, 2], // slots 0 and 1 (start 0: the `>= 0` bound)
      [-1, 7], // no bones, garbage count
      [3, 1], // slot 3 (slot 2 is a gap)
      [4, 2],
    ]);
    const out = sentinelOut(4);
    out.boneStart.set([0, -1, 5, 2]);
    const want = {
      positions: arr(out.positions),
      rotations: arr(out.rotations),
      flags: arr(out.flags),
      boneCount: arr(out.boneCount),
      boneRotations: arr(out.boneRotations),
      boneOffsets: arr(out.boneOffsets),
    };
    const copyRow = (i: number, k: number): void => {
      for (let c = 0; c < 3; c++) want.positions[k * 3 + c] = src.positions[i * 3 + c];
      for (let c = 0; c < 4; c++) want.rotations[k * 4 + c] = src.rotations[i * 4 + c];
      want.flags[k] = src.flags[i];
    };
    const copySlots = (s: number, d: number, n: number): void => {
      for (let j = 0; j < n * 4; j++) want.boneRotations[d * 4 + j] = src.boneRotations[s * 4 + j];
      for (let j = 0; j < n * 3; j++) want.boneOffsets[d * 3 + j] = src.boneOffsets[s * 3 + j];
    };

    copyEntity(src, 2, out, 0); // out row 0 reserves slot 0: src slot 3 there
    copyRow(2, 0);
    copySlots(3, 0, 1);
    want.boneCount[0] = 1;
    copyEntity(src, 0, out, 2); // src slots 0-1 into out slots 5-6
    copyRow(0, 2);
    copySlots(0, 5, 2);
    want.boneCount[2] = 2;
    copyEntity(src, 1, out, 3); // src has no bones: the row's count is set to 0
    copyRow(1, 3);
    want.boneCount[3] = 0;
    copyEntity(src, 3, out, 1); // out row 1 reserves no slots: bones and count untouched
    copyRow(3, 1);

    expect(arr(out.positions)).toEqual(want.positions);
    expect(arr(out.rotations)).toEqual(want.rotations);
    expect(arr(out.flags)).toEqual(want.flags);
    expect(arr(out.boneCount)).toEqual(want.boneCount);
    expect(arr(out.boneRotations)).toEqual(want.boneRotations);
    expect(arr(out.boneOffsets)).toEqual(want.boneOffsets);
  });

  // Kills: copyBones' `out.boneCount[k] = c` and the loops' bounds at a count of 3 into slot 9.
  it('copyBones writes exactly the bones of the source row', () => {
    const src = frame(3, 2, [
      [-1, 0],
      [6, 3],
    ]);
    const out = sentinelOut(2);
    out.boneStart[1] = 9;
    const wantR = arr(out.boneRotations);
    const wantO = arr(out.boneOffsets);
    for (let j = 0; j < 12; j++) wantR[36 + j] = src.boneRotations[24 + j];
    for (let j = 0; j < 9; j++) wantO[27 + j] = src.boneOffsets[18 + j];
    copyBones(src, 1, out, 1);
    expect(arr(out.boneRotations)).toEqual(wantR);
    expect(arr(out.boneOffsets)).toEqual(wantO);
    expect(arr(out.boneCount.subarray(0, 2))).toEqual([SENT & 0xffff, 3]);
  });
});

describe('copyFrame', () => {
  // Kills: the three loops' bounds (`<=`: the row past `count` holds other values), their index
  // arithmetic, `a.boneTotal > 0` → `false` / `<= 0`, `a.boneStart[i] >= 0` → `> 0` / `false` (row 0
  // has its bones at slot 0), and the per-row bone loop's bound.
  it('copies the rows in use, and the bones of the rows that have them', () => {
    const a = frame(40, 3, [
      [0, 2],
      [-1, 5],
      [2, 1],
    ]);
    a.boneStart[3] = 3; // the row past `count` has bones too: not copied
    a.boneCount[3] = 1;
    const out = sentinelOut(4);
    out.boneStart.set([0, -1, 4, 8]);
    const wantP = arr(out.positions);
    const wantR = arr(out.rotations);
    const wantF = arr(out.flags);
    for (let j = 0; j < 9; j++) wantP[j] = a.positions[j];
    for (let j = 0; j < 12; j++) wantR[j] = a.rotations[j];
    for (let j = 0; j < 3; j++) wantF[j] = a.flags[j];
    const wantBR = arr(out.boneRotations);
    const wantBO = arr(out.boneOffsets);
    for (let j = 0; j < 8; j++) wantBR[j] = a.boneRotations[j];
    for (let j = 0; j < 6; j++) wantBO[j] = a.boneOffsets[j];
    for (let j = 0; j < 4; j++) wantBR[16 + j] = a.boneRotations[8 + j];
    for (let j = 0; j < 3; j++) wantBO[12 + j] = a.boneOffsets[6 + j];
    const wantC = arr(out.boneCount);
    wantC[0] = 2;
    wantC[2] = 1;

    copyFrame(a, out);
    expect(arr(out.positions)).toEqual(wantP);
    expect(arr(out.rotations)).toEqual(wantR);
    expect(arr(out.flags)).toEqual(wantF);
    expect(arr(out.boneRotations)).toEqual(wantBR);
    expect(arr(out.boneOffsets)).toEqual(wantBO);
    expect(arr(out.boneCount)).toEqual(wantC);
  });
});

describe('blendBones', () => {
  /** The output row 0's bones (slots from 2 on) after `blendBones(a, ia, b, ib)` at `t`. */
  function run(a: EntityBuffer, ia: number, b: EntityBuffer, ib: number, t: number): SampleBuffer {
    const out = sentinelOut(1);
    out.boneStart[0] = 2;
    setBlend(t);
    blendBones(a, ia, b, ib, out, 0);
    return out;
  }

  /** What copyBones of row `i` of `src` into slot 2 gives. */
  function copied(src: EntityBuffer, i: number): SampleBuffer {
    const out = sentinelOut(1);
    out.boneStart[0] = 2;
    const s = src.boneStart[i];
    const c = src.boneCount[i];
    out.boneCount[0] = c;
    for (let j = 0; j < c * 4; j++) out.boneRotations[8 + j] = src.boneRotations[s * 4 + j];
    for (let j = 0; j < c * 3; j++) out.boneOffsets[6 + j] = src.boneOffsets[s * 3 + j];
    return out;
  }

  const same = (got: SampleBuffer, want: SampleBuffer): void => {
    expect(arr(got.boneCount)).toEqual(arr(want.boneCount));
    expect(arr(got.boneRotations)).toEqual(arr(want.boneRotations));
    expect(arr(got.boneOffsets)).toEqual(arr(want.boneOffsets));
  };

  // Kills: the slerp loop's bound and its three `(x + j) * 4` indices, the offsets' loop bound and
  // indices, `x + (b - x) * t` (each operator), `out.boneCount[k] = ca`, `const t = seriesCoef[...]`.
  it('blends bone by bone when both frames hold as many bones', () => {
    const a = frame(0, 2, [
      [-1, 4],
      [1, 2], // slots 1-2
    ]);
    const b = frame(5, 1, [[3, 2]]); // slots 3-4
    for (const t of [0.3, 0.5, 0.8]) {
      const got = run(a, 1, b, 0, t);
      const want = sentinelOut(1);
      want.boneCount[0] = 2;
      for (let j = 0; j < 2; j++)
        slerpInto(a.boneRotations, (1 + j) * 4, b.boneRotations, (3 + j) * 4, t, want.boneRotations, (2 + j) * 4);
      for (let j = 0; j < 6; j++) {
        const x = a.boneOffsets[3 + j];
        want.boneOffsets[6 + j] = fr(x + (b.boneOffsets[9 + j] - x) * t);
      }
      same(got, want);
      // Blended: neither frame's values.
      expect(got.boneRotations[8]).not.toBe(a.boneRotations[4]);
      expect(got.boneRotations[8]).not.toBe(b.boneRotations[12]);
    }
  });

  // Kills: `ca !== cb` → `false` / `===`, `cb > 0 && (...)` → `||`, `t >= 0.5` → `> 0.5` / `< 0.5`
  // / `true` / `false`, `ca === 0` → `!==` / `false`, the `useB` branches swapped.
  it('different counts: the nearer frame bones, B from t = 0.5 exactly', () => {
    const a = frame(0, 1, [[0, 2]]); // slots 0-1 (start 0: the `sa >= 0` bound)
    const b = frame(9, 1, [[5, 1]]);
    same(run(a, 0, b, 0, 0.49), copied(a, 0));
    same(run(a, 0, b, 0, 0.5), copied(b, 0));
    same(run(a, 0, b, 0, 0.9), copied(b, 0));
  });

  // Kills: `sa >= 0 ? ... : 0` → `true` / `sa > 0` (a start at 0 above), `ca === 0` → `false`.
  it('a row without bones in A (garbage count) takes B bones even nearer A', () => {
    const a = frame(0, 1, [[-1, 3]]);
    const b = frame(9, 1, [[5, 1]]);
    same(run(a, 0, b, 0, 0.1), copied(b, 0));
  });

  // Kills: `sb >= 0 ? ... : 0` → `true` / `sb > 0`, `cb > 0` → `>= 0` / `true`.
  it('a row without bones in B (garbage count) keeps A bones even nearer B', () => {
    const a = frame(0, 1, [[3, 2]]);
    const b = frame(9, 2, [
      [0, 2],
      [-1, 2],
    ]);
    same(run(a, 0, b, 1, 0.9), copied(a, 0));
    // B's bones at slot 0 count (`sb > 0` would drop them): 2 each, blended.
    const got = run(a, 0, b, 0, 0.9);
    expect(got.boneCount[0]).toBe(2);
    expect(got.boneOffsets[6]).toBe(fr(1030 + (1009 - 1030) * 0.9));
  });

  // Kills: `ca !== cb` → `true` (a garbage count would be copied).
  it('no bones in either frame: the count is 0 and no slot is written', () => {
    const a = frame(0, 1, [[-1, 3]]);
    const b = frame(9, 1, [[-1, 2]]);
    const want = sentinelOut(1);
    want.boneCount[0] = 0;
    same(run(a, 0, b, 0, 0.7), want);
  });
});

describe('sampleDisplay', () => {
  /** Display state of a frame: per row [display bits, scale x, scale y, alpha, texture]. */
  function withDisplay(e: EntityBuffer, rows: Array<[number, number, number, number, number]>): EntityBuffer {
    e.hasDisplay = true;
    e.ensureDisplay(rows.length + 1);
    rows.forEach(([d, sx, sy, al, tx], i) => {
      e.display[i] = d;
      e.scales[i * 2] = sx;
      e.scales[i * 2 + 1] = sy;
      e.alphas[i] = al;
      e.textures[i] = tx;
    });
    return e;
  }

  const A = withDisplay(frame(0, 5), [
    [3, 1.5, 2.5, 0.25, 4],
    [1, 0.75, 1.25, 0.5, 6],
    [0, 9, 9, 0.9, 9], // no display state
    [3, 2, 4, 1, 1],
    [1, 5, 6, 0.125, 2],
    [3, 8, 8, 0.8, 8], // past the rows
  ]);
  const B = withDisplay(frame(50, 5), [
    [3, 3.5, 0.5, 0.75, 7],
    [1, 1, 2, 0.375, 5],
    [3, 2.25, 1.75, 0.625, 3],
    [0, 9, 9, 0.9, 9], // no display state
    [1, 4, 3, 0.5, 0],
    [3, 7, 7, 0.7, 7],
  ]);
  // Rows: both with display (A0, B0), A only (A1), B only (B1), A without display and B with
  // (A2, B2), A with and B without (A3, B3), A4 and B4 both with display state, hidden.
  const fromA = Int32Array.from([0, 1, -1, 2, 3, 4, 5]);
  const fromB = Int32Array.from([0, -1, 1, 2, 3, 4, 5]);
  const N = 6;

  function expected(a: EntityBuffer, b: EntityBuffer, fa: Int32Array, fb: Int32Array | null, t: number) {
    const rows: number[][] = [];
    for (let k = 0; k < N; k++) {
      const ia = fa[k];
      const ib = fb === null ? -1 : fb[k];
      const da = ia >= 0 && a.hasDisplay ? a.display[ia] : 0;
      const db = ib >= 0 && b.hasDisplay ? b.display[ib] : 0;
      const fromBFrame = ib >= 0 && (ia < 0 || t >= 0.5);
      const d = fromBFrame ? db : da;
      if (d === 0) {
        rows.push([0, 0, 0, 0, 0]); // the columns left as they were (fresh: 0)
        continue;
      }
      const src = fromBFrame ? b : a;
      const i = fromBFrame ? ib : ia;
      if (da !== 0 && db !== 0) {
        const lerp = (x: number, y: number): number => fr(x + (y - x) * t);
        rows.push([
          d,
          src.textures[i],
          lerp(a.scales[ia * 2], b.scales[ib * 2]),
          lerp(a.scales[ia * 2 + 1], b.scales[ib * 2 + 1]),
          lerp(a.alphas[ia], b.alphas[ib]),
        ]);
      } else {
        rows.push([d, src.textures[i], src.scales[i * 2], src.scales[i * 2 + 1], src.alphas[i]]);
      }
    }
    return rows;
  }

  function got(out: SampleBuffer) {
    const rows: number[][] = [];
    for (let k = 0; k < N; k++) {
      rows.push([out.display[k], out.textures[k], out.scales[k * 2], out.scales[k * 2 + 1], out.alphas[k]]);
    }
    return rows;
  }

  function run(a: EntityBuffer, b: EntityBuffer, fa: Int32Array, fb: Int32Array | null, t: number): SampleBuffer {
    const out = new SampleBuffer(8);
    expect(out.display.length).toBe(0);
    setBlend(t);
    sampleDisplay(a, b, fa, fb, N, out);
    expect(out.hasDisplay).toBe(true);
    expect(out.display.length).toBeGreaterThanOrEqual(N + 1);
    expect(out.display[N]).toBe(0); // the row past `n` (A5, B5) is not written
    return out;
  }

  // Kills: `ensureDisplay(n)`, `hasDisplay = true`, `nearB = t >= 0.5` (`>`, `<`, true, false), the
  // `useB` condition (`ib >= 0` → `> 0` / true, `ia < 0` → `<= 0` / false, `&&`/`||` swapped), each
  // `da`/`db` condition (`ia >= 0` → `> 0`, `&&` → `||`), `d === 0` → `continue` dropped / `!==`, the
  // texture, the blend's `da !== 0 && db !== 0` (→ `||`, true, false) and its arithmetic, the copy's
  // indices.
  it('blends scale and alpha where both frames hold display state; the nearer frame gives the rest', () => {
    for (const t of [0.25, 0.49, 0.5, 0.75]) {
      const out = run(A, B, fromA, fromB, t);
      expect(got(out), `t = ${t}`).toEqual(expected(A, B, fromA, fromB, t));
    }
    // The cases are all there: blended rows, copied rows, rows without display state.
    const at = (t: number) => expected(A, B, fromA, fromB, t).map((r) => r[0]);
    expect(at(0.25)).toEqual([3, 1, 1, 0, 3, 1]);
    expect(at(0.5)).toEqual([3, 1, 1, 3, 0, 1]);
    expect(expected(A, B, fromA, fromB, 0.25)[0][2]).not.toBe(A.scales[0]);
  });

  // Kills: `a.hasDisplay` / `b.hasDisplay` dropped from `da` / `db` (`&&` → `||`, the test → true).
  it('a frame without display state gives none, whatever its columns hold', () => {
    const noA = withDisplay(frame(0, 5), [
      [3, 1, 1, 1, 1],
      [3, 1, 1, 1, 1],
      [3, 1, 1, 1, 1],
      [3, 1, 1, 1, 1],
      [3, 1, 1, 1, 1],
      [3, 1, 1, 1, 1],
    ]);
    noA.hasDisplay = false;
    for (const t of [0.25, 0.75]) {
      expect(got(run(noA, B, fromA, fromB, t))).toEqual(expected(noA, B, fromA, fromB, t));
      expect(got(run(B, noA, fromA, fromB, t))).toEqual(expected(B, noA, fromA, fromB, t));
    }
    expect(expected(noA, B, fromA, fromB, 0.25)[0]).toEqual([0, 0, 0, 0, 0]);
  });

  // Kills: `fromB === null ? -1 : fromB[k]` → `fromB[k]` / the test → false (a null `fromB`).
  it('one frame (no fromB): the rows are A as decoded, at any t', () => {
    for (const t of [0, 0.75]) {
      expect(got(run(A, A, fromA, null, t))).toEqual(expected(A, A, fromA, null, t));
    }
  });
});

describe('writeLayout', () => {
  /** An entity table with ids `10 h + 1` and spawn frames `h + 100`. */
  const table = {
    ids: Int32Array.from({ length: 128 }, (_, h) => 10 * h + 1),
    spawnFrames: Int32Array.from({ length: 128 }, (_, h) => h + 100),
  } as unknown as EntityTable;

  function layout(out: SampleBuffer, rows: number) {
    return {
      handles: arr(out.handles.subarray(0, rows + 1)),
      ids: arr(out.ids.subarray(0, rows + 1)),
      spawnFrames: arr(out.spawnFrames.subarray(0, rows + 1)),
      presence: arr(out.presence.subarray(0, rows + 1)),
      boneStart: arr(out.boneStart.subarray(0, rows + 1)),
      boneCount: arr(out.boneCount.subarray(0, rows + 1)),
      boneTotal: out.boneTotal,
    };
  }

  const S8 = SENT & 0xff;
  const S16 = SENT & 0xffff;

  // Kills (no bones): the path's condition → `true` (below) / `a.boneTotal !== 0`, `ia >= 0 ? ah : bh`
  // → `> 0` / swapped, each column's write, the presence terms (`ia >= 0` / `ib >= 0` → `> 0`),
  // `obs[k] = -1`, `obc[k] = 0`, `boneTotal = 0`, the loop's bound (row 4 is past `rows`).
  it('two frames without bones: handle, id, spawn frame and presence of each row, no bone slots', () => {
    const a = frame(7, 3);
    const b = frame(3, 3);
    a.handles.set([7, 3, 5, 60]);
    b.handles.set([3, 9, 5, 61]);
    const fromA = Int32Array.from([0, 1, -1, 2, 3]);
    const fromB = Int32Array.from([-1, 0, 1, 2, 3]);
    const out = sentinelOut(5);
    writeLayout(a, b, false, fromA, fromB, 4, table, out);
    expect(layout(out, 4)).toEqual({
      handles: [7, 3, 9, 5, SENT],
      ids: [71, 31, 91, 51, SENT],
      spawnFrames: [107, 103, 109, 105, SENT],
      presence: [Presence.ONLY_A, Presence.BOTH, Presence.ONLY_B, Presence.BOTH, S8],
      boneStart: [-1, -1, -1, -1, SENT],
      boneCount: [0, 0, 0, 0, S16],
      boneTotal: 0,
    });
  });

  // Kills (one frame): `single ? Presence.BOTH : ...` in both loops when fromB is not the identity.
  it('one frame: every row is in both', () => {
    const a = frame(20, 3, [
      [-1, 0],
      [0, 2],
      [-1, 0],
    ]);
    const noBones = frame(20, 3);
    const ident = Int32Array.from([0, 1, 2, 3]);
    for (const e of [noBones, a]) {
      const out = sentinelOut(4);
      writeLayout(e, e, true, ident, ident, 3, table, out);
      const l = layout(out, 3);
      expect(l.handles).toEqual([20, 21, 22, SENT]);
      expect(l.presence).toEqual([Presence.BOTH, Presence.BOTH, Presence.BOTH, S8]);
      expect(l.boneStart).toEqual(e === a ? [-1, 0, -1, SENT] : [-1, -1, -1, SENT]);
      expect(l.boneTotal).toBe(e === a ? 2 : 0);
    }
  });

  // Kills (bones): `ia >= 0 ? a.handles[ia] : b.handles[ib]` → `ia > 0` / `false`, the fast path's condition → `true`, `b.boneTotal === 0` → `!==` (bones in B only),
  // `ia >= 0 && a.boneStart[ia] >= 0` (each `> 0`, `||`, true), `!single && ib >= 0 && b.boneStart[ib]
  // >= 0` (each), `ca > cb ? ca : cb` (`>=`, `<`, swapped), `c > 0` (`>= 0`, true, false),
  // `bones += c` (`-=`), the `-1` branch, `boneCount[k] = 0`, `ensureBones(bones)`, `boneTotal`.
  it('rows with bones get slots for the larger of the two counts, in row order', () => {
    const a = frame(0, 6, [
      [0, 2], // row 0: A only
      [-1, 4], // row 1: garbage count
      [2, 1], // row 2
      [-1, 9], // row 4: neither
      [3, 4], // row 5: A larger
      [7, 1], // row 6: B larger
    ]);
    const b = frame(0, 6, [
      [0, 3], // row 1 (start 0)
      [-1, 5], // row 2: garbage count
      [3, 2], // row 3: B only
      [-1, 0], // row 4
      [5, 2], // row 5
      [7, 3], // row 6
    ]);
    // Row 0 is in A only, at index 0, with a handle other than 0: B's handle there is no answer.
    a.handles.set([10, 1, 2, 4, 5, 6, 90]);
    b.handles.set([1, 2, 3, 4, 5, 6, 91]);
    const fromA = Int32Array.from([0, 1, 2, -1, 3, 4, 5, 6]);
    const fromB = Int32Array.from([-1, 0, 1, 2, 3, 4, 5, 6]);
    const out = new SampleBuffer(8, 0);
    out.boneStart.fill(SENT);
    out.boneCount.fill(SENT);
    out.boneTotal = SENT;
    writeLayout(a, b, false, fromA, fromB, 7, table, out);
    const l = layout(out, 7);
    expect(l.handles).toEqual([10, 1, 2, 3, 4, 5, 6, 0]);
    expect(l.ids).toEqual([101, 11, 21, 31, 41, 51, 61, 0]);
    expect(l.spawnFrames).toEqual([110, 101, 102, 103, 104, 105, 106, 0]);
    expect(l.presence).toEqual([1, 3, 3, 2, 3, 3, 3, 0]);
    expect(l.boneStart).toEqual([0, 2, 5, 6, -1, 8, 12, SENT]);
    expect(l.boneCount).toEqual([0, 0, 0, 0, 0, 0, 0, S16]);
    expect(l.boneTotal).toBe(15);
    expect(out.boneRotations.length).toBeGreaterThanOrEqual(15 * 4);
    expect(out.boneOffsets.length).toBeGreaterThanOrEqual(15 * 3);

    // Bones in B only (A has none at all): still the bone path.
    const noBones = frame(0, 6);
    noBones.handles.set([10, 1, 2, 4, 5, 6, 90]);
    const out2 = sentinelOut(8);
    writeLayout(noBones, b, false, fromA, fromB, 7, table, out2);
    expect(layout(out2, 7).boneStart).toEqual([-1, 0, -1, 3, -1, 5, 7, SENT]);
    expect(out2.boneTotal).toBe(10);
  });
});
