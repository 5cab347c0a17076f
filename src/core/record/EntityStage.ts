import { EntityFlags } from '../format/layout';
import type { EntityKernel } from '../kernel/EntityKernel';
import { USER_FLAGS_MASK } from '../validate/rules';
import type { WarnOnce } from '../validate/WarnOnce';
import type { EntityColumns } from './EntityColumns';
import type { EntityResolver } from './EntityResolver';
import type { FrameRepairs } from './FrameRepairs';
import type { RecorderStats } from './RecorderStats';

const SANITIZED = EntityFlags.SANITIZED;
/** A module local, not an imported binding (see `Recorder`: some loaders make the latter a getter). */
const USER_FLAGS = USER_FLAGS_MASK;

/**
 * The raw input of the open frame, one column per field: ids and flags (the resolver's columns) and
 * the kernel's float columns (position, quaternion). `Recorder.entity` writes one entry here
 * directly (so that it stays small enough for V8 to inline); the batch and columns forms stage
 * here without passing a double to any call. At `endFrame` the kernel encodes the quaternions and
 * packs the positions straight into the arena, and the resolver resolves the ids.
 *
 * @example
 * const stage = new EntityStage(kernel, resolver, maxEntityId, stats, warnOnce, repairs);
 * stage.begin();
 * stage.batch(count, ids, positions, rotations, flags); // stage.count entries staged
 */
export class EntityStage {
  public readonly ids: Int32Array;
  public readonly flags: Uint8Array;
  public readonly x: Float32Array;
  public readonly y: Float32Array;
  public readonly z: Float32Array;
  public readonly qx: Float32Array;
  public readonly qy: Float32Array;
  public readonly qz: Float32Array;
  public readonly qw: Float32Array;
  /**
   * The float columns as one view (`x` at 0, `y` at `stride`, ... `qw` at `6 · stride`) and the
   * most entries a frame stages: what `Recorder.entity` reads on every call.
   */
  public readonly floats: Float32Array;
  public readonly stride: number;
  public readonly capacity: number;
  /** Entries staged in the open frame. */
  public count = 0;
  /**
   * `capacity` while a frame is open, 0 otherwise: `Recorder.entity` stages entry `count` only when
   * `count < limit`, one test for both (a boolean field would cost V8 a generic truthiness test a call).
   */
  public limit = 0;
  /** Entity calls of the open frame refused before staging (bad id, over capacity). */
  public dropped = 0;
  /**
   * The last `batch`/`columns` call: the entries it was given start at `callStart` when all were
   * staged (`count - callStart === callCount`); `Recorder.displayColumns` follows such a call.
   */
  public callStart = -1;
  public callCount = 0;
  /** The staged flags as words (the column starts on 16 bytes and is padded to 16). */
  private readonly flagsWords: Uint32Array;

  public constructor(
    kernel: EntityKernel,
    private readonly resolver: EntityResolver,
    public readonly maxEntityId: number,
    private readonly stats: RecorderStats,
    private readonly warnOnce: WarnOnce,
    private readonly repairs: FrameRepairs,
  ) {
    this.ids = resolver.ids;
    this.flags = resolver.flags;
    this.flagsWords = new Uint32Array(this.flags.buffer, this.flags.byteOffset, Math.ceil(this.flags.length / 4));
    this.x = kernel.x;
    this.y = kernel.y;
    this.z = kernel.z;
    this.qx = kernel.qx;
    this.qy = kernel.qy;
    this.qz = kernel.qz;
    this.qw = kernel.qw;
    this.floats = kernel.columns;
    this.stride = kernel.stride;
    this.capacity = resolver.ids.length;
  }

  /** The id of the entry staged last (`bones`, `display` and `fields` follow it), -1 before the first. */
  public get lastId(): number {
    const n = this.count;
    return n > 0 ? this.ids[n - 1] : -1;
  }

  /** Starts a frame with nothing staged. */
  public begin(): void {
    this.count = 0;
    this.limit = this.capacity;
    this.dropped = 0;
    this.callStart = -1;
    this.callCount = 0;
  }

  /** Ends the open frame: nothing more is staged (`limit` is 0) until `begin`. */
  public close(): void {
    this.limit = 0;
  }

  /**
   * Flags that are not an integer in [0, 127]: an integer in [0, 255] keeps its low seven bits (bit
   * 7 is the recorder's `SANITIZED`), anything else is 0; counted in `stats.invalidFlags`.
   */
  public repairFlags(flags: number): number {
    this.repairs.flags();
    return (flags & 0xff) === flags ? flags & USER_FLAGS : 0;
  }

  /** Counts an entity call of an open frame that could not be staged (bad id or over capacity). */
  public refuse(id: number): void {
    if (!(id >= 0 && id < this.maxEntityId && (id | 0) === id)) {
      this.dropped++;
      this.resolver.badId(id);
      return;
    }
    this.stats.entitiesOverCapacity++;
    this.dropped++;
    if (!this.warnOnce.has('cap'))
      this.warnOnce.warn(
        'cap',
        `rewindable: more than ${this.ids.length} entities in one frame; the rest were dropped`,
      );
  }

  /** `Recorder.entityBatch` in an open frame. */
  public batch(
    count: number,
    ids: ArrayLike<number>,
    positions: ArrayLike<number>,
    rotations: ArrayLike<number>,
    flags?: ArrayLike<number>,
  ): void {
    // entity()'s staging, written out: a call per entry would pass doubles, which V8 boxes (16
    // bytes each) whenever it decides not to inline the call, and that decision varies from run to
    // run. Only a refused entry makes a call.
    const max = this.maxEntityId;
    const cap = this.ids.length;
    const X = this.x,
      Y = this.y,
      Z = this.z;
    const QX = this.qx,
      QY = this.qy,
      QZ = this.qz,
      QW = this.qw;
    const inIds = this.ids,
      inFlags = this.flags;
    // Entries past the ids are not entities: a count beyond them is cut there; a fractional count is
    // its whole part (as in `columns`).
    const c = count > 0 ? (count < ids.length ? count | 0 : ids.length) : 0;
    let n = this.count;
    this.callStart = n;
    this.callCount = c;
    for (let i = 0; i < c; i++) {
      const id = ids[i];
      if (n >= cap || !(id >= 0 && id < max && (id | 0) === id)) {
        this.count = n;
        this.refuse(id);
        continue;
      }
      const p = i * 3;
      const q = i * 4;
      X[n] = positions[p];
      Y[n] = positions[p + 1];
      Z[n] = positions[p + 2];
      QX[n] = rotations[q];
      QY[n] = rotations[q + 1];
      QZ[n] = rotations[q + 2];
      QW[n] = rotations[q + 3];
      inIds[n] = id;
      const fl = flags === undefined ? 0 : flags[i];
      if ((fl & USER_FLAGS) === fl) {
        inFlags[n] = fl;
      } else {
        inFlags[n] = (fl & 0xff) === fl ? fl & USER_FLAGS : 0;
        this.repairs.flags();
      }
      n++;
    }
    this.count = n;
  }

  /** `Recorder.entityColumns` in an open frame. */
  public columns(count: number, columns: EntityColumns): void {
    const { ids, x, y, z, qx, qy, qz, qw, flags } = columns;
    const max = this.maxEntityId;
    const n = this.count;
    const c = count > 0 ? (count < ids.length ? count | 0 : ids.length) : 0;
    this.callStart = n;
    this.callCount = c;
    // Fast path: every id valid, typed-array columns that fit the staging area: each column is one
    // block copy (`TypedArray.set` of the whole column, no view allocated), not a per-entity loop.
    // An Int32Array holds integers only: the range check then happens when the entries resolve
    // (EntityResolver drops and counts an id out of range there, as entity() does here), which
    // saves a pass over the ids. Any other column is checked here.
    let valid = ids instanceof Int32Array ? c : 0;
    while (valid < c) {
      const id = ids[valid];
      if (!(id >= 0 && id < max && (id | 0) === id)) break;
      valid++;
    }
    if (
      valid === c &&
      c > 0 &&
      this.fitsBlock(ids, n, c) &&
      this.fitsBlock(x, n, c) &&
      this.fitsBlock(y, n, c) &&
      this.fitsBlock(z, n, c) &&
      this.fitsBlock(qx, n, c) &&
      this.fitsBlock(qy, n, c) &&
      this.fitsBlock(qz, n, c) &&
      this.fitsBlock(qw, n, c) &&
      (flags === undefined || (flags instanceof Uint8Array && this.fitsBlock(flags, n, c)))
    ) {
      this.ids.set(ids as Int32Array, n);
      this.x.set(x as Float32Array, n);
      this.y.set(y as Float32Array, n);
      this.z.set(z as Float32Array, n);
      this.qx.set(qx as Float32Array, n);
      this.qy.set(qy as Float32Array, n);
      this.qz.set(qz as Float32Array, n);
      this.qw.set(qw as Float32Array, n);
      if (flags === undefined) {
        this.flags.fill(0, n, n + c);
      } else {
        this.flags.set(flags as Uint8Array, n);
        // A byte is an integer in [0, 255]: only bit 7 (the recorder's SANITIZED) can be wrong. Four
        // bytes a load; the words at the ends may take in neighbours, which only costs a look.
        const words = this.flagsWords;
        let high = 0;
        for (let w = n >>> 2; w < (n + c + 3) >>> 2; w++) high |= words[w];
        if ((high & 0x80808080) !== 0) this.clearHighFlags(n, n + c);
      }
      this.count = n + c;
      return;
    }
    this.stageColumns(c, columns);
  }

  /**
   * Clears and counts bit 7 of the staged flags [from, to) (`columns` copied them as they were).
   * An entry whose id is out of range is skipped: it is refused when resolved, and `entity()` refuses
   * such an entry before looking at its flags.
   */
  private clearHighFlags(from: number, to: number): void {
    const inFlags = this.flags;
    const ids = this.ids;
    const max = this.maxEntityId;
    for (let i = from; i < to; i++) {
      if ((inFlags[i] & SANITIZED) === 0 || !(ids[i] >= 0 && ids[i] < max)) continue;
      inFlags[i] &= USER_FLAGS;
      this.repairs.flags();
    }
  }

  /**
   * Whether `column` can be block-copied into the staging area at `n` for `count` entities: a typed
   * array that fits, and at most twice as long as needed (copying a mostly empty column costs more
   * than the loop).
   */
  private fitsBlock(column: ArrayLike<number>, n: number, count: number): boolean {
    const len = column.length;
    return len >= count && len <= 2 * count + 64 && n + len <= this.ids.length && ArrayBuffer.isView(column);
  }

  /**
   * `columns` one entity at a time: for plain arrays, bad ids, long columns, or a full stage. The
   * staging is written out, as in `batch`, so that no double is passed to a call.
   */
  private stageColumns(count: number, columns: EntityColumns): void {
    const { ids, x, y, z, qx, qy, qz, qw, flags } = columns;
    const max = this.maxEntityId;
    const cap = this.ids.length;
    let n = this.count;
    for (let i = 0; i < count; i++) {
      const id = ids[i];
      if (n >= cap || !(id >= 0 && id < max && (id | 0) === id)) {
        this.count = n;
        this.refuse(id);
        continue;
      }
      this.x[n] = x[i];
      this.y[n] = y[i];
      this.z[n] = z[i];
      this.qx[n] = qx[i];
      this.qy[n] = qy[i];
      this.qz[n] = qz[i];
      this.qw[n] = qw[i];
      this.ids[n] = id;
      const fl = flags === undefined ? 0 : flags[i];
      if ((fl & USER_FLAGS) === fl) {
        this.flags[n] = fl;
      } else {
        this.flags[n] = (fl & 0xff) === fl ? fl & USER_FLAGS : 0;
        this.repairs.flags();
      }
      n++;
    }
    this.count = n;
  }
}
