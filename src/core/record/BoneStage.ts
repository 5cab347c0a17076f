import { BONE_INDEX_BITS, BONE_INDEX_MASK, MAX_BONES } from '../format/layout';
import { encodeQuatColumns } from '../math/quat';
import type { WarnOnce } from '../validate/WarnOnce';
import type { FrameRepairs } from './FrameRepairs';
import type { RecorderStats } from './RecorderStats';

/** Staging columns for one entity's bone rotations (the batch encoder reads columns). */
const BONE_QX = new Float32Array(MAX_BONES);
const BONE_QY = new Float32Array(MAX_BONES);
const BONE_QZ = new Float32Array(MAX_BONES);
const BONE_QW = new Float32Array(MAX_BONES);
const fr = Math.fround;

/**
 * The bone records of the open frame (`Recorder.bones`), encoded as they come and copied into the
 * frame at `endFrame`, renumbered past the entities the resolver dropped.
 *
 * @example
 * const bones = new BoneStage(1 << 16, stats, warnOnce, repairs);
 * bones.begin();
 * if (bones.add(id, entityIndex, 12, rotations, offsets)) flags[entityIndex] |= EntityFlags.SANITIZED;
 */
export class BoneStage {
  /** Words staged in the open frame. */
  public count = 0;
  private readonly words: Uint32Array;
  private readonly floats: Float32Array;
  private readonly wordsI32: Int32Array;

  public constructor(
    maxWords: number,
    private readonly stats: RecorderStats,
    private readonly warnOnce: WarnOnce,
    private readonly repairs: FrameRepairs,
  ) {
    this.words = new Uint32Array(maxWords);
    this.floats = new Float32Array(this.words.buffer);
    this.wordsI32 = new Int32Array(this.words.buffer);
  }

  /** Starts a frame with no bones. */
  public begin(): void {
    this.count = 0;
  }

  /**
   * Stages the bones of the entity staged at `index` (see `Recorder.bones`); returns whether a
   * rotation or offset was repaired (the caller flags the entity `SANITIZED`), or drops the record.
   */
  public add(
    id: number,
    index: number,
    count: number,
    rotations: ArrayLike<number>,
    offsets: ArrayLike<number>,
  ): boolean {
    const c = count | 0;
    const words = 1 + c * 4;
    if (
      c !== count ||
      c <= 0 ||
      c > MAX_BONES ||
      this.count + words > this.words.length ||
      !(rotations.length >= c * 4) ||
      !(offsets.length >= c * 3)
    ) {
      this.stats.bonesDropped++;
      if (!this.warnOnce.has('bonecap'))
        this.warnOnce.warn(
          'bonecap',
          `rewindable: bones of entity ${id} dropped (count ${count}, capacity or array length)`,
        );
      return false;
    }
    const fl = this.floats;
    let at = this.count;
    this.words[at++] = index | (c << BONE_INDEX_BITS);
    // The bone rotations go through the batch encoder (columns), much cheaper per rotation than
    // one encodeQuatAt call each; invalid ones get the identity, as for entities.
    const bx = BONE_QX,
      by = BONE_QY,
      bz = BONE_QZ,
      bw = BONE_QW;
    for (let i = 0; i < c; i++) {
      bx[i] = rotations[i * 4];
      by[i] = rotations[i * 4 + 1];
      bz[i] = rotations[i * 4 + 2];
      bw[i] = rotations[i * 4 + 3];
    }
    let bad = encodeQuatColumns(bx, by, bz, bw, c, this.wordsI32, at);
    at += c;
    for (let i = 0; i < c * 3; i++) {
      const v = fr(offsets[i]);
      if (v - v === 0) {
        fl[at++] = v;
      } else {
        fl[at++] = 0;
        bad++;
      }
    }
    this.count = at;
    if (bad > 0) this.repairs.bones(id);
    return bad > 0;
  }

  /**
   * Copies the bone records into `u` from word `w`, renumbering entity indices through `keptIndex`
   * (a dropped entry's records are dropped); returns the word after the last record written.
   */
  public write(u: Uint32Array, w: number, keptIndex: Int32Array): number {
    if (this.count === 0) return w;
    const bw = this.words;
    for (let r = 0; r < this.count; ) {
      const head = bw[r];
      const c = head >>> BONE_INDEX_BITS;
      const words = 1 + c * 4;
      const k = keptIndex[head & BONE_INDEX_MASK];
      if (k >= 0) {
        u[w] = k | (c << BONE_INDEX_BITS);
        for (let j = 1; j < words; j++) u[w + j] = bw[r + j];
        w += words;
      } else {
        this.stats.bonesDropped++;
      }
      r += words;
    }
    return w;
  }
}
