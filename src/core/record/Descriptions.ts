import type { EntityTable } from '../store/EntityTable';
import { MAX_KINDS, repairString, skeletonProblem, stringProblem } from '../validate/rules';
import type { WarnOnce } from '../validate/WarnOnce';
import { PendingDescriptions } from './PendingDescriptions';
import type { RecorderStats } from './RecorderStats';

/**
 * The kinds and labels of lives (`Recorder.describe`), the bone hierarchies of kinds
 * (`describeSkeleton`), and the descriptions waiting for a life: at most 4,096, the oldest
 * forgotten, kept without allocating.
 *
 * @example
 * const d = new Descriptions(table, 1 << 24, stats, warnOnce);
 * d.describe(7, 'goblin', 'Gob', openFrame, newestFrame);
 * d.afterFrame(frame); // at endFrame, once the frame's lives are known
 */
export class Descriptions {
  private readonly pending = new PendingDescriptions(4096);
  /** The kind `describe` last found a valid name (`stringProblem`), or undefined. */
  private validKind: string | undefined = undefined;

  public constructor(
    private readonly table: EntityTable,
    private readonly maxEntityId: number,
    private readonly stats: RecorderStats,
    private readonly warnOnce: WarnOnce,
  ) {}

  /**
   * `Recorder.describe`: `openFrame` is the open frame's number or -1 outside a frame, `newest` the
   * newest frame's.
   */
  public describe(id: number, kind: string, label: string | undefined, openFrame: number, newest: number): void {
    if (!(id >= 0 && id < this.maxEntityId && (id | 0) === id)) {
      this.stats.idsOutOfRange++;
      if (!this.warnOnce.has('describeId')) {
        this.warnOnce.warn(
          'describeId',
          `rewindable: describe(${String(id)}): not an entity id (an integer in [0, ${this.maxEntityId})); ignored`,
        );
      }
      return;
    }
    // The kind last found valid is not checked again (games describe many lives with one kind).
    if (kind !== this.validKind) {
      if (stringProblem(kind) !== null) kind = this.repairName(kind);
      else this.validKind = kind;
    }
    if (label !== undefined && stringProblem(label) !== null) label = this.repairName(label);
    const t = this.table;
    if (t.kinds.length >= MAX_KINDS && t.kinds.indexOf(kind) < 0) {
      this.stats.invalidNames++;
      if (!this.warnOnce.has('kinds'))
        this.warnOnce.warn(
          'kinds',
          `rewindable: ${MAX_KINDS} entity kinds exist; the description of entity ${id} was dropped`,
        );
      return;
    }
    // Between frames, a life recorded in the newest frame takes it now; inside a frame every
    // description waits for the frame to resolve (the id map is not read then).
    if (openFrame < 0) {
      const h = t.lookup(id);
      if (h >= 0 && t.lastSeen[h] === newest) {
        t.kindOf[h] = t.internKind(kind);
        t.labels[h] = label;
        return;
      }
    }
    this.pending.set(id, kind, label, openFrame);
  }

  /** A kind, label or event kind given by the game, made storable (`repairString`) and counted. */
  public repairName(v: unknown): string {
    this.stats.invalidNames++;
    if (!this.warnOnce.has('name')) {
      this.warnOnce.warn(
        'name',
        'rewindable: a kind, label or event kind was not a string of at most 65,536 well-formed UTF-16 units; it was converted, lone surrogates replaced by U+FFFD, and cut to 65,536',
      );
    }
    return repairString(v);
  }

  /** `Recorder.describeSkeleton`: throws on a bad call and changes nothing then. */
  public skeleton(kind: string, parents: ArrayLike<number>): void {
    const kindProblem = stringProblem(kind);
    if (kindProblem !== null) throw new RangeError(`rewindable: describeSkeleton: the kind ${kindProblem}`);
    const problem = parents === null || typeof parents !== 'object' ? 'is not an array' : skeletonProblem(parents);
    if (problem !== null)
      throw new RangeError(
        `rewindable: describeSkeleton(${JSON.stringify(kind.slice(0, 64))}): the skeleton ${problem}`,
      );
    const t = this.table;
    if (t.kinds.length >= MAX_KINDS && t.kinds.indexOf(kind) < 0)
      throw new RangeError(`rewindable: describeSkeleton: ${MAX_KINDS} kinds exist`);
    t.skeletons[t.internKind(kind)] = Int16Array.from(parents);
  }

  /**
   * Applies the descriptions made in `frame` to the lives recorded in it that continued (new lives
   * took theirs while resolving). Older descriptions wait for a new life: their id was not alive
   * when they were made, so its next appearance starts one. Only this frame's are visited: they
   * are the newest.
   */
  public afterFrame(frame: number): void {
    const p = this.pending;
    if (p.count === 0) return;
    const t = this.table;
    for (let e = p.last; e >= 0 && p.frameAt(e) === frame; ) {
      const before = p.before(e);
      const h = t.lookup(p.idAt(e));
      if (h >= 0 && t.lastFrame(h) === frame) this.apply(e, h);
      e = before;
    }
  }

  /** A new life of `id` (handle `h`) takes the description waiting for it, if any. */
  public onNewLife(id: number, h: number): void {
    if (this.pending.count === 0) return;
    const e = this.pending.find(id);
    if (e >= 0) this.apply(e, h);
  }

  /** Forgets every waiting description. */
  public clear(): void {
    this.pending.clear();
  }

  private apply(e: number, h: number): void {
    const t = this.table;
    t.kindOf[h] = t.internKind(this.pending.kindAt(e));
    t.labels[h] = this.pending.labelAt(e);
    this.pending.remove(e);
  }
}
