import type { SampleRules } from '../lib/referenceSample';
import { SampleRows } from '../lib/SampleRows';
import { slerpTextbook } from '../lib/slerpTextbook';
import type { Workload } from '../Workload';
import type { EntityObject } from './entityObjects';
import { JsonPeer } from './JsonPeer';
import { MsgpackrPeer } from './MsgpackrPeer';
import type { PeerRole, RecordPeer } from './RecordPeer';
import type { SamplePeer } from './SamplePeer';

/** A record peer that can give a held frame back as entity objects (decoding it afresh). */
export interface ObjectSnapshots extends RecordPeer {
  objectsOf(frame: number): EntityObject[] | undefined;
}

/** A decoded frame kept for reuse: its objects and an id → index map. */
class DecodedSnapshot {
  public frame = -1;
  public objects: EntityObject[] = [];
  public readonly index = new Map<number, number>();
}

/**
 * Playback of serialised snapshots the way a game would write it, given the same advantages as
 * rewindable's sampler: the two neighbour frames are decoded (`JSON.parse`, `unpack`) only when
 * not already cached, each decoded frame gets an id → index `Map` once, and the result goes into
 * preallocated flat arrays. Per sample: for every entity of the later frame, `map.get(id)` in the
 * earlier frame, then lerp and slerp (`slerpTextbook`), flags from the nearer frame; an entity
 * absent from the earlier frame keeps the later frame's values.
 *
 * @example
 * const peer = SnapshotSamplePeer.json(120);
 * peer.record(world);
 * peer.sample(0.5);
 */
export class SnapshotSamplePeer implements SamplePeer {
  public readonly role: PeerRole = 'library';
  public readonly rules: Readonly<SampleRules> = {
    cover: 'newer',
    nearerFlags: true,
    positionRelTol: 1e-12,
    rotationTolDeg: 1e-3,
  };
  private readonly slotA = new DecodedSnapshot();
  private readonly slotB = new DecodedSnapshot();
  private readonly rows = new SampleRows();
  private newest = -1;
  private decoded = 0;

  public constructor(
    public readonly name: string,
    public readonly note: string,
    private readonly store: ObjectSnapshots,
    private readonly maxFrames: number,
  ) {}

  /** `JSON.stringify` snapshots (`JsonPeer`), decoded with `JSON.parse`. */
  public static json(maxFrames: number): SnapshotSamplePeer {
    return new SnapshotSamplePeer(
      'JSON',
      'JSON.parse of the two neighbour snapshots (cached), id Map, lerp + slerp into flat arrays',
      new JsonPeer(maxFrames),
      maxFrames,
    );
  }

  /** msgpackr snapshots (`MsgpackrPeer`, shared structures, float32), decoded with `unpack`. */
  public static msgpackr(maxFrames: number): SnapshotSamplePeer {
    return new SnapshotSamplePeer(
      'msgpackr',
      'Packr.unpack of the two neighbour snapshots (cached), id Map, lerp + slerp into flat arrays',
      new MsgpackrPeer(maxFrames),
      maxFrames,
    );
  }

  public record(world: Workload): void {
    this.store.prepare(world);
    this.store.record(world);
    this.newest = world.frame;
  }

  public get oldestFrame(): number {
    return this.newest < 0 ? -1 : Math.max(0, this.newest - Math.min(this.maxFrames, this.store.framesHeld) + 1);
  }

  public get newestFrame(): number {
    return this.newest;
  }

  public sample(position: number): void {
    const oldest = this.oldestFrame;
    const newest = this.newest;
    const p = position < oldest ? oldest : position > newest ? newest : position;
    const fa = Math.floor(p);
    let t = p - fa;
    const fb = t > 0 && fa < newest ? fa + 1 : fa;
    if (fb === fa) t = 0;
    // The cached frames are reused; a missing one is decoded into the slot the other does not use.
    let a = this.cached(fa);
    let b = fb === fa ? a : this.cached(fb);
    if (a === null) a = this.decode(b === this.slotA ? this.slotB : this.slotA, fa);
    if (b === null) b = this.decode(a === this.slotA ? this.slotB : this.slotA, fb);
    const ao = a.objects;
    const bo = b.objects;
    const index = a.index;
    const n = bo.length;
    const rows = this.rows;
    rows.resize(n);
    const ids = rows.ids;
    const pos = rows.positions;
    const rot = rows.rotations;
    const flags = rows.flags;
    const nearB = t >= 0.5;
    for (let k = 0; k < n; k++) {
      const eb = bo[k];
      ids[k] = eb.id;
      const i = index.get(eb.id);
      if (i === undefined) {
        pos[k * 3] = eb.x;
        pos[k * 3 + 1] = eb.y;
        pos[k * 3 + 2] = eb.z;
        rot[k * 4] = eb.qx;
        rot[k * 4 + 1] = eb.qy;
        rot[k * 4 + 2] = eb.qz;
        rot[k * 4 + 3] = eb.qw;
        flags[k] = eb.flags;
        continue;
      }
      const ea = ao[i];
      pos[k * 3] = ea.x + (eb.x - ea.x) * t;
      pos[k * 3 + 1] = ea.y + (eb.y - ea.y) * t;
      pos[k * 3 + 2] = ea.z + (eb.z - ea.z) * t;
      slerpTextbook(ea.qx, ea.qy, ea.qz, ea.qw, eb.qx, eb.qy, eb.qz, eb.qw, t, rot, k * 4);
      flags[k] = nearB ? eb.flags : ea.flags;
    }
  }

  public read(out: SampleRows): void {
    const n = this.rows.count;
    out.resize(n);
    out.ids.set(this.rows.ids.subarray(0, n));
    out.positions.set(this.rows.positions.subarray(0, n * 3));
    out.rotations.set(this.rows.rotations.subarray(0, n * 4));
    out.flags.set(this.rows.flags.subarray(0, n));
  }

  public get decodes(): number {
    return this.decoded;
  }

  public dispose(): void {
    this.store.dispose();
    this.slotA.frame = -1;
    this.slotB.frame = -1;
    this.slotA.objects = [];
    this.slotB.objects = [];
    this.slotA.index.clear();
    this.slotB.index.clear();
  }

  private cached(frame: number): DecodedSnapshot | null {
    if (this.slotA.frame === frame) return this.slotA;
    if (this.slotB.frame === frame) return this.slotB;
    return null;
  }

  /** Decodes `frame` into `slot`, with its id → index map. */
  private decode(slot: DecodedSnapshot, frame: number): DecodedSnapshot {
    const objects = this.store.objectsOf(frame);
    if (objects === undefined) throw new Error(`${this.name}: frame ${frame} is not held`);
    this.decoded++;
    slot.frame = frame;
    slot.objects = objects;
    const index = slot.index;
    index.clear();
    for (let i = 0; i < objects.length; i++) index.set(objects[i].id, i);
    return slot;
  }
}
