import type { Workload } from '../Workload';

/**
 * One frame as a peer gives it back: the entities in recorded order, in flat arrays the caller
 * owns (grown on demand, reused).
 *
 * @example
 * const want = new DecodedFrame();
 * want.copyFrom(world);            // the input of the current frame
 * const got = new DecodedFrame();
 * peer.decode(world.frame, got);   // what the peer kept
 */
export class DecodedFrame {
  public count = 0;
  public ids = new Int32Array(0);
  public x = new Float32Array(0);
  public y = new Float32Array(0);
  public z = new Float32Array(0);
  /** Rotations as decoded, in float64 so nothing is lost on the way to the error measure. */
  public qx = new Float64Array(0);
  public qy = new Float64Array(0);
  public qz = new Float64Array(0);
  public qw = new Float64Array(0);
  public flags = new Uint8Array(0);

  /** Sets `count` to `n`, growing the arrays when needed. */
  public resize(n: number): void {
    if (n > this.ids.length) {
      const cap = Math.max(n, this.ids.length * 2, 16);
      this.ids = new Int32Array(cap);
      this.x = new Float32Array(cap);
      this.y = new Float32Array(cap);
      this.z = new Float32Array(cap);
      this.qx = new Float64Array(cap);
      this.qy = new Float64Array(cap);
      this.qz = new Float64Array(cap);
      this.qw = new Float64Array(cap);
      this.flags = new Uint8Array(cap);
    }
    this.count = n;
  }

  /** Copies the workload's current frame (the reference a peer's decode is compared with). */
  public copyFrom(world: Workload): void {
    const n = world.count;
    this.resize(n);
    for (let i = 0; i < n; i++) {
      this.ids[i] = world.ids[i];
      this.x[i] = world.x[i];
      this.y[i] = world.y[i];
      this.z[i] = world.z[i];
      this.qx[i] = world.qx[i];
      this.qy[i] = world.qy[i];
      this.qz[i] = world.qz[i];
      this.qw[i] = world.qw[i];
      this.flags[i] = world.flags[i];
    }
  }
}
