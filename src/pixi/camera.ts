/**
 * The camera convention of the pixi overlay: **the world container's transform is the camera**.
 *
 * A camera is `(x, y, angle, zoom)`:
 * - `x, y` — the world point shown at the centre of the view;
 * - `zoom` — the world container's scale (1 = one world unit per pixel);
 * - `angle` — the camera's rotation about z in radians; the world appears rotated by `-angle`.
 *
 * Recorded cameras store the angle as a quaternion about z (`angleZToQuat`), read back with
 * `quatToAngleZ`. The view is the world container's parent space, `viewWidth × viewHeight` pixels
 * (normally `app.screen`).
 */
import type { Container } from 'pixi.js';
import type { Recorder } from '../core/record/Recorder';

/**
 * `game`: the recorded game camera (interpolated), or the view at pause when none was recorded.
 * `free`: moved by hand. `follow`: centred on the selected entity, zoom and rotation by hand.
 */
export type CameraMode = 'game' | 'free' | 'follow';

/** Every camera mode, in the order `C` cycles through them. */
export const CAMERA_MODES: readonly CameraMode[] = ['game', 'free', 'follow'];

/** A camera as four numbers in a caller-owned array: x, y, angle, zoom. */
export type CameraArray = Float64Array;

/** Index of each camera component in a `CameraArray`. */
export const CAM_X = 0;
export const CAM_Y = 1;
export const CAM_ANGLE = 2;
export const CAM_ZOOM = 3;

/** Creates a camera array `[x, y, angle, zoom]`. */
export function createCamera(x = 0, y = 0, angle = 0, zoom = 1): CameraArray {
  const c = new Float64Array(4);
  c[CAM_X] = x;
  c[CAM_Y] = y;
  c[CAM_ANGLE] = angle;
  c[CAM_ZOOM] = zoom;
  return c;
}

/**
 * Sets the world container's transform so that it shows `camera` in a view of the given size.
 * Writes pivot, position, rotation and scale, and clears skew.
 *
 * @example
 * applyCamera(world, createCamera(player.x, player.y, 0, 2), app.screen.width, app.screen.height);
 */
export function applyCamera(world: Container, camera: ArrayLike<number>, viewWidth: number, viewHeight: number): void {
  const zoom = camera[CAM_ZOOM] > 0 ? camera[CAM_ZOOM] : 1;
  world.pivot.set(camera[CAM_X], camera[CAM_Y]);
  world.position.set(viewWidth * 0.5, viewHeight * 0.5);
  world.rotation = 0 - camera[CAM_ANGLE];
  world.scale.set(zoom, zoom);
  world.skew.set(0, 0);
}

/**
 * Reads the camera that the world container's current transform shows (any combination of
 * position, pivot, scale, rotation and skew) into `out`. The zoom is the length of the transformed
 * x axis.
 *
 * @example
 * const cam = createCamera();
 * readCamera(world, app.screen.width, app.screen.height, cam); // cam[CAM_X], cam[CAM_Y] = centre
 */
export function readCamera(world: Container, viewWidth: number, viewHeight: number, out: CameraArray): CameraArray {
  world.updateLocalTransform();
  const m = world.localTransform;
  const det = m.a * m.d - m.b * m.c;
  const cx = viewWidth * 0.5 - m.tx;
  const cy = viewHeight * 0.5 - m.ty;
  if (det !== 0 && Number.isFinite(det)) {
    out[CAM_X] = (m.d * cx - m.c * cy) / det;
    out[CAM_Y] = (-m.b * cx + m.a * cy) / det;
  } else {
    out[CAM_X] = 0;
    out[CAM_Y] = 0;
  }
  const zoom = Math.sqrt(m.a * m.a + m.b * m.b);
  out[CAM_ZOOM] = zoom > 0 ? zoom : 1;
  out[CAM_ANGLE] = -Math.atan2(m.b, m.a);
  return out;
}

const recordScratch = createCamera();

/**
 * Records the camera shown by the world container into the open frame of `recorder`: one call
 * for games whose camera is "move the world container".
 *
 * @example
 * recorder.beginFrame(time, dt);
 * recordWorldCamera(recorder, world, app.screen.width, app.screen.height);
 */
export function recordWorldCamera(recorder: Recorder, world: Container, viewWidth: number, viewHeight: number): void {
  readCamera(world, viewWidth, viewHeight, recordScratch);
  const h = recordScratch[CAM_ANGLE] * 0.5;
  recorder.camera(
    recordScratch[CAM_X],
    recordScratch[CAM_Y],
    0,
    0,
    0,
    Math.sin(h),
    Math.cos(h),
    recordScratch[CAM_ZOOM],
  );
}

/**
 * Converts a point in view pixels to world coordinates for `camera` into `out[0..1]`.
 */
export function viewToWorld(
  camera: ArrayLike<number>,
  viewWidth: number,
  viewHeight: number,
  sx: number,
  sy: number,
  out: Float64Array,
): void {
  const zoom = camera[CAM_ZOOM] > 0 ? camera[CAM_ZOOM] : 1;
  const ox = (sx - viewWidth * 0.5) / zoom;
  const oy = (sy - viewHeight * 0.5) / zoom;
  const c = Math.cos(camera[CAM_ANGLE]);
  const s = Math.sin(camera[CAM_ANGLE]);
  out[0] = camera[CAM_X] + c * ox - s * oy;
  out[1] = camera[CAM_Y] + s * ox + c * oy;
}

/** The transform fields of a container, saved by `saveTransform` and put back by `restoreTransform`. @internal */
export const TRANSFORM_WORDS = 11;

/** Saves x, y, pivot, scale, rotation, skew and origin of `obj` into `out[o .. o + 10]`. @internal */
export function saveTransform(obj: Container, out: Float64Array, o: number): void {
  out[o] = obj.position.x;
  out[o + 1] = obj.position.y;
  out[o + 2] = obj.pivot.x;
  out[o + 3] = obj.pivot.y;
  out[o + 4] = obj.scale.x;
  out[o + 5] = obj.scale.y;
  out[o + 6] = obj.rotation;
  out[o + 7] = obj.skew.x;
  out[o + 8] = obj.skew.y;
  out[o + 9] = obj.origin.x;
  out[o + 10] = obj.origin.y;
}

/** Restores what `saveTransform` saved, exactly (down to the sign of zero). @internal */
export function restoreTransform(obj: Container, from: Float64Array, o: number): void {
  setPointExact(obj.position, from[o], from[o + 1]);
  setPointExact(obj.pivot, from[o + 2], from[o + 3]);
  setPointExact(obj.scale, from[o + 4], from[o + 5]);
  setRotationExact(obj, from[o + 6]);
  setPointExact(obj.skew, from[o + 7], from[o + 8]);
  setPointExact(obj.origin, from[o + 9], from[o + 10]);
}

/** A point pixi compares with `!==` (so 0 and -0 look equal): set it so the value is exactly `x, y`. @internal */
export function setPointExact(
  p: { x: number; y: number; set(x: number, y: number): unknown },
  x: number,
  y: number,
): void {
  if (!Object.is(p.x, x) || !Object.is(p.y, y)) {
    if (p.x === x && p.y === y) p.set(x + 1, y + 1);
    p.set(x, y);
  }
}

/** Sets `obj.rotation` to exactly `r` (pixi skips a set when `r === rotation`, which holds for 0 and -0). @internal */
export function setRotationExact(obj: Container, r: number): void {
  if (!Object.is(obj.rotation, r)) {
    if (obj.rotation === r) obj.rotation = r + 1;
    obj.rotation = r;
  }
}

/** Copies every transform field of `from` onto `to` (used to keep overlay layers aligned with the world). @internal */
export function copyTransform(from: Container, to: Container): void {
  to.position.copyFrom(from.position);
  to.pivot.copyFrom(from.pivot);
  to.scale.copyFrom(from.scale);
  to.rotation = from.rotation;
  to.skew.copyFrom(from.skew);
  to.origin.copyFrom(from.origin);
}
