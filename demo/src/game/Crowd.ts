import type { Arena } from './Arena';
import { TILE } from './Arena';
import { Rng } from './rng';
import { SpatialHash } from './SpatialHash';

/** Most movers the scale control allows. */
export const MAX_MOVERS = 5000;
const RADIUS = 5;

/**
 * The crowd: up to 5,000 simple movers stored as flat arrays (no object per mover), wandering,
 * sliding along walls and keeping apart through a spatial hash. It exists to show what recording
 * thousands of entities per frame costs.
 */
export class Crowd {
  public count = 0;
  public readonly ids = new Int32Array(MAX_MOVERS);
  public readonly x = new Float32Array(MAX_MOVERS);
  public readonly y = new Float32Array(MAX_MOVERS);
  public readonly angle = new Float32Array(MAX_MOVERS);
  public readonly speed = new Float32Array(MAX_MOVERS);
  public readonly turn = new Float32Array(MAX_MOVERS);
  /** Knock-back velocity from explosions, decaying. */
  public readonly pushX = new Float32Array(MAX_MOVERS);
  public readonly pushY = new Float32Array(MAX_MOVERS);
  public readonly damage = new Float32Array(MAX_MOVERS);
  /** Colour variant 0..3. */
  public readonly variant = new Uint8Array(MAX_MOVERS);
  public readonly radius = RADIUS;
  private readonly hash: SpatialHash;
  private readonly near = new Int32Array(64);
  private readonly rng = new Rng(77);

  public constructor(private readonly arena: Arena) {
    this.hash = new SpatialHash(arena.width, arena.height, 16, MAX_MOVERS);
  }

  /** Adds a mover with id `id` on a random floor tile; returns false when full. */
  public add(id: number): boolean {
    if (this.count >= MAX_MOVERS) return false;
    const r = this.rng;
    let tx = 0,
      ty = 0;
    for (let tries = 0; tries < 100; tries++) {
      tx = 1 + r.int(this.arena.cols - 2);
      ty = 1 + r.int(this.arena.rows - 2);
      if (!this.arena.solidTile(tx, ty)) break;
    }
    const i = this.count++;
    this.ids[i] = id;
    this.x[i] = tx * TILE + r.range(6, TILE - 6);
    this.y[i] = ty * TILE + r.range(6, TILE - 6);
    this.angle[i] = r.range(-Math.PI, Math.PI);
    this.speed[i] = r.range(25, 55);
    this.turn[i] = 0;
    this.pushX[i] = 0;
    this.pushY[i] = 0;
    this.damage[i] = 0;
    this.variant[i] = r.int(4);
    return true;
  }

  /** Removes the newest mover; returns its id (or -1 when empty). */
  public removeLast(): number {
    if (this.count === 0) return -1;
    this.count--;
    return this.ids[this.count];
  }

  /** Pushes movers within `radius` of (x, y) away and marks them damaged. */
  public blast(x: number, y: number, radius: number, strength: number): void {
    const n = this.hash.query(x, y, radius, this.near);
    for (let k = 0; k < n; k++) {
      const i = this.near[k];
      if (i >= this.count) continue;
      const dx = this.x[i] - x,
        dy = this.y[i] - y;
      const d = Math.hypot(dx, dy);
      if (d > radius || d < 1e-3) continue;
      const f = strength * (1 - d / radius);
      this.pushX[i] += (dx / d) * f;
      this.pushY[i] += (dy / d) * f;
      this.damage[i] = 0.6;
    }
  }

  public update(dt: number): void {
    const a = this.arena;
    const r = this.rng;
    const n = this.count;
    const hash = this.hash;
    hash.clear();
    for (let i = 0; i < n; i++) hash.insert(i, this.x[i], this.y[i]);
    const decay = Math.exp(-dt * 3);
    for (let i = 0; i < n; i++) {
      if (r.next() < dt * 0.8) this.turn[i] = r.range(-2, 2);
      let ang = this.angle[i] + this.turn[i] * dt;
      const sp = this.speed[i];
      let vx = Math.cos(ang) * sp + this.pushX[i];
      let vy = Math.sin(ang) * sp + this.pushY[i];
      this.pushX[i] *= decay;
      this.pushY[i] *= decay;
      if (this.damage[i] > 0) this.damage[i] -= dt;
      // Keep apart from neighbours (a soft push, not a full solver).
      const m = hash.query(this.x[i], this.y[i], RADIUS * 2, this.near);
      for (let k = 0; k < m; k++) {
        const j = this.near[k];
        if (j === i) continue;
        const dx = this.x[i] - this.x[j],
          dy = this.y[i] - this.y[j];
        const d2 = dx * dx + dy * dy;
        if (d2 < RADIUS * RADIUS * 4 && d2 > 1e-6) {
          const d = Math.sqrt(d2);
          const push = (RADIUS * 2 - d) * 4;
          vx += (dx / d) * push;
          vy += (dy / d) * push;
        }
      }
      let nx = this.x[i] + vx * dt;
      let ny = this.y[i] + vy * dt;
      // Slide along walls: test each axis, turn away from what blocks.
      const fx = nx + (vx > 0 ? RADIUS : -RADIUS);
      if (a.solidAt(fx, this.y[i])) {
        nx = this.x[i];
        ang = Math.PI - ang;
        this.pushX[i] = -this.pushX[i] * 0.5;
      }
      const fy = ny + (vy > 0 ? RADIUS : -RADIUS);
      if (a.solidAt(nx, fy)) {
        ny = this.y[i];
        ang = -ang;
        this.pushY[i] = -this.pushY[i] * 0.5;
      }
      if (!a.solidAt(nx, ny)) {
        this.x[i] = nx;
        this.y[i] = ny;
      }
      this.angle[i] = Math.atan2(Math.sin(ang), Math.cos(ang));
    }
  }
}
