import { FLOAT32_OPTIONS, Packr } from 'msgpackr';
import type { Workload } from '../Workload';
import { fillFromObjects, type EntityObject } from './entityObjects';
import { ObjectMirror } from './ObjectMirror';
import type { DecodedFrame } from './DecodedFrame';
import type { PeerRole, RecordPeer } from './RecordPeer';
import { SnapshotRing } from './SnapshotRing';

/**
 * msgpackr's `Packr` with shared `structures` (its record extension: the key list of the entity
 * object is written once and referenced by every record). The game's values are float32, so
 * `useFloat32: ALWAYS` stores them in 5 bytes instead of 9 without losing anything.
 *
 * @example
 * const peer = new MsgpackrPeer(900);
 * world.step(); peer.prepare(world); peer.record(world);
 */
export class MsgpackrPeer implements RecordPeer {
  public readonly name = 'msgpackr';
  public readonly role: PeerRole = 'library';
  public readonly note = 'new Packr({ structures: [], useFloat32: ALWAYS }).pack(entityObjects) per frame';
  private readonly mirror = new ObjectMirror();
  private readonly ring: SnapshotRing<Uint8Array>;
  private readonly packr: Packr;

  public constructor(maxFrames: number) {
    this.ring = new SnapshotRing<Uint8Array>(maxFrames);
    this.packr = new Packr({ structures: [], useFloat32: FLOAT32_OPTIONS.ALWAYS });
  }

  public prepare(world: Workload): void {
    this.mirror.sync(world);
  }

  public record(world: Workload): void {
    const b = this.packr.pack(this.mirror.objects);
    this.ring.put(world.frame, b, b.byteLength);
  }

  public get framesHeld(): number {
    return this.ring.framesHeld;
  }

  public storedBytes(): number {
    return this.ring.storedBytes;
  }

  public decode(frame: number, out: DecodedFrame): boolean {
    const objects = this.objectsOf(frame);
    if (objects === undefined) return false;
    fillFromObjects(objects, out);
    return true;
  }

  /** The entity objects of a held frame, unpacked afresh (`packr.unpack`), or undefined when it is not held. */
  public objectsOf(frame: number): EntityObject[] | undefined {
    const b = this.ring.get(frame);
    return b === undefined ? undefined : (this.packr.unpack(b) as EntityObject[]);
  }

  public dispose(): void {
    this.ring.clear();
  }
}
