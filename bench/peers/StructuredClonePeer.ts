import type { Workload } from '../Workload';
import { fillFromObjects, type EntityObject } from './entityObjects';
import { ObjectMirror } from './ObjectMirror';
import type { DecodedFrame } from './DecodedFrame';
import type { PeerRole, RecordPeer } from './RecordPeer';
import { SnapshotRing } from './SnapshotRing';

/**
 * `structuredClone` of the game's entity objects, one deep copy per frame, in a 900-slot ring.
 * The copies are live objects, not bytes: their size is measured as retained heap.
 *
 * @example
 * const peer = new StructuredClonePeer(900);
 * world.step(); peer.prepare(world); peer.record(world);
 */
export class StructuredClonePeer implements RecordPeer {
  public readonly name = 'structuredClone';
  public readonly role: PeerRole = 'library';
  public readonly note = 'structuredClone(entityObjects) per frame; size = retained heap';
  private readonly mirror = new ObjectMirror();
  private readonly ring: SnapshotRing<EntityObject[]>;

  public constructor(maxFrames: number) {
    this.ring = new SnapshotRing<EntityObject[]>(maxFrames);
  }

  public prepare(world: Workload): void {
    this.mirror.sync(world);
  }

  public record(world: Workload): void {
    this.ring.put(world.frame, structuredClone(this.mirror.objects), NaN);
  }

  public get framesHeld(): number {
    return this.ring.framesHeld;
  }

  public storedBytes(): number {
    return NaN;
  }

  public decode(frame: number, out: DecodedFrame): boolean {
    const objects = this.ring.get(frame);
    if (objects === undefined) return false;
    fillFromObjects(objects, out);
    return true;
  }

  public dispose(): void {
    this.ring.clear();
  }
}
