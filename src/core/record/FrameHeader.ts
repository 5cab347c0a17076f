import {
  FRAME_HAS_CAMERA,
  FRAME_TRUNCATED,
  H_CAM_ROT,
  H_CAM_X,
  H_CAM_Y,
  H_CAM_Z,
  H_CAM_ZOOM,
  H_DT,
  H_FLAGS,
  H_TIME,
} from '../format/layout';
import { QUAT_IDENTITY_BITS, encodeQuatAt, quatStatus } from '../math/quat';
import type { FrameRing } from '../store/FrameRing';
import type { FrameRepairs } from './FrameRepairs';

/**
 * The open frame's time, dt and camera as the game gave them, and their checked, repaired form in
 * the frame's header at `endFrame`: times never go back (the previous frame's is stored), dt is a
 * finite float32, the camera a finite position, an encodable rotation and a positive zoom.
 *
 * @example
 * header.time = 1.5; header.dt = 1 / 60; // beginFrame
 * header.write(ring, at, frame, false, repairs); // endFrame
 */
export class FrameHeader {
  /** Time and dt as given to `beginFrame`. */
  public time = 0;
  public dt = 0;
  /** Whether the open frame has a camera. */
  public hasCamera = false;
  /** x, y, z, qx, qy, qz, qw, zoom of the open frame. */
  public readonly cam = new Float64Array(8);
  /** Time of the newest frame stored, NaN before the first: times never go back. */
  private lastTime = NaN;

  /** Forgets the newest frame's time (the ring was cleared). */
  public clear(): void {
    this.lastTime = NaN;
  }

  /** Writes time, dt, flags and camera of `frame` at word `at` of `ring`, repairing what is invalid. */
  public write(ring: FrameRing, at: number, frame: number, truncated: boolean, repairs: FrameRepairs): void {
    const u = ring.u32;
    const f = ring.f32;
    // Time: finite and never before the previous frame's; dt: a finite float32 (else repaired).
    const time = this.time;
    const timeOk = time - time === 0 && !(time < this.lastTime);
    const storedTime = timeOk ? time : this.lastTime - this.lastTime === 0 ? this.lastTime : 0;
    ring.f64[(at + H_TIME) >>> 1] = storedTime;
    this.lastTime = storedTime;
    f[at + H_DT] = this.dt;
    if (!timeOk || f[at + H_DT] - f[at + H_DT] !== 0) repairs.time(f, at, frame);
    u[at + H_FLAGS] = (truncated ? FRAME_TRUNCATED : 0) | (this.hasCamera ? FRAME_HAS_CAMERA : 0);
    const c = this.cam;
    if (this.hasCamera) {
      f[at + H_CAM_X] = c[0];
      f[at + H_CAM_Y] = c[1];
      f[at + H_CAM_Z] = c[2];
      u[at + H_CAM_ROT] = encodeQuatAt(c, 3);
      f[at + H_CAM_ZOOM] = c[7];
      const zoom = f[at + H_CAM_ZOOM];
      if (
        quatStatus.sanitized ||
        !(zoom > 0) ||
        f[at + H_CAM_X] -
          f[at + H_CAM_X] +
          f[at + H_CAM_Y] -
          f[at + H_CAM_Y] +
          f[at + H_CAM_Z] -
          f[at + H_CAM_Z] +
          zoom -
          zoom !==
          0
      ) {
        repairs.camera(f, at);
      }
    } else {
      f[at + H_CAM_X] = 0;
      f[at + H_CAM_Y] = 0;
      f[at + H_CAM_Z] = 0;
      u[at + H_CAM_ROT] = QUAT_IDENTITY_BITS;
      f[at + H_CAM_ZOOM] = 1;
    }
  }
}
