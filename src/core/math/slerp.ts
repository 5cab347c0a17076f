/**
 * Shortest-path spherical interpolation (slerp) of unit quaternions, with the weights
 * sin(tθ)/sin θ and sin((1 - t)θ)/sin θ evaluated as polynomials in cos θ whose coefficients depend
 * on t only: a sample computes them once (`slerpCoefficients`) for all of its entities, and each
 * slerp is then two polynomial evaluations instead of an `acos` and two `sin`s.
 *
 * The sampler's entity loop (`playback/Sampler.ts`, `blend`) carries a hand-inlined copy of
 * `slerpWithCoefficients` (Estrin form, no renormalisation); `playback/__tests__/slerp.test.ts`
 * checks that both agree.
 */

/** Series terms: the weight error is below 1.2e-7 (float32 precision) for |cos θ| >= `SLERP_SERIES_MIN_COS`. */
export const SLERP_SERIES_TERMS = 10;
/**
 * Weights come from the series when |cos θ| (θ: the half-angle between the two rotations) is at
 * least this, i.e. for rotations up to 120° apart; from trigonometry beyond.
 */
export const SLERP_SERIES_MIN_COS = 0.5;
/** Index of the blend factor t in a coefficient array. */
export const SLERP_T = 2 * SLERP_SERIES_TERMS;
/**
 * Length of a coefficient array: `SLERP_SERIES_TERMS` coefficients for weight t, as many for
 * 1 - t, then t itself at `SLERP_T`. The blend factor travels in the array rather than as an
 * argument: a double passed to a call the engine does not inline is boxed, and the sample path
 * must not allocate.
 */
export const SLERP_COEF_LENGTH = 2 * SLERP_SERIES_TERMS + 1;

/**
 * Fills `coef` for the blend factor at `coef[SLERP_T]`. With x = cos θ, the slerp weight
 * f(x) = sin(tθ) / sin θ solves (1 - x²) f'' - 3x f' + (t² - 1) f = 0 (a Chebyshev-U equation);
 * expanding f = Σ b_k (x - 1)^k gives b_0 = t and b_k = b_{k-1} (t² - k²) / (k (2k + 1)).
 *
 * @example
 * const coef = new Float64Array(SLERP_COEF_LENGTH);
 * coef[SLERP_T] = 0.25;
 * slerpCoefficients(coef);
 * for (let i = 0; i < n; i++) slerpWithCoefficients(coef, a, i * 4, b, i * 4, out, i * 4);
 */
export function slerpCoefficients(coef: Float64Array): void {
  const t = coef[SLERP_T];
  const u = 1 - t;
  let bt = t;
  let bu = u;
  coef[0] = bt;
  coef[SLERP_SERIES_TERMS] = bu;
  for (let k = 1; k < SLERP_SERIES_TERMS; k++) {
    const d = k * (2 * k + 1);
    bt = (bt * (t * t - k * k)) / d;
    bu = (bu * (u * u - k * k)) / d;
    coef[k] = bt;
    coef[SLERP_SERIES_TERMS + k] = bu;
  }
}

/**
 * Shortest-path slerp of the quaternions at `a[ai]` and `b[bi]` by the blend in `coef` (filled by
 * `slerpCoefficients`), renormalised, written to `out[oi]`. q and -q are the same rotation: the
 * blend goes the short way round and never spins.
 */
export function slerpWithCoefficients(
  coef: Float64Array,
  a: ArrayLike<number>,
  ai: number,
  b: ArrayLike<number>,
  bi: number,
  out: Float32Array | Float64Array,
  oi: number,
): void {
  const t = coef[SLERP_T];
  const x0 = a[ai],
    y0 = a[ai + 1],
    z0 = a[ai + 2],
    w0 = a[ai + 3];
  let x1 = b[bi],
    y1 = b[bi + 1],
    z1 = b[bi + 2],
    w1 = b[bi + 3];
  let cos = x0 * x1 + y0 * y1 + z0 * z1 + w0 * w1;
  if (cos < 0) {
    cos = -cos;
    x1 = -x1;
    y1 = -y1;
    z1 = -z1;
    w1 = -w1;
  }
  let s0: number;
  let s1: number;
  if (cos >= SLERP_SERIES_MIN_COS) {
    // Horner's scheme in y = cos θ - 1.
    const y = cos - 1;
    s1 = coef[SLERP_SERIES_TERMS - 1];
    s0 = coef[2 * SLERP_SERIES_TERMS - 1];
    for (let k = SLERP_SERIES_TERMS - 2; k >= 0; k--) {
      s1 = s1 * y + coef[k];
      s0 = s0 * y + coef[SLERP_SERIES_TERMS + k];
    }
  } else {
    const theta = Math.acos(cos > 1 ? 1 : cos);
    const inv = 1 / Math.sin(theta);
    s0 = Math.sin((1 - t) * theta) * inv;
    s1 = Math.sin(t * theta) * inv;
  }
  const x = s0 * x0 + s1 * x1;
  const y = s0 * y0 + s1 * y1;
  const z = s0 * z0 + s1 * z1;
  const w = s0 * w0 + s1 * w1;
  const nrm = 1 / Math.sqrt(x * x + y * y + z * z + w * w);
  out[oi] = x * nrm;
  out[oi + 1] = y * nrm;
  out[oi + 2] = z * nrm;
  out[oi + 3] = w * nrm;
}

const oneOff = new Float64Array(SLERP_COEF_LENGTH);

/**
 * Shortest-path slerp of the unit quaternions at `a[ai]` and `b[bi]` by `t`, written to `out[oi]`:
 * one interpolation (it computes the coefficients every call; for many at one `t`, use
 * `slerpCoefficients` once and `slerpWithCoefficients`).
 *
 * @example
 * const out = new Float32Array(4);
 * slerpInto(qa, 0, qb, 0, 0.5, out, 0);
 */
export function slerpInto(
  a: ArrayLike<number>,
  ai: number,
  b: ArrayLike<number>,
  bi: number,
  t: number,
  out: Float32Array | Float64Array,
  oi: number,
): void {
  oneOff[SLERP_T] = t;
  slerpCoefficients(oneOff);
  slerpWithCoefficients(oneOff, a, ai, b, bi, out, oi);
}
