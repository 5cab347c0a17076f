import { describe, expect, it } from 'vitest';
import { EntityFlags } from '../../format/layout';
import { decodeQuat, encodeQuat } from '../../math/quat';
import type { Recorder } from '../../record/Recorder';
import { Sampler } from '../Sampler';
import { Presence, SampleBuffer } from '../SampleBuffer';
import { rng } from '../../../../tests/helpers/random';
import { axisAngle, randomQuat } from '../../../../tests/helpers/rotations';
import { quietRecorder } from './helpers';

/**
 * A seek (neither neighbour frame cached, blended from the ring's words by `seekRows`) against a
 * reference computed here from the world's own input: the frames of a game that re-sorts its
 * entities by y every frame, replaces a tenth of them each frame (lives in one frame only), uses ids
 * spread over [0, 10^6), keeps a third of them still, and turns the others by small steps (the
 * short series), larger ones (the full series), past 120° (trigonometry) and the long way round
 * (the sign flip). Every row is checked: its order (A's entities in A's order, then B's newcomers in
 * B's order), id, spawn frame, presence, flags, position and rotation; a still entity's rotation to
 * the bit.
 */

const N = 60;
const FRAMES = 40;
const ID_SPACE = 1_000_000;

interface Entry {
  id: number;
  spawn: number;
  x: number;
  y: number;
  z: number;
  q: [number, number, number, number];
  flags: number;
}

/**
 * Rotation steps per frame (radians): still, the short series, the full series (near 1 and far),
 * trigonometry, past 180° (the sign flip).
 */
const STEPS = [0, 0, 0.02, 0.15, 0.5, 1.2, 2.6, 3.5];

/** Records the world and returns each frame's entries in the order recorded. */
function recordWorld(rec: Recorder, seed: number, bonesAt = -1): Entry[][] {
  const rand = rng(seed);
  const frames: Entry[][] = [];
  const alive: Entry[] = [];
  const usedIds = new Set<number>();
  const newId = (): number => {
    let id = Math.floor(rand() * ID_SPACE);
    while (usedIds.has(id)) id = Math.floor(rand() * ID_SPACE);
    usedIds.add(id);
    return id;
  };
  const turn = new Map<number, { axis: [number, number, number, number]; step: number }>();
  for (let i = 0; i < N; i++) alive.push({ id: newId(), spawn: 0, x: 0, y: 0, z: 0, q: [0, 0, 0, 1], flags: 0 });
  for (let f = 0; f < FRAMES; f++) {
    if (f > 0) {
      // A tenth of the entities die and as many are born.
      for (let k = 0; k < N / 10; k++) {
        alive[Math.floor(rand() * alive.length)] = {
          id: newId(),
          spawn: f,
          x: 0,
          y: 0,
          z: 0,
          q: [0, 0, 0, 1],
          flags: 0,
        };
      }
    }
    rec.beginFrame(f * 0.05, 0.05);
    for (const e of alive) {
      let tr = turn.get(e.id);
      if (tr === undefined || e.spawn === f) {
        tr = { axis: randomQuat(rand), step: STEPS[e.id % STEPS.length] };
        turn.set(e.id, tr);
        e.x = rand() * 100;
        e.y = rand() * 100;
        e.z = rand() * 10;
      }
      const age = f - e.spawn;
      e.q = axisAngle(tr.axis[0], tr.axis[1], tr.axis[2] + 0.1, tr.axis[3] * 6 + tr.step * age);
      if (tr.step !== 0) {
        e.x += 0.5 + (e.id % 5) * 0.1;
        e.y += ((e.id % 7) - 3) * 0.4;
        e.z += (e.id % 3) * 0.25;
      }
      e.flags = (f + e.id) % 5 === 0 ? EntityFlags.DAMAGED : 0;
    }
    // Re-sorted by y every frame, as a 2D game sorts for depth.
    alive.sort((a, b) => a.y - b.y);
    const frame: Entry[] = [];
    for (const e of alive) {
      rec.entity(e.id, e.x, e.y, e.z, ...e.q, e.flags);
      if (f === bonesAt && e.id % 4 === 0) rec.bones(e.id, 1, axisAngle(1, 0, 0, 0.3), [1, 2, 3]);
      frame.push({ ...e, q: [...e.q] });
    }
    rec.endFrame();
    frames.push(frame);
  }
  return frames;
}

/** The stored rotation of `q` (32-bit code), decoded as the sampler decodes it (float32 components). */
function stored(q: readonly number[]): Float32Array {
  const out = new Float32Array(4);
  decodeQuat(encodeQuat(q[0], q[1], q[2], q[3]), out, 0);
  return out;
}

/** Textbook shortest-path slerp in doubles (acos and sin), renormalised. */
function slerpReference(a: Float32Array, b: Float32Array, t: number): number[] {
  let cos = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  const sign = cos < 0 ? -1 : 1;
  cos = Math.min(1, Math.abs(cos));
  const theta = Math.acos(cos);
  let s0 = 1 - t;
  let s1 = t;
  if (theta > 1e-9) {
    s0 = Math.sin((1 - t) * theta) / Math.sin(theta);
    s1 = Math.sin(t * theta) / Math.sin(theta);
  }
  const r = [0, 1, 2, 3].map((i) => s0 * a[i] + s1 * sign * b[i]);
  const n = Math.hypot(...r);
  return r.map((v) => v / n);
}

/** Checks every row of `out` (sampled at `fa + t`) against the reference built from the input. */
function checkSample(out: SampleBuffer, frames: Entry[][], fa: number, t: number): { still: number } {
  const a = frames[fa];
  const b = t === 0 ? a : frames[fa + 1];
  const key = (e: Entry): string => `${e.id}@${e.spawn}`;
  const inB = new Map(b.map((e) => [key(e), e]));
  const inA = new Set(a.map(key));
  const expected: { e: Entry; other: Entry | undefined; presence: number }[] = [];
  for (const e of a) expected.push({ e, other: t === 0 ? e : inB.get(key(e)), presence: 0 });
  if (t !== 0)
    for (const e of b) if (!inA.has(key(e))) expected.push({ e, other: undefined, presence: Presence.ONLY_B });
  expect(out.count).toBe(expected.length);
  let still = 0;
  for (let k = 0; k < expected.length; k++) {
    const { e, other } = expected[k];
    const where = `row ${k} (id ${e.id}) at ${fa + t}`;
    const presence =
      t === 0 ? Presence.BOTH : k >= a.length ? Presence.ONLY_B : other ? Presence.BOTH : Presence.ONLY_A;
    expect([out.ids[k], out.spawnFrames[k], out.presence[k]], where).toEqual([e.id, e.spawn, presence]);
    const pos = [out.positions[k * 3], out.positions[k * 3 + 1], out.positions[k * 3 + 2]];
    const rot = out.rotations.subarray(k * 4, k * 4 + 4);
    if (presence !== Presence.BOTH || t === 0) {
      expect(pos, where).toEqual([Math.fround(e.x), Math.fround(e.y), Math.fround(e.z)]);
      expect([...rot], where).toEqual([...stored(e.q)]);
      expect(out.flags[k], where).toBe(e.flags);
      continue;
    }
    const o = other as Entry;
    const pa = [e.x, e.y, e.z].map(Math.fround);
    const pb = [o.x, o.y, o.z].map(Math.fround);
    for (let c = 0; c < 3; c++) expect(Math.abs(pos[c] - (pa[c] + (pb[c] - pa[c]) * t)), where).toBeLessThan(2e-5);
    expect(out.flags[k], where).toBe(t >= 0.5 ? o.flags : e.flags);
    const qa = stored(e.q);
    const qb = stored(o.q);
    if (qa.every((v, i) => v === qb[i])) {
      // A still entity: its stored rotation, to the bit (nothing blended).
      expect([...rot], where).toEqual([...qa]);
      still++;
      continue;
    }
    const ref = slerpReference(qa, qb, t);
    for (let c = 0; c < 4; c++) expect(Math.abs(rot[c] - ref[c]), `${where}, component ${c}`).toBeLessThan(2.5e-7);
  }
  return { still };
}

describe('Sampler, a seek against a reference (re-sorted, churning, sparse ids)', () => {
  it('gives every row of both frames, in order, with ids, spawn frames, presence, flags, positions and rotations', () => {
    const rec = quietRecorder({ maxEntityId: ID_SPACE });
    const frames = recordWorld(rec, 5);
    const rand = rng(9);
    let still = 0;
    let seeks = 0;
    for (let n = 0; n < 60; n++) {
      const fa = Math.floor(rand() * (FRAMES - 1));
      const t = n % 10 === 9 ? 0 : [0.05, 0.3, 0.5, 0.7, 0.95][n % 5] + (rand() - 0.5) * 0.04;
      const s = new Sampler(rec.reader);
      const out = new SampleBuffer();
      expect(s.sample(fa + t, out)).toBe(true);
      if (t !== 0) {
        expect(s.decodeCount, 'a seek is read from the ring').toBe(0);
        seeks++;
      }
      still += checkSample(out, frames, fa, t).still;
      // The next sample at the pair decodes both frames: the same check holds.
      expect(s.sample(fa + t, out)).toBe(true);
      checkSample(out, frames, fa, t);
    }
    expect(seeks).toBeGreaterThan(40);
    expect(still).toBeGreaterThan(100);
  });

  it('a seek from one sampler into one buffer, pair after pair, leaves nothing of the previous rows', () => {
    const rec = quietRecorder({ maxEntityId: ID_SPACE });
    const frames = recordWorld(rec, 6);
    const s = new Sampler(rec.reader);
    const out = new SampleBuffer();
    // Far-apart pairs (each a seek), then neighbours, back and forth.
    for (const p of [30.4, 3.6, 20.5, 21.5, 2.2, 35.9, 35.1, 10.75, 0.5, 38.5]) {
      expect(s.sample(p, out)).toBe(true);
      const fa = Math.floor(p);
      checkSample(out, frames, fa, p - fa);
    }
  });

  it('a pair with bones in one frame takes the decoding path and matches the reference too', () => {
    const rec = quietRecorder({ maxEntityId: ID_SPACE });
    const frames = recordWorld(rec, 7, 12);
    for (const p of [11.5, 12.5, 13.5]) {
      const s = new Sampler(rec.reader);
      const out = new SampleBuffer();
      expect(s.sample(p, out)).toBe(true);
      expect(s.decodeCount, `at ${p}`).toBe(p === 13.5 ? 0 : 2);
      expect(out.boneTotal > 0, `at ${p}`).toBe(p !== 13.5);
      checkSample(out, frames, Math.floor(p), 0.5);
    }
  });

  it('a seek into a buffer that held bones leaves no bone slot, and grows a fresh buffer past the rows of A', () => {
    const rec = quietRecorder({ maxEntityId: ID_SPACE });
    const frames = recordWorld(rec, 8, 12);
    const s = new Sampler(rec.reader);
    const out = new SampleBuffer();
    expect(s.sample(11.5, out)).toBe(true); // bones in frame 12: decoded, rows with bone slots
    expect(out.boneTotal).toBeGreaterThan(0);
    expect([...out.boneStart.subarray(0, out.count)].some((b) => b >= 0)).toBe(true);
    for (const p of [30.5, 20.25]) {
      expect(s.sample(p, out)).toBe(true);
      expect(s.decodeCount, `a seek to ${p} is read from the ring`).toBe(2);
      checkSample(out, frames, Math.floor(p), p - Math.floor(p));
      expect(out.boneTotal).toBe(0);
      expect([...out.boneStart.subarray(0, out.count)]).toEqual(new Array(out.count).fill(-1));
      expect([...out.boneCount.subarray(0, out.count)]).toEqual(new Array(out.count).fill(0));
    }
    // A buffer with no room yet: the seek makes room for A's rows, then for B's newcomers after them.
    const fresh = new SampleBuffer();
    const s2 = new Sampler(rec.reader);
    expect(s2.sample(25.5, fresh)).toBe(true);
    expect(s2.decodeCount).toBe(0);
    expect(fresh.count).toBeGreaterThan(frames[25].length);
    checkSample(fresh, frames, 25, 0.5);
  });
});

describe('Sampler, the lives a seek keeps (ids and spawn frames by handle)', () => {
  /** Records `frames` frames of `n` entities whose ids start at `base` and change every `life` frames. */
  function recordLives(rec: Recorder, from: number, frames: number, n: number, life: number, base: number): void {
    for (let f = from; f < from + frames; f++) {
      rec.beginFrame(f * 0.1, 0.1);
      const gen = Math.floor(f / life);
      for (let i = 0; i < n; i++) rec.entity(base + gen * 1000 + i, i, f, 0, ...axisAngle(0, 0, 1, 0.1 * f + i), 0);
      rec.endFrame();
    }
  }

  /** The ids the world gave frame `f`'s entities, in order (see `recordLives`). */
  const idsAt = (f: number, n: number, life: number, base: number): number[] =>
    Array.from({ length: n }, (_, i) => base + Math.floor(f / life) * 1000 + i);

  it('a handle given to a new life after the old one left the ring shows the new id and spawn frame', () => {
    const rec = quietRecorder({ maxFrames: 12 });
    const n = 20;
    const life = 4;
    recordLives(rec, 0, 12, n, life, 0);
    const s = new Sampler(rec.reader);
    const out = new SampleBuffer();
    // Seeks over every pair held: every handle's life is kept.
    for (let f = 0; f < 11; f++) {
      expect(s.sample(f + 0.5, out)).toBe(true);
      expect([...out.ids.subarray(0, n)]).toEqual(idsAt(f, n, life, 0));
    }
    const handles = new Set(out.handles.subarray(0, out.count));
    // Three rings later, every old life has left and its handle serves a new one.
    recordLives(rec, 12, 36, n, life, 0);
    let reused = 0;
    for (let f = 36; f < 47; f++) {
      expect(s.sample(f + 0.5, out)).toBe(true);
      expect(s.decodeCount, 'read from the ring').toBe(0);
      const lifeStart = Math.floor(f / life) * life;
      expect([...out.ids.subarray(0, n)], `at ${f + 0.5}`).toEqual(idsAt(f, n, life, 0));
      expect([...out.spawnFrames.subarray(0, n)], `at ${f + 0.5}`).toEqual(new Array(n).fill(lifeStart));
      for (let k = 0; k < out.count; k++) if (handles.has(out.handles[k])) reused++;
    }
    expect(reused, 'handles of the first lives were given to new ones').toBeGreaterThan(0);
  });

  it('after clear(), a new recording in the same recorder shows its own ids', () => {
    const rec = quietRecorder({ maxFrames: 30 });
    recordLives(rec, 0, 10, 8, 100, 0);
    const s = new Sampler(rec.reader);
    const out = new SampleBuffer();
    for (let f = 0; f < 9; f++) s.sample(f + 0.5, out);
    rec.clear();
    recordLives(rec, 10, 10, 8, 100, 500);
    for (let f = 10; f < 19; f++) {
      expect(s.sample(f + 0.5, out)).toBe(true);
      expect([...out.ids.subarray(0, out.count)], `at ${f + 0.5}`).toEqual(idsAt(f, 8, 100, 500));
      expect([...out.spawnFrames.subarray(0, out.count)]).toEqual(new Array(8).fill(10));
    }
  });
});
