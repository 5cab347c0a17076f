/**
 * A uniform-grid spatial hash over the arena, rebuilt every step: `clear`, `insert(index, x, y)`
 * for each object, then `query` the indices near a point. Flat typed arrays, no allocation after
 * construction (the index capacity grows only when more objects are inserted than ever before).
 *
 * An object is filed under the cell holding its centre, so a query must widen its radius by the
 * largest object radius to see every overlap.
 */
export class SpatialHash {
  public readonly cellSize: number;
  public readonly cols: number;
  public readonly rows: number;
  private readonly head: Int32Array;
  private next: Int32Array;

  public constructor(width: number, height: number, cellSize: number, capacity = 256) {
    this.cellSize = cellSize;
    this.cols = Math.max(1, Math.ceil(width / cellSize));
    this.rows = Math.max(1, Math.ceil(height / cellSize));
    this.head = new Int32Array(this.cols * this.rows).fill(-1);
    this.next = new Int32Array(capacity);
  }

  /** Empties every cell. */
  public clear(): void {
    this.head.fill(-1);
  }

  /** Files object `index` under the cell containing (x, y) (clamped to the grid). */
  public insert(index: number, x: number, y: number): void {
    if (index >= this.next.length) {
      const grown = new Int32Array(Math.max(index + 1, this.next.length * 2));
      grown.set(this.next);
      this.next = grown;
    }
    const c = this.cellOf(x, y);
    this.next[index] = this.head[c];
    this.head[c] = index;
  }

  /**
   * Writes into `out` the indices filed in cells overlapping the square of half-size `radius`
   * around (x, y); returns how many were written (at most `out.length`).
   */
  public query(x: number, y: number, radius: number, out: Int32Array): number {
    const s = this.cellSize;
    const c0 = clamp(Math.floor((x - radius) / s), 0, this.cols - 1);
    const c1 = clamp(Math.floor((x + radius) / s), 0, this.cols - 1);
    const r0 = clamp(Math.floor((y - radius) / s), 0, this.rows - 1);
    const r1 = clamp(Math.floor((y + radius) / s), 0, this.rows - 1);
    let n = 0;
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) {
        for (let i = this.head[r * this.cols + c]; i >= 0; i = this.next[i]) {
          if (n >= out.length) return n;
          out[n++] = i;
        }
      }
    }
    return n;
  }

  private cellOf(x: number, y: number): number {
    const c = clamp(Math.floor(x / this.cellSize), 0, this.cols - 1);
    const r = clamp(Math.floor(y / this.cellSize), 0, this.rows - 1);
    return r * this.cols + c;
  }
}

function clamp(v: number, lo: number, hi: number): number {
  return v < lo ? lo : v > hi ? hi : v;
}
