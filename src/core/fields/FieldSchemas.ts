import { stringProblem } from '../validate/rules';
import { FIELD_TYPES, type FieldType, MAX_FIELD_SCHEMAS, MAX_FIELDS_PER_KIND } from './fieldLayout';
import { FieldSchema } from './FieldSchema';

/** What `Recorder.declareFields` takes: field names to types, in order (or `[name, type]` pairs). */
export type FieldSpec = Readonly<Record<string, FieldType>> | ReadonlyArray<readonly [string, FieldType]>;

/**
 * The field schemas of a recording, one per kind that declared fields; shared by the recorder
 * (which adds them) and every reader of its frames (a loaded replay builds its own from the file).
 *
 * @example
 * const schemas = new FieldSchemas();
 * const agent = schemas.declare('agent', { health: 'f32', grounded: 'bool' });
 * schemas.ofKind('agent') === agent; // true
 */
export class FieldSchemas {
  private readonly all: FieldSchema[] = [];
  private readonly byKind = new Map<string, FieldSchema>();

  /** The schemas, by index. */
  public list(): readonly FieldSchema[] {
    return this.all;
  }

  /** Schemas declared. */
  public get count(): number {
    return this.all.length;
  }

  /** The schema at `index`, or undefined. */
  public at(index: number): FieldSchema | undefined {
    return this.all[index];
  }

  /** The schema of `kind`, or undefined when the kind declared no fields. */
  public ofKind(kind: string): FieldSchema | undefined {
    return this.byKind.get(kind);
  }

  /**
   * Forgets every schema (a live viewer's store starting a new session). Schemas handed out before
   * stay valid objects but are no longer this set's.
   *
   * @example
   * schemas.clear(); // schemas.count === 0
   */
  public clear(): void {
    this.all.length = 0;
    this.byKind.clear();
  }

  /**
   * Declares the fields of `kind` (once; declaring the same fields again returns the same schema).
   * Configuration: a bad call throws and changes nothing.
   *
   * @throws RangeError when `kind` or a field name is not a string of at most 65,536 well-formed
   *   UTF-16 units, a type is unknown, a name repeats, there are no fields or more than 64, the
   *   kind already declared different fields, or 65,536 kinds declared fields.
   */
  public declare(kind: string, spec: FieldSpec): FieldSchema {
    const kp = stringProblem(kind);
    if (kp !== null) throw new RangeError(`rewindable: declareFields: the kind ${kp}`);
    const pairs = normalise(kind, spec);
    const existing = this.byKind.get(kind);
    if (existing !== undefined) {
      const same =
        existing.fields.length === pairs.length &&
        pairs.every(([n, t], i) => existing.fields[i].name === n && existing.fields[i].type === t);
      if (!same)
        throw new RangeError(`rewindable: declareFields('${kind.slice(0, 64)}'): already declared differently`);
      return existing;
    }
    if (this.all.length >= MAX_FIELD_SCHEMAS)
      throw new RangeError(`rewindable: declareFields: ${MAX_FIELD_SCHEMAS} kinds declared fields`);
    const schema = new FieldSchema(this.all.length, kind, pairs, this);
    this.all.push(schema);
    this.byKind.set(kind, schema);
    return schema;
  }
}

/** `spec` as checked `[name, type]` pairs; throws a RangeError naming the problem. */
function normalise(kind: string, spec: FieldSpec): Array<readonly [string, FieldType]> {
  const where = `rewindable: declareFields('${kind.slice(0, 64)}')`;
  if (spec === null || typeof spec !== 'object') throw new RangeError(`${where}: expected an object of field types`);
  const raw: Array<readonly [unknown, unknown]> = Array.isArray(spec)
    ? (spec as ReadonlyArray<readonly [unknown, unknown]>).map((p) =>
        Array.isArray(p) ? [p[0], p[1]] : [p, undefined],
      )
    : Object.entries(spec);
  if (raw.length === 0 || raw.length > MAX_FIELDS_PER_KIND)
    throw new RangeError(`${where}: declare 1 to ${MAX_FIELDS_PER_KIND} fields (got ${raw.length})`);
  const seen = new Set<string>();
  const out: Array<readonly [string, FieldType]> = [];
  for (const [name, type] of raw) {
    const np = stringProblem(name);
    if (np !== null) throw new RangeError(`${where}: a field name ${np}`);
    const n = name as string;
    if (seen.has(n)) throw new RangeError(`${where}: field '${n.slice(0, 64)}' declared twice`);
    if (!FIELD_TYPES.includes(type as FieldType))
      throw new RangeError(
        `${where}: field '${n.slice(0, 64)}' has unknown type ${String(type)} (${FIELD_TYPES.join(', ')})`,
      );
    seen.add(n);
    out.push([n, type as FieldType]);
  }
  return out;
}
