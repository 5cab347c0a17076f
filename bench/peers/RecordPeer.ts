import type { Workload } from '../Workload';
import type { DecodedFrame } from './DecodedFrame';

/**
 * What a peer is in the comparison: rewindable as recommended (`subject`), another way of calling
 * rewindable (`variant`: not a peer, shown for the cost of that API), a library, or the physical bound.
 */
export type PeerRole = 'subject' | 'variant' | 'library' | 'bound';

/**
 * A way of keeping the last `maxFrames` frames of the workload: rewindable's `Recorder`, a library
 * used the way its documentation suggests, or the physical bound. Every peer keeps exactly the same
 * frames (a ring of `maxFrames`, the oldest dropped first) and can give any of them back.
 *
 * @example
 * const peer = new JsonPeer(900);
 * world.step(); peer.prepare(world);            // untimed: sync the game's own representation
 * const t0 = performance.now(); peer.record(world); const ns = (performance.now() - t0) * 1e6;
 * peer.decode(world.frame, out);                // untimed: check what was kept
 */
export interface RecordPeer {
  /** Short name, as printed in the table and accepted by `--peers`. */
  readonly name: string;
  readonly role: PeerRole;
  /** One line on how the peer is used (printed under the table). */
  readonly note: string;
  /**
   * Untimed, once per frame before `record`: bring the game-side representation this peer reads
   * (entity objects, ECS component arrays, a packed staging buffer) up to date with the workload.
   */
  prepare(world: Workload): void;
  /** Timed: keeps the workload's current frame, dropping the oldest beyond `maxFrames`. */
  record(world: Workload): void;
  /** Frames held now. */
  readonly framesHeld: number;
  /** Bytes of the stored form of the frames held, or NaN when it is live objects, not bytes. */
  storedBytes(): number;
  /** Decodes held frame `frame` into `out`; false when that frame is not held. */
  decode(frame: number, out: DecodedFrame): boolean;
  /**
   * Bytes the peer holds that `process.memoryUsage()` does not report (WebAssembly memory), added to
   * the retained figure; absent means none.
   */
  externalBytes?(): number;
  /** Drops everything the peer holds. */
  dispose(): void;
}
