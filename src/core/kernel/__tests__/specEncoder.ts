/**
 * The quaternion encoder written literally from its definition (docs: encodeQuatColumns in
 * src/core/math/quat.ts, the kernel contract), one float32 operation at a time with arrays and
 * loops: slow, obviously faithful, and independent of both implementations under test.
 */
const f = Math.fround;
const SCALE = f(1022 / Math.SQRT2);
const INV_SCALE = f(Math.SQRT2 / 1022);
const OTHERS = [[1, 2, 3], [0, 2, 3], [0, 1, 3], [0, 1, 2]];
export const SPEC_IDENTITY = (3 << 30) | (511 << 20) | (511 << 10) | 511;

/** What `specEncode` saw (when traced): the three other components a, b, c, their t, and each candidate's E. */
export interface SpecTrace {
  v: number[];
  t: number[];
  e: number[];
}

/** Variations of `specEncode`, for tests that must show what a rule changes. */
export interface SpecOptions {
  /** Plain nearest rounding: skip the error-optimised choice. */
  nearestOnly?: boolean;
  /** Normalise always by one Newton step, or always by 1/√n2, instead of choosing by n2. */
  normalise?: 'newton' | 'exact';
  /** Receives a, b, c, their t values and the candidates' errors. */
  trace?: SpecTrace;
}

/** Encodes (x, y, z, w) by the definition (or a variation of it, see `SpecOptions`). */
export function specEncode(x: number, y: number, z: number, w: number, options: SpecOptions = {}): number {
  const { nearestOnly = false, normalise, trace } = options;
  const q = [f(x), f(y), f(z), f(w)];
  const n2 = f(f(f(f(q[0] * q[0]) + f(q[1] * q[1])) + f(q[2] * q[2])) + f(q[3] * q[3]));
  if (trace) {
    trace.v.length = 0;
    trace.t.length = 0;
    trace.e.length = 0;
  }
  if (!(n2 > f(1e-20) && n2 < f(1e20))) return SPEC_IDENTITY;
  const newton = normalise === undefined ? n2 > f(0.999) && n2 < f(1.001) : normalise === 'newton';
  const inv = newton ? f(1.5 - f(0.5 * n2)) : f(1 / f(Math.sqrt(n2)));
  let n = q.map((v) => f(v * inv));
  const abs = n.map(Math.abs);
  const g01 = abs[1] > abs[0];
  const m01 = g01 ? abs[1] : abs[0];
  const g23 = abs[3] > abs[2];
  const m23 = g23 ? abs[3] : abs[2];
  const idx = m23 > m01 ? 2 + (g23 ? 1 : 0) : g01 ? 1 : 0;
  if (n[idx] < 0) n = n.map((v) => -v);
  const l = Math.abs(n[idx]);
  const v = OTHERS[idx].map((j) => n[j]);
  trace?.v.push(...v);
  const near: number[] = [];
  const alt: number[] = [];
  for (const a of v) {
    const t = f(f(a * SCALE) + 511);
    trace?.t.push(t);
    const k = Math.trunc(f(t + 0.5));
    near.push(k);
    alt.push(Math.min(1022, Math.max(0, k > t ? k - 1 : k + 1)));
  }
  const candidates = [near.slice()];
  if (!nearestOnly) {
    for (let j = 0; j < 3; j++) {
      const k = near.slice();
      k[j] = alt[j];
      candidates.push(k);
    }
  }
  let best = Infinity;
  let chosen = near;
  for (const k of candidates) {
    const d = k.map((kk) => f((kk - 511) * INV_SCALE));
    const r = f(f(f(1 - f(d[0] * d[0])) - f(d[1] * d[1])) - f(d[2] * d[2]));
    const dl = r > 0 ? f(Math.sqrt(r)) : 0;
    const sq = (p: number, o: number): number => {
      const e = f(p - o);
      return f(e * e);
    };
    const e = f(f(f(sq(d[0], v[0]) + sq(d[1], v[1])) + sq(d[2], v[2])) + sq(dl, l));
    trace?.e.push(e);
    if (e < best) {
      best = e;
      chosen = k;
    }
  }
  return (idx << 30) | (chosen[0] << 20) | (chosen[1] << 10) | chosen[2];
}
