import type { DebugDraw } from './debugDraw';
import type { Arena } from './Arena';
import { TILE } from './Arena';
import { SpatialHash } from './SpatialHash';
import type { Entity } from './types';

/** Most contacts kept per step for the debug view. */
const MAX_CONTACTS = 256;
/** Above this height an entity flies over other bodies. */
export const FLY_HEIGHT = 12;

/**
 * Collision and response for every solid entity (actors, balls, crates): a spatial hash finds the
 * candidate pairs, circle/box narrow phase finds contacts, impulses with restitution resolve them,
 * and walls push bodies out. Contacts are kept for the physics debug channel.
 */
export class Physics {
  /** x, y, nx, ny per contact of the last step. */
  public readonly contacts = new Float32Array(MAX_CONTACTS * 4);
  public contactCount = 0;
  private readonly hash: SpatialHash;
  private readonly near = new Int32Array(128);
  private readonly wall = new Float64Array(6);
  private maxRadius = 16;

  public constructor(private readonly arena: Arena) {
    this.hash = new SpatialHash(arena.width, arena.height, 64, 512);
  }

  /** Moves the free bodies (balls, crates) by their velocity, with floor friction. */
  public integrate(bodies: readonly Entity[], dt: number): void {
    for (const b of bodies) {
      const friction = b.kind === 'ball' ? 0.6 : 2.5;
      const damp = Math.exp(-friction * dt);
      b.vx *= damp;
      b.vy *= damp;
      b.x += b.vx * dt;
      b.y += b.vy * dt;
      if (b.kind === 'ball') {
        const a = b.angle + (Math.hypot(b.vx, b.vy) / b.radius) * dt * (b.vx >= 0 ? 1 : -1);
        b.angle = Math.atan2(Math.sin(a), Math.cos(a)); // kept in (-pi, pi], as a recorded rotation reads back
      }
    }
  }

  /** Resolves overlaps between `colliders` and against the walls. */
  public solve(colliders: readonly Entity[]): void {
    this.contactCount = 0;
    const hash = this.hash;
    hash.clear();
    this.maxRadius = 0;
    for (let i = 0; i < colliders.length; i++) {
      const c = colliders[i];
      hash.insert(i, c.x, c.y);
      const reach = c.shape === 'box' ? c.radius * Math.SQRT2 : c.radius;
      if (reach > this.maxRadius) this.maxRadius = reach;
    }
    for (let iter = 0; iter < 2; iter++) {
      for (let i = 0; i < colliders.length; i++) {
        const a = colliders[i];
        const n = hash.query(a.x, a.y, a.radius * 1.5 + this.maxRadius, this.near);
        for (let k = 0; k < n; k++) {
          const j = this.near[k];
          if (j <= i) continue;
          const b = colliders[j];
          if (a.z > FLY_HEIGHT !== b.z > FLY_HEIGHT) continue; // one flies over the other
          this.pair(a, b, iter === 0);
        }
      }
      for (const c of colliders) this.walls(c, iter === 0);
    }
  }

  /** Draws contacts, normals, velocities and bounds of the bodies to `channel`. */
  public drawDebug(draw: DebugDraw, channel: number, colliders: readonly Entity[]): void {
    for (const c of colliders) {
      const r = c.radius;
      const color = c.kind === 'crate' ? 0x7dffb0 : c.kind === 'ball' ? 0x4dd2ff : 0x3d8fb0;
      draw.aabb(channel, c.x - r, c.y - r, 0, c.x + r, c.y + r, c.z, color);
      const sp = Math.hypot(c.vx, c.vy);
      if (sp > 8) draw.arrow(channel, c.x, c.y, c.z, c.x + c.vx * 0.25, c.y + c.vy * 0.25, c.z, 5, 0xffffff);
    }
    const ct = this.contacts;
    for (let i = 0; i < this.contactCount; i++) {
      const x = ct[i * 4],
        y = ct[i * 4 + 1];
      draw.point(channel, x, y, 0, 4, 0xff5a5a);
      draw.arrow(channel, x, y, 0, x + ct[i * 4 + 2] * 14, y + ct[i * 4 + 3] * 14, 0, 4, 0xff9a3d);
    }
  }

  private addContact(x: number, y: number, nx: number, ny: number): void {
    if (this.contactCount >= MAX_CONTACTS) return;
    const o = this.contactCount++ * 4;
    this.contacts[o] = x;
    this.contacts[o + 1] = y;
    this.contacts[o + 2] = nx;
    this.contacts[o + 3] = ny;
  }

  /** Narrow phase and response for one pair. `record` keeps the contact for the debug view. */
  private pair(a: Entity, b: Entity, record: boolean): void {
    let nx: number, ny: number, depth: number, px: number, py: number;
    if (a.shape === 'circle' && b.shape === 'circle') {
      const dx = b.x - a.x,
        dy = b.y - a.y;
      const rr = a.radius + b.radius;
      const d2 = dx * dx + dy * dy;
      if (d2 >= rr * rr) return;
      const d = Math.sqrt(d2);
      if (d < 1e-6) {
        nx = 1;
        ny = 0;
      } else {
        nx = dx / d;
        ny = dy / d;
      }
      depth = rr - d;
      px = a.x + nx * a.radius;
      py = a.y + ny * a.radius;
    } else if (a.shape === 'box' && b.shape === 'box') {
      const ox = a.radius + b.radius - Math.abs(b.x - a.x);
      const oy = a.radius + b.radius - Math.abs(b.y - a.y);
      if (ox <= 0 || oy <= 0) return;
      if (ox < oy) {
        nx = b.x > a.x ? 1 : -1;
        ny = 0;
        depth = ox;
        px = a.x + nx * a.radius;
        py = (Math.max(a.y - a.radius, b.y - b.radius) + Math.min(a.y + a.radius, b.y + b.radius)) / 2;
      } else {
        nx = 0;
        ny = b.y > a.y ? 1 : -1;
        depth = oy;
        px = (Math.max(a.x - a.radius, b.x - b.radius) + Math.min(a.x + a.radius, b.x + b.radius)) / 2;
        py = a.y + ny * a.radius;
      }
    } else {
      // Circle against box; the normal points from a to b either way.
      const circle = a.shape === 'circle' ? a : b;
      const box = a.shape === 'circle' ? b : a;
      const h = box.radius;
      const cx = clamp(circle.x, box.x - h, box.x + h),
        cy = clamp(circle.y, box.y - h, box.y + h);
      let dx = circle.x - cx,
        dy = circle.y - cy;
      const d2 = dx * dx + dy * dy;
      if (d2 >= circle.radius * circle.radius) return;
      let d: number;
      if (d2 < 1e-9) {
        // Centre inside the box: out along the shallowest axis.
        const ex = h - Math.abs(circle.x - box.x),
          ey = h - Math.abs(circle.y - box.y);
        if (ex < ey) {
          dx = circle.x > box.x ? 1 : -1;
          dy = 0;
          d = -ex;
        } else {
          dx = 0;
          dy = circle.y > box.y ? 1 : -1;
          d = -ey;
        }
      } else {
        d = Math.sqrt(d2);
        dx /= d;
        dy /= d;
      }
      depth = circle.radius - d;
      px = cx;
      py = cy;
      // (dx, dy) points from the box to the circle.
      if (circle === a) {
        nx = -dx;
        ny = -dy;
      } else {
        nx = dx;
        ny = dy;
      }
    }
    const inv = a.invMass + b.invMass;
    if (inv <= 0) return;
    // Push apart in proportion to inverse mass.
    const corr = (depth * 0.8) / inv;
    a.x -= nx * corr * a.invMass;
    a.y -= ny * corr * a.invMass;
    b.x += nx * corr * b.invMass;
    b.y += ny * corr * b.invMass;
    // Bounce: an impulse along the normal when they approach.
    const vn = (b.vx - a.vx) * nx + (b.vy - a.vy) * ny;
    if (vn < 0) {
      const e = Math.min(a.restitution, b.restitution);
      const j = (-(1 + e) * vn) / inv;
      a.vx -= j * nx * a.invMass;
      a.vy -= j * ny * a.invMass;
      b.vx += j * nx * b.invMass;
      b.vy += j * ny * b.invMass;
    }
    if (record) this.addContact(px, py, nx, ny);
  }

  private walls(c: Entity, record: boolean): void {
    if (c.shape === 'circle') {
      const w = this.wall;
      if (!this.arena.pushCircle(c.x, c.y, c.radius, w)) return;
      c.x += w[0];
      c.y += w[1];
      this.bounce(c, w[2], w[3]);
      if (record) this.addContact(w[4], w[5], w[2], w[3]);
      return;
    }
    // Box against wall tiles: out along the axis of least overlap, tile by tile.
    const h = c.radius;
    const t0x = Math.floor((c.x - h) / TILE),
      t1x = Math.floor((c.x + h) / TILE);
    const t0y = Math.floor((c.y - h) / TILE),
      t1y = Math.floor((c.y + h) / TILE);
    for (let ty = t0y; ty <= t1y; ty++) {
      for (let tx = t0x; tx <= t1x; tx++) {
        if (!this.arena.solidTile(tx, ty)) continue;
        const cx = tx * TILE + TILE / 2,
          cy = ty * TILE + TILE / 2;
        const ox = h + TILE / 2 - Math.abs(c.x - cx),
          oy = h + TILE / 2 - Math.abs(c.y - cy);
        if (ox <= 0 || oy <= 0) continue;
        let nx = 0,
          ny = 0;
        if (ox < oy) {
          nx = c.x > cx ? 1 : -1;
          c.x += nx * ox;
        } else {
          ny = c.y > cy ? 1 : -1;
          c.y += ny * oy;
        }
        this.bounce(c, nx, ny);
        if (record) this.addContact(c.x - nx * h, c.y - ny * h, nx, ny);
      }
    }
  }

  /** Reflects the velocity component into the wall (normal points out of the wall). */
  private bounce(c: Entity, nx: number, ny: number): void {
    const vn = c.vx * nx + c.vy * ny;
    if (vn < 0) {
      c.vx -= (1 + c.restitution) * vn * nx;
      c.vy -= (1 + c.restitution) * vn * ny;
    }
  }
}

function clamp(v: number, lo: number, hi: number): number {
  return v < lo ? lo : v > hi ? hi : v;
}
