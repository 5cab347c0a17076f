import type { DecodedFrame } from '../peers/DecodedFrame';
import { quatAngleDeg } from './quatError';
import type { SampleRows } from './SampleRows';

/**
 * The reference every sample peer is checked against: what a sample between two recorded frames
 * must hold, computed from the workload's own input (not from any peer's storage), in float64, by
 * a formulation independent of the peers' code.
 */

const qa = new Float64Array(4);
const qb = new Float64Array(4);

/**
 * Shortest-path slerp of unit quaternions `a` → `b` at `t`, written into `out` at `o`. Computed as
 * `a · (a⁻¹ · b)^t` through the axis and angle of the relative rotation (not with the
 * `sin((1-t)θ)/sin θ` weights the peers use), so a bug shared by the peers and the reference is
 * unlikely. `b` is negated first when `a·b < 0`, so the path is the short one.
 *
 * @example
 * const out = new Float64Array(4);
 * referenceSlerp([0, 0, 0, 1], [0, 0, Math.sin(0.5), Math.cos(0.5)], 0.5, out, 0); // 0.5 rad about z
 */
export function referenceSlerp(
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  t: number,
  out: Float64Array,
  o: number,
): void {
  const ax = a[0],
    ay = a[1],
    az = a[2],
    aw = a[3];
  let bx = b[0],
    by = b[1],
    bz = b[2],
    bw = b[3];
  if (ax * bx + ay * by + az * bz + aw * bw < 0) {
    bx = -bx;
    by = -by;
    bz = -bz;
    bw = -bw;
  }
  // r = conj(a) · b: the rotation that takes a to b (rw >= 0 after the sign choice).
  const rx = aw * bx - ax * bw - ay * bz + az * by;
  const ry = aw * by + ax * bz - ay * bw - az * bx;
  const rz = aw * bz - ax * by + ay * bx - az * bw;
  const rw = aw * bw + ax * bx + ay * by + az * bz;
  const s = Math.sqrt(rx * rx + ry * ry + rz * rz);
  const half = Math.atan2(s, rw);
  // r^t = (axis · sin(t·half), cos(t·half)); sin(t·half)/s tends to t/rw as s → 0.
  const k = s > 1e-12 ? Math.sin(t * half) / s : t / rw;
  const px = rx * k,
    py = ry * k,
    pz = rz * k,
    pw = Math.cos(t * half);
  // a · r^t
  out[o] = aw * px + ax * pw + ay * pz - az * py;
  out[o + 1] = aw * py - ax * pz + ay * pw + az * px;
  out[o + 2] = aw * pz + ax * py - ay * px + az * pw;
  out[o + 3] = aw * pw - ax * px - ay * py - az * pz;
}

/** What a peer promises about its rows, and how close to the reference they must be. */
export interface SampleRules {
  /**
   * Which entities the rows hold: `union` every entity of either frame (an entity of one frame
   * only keeps that frame's values), `newer` the entities of the later frame (one that is not in
   * the earlier frame keeps the later frame's values).
   */
  cover: 'union' | 'newer';
  /** Whether flags must come from the nearer frame (false: not checked). */
  nearerFlags: boolean;
  /** Largest position error allowed, relative to `max(1, |value|)`. */
  positionRelTol: number;
  /** Largest rotation error allowed, in degrees. */
  rotationTolDeg: number;
}

/** What `verifySample` measured. */
export interface SampleCheck {
  rows: number;
  /** Rows of entities present in both frames (blended). */
  blended: number;
  /** Largest position error, relative to `max(1, |value|)`. */
  maxPositionRelErr: number;
  /** Largest rotation error, in degrees. */
  maxRotationDeg: number;
}

function indexById(frame: DecodedFrame): Map<number, number> {
  const m = new Map<number, number>();
  for (let i = 0; i < frame.count; i++) m.set(frame.ids[i], i);
  return m;
}

function quatOf(frame: DecodedFrame, i: number, out: Float64Array): Float64Array {
  out[0] = frame.qx[i];
  out[1] = frame.qy[i];
  out[2] = frame.qz[i];
  out[3] = frame.qw[i];
  return out;
}

/**
 * Checks the rows of a sample at blend factor `t` between input frames `a` (earlier) and `b`
 * (later) against the reference: every entity of both frames present exactly once with its
 * positions lerped and rotation slerped (shortest path), flags from the nearer frame when the
 * peer promises it, and the entities of one frame only as `rules.cover` says. Throws an `Error`
 * naming the peer and the first difference.
 *
 * @example
 * peer.sample(frameA + 0.25); peer.read(rows);
 * verifySample('json', inputA, inputB, 0.25, rows, { cover: 'newer', nearerFlags: true, positionRelTol: 1e-12, rotationTolDeg: 1e-6 });
 */
export function verifySample(
  peer: string,
  a: DecodedFrame,
  b: DecodedFrame,
  t: number,
  rows: SampleRows,
  rules: SampleRules,
): SampleCheck {
  const inA = indexById(a);
  const inB = indexById(b);
  let expected = b.count;
  if (rules.cover === 'union') for (let i = 0; i < a.count; i++) if (!inB.has(a.ids[i])) expected++;
  if (rows.count !== expected) {
    throw new Error(
      `${peer}: sample at t=${t} has ${rows.count} rows, expected ${expected} (${rules.cover} of the two frames)`,
    );
  }
  const seen = new Set<number>();
  const ref = new Float64Array(4);
  const check: SampleCheck = { rows: rows.count, blended: 0, maxPositionRelErr: 0, maxRotationDeg: 0 };
  for (let k = 0; k < rows.count; k++) {
    const id = rows.ids[k];
    if (seen.has(id)) throw new Error(`${peer}: id ${id} appears twice in one sample`);
    seen.add(id);
    const ia = inA.get(id);
    const ib = inB.get(id);
    let ex: number, ey: number, ez: number, flags: number;
    if (ia !== undefined && ib !== undefined) {
      check.blended++;
      ex = a.x[ia] + (b.x[ib] - a.x[ia]) * t;
      ey = a.y[ia] + (b.y[ib] - a.y[ia]) * t;
      ez = a.z[ia] + (b.z[ib] - a.z[ia]) * t;
      referenceSlerp(quatOf(a, ia, qa), quatOf(b, ib, qb), t, ref, 0);
      flags = t < 0.5 ? a.flags[ia] : b.flags[ib];
    } else if (ib !== undefined) {
      ex = b.x[ib];
      ey = b.y[ib];
      ez = b.z[ib];
      quatOf(b, ib, ref);
      flags = b.flags[ib];
    } else if (ia !== undefined && rules.cover === 'union') {
      ex = a.x[ia];
      ey = a.y[ia];
      ez = a.z[ia];
      quatOf(a, ia, ref);
      flags = a.flags[ia];
    } else {
      throw new Error(
        `${peer}: row ${k} has id ${id}, which is not in the ${rules.cover === 'union' ? 'two frames' : 'later frame'}`,
      );
    }
    const p = k * 3;
    const errors = [rows.positions[p] - ex, rows.positions[p + 1] - ey, rows.positions[p + 2] - ez];
    const values = [ex, ey, ez];
    for (let c = 0; c < 3; c++) {
      const rel = Math.abs(errors[c]) / Math.max(1, Math.abs(values[c]));
      if (!(rel <= rules.positionRelTol)) {
        throw new Error(
          `${peer}: id ${id} at t=${t}: position ${'xyz'[c]} = ${rows.positions[p + c]}, expected ${values[c]} ` +
            `(relative error ${rel.toExponential(2)} > ${rules.positionRelTol})`,
        );
      }
      if (rel > check.maxPositionRelErr) check.maxPositionRelErr = rel;
    }
    const q = k * 4;
    const deg = quatAngleDeg(
      ref[0],
      ref[1],
      ref[2],
      ref[3],
      rows.rotations[q],
      rows.rotations[q + 1],
      rows.rotations[q + 2],
      rows.rotations[q + 3],
    );
    const norm = Math.hypot(rows.rotations[q], rows.rotations[q + 1], rows.rotations[q + 2], rows.rotations[q + 3]);
    if (!(deg <= rules.rotationTolDeg) || !(Math.abs(norm - 1) < 1e-3)) {
      throw new Error(
        `${peer}: id ${id} at t=${t}: rotation ${deg.toFixed(4)}° from the reference (norm ${norm.toFixed(6)}), limit ${rules.rotationTolDeg}°`,
      );
    }
    if (deg > check.maxRotationDeg) check.maxRotationDeg = deg;
    if (rules.nearerFlags && rows.flags[k] !== flags) {
      throw new Error(`${peer}: id ${id} at t=${t}: flags ${rows.flags[k]}, expected ${flags} (from the nearer frame)`);
    }
  }
  for (let i = 0; i < b.count; i++) {
    if (!seen.has(b.ids[i])) throw new Error(`${peer}: id ${b.ids[i]} of the later frame is missing from the sample`);
  }
  return check;
}
