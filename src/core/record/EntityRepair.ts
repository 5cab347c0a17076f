import { quatIsEncodableAt } from '../math/quat';
import { EntityFlags, HANDLE_BITS, HANDLE_MASK, HEADER_WORDS, H_ENTITY_COUNT } from '../format/layout';
import type { WarnOnce } from '../validate/WarnOnce';
import type { EntityKernel } from '../kernel/EntityKernel';
import type { FrameReader } from '../read/FrameReader';
import type { EntityTable } from '../store/EntityTable';
import type { FrameRing } from '../store/FrameRing';
import type { RecorderStats } from './RecorderStats';

/** What an `EntityRepair` works with: the resolver's storage, and the staged ids and flags. */
export interface EntityRepairContext {
  readonly kernel: EntityKernel;
  readonly ring: FrameRing;
  readonly table: EntityTable;
  readonly reader: FrameReader;
  readonly stats: RecorderStats;
  readonly warnings: WarnOnce;
  /** The resolver's staged ids and flags (entries of the open frame). */
  readonly ids: Int32Array;
  readonly flags: Uint8Array;
  /** Each staged entry's index among the kept entries, or -1 (the resolver's `keptIndex`). */
  readonly keptIndex: Int32Array;
}

/**
 * The rare work of `EntityResolver.resolve`, kept apart from its hot loop: repairing non-finite
 * positions (from the entity's last stored position) and invalid rotations (the identity), both
 * flagged `SANITIZED`, and closing the gaps that dropped entries leave in a frame's entity section.
 *
 * Internal to the recorder.
 *
 * @example
 * const repair = new EntityRepair({ kernel, ring, table, reader, stats, warnings, ids, flags, keptIndex });
 * const fixed = repair.rotations(n, base); // entries whose quaternion could not be encoded
 */
export class EntityRepair {
  /**
   * The previous frame's entity words and positions, copied when the open frame's reservation
   * evicted it (a ring of one frame, or frames larger than half the arena): `position` still finds
   * an entity's last position there. Allocated on first use.
   */
  private snapshot: Uint32Array | null = null;
  private snapshotFrame = -1;
  private snapshotCount = 0;
  private readonly context: EntityRepairContext;

  public constructor(context: EntityRepairContext) {
    this.context = context;
  }

  /**
   * Keeps the entities and positions of `frame`, held at word `at` of the arena and being evicted
   * to make room for the frame after it (called before that frame is written).
   */
  public keepPrevious(frame: number, at: number): void {
    const u = this.context.ring.u32;
    const n = u[at + H_ENTITY_COUNT];
    if (this.snapshot === null) this.snapshot = new Uint32Array(this.context.ids.length * 4);
    this.snapshot.set(u.subarray(at + HEADER_WORDS, at + HEADER_WORDS + n * 4));
    this.snapshotFrame = frame;
    this.snapshotCount = n;
  }

  /** Forgets the kept previous frame. */
  public clear(): void {
    this.snapshotFrame = -1;
  }

  /**
   * Counts the kept entries whose quaternion could not be encoded (the kernel stored the identity),
   * flags them SANITIZED (`quatIsEncodableAt`, the codec's own test) and returns how many.
   */
  public rotations(n: number, base: number): number {
    const { kernel: k, keptIndex, stats, warnings, ids, ring } = this.context;
    let count = 0;
    for (let i = 0; i < n; i++) {
      const at = keptIndex[i];
      if (at < 0 || quatIsEncodableAt(k.qx, k.qy, k.qz, k.qw, i)) continue;
      stats.invalidRotations++;
      count++;
      if (!warnings.has('quat'))
        warnings.warn(
          'quat',
          `rewindable: entity ${ids[i]} has a quaternion that cannot be encoded (zero, NaN, infinite, or a norm below about 1e-10 or above about 1e10); the identity was stored`,
        );
      if (base >= 0) ring.u32[base + at] |= EntityFlags.SANITIZED << HANDLE_BITS;
    }
    return count;
  }

  /**
   * Closes the gaps dropped entries left: the kernel wrote positions and rotations for all `n`
   * staged entries, laid out for `n`; the kept `m` move to their kept index, then the sections move
   * to where a frame of `m` entities has them.
   */
  public compact(n: number, m: number, base: number): void {
    const u = this.context.ring.u32;
    const keptIndex = this.context.keptIndex;
    const p = base + n;
    const r = base + 4 * n;
    for (let i = 0; i < n; i++) {
      const k = keptIndex[i];
      if (k < 0 || k === i) continue;
      u[p + k * 3] = u[p + i * 3];
      u[p + k * 3 + 1] = u[p + i * 3 + 1];
      u[p + k * 3 + 2] = u[p + i * 3 + 2];
      u[r + k] = u[r + i];
    }
    u.copyWithin(base + m, p, p + m * 3);
    u.copyWithin(base + m * 4, r, r + m);
  }

  /**
   * Replaces entry `i`'s invalid position by the entity's last stored one (or the origin), in the
   * arena at word `at` (when ≥ 0), and flags the entry SANITIZED.
   */
  public position(frame: number, i: number, h: number, continued: boolean, at: number): void {
    const { reader, ring, flags, stats, warnings, table } = this.context;
    if (at >= 0) {
      // The entity's index in the previous frame: most games keep their order, so try i first.
      const prev = frame - 1;
      let found = false;
      if (continued && reader.has(prev)) {
        const li = reader.indexOf(prev, h, i);
        found = li >= 0 && reader.positionAt(prev, li, ring.f32, at);
      } else if (continued && this.snapshotFrame === prev) {
        found = this.positionFromSnapshot(h, i, at);
      }
      if (!found) {
        const f = ring.f32;
        f[at] = 0;
        f[at + 1] = 0;
        f[at + 2] = 0;
      }
    }
    flags[i] |= EntityFlags.SANITIZED;
    stats.invalidPositions++;
    if (!warnings.has('nan'))
      warnings.warn(
        'nan',
        `rewindable: entity ${table.ids[h]} has a NaN or infinite position; its last good position was stored`,
      );
  }

  /** Copies handle `h`'s position from the snapshot (`keepPrevious`) to word `at`; false when absent. */
  private positionFromSnapshot(h: number, hint: number, at: number): boolean {
    const s = this.snapshot;
    const n = this.snapshotCount;
    if (s === null) return false;
    let j = hint < n && (s[hint] & HANDLE_MASK) === h ? hint : -1;
    for (let k = 0; j < 0 && k < n; k++) if ((s[k] & HANDLE_MASK) === h) j = k;
    if (j < 0) return false;
    const u = this.context.ring.u32;
    u[at] = s[n + j * 3];
    u[at + 1] = s[n + j * 3 + 1];
    u[at + 2] = s[n + j * 3 + 2];
    return true;
  }
}
