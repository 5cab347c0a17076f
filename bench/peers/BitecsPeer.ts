import { createSoADeserializer, createSoASerializer } from 'bitecs/serialization';
import type { Workload } from '../Workload';
import type { DecodedFrame } from './DecodedFrame';
import type { PeerRole, RecordPeer } from './RecordPeer';
import { SnapshotRing } from './SnapshotRing';

/** bitECS-style SoA components: one typed array per field, indexed by entity id. */
interface Components {
  position: { x: Float32Array; y: Float32Array; z: Float32Array };
  rotation: { x: Float32Array; y: Float32Array; z: Float32Array; w: Float32Array };
  flags: Uint8Array;
}

function makeComponents(idSpace: number): Components {
  return {
    position: { x: new Float32Array(idSpace), y: new Float32Array(idSpace), z: new Float32Array(idSpace) },
    rotation: {
      x: new Float32Array(idSpace),
      y: new Float32Array(idSpace),
      z: new Float32Array(idSpace),
      w: new Float32Array(idSpace),
    },
    flags: new Uint8Array(idSpace),
  };
}

/** Bytes bitecs' SoA serializer writes per entity: per component a u32 id, then the fields. */
const BYTES_PER_ENTITY = 4 + 3 * 4 + (4 + 4 * 4) + (4 + 1);

/**
 * bitecs 0.4's SoA serializer (`bitecs/serialization`): `createSoASerializer([Position, Rotation,
 * Flags])` over typed-array components indexed by entity id, called with the list of live ids (what
 * a query returns) every frame. It returns a fresh `ArrayBuffer` (a slice of its work buffer) per
 * frame; those are kept in a 900-slot ring.
 *
 * Not used: `createSnapshotSerializer`, which also writes entity/component membership but builds a
 * new SoA serializer over a copy of the rest of its work buffer on every call; and `diff: true`,
 * which writes only changed fields and so cannot decode a frame without the ones before it.
 *
 * @example
 * const peer = new BitecsPeer(900, world.idSpace, world.capacity);
 * world.step(); peer.prepare(world); peer.record(world);
 */
export class BitecsPeer implements RecordPeer {
  public readonly name = 'bitecs SoA';
  public readonly role: PeerRole = 'library';
  public readonly note =
    'createSoASerializer([Position{x,y,z}, Rotation{x,y,z,w}: Float32Array, Flags: Uint8Array])(liveIds) per frame';
  private readonly components: Components;
  private readonly serialize: (indices: number[] | readonly number[]) => ArrayBuffer;
  private readonly scratch: Components;
  private readonly deserialize: (packet: ArrayBuffer) => void;
  /** The live entity ids in game order: what a bitecs query would return. */
  private readonly eids: number[] = [];
  private readonly ring: SnapshotRing<ArrayBuffer>;

  public constructor(maxFrames: number, idSpace: number, capacity: number) {
    this.ring = new SnapshotRing<ArrayBuffer>(maxFrames);
    this.components = makeComponents(idSpace);
    const c = this.components;
    this.serialize = createSoASerializer([c.position, c.rotation, c.flags], {
      buffer: new ArrayBuffer(capacity * BYTES_PER_ENTITY + 64),
    });
    this.scratch = makeComponents(idSpace);
    const s = this.scratch;
    this.deserialize = createSoADeserializer([s.position, s.rotation, s.flags]);
  }

  public prepare(world: Workload): void {
    const { position, rotation, flags } = this.components;
    const n = world.count;
    const eids = this.eids;
    eids.length = n;
    for (let i = 0; i < n; i++) {
      const id = world.ids[i];
      eids[i] = id;
      position.x[id] = world.x[i];
      position.y[id] = world.y[i];
      position.z[id] = world.z[i];
      rotation.x[id] = world.qx[i];
      rotation.y[id] = world.qy[i];
      rotation.z[id] = world.qz[i];
      rotation.w[id] = world.qw[i];
      flags[id] = world.flags[i];
    }
  }

  public record(world: Workload): void {
    const packet = this.serialize(this.eids);
    this.ring.put(world.frame, packet, packet.byteLength);
  }

  public get framesHeld(): number {
    return this.ring.framesHeld;
  }

  public storedBytes(): number {
    return this.ring.storedBytes;
  }

  public decode(frame: number, out: DecodedFrame): boolean {
    const packet = this.ring.get(frame);
    if (packet === undefined) return false;
    // The library writes the values into the scratch components; the order of the entities is
    // read from the packet itself (each entity's record starts with its id, big-endian u32).
    this.deserialize(packet);
    const n = packet.byteLength / BYTES_PER_ENTITY;
    if ((n | 0) !== n) throw new Error(`BitecsPeer: packet of ${packet.byteLength} bytes is not whole entities`);
    const view = new DataView(packet);
    const { position, rotation, flags } = this.scratch;
    out.resize(n);
    for (let i = 0; i < n; i++) {
      const id = view.getUint32(i * BYTES_PER_ENTITY);
      out.ids[i] = id;
      out.x[i] = position.x[id];
      out.y[i] = position.y[id];
      out.z[i] = position.z[id];
      out.qx[i] = rotation.x[id];
      out.qy[i] = rotation.y[id];
      out.qz[i] = rotation.z[id];
      out.qw[i] = rotation.w[id];
      out.flags[i] = flags[id];
    }
    return true;
  }

  public dispose(): void {
    this.ring.clear();
  }
}
