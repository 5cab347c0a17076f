import type { Recorder } from '../core/record/Recorder';
import type { EntityBinding } from './binding';

/**
 * Names each new life's kind from the binding (`binding.kindOf`), so the game never calls
 * `recorder.describe`: after each recorded frame, every life that began since the last check, is
 * alive in the newest frame and has no kind yet is looked up (`find`) and asked for its kind. Scans
 * the entity table's handles (a typed-array pass, no allocation) only when a new frame was recorded.
 *
 * @internal Part of `RewindOverlay`.
 *
 * @example
 * const kinds = new LifeKinds(recorder, binding, warn);
 * kinds.update(); // after each recorded frame
 */
export class LifeKinds {
  private checkedFrame = -1;

  public constructor(
    private readonly recorder: Recorder,
    private readonly binding: EntityBinding,
    private readonly warn: (key: string, message: string) => void,
  ) {}

  /** Asks the kind of every life that began since the last call (no-op without `binding.kindOf`). */
  public update(): void {
    const kindOf = this.binding.kindOf;
    const reader = this.recorder.reader;
    if (kindOf === undefined || reader.frameCount === 0) return;
    const newest = reader.newestFrame;
    if (newest === this.checkedFrame) return;
    const since = this.checkedFrame;
    this.checkedFrame = newest;
    const t = reader.entities;
    const n = t.highWater;
    for (let h = 0; h < n; h++) {
      if (t.used[h] !== 1 || t.kindOf[h] >= 0 || t.spawnFrames[h] <= since || t.lastFrame(h) !== newest || t.isEnded(h))
        continue;
      const id = t.ids[h];
      let kind: string | null | undefined;
      try {
        const obj = this.binding.find(id);
        kind = obj === null || obj === undefined ? undefined : kindOf.call(this.binding, obj, id);
      } catch (err) {
        this.warn('kindOf', `rewindable: binding.kindOf (or find) threw for entity ${id}: ${String(err)}`);
        kind = undefined;
      }
      if (typeof kind === 'string' && kind.length > 0) this.recorder.describe(id, kind);
    }
  }

  /** Forgets what was checked (the recording was cleared). */
  public reset(): void {
    this.checkedFrame = -1;
  }
}
