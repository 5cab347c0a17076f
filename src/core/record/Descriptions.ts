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
 * A description made inside a frame (the usual one: a game describes what it just spawned) goes to
 * the frame's log, a list in call order, and is applied once the frame has resolved, through the
 * id map that resolving the frame has just written: no hash of waiting descriptions is touched.
 * Only a description whose id was not recorded in its frame waits in `PendingDescriptions` for the
 * id's next life.
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
  /**
   * The log of descriptions made in frame `logFrame`, in call order: `logCount` of them. It grows
   * (doubling) to the most descriptions a frame has had, then never again.
   */
  private logIds = new Int32Array(64);
  private logKinds: string[] = new Array<string>(64).fill('');
  private logLabels: Array<string | undefined> = new Array<string | undefined>(64).fill(undefined);
  private logCount = 0;
  private logFrame = -1;
  /**
   * The lives begun in the frame being resolved, in the order they began (`onNewLife`): ids and
   * handles, `bornCount` of them; emptied by `afterFrame`. Games describe what they spawned in the
   * order they spawned it, so `afterFrame` finds each description's life here, at a cursor, without
   * the id map. Grows (doubling) to the most lives a frame has begun, then never again.
   */
  private bornIds = new Int32Array(64);
  private bornHandles = new Int32Array(64);
  private bornCount = 0;
  /** What reading ahead found (`EntityTable.readAhead`): kept so that those reads stay. */
  public readAhead = 0;

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
      if (h >= 0 && t.lastFrame(h) === newest && !t.isEnded(h)) {
        t.kindOf[h] = t.internKind(kind);
        t.labels[h] = label;
        return;
      }
    }
    if (openFrame < 0) {
      this.pending.set(id, kind, label, openFrame);
      return;
    }
    if (this.logFrame !== openFrame) {
      this.flushLog();
      this.logFrame = openFrame;
    }
    if (this.logCount === this.logIds.length) this.growLog();
    const k = this.logCount++;
    this.logIds[k] = id;
    this.logKinds[k] = kind;
    this.logLabels[k] = label;
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
   * Applies the descriptions made in `frame`, in the order they were made, to the lives recorded in
   * it (new or continued; a later description of one life replaces an earlier one). A description
   * whose id was not recorded in `frame` waits for the id's next life: the id was not alive when it
   * was made, so its next appearance starts one.
   */
  public afterFrame(frame: number): void {
    const born = this.bornCount;
    this.bornCount = 0;
    if (this.logCount === 0) return;
    if (this.logFrame !== frame) {
      this.flushLog();
      return;
    }
    const t = this.table;
    const ids = this.logIds;
    const kinds = this.logKinds;
    const labels = this.logLabels;
    const n = this.logCount;
    const bornIds = this.bornIds;
    const bornHandles = this.bornHandles;
    if (n > 8 && born < n) this.readAhead = t.readAhead(ids, null, 0, n, -1);
    let c = 0;
    for (let k = 0; k < n; k++) {
      const id = ids[k];
      let h: number;
      // The next life begun in this frame, when it has this id and is still open: an open life is
      // its id's newest (what the id map would give) and was recorded in this frame.
      if (c < born && bornIds[c] === id && !t.isEnded(bornHandles[c])) h = bornHandles[c++];
      else h = t.lookup(id);
      if (h >= 0 && t.lastFrame(h) === frame) {
        t.kindOf[h] = t.internKind(kinds[k]);
        t.labels[h] = labels[k];
        // One waiting from an earlier frame is replaced by this newer one.
        if (this.pending.count > 0) this.forget(id);
      } else {
        this.pending.set(id, kinds[k], labels[k], frame);
      }
      labels[k] = undefined;
    }
    this.logCount = 0;
  }

  /**
   * A new life of `id` (handle `h`) in the frame being resolved: noted for `afterFrame`, and it takes
   * the description waiting for it, if any.
   */
  public onNewLife(id: number, h: number): void {
    const c = this.bornCount;
    if (c === this.bornIds.length) this.growBorn();
    this.bornIds[c] = id;
    this.bornHandles[c] = h;
    this.bornCount = c + 1;
    if (this.pending.count === 0) return;
    const e = this.pending.find(id);
    if (e >= 0) this.apply(e, h);
  }

  /** Forgets every waiting description. */
  public clear(): void {
    this.pending.clear();
    this.logLabels.fill(undefined, 0, this.logCount);
    this.logCount = 0;
    this.logFrame = -1;
    this.bornCount = 0;
  }

  /** Moves the log (of a frame that did not resolve) to the waiting descriptions. */
  private flushLog(): void {
    for (let k = 0; k < this.logCount; k++) {
      this.pending.set(this.logIds[k], this.logKinds[k], this.logLabels[k], this.logFrame);
      this.logLabels[k] = undefined;
    }
    this.logCount = 0;
  }

  /** Forgets the description waiting for `id`, if any. */
  private forget(id: number): void {
    const e = this.pending.find(id);
    if (e >= 0) this.pending.remove(e);
  }

  private growBorn(): void {
    const ids = new Int32Array(this.bornIds.length * 2);
    ids.set(this.bornIds);
    this.bornIds = ids;
    const handles = new Int32Array(ids.length);
    handles.set(this.bornHandles);
    this.bornHandles = handles;
  }

  private growLog(): void {
    const cap = this.logIds.length * 2;
    const ids = new Int32Array(cap);
    ids.set(this.logIds);
    this.logIds = ids;
    const kinds = new Array<string>(cap).fill('');
    const labels = new Array<string | undefined>(cap).fill(undefined);
    for (let k = 0; k < this.logCount; k++) {
      kinds[k] = this.logKinds[k];
      labels[k] = this.logLabels[k];
    }
    this.logKinds = kinds;
    this.logLabels = labels;
  }

  private apply(e: number, h: number): void {
    const t = this.table;
    t.kindOf[h] = t.internKind(this.pending.kindAt(e));
    t.labels[h] = this.pending.labelAt(e);
    this.pending.remove(e);
  }
}
