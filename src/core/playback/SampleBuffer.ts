import { EntityBuffer, growTyped } from '../read/buffers';

/**
 * Which of the two neighbour frames of a sample held an entity: both (blended), only the earlier
 * frame A, or only the later frame B. An entity in one frame only is reported with that frame's
 * values, unblended.
 */
export const Presence = {
  /** In frame A and in frame B: the values are blended. */
  BOTH: 3,
  /** Only in the earlier frame A: it despawned between A and B. */
  ONLY_A: 1,
  /** Only in the later frame B: it spawned between A and B. */
  ONLY_B: 2,
} as const;

/** One of the `Presence` values. */
export type PresenceValue = (typeof Presence)[keyof typeof Presence];

/**
 * The caller-owned output of `Sampler.sample`: an `EntityBuffer` (one row per entity: handles,
 * flags, positions, rotations, bones, in flat typed arrays with a stride) plus the sample's own
 * columns (ids, spawn frames, presence) and the blend. Flags come from the nearer of the two frames.
 * Arrays grow only when a sample holds more entities or bones than ever before, so steady-state
 * sampling allocates nothing.
 *
 * Treat the arrays as read-only: the sampler may skip rewriting the rows that did not change since
 * it last wrote this buffer (handles, ids, spawn frames, presence and the bone layout).
 *
 * @example
 * const out = new SampleBuffer();
 * if (sampler.sample(120.25, out)) {
 *   for (let i = 0; i < out.count; i++) {
 *     if (!out.inNearerFrame(i)) continue; // spawned later / despawned earlier than the nearer frame
 *     draw(out.ids[i], out.positions[i * 3], out.positions[i * 3 + 1], out.rotations, i * 4, out.flags[i]);
 *   }
 *   const player = out.indexOfHandle(playerHandle); // O(1), -1 when absent
 * }
 */
export class SampleBuffer extends EntityBuffer {
  /** The game's numeric id of each row. */
  public ids = new Int32Array(0);
  /** Frame in which each row's life began (with `ids`, the unique id). */
  public spawnFrames = new Int32Array(0);
  /** `Presence` of each row. */
  public presence = new Uint8Array(0);
  /** Camera x, y, z, qx, qy, qz, qw, zoom, interpolated (valid when `hasCamera`). */
  public readonly camera = new Float32Array(8);
  /** Whether either neighbour frame recorded the game camera. */
  public hasCamera = false;
  /** The position that was sampled, clamped to the frames held. */
  public position = Number.NaN;
  /** The earlier neighbour frame. */
  public frameA = -1;
  /** The later neighbour frame (equal to `frameA` at integer positions and in concrete mode). */
  public frameB = -1;
  /** Blend factor from A (0) to B (1). */
  public t = 0;
  /** Game time, interpolated between the two frames' recorded times. */
  public time = Number.NaN;
  /** Over-budget channel bits of the nearer frame. */
  public overBudget = 0;

  private layoutOwner: object | null = null;
  private layoutKey = -1;
  private indexValid = false;
  private indexGen = 0;
  private indexOf = new Int32Array(0);
  private indexStamp = new Int32Array(0);

  public constructor(capacity = 0, boneCapacity = 0) {
    super(); // with no capacity: this class's columns exist only once it returns (see `growRows`)
    this.ensure(capacity);
    this.ensureBones(boneCapacity);
  }

  protected override growRows(cap: number): void {
    this.ids = growTyped(this.ids, new Int32Array(cap));
    this.spawnFrames = growTyped(this.spawnFrames, new Int32Array(cap));
    this.presence = growTyped(this.presence, new Uint8Array(cap));
  }

  /**
   * Row of `handle` in this sample, or -1. O(1): a handle-indexed table is rebuilt lazily, once,
   * after a sample changed the set of rows.
   */
  public indexOfHandle(handle: number): number {
    if (!this.indexValid) this.rebuildIndex();
    if (!(handle >= 0 && handle < this.indexStamp.length)) return -1;
    return this.indexStamp[handle] === this.indexGen ? this.indexOf[handle] : -1;
  }

  /**
   * Whether row `i` exists in the nearer of the two frames: always for `BOTH`, for `ONLY_A` while
   * `t < 0.5`, for `ONLY_B` from `t >= 0.5`. What an overlay normally shows.
   */
  public inNearerFrame(i: number): boolean {
    const p = this.presence[i];
    return p === Presence.BOTH || (p === Presence.ONLY_A ? this.t < 0.5 : this.t >= 0.5);
  }

  /**
   * For samplers: records that `owner` wrote the row layout identified by `key` into this buffer.
   * Returns true when that exact layout is already here (the layout rows may be left as they are);
   * otherwise remembers the new owner/key, invalidates the handle index and returns false.
   */
  public claimLayout(owner: object, key: number): boolean {
    if (this.layoutOwner === owner && this.layoutKey === key) return true;
    this.layoutOwner = owner;
    this.layoutKey = key;
    this.indexValid = false;
    return false;
  }

  /** Forgets the row layout (the next sample rewrites every row). Call after editing rows by hand. */
  public invalidateLayout(): void {
    this.layoutOwner = null;
    this.layoutKey = -1;
    this.indexValid = false;
  }

  private rebuildIndex(): void {
    const n = this.count;
    const hs = this.handles;
    let max = -1;
    for (let i = 0; i < n; i++) if (hs[i] > max) max = hs[i];
    if (max >= this.indexStamp.length) {
      const cap = Math.max(max + 1, this.indexStamp.length * 2, 64);
      this.indexStamp = new Int32Array(cap);
      this.indexOf = new Int32Array(cap);
      this.indexGen = 0;
    }
    if (this.indexGen >= 0x7ffffff0) {
      this.indexStamp.fill(0);
      this.indexGen = 0;
    }
    const g = ++this.indexGen;
    const stamp = this.indexStamp;
    const idx = this.indexOf;
    for (let i = 0; i < n; i++) {
      const h = hs[i];
      if (h < 0) continue;
      stamp[h] = g;
      idx[h] = i;
    }
    this.indexValid = true;
  }
}
