/**
 * The last `maxFrames` snapshots of a peer, one slot per frame (`frame % maxFrames`): putting frame
 * `f` drops frame `f - maxFrames`. Frame numbers are contiguous, so this is exactly the retention
 * of rewindable's ring. Sizes are tracked so the stored bytes of the frames held are known.
 *
 * @example
 * const ring = new SnapshotRing<string>(900);
 * ring.put(frame, JSON.stringify(objects), bytes);
 * ring.get(frame); // the string, or undefined once evicted
 */
export class SnapshotRing<T> {
  private readonly items: Array<T | undefined>;
  private readonly frames: Int32Array;
  private readonly sizes: Float64Array;
  private held = 0;
  private bytes = 0;

  public constructor(public readonly maxFrames: number) {
    if (!(maxFrames >= 1 && (maxFrames | 0) === maxFrames)) {
      throw new RangeError(`SnapshotRing: maxFrames must be a positive integer (got ${maxFrames})`);
    }
    this.items = new Array<T | undefined>(maxFrames).fill(undefined);
    this.frames = new Int32Array(maxFrames).fill(-1);
    this.sizes = new Float64Array(maxFrames);
  }

  /** Keeps `item` as frame `frame` (`bytes`: its stored size, NaN when unknown). */
  public put(frame: number, item: T, bytes: number): void {
    const slot = frame % this.maxFrames;
    if (this.frames[slot] >= 0) {
      this.held--;
      this.bytes -= this.sizes[slot];
    }
    this.items[slot] = item;
    this.frames[slot] = frame;
    this.sizes[slot] = bytes;
    this.bytes += bytes;
    this.held++;
  }

  /** The snapshot of `frame`, or undefined when it is not held. */
  public get(frame: number): T | undefined {
    if (!(frame >= 0)) return undefined;
    const slot = frame % this.maxFrames;
    return this.frames[slot] === frame ? this.items[slot] : undefined;
  }

  /** Frames held. */
  public get framesHeld(): number {
    return this.held;
  }

  /** Sum of the sizes given to `put` for the frames held. */
  public get storedBytes(): number {
    return this.bytes;
  }

  /** Drops every snapshot. */
  public clear(): void {
    this.items.fill(undefined);
    this.frames.fill(-1);
    this.sizes.fill(0);
    this.held = 0;
    this.bytes = 0;
  }
}
