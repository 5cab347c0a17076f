import type { Workload } from '../Workload';
import { fillFromObjects, type EntityObject } from './entityObjects';
import { ObjectMirror } from './ObjectMirror';
import type { DecodedFrame } from './DecodedFrame';
import type { PeerRole, RecordPeer } from './RecordPeer';
import { SnapshotRing } from './SnapshotRing';

/**
 * What the snapshot peers (`JsonPeer`, `MsgpackrPeer`, `StructuredClonePeer`) have in common: the
 * game's entity objects (`ObjectMirror`) turned into one snapshot per frame, kept in a
 * `SnapshotRing`, and turned back into objects to decode. A subclass says only how a snapshot is
 * made, how big it is and how it is read back.
 *
 * @example
 * class JsonPeer extends ObjectSnapshotPeer<string> {
 *   protected snapshot(objects: EntityObject[]): string { return JSON.stringify(objects); }
 *   protected sizeOf(s: string): number { return s.length; }
 *   protected restore(s: string): EntityObject[] { return JSON.parse(s) as EntityObject[]; }
 * }
 */
export abstract class ObjectSnapshotPeer<T> implements RecordPeer {
  public abstract readonly name: string;
  public readonly role: PeerRole = 'library';
  public abstract readonly note: string;
  private readonly mirror = new ObjectMirror();
  private readonly ring: SnapshotRing<T>;

  public constructor(maxFrames: number) {
    this.ring = new SnapshotRing<T>(maxFrames);
  }

  /** One frame's snapshot of the entity objects. */
  protected abstract snapshot(objects: EntityObject[]): T;
  /** Stored bytes of a snapshot (NaN when it is live objects, not bytes). */
  protected abstract sizeOf(snapshot: T): number;
  /** The entity objects of a snapshot, read back afresh. */
  protected abstract restore(snapshot: T): EntityObject[];

  public prepare(world: Workload): void {
    this.mirror.sync(world);
  }

  public record(world: Workload): void {
    const s = this.snapshot(this.mirror.objects);
    this.ring.put(world.frame, s, this.sizeOf(s));
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

  /** The entity objects of a held frame, read back afresh, or undefined when it is not held. */
  public objectsOf(frame: number): EntityObject[] | undefined {
    const s = this.ring.get(frame);
    return s === undefined ? undefined : this.restore(s);
  }

  public dispose(): void {
    this.ring.clear();
  }
}
