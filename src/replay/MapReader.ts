import { corrupt, typeName } from './schema';
import type { WarningList } from './WarningList';

/**
 * A decoded map with string keys: required and optional fields are taken by name, and `done()`
 * reports the keys nobody asked for (fields added by a newer writer) as warnings.
 *
 * @example
 * const m = MapReader.of(value, 'header.info', warnings);
 * const note = asString(m.req('note'), 'header.info.note', 1000);
 * m.done();
 */
export class MapReader {
  private readonly seen = new Set<string>();

  public constructor(
    private readonly map: Map<unknown, unknown>,
    public readonly path: string,
    private readonly warnings: WarningList,
  ) {}

  /** Reads `v` as a map at `path`. */
  public static of(v: unknown, path: string, warnings: WarningList): MapReader {
    if (!(v instanceof Map)) corrupt(path, `expected a map, found ${typeName(v)}`);
    return new MapReader(v, path, warnings);
  }

  /** The value of a required key. */
  public req(key: string): unknown {
    this.seen.add(key);
    if (!this.map.has(key)) corrupt(`${this.path}.${key}`, 'missing');
    return this.map.get(key);
  }

  /** The value of an optional key, or `undefined`. */
  public opt(key: string): unknown {
    this.seen.add(key);
    return this.map.get(key);
  }

  /** Warns about keys that were not read. */
  public done(): void {
    for (const key of this.map.keys()) {
      if (typeof key === 'string' && this.seen.has(key)) continue;
      this.warnings.add({
        code: 'UNKNOWN_FIELD',
        message: `${this.path}: unknown field ${typeof key === 'string' ? JSON.stringify(key.slice(0, 64)) : typeName(key)} ignored`,
      });
    }
  }
}
