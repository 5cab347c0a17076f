import type { Workload } from '../Workload';
import { fillFromObjects, type EntityObject } from './entityObjects';
import { ObjectMirror } from './ObjectMirror';
import type { DecodedFrame } from './DecodedFrame';
import type { PeerRole, RecordPeer } from './RecordPeer';
import { SnapshotRing } from './SnapshotRing';

/**
 * `JSON.stringify` of the game's entity objects, one string per frame, in a 900-slot ring.
 *
 * @example
 * const peer = new JsonPeer(900);
 * world.step(); peer.prepare(world); peer.record(world);
 */
export class JsonPeer implements RecordPeer {
  public readonly name = 'JSON.stringify';
  public readonly role: PeerRole = 'library';
  public readonly note = 'JSON.stringify(entityObjects) per frame; bytes = string length (ASCII)';
  private readonly mirror = new ObjectMirror();
  private readonly ring: SnapshotRing<string>;

  public constructor(maxFrames: number) {
    this.ring = new SnapshotRing<string>(maxFrames);
  }

  public prepare(world: Workload): void {
    this.mirror.sync(world);
  }

  public record(world: Workload): void {
    const s = JSON.stringify(this.mirror.objects);
    this.ring.put(world.frame, s, s.length);
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

  /** The entity objects of a held frame, parsed afresh (`JSON.parse`), or undefined when it is not held. */
  public objectsOf(frame: number): EntityObject[] | undefined {
    const s = this.ring.get(frame);
    return s === undefined ? undefined : (JSON.parse(s) as EntityObject[]);
  }

  public dispose(): void {
    this.ring.clear();
  }
}
