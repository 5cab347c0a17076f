/**
 * The explosion effect as a stateless function of its age: the same (position, size, id, age) always
 * draws the same picture, so any frame of it can be shown in any order, forwards or backwards. The
 * game stores nothing per particle; the recorder stores only start and end markers.
 */
import type { Graphics } from 'pixi.js';
import { hash01 } from '../game/rng';
import { EXPLOSION_DURATION } from '../game/types';

const DEBRIS = 14;
const SMOKE = 6;

/** Draws one explosion of blast radius `size` and identity `id` (its random seed) at `age` seconds. */
export function drawExplosion(g: Graphics, x: number, y: number, size: number, id: number, age: number): void {
  if (age < 0 || age >= EXPLOSION_DURATION) return;
  const t = age / EXPLOSION_DURATION;
  const out = 1 - (1 - t) * (1 - t) * (1 - t); // ease-out cubic
  // Smoke puffs drifting outwards, below everything.
  for (let i = 0; i < SMOKE; i++) {
    const a = hash01(id, i) * Math.PI * 2;
    const d = size * (0.2 + 0.5 * hash01(id, i + 50)) * out;
    const r = size * (0.25 + 0.25 * hash01(id, i + 90)) * (0.6 + 0.8 * t);
    g.circle(x + Math.cos(a) * d, y + Math.sin(a) * d - 10 * t, r).fill({ color: 0x3a3a44, alpha: 0.35 * (1 - t) });
  }
  // The fireball: grows fast, cools from yellow to red, fades.
  const fire = Math.max(0, 1 - t * 1.6);
  if (fire > 0) {
    const r = size * (0.3 + 0.5 * out);
    g.circle(x, y, r).fill({ color: mixColor(0xffe066, 0xd83a1a, t * 1.6), alpha: 0.75 * fire });
    g.circle(x, y, r * 0.55).fill({ color: 0xfff6d0, alpha: 0.8 * fire * fire });
  }
  // The shock ring.
  const ring = Math.min(1, t * 2.2);
  if (ring < 1) {
    g.circle(x, y, size * (0.4 + 0.9 * ring)).stroke({ width: 3 * (1 - ring) + 0.5, color: 0xffd9a0, alpha: 1 - ring });
  }
  // Debris: ballistic with drag, x(t) = v (1 - e^(-k t)) / k, so position is closed-form in age.
  const k = 4;
  const travel = (1 - Math.exp(-k * age)) / k;
  for (let i = 0; i < DEBRIS; i++) {
    const a = hash01(id, i + 200) * Math.PI * 2;
    const v = size * (2.5 + 3 * hash01(id, i + 300));
    const px = x + Math.cos(a) * v * travel,
      py = y + Math.sin(a) * v * travel;
    g.circle(px, py, 2.2 * (1 - t) + 0.6).fill({ color: i % 3 === 0 ? 0xfff2b0 : 0xff9a3d, alpha: 1 - t });
  }
  // The flash of the first instants.
  if (age < 0.1) g.circle(x, y, size * 0.9).fill({ color: 0xffffff, alpha: 0.55 * (1 - age / 0.1) });
}

function mixColor(a: number, b: number, t: number): number {
  const u = Math.max(0, Math.min(1, t));
  const r = ((a >> 16) & 255) + (((b >> 16) & 255) - ((a >> 16) & 255)) * u;
  const g = ((a >> 8) & 255) + (((b >> 8) & 255) - ((a >> 8) & 255)) * u;
  const bl = (a & 255) + ((b & 255) - (a & 255)) * u;
  return ((r & 255) << 16) | ((g & 255) << 8) | (bl & 255);
}
