/**
 * The quaternion encoder written literally from its definition (docs: encodeQuatColumns in
 * src/core/math/quat.ts, the kernel contract), one float32 operation at a time with arrays and
 * loops: slow, obviously faithful, and independent of both implementations under test.
 */
const f = Math.fround;
const SCALE = f(1022 / Math.SQRT2);
const OTHERS = [
  [1, 2, 3],
  [0, 2, 3],
  [0, 1, 3],
  [0, 1, 2],
];
export const SPEC_IDENTITY = (3 << 30) | (511 << 20) | (511 << 10) | 511;

/**
 * What `specEncode` saw (when traced): the three other components a, b, c, their t, each
 * candidate's score in `e` (C0: 0, then the float32 D of C1 .. C3), and l.
 */
export interface SpecTrace {
  v: number[];
  t: number[];
  e: number[];
  l?: number;
}

/** Variations of `specEncode`, for tests that must show what a rule changes. */
export interface SpecOptions {
  /** Plain nearest rounding: skip the error-optimised choice. */
  nearestOnly?: boolean;
  /** Normalise always by one Newton step, or always by 1/√n2, instead of choosing by n2. */
  normalise?: 'newton' | 'exact';
  /** Receives a, b, c, their t values and the candidates' scores (0, D1, D2, D3). */
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
  if (trace) trace.l = l;
  const t: number[] = [];
  const near: number[] = [];
  const alt: number[] = [];
  for (const a of v) {
    const tj = f(f(a * SCALE) + 511);
    trace?.t.push(tj);
    t.push(tj);
    const k = Math.trunc(f(tj + 0.5));
    near.push(k);
    alt.push(Math.min(1022, Math.max(0, k > tj ? k - 1 : k + 1)));
  }
  // First-order choice: D_j = (L2 + a_j²) + 2·(s_j·((L2·e_j) + (S·a_j))), the change of the score
  // F = L2·Σe² + (Σ v·e)² when component j moves to alt (s_j = ±1, its direction before the clamp).
  const l2 = f(l * l);
  const e = near.map((k, j) => f(k - t[j]));
  const s = f(f(f(v[0] * e[0]) + f(v[1] * e[1])) + f(v[2] * e[2]));
  trace?.e.push(0);
  let best = 0;
  const chosen = near.slice();
  let pick = -1;
  for (let j = 0; j < 3 && !nearestOnly; j++) {
    const sj = near[j] > t[j] ? -1 : 1;
    const d = f(f(l2 + f(v[j] * v[j])) + f(2 * f(sj * f(f(l2 * e[j]) + f(s * v[j])))));
    trace?.e.push(d);
    if (d < best) {
      best = d;
      pick = j;
    }
  }
  if (pick >= 0) chosen[pick] = alt[pick];
  return (idx << 30) | (chosen[0] << 20) | (chosen[1] << 10) | chosen[2];
}

/**
 * The candidate that step 5 picks when its scores are computed in doubles instead (from a traced
 * `specEncode`): where it differs from the float32 choice, float32 rounding decides the code.
 */
export function doubleChoice(trace: SpecTrace): number {
  const l2 = (trace.l ?? 0) ** 2;
  const v = trace.v;
  const near = trace.t.map((t) => Math.trunc(f(t + 0.5)));
  const e = trace.t.map((t, j) => near[j] - t);
  const sum = v[0] * e[0] + v[1] * e[1] + v[2] * e[2];
  let best = 0;
  let pick = 0;
  for (let j = 0; j < 3; j++) {
    const s = near[j] > trace.t[j] ? -1 : 1;
    const d = l2 + v[j] * v[j] + 2 * s * (l2 * e[j] + sum * v[j]);
    if (d < best) {
      best = d;
      pick = j + 1;
    }
  }
  return pick;
}

/** The candidate (0 .. 3) that a traced `specEncode` picked. */
export function floatChoice(trace: SpecTrace): number {
  let pick = 0;
  for (let c = 1; c < 4; c++) if (trace.e[c] < trace.e[pick]) pick = c;
  return pick;
}

/**
 * Rotations where float32 rounding decides which candidate wins: two of a, b, c are one float32
 * step apart and share t and s, so moving either to alt scores almost the same (the scores differ
 * by (a − b)·(a + b + 2·s·S), a few float32 steps of D), and scoring in doubles picks the other
 * one. The pair sits near a half code (so moving it is attractive) and, by a random permutation,
 * at any two of the three positions.
 */
export function float32Decides(r: () => number, count: number): number[][] {
  const out: number[][] = [];
  const f32 = new Float32Array(1);
  const i32 = new Int32Array(f32.buffer);
  const trace: SpecTrace = { v: [], t: [], e: [] };
  for (let attempt = 0; out.length < count; attempt++) {
    if (attempt > 1000 * count) throw new Error(`only ${out.length} rotations found where float32 decides`);
    const k = Math.round((0.25 + r() * 0.2) * SCALE) * (r() < 0.5 ? -1 : 1);
    f32[0] = (k + 0.5 + (r() - 0.5) * 0.4) / SCALE;
    const a = f32[0];
    i32[0] += r() < 0.5 ? 1 : -1;
    const b = f32[0];
    const c = f((r() - 0.5) * 0.6);
    const w = f(Math.sqrt(Math.max(0, 1 - a * a - b * b - c * c)));
    if (w <= Math.max(Math.abs(a), Math.abs(b), Math.abs(c))) continue;
    const sign = r() < 0.5 ? -1 : 1;
    const q = [a * sign, b * sign, c * (r() < 0.5 ? -1 : 1), w * sign];
    const perm = [0, 1, 2, 3];
    for (let i = 3; i > 0; i--) {
      const j = Math.floor(r() * (i + 1));
      [perm[i], perm[j]] = [perm[j], perm[i]];
    }
    const p = perm.map((j) => q[j]);
    specEncode(p[0], p[1], p[2], p[3], { trace });
    if (doubleChoice(trace) !== floatChoice(trace)) out.push(p);
  }
  return out;
}
