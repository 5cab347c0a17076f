/**
 * slerp.ts called directly: the series coefficients against the weights they expand
 * (sin(tθ) / sin θ and sin((1 − t)θ) / sin θ), both branches of `slerpWithCoefficients` next to
 * their boundary, the short way round, renormalisation and the array offsets. The playback slerp
 * tests compare whole interpolations with a reference within 2e-6; these cases pin the pieces, so
 * that a mutant fails here. Comments name the mutants (Stryker's notation) a case kills.
 */
import { describe, expect, it } from 'vitest';
import {
  SLERP_COEF_LENGTH,
  SLERP_SERIES_MIN_COS,
  SLERP_SERIES_TERMS,
  SLERP_T,
  slerpCoefficients,
  slerpInto,
  slerpWithCoefficients,
} from '../slerp';
import { axisAngle } from '../../../../tests/helpers/rotations';

/** The weight sin(tθ) / sin θ with x = cos θ (t itself at θ = 0). */
function weight(t: number, x: number): number {
  const theta = Math.acos(x);
  return theta === 0 ? t : Math.sin(t * theta) / Math.sin(theta);
}

describe('slerp coefficients', () => {
  it('are the documented layout: 10 terms for t, 10 for 1 − t, then t', () => {
    expect([SLERP_SERIES_TERMS, SLERP_T, SLERP_COEF_LENGTH, SLERP_SERIES_MIN_COS]).toEqual([10, 20, 21, 0.5]);
  });

  it('expand both weights: Σ b_k (x − 1)^k is sin(tθ) / sin θ over the series range', () => {
    // Every term of the recurrence: t·t − k·k, k·(2k + 1), bt and bu each, the two halves' indices.
    const coef = new Float64Array(SLERP_COEF_LENGTH);
    for (const t of [0.1, 0.3, 0.5, 0.77, 0.95]) {
      coef.fill(0);
      coef[SLERP_T] = t;
      slerpCoefficients(coef);
      expect(coef[0]).toBe(t);
      expect(coef[SLERP_SERIES_TERMS]).toBe(1 - t);
      expect(coef[SLERP_T]).toBe(t);
      for (const x of [1, 0.99, 0.9, 0.75, 0.6, 0.5]) {
        let st = 0;
        let su = 0;
        for (let k = SLERP_SERIES_TERMS - 1; k >= 0; k--) {
          st = st * (x - 1) + coef[k];
          su = su * (x - 1) + coef[SLERP_SERIES_TERMS + k];
        }
        expect(Math.abs(st - weight(t, x))).toBeLessThan(2e-7);
        expect(Math.abs(su - weight(1 - t, x))).toBeLessThan(2e-7);
      }
      // The first terms by hand: b1 = t (t² − 1) / 3, b2 = b1 (t² − 4) / 10.
      const b1 = (t * (t * t - 1)) / 3;
      expect(coef[1]).toBeCloseTo(b1, 15);
      expect(coef[2]).toBeCloseTo((b1 * (t * t - 4)) / 10, 15);
      const u = 1 - t;
      expect(coef[SLERP_SERIES_TERMS + 1]).toBeCloseTo((u * (u * u - 1)) / 3, 15);
    }
  });
});

describe('slerpWithCoefficients', () => {
  const coef = new Float64Array(SLERP_COEF_LENGTH);
  const at = (t: number): Float64Array => {
    coef[SLERP_T] = t;
    slerpCoefficients(coef);
    return coef;
  };

  /** The rotation t of the way from angle a0 to a1 about one axis, as the exact answer. */
  function about(axis: number[], angle: number): number[] {
    return axisAngle(axis[0], axis[1], axis[2], angle);
  }

  it('interpolates about one axis exactly, on both sides of the series boundary, at offsets', () => {
    // cos >= 0.5 → > / true / false (series vs trigonometry; each is exact only on its side),
    // the index offsets ai + 1..3, bi + 1..3, oi + 1..3, and s0 / s1 of both branches.
    const axis = [0.48, -0.6, 0.64];
    const a = new Float64Array(6);
    const b = new Float64Array(7);
    const out = new Float64Array(9).fill(5);
    // Rotations 2θ apart: cos θ from 0.999 down to 0.02, either side of the series boundary (θ = 60°).
    for (const halfAngle of [0.04, 0.9, Math.PI / 3 - 1e-9, Math.PI / 3 + 1e-9, 1.3, 1.55]) {
      a.set(about(axis, 0.2), 1);
      b.set(about(axis, 0.2 + 2 * halfAngle), 3);
      for (const t of [0, 0.25, 0.5, 0.9, 1]) {
        slerpWithCoefficients(at(t), a, 1, b, 3, out, 4);
        const want = about(axis, 0.2 + 2 * halfAngle * t);
        for (let i = 0; i < 4; i++) expect(out[4 + i]).toBeCloseTo(want[i], 6);
        expect(Array.from(out.subarray(0, 4))).toEqual([5, 5, 5, 5]);
        expect(out[8]).toBe(5);
      }
    }
  });

  it('goes the short way round: b given as −b gives the same blend', () => {
    // cos < 0 → <= / false; each negation of x1..w1; cos = −cos.
    const a = about([0, 0.6, 0.8], 0.3);
    const b = about([0, 0.6, 0.8], 1.5);
    const nb = b.map((v) => -v);
    const p = new Float64Array(4);
    const q = new Float64Array(4);
    for (const t of [0.2, 0.5, 0.8]) {
      slerpWithCoefficients(at(t), a, 0, b, 0, p, 0);
      slerpWithCoefficients(at(t), a, 0, nb, 0, q, 0);
      for (let i = 0; i < 4; i++) expect(q[i]).toBeCloseTo(p[i], 12);
      const want = about([0, 0.6, 0.8], 0.3 + 1.2 * t);
      for (let i = 0; i < 4; i++) expect(p[i]).toBeCloseTo(want[i], 7);
    }
    // Far apart and negated (the trigonometric branch after the flip).
    const c = about([1, 0, 0], 0.1);
    const d = about([1, 0, 0], 2.9).map((v) => -v);
    slerpWithCoefficients(at(0.5), c, 0, d, 0, p, 0);
    const mid = about([1, 0, 0], 1.5);
    for (let i = 0; i < 4; i++) expect(p[i]).toBeCloseTo(mid[i], 7);
  });

  it('at exactly 90° apart (cos θ = 0) keeps b as given: no flip', () => {
    // cos < 0 → <= 0: at 0 both ways are equally short; the blend goes towards b, not −b.
    const a = [0, 0, 0, 1];
    const b = [0, 0, 1, 0];
    const out = new Float64Array(4);
    slerpWithCoefficients(at(0.5), a, 0, b, 0, out, 0);
    expect(out[2]).toBeCloseTo(Math.SQRT1_2, 12);
    expect(out[3]).toBeCloseTo(Math.SQRT1_2, 12);
  });

  it('renormalises: scaled inputs give a unit result in the same direction', () => {
    // nrm = 1 / sqrt(...) → * sqrt, a term of the sum dropped or negated.
    const a = about([0, 0, 1], 0.4).map((v) => v * 1.01);
    const b = about([0, 0, 1], 0.9).map((v) => v * 1.01);
    const out = new Float64Array(4);
    slerpWithCoefficients(at(0.5), a, 0, b, 0, out, 0);
    expect(Math.hypot(out[0], out[1], out[2], out[3])).toBeCloseTo(1, 12);
    const want = about([0, 0, 1], 0.65);
    for (let i = 0; i < 4; i++) expect(out[i]).toBeCloseTo(want[i], 3);
    // All four components non-zero, so that each term of the norm counts.
    const e = about([0.5, 0.5, Math.SQRT1_2], 0.7).map((v) => v * 0.97);
    const f = about([0.5, 0.5, Math.SQRT1_2], 1.1).map((v) => v * 0.97);
    slerpWithCoefficients(at(0.3), e, 0, f, 0, out, 0);
    const g = about([0.5, 0.5, Math.SQRT1_2], 0.82);
    for (let i = 0; i < 4; i++) expect(out[i]).toBeCloseTo(g[i], 3);
  });

  it('slerpInto takes t as an argument and matches the coefficient route', () => {
    const a = about([0.6, 0, 0.8], 0.5);
    const b = about([0.6, 0, 0.8], 2.9);
    const p = new Float64Array(4);
    const q = new Float32Array(6);
    for (const t of [0, 0.3, 1]) {
      slerpWithCoefficients(at(t), a, 0, b, 0, p, 0);
      slerpInto(a, 0, b, 0, t, q, 2);
      for (let i = 0; i < 4; i++) expect(q[2 + i]).toBeCloseTo(p[i], 6);
      const want = about([0.6, 0, 0.8], 0.5 + 2.4 * t);
      for (let i = 0; i < 4; i++) expect(p[i]).toBeCloseTo(want[i], 6);
    }
  });
});
