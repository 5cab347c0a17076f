import { describe, expect, it } from 'vitest';
import { decodeQuat, encodeQuat } from '../../math/quat';
import { slerpInto } from '../../math/slerp';
import { Sampler } from '../Sampler';
import { SampleBuffer } from '../SampleBuffer';
import { rng } from '../../../../tests/helpers/random';
import { referenceSlerp as benchReferenceSlerp } from '../../../../bench/lib/referenceSample';
import { axisAngle, qmul, randomQuat, rotationDistance } from '../../../../tests/helpers/rotations';
import { quietRecorder } from './helpers';

/** The bench's reference slerp (an independent route: axis and angle of the relative rotation), as a tuple. */
function referenceSlerp(a: ArrayLike<number>, b: ArrayLike<number>, t: number): Float64Array {
  const out = new Float64Array(4);
  benchReferenceSlerp(a, b, t, out, 0);
  return out;
}

/** Decoded value of a quaternion after the recorder's 32-bit quantisation. */
function quantized(q: ArrayLike<number>): Float64Array {
  const out = new Float64Array(4);
  decodeQuat(encodeQuat(q[0], q[1], q[2], q[3]), out, 0);
  return out;
}

type Pair = { a: number[]; b: number[] };

function pairs(): Pair[] {
  const rand = rng(42);
  const out: Pair[] = [];
  // Random pairs (any angle, so both the series and the trigonometric branch run).
  for (let i = 0; i < 400; i++) out.push({ a: randomQuat(rand), b: randomQuat(rand) });
  // Small frame-to-frame rotations, the common case.
  for (let i = 0; i < 200; i++) {
    const a = randomQuat(rand);
    out.push({ a, b: qmul(a, axisAngle(rand() - 0.5, rand() - 0.5, rand() - 0.5, rand() * 0.5)) });
  }
  // q and -q (the same rotation; the blend must not spin).
  for (let i = 0; i < 50; i++) {
    const a = randomQuat(rand);
    out.push({ a, b: a.map((v) => -v) });
  }
  // -q of a nearby rotation: the shortest path is the short way round.
  for (let i = 0; i < 50; i++) {
    const a = randomQuat(rand);
    const b = qmul(a, axisAngle(rand() - 0.5, rand() - 0.5, rand() - 0.5, 0.3));
    out.push({ a, b: b.map((v) => -v) });
  }
  // Nearly equal quaternions.
  for (let i = 0; i < 100; i++) {
    const a = randomQuat(rand);
    out.push({ a, b: qmul(a, axisAngle(rand() - 0.5, rand() - 0.5, rand() - 0.5, 1e-5 + rand() * 1e-3)) });
  }
  return out;
}

const TS = [0, 0.1, 0.25, 0.5, 0.75, 0.9, 0.999];

describe('slerp', () => {
  it('reference implementation is sound (endpoints, constant angular speed)', () => {
    const a = axisAngle(0, 0, 1, 0.2);
    const b = axisAngle(0, 0, 1, 1.4);
    expect(rotationDistance(referenceSlerp(a, b, 0), 0, a, 0)).toBeLessThan(1e-12);
    expect(rotationDistance(referenceSlerp(a, b, 1), 0, b, 0)).toBeLessThan(1e-12);
    expect(rotationDistance(referenceSlerp(a, b, 0.25), 0, axisAngle(0, 0, 1, 0.5), 0)).toBeLessThan(1e-12);
  });

  it('slerpInto matches the reference on random pairs, q/-q and nearly equal quaternions', () => {
    const out = new Float64Array(4);
    let worst = 0;
    for (const { a, b } of pairs()) {
      for (const t of TS) {
        slerpInto(a, 0, b, 0, t, out, 0);
        worst = Math.max(worst, rotationDistance(out, 0, referenceSlerp(a, b, t), 0));
      }
    }
    expect(worst).toBeLessThan(2e-6);
  });

  it('the sampler blends recorded rotations like the reference, within quantisation error', () => {
    const ps = pairs();
    const rec = quietRecorder({ maxEntitiesPerFrame: ps.length });
    rec.beginFrame(0, 1 / 60);
    ps.forEach((p, i) => rec.entity(i, 0, 0, 0, p.a[0], p.a[1], p.a[2], p.a[3]));
    rec.endFrame();
    rec.beginFrame(1 / 60, 1 / 60);
    ps.forEach((p, i) => rec.entity(i, 0, 0, 0, p.b[0], p.b[1], p.b[2], p.b[3]));
    rec.endFrame();
    const sampler = new Sampler(rec.reader);
    const out = new SampleBuffer();
    let worstDecoded = 0;
    let worstVsOriginal = 0;
    let checked = 0;
    for (const t of TS) {
      expect(sampler.sample(t, out)).toBe(true);
      expect(out.count).toBe(ps.length);
      ps.forEach((p, i) => {
        const k = out.indexOfHandle(rec.entities.lookup(i));
        const qa = quantized(p.a);
        const qb = quantized(p.b);
        // Against the reference on exactly what was stored: only float32 rounding apart.
        worstDecoded = Math.max(worstDecoded, rotationDistance(out.rotations, k * 4, referenceSlerp(qa, qb, t), 0));
        // Unit length.
        const n = Math.hypot(
          out.rotations[k * 4],
          out.rotations[k * 4 + 1],
          out.rotations[k * 4 + 2],
          out.rotations[k * 4 + 3],
        );
        expect(Math.abs(n - 1)).toBeLessThan(1e-5);
        // Against the reference on the original rotations: within the endpoints' quantisation error.
        // Pairs almost 180° apart (|cos| < 0.02) are skipped: there quantisation can flip which way is shortest.
        const cos = Math.abs(p.a[0] * p.b[0] + p.a[1] * p.b[1] + p.a[2] * p.b[2] + p.a[3] * p.b[3]);
        if (cos < 0.02) return;
        const quantErr = Math.max(rotationDistance(qa, 0, p.a, 0), rotationDistance(qb, 0, p.b, 0));
        const err = rotationDistance(out.rotations, k * 4, referenceSlerp(p.a, p.b, t), 0);
        worstVsOriginal = Math.max(worstVsOriginal, err - 2 * quantErr);
        expect(err).toBeLessThanOrEqual(2 * quantErr + 1e-5);
        checked++;
      });
    }
    expect(worstDecoded).toBeLessThan(2e-6);
    expect(checked).toBeGreaterThan(ps.length * TS.length * 0.9);
    // The blend adds no error of its own beyond the endpoints' quantization.
    expect(worstVsOriginal).toBeLessThan(1e-5);
  });

  it("the sampler's inlined entity slerp agrees with slerpWithCoefficients (its bones)", () => {
    // Each entity's one bone carries the entity's own rotations, so in one sample the rotation comes
    // from the loop's hand-inlined copy and the bone from math/slerp.ts, on the same stored values.
    const ps = pairs();
    const rec = quietRecorder({ maxEntitiesPerFrame: ps.length, maxBoneWordsPerFrame: ps.length * 8 });
    const offsets = [0, 0, 0];
    for (const [f, key] of [
      [0, 'a'],
      [1, 'b'],
    ] as const) {
      rec.beginFrame(f, 1);
      ps.forEach((p, i) => {
        const q = p[key];
        rec.entity(i, 0, 0, 0, q[0], q[1], q[2], q[3]);
        rec.bones(i, 1, q, offsets);
      });
      rec.endFrame();
    }
    const sampler = new Sampler(rec.reader);
    const out = new SampleBuffer();
    let worst = 0;
    for (const t of TS) {
      expect(sampler.sample(t, out)).toBe(true);
      for (let k = 0; k < out.count; k++) {
        expect(out.boneCount[k]).toBe(1);
        worst = Math.max(worst, rotationDistance(out.rotations, k * 4, out.boneRotations, out.boneStart[k] * 4));
      }
    }
    expect(worst).toBeLessThan(1e-6);
  });

  it('a q/-q pair does not spin: every blend is the same rotation', () => {
    const rec = quietRecorder();
    const q = axisAngle(1, 2, 3, 2.5);
    rec.beginFrame(0, 1);
    rec.entity(1, 0, 0, 0, q[0], q[1], q[2], q[3]);
    rec.endFrame();
    rec.beginFrame(1, 1);
    rec.entity(1, 0, 0, 0, -q[0], -q[1], -q[2], -q[3]);
    rec.endFrame();
    const sampler = new Sampler(rec.reader);
    const out = new SampleBuffer();
    for (const t of [0.01, 0.3, 0.5, 0.7, 0.99]) {
      sampler.sample(t, out);
      expect(rotationDistance(out.rotations, 0, q, 0)).toBeLessThan(0.003);
    }
  });
});
