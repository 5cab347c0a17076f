import { EntityFlags, HANDLE_BITS } from '../format/layout';
import type { EntityTable } from '../store/EntityTable';
import type { WarnOnce } from '../validate/WarnOnce';
import { FieldArea } from './FieldArea';
import { FieldOrder } from './FieldOrder';
import { FieldRawPool } from './FieldRawPool';
import { type FieldTarget, writeBlock, writeRawBlock } from './fieldBlocks';
import { blockWords } from './fieldLayout';
import { invalidAt } from './fieldRepair';
import { FieldRows } from './FieldRows';
import type { FieldSchema } from './FieldSchema';

export type { FieldTarget } from './fieldBlocks';

/** `EntityFlags.SANITIZED` in an entity word (flags in bits 24-31). */
const SANITIZED_BIT = (EntityFlags.SANITIZED << HANDLE_BITS) >>> 0;

/** The counters a `FieldStage` adds to (the recorder's `RecorderStats`). */
export interface FieldStats {
  invalidFieldValues: number;
  fieldRowsDropped: number;
  fieldRowsOverBudget: number;
}

/**
 * The custom field values of the open frame (`Recorder.fields`, `Recorder.fieldColumns`), staged
 * per schema with each row's staged entity index, and written as the frame's field section at
 * `endFrame` (see `fieldLayout.ts`): rows follow their entity through the resolver's drops and
 * compaction (`keptIndex`), in increasing entity index, within the per-frame field budget.
 *
 * Three ways in, cheapest first: per-entity calls for consecutive entities of one kind are a run
 * (`FieldRows.runNext`: only the values are copied, converted straight into the frame at
 * `endFrame`); a columns call's block is staged in the frame's layout (`FieldArea`); anything else
 * takes the staging columns. The first two write their rows and per-entity marks only when
 * something else needs them (`markRows`).
 *
 * Internal to the recorder.
 *
 * Size: over 450 lines: the three ways share the per-entity marks, the touched list and the
 * fall-backs between them (`markRows`, `rowFor`, the order of `write`); split, each file would
 * change the others' state.
 *
 * @example
 * stage.begin();
 * stage.row(entityIndex, schema, values); // per entity
 * const words = stage.write(target, at, keptIndex, budgetWords); // at endFrame
 */
export class FieldStage {
  /** Values repaired in the open frame (added to the frame's `H_SANITIZED`). */
  public repaired = 0;
  /** Whether the last `write` dropped rows over the budget. */
  public overBudget = false;
  private readonly bySchema: Array<FieldRows | undefined> = [];
  /** Schemas with rows this frame, in first-use order: `touched[0..touchedCount)` (an array's length set to 0 may free its storage). */
  private readonly touched: FieldRows[] = [];
  private touchedCount = 0;
  /** Row of each staged entity in its schema's rows (-1: none), and that schema's index. */
  private readonly entityRow: Int32Array;
  private readonly entitySchema: Int32Array;
  /** The highest staged entity index given a row this frame (-1: none). */
  private highIndex = -1;
  /** `write` calls so far (`FieldOrder.assignKindsHeld`). */
  private writes = 0;
  /** The rows whose run (`FieldRows.runNext`) is open, if any: at most one at a time. */
  private run: FieldRows | null = null;
  /** Some area block's rows and marks are not written yet (`markRows`). */
  private unmarked = false;
  /** Scratch: matches of a columns call. */
  private match: Int32Array;
  /** The order of a kind's rows in its block (at `write`). */
  private readonly ordering = new FieldOrder();

  /**
   * @param area Where columns calls stage their blocks in final layout (`FieldArea`); the recorder
   *   places it after its arena, in the same buffer. By default an area of its own.
   * @param pool Where per-entity rows are staged (`FieldRawPool`): the recorder places it after the
   *   area, in the same buffer, so that its entity kernel converts them into the frame. By default
   *   rows are staged in arrays of their own and converted in JavaScript.
   */
  public constructor(
    private readonly capacity: number,
    private readonly maxEntityId: number,
    private readonly stats: FieldStats,
    private readonly warnOnce: WarnOnce,
    private readonly area: FieldArea = new FieldArea(),
    private readonly pool: FieldRawPool = new FieldRawPool(),
  ) {
    this.entityRow = new Int32Array(capacity).fill(-1);
    this.entitySchema = new Int32Array(capacity);
    this.match = new Int32Array(64);
  }

  /**
   * Bytes of the field area for a per-frame field budget of `budgetBytes`: the budget (blocks past
   * it are not written whole), at most 4 MB (larger blocks take the staging columns), and 4 kB
   * for the spill of a last column longer than its rows.
   */
  public static areaBytes(budgetBytes: number): number {
    return Math.ceil(Math.min(Math.max(budgetBytes, 0), 4 << 20) / 8) * 8 + 4096;
  }

  /** Whether any row is staged. */
  public get active(): boolean {
    return this.touchedCount > 0;
  }

  /** Starts a frame with nothing staged. */
  public begin(): void {
    const t = this.touched;
    for (let s = 0; s < this.touchedCount; s++) t[s].reset();
    // One fill up to the highest staged entity with a row, not a write per row.
    if (this.highIndex >= 0) this.entityRow.fill(-1, 0, this.highIndex + 1);
    this.highIndex = -1;
    this.run = null;
    this.touchedCount = 0;
    this.repaired = 0;
    this.unmarked = false;
    this.area.begin();
  }

  /**
   * Stages `values` as the fields of staged entity `index`; returns whether a value was repaired
   * (the caller flags the entity `SANITIZED`). A second call for the same entity replaces its row;
   * one with another schema is dropped.
   */
  public row(index: number, schema: FieldSchema, values: ArrayLike<number>, id: number): void {
    // The usual call: the entity right after the run of rows of its kind (see `FieldRows.runNext`),
    // with room for one more: only the values are copied; the rows and marks are written if needed.
    const run = this.run;
    if (
      run !== null &&
      run.schema === schema &&
      index === run.runNext &&
      run.count < run.rows.length &&
      typeof values === 'object' &&
      values !== null
    ) {
      run.count++;
      run.runNext = index + 1;
      this.highIndex = index;
      run.copyRaw(run.count - 1, values);
      return;
    }
    const known = this.bySchema[schema.index];
    // A kind with rows this frame and room for one more, for an entity after every entity with a
    // row (so it has none yet): appended without looking anything up.
    if (
      known !== undefined &&
      known.schema === schema &&
      !this.unmarked &&
      index > this.highIndex &&
      known.count > 0 &&
      known.count < known.rows.length &&
      typeof values === 'object' &&
      values !== null
    ) {
      const r = known.count;
      known.rows[r] = index;
      known.count = r + 1;
      this.entityRow[index] = r;
      this.entitySchema[index] = schema.index;
      this.highIndex = index;
      known.stageRaw(r, values);
      return;
    }
    if (this.unmarked) this.markRows();
    const rows = this.rowsOf(schema);
    if (rows.count === 0 && index > this.highIndex && typeof values === 'object' && values !== null) {
      // The kind's first row of the frame: a run starts (its rows and marks are not written).
      this.touch(rows);
      rows.count = 1;
      rows.runNext = index + 1;
      this.run = rows;
      rows.unmarked = true;
      this.unmarked = true;
      this.highIndex = index;
      rows.copyRaw(0, values);
      return;
    }
    const r = this.rowFor(index, rows, id);
    if (r < 0) return;
    // Copied as given: checked and converted at endFrame, column by column (`FieldRows.materialize`).
    rows.stageRaw(r, values === null || typeof values !== 'object' ? FieldStage.NO_VALUES : values);
  }

  private static readonly NO_VALUES: ArrayLike<number> = { length: 0 };

  /**
   * Stages the columns form: `ids[i]` names an entity staged this frame (`stageIds[0..stageCount)`,
   * matched in order from where the last `count` staged entities begin), `columns[f]` holds field
   * f's values. Rows whose id is not staged are dropped and counted. Marks repaired entities in
   * `flags` with `sanitized`.
   */
  public columns(
    schema: FieldSchema,
    count: number,
    ids: ArrayLike<number>,
    columns: ArrayLike<ArrayLike<number>>,
    stageIds: Int32Array,
    stageCount: number,
    flags: Uint8Array,
    sanitized: number,
  ): void {
    const c = count > 0 ? (count < ids.length ? count | 0 : ids.length) : 0;
    if (c === 0) return;
    const rows = this.rowsOf(schema);
    // Rows of per-entity calls: written out first (`addRows` appends after them).
    if (rows.runNext >= 0) this.markRows();
    // A second columns call for the kind: its first block back into the staging columns.
    if (rows.directAt >= 0) {
      if (this.unmarked) this.markRows();
      this.area.unpack(rows);
    }
    if (this.match.length < c) this.match = new Int32Array(Math.max(c, this.match.length * 2));
    const match = this.match;
    const start = stageCount - c;
    const n = schema.types.length;
    let bad = 0;
    if (start >= 0 && this.isDense(ids, c, start, stageIds)) {
      // The usual case: the ids are the last c staged entities, none with fields yet.
      if (rows.count === 0) {
        // The kind's first rows of the frame: staged in the frame's layout, moved with one copy at
        // endFrame; the rows and per-entity marks are written only if something else needs them.
        rows.grow(c);
        const direct = this.area.stage(rows, c, columns, this.maxEntityId);
        if (direct >= 0) {
          this.touch(rows);
          rows.count = c;
          rows.directStart = start;
          rows.unmarked = true;
          this.unmarked = true;
          if (start + c - 1 > this.highIndex) this.highIndex = start + c - 1;
          if (direct > 0) {
            this.invalid(direct);
            // Which entities were repaired: rare, so found again value by value.
            for (let i = 0; i < c; i++)
              if (invalidAt(rows.schema, columns, i, this.maxEntityId)) flags[start + i] |= sanitized;
          }
          return;
        }
      }
      // Rows r0.. in order, each column one block copy where its type allows.
      const r0 = this.addRows(rows, c, start);
      let filled = false;
      for (let f = 0; f < n; f++) {
        const col = f < columns.length ? columns[f] : null;
        const b = col === null || typeof col !== 'object' ? -1 : rows.writeColumnBlock(f, r0, c, col);
        if (b >= 0) {
          bad += b;
          continue;
        }
        if (!filled) {
          for (let i = 0; i < c; i++) match[i] = r0 + i;
          filled = true;
        }
        bad += rows.writeColumn(f, match, c, col as ArrayLike<number>);
      }
      if (bad > 0 && !filled) for (let i = 0; i < c; i++) match[i] = r0 + i;
    } else {
      if (this.unmarked) this.markRows();
      this.matchRows(rows, ids, c, stageIds, stageCount, match, flags, sanitized);
      for (let f = 0; f < n; f++)
        bad += rows.writeColumn(f, match, c, f < columns.length ? columns[f] : (null as never));
    }
    if (bad > 0) {
      this.invalid(bad);
      // Which entities were repaired: rare, so found again value by value.
      for (let i = 0; i < c; i++) {
        const r = match[i];
        if (r >= 0 && invalidAt(rows.schema, columns, i, this.maxEntityId)) flags[rows.rows[r]] |= sanitized;
      }
    }
  }

  /**
   * Whether `ids[0..c)` are the staged entities `start..start + c` and none has fields yet (at once
   * when every entity with fields comes before `start`).
   */
  private isDense(ids: ArrayLike<number>, c: number, start: number, stageIds: Int32Array): boolean {
    if (start > this.highIndex) {
      for (let i = 0; i < c; i++) if (stageIds[start + i] !== ids[i]) return false;
      return true;
    }
    if (this.unmarked) this.markRows();
    const entityRow = this.entityRow;
    for (let i = 0; i < c; i++) if (stageIds[start + i] !== ids[i] || entityRow[start + i] >= 0) return false;
    return true;
  }

  /** Adds the rows of staged entities `start..start + c` to `rows`, in order; returns the first. */
  private addRows(rows: FieldRows, c: number, start: number): number {
    const r0 = rows.count;
    if (r0 === 0) this.touch(rows);
    rows.grow(r0 + c);
    this.mark(rows, r0, c, start);
    rows.count = r0 + c;
    if (start + c - 1 > this.highIndex) this.highIndex = start + c - 1;
    return r0;
  }

  /** Rows `r0 .. r0 + c` of `rows` are staged entities `start ..`: written in `rows.rows` and the per-entity marks. */
  private mark(rows: FieldRows, r0: number, c: number, start: number): void {
    const rr = rows.rows;
    const entityRow = this.entityRow;
    const entitySchema = this.entitySchema;
    const schemaIndex = rows.schema.index;
    for (let i = 0; i < c; i++) {
      rr[r0 + i] = start + i;
      entityRow[start + i] = r0 + i;
      entitySchema[start + i] = schemaIndex;
    }
  }

  /** Writes the rows and per-entity marks of every area block that has not had them yet. */
  private markRows(): void {
    for (let s = 0; s < this.touchedCount; s++) {
      const rows = this.touched[s];
      if (!rows.unmarked) continue;
      if (rows.runNext >= 0) {
        this.mark(rows, 0, rows.count, rows.runNext - rows.count);
        rows.endRun();
        this.run = null;
      } else this.mark(rows, 0, rows.directRows, rows.directStart);
      rows.unmarked = false;
    }
    this.unmarked = false;
  }

  /**
   * Matches `ids[0..c)` to staged entities one by one (see `columns`), adding rows; `match[i]` is row
   * i's, or -1. A per-entity row it converts first flags its entity in `flags` with `sanitized` when repaired.
   */
  private matchRows(
    rows: FieldRows,
    ids: ArrayLike<number>,
    c: number,
    stageIds: Int32Array,
    stageCount: number,
    match: Int32Array,
    flags: Uint8Array,
    sanitized: number,
  ): void {
    // Each row looks from where the previous one matched, then wraps around once.
    let j = stageCount - c >= 0 && stageIds[stageCount - c] === ids[0] ? stageCount - c : 0;
    for (let i = 0; i < c; i++) {
      const id = ids[i];
      let k = j;
      while (k < stageCount && stageIds[k] !== id) k++;
      if (k >= stageCount) {
        k = 0;
        while (k < j && stageIds[k] !== id) k++;
        if (k >= j) k = -1;
      }
      if (k < 0) {
        match[i] = -1;
        this.dropRow(id, 'not recorded in this frame');
        continue;
      }
      const r = this.rowFor(k, rows, id);
      // A row staged by a per-entity call: into the typed columns first, so the columns write over it
      // (its repairs counted, and its entity flagged, even when the columns then give valid values).
      if (r >= 0 && rows.isRaw[r] !== 0) {
        const b = rows.materializeRow(r);
        if (b > 0) {
          this.invalid(b);
          flags[k] |= sanitized;
        }
      }
      match[i] = r;
      j = k + 1;
    }
  }

  /** Upper bound of the words the staged rows take (every block listed). */
  public upperWords(): number {
    let w = 0;
    for (let s = 0; s < this.touchedCount; s++) {
      const rows = this.touched[s];
      w += blockWords(rows.schema.types, rows.count, true);
    }
    return w;
  }

  /**
   * Writes the field section at word `w` of `target`: the staged rows of kept entities
   * (`keptIndex[staged]`, -1 dropped; null: every staged entity kept in place), at most
   * `budgetWords` words. Returns the words written; sets
   * `overBudget` when rows were left out. A written entity's life without a kind (`entities`, handles
   * at word `entityBase`) takes its schema's kind.
   */
  public write(
    target: FieldTarget,
    w: number,
    keptIndex: Int32Array | null,
    budgetWords: number,
    entities: EntityTable,
    entityBase: number,
  ): number {
    this.overBudget = false;
    this.writes++;
    const start = w;
    for (let s = 0; s < this.touchedCount; s++) {
      const rows = this.touched[s];
      if (rows.runNext >= 0) {
        // A run of per-entity rows: converted straight into the frame when its entities were all kept in order.
        const words = this.writeRun(target, w, rows, keptIndex, budgetWords - (w - start), entities, entityBase);
        if (words >= 0) {
          w += words;
          continue;
        }
        this.markRows();
      }
      if (rows.directAt >= 0) {
        // A columns call's block in the area: one copy when it is the kind's only rows, all kept in order.
        if (rows.count === rows.directRows && rows.rawCount === 0) {
          const words = this.writeDirect(target, w, rows, keptIndex, budgetWords - (w - start), entities, entityBase);
          if (words >= 0) {
            w += words;
            continue;
          }
        }
        if (this.unmarked) this.markRows();
        this.area.unpack(rows);
      }
      // Rows of per-entity calls only: converted straight into the frame when they all fit in order.
      let raw = rows.rawCount > 0 && rows.rawCount === rows.count;
      if (!raw) this.materialize(rows, target.u32, entityBase, keptIndex);
      const ordering = this.ordering;
      let k = ordering.sort(rows, keptIndex);
      if (k === 0) continue;
      const order = ordering.order;
      const keys = ordering.keys;
      const first = keys[order[0]];
      const listed = keys[order[k - 1]] - first !== k - 1;
      const types = rows.schema.types;
      const room = budgetWords - (w - start);
      if (raw && !(ordering.inOrder && blockWords(types, k, listed) <= room)) {
        this.materialize(rows, target.u32, entityBase, keptIndex);
        raw = false;
      }
      if (blockWords(types, k, listed) > room) {
        const before = k;
        while (k > 0 && blockWords(types, k, keys[order[k - 1]] - first !== k - 1) > room) k--;
        this.overBudget = true;
        this.stats.fieldRowsOverBudget += before - k;
        if (!this.warnOnce.has('fieldBudget'))
          this.warnOnce.warn(
            'fieldBudget',
            `rewindable: a frame's fields exceed fieldBudgetBytes (${budgetWords * 4}); the rows past it were dropped`,
          );
        if (k === 0) continue;
      }
      if (raw) {
        const bad = writeRawBlock(target, w, rows, k, listed, keys, first, this.maxEntityId, this.pool);
        if (bad > 0) {
          this.invalid(bad);
          this.flagRepaired(target.u32, entityBase, rows, keptIndex);
        }
        w += blockWords(types, k, listed);
      } else w = writeBlock(target, w, rows, k, keys[order[k - 1]] - first !== k - 1, order, keys, ordering.inOrder);
      // Rows in staging order and contiguous (the usual frame): the entity words in a row, no order to follow.
      if (ordering.inOrder && !listed) FieldOrder.assignKindsOf(target.u32, entityBase, first, k, entities, rows);
      else ordering.assignKinds(target.u32, entityBase, entities, rows, k);
    }
    return w - start;
  }

  /** Converts `rows`' per-entity rows into its staging columns, counting and flagging the repaired. */
  private materialize(rows: FieldRows, u: Uint32Array, entityBase: number, keptIndex: Int32Array | null): void {
    const repaired = rows.materialize();
    if (repaired > 0) {
      this.invalid(repaired);
      this.flagRepaired(u, entityBase, rows, keptIndex);
    }
  }

  /**
   * Writes the area block of `rows` at word `w` when its staged entities were all kept, in order
   * and contiguous, and it takes at most `room` words; returns the words written, else -1.
   */
  private writeDirect(
    target: FieldTarget,
    w: number,
    rows: FieldRows,
    keptIndex: Int32Array | null,
    room: number,
    entities: EntityTable,
    entityBase: number,
  ): number {
    const c = rows.directRows;
    const start = rows.directStart;
    const first = keptRun(keptIndex, start, c);
    if (first < 0 || blockWords(rows.schema.types, c, false) > room) return -1;
    const words = this.area.copyOut(rows, first, target, w);
    FieldOrder.assignKindsHeld(target, entityBase, first, c, entities, rows, this.writes);
    return words;
  }

  /**
   * Writes the run of per-entity rows of `rows` (`FieldRows.runNext`) at word `w` when its staged
   * entities were all kept, in order and contiguous, and it takes at most `room` words; returns the
   * words written, else -1.
   */
  private writeRun(
    target: FieldTarget,
    w: number,
    rows: FieldRows,
    keptIndex: Int32Array | null,
    room: number,
    entities: EntityTable,
    entityBase: number,
  ): number {
    const c = rows.count;
    const start = rows.runNext - c;
    const first = keptRun(keptIndex, start, c);
    if (first < 0) return -1;
    const words = blockWords(rows.schema.types, c, false);
    if (words > room) return -1;
    const bad = writeRawBlock(target, w, rows, c, false, null, first, this.maxEntityId, this.pool);
    if (bad > 0) {
      this.invalid(bad);
      // Rare: the rows' entities written out for `flagRepaired`.
      const rr = rows.rows;
      for (let r = 0; r < c; r++) rr[r] = start + r;
      this.flagRepaired(target.u32, entityBase, rows, keptIndex);
    }
    FieldOrder.assignKindsHeld(target, entityBase, first, c, entities, rows, this.writes);
    return words;
  }

  /** Flags `SANITIZED` (in the frame's entity words at `entityBase`) the kept entities of the rows `materialize` repaired. */
  private flagRepaired(u: Uint32Array, entityBase: number, rows: FieldRows, keptIndex: Int32Array | null): void {
    for (let r = 0; r < rows.count; r++) {
      if (rows.rowBad[r] === 0) continue;
      const e = keptIndex === null ? rows.rows[r] : keptIndex[rows.rows[r]];
      if (e >= 0) u[entityBase + e] |= SANITIZED_BIT;
    }
  }

  /** Rows staged in the open frame. */
  public get rowCount(): number {
    let c = 0;
    for (let s = 0; s < this.touchedCount; s++) c += this.touched[s].count;
    return c;
  }

  private rowsOf(schema: FieldSchema): FieldRows {
    let rows = this.bySchema[schema.index];
    if (rows === undefined || rows.schema !== schema) {
      rows = new FieldRows(schema, 64, this.maxEntityId, this.pool);
      this.bySchema[schema.index] = rows;
    }
    return rows;
  }

  /** The row of staged entity `index` in `rows` (added if new), or -1 when it has another schema's. */
  private rowFor(index: number, rows: FieldRows, id: number): number {
    const r = this.entityRow[index];
    if (r >= 0) {
      if (this.entitySchema[index] === rows.schema.index) return r;
      this.dropRow(id, 'already has fields of another kind in this frame');
      return -1;
    }
    if (rows.count === 0) this.touch(rows);
    const nr = rows.add(index);
    this.entityRow[index] = nr;
    if (index > this.highIndex) this.highIndex = index;
    this.entitySchema[index] = rows.schema.index;
    return nr;
  }

  /** Notes that `rows` has rows this frame. */
  private touch(rows: FieldRows): void {
    if (this.touchedCount < this.touched.length) this.touched[this.touchedCount] = rows;
    else this.touched.push(rows);
    this.touchedCount++;
  }

  private dropRow(id: number, why: string): void {
    this.stats.fieldRowsDropped++;
    if (!this.warnOnce.has('fieldRow'))
      this.warnOnce.warn('fieldRow', `rewindable: fields of entity ${String(id)} dropped: ${why}`);
  }

  private invalid(count: number): void {
    this.stats.invalidFieldValues += count;
    this.repaired += count;
    if (!this.warnOnce.has('fieldValue'))
      this.warnOnce.warn(
        'fieldValue',
        'rewindable: a field value was invalid for its type (non-finite float, non-integer or out-of-range integer, unknown enum code, entity id outside [-1, maxEntityId)); the repaired value was stored (0, clamped, or none)',
      );
  }

  /** Forgets the staged rows (the recorder was cleared). */
  public clear(): void {
    this.begin();
  }

  /** Staged entities capacity (the recorder's `maxEntitiesPerFrame`). */
  public get entityCapacity(): number {
    return this.capacity;
  }
}

/**
 * Where staged entities `start .. start + c` are in the frame when the resolver kept them all, in
 * order and contiguous (`keptIndex` null: nothing was dropped or moved); -1 otherwise.
 */
function keptRun(keptIndex: Int32Array | null, start: number, c: number): number {
  if (keptIndex === null) return start;
  const first = keptIndex[start];
  if (first < 0) return -1;
  for (let i = 1; i < c; i++) if (keptIndex[start + i] !== first + i) return -1;
  return first;
}
