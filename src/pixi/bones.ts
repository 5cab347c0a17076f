/**
 * Forward kinematics for recorded bones, as the overlay draws them.
 *
 * Convention (the one `Recorder.bones` documents): bone `j` has a local rotation `r_j` (x, y, z, w)
 * and a local offset `o_j` (x, y, z), both relative to its parent. The parent of a root bone
 * (`parents[j] < 0`) is the entity itself (its position and rotation). Then
 *
 *   R_j = R_parent · r_j,   P_j = P_parent + R_parent · o_j
 *
 * Parents must come before their children (`parents[j] < j`); a bone whose parent index is not
 * smaller than its own is treated as a root. Without a skeleton every bone is a root.
 */

let rot = new Float64Array(4 * 64);

/**
 * Computes the world position of every bone of one entity into `out` (x, y, z per bone).
 *
 * @param entityPos entity position array and offset of its x
 * @param entityRot entity rotation array (x, y, z, w) and offset of its x
 * @param boneRot local bone rotations, 4 per bone, starting at bone `first`
 * @param boneOff local bone offsets, 3 per bone, starting at bone `first`
 * @param parents the kind's skeleton, or undefined (all roots)
 * @returns the number of bones written
 *
 * @example
 * const n = boneWorldPositions(s.positions, i * 3, s.rotations, i * 4, s.boneRotations, s.boneOffsets,
 *   s.boneStart[i], s.boneCount[i], skeleton, joints);
 */
export function boneWorldPositions(
  entityPos: ArrayLike<number>,
  pi: number,
  entityRot: ArrayLike<number>,
  ri: number,
  boneRot: ArrayLike<number>,
  boneOff: ArrayLike<number>,
  first: number,
  count: number,
  parents: ArrayLike<number> | undefined,
  out: Float64Array | Float32Array,
): number {
  if (rot.length < count * 4) rot = new Float64Array(Math.max(count * 4, rot.length * 2));
  const ex = entityPos[pi],
    ey = entityPos[pi + 1],
    ez = entityPos[pi + 2];
  const eqx = entityRot[ri],
    eqy = entityRot[ri + 1],
    eqz = entityRot[ri + 2],
    eqw = entityRot[ri + 3];
  for (let j = 0; j < count; j++) {
    const p = parents !== undefined && j < parents.length ? parents[j] : -1;
    let px: number, py: number, pz: number, qx: number, qy: number, qz: number, qw: number;
    if (p >= 0 && p < j) {
      px = out[p * 3];
      py = out[p * 3 + 1];
      pz = out[p * 3 + 2];
      qx = rot[p * 4];
      qy = rot[p * 4 + 1];
      qz = rot[p * 4 + 2];
      qw = rot[p * 4 + 3];
    } else {
      px = ex;
      py = ey;
      pz = ez;
      qx = eqx;
      qy = eqy;
      qz = eqz;
      qw = eqw;
    }
    const b = first + j;
    // P_j = P_parent + R_parent · o_j  (v' = v + 2w(q×v) + 2 q×(q×v))
    const vx = boneOff[b * 3],
      vy = boneOff[b * 3 + 1],
      vz = boneOff[b * 3 + 2];
    const tx = 2 * (qy * vz - qz * vy);
    const ty = 2 * (qz * vx - qx * vz);
    const tz = 2 * (qx * vy - qy * vx);
    out[j * 3] = px + vx + qw * tx + (qy * tz - qz * ty);
    out[j * 3 + 1] = py + vy + qw * ty + (qz * tx - qx * tz);
    out[j * 3 + 2] = pz + vz + qw * tz + (qx * ty - qy * tx);
    // R_j = R_parent · r_j
    const rx = boneRot[b * 4],
      ry = boneRot[b * 4 + 1],
      rz = boneRot[b * 4 + 2],
      rw = boneRot[b * 4 + 3];
    rot[j * 4] = qw * rx + qx * rw + qy * rz - qz * ry;
    rot[j * 4 + 1] = qw * ry - qx * rz + qy * rw + qz * rx;
    rot[j * 4 + 2] = qw * rz + qx * ry - qy * rx + qz * rw;
    rot[j * 4 + 3] = qw * rw - qx * rx - qy * ry - qz * rz;
  }
  return count;
}

/** Entities with bones in flat arrays: both `SampleBuffer` and `EntityBuffer` have this shape. */
export interface BonedRows {
  positions: Float32Array;
  rotations: Float32Array;
  boneStart: Int32Array;
  boneCount: Uint16Array;
  boneRotations: Float32Array;
  boneOffsets: Float32Array;
}

/** What a stick figure is drawn with (a pixi `Graphics` path fits). */
export interface PathSink {
  moveTo(x: number, y: number): unknown;
  lineTo(x: number, y: number): unknown;
}

let joints = new Float64Array(3 * 64);

/**
 * Adds the stick figure of row `i` of `rows` to `path`: a segment from each bone's parent joint
 * (or the entity's origin for a root) to the bone's joint, in x/y. Returns false when the row has
 * no bones. Allocates nothing once the scratch has grown to the largest skeleton.
 *
 * @example
 * if (addStickFigure(g, sample, i, reader.entities.skeletons[kind])) g.stroke({ color: 0xd86bff, pixelLine: true });
 */
export function addStickFigure(
  path: PathSink,
  rows: BonedRows,
  i: number,
  parents: ArrayLike<number> | undefined,
): boolean {
  const first = rows.boneStart[i];
  const n = first >= 0 ? rows.boneCount[i] : 0;
  if (n <= 0) return false;
  if (joints.length < n * 3) joints = new Float64Array(Math.max(n * 3, joints.length * 2));
  const j = joints;
  boneWorldPositions(
    rows.positions,
    i * 3,
    rows.rotations,
    i * 4,
    rows.boneRotations,
    rows.boneOffsets,
    first,
    n,
    parents,
    j,
  );
  const ex = rows.positions[i * 3],
    ey = rows.positions[i * 3 + 1];
  for (let b = 0; b < n; b++) {
    const p = parents !== undefined && b < parents.length ? parents[b] : -1;
    if (p >= 0 && p < b) path.moveTo(j[p * 3], j[p * 3 + 1]);
    else path.moveTo(ex, ey);
    path.lineTo(j[b * 3], j[b * 3 + 1]);
  }
  return true;
}
