import { DISPLAY_VISIBLE, DISPLAY_WORDS, MAX_TEXTURES, NO_TEXTURE } from '../format/layout';
import { stringProblem } from '../validate/rules';
import type { WarnOnce } from '../validate/WarnOnce';
import type { FrameRepairs } from './FrameRepairs';
import type { RecorderStats } from './RecorderStats';

/**
 * The 2D display state of the open frame's entities (`Recorder.display`): one record per entity
 * that has any, staged in columns and written as the frame's display section at `endFrame`
 * (`DISPLAY_WORDS` words each). Nothing is staged or written for a game that never calls
 * `display`: the section is then empty and costs no byte. Texture names are interned here
 * (`textures`), as event kinds are.
 *
 * @example
 * const stage = new DisplayStage(16384, stats, warnOnce, repairs);
 * const COIN = stage.texture('coin');
 * stage.set(entityIndex, 1.5, 1.5, 0.5, true, COIN);
 */
export class DisplayStage {
  /** Texture names; a display record's texture index is a position here. */
  public readonly textures: string[] = [];
  /** Records staged in the open frame. */
  public count = 0;
  // The columns are allocated on the first record (a game that never calls `display` pays nothing).
  /** Entity index (in the open frame's staging) of each record. */
  public index = new Int32Array(0);
  public scaleX = new Float32Array(0);
  public scaleY = new Float32Array(0);
  public alpha = new Float32Array(0);
  /** Texture index (low 16 bits, `NO_TEXTURE`: none) and visible (bit 16) of each record. */
  public bits = new Int32Array(0);
  private readonly textureIndex = new Map<string, number>();

  public constructor(
    /** Most records a frame (one per staged entity). */
    private readonly capacity: number,
    private readonly stats: RecorderStats,
    private readonly warnOnce: WarnOnce,
    private readonly repairs: FrameRepairs,
  ) {}

  private allocate(): void {
    const n = this.capacity;
    this.index = new Int32Array(n);
    this.scaleX = new Float32Array(n);
    this.scaleY = new Float32Array(n);
    this.alpha = new Float32Array(n);
    this.bits = new Int32Array(n);
  }

  /** Starts a frame with no display records. */
  public begin(): void {
    this.count = 0;
  }

  /** `Recorder.texture`: the index of texture `name`, registering it on first use. */
  public texture(name: string): number {
    const k = this.textureIndex.get(name);
    if (k !== undefined) return k;
    const problem = stringProblem(name);
    if (problem !== null) throw new RangeError(`rewindable: a texture name ${problem}`);
    if (this.textures.length >= MAX_TEXTURES) throw new RangeError(`rewindable: ${MAX_TEXTURES} texture names exist`);
    const i = this.textures.length;
    this.textures.push(name);
    this.textureIndex.set(name, i);
    return i;
  }

  /**
   * The record of staged entity `entity` (a new one, or the one an earlier call for the same entity
   * made, which this call replaces); returns the record's slot. The caller stores the values.
   * Records stay in increasing entity order, one an entity (the section's invariant): the usual call
   * (`display` right after its entity, `displayColumns` after its call) appends; a call for an
   * entity before the last record (`displayColumns` after a `display` for the last entity of the
   * batch, or a second `displayColumns`) finds its record, or inserts one in order.
   */
  public slot(entity: number): number {
    const c = this.count;
    if (c === 0 && this.index.length === 0) this.allocate();
    const index = this.index;
    if (c === 0 || index[c - 1] < entity) {
      index[c] = entity;
      this.count = c + 1;
      return c;
    }
    // Rare: binary search for the first record at or after `entity`.
    let lo = 0;
    let hi = c - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (index[mid] < entity) lo = mid + 1;
      else hi = mid;
    }
    if (index[lo] === entity) return lo;
    index.copyWithin(lo + 1, lo, c);
    this.scaleX.copyWithin(lo + 1, lo, c);
    this.scaleY.copyWithin(lo + 1, lo, c);
    this.alpha.copyWithin(lo + 1, lo, c);
    this.bits.copyWithin(lo + 1, lo, c);
    index[lo] = entity;
    this.count = c + 1;
    return lo;
  }

  /** Checks and repairs the values just stored in `slot` (see `Recorder.display` for the rules). */
  public check(slot: number, visible: boolean, texture: number): void {
    const sx = this.scaleX[slot];
    const sy = this.scaleY[slot];
    const a = this.alpha[slot];
    const texOk = texture === -1 || (texture >= 0 && texture < this.textures.length && (texture | 0) === texture);
    this.bits[slot] = (texOk ? texture & NO_TEXTURE : NO_TEXTURE) | (visible === false ? 0 : 0x10000);
    if (sx - sx + sy - sy === 0 && a >= 0 && a <= 1 && texOk) return;
    if (sx - sx !== 0) this.scaleX[slot] = 1;
    if (sy - sy !== 0) this.scaleY[slot] = 1;
    this.alpha[slot] = a >= 0 ? (a <= 1 ? a : 1) : a < 0 ? 0 : 1;
    this.stats.invalidDisplay++;
    this.repairs.count++;
    if (!this.warnOnce.has('display')) {
      this.warnOnce.warn(
        'display',
        'rewindable: display state had a non-finite scale (1 stored), an alpha outside [0, 1] (clamped; NaN stored as 1), or an unknown texture index (none stored)',
      );
    }
  }

  /** Counts a `display` call that could not be stored (not right after its entity). */
  public drop(id: number): void {
    this.stats.displayDropped++;
    if (!this.warnOnce.has('displaydrop'))
      this.warnOnce.warn(
        'displaydrop',
        `rewindable: display(${String(id)}) must follow entity(${String(id)}) in an open frame; dropped`,
      );
  }

  /**
   * Writes the records into `u`/`f` from word `w`, renumbering entity indices through `keptIndex`
   * (a dropped entry's record is dropped); returns the word after the last record.
   */
  public write(u: Uint32Array, f: Float32Array, w: number, keptIndex: Int32Array): number {
    const n = this.count;
    for (let r = 0; r < n; r++) {
      const k = keptIndex[this.index[r]];
      if (k < 0) continue;
      const bits = this.bits[r];
      u[w] = k | ((bits & 0x10000) !== 0 ? DISPLAY_VISIBLE : 0);
      f[w + 1] = this.scaleX[r];
      f[w + 2] = this.scaleY[r];
      u[w + 3] = Math.round(this.alpha[r] * 65535) | ((bits & NO_TEXTURE) << 16);
      w += DISPLAY_WORDS;
    }
    return w;
  }
}
