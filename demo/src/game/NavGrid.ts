import type { Arena } from './Arena';
import { TILE } from './Arena';

const SQRT2 = Math.SQRT2;
// Neighbour offsets: 4 straight then 4 diagonal.
const NX = [1, -1, 0, 0, 1, 1, -1, -1];
const NY = [0, 0, 1, -1, 1, -1, 1, -1];

/**
 * A* over the arena's floor tiles (8-connected, no corner cutting, octile heuristic). All scratch
 * is flat typed arrays allocated once; a search stamps nodes with a generation number instead of
 * clearing arrays. After a search, `lastVisited` lists the nodes it expanded (the spam debug-draw mode
 * draws them).
 *
 * @example
 * const n = nav.findPath(ax, ay, bx, by, pathOut); // pathOut gets x, y world pairs, start excluded
 */
export class NavGrid {
  private readonly g: Float32Array;
  private readonly f: Float32Array;
  private readonly parent: Int32Array;
  private readonly openStamp: Uint32Array;
  private readonly closedStamp: Uint32Array;
  private readonly heap: Int32Array;
  private readonly scratch: Int32Array;
  private heapSize = 0;
  private stamp = 0;
  /** Node indices expanded by the last search. */
  public readonly lastVisited: Int32Array;
  public lastVisitedCount = 0;

  public constructor(private readonly arena: Arena) {
    const n = arena.cols * arena.rows;
    this.g = new Float32Array(n);
    this.f = new Float32Array(n);
    this.parent = new Int32Array(n);
    this.openStamp = new Uint32Array(n);
    this.closedStamp = new Uint32Array(n);
    this.heap = new Int32Array(n * 8);
    this.scratch = new Int32Array(n);
    this.lastVisited = new Int32Array(n);
  }

  /**
   * Finds a path between two world points. Writes the waypoints (x, y pairs, the tile centres after
   * the start, shortened where a straight line is clear for a body of radius `radius`) into `out`
   * and returns how many points were written; 0 when there is no path.
   */
  public findPath(sx: number, sy: number, ex: number, ey: number, out: Float32Array, radius = 10): number {
    const a = this.arena;
    const cols = a.cols;
    const stx = Math.floor(sx / TILE),
      sty = Math.floor(sy / TILE);
    let etx = Math.floor(ex / TILE),
      ety = Math.floor(ey / TILE);
    if (a.solidTile(stx, sty)) return 0;
    if (a.solidTile(etx, ety)) {
      const alt = this.nearestFloor(etx, ety);
      if (alt < 0) return 0;
      etx = alt % cols;
      ety = (alt / cols) | 0;
    }
    const start = sty * cols + stx,
      goal = ety * cols + etx;
    this.stamp++;
    if (this.stamp === 0xffffffff) {
      this.openStamp.fill(0);
      this.closedStamp.fill(0);
      this.stamp = 1;
    }
    const st = this.stamp;
    this.heapSize = 0;
    this.lastVisitedCount = 0;
    this.g[start] = 0;
    this.f[start] = octile(stx, sty, etx, ety);
    this.parent[start] = -1;
    this.openStamp[start] = st;
    this.push(start);
    let found = false;
    while (this.heapSize > 0) {
      const cur = this.pop();
      if (this.closedStamp[cur] === st) continue;
      this.closedStamp[cur] = st;
      this.lastVisited[this.lastVisitedCount++] = cur;
      if (cur === goal) {
        found = true;
        break;
      }
      const cx = cur % cols,
        cy = (cur / cols) | 0;
      for (let k = 0; k < 8; k++) {
        const nx = cx + NX[k],
          ny = cy + NY[k];
        if (a.solidTile(nx, ny)) continue;
        if (k >= 4 && (a.solidTile(cx + NX[k], cy) || a.solidTile(cx, cy + NY[k]))) continue;
        const nb = ny * cols + nx;
        if (this.closedStamp[nb] === st) continue;
        const ng = this.g[cur] + (k >= 4 ? SQRT2 : 1);
        if (this.openStamp[nb] === st && ng >= this.g[nb]) continue;
        this.openStamp[nb] = st;
        this.g[nb] = ng;
        this.f[nb] = ng + octile(nx, ny, etx, ety);
        this.parent[nb] = cur;
        this.push(nb);
      }
    }
    if (!found) return 0;
    // Walk back from the goal, then reverse into the scratch list.
    let len = 0;
    for (let n = goal; n !== start && n >= 0; n = this.parent[n]) this.scratch[len++] = n;
    // Shorten: from the current anchor, skip to the farthest node reachable in a straight line.
    let written = 0;
    let ax = sx,
      ay = sy;
    let i = len - 1;
    while (i >= 0 && written * 2 + 1 < out.length) {
      let j = 0; // the farthest candidate is the goal (index 0 of the reversed list)
      while (j < i) {
        const node = this.scratch[j];
        const wx = (node % cols) * TILE + TILE / 2,
          wy = ((node / cols) | 0) * TILE + TILE / 2;
        if (a.clearPath(ax, ay, wx, wy, radius)) break;
        j++;
      }
      const node = this.scratch[j];
      ax = (node % cols) * TILE + TILE / 2;
      ay = ((node / cols) | 0) * TILE + TILE / 2;
      out[written * 2] = ax;
      out[written * 2 + 1] = ay;
      written++;
      i = j - 1;
    }
    return written;
  }

  /** The floor tile nearest to (tx, ty) by rings, or -1. */
  public nearestFloor(tx: number, ty: number): number {
    const a = this.arena;
    for (let r = 1; r < 8; r++) {
      for (let dy = -r; dy <= r; dy++) {
        for (let dx = -r; dx <= r; dx++) {
          if (Math.max(Math.abs(dx), Math.abs(dy)) !== r) continue;
          if (!a.solidTile(tx + dx, ty + dy)) return (ty + dy) * a.cols + tx + dx;
        }
      }
    }
    return -1;
  }

  private push(node: number): void {
    const h = this.heap;
    if (this.heapSize >= h.length) return; // cannot happen with 8 pushes per node, but never overflow
    let i = this.heapSize++;
    h[i] = node;
    const fv = this.f[node];
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (this.f[h[p]] <= fv) break;
      h[i] = h[p];
      h[p] = node;
      i = p;
    }
  }

  private pop(): number {
    const h = this.heap;
    const top = h[0];
    const last = h[--this.heapSize];
    let i = 0;
    const n = this.heapSize;
    if (n > 0) {
      h[0] = last;
      const fv = this.f[last];
      for (;;) {
        const l = i * 2 + 1,
          r = l + 1;
        let m = i;
        let mf = fv;
        if (l < n && this.f[h[l]] < mf) {
          m = l;
          mf = this.f[h[l]];
        }
        if (r < n && this.f[h[r]] < mf) m = r;
        if (m === i) break;
        h[i] = h[m];
        h[m] = last;
        i = m;
      }
    }
    return top;
  }
}

function octile(ax: number, ay: number, bx: number, by: number): number {
  const dx = Math.abs(ax - bx),
    dy = Math.abs(ay - by);
  return dx + dy + (SQRT2 - 2) * Math.min(dx, dy);
}
