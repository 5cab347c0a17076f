import { SnapshotInterpolation, Vault } from '@geckos.io/snapshot-interpolation';
import type { Workload } from '../Workload';
import { ObjectMirror } from './ObjectMirror';
import type { DecodedFrame } from './DecodedFrame';
import type { PeerRole, RecordPeer } from './RecordPeer';

/** An entity as @geckos.io/snapshot-interpolation expects it: an id, and a `{x,y,z,w}` quaternion to slerp. */
export interface GeckosEntity {
  id: number;
  x: number;
  y: number;
  z: number;
  q: { x: number; y: number; z: number; w: number };
  flags: number;
}

/**
 * The `Vault` of @geckos.io/snapshot-interpolation, sized to 900 snapshots (`setMaxSize`). The
 * vault keeps references, so each frame's state must be fresh objects: the timed part builds the
 * state array from the game's objects, wraps it with `SnapshotInterpolation.CreateSnapshot` (which
 * validates the ids) and `vault.add`s it. The snapshot time is set to the game time in ms, so frames
 * can be found again with `vault.get(time)`.
 *
 * @example
 * const peer = new GeckosVaultPeer(900);
 * world.step(); peer.prepare(world); peer.record(world);
 */
export class GeckosVaultPeer implements RecordPeer {
  public readonly name = 'geckos Vault';
  public readonly role: PeerRole = 'library';
  public readonly note =
    'vault.add(CreateSnapshot(objects.map(o => ({ id, x, y, z, q: {x,y,z,w}, flags })))) per frame, setMaxSize(900); size = retained heap';
  private readonly mirror = new ObjectMirror();
  /** The library's vault of snapshots (read by the sample peer). */
  public readonly vault = new Vault();
  private readonly slotFrames: Int32Array;
  private dt = 1 / 60;

  public constructor(public readonly maxFrames: number) {
    this.vault.setMaxSize(maxFrames);
    this.slotFrames = new Int32Array(maxFrames).fill(-1);
  }

  public prepare(world: Workload): void {
    this.mirror.sync(world);
  }

  public record(world: Workload): void {
    const objects = this.mirror.objects;
    const state: GeckosEntity[] = new Array<GeckosEntity>(objects.length);
    for (let i = 0; i < objects.length; i++) {
      const o = objects[i];
      state[i] = { id: o.id, x: o.x, y: o.y, z: o.z, q: { x: o.qx, y: o.qy, z: o.qz, w: o.qw }, flags: o.flags };
    }
    // The library's entity type wants string ids; numbers are accepted at run time and cost less.
    const snapshot = SnapshotInterpolation.CreateSnapshot(
      state as unknown as Parameters<typeof SnapshotInterpolation.CreateSnapshot>[0],
    );
    this.dt = world.dt;
    snapshot.time = this.timeOf(world.frame);
    this.vault.add(snapshot);
    this.slotFrames[world.frame % this.maxFrames] = world.frame;
  }

  public get framesHeld(): number {
    return this.vault.size;
  }

  public storedBytes(): number {
    return NaN;
  }

  public decode(frame: number, out: DecodedFrame): boolean {
    if (!(frame >= 0) || this.slotFrames[frame % this.maxFrames] !== frame) return false;
    const t = this.timeOf(frame);
    // get(time) returns the snapshots around `time`; `older` is the one at or before it. (get(time,
    // true), "closest", returns the farther of the two in 1.1.1, so it is not used.)
    const snapshot = this.vault.get(t)?.older;
    if (snapshot === undefined || snapshot.time !== t) return false;
    const state = snapshot.state as unknown as GeckosEntity[];
    out.resize(state.length);
    for (let i = 0; i < state.length; i++) {
      const e = state[i];
      out.ids[i] = e.id;
      out.x[i] = e.x;
      out.y[i] = e.y;
      out.z[i] = e.z;
      out.qx[i] = e.q.x;
      out.qy[i] = e.q.y;
      out.qz[i] = e.q.z;
      out.qw[i] = e.q.w;
      out.flags[i] = e.flags;
    }
    return true;
  }

  /** Snapshot time of a (possibly fractional) frame position, in milliseconds: `frame · dt · 1000`. */
  public timeOf(frame: number): number {
    return frame * this.dt * 1000;
  }

  public dispose(): void {
    this.vault.clear();
    this.slotFrames.fill(-1);
  }
}
