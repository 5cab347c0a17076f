import { stringProblem } from '../validate/rules';
import {
  FIELD_ENUM,
  FIELD_TYPES,
  type FieldInfo,
  type FieldType,
  fieldComponents,
  MAX_ENUM_NAMES,
} from './fieldLayout';

/**
 * The fields one kind of entity records (`Recorder.declareFields`), and the enum names the kind has
 * interned. A row of values, as `Recorder.fields` takes it, has one slot per component in
 * declaration order (`slotOf[field]` is where a field starts; a vec3 takes three slots).
 *
 * @example
 * const AGENT = recorder.declareFields('agent', { health: 'f32', state: 'enum', velocity: 'vec3' });
 * const CHASE = AGENT.code('chase'); // an enum name's code, interned once
 * AGENT.slotOf[AGENT.field('velocity')]; // 2: velocity x, y, z are slots 2, 3, 4
 */
export class FieldSchema {
  /** The declared fields, in order. */
  public readonly fields: readonly FieldInfo[];
  /** Type code of each field (`FIELD_*`). */
  public readonly types: Uint8Array;
  /** First value slot of each field in a row of values. */
  public readonly slotOf: Int32Array;
  /** Value slots of a row (the fields' components summed). */
  public readonly slots: number;
  /** Interned enum names of this kind; a stored enum value is a position here. */
  public readonly enumNames: string[] = [];
  private readonly enumCodes = new Map<string, number>();
  private readonly byName = new Map<string, number>();

  public constructor(
    /** Position among the recording's schemas (stored in each field block). */
    public readonly index: number,
    /** The kind these fields belong to (`Recorder.describe`'s kind). */
    public readonly kind: string,
    fields: ReadonlyArray<readonly [string, FieldType]>,
    /** The `FieldSchemas` that declared it (a recorder accepts only its own schemas). */
    public readonly owner: object,
  ) {
    this.types = new Uint8Array(fields.length);
    this.slotOf = new Int32Array(fields.length);
    const infos: FieldInfo[] = [];
    let slot = 0;
    for (let i = 0; i < fields.length; i++) {
      const [name, type] = fields[i];
      const code = FIELD_TYPES.indexOf(type);
      const components = fieldComponents(code);
      this.types[i] = code;
      this.slotOf[i] = slot;
      slot += components;
      infos.push(Object.freeze({ name, type, index: i, components }));
      this.byName.set(name, i);
    }
    this.slots = slot;
    this.fields = Object.freeze(infos);
  }

  /** Index of the field called `name`, or -1. */
  public field(name: string): number {
    return this.byName.get(name) ?? -1;
  }

  /** Whether the kind declares an enum field. */
  public get hasEnums(): boolean {
    for (let i = 0; i < this.types.length; i++) if (this.types[i] === FIELD_ENUM) return true;
    return false;
  }

  /**
   * The code of an enum name, interned on first use (at most `MAX_ENUM_NAMES`, 255, per kind, for
   * the recorder's lifetime: codes stay valid when frames leave the ring). -1 when `name` is not a
   * string of at most 65,536 well-formed UTF-16 units or the kind's names are full; recording -1
   * stores "no value" (counted in `stats.invalidFieldValues`).
   *
   * @example
   * values[AGENT.slotOf[STATE]] = AGENT.code(agent.state); // a Map look-up; cache the code where it is hot
   */
  public code(name: string): number {
    const c = this.enumCodes.get(name);
    if (c !== undefined) return c;
    if (this.enumNames.length >= MAX_ENUM_NAMES || stringProblem(name) !== null) return -1;
    const next = this.enumNames.length;
    this.enumNames.push(name);
    this.enumCodes.set(name, next);
    return next;
  }
}
