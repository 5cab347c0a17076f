/**
 * One interpolated frame as a sample peer gives it back, for checking (never timed): one row per
 * entity in flat arrays the caller owns (grown on demand, reused). Values are float64 so that
 * nothing a peer computed is rounded on the way to the comparison.
 *
 * @example
 * const rows = new SampleRows();
 * peer.sample(120.25);   // timed
 * peer.read(rows);       // untimed: what the peer produced
 * rows.ids[0], rows.positions[0], rows.rotations[3];
 */
export class SampleRows {
  public count = 0;
  public ids = new Int32Array(0);
  /** x, y, z per row. */
  public positions = new Float64Array(0);
  /** Quaternion x, y, z, w per row. */
  public rotations = new Float64Array(0);
  public flags = new Uint8Array(0);

  /** Sets `count` to `n`, growing the arrays when needed. */
  public resize(n: number): void {
    if (n > this.ids.length) {
      const cap = Math.max(n, this.ids.length * 2, 16);
      this.ids = new Int32Array(cap);
      this.positions = new Float64Array(cap * 3);
      this.rotations = new Float64Array(cap * 4);
      this.flags = new Uint8Array(cap);
    }
    this.count = n;
  }
}
