/**
 * Composite shapes built only from the `DebugDraw` primitives, so they record and replay like any
 * other call. None of them allocates.
 */
import type { DebugDraw } from './DebugDraw';

/**
 * An oriented box in the xy plane (a rotated rectangle), as four lines at height `z`.
 *
 * @example
 * wireBox(recorder.draw, Channel.PHYSICS, crate.x, crate.y, 0, 16, 16, crate.angle, 0x66ff66);
 */
export function wireBox(
  draw: DebugDraw,
  channel: number,
  cx: number,
  cy: number,
  z: number,
  halfW: number,
  halfH: number,
  angle: number,
  color: number,
): void {
  const c = Math.cos(angle),
    s = Math.sin(angle);
  const ux = c * halfW,
    uy = s * halfW; // half extent along the box's x axis
  const vx = -s * halfH,
    vy = c * halfH; // half extent along its y axis
  const ax = cx - ux - vx,
    ay = cy - uy - vy;
  const bx = cx + ux - vx,
    by = cy + uy - vy;
  const dx = cx + ux + vx,
    dy = cy + uy + vy;
  const ex = cx - ux + vx,
    ey = cy - uy + vy;
  draw.line(channel, ax, ay, z, bx, by, z, color);
  draw.line(channel, bx, by, z, dx, dy, z, color);
  draw.line(channel, dx, dy, z, ex, ey, z, color);
  draw.line(channel, ex, ey, z, ax, ay, z, color);
}

/**
 * A 3D wire box between two corners: the twelve edges of an AABB as lines. Prefer `draw.aabb` when
 * storage matters (one record instead of twelve); this is for views that need every edge.
 */
export function wireAabb(
  draw: DebugDraw,
  channel: number,
  x0: number,
  y0: number,
  z0: number,
  x1: number,
  y1: number,
  z1: number,
  color: number,
): void {
  draw.line(channel, x0, y0, z0, x1, y0, z0, color);
  draw.line(channel, x1, y0, z0, x1, y1, z0, color);
  draw.line(channel, x1, y1, z0, x0, y1, z0, color);
  draw.line(channel, x0, y1, z0, x0, y0, z0, color);
  draw.line(channel, x0, y0, z1, x1, y0, z1, color);
  draw.line(channel, x1, y0, z1, x1, y1, z1, color);
  draw.line(channel, x1, y1, z1, x0, y1, z1, color);
  draw.line(channel, x0, y1, z1, x0, y0, z1, color);
  draw.line(channel, x0, y0, z0, x0, y0, z1, color);
  draw.line(channel, x1, y0, z0, x1, y0, z1, color);
  draw.line(channel, x1, y1, z0, x1, y1, z1, color);
  draw.line(channel, x0, y1, z0, x0, y1, z1, color);
}

/**
 * A vision cone in the xy plane: two edges and an arc of `segments` lines, from an apex facing
 * `angle` with half-angle `halfAngle` and length `range`.
 *
 * @example
 * cone(recorder.draw, Channel.AI, guard.x, guard.y, 0, guard.facing, Math.PI / 5, 180, 0xffff00);
 */
export function cone(
  draw: DebugDraw,
  channel: number,
  x: number,
  y: number,
  z: number,
  angle: number,
  halfAngle: number,
  range: number,
  color: number,
  segments = 8,
): void {
  const a0 = angle - halfAngle;
  let px = x + Math.cos(a0) * range;
  let py = y + Math.sin(a0) * range;
  draw.line(channel, x, y, z, px, py, z, color);
  const n = Math.max(1, segments | 0);
  for (let i = 1; i <= n; i++) {
    const a = a0 + (2 * halfAngle * i) / n;
    const qx = x + Math.cos(a) * range;
    const qy = y + Math.sin(a) * range;
    draw.line(channel, px, py, z, qx, qy, z, color);
    px = qx;
    py = qy;
  }
  draw.line(channel, x, y, z, px, py, z, color);
}

/** A cross of three axis lines, a cheap marker for a position. */
export function cross(
  draw: DebugDraw,
  channel: number,
  x: number,
  y: number,
  z: number,
  size: number,
  color: number,
): void {
  draw.line(channel, x - size, y, z, x + size, y, z, color);
  draw.line(channel, x, y - size, z, x, y + size, z, color);
  if (z !== 0) draw.line(channel, x, y, z - size, x, y, z + size, color);
}

/**
 * A stick figure: one line from each bone's world position to its parent's, and a point per joint.
 * `positions` holds x, y, z per bone in world space; `parents[i]` is bone i's parent or -1.
 *
 * @example
 * stickFigure(recorder.draw, Channel.ANIMATION, worldJoints, RIG_PARENTS, RIG_PARENTS.length, 0xff66ff);
 */
export function stickFigure(
  draw: DebugDraw,
  channel: number,
  positions: ArrayLike<number>,
  parents: ArrayLike<number>,
  boneCount: number,
  color: number,
): void {
  for (let i = 0; i < boneCount; i++) {
    const p = parents[i];
    const x = positions[i * 3],
      y = positions[i * 3 + 1],
      z = positions[i * 3 + 2];
    if (p >= 0 && p < boneCount) {
      draw.line(channel, positions[p * 3], positions[p * 3 + 1], positions[p * 3 + 2], x, y, z, color);
    }
    draw.point(channel, x, y, z, 3, color);
  }
}
