import type { Workload } from '../Workload';
import { makeEntityObject, type EntityObject } from './entityObjects';

/**
 * The workload as an array of live entity objects, for the peers that snapshot objects
 * (JSON.stringify, structuredClone, msgpackr, the geckos vault). `sync` runs untimed: in an
 * object-oriented game these objects already exist, so building them is not a recording cost.
 *
 * @example
 * const mirror = new ObjectMirror();
 * world.step();
 * mirror.sync(world);
 * JSON.stringify(mirror.objects);
 */
export class ObjectMirror {
  /** One object per live entity, in the workload's slot order. */
  public readonly objects: EntityObject[] = [];

  /** Rewrites the objects from the workload's current frame. */
  public sync(world: Workload): void {
    const objects = this.objects;
    const n = world.count;
    while (objects.length < n) objects.push(makeEntityObject());
    if (objects.length > n) objects.length = n;
    for (let i = 0; i < n; i++) {
      const o = objects[i];
      o.id = world.ids[i];
      o.x = world.x[i];
      o.y = world.y[i];
      o.z = world.z[i];
      o.qx = world.qx[i];
      o.qy = world.qy[i];
      o.qz = world.qz[i];
      o.qw = world.qw[i];
      o.flags = world.flags[i];
    }
  }
}
