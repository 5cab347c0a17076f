/**
 * Smallest-three quaternion compression into 32 bits: a 2-bit index of the largest component, then
 * the three others quantized to 10 bits each over [-1/√2, 1/√2]. The largest component is rebuilt
 * as `sqrt(1 - a² - b² - c²)`; q and -q are the same rotation, so the largest is stored positive.
 *
 * The encoder is defined in float32 arithmetic (see `encodeQuatColumns`), so that the WebAssembly
 * SIMD kernel (src/core/kernel) produces the same bits. It does not simply round each component to
 * the nearest code: of four candidates (all nearest, or one component moved to its other
 * neighbouring code) it keeps the one with the smallest first-order estimate of the decoding error,
 * which counts the error that the three rounded components put into the rebuilt largest one (no
 * square root, no decoding). Worst case measured (hill climbing): 0.1586°, near (±½, ±½, ±½, ±½)
 * and near (1/√2, 1/√2, 0, 0); uniform random rotations stay under 0.153° (10M samples). Nearest
 * rounding alone reached 0.274°. See the tests.
 *
 * Size: over 450 lines, 180 of them the encoder's definition and its error bound; the definition,
 * its proof and every path that must give the same bits (scalar, columns, exact ties) stay together.
 */

const INV_SQRT2 = Math.SQRT1_2;
/** 1022 steps (not 1023) so that 0 is exactly representable: 2D rotations keep x = y = 0. */
const STEPS = 1022;
const MID = 511;
const MASK10 = 1023;
const SCALE = STEPS / (2 * INV_SQRT2);
const INV_SCALE = (2 * INV_SQRT2) / STEPS;

/**
 * The encoder's float32 constants. The hot loop of `encodeQuatColumns` repeats them as literals
 * (optimised code embeds literals, but reloads and checks module constants on every use):
 * SCALE_F = 722.6631469726562, NORM2_MIN_F = 9.999999682655225e-21, NORM2_MAX_F = 100000002004087730000,
 * NEAR_ONE_LO_F = 0.9990000128746033, NEAR_ONE_HI_F = 1.0010000467300415.
 */
const SCALE_F = Math.fround(SCALE);
/** A quaternion encodes when its float32 squared norm lies strictly between these (float32 1e-20, 1e20). */
const NORM2_MIN_F = Math.fround(1e-20);
const NORM2_MAX_F = Math.fround(1e20);

/** The three "other" component indices for each largest-component index. */
const OTHERS = new Uint8Array([1, 2, 3, 0, 2, 3, 0, 1, 3, 0, 1, 2]);
/** The normalised quaternion as float32, and the same bits as int32 (for branch-free compares). */
const normF32 = new Float32Array(4);
const normI32 = new Int32Array(normF32.buffer);
/** The identity (w largest, the others 0). */
const IDENTITY = (3 << 30) | (MID << 20) | (MID << 10) | MID;

/** Entities per block of `encodeQuatColumns`, and the block's idx (−1: invalid) and a, b, c, l. */
const BLOCK = 128;
const blockIdx = new Int32Array(BLOCK);
const blockAbcl = new Float64Array(BLOCK * 4);
/** The block's t (float32 values) for a, b, c, at the same stride as `blockAbcl`. */
const blockT = new Float64Array(BLOCK * 4);

/** Outcome of `encodeQuat` on the last call: whether the input had to be repaired. */
export const quatStatus = { sanitized: false };

/** One-entity columns for `encodeQuat` / `encodeQuatAt`, and its one-word output. */
const oneIn = new Float32Array(4);
const oneX = new Float32Array(oneIn.buffer, 0, 1);
const oneY = new Float32Array(oneIn.buffer, 4, 1);
const oneZ = new Float32Array(oneIn.buffer, 8, 1);
const oneW = new Float32Array(oneIn.buffer, 12, 1);
const oneOut = new Int32Array(1);

/**
 * Encodes a rotation (x, y, z, w) as 32 bits, returned as a signed int32 (store it in a typed
 * array). The input need not be normalised; a zero, NaN, infinite or huge quaternion (float32
 * squared norm outside (1e-20, 1e20)) encodes the identity and sets `quatStatus.sanitized`.
 *
 * @example
 * const bits = encodeQuat(0, 0, Math.sin(0.5), Math.cos(0.5));
 * const out = new Float32Array(4);
 * decodeQuat(bits, out, 0); // ≈ [0, 0, 0.479, 0.878]
 */
export function encodeQuat(x: number, y: number, z: number, w: number): number {
  oneIn[0] = x;
  oneIn[1] = y;
  oneIn[2] = z;
  oneIn[3] = w;
  quatStatus.sanitized = encodeQuatColumns(oneX, oneY, oneZ, oneW, 1, oneOut, 0) !== 0;
  return oneOut[0];
}

/**
 * `encodeQuat` reading x, y, z, w from `src[offset..offset+3]`. Hot paths use this form: passing an
 * array and an index never boxes a double at a call boundary, so it allocates nothing even when V8
 * does not inline it.
 *
 * @example
 * const q = new Float64Array([0, 0, Math.sin(0.5), Math.cos(0.5)]);
 * const bits = encodeQuatAt(q, 0); // the same as encodeQuat(q[0], q[1], q[2], q[3])
 */
export function encodeQuatAt(src: ArrayLike<number>, offset: number): number {
  oneIn[0] = src[offset];
  oneIn[1] = src[offset + 1];
  oneIn[2] = src[offset + 2];
  oneIn[3] = src[offset + 3];
  quatStatus.sanitized = encodeQuatColumns(oneX, oneY, oneZ, oneW, 1, oneOut, 0) !== 0;
  return oneOut[0];
}

/**
 * Encodes `n` rotations stored as columns (`qx[i]`, `qy[i]`, `qz[i]`, `qw[i]` for i in [0, n)) into
 * `out[outIndex .. outIndex + n)`, and returns how many were invalid (the identity was written for
 * them). This is the reference encoder: `encodeQuat` and the JavaScript backend of the entity kernel
 * run it, and the WebAssembly kernel (src/core/kernel/entityKernel.wat) computes the same bits. It
 * allocates nothing and does not touch `quatStatus`. The caller guarantees that the ranges are in
 * bounds.
 *
 * The definition, every operation in float32 (no fused multiply-add), sums left to right:
 * 1. n2 = ((x² + y²) + z²) + w²; valid when 1e-20 < n2 < 1e20, otherwise the identity.
 * 2. n = q · (n2 within 1e-3 of 1 ? 1.5 − 0.5·n2 (one Newton step) : 1 / √n2).
 * 3. idx = index of the largest |n_i| (ties → lowest index); if n[idx] < 0 negate all four;
 *    l = |n[idx]|, a, b, c = the others in increasing index order.
 * 4. For each of a, b, c: t = a·SCALE + 511, near = trunc(t + 0.5), alt = the other neighbour of t
 *    (near − 1 when near > t, else near + 1; s = alt − near = ±1, taken before the clamp), clamped
 *    to [0, 1022] when chosen; the code-unit error e = near − t (exact in float32).
 * 5. With L2 = l·l and S = (a·ea + b·eb) + c·ec, for j = a, b, c:
 *    D_j = (L2 + a_j·a_j) + 2·(s_j·((L2·e_j) + (S·a_j))), each operation rounded in that order
 *    (× by s_j and by 2 are exact). Candidate C0 keeps all three at near; C_j moves component j to
 *    alt. The smallest D_j below 0 (strictly) wins, ties → the earlier j; none below 0 → C0.
 * Why D: a decoded component differs from the input by e·INV_SCALE and the rebuilt largest one by
 * about −S·INV_SCALE / l, so the squared error of the decoded quaternion is about
 * INV_SCALE²·F / l² with F = L2·Σe² + S². Moving j to alt turns e_j into g_j = e_j + s_j, so
 * F_j − F0 = L2·(g_j² − e_j²) + (S + a_j·s_j)² − S² = (L2 + a_j²) + 2·s_j·(L2·e_j + S·a_j) = D_j
 * (s_j² = 1): D ranks the candidates without a square root, and C0 scores 0.
 *
 * Steps 1–3 run in float32 (`Math.fround` after each operation: a double `+ − × ÷ √` of float32
 * operands rounded to float32 is what float32 hardware computes), and so does t. Then
 * near = floor(t + 0.5) in doubles is the float32 one, and e is exact in both: t ≥ 1 is a
 * multiple of 2^-23, and below 1, t = float32(a·SCALE) + 511 exactly, a multiple of 2^-15 (so
 * float32 t + 0.5 is exact too; above 1 its rounding, past a power of two, cannot cross an integer).
 * Step 5 would need some 25 more roundings, so a fast path computes the D_j in doubles and keeps
 * its choice when the winner beats every other candidate (C0's 0 included) by more than 1.9e-6:
 * more than twice what float32 rounding can move a D. With u = 2^-24 and, after normalisation,
 * l² ≥ ¼, so a² + b² + c² ≤ ¾, |a_j| ≤ 0.7072, |e| ≤ ½, Σe² ≤ ¾, |S| ≤ √(¾·¾) = ¾ and
 * |S·a_j| ≤ 0.531, the float32 values err by at most: L2 u; L2 + a² 2.6u (≤ 1.000001);
 * S γ₃·Σ|a·e| ≤ 2.26u; L2·e 1.01u; S·a 0.7072·2.26u + 0.531u ≤ 2.14u; P = L2·e + S·a 4.2u (|P| ≤ 1.032);
 * 2·s·P 8.4u; D 2.6u + 8.4u + 3.08u < 14.1u = 8.4e-7 (|D| ≤ 3.07). Two D's thus
 * move by less than 28.2u = 1.68e-6 against each other (the doubles err by under 1e-14), and
 * float32 picks the same winner. Otherwise (exact ties, and about 1 in 200,000 uniform random
 * rotations) `roundExact` decides in float32.
 * The clamp of alt never takes effect: alt leaves [0, 1022] only when t < 0 or t ≥ 1022, that is
 * |a| ≥ 0.7071067; then l ≥ |a| and l² ≤ 1.000002 − a², so l and |a| lie within 2e-6 of 1/√2,
 * the other two below 0.0015, |e| < 0.001 and |S| < 0.0023, and that candidate's
 * D ≥ 0.99999 − 2·(0.5·0.001 + 0.0023·0.7072) > 0.99: it never wins. The fast path leaves the clamp
 * out.
 * Tests compare every path with a literal float32 implementation of the definition.
 *
 * @example
 * const qx = new Float32Array([0]), qy = new Float32Array([0]);
 * const qz = new Float32Array([Math.sin(0.5)]), qw = new Float32Array([Math.cos(0.5)]);
 * const out = new Int32Array(1);
 * const invalid = encodeQuatColumns(qx, qy, qz, qw, 1, out, 0); // 0; out[0] === encodeQuat(0, 0, qz[0], qw[0])
 */
export function encodeQuatColumns(
  qx: Float32Array,
  qy: Float32Array,
  qz: Float32Array,
  qw: Float32Array,
  n: number,
  out: Int32Array,
  outIndex: number,
): number {
  // Two passes per block: short loop bodies let the processor overlap several entities, which
  // hides the latency of the long float32 dependency chains.
  let invalid = 0;
  for (let start = 0; start < n; start += BLOCK) {
    const m = n - start < BLOCK ? n - start : BLOCK;
    invalid += normaliseBlock(qx, qy, qz, qw, start, m);
    roundBlock(m, out, outIndex + start);
  }
  return invalid;
}

/**
 * Steps 1–3 for entities [start, start + m): idx (−1 when invalid) into `blockIdx`, and a, b, c, l
 * into `blockAbcl`. Returns how many are invalid.
 */
function normaliseBlock(
  qx: Float32Array,
  qy: Float32Array,
  qz: Float32Array,
  qw: Float32Array,
  start: number,
  m: number,
): number {
  const fr = Math.fround;
  const nf = normF32,
    nb = normI32,
    ids = blockIdx,
    abcl = blockAbcl;
  let invalid = 0;
  for (let j = 0; j < m; j++) {
    const i = start + j;
    const x = qx[i],
      y = qy[i],
      z = qz[i],
      w = qw[i];
    const n2 = fr(fr(fr(fr(x * x) + fr(y * y)) + fr(z * z)) + fr(w * w));
    if (!(n2 > NORM2_MIN_F && n2 < NORM2_MAX_F)) {
      ids[j] = -1;
      invalid++;
      continue;
    }
    // Games pass unit quaternions: within float32 0.999 .. 1.001 one Newton step is exact to ~4e-7,
    // far below the quantization step (1.4e-3), and saves a square root and a division. 0.5·n2 is exact.
    const inv = n2 > 0.9990000128746033 && n2 < 1.0010000467300415 ? fr(1.5 - 0.5 * n2) : fr(1 / fr(Math.sqrt(n2)));
    // The float32 stores round x·inv etc.; their bits as int32, sign cleared, order like |values|.
    // No branch depends on the data: which component is largest and the signs change at random
    // from one entity to the next, and mispredicted branches would cost more than the arithmetic.
    nf[0] = x * inv;
    nf[1] = y * inv;
    nf[2] = z * inv;
    nf[3] = w * inv;
    const bx = nb[0] & 0x7fffffff,
      by = nb[1] & 0x7fffffff,
      bz = nb[2] & 0x7fffffff,
      bw = nb[3] & 0x7fffffff;
    let d = bx - by;
    const m01 = bx - (d & (d >> 31)); // max(|x|, |y|)
    const g01 = d >>> 31; // 1 when |y| > |x|
    d = bz - bw;
    const m23 = bz - (d & (d >> 31));
    const g23 = d >>> 31;
    const high = (m01 - m23) >>> 31; // 1 when max(|z|, |w|) > max(|x|, |y|)
    const idx = g01 + high * (2 + g23 - g01);
    // q and -q are the same rotation: negate all when the largest is negative (exact).
    const sign = 1 - 2 * (nb[idx] >>> 31);
    const k = j * 4;
    ids[j] = idx;
    // The others in increasing index order (OTHERS): a = idx 0 ? y : x, b = idx ≥ 2 ? y : z,
    // c = idx 3 ? z : w.
    abcl[k] = nf[((idx + 3) >> 2) ^ 1] * sign;
    abcl[k + 1] = nf[2 - (idx >> 1)] * sign;
    abcl[k + 2] = nf[3 - ((idx >> 1) & idx)] * sign;
    abcl[k + 3] = Math.abs(nf[idx]);
  }
  return invalid;
}

/** Steps 4–5 for the `m` entities of `blockIdx` / `blockAbcl`, codes into `out[at ..]`. */
function roundBlock(m: number, out: Int32Array, at: number): void {
  const fr = Math.fround;
  const ids = blockIdx,
    abcl = blockAbcl,
    tt = blockT;
  // t in float32 (a·SCALE is exact in doubles, so each fround is one float32 operation). A pass of
  // its own: short loop bodies let the processor overlap several entities.
  for (let j = 0; j < m; j++) {
    const k4 = j * 4;
    tt[k4] = fr(fr(abcl[k4] * 722.6631469726562) + 511);
    tt[k4 + 1] = fr(fr(abcl[k4 + 1] * 722.6631469726562) + 511);
    tt[k4 + 2] = fr(fr(abcl[k4 + 2] * 722.6631469726562) + 511);
  }
  for (let j = 0; j < m; j++) {
    const idx = ids[j];
    if (idx < 0) {
      out[at + j] = IDENTITY;
      continue;
    }
    const k4 = j * 4;
    const a = abcl[k4],
      b = abcl[k4 + 1],
      c = abcl[k4 + 2],
      l = abcl[k4 + 3];
    const ta = tt[k4],
      tb = tt[k4 + 1],
      tc = tt[k4 + 2];
    // near = floor(t + 0.5); e = near − t in (−½, ½]; d = alt − near = e > 0 ? −1 : 1 (s of the
    // definition; not clamped: see above).
    const ka = Math.floor(ta + 0.5),
      kb = Math.floor(tb + 0.5),
      kc = Math.floor(tc + 0.5);
    const ea = ka - ta,
      eb = kb - tb,
      ec = kc - tc;
    const da = 1 - 2 * Math.ceil(ea),
      db = 1 - 2 * Math.ceil(eb),
      dc = 1 - 2 * Math.ceil(ec);
    // In doubles the scores need not follow the definition's order:
    // D1 = (L2 + a²) + 2·d·(L2·ea + S·a) = d·(L2·(2ea + d) + a·(2S + a·d)) as d² = 1; likewise D2, D3.
    const l2 = l * l,
      s2 = 2 * (a * ea + b * eb + c * ec);
    // −2.1 < D < 3.1: in units of 2^-28 (truncated) it is an int32, and integer min/max give the
    // winner (w: strictly below the best so far, C0 counting as 0) and the runner-up without
    // branches. A gap of more than 512 units is more than 510 · 2^-28 = 1.9e-6 (a truncation moves a
    // value by less than a unit). `| 0` tells the compiler that no sum overflows.
    const e1 = (da * (l2 * (2 * ea + da) + a * (s2 + a * da)) * 268435456) | 0;
    const e2 = (db * (l2 * (2 * eb + db) + b * (s2 + b * db)) * 268435456) | 0;
    const e3 = (dc * (l2 * (2 * ec + dc) + c * (s2 + c * dc)) * 268435456) | 0;
    let sel = e1 & (e1 >> 31);
    const w1 = e1 >>> 31;
    let best = sel;
    let second = (e1 - sel) | 0;
    let d = (e2 - best) | 0;
    sel = d & (d >> 31);
    const w2 = d >>> 31;
    let hi = (e2 - sel) | 0;
    best = (best + sel) | 0;
    d = (hi - second) | 0;
    second = (second + (d & (d >> 31))) | 0;
    d = (e3 - best) | 0;
    sel = d & (d >> 31);
    const w3 = d >>> 31;
    hi = (e3 - sel) | 0;
    best = (best + sel) | 0;
    d = (hi - second) | 0;
    second = (second + (d & (d >> 31))) | 0;
    if (((second - best) | 0) > 512) {
      const p2 = w2 & (w3 ^ 1);
      const p1 = w1 & (w2 ^ 1) & (w3 ^ 1);
      // A signed int32 (not `>>> 0`): it stays a small integer in V8, where a uint32 above 2^31
      // would be boxed as a heap number. Stored into a Uint32Array it is the same 32 bits.
      out[at + j] = (idx << 30) | ((ka + p1 * da) << 20) | ((kb + p2 * db) << 10) | (kc + w3 * dc);
      continue;
    }
    roundExact(idx, k4, out, at + j);
  }
}

/**
 * Steps 4–5 of `encodeQuatColumns` in float32, for a, b, c, l at `blockAbcl[k4 ..]`: writes the code
 * of the rotation whose largest component is `idx` to `out[at]` (a store, not a return value: an
 * int32 above 2^30 returned from a call is boxed where V8 has 31-bit small integers).
 */
function roundExact(idx: number, k4: number, out: Int32Array, at: number): void {
  const fr = Math.fround;
  const a = blockAbcl[k4],
    b = blockAbcl[k4 + 1],
    c = blockAbcl[k4 + 2],
    l = blockAbcl[k4 + 3];
  const S = SCALE_F;
  const ta = fr(fr(a * S) + MID),
    tb = fr(fr(b * S) + MID),
    tc = fr(fr(c * S) + MID);
  // |a| ≤ ~1/√2, so t + 0.5 > 0 and `| 0` truncates.
  const na = fr(ta + 0.5) | 0,
    nb = fr(tb + 0.5) | 0,
    nc = fr(tc + 0.5) | 0;
  let xa = na > ta ? na - 1 : na + 1;
  let xb = nb > tb ? nb - 1 : nb + 1;
  let xc = nc > tc ? nc - 1 : nc + 1;
  xa = xa < 0 ? 0 : xa > STEPS ? STEPS : xa;
  xb = xb < 0 ? 0 : xb > STEPS ? STEPS : xb;
  xc = xc < 0 ? 0 : xc > STEPS ? STEPS : xc;
  const ea = fr(na - ta),
    eb = fr(nb - tb),
    ec = fr(nc - tc);
  const l2 = fr(l * l);
  const sum = fr(fr(fr(a * ea) + fr(b * eb)) + fr(c * ec));
  // P = (L2·e) + (S·a); D = (L2 + a·a) + 2·(s·P): s·P and 2·(s·P) are exact, so the double sum of two
  // float32 values rounded once is the float32 addition.
  let p = fr(fr(l2 * ea) + fr(sum * a));
  const d1 = fr(fr(l2 + fr(a * a)) + 2 * (na > ta ? -p : p));
  p = fr(fr(l2 * eb) + fr(sum * b));
  const d2 = fr(fr(l2 + fr(b * b)) + 2 * (nb > tb ? -p : p));
  p = fr(fr(l2 * ec) + fr(sum * c));
  const d3 = fr(fr(l2 + fr(c * c)) + 2 * (nc > tc ? -p : p));
  let best = 0;
  let pick = 0;
  if (d1 < best) {
    best = d1;
    pick = 1;
  }
  if (d2 < best) {
    best = d2;
    pick = 2;
  }
  if (d3 < best) pick = 3;
  out[at] = (idx << 30) | ((pick === 1 ? xa : na) << 20) | ((pick === 2 ? xb : nb) << 10) | (pick === 3 ? xc : nc);
}

/** One entry of four columns for `quatIsEncodable` to hand to `quatIsEncodableAt`. */
const checkX = new Float32Array(1);
const checkY = new Float32Array(1);
const checkZ = new Float32Array(1);
const checkW = new Float32Array(1);

/**
 * Whether the encoders store this rotation (rather than the identity, for an invalid one): its
 * float32 squared norm ((x² + y²) + z²) + w² lies strictly between 1e-20 and 1e20. NaN, ±Infinity,
 * zero and huge quaternions fail. The inputs are taken as float32, as the encoders take them.
 *
 * @example
 * quatIsEncodable(0, 0, 0, 1); // true
 * quatIsEncodable(0, 0, 0, 0); // false: stored as the identity
 */
export function quatIsEncodable(x: number, y: number, z: number, w: number): boolean {
  // One implementation: the values go through float32 columns (the store rounds them, as the
  // encoders do) to `quatIsEncodableAt`.
  checkX[0] = x;
  checkY[0] = y;
  checkZ[0] = z;
  checkW[0] = w;
  return quatIsEncodableAt(checkX, checkY, checkZ, checkW, 0);
}

/**
 * `quatIsEncodable` of entry `i` of four float32 columns. It takes no double argument, so calling
 * it boxes nothing whether or not the engine inlines it (the recorder's repair path runs it on
 * every frame that has an invalid quaternion).
 *
 * @example
 * quatIsEncodableAt(qx, qy, qz, qw, 3); // entry 3: (qx[3], qy[3], qz[3], qw[3])
 */
export function quatIsEncodableAt(
  qx: Float32Array,
  qy: Float32Array,
  qz: Float32Array,
  qw: Float32Array,
  i: number,
): boolean {
  const fr = Math.fround;
  const x = qx[i],
    y = qy[i],
    z = qz[i],
    w = qw[i];
  const n2 = fr(fr(fr(fr(x * x) + fr(y * y)) + fr(z * z)) + fr(w * w));
  return n2 > NORM2_MIN_F && n2 < NORM2_MAX_F;
}

/** One word for `decodeQuat` to hand to `decodeQuatAt`. */
const decodeWord = new Uint32Array(1);

/**
 * Decodes 32 bits from `encodeQuat` into `out[offset .. offset + 3]` as x, y, z, w. The result is
 * unit length and its largest component is positive. Loops over stored words should call
 * `decodeQuatAt`: most codes exceed the engine's small-integer range, so passing one to a call the
 * engine does not inline boxes it.
 *
 * @example
 * decodeQuat(encodeQuat(0, 0, 0, 1), out, 0); // out[0..4) = 0, 0, 0, 1
 */
export function decodeQuat(bits: number, out: Float32Array | Float64Array, offset: number): void {
  decodeWord[0] = bits;
  decodeQuatAt(decodeWord, 0, out, offset);
}

/**
 * `decodeQuat` of the word `words[at]`: takes no number that could need boxing (the code is read
 * here), so it allocates nothing whether or not the engine inlines it.
 *
 * @example
 * for (let i = 0; i < n; i++) decodeQuatAt(u32, rotationsBase + i, rotations, i * 4);
 */
export function decodeQuatAt(words: Uint32Array, at: number, out: Float32Array | Float64Array, offset: number): void {
  const bits = words[at];
  const idx = bits >>> 30;
  const a = (((bits >>> 20) & MASK10) - MID) * INV_SCALE;
  const b = (((bits >>> 10) & MASK10) - MID) * INV_SCALE;
  const c = ((bits & MASK10) - MID) * INV_SCALE;
  const r = 1 - a * a - b * b - c * c;
  const l = r > 0 ? Math.sqrt(r) : 0;
  const o = idx * 3;
  out[offset + idx] = l;
  out[offset + OTHERS[o]] = a;
  out[offset + OTHERS[o + 1]] = b;
  out[offset + OTHERS[o + 2]] = c;
}

/** The identity rotation, encoded. */
export const QUAT_IDENTITY_BITS = IDENTITY;

/** Rotation about the z axis (radians) of the quaternion at `q[i]`: what a 2D game displays. */
export function quatToAngleZ(q: ArrayLike<number>, i: number): number {
  const x = q[i],
    y = q[i + 1],
    z = q[i + 2],
    w = q[i + 3];
  return Math.atan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z));
}

/** Writes the quaternion for a rotation of `angle` radians about z into `out[i]`. */
export function angleZToQuat(angle: number, out: Float32Array | Float64Array, i: number): void {
  const h = angle * 0.5;
  out[i] = 0;
  out[i + 1] = 0;
  out[i + 2] = Math.sin(h);
  out[i + 3] = Math.cos(h);
}
