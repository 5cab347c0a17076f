/** Tile size in world units (pixels at zoom 1). */
export const TILE = 32;

/** A wall block: tile rectangle [x0, x1] × [y0, y1], inclusive, in tiles. */
interface Block {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * The arena: a grid of tiles, each wall or floor. Walls are solid for every body, and the floor tiles
 * are the navigation grid's nodes. Also answers the geometric questions the game asks of the level:
 * is a point solid, push a circle or box out of the walls, is there a line of sight.
 */
export class Arena {
  public readonly cols: number;
  public readonly rows: number;
  public readonly width: number;
  public readonly height: number;
  /** 1 where the tile is a wall. */
  public readonly solid: Uint8Array;
  /** Wall blocks merged into rectangles (what the floor renderer and the static layer draw). */
  public readonly blocks: readonly Block[];

  public constructor(cols = 64, rows = 40) {
    this.cols = cols;
    this.rows = rows;
    this.width = cols * TILE;
    this.height = rows * TILE;
    this.solid = new Uint8Array(cols * rows);
    this.blocks = layout(cols, rows);
    for (const b of this.blocks) {
      for (let y = b.y0; y <= b.y1; y++) for (let x = b.x0; x <= b.x1; x++) this.solid[y * cols + x] = 1;
    }
  }

  /** Whether tile (tx, ty) is a wall; outside the grid counts as wall. */
  public solidTile(tx: number, ty: number): boolean {
    return tx < 0 || ty < 0 || tx >= this.cols || ty >= this.rows || this.solid[ty * this.cols + tx] === 1;
  }

  /** Whether the world point (x, y) is inside a wall. */
  public solidAt(x: number, y: number): boolean {
    return this.solidTile(Math.floor(x / TILE), Math.floor(y / TILE));
  }

  /**
   * Pushes a circle out of the walls. Writes the push (dx, dy) and the contact normal into `out`
   * (`out[0..1]` push, `out[2..3]` normal, `out[4..5]` contact point) and returns whether it touched.
   */
  public pushCircle(x: number, y: number, r: number, out: Float64Array): boolean {
    let touched = false;
    let px = x,
      py = y;
    const t0x = Math.floor((x - r) / TILE),
      t1x = Math.floor((x + r) / TILE);
    const t0y = Math.floor((y - r) / TILE),
      t1y = Math.floor((y + r) / TILE);
    for (let ty = t0y; ty <= t1y; ty++) {
      for (let tx = t0x; tx <= t1x; tx++) {
        if (!this.solidTile(tx, ty)) continue;
        const minX = tx * TILE,
          minY = ty * TILE;
        const cx = clamp(px, minX, minX + TILE),
          cy = clamp(py, minY, minY + TILE);
        let dx = px - cx,
          dy = py - cy;
        let d2 = dx * dx + dy * dy;
        if (d2 >= r * r) continue;
        let d: number;
        if (d2 < 1e-9) {
          // Centre inside the tile: push out along the shallowest axis.
          const left = px - minX,
            right = minX + TILE - px,
            up = py - minY,
            down = minY + TILE - py;
          const m = Math.min(left, right, up, down);
          dx = m === left ? -1 : m === right ? 1 : 0;
          dy = m === up ? -1 : m === down ? 1 : 0;
          d = -m;
          d2 = 1;
        } else {
          d = Math.sqrt(d2);
          dx /= d;
          dy /= d;
        }
        const pen = r - d;
        px += dx * pen;
        py += dy * pen;
        out[2] = dx;
        out[3] = dy;
        out[4] = cx;
        out[5] = cy;
        touched = true;
      }
    }
    out[0] = px - x;
    out[1] = py - y;
    return touched;
  }

  /**
   * Whether the segment from (x0, y0) to (x1, y1) crosses no wall (grid traversal, exact per tile).
   */
  public lineOfSight(x0: number, y0: number, x1: number, y1: number): boolean {
    let tx = Math.floor(x0 / TILE),
      ty = Math.floor(y0 / TILE);
    const ex = Math.floor(x1 / TILE),
      ey = Math.floor(y1 / TILE);
    const dx = x1 - x0,
      dy = y1 - y0;
    const sx = dx > 0 ? 1 : -1,
      sy = dy > 0 ? 1 : -1;
    const tdx = dx !== 0 ? Math.abs(TILE / dx) : Infinity;
    const tdy = dy !== 0 ? Math.abs(TILE / dy) : Infinity;
    let tmx = dx !== 0 ? (sx > 0 ? (tx + 1) * TILE - x0 : x0 - tx * TILE) / Math.abs(dx) : Infinity;
    let tmy = dy !== 0 ? (sy > 0 ? (ty + 1) * TILE - y0 : y0 - ty * TILE) / Math.abs(dy) : Infinity;
    for (let steps = 0; steps < 512; steps++) {
      if (this.solidTile(tx, ty)) return false;
      if (tx === ex && ty === ey) return true;
      if (tmx < tmy) {
        tmx += tdx;
        tx += sx;
      } else {
        tmy += tdy;
        ty += sy;
      }
    }
    return true;
  }

  /**
   * Whether a circle of radius `r` can slide straight from (x0, y0) to (x1, y1): the centre line and
   * its two side lines are all clear. Used to shortcut paths.
   */
  public clearPath(x0: number, y0: number, x1: number, y1: number, r: number): boolean {
    const dx = x1 - x0,
      dy = y1 - y0;
    const len = Math.hypot(dx, dy);
    if (len < 1e-6) return !this.solidAt(x0, y0);
    const nx = (-dy / len) * r,
      ny = (dx / len) * r;
    return (
      this.lineOfSight(x0, y0, x1, y1) &&
      this.lineOfSight(x0 + nx, y0 + ny, x1 + nx, y1 + ny) &&
      this.lineOfSight(x0 - nx, y0 - ny, x1 - nx, y1 - ny)
    );
  }

  /** Centre of tile (tx, ty) in world units. */
  public tileCentre(t: number): number {
    return t * TILE + TILE / 2;
  }
}

function clamp(v: number, lo: number, hi: number): number {
  return v < lo ? lo : v > hi ? hi : v;
}

/**
 * The level: an outer wall, four corner rooms with doorways, pillars and a central block. Described
 * as rectangles so it stays readable; mirrored left/right.
 */
function layout(cols: number, rows: number): Block[] {
  const blocks: Block[] = [];
  const add = (x0: number, y0: number, x1: number, y1: number): void => {
    blocks.push({ x0, y0, x1, y1 });
  };
  const mirror = (x0: number, y0: number, x1: number, y1: number): void => {
    add(x0, y0, x1, y1);
    add(cols - 1 - x1, y0, cols - 1 - x0, y1);
  };
  // Outer walls.
  add(0, 0, cols - 1, 0);
  add(0, rows - 1, cols - 1, rows - 1);
  add(0, 1, 0, rows - 2);
  add(cols - 1, 1, cols - 1, rows - 2);
  // Corner rooms: a vertical wall with a door and a horizontal wall with a door.
  mirror(15, 1, 15, 5);
  mirror(15, 9, 15, 12);
  mirror(1, 12, 6, 12);
  mirror(10, 12, 15, 12);
  mirror(15, 27, 15, 30);
  mirror(15, 34, 15, rows - 2);
  mirror(1, 27, 6, 27);
  mirror(10, 27, 15, 27);
  // Pillars in the halls.
  mirror(22, 7, 23, 8);
  mirror(22, 31, 23, 32);
  mirror(5, 19, 6, 20);
  mirror(27, 13, 28, 13);
  mirror(27, 26, 28, 26);
  // The central block.
  add(30, 18, 33, 21);
  return blocks;
}
