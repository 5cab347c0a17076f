import type { EntityObject } from './entityObjects';
import { ObjectSnapshotPeer } from './ObjectSnapshotPeer';

/**
 * `structuredClone` of the game's entity objects, one deep copy per frame, in a 900-slot ring.
 * The copies are live objects, not bytes: their size is measured as retained heap.
 *
 * @example
 * const peer = new StructuredClonePeer(900);
 * world.step(); peer.prepare(world); peer.record(world);
 */
export class StructuredClonePeer extends ObjectSnapshotPeer<EntityObject[]> {
  public readonly name = 'structuredClone';
  public readonly note = 'structuredClone(entityObjects) per frame; size = retained heap';

  protected snapshot(objects: EntityObject[]): EntityObject[] {
    return structuredClone(objects);
  }

  /** Live objects, not bytes: measured as retained heap by the bench instead. */
  protected sizeOf(): number {
    return Number.NaN;
  }

  /** The stored copy itself (decoding reads it, nothing is parsed). */
  protected restore(objects: EntityObject[]): EntityObject[] {
    return objects;
  }
}
