import type { SampleRows } from '../lib/SampleRows';
import type { SampleRules } from '../lib/referenceSample';
import type { Workload } from '../Workload';
import type { PeerRole } from './RecordPeer';

/**
 * A way of playing back recorded frames: given a fractional frame position, produce every entity's
 * interpolated transform (positions lerped, rotations slerped along the shortest path) by matching
 * the two neighbouring frames' entities by id. rewindable's `Sampler`, or a library's stored
 * snapshots decoded and interpolated the way a game would.
 *
 * @example
 * const peer = new RewindableSamplePeer(900, 1000);
 * for (let f = 0; f < 900; f++) { world.step(); peer.record(world); } // untimed
 * const t0 = performance.now(); peer.sample(450.25); const ms = performance.now() - t0;
 * peer.read(rows); // untimed: check against the reference
 */
export interface SamplePeer {
  /** Short name, as printed in the table and accepted by `--peers`. */
  readonly name: string;
  readonly role: PeerRole;
  /** One line on how the peer plays back (printed under the table). */
  readonly note: string;
  /** What its rows hold and how close to the reference they are (see `verifySample`). */
  readonly rules: Readonly<SampleRules>;
  /** Untimed: keeps the workload's current frame. */
  record(world: Workload): void;
  /** Oldest frame held (-1 before the first `record`). */
  readonly oldestFrame: number;
  /** Newest frame held (-1 before the first `record`). */
  readonly newestFrame: number;
  /** Timed: samples at `position` (a fractional frame number within the frames held). */
  sample(position: number): void;
  /** Untimed: copies the rows of the last sample into `out`. */
  read(out: SampleRows): void;
  /** Frames decoded since construction (NaN when the peer has no notion of it). */
  readonly decodes: number;
  /** Drops everything the peer holds. */
  dispose(): void;
}
