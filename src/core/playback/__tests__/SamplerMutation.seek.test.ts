import { describe, expect, it } from 'vitest';
import { HANDLE_MASK, HEADER_WORDS } from '../../format/layout';
import { decodeQuat } from '../../math/quat';
import type { FrameReader } from '../../read/FrameReader';
import type { Recorder } from '../../record/Recorder';
import { Sampler } from '../Sampler';
import { Presence, SampleBuffer } from '../SampleBuffer';
import { rng } from '../../../../tests/helpers/random';
import { axisAngle, qmul, randomQuat } from '../../../../tests/helpers/rotations';
import { quietRecorder, rowBits as rows } from './helpers';

/**
 * A seek (neither neighbour frame cached: the rows come straight from the ring's words) on data
 * that tells the seek's own steps apart: rotation pairs that differ in one stored component only
 * (a sign flipped), two codes that decode to the same rotation, a move of exactly the teleport
 * threshold, thousands of turns under 16° (the short slerp series against the full one, to the
 * bit), a position word whose bits equal a rotation code, and a frame A naming a handle past the
 * sampler's table. Each row is compared with the decoding path's (the second sample at the same
 * pair), bit for bit, and with values computed here.
 */

/** A rotation word: largest component `idx` (0..3 = x, y, z, w), the other three as signed codes in [-511, 511]. */
function code(idx: number, a: number, b: number, c: number): number {
  return ((idx << 30) | ((a + 511) << 20) | ((b + 511) << 10) | (c + 511)) >>> 0;
}

function decoded(bits: number): Float32Array {
  const q = new Float32Array(4);
  decodeQuat(bits, q, 0);
  return q;
}

/** Shortest-path slerp in float64, from the float32 values the frames decode to. */
function slerp(a: ArrayLike<number>, b: ArrayLike<number>, t: number): number[] {
  let cos = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  const s = cos < 0 ? -1 : 1;
  cos = Math.min(1, cos * s);
  const th = Math.acos(cos);
  if (th < 1e-9) return [a[0], a[1], a[2], a[3]];
  const w0 = Math.sin((1 - t) * th) / Math.sin(th);
  const w1 = (Math.sin(t * th) / Math.sin(th)) * s;
  return [0, 1, 2, 3].map((k) => w0 * a[k] + w1 * b[k]);
}

/** Two frames of `n` entities (ids 0..n-1, recorded in id order), positions from `pos`. */
function twoFrames(rec: Recorder, n: number, pos: (f: number, id: number) => [number, number, number]): void {
  for (let f = 0; f < 2; f++) {
    rec.beginFrame(f, 1);
    for (let id = 0; id < n; id++) rec.entity(id, ...pos(f, id), 0, 0, 0, 1, 0);
    rec.endFrame();
  }
}

/** Word index of frame `f`'s rotation word of row `i` (a frame of `n` entities). */
function rotationWord(reader: FrameReader, f: number, n: number, i: number): number {
  return reader.offsetOf(f) + HEADER_WORDS + n * 4 + i;
}

/** The seek's sample at `p` and the decoding path's (the second sample at the same pair). */
function seekAndDecode(s: Sampler, p: number): [SampleBuffer, SampleBuffer] {
  const seek = new SampleBuffer();
  const dec = new SampleBuffer();
  s.invalidate();
  const d0 = s.decodeCount;
  expect(s.sample(p, seek)).toBe(true);
  expect(s.decodeCount, 'a seek decodes nothing').toBe(d0);
  expect(s.sample(p, dec)).toBe(true);
  expect(s.decodeCount, 'the second sample decodes the pair').toBe(d0 + 2);
  return [seek, dec];
}

describe('Sampler, a seek on data that tells its steps apart', () => {
  it('rotation pairs that differ in one stored component, or not at all by value, blend like the decoding path', () => {
    // seekRows 229 (the equal-rotation check on decoded values): each `=== → true`, `=== → !==` and
    // `&& → ||` there copies A's rotation for one of the pairs below, which differ (rows 0 to 4);
    // 231 to 233 (`o4 + k → o4 - k`) write the equal pair's (row 5) components into the wrong slots.
    const base = [100, 50, -30] as const;
    const pairs: Array<[number, number]> = [
      [code(3, 100, 50, -30), code(3, -100, 50, -30)], // x negated; y, z, w equal
      [code(3, 100, 50, -30), code(3, 100, -50, -30)], // y negated
      [code(3, 100, 50, -30), code(3, 100, 50, 30)], // z negated
      [code(0, 50, -30, 100), code(0, 50, -30, -100)], // w negated; x (the largest), y, z equal
      [code(3, ...base), code(3, -100, -50, 30)], // x, y, z negated: the inverse rotation, w equal
      [code(3, 511, 0, 0), code(0, 0, 0, 511)], // two codes, one rotation: x = w = √½
    ];
    const [e0, e1] = pairs[5].map(decoded);
    expect(Array.from(e0)).toEqual(Array.from(e1));
    expect(pairs[5][0]).not.toBe(pairs[5][1]);
    const n = pairs.length;
    const rec = quietRecorder();
    twoFrames(rec, n, (f, id) => [id + f, 0, 0]);
    const r = rec.reader;
    for (let i = 0; i < n; i++) {
      r.ring.u32[rotationWord(r, 0, n, i)] = pairs[i][0];
      r.ring.u32[rotationWord(r, 1, n, i)] = pairs[i][1];
    }
    const s = new Sampler(r);
    for (const p of [0.25, 0.6]) {
      const [seek, dec] = seekAndDecode(s, p);
      expect(rows(seek), `at ${p}`).toEqual(rows(dec));
      expect(seek.count).toBe(n);
      for (let i = 0; i < n; i++) {
        expect(seek.ids[i]).toBe(i);
        expect(seek.presence[i]).toBe(Presence.BOTH);
        const want = slerp(decoded(pairs[i][0]), decoded(pairs[i][1]), p);
        for (let c = 0; c < 4; c++) expect(seek.rotations[i * 4 + c], `row ${i} at ${p}`).toBeCloseTo(want[c], 6);
      }
      // The equal pair keeps A's rotation to the bit.
      expect(Array.from(seek.rotations.subarray(5 * 4, 6 * 4))).toEqual(Array.from(e0));
    }
  });

  it('compares each entity by its own rotation words, not by a position word that holds the same bits', () => {
    // seekRows 213 (`rA + i → rA - i`, `rB + ib → rB - ib`): row 1 then compares a position word of A
    // (the z of A's last entity) or of B with its partner's rotation code; here that word holds the
    // same bits, so the mutant takes A's rotation unblended.
    // Largest component x (idx 0): as float32 bits, small positive numbers (about 2^-39).
    const qa = code(0, 200, 0, 0);
    const qb = code(0, 150, 40, 0);
    const asFloat = (bits: number): number => new Float32Array(new Uint32Array([bits]).buffer)[0];
    for (const side of ['A', 'B'] as const) {
      const rec = quietRecorder();
      // z of the last row (row 1) of A holds B's code of row 1 (mutant rA - 1), or z of B's last row
      // holds A's code of row 1 (mutant rB - 1).
      twoFrames(rec, 2, (f, id) => [
        id,
        f,
        id === 1 && (side === 'A' ? f === 0 : f === 1) ? asFloat(side === 'A' ? qb : qa) : 0,
      ]);
      const r = rec.reader;
      for (let i = 0; i < 2; i++) {
        r.ring.u32[rotationWord(r, 0, 2, i)] = qa;
        r.ring.u32[rotationWord(r, 1, 2, i)] = qb;
      }
      const zWord = r.offsetOf(side === 'A' ? 0 : 1) + HEADER_WORDS + 2 + 3 + 2;
      expect(r.ring.u32[zWord]).toBe(side === 'A' ? qb : qa);
      const [seek, dec] = seekAndDecode(new Sampler(r), 0.5);
      expect(rows(seek), `z word in ${side}`).toEqual(rows(dec));
      const want = slerp(decoded(qa), decoded(qb), 0.5);
      for (let c = 0; c < 4; c++) expect(seek.rotations[4 + c], `z word in ${side}`).toBeCloseTo(want[c], 6);
    }
  });

  it('a move of exactly the teleport threshold is blended, one just over it is not', () => {
    // seekRows 189 (`> thr2 → >= thr2`): the move of exactly 5 would show frame A's position.
    const rec = quietRecorder();
    twoFrames(rec, 2, (f, id) => (id === 0 ? [3 * f, 4 * f, 0] : [0, 0, 5.001 * f]));
    const s = new Sampler(rec.reader, { teleportThreshold: 5 });
    const [seek, dec] = seekAndDecode(s, 0.25);
    expect(rows(seek)).toEqual(rows(dec));
    expect(Array.from(seek.positions.subarray(0, 6))).toEqual([0.75, 1, 0, 0, 0, 0]);
  });

  it('thousands of turns under 16° give the decoding path’s bits (the short series and its terms)', () => {
    // seekRows 246 (`cos >= SLERP_SHORT_MIN_COS → false`: the full series for small angles) and
    // 249, 250 (`t2 + t3 * y → t2 - t3 * y`, the same in s0): the weights then differ by less than
    // float32 precision, which shows in the rounding of a few of these thousands of rows.
    const n = 3000;
    const rand = rng(21);
    const qs: Array<[number[], number[]]> = [];
    for (let i = 0; i < n; i++) {
      const a = randomQuat(rand);
      const turn = axisAngle(rand() - 0.5, rand() - 0.5, rand() - 0.5, ((6 + rand() * 10) * Math.PI) / 180);
      qs.push([a, qmul(turn, a)]);
    }
    const rec = quietRecorder({ maxEntitiesPerFrame: n });
    for (let f = 0; f < 2; f++) {
      rec.beginFrame(f, 1);
      for (let id = 0; id < n; id++) rec.entity(id, id, 0, 0, ...(qs[id][f] as [number, number, number, number]), 0);
      rec.endFrame();
    }
    const r = rec.reader;
    const s = new Sampler(r);
    let shortSeries = 0;
    let worst = 0;
    for (const p of [0.3, 0.71]) {
      const [seek, dec] = seekAndDecode(s, p);
      expect(seek.count).toBe(n);
      expect(rows(seek), `at ${p}`).toEqual(rows(dec));
      for (let i = 0; i < n; i++) {
        const a = decoded(r.ring.u32[rotationWord(r, 0, n, i)]);
        const b = decoded(r.ring.u32[rotationWord(r, 1, n, i)]);
        const cos = Math.abs(a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]);
        if (cos >= 0.99 && cos < 1) shortSeries++;
        const want = slerp(a, b, p);
        for (let c = 0; c < 4; c++) worst = Math.max(worst, Math.abs(seek.rotations[i * 4 + c] - want[c]));
      }
    }
    expect(worst).toBeLessThan(2e-7);
    expect(shortSeries).toBeGreaterThan(n);
  });

  it('a handle of frame A past the sampler’s table (a foreign reader) takes its id and spawn frame from the entity table', () => {
    // seekRows 104 (`h4 < len → true`, `→ h4 <= len`) and 117 (the else block emptied): that handle's
    // id and spawn frame were read from past the end of the seek's table (undefined, i.e. 0) or left
    // as an earlier seek wrote them.
    const rec = quietRecorder();
    for (let f = 0; f < 3; f++) {
      rec.beginFrame(f, 1);
      if (f >= 1) rec.entity(5, 10 * f, 0, 0, 0, 0, 0, 1, 0); // frame A's entity, renumbered below
      rec.entity(6, 0, f, 0, 0, 0, 0, 1, 0); // in both frames
      rec.endFrame();
    }
    const real = rec.reader;
    const cap = real.entities.capacity;
    const h6 = real.entities.lookup(6);
    const ids = new Int32Array(cap + 1);
    const spawns = new Int32Array(cap + 1);
    ids[cap] = 777_777;
    spawns[cap] = 1;
    ids[h6] = 6;
    spawns[h6] = 0;
    const shifted = Object.create(real) as FrameReader;
    Object.defineProperty(shifted, 'entities', { value: { capacity: cap, ids, spawnFrames: spawns } });
    // An earlier seek (frames 0 and 1, as recorded), which leaves its scratch rows behind: row 0 of
    // its frame A is entity 6.
    new Sampler(shifted).sample(0.5, new SampleBuffer());
    // Entity 5 in frame 1 (frame A at 1.5) names handle `cap`: its handle word in the ring itself.
    const word = real.offsetOf(1) + HEADER_WORDS;
    const u = real.ring.u32;
    expect(u[word] & HANDLE_MASK).toBe(real.entities.lookup(5));
    u[word] = (u[word] & ~HANDLE_MASK) | cap;
    // Frame 2 keeps entity 5 at its own handle: in B only.
    const s = new Sampler(shifted);
    const out = new SampleBuffer();
    expect(s.sample(1.5, out)).toBe(true);
    expect(s.decodeCount).toBe(0);
    expect(out.count).toBe(3);
    expect([out.handles[0], out.ids[0], out.spawnFrames[0], out.presence[0], out.positions[0]]).toEqual([
      cap,
      777_777,
      1,
      Presence.ONLY_A,
      10,
    ]);
    expect([out.ids[1], out.spawnFrames[1], out.presence[1], out.positions[4]]).toEqual([6, 0, Presence.BOTH, 1.5]);
    expect([out.presence[2], out.positions[6]]).toEqual([Presence.ONLY_B, 20]);
  });
});
