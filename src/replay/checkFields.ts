import {
  BLOCK_HEADER_WORDS,
  BLOCK_LISTED,
  BLOCK_SCHEMA_MASK,
  columnWords,
  ENUM_NONE,
  FIELD_ENUM,
  FIELD_F32,
  FIELD_VEC3,
} from '../core/fields/fieldLayout';
import type { FieldSchemas } from '../core/fields/FieldSchemas';
import { firstNonFiniteF32 } from '../core/validate/rules';
import { corrupt } from './schema';

/**
 * Checks the field section `u[start, end)` of a frame of `n` entities (format 3) against the
 * file's field schemas, so that `FieldReader` only ever reads inside it: blocks of known schemas,
 * each at most once, rows inside the entity count (a listed block's indices strictly increasing),
 * columns filling the block, floats finite, enum codes interned (or `ENUM_NONE`), and blocks
 * filling the section exactly. `stamp[schema]` (scratch, one per schema) holds the frame number a
 * schema was last seen in. Returns the words walked.
 */
export function checkFieldSection(
  u: Uint32Array,
  f: Float32Array,
  start: number,
  end: number,
  n: number,
  frame: number,
  schemas: FieldSchemas,
  stamp: Int32Array,
  path: string,
): number {
  const u8 = new Uint8Array(u.buffer, u.byteOffset, u.byteLength);
  let b = 0;
  for (let w = start; w < end; b++) {
    const at = `${path}.fields[${b}]`;
    if (w + BLOCK_HEADER_WORDS > end) corrupt(at, 'block header overruns the field section');
    const head = u[w];
    const listed = (head & BLOCK_LISTED) !== 0;
    if ((head & ~(BLOCK_LISTED | BLOCK_SCHEMA_MASK)) !== 0) corrupt(at, `unknown bits in word 0x${head.toString(16)}`);
    const si = head & BLOCK_SCHEMA_MASK;
    const schema = schemas.at(si);
    if (schema === undefined) corrupt(at, `schema ${si} is not among the ${schemas.count} field schemas`);
    if (stamp[si] === frame) corrupt(at, `schema ${si} has two blocks in one frame`);
    stamp[si] = frame;
    const rows = u[w + 1];
    if (rows === 0 || rows > n) corrupt(at, `${rows} rows, the frame has ${n} entities`);
    const first = u[w + 2];
    let c = w + BLOCK_HEADER_WORDS;
    if (listed) {
      if (first !== 0) corrupt(at, 'a listed block has a first index');
      if (c + rows > end) corrupt(at, 'entity indices overrun the field section');
      for (let r = 0; r < rows; r++) {
        const i = u[c + r];
        if (i >= n || (r > 0 && i <= u[c + r - 1]))
          corrupt(at, `entity index ${i} of row ${r} is not increasing and below the entity count ${n}`);
      }
      c += rows;
    } else if (first + rows > n) {
      corrupt(at, `rows ${first}..${first + rows - 1} are not below the entity count ${n}`);
    }
    const types = schema.types;
    for (let k = 0; k < types.length; k++) {
      const t = types[k];
      const words = columnWords(t, rows);
      if (c + words > end) corrupt(at, `column ${k} overruns the field section`);
      if ((t === FIELD_F32 || t === FIELD_VEC3) && firstNonFiniteF32(f, c, c + words) >= 0)
        corrupt(at, `column ${k} (${schema.fields[k].name.slice(0, 64)}) holds a non-finite value`);
      if (t === FIELD_ENUM) {
        const names = schema.enumNames.length;
        for (let r = 0; r < rows; r++) {
          const v = u8[c * 4 + r];
          if (v >= names && v !== ENUM_NONE) corrupt(at, `enum code ${v} of row ${r} names none of the ${names} names`);
        }
      }
      c += words;
    }
    w = c;
  }
  return b;
}
