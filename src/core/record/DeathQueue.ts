import type { EntityTable } from '../store/EntityTable';

/**
 * Entity handles in the order their lives ended, with the last frame each was present in. A handle
 * is released back to the `EntityTable` only when that frame is evicted, so every frame still held
 * names the right unique id. Grows (rarely) when more lives end than it has room for; never per frame
 * in steady state.
 *
 * Start it small (the recorder: 1,024 entries) and let it grow to what the game needs: the queue is a
 * ring that moves on by one entry per death, and every page of its columns written for the first
 * time is a page fault in that frame (tens of microseconds on a virtual machine, where the host
 * backs the page then). A queue as large as the handle table (32,768 entries at 1,000 entities)
 * took 8,000 frames of 4 deaths each to wrap, with a fault every 128 frames until then.
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
  /** Capacity − 1 (the capacity is a power of two). */
  private mask: number;
  private head = 0;
  private length = 0;

  public constructor(capacity: number) {
    let cap = 16;
    while (cap < capacity) cap *= 2;
    this.handles = new Int32Array(cap);
    this.frames = new Int32Array(cap);
    this.mask = cap - 1;
  }

  /** Entries it holds before it next grows. */
  public get capacity(): number {
    return this.handles.length;
  }

  /** Lives waiting for their last frame to be evicted. */
  public get size(): number {
    return this.length;
  }

  /** Records that `handle`'s life ended, `frame` being the last frame it was present in. */
  public push(handle: number, frame: number): void {
    if (this.length === this.handles.length) this.grow();
    const j = (this.head + this.length) & this.mask;
    this.handles[j] = handle;
    this.frames[j] = frame;
    this.length++;
  }

  /**
   * Releases every handle whose last frame is `frame` or older (that frame was just evicted): the
   * queue is in frame order, so they are the run at its head, released in one batch
   * (`EntityTable.releaseAll`).
   */
  public releaseThrough(frame: number, table: EntityTable): void {
    const frames = this.frames;
    const mask = this.mask;
    const head = this.head;
    const length = this.length;
    let due = 0;
    while (due < length && frames[(head + due) & mask] <= frame) due++;
    if (due === 0) return;
    table.releaseAll(this.handles, head, due, mask);
    this.head = (head + due) & mask;
    this.length = length - due;
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
      const j = (this.head + i) & this.mask;
      nh[i] = this.handles[j];
      nf[i] = this.frames[j];
    }
    this.handles = nh;
    this.frames = nf;
    this.mask = cap - 1;
    this.head = 0;
  }
}
