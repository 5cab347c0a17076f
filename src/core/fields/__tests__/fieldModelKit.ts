/**
 * A plain reference of what a frame's field section holds (fieldLayout.ts, the replay format), for
 * the field writer's model tests: each staged entity's row (its kind and values, repaired as
 * docs/concepts.md "Custom fields" says), the repairs counted and flagged, the rows dropped, and the
 * blocks the frame must hold, built word by word without the recorder's code.
 */
import { repairI32, repairU8 } from '../fieldRepair';
import {
  BLOCK_LISTED,
  ENUM_NONE,
  FIELD_BOOL,
  FIELD_ENTITY,
  FIELD_ENUM,
  FIELD_F32,
  FIELD_I32,
  FIELD_U8,
} from '../fieldLayout';
import type { FieldSchema } from '../FieldSchema';

const f32bits = (v: number) => new Uint32Array(Float32Array.of(v).buffer)[0];

/** One value of a field of type `t` as stored, and whether it was repaired. */
export function convert(t: number, v: number, names: number, maxId: number): [number, boolean] {
  if (t === FIELD_F32 || t > FIELD_ENTITY) {
    const x = Math.fround(v);
    return Number.isFinite(x) ? [x, false] : [0, true];
  }
  if (t === FIELD_I32) return (v | 0) === v ? [v, false] : [repairI32(v), true];
  if (t === FIELD_ENTITY) return Number.isInteger(v) && v >= -1 && v < maxId ? [v, false] : [-1, true];
  if (t === FIELD_U8) return Number.isInteger(v) && v >= 0 && v <= 255 ? [v, false] : [repairU8(v), true];
  if (t === FIELD_BOOL) return [v ? 1 : 0, false];
  return Number.isInteger(v) && v >= 0 && v < names ? [v, false] : [ENUM_NONE, true];
}

/** A staged entity's row: its kind, the values stored (one per slot), per-entity values not yet converted. */
interface Row {
  schema: FieldSchema;
  values: number[];
  pending: ArrayLike<number> | null;
}

/** The model of one frame: staged entities (ids), their rows, the counters and the flags. */
export class FrameModel {
  public readonly ids: number[] = [];
  public readonly rows: Array<Row | undefined> = [];
  /** Kinds in the order they got their first row this frame. */
  public readonly kinds: FieldSchema[] = [];
  public readonly flagged = new Set<number>();
  public invalid = 0;
  public dropped = 0;

  public constructor(private readonly maxId: number) {}

  public entity(id: number): void {
    this.ids.push(id);
  }

  /** `fields(id, schema, values)` right after entity `id`. */
  public fields(schema: FieldSchema, values: ArrayLike<number>): void {
    const s = this.ids.length - 1;
    const row = this.rowFor(s, schema);
    // Values that are no array-like object: every slot missing.
    if (row !== null) row.pending = typeof values === 'object' && values !== null ? values : [];
  }

  /** `fieldColumns(schema, count, ids, columns)`. */
  public columns(
    schema: FieldSchema,
    count: number,
    ids: ArrayLike<number>,
    columns: ArrayLike<ArrayLike<number>>,
  ): void {
    const c = count > 0 ? Math.min(Math.trunc(count), ids.length) : 0;
    const n = this.ids.length;
    // Matched in order from where the last c staged entities begin, each from the previous match on, wrapping once.
    let j = n - c >= 0 && this.ids[n - c] === ids[0] ? n - c : 0;
    for (let i = 0; i < c; i++) {
      let k = this.ids.indexOf(ids[i], j);
      if (k < 0) k = this.ids.slice(0, j).indexOf(ids[i]);
      if (k < 0) {
        this.dropped++;
        continue;
      }
      j = k + 1;
      const row = this.rowFor(k, schema);
      if (row === null) continue;
      if (row.pending !== null) this.settle(k, row);
      const values: number[] = [];
      let bad = false;
      const types = schema.types;
      for (let f = 0; f < types.length; f++) {
        const col = f < columns.length ? columns[f] : null;
        const per = types[f] === 6 ? 3 : 1;
        for (let q = 0; q < per; q++) {
          if (col === null || typeof col !== 'object') {
            // A missing column: every value repaired (a bool too), the entity's none and the enum's none.
            values.push(types[f] === FIELD_ENTITY ? -1 : types[f] === FIELD_ENUM ? ENUM_NONE : 0);
            bad = true;
            this.invalid++;
            continue;
          }
          const [x, b] = convert(types[f], col[i * per + q], schema.enumNames.length, this.maxId);
          values.push(x);
          if (b) {
            bad = true;
            this.invalid++;
          }
        }
      }
      row.values = values;
      if (bad) this.flagged.add(k);
    }
  }

  /** `fields` for an id other than the last entity's: refused. */
  public refused(): void {
    this.dropped++;
  }

  private rowFor(s: number, schema: FieldSchema): Row | null {
    const row = this.rows[s];
    if (row === undefined) {
      if (!this.kinds.includes(schema)) this.kinds.push(schema);
      const r: Row = { schema, values: [], pending: null };
      this.rows[s] = r;
      return r;
    }
    if (row.schema === schema) return row;
    this.dropped++;
    return null;
  }

  private settle(s: number, row: Row): void {
    const values: number[] = [];
    let bad = false;
    const { types, slotOf } = row.schema;
    for (let f = 0; f < types.length; f++) {
      const per = types[f] === 6 ? 3 : 1;
      for (let q = 0; q < per; q++) {
        const [x, b] = convert(
          types[f],
          row.pending?.[slotOf[f] + q] as number,
          row.schema.enumNames.length,
          this.maxId,
        );
        values.push(x);
        if (b) {
          bad = true;
          this.invalid++;
        }
      }
    }
    row.values = values;
    row.pending = null;
    if (bad) this.flagged.add(s);
  }

  /** Staged index to the frame's entity index (-1: a later record of an id, dropped by the resolver). */
  public kept(): number[] {
    const seen = new Set<number>();
    let e = 0;
    return this.ids.map((id) => {
      if (seen.has(id)) return -1;
      seen.add(id);
      return e++;
    });
  }

  /** Rows the last `section` left out over the budget. */
  public overBudget = 0;

  /**
   * Converts the per-entity values left (as `endFrame` does) and returns the field section's words:
   * each kind's block in turn, cut to its first rows that fit the words left of `budgetWords`.
   */
  public section(budgetWords = Number.POSITIVE_INFINITY): number[] {
    this.rows.forEach((row, s) => {
      if (row?.pending != null) this.settle(s, row);
    });
    const kept = this.kept();
    const out: number[] = [];
    for (const schema of this.kinds) {
      const rows: Array<[number, number[]]> = [];
      this.rows.forEach((row, s) => {
        if (row?.schema === schema && kept[s] >= 0) rows.push([kept[s], row.values]);
      });
      rows.sort((a, b) => a[0] - b[0]);
      let k = rows.length;
      const words = (n: number) => {
        let w = 3 + (rows[n - 1][0] - rows[0][0] !== n - 1 ? n : 0);
        for (const t of schema.types)
          w +=
            t === 6
              ? 3 * n
              : t === FIELD_BOOL
                ? (n + 31) >>> 5
                : t === FIELD_U8 || t === FIELD_ENUM
                  ? (n + 3) >>> 2
                  : n;
        return w;
      };
      while (k > 0 && words(k) > budgetWords - out.length) {
        k--;
        this.overBudget++;
      }
      if (k === 0) continue;
      const first = rows[0][0];
      const listed = rows[k - 1][0] - first !== k - 1;
      out.push((schema.index | (listed ? BLOCK_LISTED : 0)) >>> 0, k, listed ? 0 : first);
      if (listed) for (let q = 0; q < k; q++) out.push(rows[q][0]);
      const { types, slotOf } = schema;
      for (let f = 0; f < types.length; f++) {
        const t = types[f];
        const at = (q: number, c = 0) => rows[q][1][slotOf[f] + c];
        if (t === FIELD_F32) for (let q = 0; q < k; q++) out.push(f32bits(at(q)));
        else if (t === 6) for (let c = 0; c < 3; c++) for (let q = 0; q < k; q++) out.push(f32bits(at(q, c)));
        else if (t === FIELD_I32 || t === FIELD_ENTITY) for (let q = 0; q < k; q++) out.push(at(q) >>> 0);
        else if (t === FIELD_BOOL) {
          for (let x = 0; x < (k + 31) >>> 5; x++) {
            let w = 0;
            for (let q = x * 32; q < Math.min(k, x * 32 + 32); q++) if (at(q) !== 0) w |= 1 << (q & 31);
            out.push(w >>> 0);
          }
        } else {
          for (let x = 0; x < (k + 3) >>> 2; x++) {
            let w = 0;
            for (let q = x * 4; q < Math.min(k, x * 4 + 4); q++) w |= at(q) << ((q & 3) * 8);
            out.push(w >>> 0);
          }
        }
      }
    }
    return out;
  }
}
