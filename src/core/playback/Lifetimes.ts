import type { FrameReader } from '../read/FrameReader';

/**
 * The life of every unique id (handle) held in the ring: first and last frame present, kind, label,
 * and whether it still exists in the newest frame. Read straight from the reader's `EntityTable`
 * (written once per life, not per frame), so every query is O(1) and nothing is decoded.
 *
 * A life is contiguous: an id missing from a frame, or despawned, starts a new unique id (a new
 * handle) when it is recorded again. That is what lets an overlay hide entities that spawned after
 * the viewed frame and re-create those that have despawned since.
 *
 * @example
 * const lifetimes = new Lifetimes(recorder.reader);
 * lifetimes.forEach((h) => {
 *   if (!lifetimes.existsAtNewest(h)) recreate(lifetimes.kind(h), lifetimes.id(h)); // despawned since
 * });
 */
export class Lifetimes {
  public constructor(public readonly reader: FrameReader) {}

  /** Whether `handle` names a unique id present in at least one frame held. */
  public isHeld(handle: number): boolean {
    const r = this.reader;
    const t = r.entities;
    if (r.frameCount === 0 || !(handle >= 0 && handle < t.highWater) || t.used[handle] !== 1) return false;
    return t.spawnFrames[handle] <= r.newestFrame && t.lastFrame(handle) >= r.oldestFrame;
  }

  /** First frame the entity is present in that is still held (its spawn frame, or the oldest frame); -1 when not held. */
  public firstFrame(handle: number): number {
    if (!this.isHeld(handle)) return -1;
    const s = this.reader.entities.spawnFrames[handle];
    const o = this.reader.oldestFrame;
    return s > o ? s : o;
  }

  /**
   * Last frame the entity is present in, among the frames held (it may be present in the frame the
   * recorder has open); -1 when not held.
   */
  public lastFrame(handle: number): number {
    if (!this.isHeld(handle)) return -1;
    const l = this.reader.entities.lastFrame(handle);
    const n = this.reader.newestFrame;
    return l < n ? l : n;
  }

  /** Whether the entity is present in `frame` (a held frame within its life). */
  public presentAt(handle: number, frame: number): boolean {
    if (!this.isHeld(handle) || !this.reader.has(frame)) return false;
    const t = this.reader.entities;
    return frame >= t.spawnFrames[handle] && frame <= t.lastFrame(handle);
  }

  /** Whether the entity exists in the newest frame held (so, normally, in the paused game). */
  public existsAtNewest(handle: number): boolean {
    return this.isHeld(handle) && this.reader.entities.lastFrame(handle) >= this.reader.newestFrame;
  }

  /** The kind given by `Recorder.describe`, or undefined. */
  public kind(handle: number): string | undefined {
    const t = this.reader.entities;
    if (!(handle >= 0 && handle < t.highWater) || t.used[handle] !== 1) return undefined;
    const k = t.kindOf[handle];
    return k >= 0 ? t.kinds[k] : undefined;
  }

  /** The label given by `Recorder.describe`, or undefined. */
  public label(handle: number): string | undefined {
    const t = this.reader.entities;
    if (!(handle >= 0 && handle < t.highWater) || t.used[handle] !== 1) return undefined;
    return t.labels[handle];
  }

  /** The bone parents of the entity's kind (from `Recorder.describeSkeleton`), or undefined. */
  public skeleton(handle: number): Int16Array | undefined {
    const t = this.reader.entities;
    if (!(handle >= 0 && handle < t.highWater) || t.used[handle] !== 1) return undefined;
    const k = t.kindOf[handle];
    return k >= 0 ? t.skeletons[k] : undefined;
  }

  /** The game's numeric id, or -1 when the handle is not in use. */
  public id(handle: number): number {
    const t = this.reader.entities;
    return handle >= 0 && handle < t.highWater && t.used[handle] === 1 ? t.ids[handle] : -1;
  }

  /** Frame the life began (may be older than the oldest frame held), or -1 when the handle is not in use. */
  public spawnFrame(handle: number): number {
    const t = this.reader.entities;
    return handle >= 0 && handle < t.highWater && t.used[handle] === 1 ? t.spawnFrames[handle] : -1;
  }

  /** Calls `fn` with every handle present in at least one frame held, in handle order. */
  public forEach(fn: (handle: number) => void): void {
    const r = this.reader;
    if (r.frameCount === 0) return;
    const t = r.entities;
    const oldest = r.oldestFrame;
    const newest = r.newestFrame;
    const n = t.highWater;
    for (let h = 0; h < n; h++) {
      if (t.used[h] === 1 && t.spawnFrames[h] <= newest && t.lastFrame(h) >= oldest) fn(h);
    }
  }
}
