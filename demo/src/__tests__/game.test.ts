import { describe, expect, it } from 'vitest';
import { Arena, TILE } from '../game/Arena';
import { NavGrid } from '../game/NavGrid';
import { Physics } from '../game/Physics';
import { BONE_COUNT, createRig, forwardKinematics, RIG_PARENTS, animateRig } from '../game/rig';
import { Rng } from '../game/rng';
import { SpatialHash } from '../game/SpatialHash';
import type { Entity } from '../game/types';

function body(id: number, x: number, y: number, vx: number, shape: 'circle' | 'box' = 'circle'): Entity {
  return {
    id,
    kind: shape === 'box' ? 'crate' : 'ball',
    x,
    y,
    z: 0,
    angle: 0,
    vx,
    vy: 0,
    vz: 0,
    radius: 10,
    shape,
    invMass: 1,
    restitution: 0.8,
    hp: 1,
    maxHp: 1,
    damageTimer: 0,
    alive: true,
  };
}

describe('NavGrid (A*)', () => {
  const arena = new Arena();
  const nav = new NavGrid(arena);
  const out = new Float32Array(256);

  it('finds paths whose every leg is clear of walls, ending at the goal tile', () => {
    const rng = new Rng(5);
    let found = 0;
    for (let k = 0; k < 200; k++) {
      const sx = rng.range(40, arena.width - 40),
        sy = rng.range(40, arena.height - 40);
      const ex = rng.range(40, arena.width - 40),
        ey = rng.range(40, arena.height - 40);
      if (arena.solidAt(sx, sy) || arena.solidAt(ex, ey)) continue;
      const n = nav.findPath(sx, sy, ex, ey, out, 10);
      expect(n).toBeGreaterThan(0); // the level is connected
      found++;
      let px = sx,
        py = sy;
      for (let i = 0; i < n; i++) {
        // The first leg starts anywhere in the start tile; the rest join tile centres.
        if (i > 0) expect(arena.clearPath(px, py, out[i * 2], out[i * 2 + 1], 10)).toBe(true);
        expect(arena.solidAt(out[i * 2], out[i * 2 + 1])).toBe(false);
        px = out[i * 2];
        py = out[i * 2 + 1];
      }
      expect(Math.floor(px / TILE)).toBe(Math.floor(ex / TILE));
      expect(Math.floor(py / TILE)).toBe(Math.floor(ey / TILE));
    }
    expect(found).toBeGreaterThan(100);
  });

  it('returns no path from inside a wall, and routes to the nearest floor when the goal is a wall', () => {
    expect(nav.findPath(5, 5, 300, 300, out)).toBe(0);
    const n = nav.findPath(300, 300, 31 * TILE + 8, 19 * TILE + 8, out); // inside the central block
    expect(n).toBeGreaterThan(0);
    expect(arena.solidAt(out[(n - 1) * 2], out[(n - 1) * 2 + 1])).toBe(false);
  });
});

describe('SpatialHash', () => {
  it('returns every point within the query square (compared with brute force)', () => {
    const hash = new SpatialHash(1000, 800, 32, 16);
    const rng = new Rng(9);
    const xs: number[] = [],
      ys: number[] = [];
    for (let i = 0; i < 500; i++) {
      xs.push(rng.range(0, 1000));
      ys.push(rng.range(0, 800));
      hash.insert(i, xs[i], ys[i]);
    }
    const out = new Int32Array(500);
    for (let q = 0; q < 50; q++) {
      const x = rng.range(0, 1000),
        y = rng.range(0, 800),
        r = rng.range(5, 80);
      const got = new Set(Array.from(out.subarray(0, hash.query(x, y, r, out))));
      for (let i = 0; i < 500; i++)
        if (Math.abs(xs[i] - x) <= r && Math.abs(ys[i] - y) <= r) expect(got.has(i)).toBe(true);
    }
  });
});

describe('Physics', () => {
  const arena = new Arena();
  const physics = new Physics(arena);

  it('bounces two approaching balls apart, with a contact and its normal', () => {
    const a = body(1, 400, 300, 100),
      b = body(2, 418, 300, -100);
    physics.solve([a, b]);
    expect(b.x - a.x).toBeGreaterThan(18);
    expect(a.vx).toBeLessThan(0);
    expect(b.vx).toBeGreaterThan(0);
    expect(physics.contactCount).toBeGreaterThan(0);
    expect(physics.contacts[2]).toBeCloseTo(1); // normal from a to b
  });

  it('pushes circles and boxes out of walls and reflects their velocity', () => {
    const c = body(3, TILE + 5, 300, -200);
    const box = body(4, 300, TILE + 5, 0, 'box');
    box.vy = -150;
    physics.solve([c, box]);
    expect(c.x).toBeGreaterThanOrEqual(TILE + 10 - 1e-6);
    expect(c.vx).toBeGreaterThan(0);
    expect(box.y).toBeGreaterThanOrEqual(TILE + 10 - 1e-6);
    expect(box.vy).toBeGreaterThan(0);
  });
});

describe('rig', () => {
  it('has at least 10 bones in a valid hierarchy', () => {
    expect(BONE_COUNT).toBeGreaterThanOrEqual(10);
    RIG_PARENTS.forEach((p, i) => expect(p).toBeLessThan(i));
    expect(RIG_PARENTS.filter((p) => p < 0)).toHaveLength(1);
  });

  it('forward kinematics follows the entity transform: rotating the entity rotates every joint', () => {
    const rig = createRig();
    animateRig(rig, 0.1, 150, false, false);
    const a = new Float32Array(BONE_COUNT * 3),
      b = new Float32Array(BONE_COUNT * 3);
    forwardKinematics(RIG_PARENTS, BONE_COUNT, rig.rot, rig.off, 0, 0, 0, 0, 0, 0, 0, 1, a);
    const angle = 1.1;
    forwardKinematics(
      RIG_PARENTS,
      BONE_COUNT,
      rig.rot,
      rig.off,
      0,
      50,
      -20,
      3,
      0,
      0,
      Math.sin(angle / 2),
      Math.cos(angle / 2),
      b,
    );
    for (let i = 0; i < BONE_COUNT; i++) {
      const x = a[i * 3],
        y = a[i * 3 + 1];
      expect(b[i * 3]).toBeCloseTo(50 + x * Math.cos(angle) - y * Math.sin(angle), 4);
      expect(b[i * 3 + 1]).toBeCloseTo(-20 + x * Math.sin(angle) + y * Math.cos(angle), 4);
      expect(b[i * 3 + 2]).toBeCloseTo(3 + a[i * 3 + 2], 4);
    }
  });

  it('walks: the feet swing forwards and backwards over a cycle, and stay still when standing', () => {
    const rig = createRig();
    const j = new Float32Array(BONE_COUNT * 3);
    let min = Infinity,
      max = -Infinity;
    for (let i = 0; i < 120; i++) {
      animateRig(rig, 1 / 60, 120, false, false);
      forwardKinematics(RIG_PARENTS, BONE_COUNT, rig.rot, rig.off, 0, 0, 0, 0, 0, 0, 0, 1, j);
      min = Math.min(min, j[12 * 3]);
      max = Math.max(max, j[12 * 3]);
    }
    expect(max - min).toBeGreaterThan(8);
    for (let i = 0; i < 240; i++) animateRig(rig, 1 / 60, 0, false, false);
    forwardKinematics(RIG_PARENTS, BONE_COUNT, rig.rot, rig.off, 0, 0, 0, 0, 0, 0, 0, 1, j);
    expect(Math.abs(j[12 * 3])).toBeLessThan(1);
  });
});
