import { FLOAT32_OPTIONS, Packr } from 'msgpackr';
import type { EntityObject } from './entityObjects';
import { ObjectSnapshotPeer } from './ObjectSnapshotPeer';

/**
 * msgpackr's `Packr` with shared `structures` (its record extension: the key list of the entity
 * object is written once and referenced by every record). The game's values are float32, so
 * `useFloat32: ALWAYS` stores them in 5 bytes instead of 9 without losing anything.
 *
 * @example
 * const peer = new MsgpackrPeer(900);
 * world.step(); peer.prepare(world); peer.record(world);
 */
export class MsgpackrPeer extends ObjectSnapshotPeer<Uint8Array> {
  public readonly name = 'msgpackr';
  public readonly note = 'new Packr({ structures: [], useFloat32: ALWAYS }).pack(entityObjects) per frame';
  private readonly packr = new Packr({ structures: [], useFloat32: FLOAT32_OPTIONS.ALWAYS });

  protected snapshot(objects: EntityObject[]): Uint8Array {
    return this.packr.pack(objects);
  }

  protected sizeOf(b: Uint8Array): number {
    return b.byteLength;
  }

  /** Unpacked afresh (`packr.unpack`). */
  protected restore(b: Uint8Array): EntityObject[] {
    return this.packr.unpack(b) as EntityObject[];
  }
}
