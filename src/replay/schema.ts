import { MsgFloat } from './MsgDecoder';
import { ReplayError } from './ReplayError';

/**
 * Strict readers for values decoded from an untrusted file (maps decode as `Map`, never as plain
 * objects, so no key can reach a prototype). Each throws a `ReplayError` naming the path.
 */

/** Throws `CORRUPT` at `path`. */
export function corrupt(path: string, detail: string): never {
  throw new ReplayError('CORRUPT', detail, path);
}

/** Throws `TOO_LARGE` at `path`. */
export function tooLarge(path: string, detail: string): never {
  throw new ReplayError('TOO_LARGE', detail, path);
}

/** A short description of a decoded value's type, for error messages. */
export function typeName(v: unknown): string {
  if (v === null) return 'nil';
  if (Array.isArray(v)) return 'array';
  if (v instanceof Uint8Array) return 'bin';
  if (v instanceof Map) return 'map';
  if (v instanceof MsgFloat) return `float ${v.value}`;
  if (typeof v === 'object') {
    const c = (v as { constructor?: { name?: unknown } }).constructor;
    return typeof c === 'function' && typeof c.name === 'string' ? c.name : 'object';
  }
  return typeof v;
}

/** A string of at most `maxLength` code units. */
export function asString(v: unknown, path: string, maxLength: number): string {
  if (typeof v !== 'string') corrupt(path, `expected a string, found ${typeName(v)}`);
  if (v.length > maxLength) tooLarge(path, `string of ${v.length} characters exceeds the limit of ${maxLength}`);
  return v;
}

/**
 * An integer in `[min, max]` (a MessagePack integer: floats decode as `MsgFloat` and are refused);
 * above `max` is `TOO_LARGE` when `large` is set, else `CORRUPT`.
 */
export function asInt(v: unknown, path: string, min: number, max: number, large = false): number {
  if (typeof v !== 'number' || !Number.isInteger(v)) corrupt(path, `expected an integer, found ${typeName(v)}`);
  if (v < min) corrupt(path, `${v} is below ${min}`);
  if (v > max) {
    if (large) tooLarge(path, `${v} exceeds the limit of ${max}`);
    corrupt(path, `${v} is above ${max}`);
  }
  return v;
}

/** A boolean. */
export function asBool(v: unknown, path: string): boolean {
  if (typeof v !== 'boolean') corrupt(path, `expected a boolean, found ${typeName(v)}`);
  return v;
}

/** A `bin` value. */
export function asBin(v: unknown, path: string): Uint8Array {
  if (!(v instanceof Uint8Array)) corrupt(path, `expected bin, found ${typeName(v)}`);
  return v;
}

/** An array of at most `maxLength` elements. */
export function asArray(v: unknown, path: string, maxLength: number): unknown[] {
  if (!Array.isArray(v)) corrupt(path, `expected an array, found ${typeName(v)}`);
  if (v.length > maxLength) tooLarge(path, `${v.length} elements exceed the limit of ${maxLength}`);
  return v;
}
