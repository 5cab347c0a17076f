import type { EntityTable } from '../store/EntityTable';

/**
 * Entity handles in the order their lives ended, with the last frame each was present in. A handle
 * is released back to the `EntityTable` only when that frame is evicted, so every frame still held
 * names the right unique id. Grows (rarely) when more lives end than it has room for; never per frame
 * in steady state.
 *
 * @example
 * const deaths = new DeathQueue(1024);
 * deaths.push(handle, lastFrame);
 * ring.onEvict = (frame) => deaths.releaseThrough(frame, table);
 *
 * @internal The recorder's; not exported by any entry.
 */
export class DeathQueue {
  private handles: Int32Array;
  private frames: Int32Array;
  private head = 0;
  private length = 0;

  public constructor(capacity: number) {
    this.handles = new Int32Array(Math.max(16, capacity));
    this.frames = new Int32Array(Math.max(16, capacity));
  }

  /** Lives waiting for their last frame to be evicted. */
  public get size(): number {
    return this.length;
  }

  /** Records that `handle`'s life ended, `frame` being the last frame it was present in. */
  public push(handle: number, frame: number): void {
    if (this.length === this.handles.length) this.grow();
    const j = (this.head + this.length) % this.handles.length;
    this.handles[j] = handle;
    this.frames[j] = frame;
    this.length++;
  }

  /** Releases every handle whose last frame is `frame` or older (that frame was just evicted). */
  public releaseThrough(frame: number, table: EntityTable): void {
    while (this.length > 0 && this.frames[this.head] <= frame) {
      table.release(this.handles[this.head]);
      this.head = (this.head + 1) % this.handles.length;
      this.length--;
    }
  }

  /** Forgets everything (the table is cleared separately). */
  public clear(): void {
    this.head = 0;
    this.length = 0;
  }

  private grow(): void {
    const cap = this.handles.length * 2;
    const nh = new Int32Array(cap);
    const nf = new Int32Array(cap);
    for (let i = 0; i < this.length; i++) {
      const j = (this.head + i) % this.handles.length;
      nh[i] = this.handles[j];
      nf[i] = this.frames[j];
    }
    this.handles = nh;
    this.frames = nf;
    this.head = 0;
  }
}
