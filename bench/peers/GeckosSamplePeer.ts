import { SnapshotInterpolation } from '@geckos.io/snapshot-interpolation';
import type { SampleRules } from '../lib/referenceSample';
import type { SampleRows } from '../lib/SampleRows';
import type { Workload } from '../Workload';
import { GeckosVaultPeer, type GeckosEntity } from './GeckosVaultPeer';
import type { PeerRole } from './RecordPeer';
import type { SamplePeer } from './SamplePeer';

/** The snapshot type `SnapshotInterpolation.interpolate` takes. */
type GeckosSnapshot = Parameters<SnapshotInterpolation['interpolate']>[0];

/**
 * Playback with @geckos.io/snapshot-interpolation 1.1.1, as its API offers it: `vault.get(time)`
 * finds the snapshots around the time, and `interpolate(older, newer, t, 'x y z q(quat)')` lerps x,
 * y, z and slerps the quaternion `q` of every entity of the newer snapshot that is also in the older
 * one. The library keeps no decoded state between calls: each call deep-copies the newer snapshot
 * (`JSON.parse(JSON.stringify(...))`) and finds each entity's partner with `Array.find` (O(n²)).
 * Flags (any field not named) come from the newer snapshot, not the nearer one.
 *
 * `t` is passed as a percentage (a number ≤ 1), which the library accepts instead of a time.
 *
 * @example
 * const peer = new GeckosSamplePeer(120);
 * peer.record(world);
 * peer.sample(0.5);
 */
export class GeckosSamplePeer implements SamplePeer {
  public readonly name = 'geckos interpolate';
  public readonly role: PeerRole = 'library';
  public readonly note =
    "vault.get(time) then SnapshotInterpolation.interpolate(older, newer, t, 'x y z q(quat)'); no cache (the library keeps none)";
  /** Its slerp falls back to a normalised lerp below ~2.6° between frames (a ~1e-5° error); flags come from the newer frame. */
  public readonly rules: Readonly<SampleRules> = {
    cover: 'newer',
    nearerFlags: false,
    positionRelTol: 1e-12,
    rotationTolDeg: 1e-3,
  };
  public readonly store: GeckosVaultPeer;
  private readonly si = new SnapshotInterpolation();
  private state: GeckosEntity[] = [];
  private newest = -1;

  public constructor(private readonly maxFrames: number) {
    this.store = new GeckosVaultPeer(maxFrames);
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
    const p = position < oldest ? oldest : position > this.newest ? this.newest : position;
    const shots = this.store.vault.get(this.store.timeOf(p));
    if (shots === undefined || shots.older === undefined) throw new Error(`${this.name}: no snapshot at ${p}`);
    if (shots.newer === undefined) {
      this.state = shots.older.state as unknown as GeckosEntity[];
      return;
    }
    const t = p - Math.floor(p);
    const result = this.si.interpolate(
      shots.older as GeckosSnapshot,
      shots.newer as GeckosSnapshot,
      t,
      'x y z q(quat)',
    );
    this.state = result.state as unknown as GeckosEntity[];
  }

  public read(out: SampleRows): void {
    const s = this.state;
    out.resize(s.length);
    for (let k = 0; k < s.length; k++) {
      const e = s[k];
      out.ids[k] = e.id;
      out.positions[k * 3] = e.x;
      out.positions[k * 3 + 1] = e.y;
      out.positions[k * 3 + 2] = e.z;
      out.rotations[k * 4] = e.q.x;
      out.rotations[k * 4 + 1] = e.q.y;
      out.rotations[k * 4 + 2] = e.q.z;
      out.rotations[k * 4 + 3] = e.q.w;
      out.flags[k] = e.flags;
    }
  }

  public get decodes(): number {
    return Number.NaN;
  }

  public dispose(): void {
    this.store.dispose();
    this.state = [];
  }
}
