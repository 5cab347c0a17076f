import type { DecodedFrame } from '../peers/DecodedFrame';
import { quatAngleDeg } from './quatError';

/**
 * Compares what a peer gave back for a frame (`got`) with what the workload produced (`want`):
 * the same entities in the same order, positions bit-exact, the same flags. Throws an `Error`
 * naming the first difference, because a peer that loses data makes its timing meaningless.
 * Returns the largest rotation error in degrees (q and -q are the same rotation).
 *
 * @example
 * want.copyFrom(world); peer.record(world); peer.decode(world.frame, got);
 * const maxDeg = verifyFrame('json', world.frame, want, got); // 0 for a lossless peer
 */
export function verifyFrame(peer: string, frame: number, want: DecodedFrame, got: DecodedFrame): number {
  if (got.count !== want.count) {
    throw new Error(`${peer}: frame ${frame} has ${got.count} entities, expected ${want.count}`);
  }
  let maxDeg = 0;
  for (let i = 0; i < want.count; i++) {
    if (got.ids[i] !== want.ids[i]) {
      throw new Error(`${peer}: frame ${frame} entity ${i} has id ${got.ids[i]}, expected ${want.ids[i]}`);
    }
    if (got.x[i] !== want.x[i] || got.y[i] !== want.y[i] || got.z[i] !== want.z[i]) {
      throw new Error(
        `${peer}: frame ${frame} id ${want.ids[i]} position (${got.x[i]}, ${got.y[i]}, ${got.z[i]}) ` +
          `!= (${want.x[i]}, ${want.y[i]}, ${want.z[i]})`,
      );
    }
    if (got.flags[i] !== want.flags[i]) {
      throw new Error(`${peer}: frame ${frame} id ${want.ids[i]} flags ${got.flags[i]} != ${want.flags[i]}`);
    }
    const deg = quatAngleDeg(
      want.qx[i],
      want.qy[i],
      want.qz[i],
      want.qw[i],
      got.qx[i],
      got.qy[i],
      got.qz[i],
      got.qw[i],
    );
    if (!(deg <= 180)) throw new Error(`${peer}: frame ${frame} id ${want.ids[i]} has an invalid rotation`);
    if (deg > maxDeg) maxDeg = deg;
  }
  return maxDeg;
}
