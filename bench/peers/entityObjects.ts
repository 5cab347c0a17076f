import type { DecodedFrame } from './DecodedFrame';

/**
 * Entity objects: what an object-oriented game keeps per entity, and what JSON, structuredClone and
 * msgpackr snapshot.
 */

/** A game entity as an object-oriented game keeps it (and as JSON or msgpack see it). */
export interface EntityObject {
  id: number;
  x: number;
  y: number;
  z: number;
  qx: number;
  qy: number;
  qz: number;
  qw: number;
  flags: number;
}

/**
 * A new entity object, every field present, always in the same order (one hidden class).
 *
 * @example
 * const e = makeEntityObject(); // { id: 0, x: 0, ..., qw: 1, flags: 0 }
 */
export function makeEntityObject(): EntityObject {
  return { id: 0, x: 0, y: 0, z: 0, qx: 0, qy: 0, qz: 0, qw: 1, flags: 0 };
}

/**
 * Copies decoded entity objects (from JSON.parse, unpack or a clone) into `out`.
 *
 * @example
 * fillFromObjects(JSON.parse(snapshot) as EntityObject[], out);
 */
export function fillFromObjects(objects: readonly EntityObject[], out: DecodedFrame): void {
  out.resize(objects.length);
  for (let i = 0; i < objects.length; i++) {
    const o = objects[i];
    out.ids[i] = o.id;
    out.x[i] = o.x;
    out.y[i] = o.y;
    out.z[i] = o.z;
    out.qx[i] = o.qx;
    out.qy[i] = o.qy;
    out.qz[i] = o.qz;
    out.qw[i] = o.qw;
    out.flags[i] = o.flags;
  }
}
