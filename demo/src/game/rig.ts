/**
 * The skeletal characters' rig and its procedural walk/run/jump cycle.
 *
 * Sixteen bones, each with a local rotation (quaternion x, y, z, w) and a local offset (x, y, z)
 * from its parent bone's origin, in the parent's frame. Root bones are relative to the entity
 * (x forward, y to the right, z up; rotation about z is the entity's facing). The recorder stores
 * exactly these arrays (`recorder.bones(id, BONE_COUNT, rig.rot, rig.off)`), and the view poses the
 * character with `forwardKinematics` from the same arrays, so a replay can pose it the same way.
 */

/** Bone names, index = bone index. */
export const BONE_NAMES = [
  'pelvis',
  'spine',
  'chest',
  'head',
  'upperArmL',
  'forearmL',
  'handL',
  'upperArmR',
  'forearmR',
  'handR',
  'thighL',
  'shinL',
  'footL',
  'thighR',
  'shinR',
  'footR',
] as const;

/** Parent of each bone (-1 for the root): what `recorder.describeSkeleton(kind, RIG_PARENTS)` gets. */
export const RIG_PARENTS: readonly number[] = [-1, 0, 1, 2, 2, 4, 5, 2, 7, 8, 0, 10, 11, 0, 13, 14];

export const BONE_COUNT = RIG_PARENTS.length;

const HIP = 22;
/** Rest offsets (x, y, z) of each bone from its parent, in world units. */
const REST_OFFSETS: readonly number[] = [
  0,
  0,
  HIP, // pelvis
  0,
  0,
  7, // spine
  0,
  0,
  8, // chest
  0,
  0,
  8, // head
  0,
  -9.5,
  0,
  0,
  0,
  -9.5,
  0,
  0,
  -8, // left arm: shoulder, elbow, wrist
  0,
  9.5,
  0,
  0,
  0,
  -9.5,
  0,
  0,
  -8, // right arm
  0,
  -5.5,
  0,
  0,
  0,
  -11,
  0,
  0,
  -11, // left leg: hip, knee, ankle
  0,
  5.5,
  0,
  0,
  0,
  -11,
  0,
  0,
  -11, // right leg
];

/** Pose state and output of one character. */
export interface Rig {
  /** Local rotations, 4 per bone. */
  readonly rot: Float32Array;
  /** Local offsets, 3 per bone. */
  readonly off: Float32Array;
  /** Gait cycle phase (radians). */
  phase: number;
  /** Smoothed gait intensity: 0 standing, ~0.4 walking, 1 running. */
  gait: number;
  /** Smoothed airborne blend, 0..1. */
  air: number;
  /** Smoothed aim blend, 0..1. */
  aim: number;
}

/** A rig in its rest pose. */
export function createRig(): Rig {
  const rig: Rig = {
    rot: new Float32Array(BONE_COUNT * 4),
    off: new Float32Array(REST_OFFSETS),
    phase: 0,
    gait: 0,
    air: 0,
    aim: 0,
  };
  for (let i = 0; i < BONE_COUNT; i++) rig.rot[i * 4 + 3] = 1;
  return rig;
}

/** Speed (world units per second) at which the gait is a full run. */
const RUN_SPEED = 170;

/**
 * Advances the procedural cycle by `dt` for a character moving at `speed`, airborne or not, aiming or
 * not, and writes every bone's local rotation and offset.
 */
export function animateRig(rig: Rig, dt: number, speed: number, airborne: boolean, aiming: boolean): void {
  const k = 1 - Math.exp(-dt * 10);
  const targetGait = Math.min(1.2, speed / RUN_SPEED);
  rig.gait += (targetGait - rig.gait) * k;
  rig.air += ((airborne ? 1 : 0) - rig.air) * (1 - Math.exp(-dt * 14));
  rig.aim += ((aiming ? 1 : 0) - rig.aim) * k;
  const s = rig.gait;
  const stride = 30 + 34 * s;
  rig.phase = (rig.phase + (speed * dt * Math.PI * 2) / stride) % (Math.PI * 2);
  const moving = Math.min(1, speed / 25);
  const sin = Math.sin(rig.phase),
    cos = Math.cos(rig.phase);
  const air = rig.air,
    ground = 1 - air;

  const legSwing = (0.35 + 0.5 * s) * moving * ground;
  const knee = (0.4 + 0.8 * s) * moving * ground;
  const armSwing = (0.25 + 0.65 * s) * moving * ground;
  const lean = (0.04 + 0.3 * s) * moving;
  const bob = (1 + 2.5 * s) * moving * ground;
  const twist = 0.22 * s * moving * sin;

  const off = rig.off;
  off[2] = HIP - bob * (0.5 - 0.5 * Math.cos(2 * rig.phase)) - 4 * air;

  setLocal(rig, 0, -twist * 0.5, 0, 0); // pelvis turns against the chest
  setLocal(rig, 1, 0, lean, 0); // spine leans into the run
  setLocal(rig, 2, twist, lean * 0.3, 0); // chest twist
  setLocal(rig, 3, -twist * 0.6, -lean * 0.8, 0); // head stays level and forward

  // Arms swing against the legs; the right arm comes up to aim.
  const aim = rig.aim;
  const armUp = 0.9 * air;
  setLocal(rig, 4, 0, mix(armSwing * sin - armUp, -0.35, aim * 0.5), -0.18 - 0.3 * air);
  setLocal(rig, 5, 0, -(0.3 + 0.6 * s) * moving - 0.2, 0);
  setLocal(rig, 6, 0, 0, 0);
  setLocal(rig, 7, 0, mix(-armSwing * sin - armUp, -1.5, aim), mix(0.18 + 0.3 * air, 0.05, aim));
  setLocal(rig, 8, 0, mix(-(0.3 + 0.6 * s) * moving - 0.2, 0, aim), 0);
  setLocal(rig, 9, 0, 0, 0);

  // Legs: swing about the side axis, knees flex on the forward swing, tucked in the air.
  const tuck = -1.1 * air,
    tuckKnee = 1.7 * air;
  setLocal(rig, 10, 0, -legSwing * sin + tuck, -0.05);
  setLocal(rig, 11, 0, knee * Math.max(0, cos) + tuckKnee, 0);
  setLocal(rig, 12, 0, 0, 0);
  setLocal(rig, 13, 0, legSwing * sin + tuck * 0.8, 0.05);
  setLocal(rig, 14, 0, knee * Math.max(0, -cos) + tuckKnee * 0.9, 0);
  setLocal(rig, 15, 0, 0, 0);
}

function mix(a: number, b: number, t: number): number {
  return a + (b - a) * t;
}

/** Writes bone `i`'s local rotation as yaw (about z) · pitch (about y) · roll (about x). */
function setLocal(rig: Rig, i: number, yaw: number, pitch: number, roll: number): void {
  const cz = Math.cos(yaw / 2),
    sz = Math.sin(yaw / 2);
  const cy = Math.cos(pitch / 2),
    sy = Math.sin(pitch / 2);
  const cx = Math.cos(roll / 2),
    sx = Math.sin(roll / 2);
  const r = rig.rot;
  const o = i * 4;
  r[o] = sx * cy * cz - cx * sy * sz;
  r[o + 1] = cx * sy * cz + sx * cy * sz;
  r[o + 2] = cx * cy * sz - sx * sy * cz;
  r[o + 3] = cx * cy * cz + sx * sy * sz;
}

let worldRot = new Float64Array(BONE_COUNT * 4);

/**
 * Forward kinematics: world positions (x, y, z per bone, written to `out`) of a skeleton from its
 * local bones and the entity's position and rotation (quaternion). `rot`/`off` are read from bone
 * `start` on, so this works on the live rig and on recorded, interpolated bone arrays alike.
 *
 * @example
 * forwardKinematics(RIG_PARENTS, BONE_COUNT, rig.rot, rig.off, 0, e.x, e.y, e.z, 0, 0, Math.sin(e.angle / 2), Math.cos(e.angle / 2), joints);
 */
export function forwardKinematics(
  parents: ArrayLike<number>,
  count: number,
  rot: ArrayLike<number>,
  off: ArrayLike<number>,
  start: number,
  ex: number,
  ey: number,
  ez: number,
  qx: number,
  qy: number,
  qz: number,
  qw: number,
  out: Float32Array,
): void {
  if (worldRot.length < count * 4) worldRot = new Float64Array(count * 4);
  const w = worldRot;
  for (let i = 0; i < count; i++) {
    const p = parents[i];
    let px: number, py: number, pz: number, ax: number, ay: number, az: number, aw: number;
    if (p >= 0 && p < i) {
      px = out[p * 3];
      py = out[p * 3 + 1];
      pz = out[p * 3 + 2];
      ax = w[p * 4];
      ay = w[p * 4 + 1];
      az = w[p * 4 + 2];
      aw = w[p * 4 + 3];
    } else {
      px = ex;
      py = ey;
      pz = ez;
      ax = qx;
      ay = qy;
      az = qz;
      aw = qw;
    }
    const b = start + i;
    // Offset rotated by the parent's world rotation: v' = v + 2w(u×v) + 2u×(u×v).
    const vx = off[b * 3],
      vy = off[b * 3 + 1],
      vz = off[b * 3 + 2];
    const tx = 2 * (ay * vz - az * vy),
      ty = 2 * (az * vx - ax * vz),
      tz = 2 * (ax * vy - ay * vx);
    out[i * 3] = px + vx + aw * tx + (ay * tz - az * ty);
    out[i * 3 + 1] = py + vy + aw * ty + (az * tx - ax * tz);
    out[i * 3 + 2] = pz + vz + aw * tz + (ax * ty - ay * tx);
    // World rotation = parent world · local.
    const bx = rot[b * 4],
      by = rot[b * 4 + 1],
      bz = rot[b * 4 + 2],
      bw = rot[b * 4 + 3];
    w[i * 4] = aw * bx + ax * bw + ay * bz - az * by;
    w[i * 4 + 1] = aw * by - ax * bz + ay * bw + az * bx;
    w[i * 4 + 2] = aw * bz + ax * by - ay * bx + az * bw;
    w[i * 4 + 3] = aw * bw - ax * bx - ay * by - az * bz;
  }
}
