import { HANDLE_MASK as HANDLE_MASK_ } from '../format/layout';
import type { EntityTable } from '../store/EntityTable';
import type { FieldRows } from './FieldRows';

/** What `assignKindsHeld` reads of the frame's ring: its words and which frames it holds. */
export interface KindsFrame {
  readonly u32: Uint32Array;
  /** Frames committed and held. */
  readonly frameCount: number;
  /** The newest frame committed (meaningless when none). */
  readonly newestFrame: number;
}

/** A local copy: hot loops then read a plain local, not a module binding. */
const HANDLE_MASK = HANDLE_MASK_;

/**
 * The order in which a kind's staged rows become block rows at `endFrame`: the rows of kept
 * entities in increasing kept index (`order`, `keys`), and whether that is the staging order with
 * no row dropped (`inOrder`). Also gives the lives of written rows without a kind the schema's.
 * Its scratch grows by doubling, only past the most rows seen.
 *
 * Internal to the recorder's `FieldStage`.
 *
 * @example
 * const k = ordering.sort(rows, keptIndex); // block row q is row ordering.order[q]
 * ordering.assignKinds(u, entityBase, entities, rows, k);
 */
export class FieldOrder {
  /** Block row q is row `order[q]`. */
  public order = new Int32Array(64);
  /** Row r's kept entity index (-1: dropped). */
  public keys = new Float64Array(64);
  /** Set by `sort`: row q is block row q (the staging order, none dropped). */
  public inOrder = false;
  private sortKeys = new Float64Array(64);

  /**
   * Fills `order[0..k)` with the rows of kept entities in increasing kept index (`keys[row]` is the
   * row's kept index; `keptIndex` null: every staged entity kept in place); returns k.
   */
  public sort(rows: FieldRows, keptIndex: Int32Array | null): number {
    const n = rows.count;
    if (this.order.length < n) {
      this.order = new Int32Array(Math.max(n, this.order.length * 2));
      this.keys = new Float64Array(this.order.length);
    }
    const order = this.order;
    const keys = this.keys;
    let k = 0;
    let sorted = true;
    let prev = -1;
    for (let r = 0; r < n; r++) {
      const e = keptIndex === null ? rows.rows[r] : keptIndex[rows.rows[r]];
      keys[r] = e;
      if (e < 0) continue;
      if (e <= prev) sorted = false;
      prev = e;
      order[k++] = r;
    }
    // Sorted with no row dropped: row q is block row q.
    this.inOrder = sorted && k === n;
    if (sorted) return k;
    // Rows out of entity order (a columns call before per-entity calls): sort by kept index.
    // Staged entities are unique per row, so kept indices are distinct.
    // The whole scratch is sorted (a view of its first k would allocate); the tail sorts last.
    if (this.sortKeys.length < this.order.length) this.sortKeys = new Float64Array(this.order.length);
    const tmp = this.sortKeys;
    for (let q = 0; q < k; q++) tmp[q] = keys[order[q]] * 2097152 + order[q];
    tmp.fill(Number.POSITIVE_INFINITY, k);
    tmp.sort();
    for (let q = 0; q < k; q++) order[q] = tmp[q] % 2097152;
    return k;
  }

  /** The lives of the first `k` ordered rows (handles in the frame's entity words at `entityBase`) that have no kind take `rows`' schema's. */
  public assignKinds(u: Uint32Array, entityBase: number, t: EntityTable, rows: FieldRows, k: number): void {
    const order = this.order;
    const keys = this.keys;
    const kindOf = t.kindOf;
    for (let q = 0; q < k; q++) {
      const h = u[entityBase + keys[order[q]]] & HANDLE_MASK;
      if (kindOf[h] < 0) {
        if (rows.kindIndex < 0) rows.kindIndex = t.internKind(rows.schema.kind);
        kindOf[h] = rows.kindIndex;
      }
    }
  }

  /**
   * `assignKindsOf` for a block written whole (rows in a row, none dropped) in frame `t`, skipping
   * the look-up of each life's kind where the block's row holds the same handle as in the block the
   * kind wrote in the frame before (`FieldRows.kindsKnown`): that frame is still held (it is the
   * newest committed, and the previous `write`, `writes` counts them), so its lives were not
   * released, and each has had a kind since (a kind is never taken away from a life).
   */
  public static assignKindsHeld(
    t: KindsFrame,
    entityBase: number,
    from: number,
    c: number,
    entities: EntityTable,
    rows: FieldRows,
    writes: number,
  ): void {
    const u = t.u32;
    let known = rows.kindsKnown;
    if (known.length < c) known = rows.kindsKnown = new Int32Array(Math.max(c, known.length * 2));
    const same = rows.kindsWrite === writes - 1 && t.frameCount > 0 && t.newestFrame === rows.kindsFrame;
    const held = same ? Math.min(rows.kindsCount, c) : 0;
    const kindOf = entities.kindOf;
    const base = entityBase + from;
    for (let i = 0; i < c; i++) {
      const h = u[base + i] & HANDLE_MASK;
      if (i < held && known[i] === h) continue;
      known[i] = h;
      if (kindOf[h] < 0) {
        if (rows.kindIndex < 0) rows.kindIndex = entities.internKind(rows.schema.kind);
        kindOf[h] = rows.kindIndex;
      }
    }
    rows.kindsCount = c;
    rows.kindsWrite = writes;
    // This frame's number: the one after the newest committed (frames are committed in order), -1 when unknown.
    rows.kindsFrame = t.frameCount > 0 ? t.newestFrame + 1 : -1;
  }

  /** The lives of the frame's entities `from .. from + c` (entity words at `entityBase`) that have no kind take `rows`' schema's. */
  public static assignKindsOf(
    u: Uint32Array,
    entityBase: number,
    from: number,
    c: number,
    t: EntityTable,
    rows: FieldRows,
  ): void {
    const kindOf = t.kindOf;
    for (let e = entityBase + from, end = e + c; e < end; e++) {
      if (kindOf[u[e] & HANDLE_MASK] < 0) {
        if (rows.kindIndex < 0) rows.kindIndex = t.internKind(rows.schema.kind);
        kindOf[u[e] & HANDLE_MASK] = rows.kindIndex;
      }
    }
  }
}
