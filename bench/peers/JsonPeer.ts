import type { EntityObject } from './entityObjects';
import { ObjectSnapshotPeer } from './ObjectSnapshotPeer';

/**
 * `JSON.stringify` of the game's entity objects, one string per frame, in a 900-slot ring.
 *
 * @example
 * const peer = new JsonPeer(900);
 * world.step(); peer.prepare(world); peer.record(world);
 */
export class JsonPeer extends ObjectSnapshotPeer<string> {
  public readonly name = 'JSON.stringify';
  public readonly note = 'JSON.stringify(entityObjects) per frame; bytes = string length (ASCII)';

  protected snapshot(objects: EntityObject[]): string {
    return JSON.stringify(objects);
  }

  protected sizeOf(s: string): number {
    return s.length;
  }

  /** Parsed afresh (`JSON.parse`). */
  protected restore(s: string): EntityObject[] {
    return JSON.parse(s) as EntityObject[];
  }
}
