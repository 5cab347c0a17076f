import { describe, expect, it } from 'vitest';
import { EntityFlags } from '../../format/layout';
import { EntityBuffer, FrameHeader } from '../../read/buffers';
import type { FrameReader } from '../../read/FrameReader';
import { Sampler } from '../Sampler';
import { Presence, SampleBuffer } from '../SampleBuffer';
import { TimeControl } from '../TimeControl';
import { rng } from '../../../../tests/helpers/random';
import { axisAngle } from '../../../../tests/helpers/rotations';
import { quietRecorder } from './helpers';
import type { Recorder } from '../../record/Recorder';

/**
 * The sampler against a plain reference: every field of every row, at whole and fractional
 * positions, scrubbing forwards, backwards and at random (so every path through the frame cache is
 * taken), blended and concrete, with and without a teleport threshold. The world moves in x, y and z,
 * turns by small and large angles (both slerp paths, and the shortest-path sign flip), has entities
 * that leave and return, bones whose count changes or that come and go, a camera that is sometimes
 * missing or teleports, flags and over-budget bits that change.
 */

const N = 24;
const FRAMES = 14;
const THRESHOLD = 50;
/** Rotations: float32 storage of weights exact to float32 precision, against the textbook formula in doubles. */
const ROT_TOL = 2.5e-7;

function bonesOf(i: number, f: number): number {
  if (i % 3 !== 0) return 0;
  if (i === 6 && f % 2 === 0) return 0; // bones come and go
  if (i === 3 && f % 4 === 1) return 1; // the count changes
  return 2 + (i % 2);
}

/** Records the world, `frames` frames from frame `first` (times not evenly spaced). */
function recordWorld(rec: Recorder, frames = FRAMES, seed = 3): void {
  const rand = rng(seed);
  rec.channels.setBudget(0, 1);
  let time = 2;
  for (let f = 0; f < frames; f++) {
    time += 0.01 + 0.02 * (f % 3);
    rec.beginFrame(time, 0.01 + 0.02 * (f % 3));
    if (f % 5 !== 4) {
      const q = axisAngle(0, 1, 0.3, 0.4 * f);
      rec.camera(10 * f + (f >= 7 ? 1000 : 0), -3 * f, 2 + f, q[0], q[1], q[2], q[3], 1 + 0.1 * f);
    }
    if (f % 2 === 0) {
      rec.draw.point(0, 0, 0, 0, 1, 0xffffff);
      rec.draw.point(0, 1, 1, 1, 1, 0xffffff); // over the budget of 1
    }
    for (let i = 0; i < N; i++) {
      if ((i + f) % 7 === 0) continue; // absent: the next appearance is a new life
      const step = [0.05, 0.3, 1.2, 1.9, 2.5, 3.6][i % 6]; // radians per frame: series (near and far from 1), trig and sign-flip paths
      const q = axisAngle(1 + (i % 3), i % 2, 0.5 + rand(), 0.1 * i + step * f);
      const tele = i % 6 === 1 && f % 4 === 2 ? 500 : 0;
      const flags = (f + i) % 3 === 0 ? EntityFlags.DAMAGED : i % 4 === 1 ? EntityFlags.HIGHLIGHTED : 0;
      rec.entity(
        i,
        i * 3 + f * 1.1 * (i % 4) + tele,
        -i + f * 0.7,
        (i % 5) * 2 + f * (0.3 + 0.1 * i),
        q[0],
        q[1],
        q[2],
        q[3],
        flags,
      );
      const nb = bonesOf(i, f);
      if (nb > 0) {
        const rots: number[] = [];
        const offs: number[] = [];
        for (let j = 0; j < nb; j++) {
          rots.push(
            ...axisAngle(j === 1 ? 1 : 0, j === 2 ? 1 : 0, j === 0 ? 1 : 0, 0.2 * j + (0.15 + 0.5 * j) * f + 0.01 * i),
          );
          offs.push(j + 0.5 * i, 10 + j + f * 0.5, f * 0.25 * (j + 1));
        }
        rec.bones(i, nb, rots, offs);
      }
    }
    rec.endFrame();
  }
}

/** Slerp along the shortest path, in doubles, by the textbook formula. */
function slerp(a: ArrayLike<number>, ia: number, b: ArrayLike<number>, ib: number, t: number): number[] {
  let cos = a[ia] * b[ib] + a[ia + 1] * b[ib + 1] + a[ia + 2] * b[ib + 2] + a[ia + 3] * b[ib + 3];
  const sign = cos < 0 ? -1 : 1;
  cos *= sign;
  const theta = Math.acos(Math.min(1, cos));
  if (theta < 1e-9) return [a[ia], a[ia + 1], a[ia + 2], a[ia + 3]];
  const s0 = Math.sin((1 - t) * theta) / Math.sin(theta);
  const s1 = (Math.sin(t * theta) / Math.sin(theta)) * sign;
  return [0, 1, 2, 3].map((c) => s0 * a[ia + c] + s1 * b[ib + c]);
}

interface Row {
  handle: number;
  presence: number;
  pos: number[];
  rot: number[];
  flags: number;
  /** null: no bone slots in this row. */
  boneRots: number[] | null;
  boneOffs: number[] | null;
}

interface Expected {
  frameA: number;
  frameB: number;
  t: number;
  time: number;
  overBudget: number;
  camera: number[] | null;
  rows: Row[];
}

function bonesIn(e: EntityBuffer, i: number): [number[], number[]] {
  const s = e.boneStart[i];
  const c = s >= 0 ? e.boneCount[i] : 0;
  return [
    Array.from(e.boneRotations.subarray(s * 4, (s + c) * 4)),
    Array.from(e.boneOffsets.subarray(s * 3, (s + c) * 3)),
  ];
}

function copyRow(e: EntityBuffer, i: number, presence: number, slots: boolean): Row {
  const [br, bo] = bonesIn(e, i);
  return {
    handle: e.handles[i],
    presence,
    pos: Array.from(e.positions.subarray(i * 3, i * 3 + 3)),
    rot: Array.from(e.rotations.subarray(i * 4, i * 4 + 4)),
    flags: e.flags[i],
    boneRots: slots ? br : null,
    boneOffs: slots ? bo : null,
  };
}

/** What sampling `position` must give, from the frames as `FrameReader` decodes them. */
function expected(reader: FrameReader, position: number, concrete: boolean, threshold: number): Expected {
  const p = Math.min(Math.max(position, reader.oldestFrame), reader.newestFrame);
  let fa = Math.floor(p);
  let t = p - fa;
  if (concrete) {
    fa = Math.round(p);
    t = 0;
  }
  const fb = t > 0 ? fa + 1 : fa;
  const ha = new FrameHeader();
  const hb = new FrameHeader();
  const a = new EntityBuffer();
  const b = new EntityBuffer();
  reader.readHeader(fa, ha);
  reader.readHeader(fb, hb);
  reader.readEntities(fa, a);
  reader.readEntities(fb, b);
  const nearB = t >= 0.5;
  const far2 = threshold * threshold;
  const dist2 = (x: ArrayLike<number>, i: number, y: ArrayLike<number>, j: number): number =>
    (x[i] - y[j]) ** 2 + (x[i + 1] - y[j + 1]) ** 2 + (x[i + 2] - y[j + 2]) ** 2;

  let camera: number[] | null = null;
  if (ha.hasCamera || hb.hasCamera) {
    const ca = ha.camera;
    const cb = hb.camera;
    if (!ha.hasCamera || !hb.hasCamera || fa === fb) camera = Array.from(ha.hasCamera ? ca : cb);
    else if (dist2(ca, 0, cb, 0) > far2) camera = Array.from(nearB ? cb : ca);
    else
      camera = [0, 1, 2]
        .map((c) => ca[c] + (cb[c] - ca[c]) * t)
        .concat(slerp(ca, 3, cb, 3, t), [ca[7] + (cb[7] - ca[7]) * t]);
  }

  const rows: Row[] = [];
  const inB = new Map<number, number>();
  if (fa !== fb) for (let i = 0; i < b.count; i++) inB.set(b.handles[i], i);
  for (let ia = 0; ia < a.count; ia++) {
    const ib = inB.get(a.handles[ia]);
    if (fa === fb) {
      rows.push(copyRow(a, ia, Presence.BOTH, a.boneStart[ia] >= 0));
      continue;
    }
    if (ib === undefined) {
      rows.push(copyRow(a, ia, Presence.ONLY_A, a.boneStart[ia] >= 0));
      continue;
    }
    inB.delete(a.handles[ia]);
    const slots = a.boneStart[ia] >= 0 || b.boneStart[ib] >= 0;
    if (dist2(a.positions, ia * 3, b.positions, ib * 3) > far2) {
      rows.push(copyRow(nearB ? b : a, nearB ? ib : ia, Presence.BOTH, slots));
      continue;
    }
    const [ra, oa] = bonesIn(a, ia);
    const [rb, ob] = bonesIn(b, ib);
    let boneRots: number[] | null = null;
    let boneOffs: number[] | null = null;
    if (slots && ra.length === rb.length) {
      boneRots = [];
      for (let j = 0; j < ra.length; j += 4) boneRots.push(...slerp(ra, j, rb, j, t));
      boneOffs = oa.map((x, j) => x + (ob[j] - x) * t);
    } else if (slots) {
      const useB = rb.length > 0 && (nearB || ra.length === 0);
      boneRots = useB ? rb : ra;
      boneOffs = useB ? ob : oa;
    }
    rows.push({
      handle: a.handles[ia],
      presence: Presence.BOTH,
      pos: [0, 1, 2].map((c) => a.positions[ia * 3 + c] + (b.positions[ib * 3 + c] - a.positions[ia * 3 + c]) * t),
      rot: slerp(a.rotations, ia * 4, b.rotations, ib * 4, t),
      flags: nearB ? b.flags[ib] : a.flags[ia],
      boneRots,
      boneOffs,
    });
  }
  for (const ib of inB.values()) rows.push(copyRow(b, ib, Presence.ONLY_B, b.boneStart[ib] >= 0));
  return {
    frameA: fa,
    frameB: fb,
    t,
    time: ha.time + (hb.time - ha.time) * t,
    overBudget: nearB ? hb.overBudget : ha.overBudget,
    camera,
    rows,
  };
}

/** Every difference between the sample and the reference, as readable lines (empty: equal). */
function differences(reader: FrameReader, out: SampleBuffer, want: Expected): string[] {
  const bad: string[] = [];
  const near = (what: string, got: number, exp: number, tol: number): void => {
    if (!(Math.abs(got - exp) <= tol)) bad.push(`${what}: ${got} != ${exp}`);
  };
  const same = (what: string, got: unknown, exp: unknown): void => {
    if (got !== exp) bad.push(`${what}: ${String(got)} != ${String(exp)}`);
  };
  same('frameA', out.frameA, want.frameA);
  same('frameB', out.frameB, want.frameB);
  near('t', out.t, want.t, 1e-12);
  near('time', out.time, want.time, 1e-9);
  same('overBudget', out.overBudget, want.overBudget);
  same('hasCamera', out.hasCamera, want.camera !== null);
  if (want.camera)
    for (let c = 0; c < 8; c++) near(`camera[${c}]`, out.camera[c], want.camera[c], c >= 3 && c < 7 ? ROT_TOL : 1e-3);
  same('count', out.count, want.rows.length);
  let slot = 0;
  for (let k = 0; k < Math.min(out.count, want.rows.length); k++) {
    const w = want.rows[k];
    const h = w.handle;
    same(`row ${k} handle`, out.handles[k], h);
    same(`row ${k} id`, out.ids[k], reader.entities.ids[h]);
    same(`row ${k} spawn`, out.spawnFrames[k], reader.entities.spawnFrames[h]);
    same(`row ${k} presence`, out.presence[k], w.presence);
    same(`row ${k} indexOfHandle`, out.indexOfHandle(h), k);
    same(`row ${k} flags`, out.flags[k], w.flags);
    for (let c = 0; c < 3; c++) near(`row ${k} pos[${c}]`, out.positions[k * 3 + c], w.pos[c], 1e-3);
    for (let c = 0; c < 4; c++) near(`row ${k} rot[${c}]`, out.rotations[k * 4 + c], w.rot[c], ROT_TOL);
    if (w.boneRots === null || w.boneOffs === null) {
      same(`row ${k} boneStart`, out.boneStart[k], -1);
      same(`row ${k} boneCount`, out.boneCount[k], 0);
      continue;
    }
    // Bone slots: consecutive, in row order, as many as the larger of the two frames holds.
    same(`row ${k} boneStart`, out.boneStart[k], slot);
    same(`row ${k} boneCount`, out.boneCount[k], w.boneOffs.length / 3);
    const s = out.boneStart[k];
    for (let j = 0; j < w.boneRots.length; j++)
      near(`row ${k} boneRot[${j}]`, out.boneRotations[s * 4 + j], w.boneRots[j], ROT_TOL);
    for (let j = 0; j < w.boneOffs.length; j++)
      near(`row ${k} boneOff[${j}]`, out.boneOffsets[s * 3 + j], w.boneOffs[j], 1e-4);
    slot += reservedBones(reader, want, h);
  }
  same('boneTotal', out.boneTotal, slot);
  return bad;
}

/** Bone slots the sampler reserves for a row: the larger count of the two frames. */
function reservedBones(reader: FrameReader, want: Expected, handle: number): number {
  let most = 0;
  const e = new EntityBuffer();
  for (const f of want.frameA === want.frameB ? [want.frameA] : [want.frameA, want.frameB]) {
    reader.readEntities(f, e);
    for (let i = 0; i < e.count; i++)
      if (e.handles[i] === handle && e.boneStart[i] >= 0) most = Math.max(most, e.boneCount[i]);
  }
  return most;
}

function positionsToVisit(order: 'forward' | 'backward' | 'random', first: number, last: number): number[] {
  const ps: number[] = [first - 3];
  for (let f = first; f <= last; f++) for (const d of [0, 0.25, 0.5, 0.75]) ps.push(f + d);
  ps.push(last + 5);
  if (order === 'backward') ps.reverse();
  if (order === 'random') {
    const rand = rng(17);
    for (let i = ps.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [ps[i], ps[j]] = [ps[j], ps[i]];
    }
  }
  return ps;
}

describe('Sampler against a reference', () => {
  const rec = quietRecorder();
  recordWorld(rec);

  it('the world takes every path: z motion, teleports, bones at whole frames, both slerp paths, cameras missing', () => {
    // The checks below mean something only if the data holds these cases.
    const a = new EntityBuffer();
    const b = new EntityBuffer();
    let z = 0,
      tele = 0,
      bonesChange = 0,
      trig = 0,
      flip = 0;
    for (let f = 0; f < FRAMES - 1; f++) {
      rec.reader.readEntities(f, a);
      rec.reader.readEntities(f + 1, b);
      for (let i = 0; i < a.count; i++) {
        const j = Array.from(b.handles.subarray(0, b.count)).indexOf(a.handles[i]);
        if (j < 0) continue;
        if (a.positions[i * 3 + 2] !== b.positions[j * 3 + 2]) z++;
        if (Math.abs(a.positions[i * 3] - b.positions[j * 3]) > THRESHOLD) tele++;
        if ((a.boneStart[i] >= 0 ? a.boneCount[i] : 0) !== (b.boneStart[j] >= 0 ? b.boneCount[j] : 0)) bonesChange++;
        let cos = 0;
        for (let c = 0; c < 4; c++) cos += a.rotations[i * 4 + c] * b.rotations[j * 4 + c];
        if (cos < 0) flip++;
        if (Math.abs(cos) < 0.5) trig++;
      }
    }
    expect(Math.min(z, tele, bonesChange, trig, flip)).toBeGreaterThan(3);
  });

  for (const concrete of [false, true]) {
    for (const threshold of [THRESHOLD, Number.POSITIVE_INFINITY]) {
      for (const order of ['forward', 'backward', 'random'] as const) {
        it(`matches the reference field for field (${concrete ? 'concrete' : 'blended'}, threshold ${threshold}, scrubbing ${order})`, () => {
          const s = new Sampler(rec.reader, { concrete, teleportThreshold: threshold });
          const out = new SampleBuffer();
          for (const p of positionsToVisit(order, rec.reader.oldestFrame, rec.reader.newestFrame)) {
            expect(s.sample(p, out)).toBe(true);
            const bad = differences(rec.reader, out, expected(rec.reader, p, concrete, threshold));
            expect(bad.slice(0, 5), `at ${p}`).toEqual([]);
          }
        });
      }
    }
  }

  it('two samplers writing into one buffer, in turns, each get their own rows', () => {
    const s1 = new Sampler(rec.reader);
    const s2 = new Sampler(rec.reader, { concrete: true });
    const out = new SampleBuffer();
    for (const [s, p, concrete] of [
      [s1, 2.25, false],
      [s2, 5.75, true],
      [s1, 2.25, false],
      [s2, 5.75, true],
      [s1, 9, false],
    ] as const) {
      s.sample(p, out);
      expect(differences(rec.reader, out, expected(rec.reader, p, concrete, Number.POSITIVE_INFINITY))).toEqual([]);
    }
  });

  it('sampleTime samples where the TimeControl is', () => {
    const s = new Sampler(rec.reader, { teleportThreshold: THRESHOLD });
    const tc = new TimeControl(rec.reader);
    const out = new SampleBuffer();
    for (const p of [0, 3.3, 7.5, 12.9]) {
      tc.seek(p);
      expect(s.sampleTime(tc, out)).toBe(true);
      expect(differences(rec.reader, out, expected(rec.reader, p, false, THRESHOLD))).toEqual([]);
    }
  });

  // clear() keeps counting frames: the frames recorded since have new numbers, at the offsets and times
  // the cached frames had; position 1 is clamped to the oldest of them.
  it('after clear, the frames recorded since are sampled, not the cached ones at the same offsets or times', () => {
    const r = quietRecorder();
    const s = new Sampler(r.reader);
    const out = new SampleBuffer();
    const frames = (times: number[], entitiesInFirst: number, x: number): void => {
      r.clear();
      for (let f = 0; f < times.length; f++) {
        r.beginFrame(times[f], 1);
        for (let i = 0; i < (f === 0 ? entitiesInFirst : 2); i++) r.entity(i, x + i, f, 0, 0, 0, 0, 1);
        r.endFrame();
      }
    };
    frames([0, 1], 2, 0);
    s.sample(1, out);
    frames([0, 1], 5, 100); // the second frame at another offset than the cached one, same time
    expect([r.reader.oldestFrame, r.reader.newestFrame]).toEqual([2, 3]);
    s.sample(1, out);
    expect(differences(r.reader, out, expected(r.reader, 1, false, Infinity))).toEqual([]);
    frames([0, 2], 5, 200); // the second frame at the same offset, another time
    expect([r.reader.oldestFrame, r.reader.newestFrame]).toEqual([4, 5]);
    s.sample(1, out);
    expect(differences(r.reader, out, expected(r.reader, 1, false, Infinity))).toEqual([]);
  });
});
