/**
 * World-container space: the coordinates the overlay records, replays and draws debug shapes in
 * (the space of the world container's children). A display object nested deeper (a crate on a
 * moving raft inside the world) is converted through every container in between, so it is recorded
 * where it is seen, and applied back to where it was recorded, whatever moved its parents.
 */
import type { Container } from 'pixi.js';
import type { Recorder } from '../core/record/Recorder';

/** `[a, b, c, d, tx, ty]`: an affine transform, as pixi's `Matrix` fields. */
const chain = new Float64Array(6);
const point = new Float64Array(3);

/**
 * Writes into `out[0..5]` the transform from the coordinates of `space` (where its children are
 * placed) to world-container coordinates: the local transforms of `space` and of each parent up to
 * (not including) `world`. Returns false, with the identity in `out`, when `space` is not inside
 * `world`; `space === world` is the identity. Allocates nothing.
 *
 * @example
 * const m = new Float64Array(6);
 * if (spaceToWorld(raft, world, m)) console.log('raft origin in world space', m[4], m[5]);
 */
export function spaceToWorld(space: Container | null, world: Container, out: Float64Array): boolean {
  let a = 1;
  let b = 0;
  let c = 0;
  let d = 1;
  let tx = 0;
  let ty = 0;
  let o = space;
  let found = true;
  while (o !== world) {
    if (o === null) {
      found = false;
      a = 1;
      b = 0;
      c = 0;
      d = 1;
      tx = 0;
      ty = 0;
      break;
    }
    o.updateLocalTransform();
    const l = o.localTransform;
    const na = l.a * a + l.c * b;
    const nb = l.b * a + l.d * b;
    const nc = l.a * c + l.c * d;
    const nd = l.b * c + l.d * d;
    const ntx = l.a * tx + l.c * ty + l.tx;
    const nty = l.b * tx + l.d * ty + l.ty;
    a = na;
    b = nb;
    c = nc;
    d = nd;
    tx = ntx;
    ty = nty;
    o = o.parent;
  }
  out[0] = a;
  out[1] = b;
  out[2] = c;
  out[3] = d;
  out[4] = tx;
  out[5] = ty;
  return found;
}

/**
 * Where `obj` is in world-container space: `out[0], out[1]` its position (the point its `x, y`
 * place), `out[2]` its rotation (its own plus its parents'). Returns false when `obj` is not inside
 * `world` (then `out` holds its own x, y and rotation). Use it for debug draw of nested objects:
 * `recorder.draw` takes world-container coordinates. Allocates nothing.
 *
 * @example
 * const p = new Float64Array(3);
 * toWorldSpace(crate, world, p);
 * recorder.draw.circle(Channel.PHYSICS, p[0], p[1], 0, 14, 0xffaa00);
 */
export function toWorldSpace(obj: Container, world: Container, out: Float64Array): boolean {
  const found = spaceToWorld(obj.parent, world, chain);
  const x = obj.position.x;
  const y = obj.position.y;
  out[0] = chain[0] * x + chain[2] * y + chain[4];
  out[1] = chain[1] * x + chain[3] * y + chain[5];
  out[2] = obj.rotation + Math.atan2(chain[1], chain[0]);
  return found;
}

/**
 * Records `obj` as entity `id` in world-container space, whatever container nests it: position and
 * rotation about z (see `toWorldSpace`), with display `flags`. The default `apply` puts it back the
 * same way (through `EntityView.localX`). Call it between `beginFrame` and `endFrame` (in the
 * overlay's `record` hook). Allocates nothing.
 *
 * @example
 * record: (rec) => { for (const a of actors) recordDisplay(rec, world, a.id, a.sprite); },
 */
export function recordDisplay(recorder: Recorder, world: Container, id: number, obj: Container, flags = 0): void {
  toWorldSpace(obj, world, point);
  const half = point[2] * 0.5;
  recorder.entity(id, point[0], point[1], 0, 0, 0, Math.sin(half), Math.cos(half), flags);
}

/**
 * Converts world-container (x, y, angle) into the coordinates of `parent` (where a child of it is
 * placed), into `out[0..2]`. Identity when `parent` is `world` or not inside it. Allocates nothing.
 * @internal Used by the presenter for `EntityView.localX/localY/localAngle`.
 */
export function worldToSpace(
  parent: Container | null,
  world: Container,
  x: number,
  y: number,
  angle: number,
  out: Float64Array,
): void {
  spaceToWorld(parent, world, chain);
  const a = chain[0];
  const b = chain[1];
  const c = chain[2];
  const d = chain[3];
  const det = a * d - b * c;
  if (!(det !== 0 && Number.isFinite(det))) {
    out[0] = x;
    out[1] = y;
    out[2] = angle;
    return;
  }
  const px = x - chain[4];
  const py = y - chain[5];
  out[0] = (d * px - c * py) / det;
  out[1] = (-b * px + a * py) / det;
  out[2] = angle - Math.atan2(b, a);
}
