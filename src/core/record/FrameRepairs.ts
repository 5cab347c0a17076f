import { H_CAM_X, H_CAM_Z, H_CAM_ZOOM, H_DT } from '../format/layout';
import { quatStatus } from '../math/quat';
import type { WarnOnce } from '../validate/WarnOnce';
import type { RecorderStats } from './RecorderStats';

/**
 * The repairs of the open frame outside the entity kernel's (flags, bones, camera, time, events):
 * each is counted in `stats`, warned about once, and added to `count`, which the frame's header
 * stores (`H_SANITIZED`). Repairs of stored words are made in place, in the ring's arena.
 *
 * @example
 * const repairs = new FrameRepairs(stats, warnOnce);
 * if (bad) repairs.flags();
 * header[H_SANITIZED] = kernelRepairs + repairs.count;
 * repairs.committed(); // at endFrame
 */
export class FrameRepairs {
  /** Repairs of the next frame committed (an event's made between frames counts in it). */
  public count = 0;

  public constructor(
    private readonly stats: RecorderStats,
    private readonly warnOnce: WarnOnce,
  ) {}

  /** Forgets the repairs (the frame that holds them was committed). */
  public committed(): void {
    this.count = 0;
  }

  /** Counts entity flags that were not an integer in [0, 127] (the caller stored the repair). */
  public flags(): void {
    this.stats.invalidFlags++;
    this.count++;
    if (!this.warnOnce.has('flags'))
      this.warnOnce.warn(
        'flags',
        "rewindable: entity flags must be an integer in [0, 127] (bit 7 is the recorder's SANITIZED); the low 7 bits of an integer in [0, 255] were kept, anything else stored as 0",
      );
  }

  /** Counts a bone record whose rotations or offsets were repaired. */
  public bones(id: number): void {
    this.stats.invalidBones++;
    this.count++;
    if (!this.warnOnce.has('bonevalues')) {
      this.warnOnce.warn(
        'bonevalues',
        `rewindable: bones of entity ${id} had a rotation that cannot be encoded (stored as the identity) or a non-finite offset (stored as 0)`,
      );
    }
  }

  /** Stores 0 for each non-finite float in `f[from, to)` of an event, and counts it. */
  public event(f: Float32Array, from: number, to: number): void {
    for (let i = from; i < to; i++) if (f[i] - f[i] !== 0) f[i] = 0;
    this.stats.invalidEvents++;
    this.count++;
    if (!this.warnOnce.has('eventvalues'))
      this.warnOnce.warn(
        'eventvalues',
        'rewindable: an event had a non-finite position or value (or one beyond float32 range); 0 was stored',
      );
  }

  /**
   * Repairs the camera of the frame at word `at` of `f` (position 0, rotation the identity, zoom 1
   * for each value that is not valid once stored) and counts it.
   */
  public camera(f: Float32Array, at: number): void {
    for (let i = at + H_CAM_X; i <= at + H_CAM_Z; i++) if (f[i] - f[i] !== 0) f[i] = 0;
    if (quatStatus.sanitized) quatStatus.sanitized = false;
    const zoom = f[at + H_CAM_ZOOM];
    if (!(zoom > 0 && zoom - zoom === 0)) f[at + H_CAM_ZOOM] = 1;
    this.stats.invalidCameras++;
    this.count++;
    if (!this.warnOnce.has('camera')) {
      this.warnOnce.warn(
        'camera',
        'rewindable: the camera had a non-finite position, a rotation that cannot be encoded, or a zoom that is not a positive finite float32; 0, the identity and 1 were stored instead',
      );
    }
  }

  /** Counts a frame whose time or dt was repaired (the time before, or 0; dt 0) at word `at` of `f`. */
  public time(f: Float32Array, at: number, frame: number): void {
    if (f[at + H_DT] - f[at + H_DT] !== 0) f[at + H_DT] = 0;
    this.stats.invalidTimes++;
    this.count++;
    if (!this.warnOnce.has('time')) {
      this.warnOnce.warn(
        'time',
        `rewindable: frame ${frame}: the time was not finite or went back (the previous frame's was stored), or dt was not a finite float32 (0 was stored)`,
      );
    }
  }
}
