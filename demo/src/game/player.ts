/**
 * The player's controller: WASD/mouse input, or an autopilot that takes over after a few seconds
 * without input (so the demo plays itself: roams, fights the nearest agent, grabs health, jumps).
 */
import { turnTowards } from './ai';
import type { Game } from './Game';
import type { Actor } from './types';

const SPEED = 185;
const JUMP_SPEED = 330;
export const GRAVITY = 1000;
/** Seconds without input before the autopilot takes over. */
export const AUTOPILOT_DELAY = 4;

/** What the player's controls say this step; filled by the input layer. */
export interface PlayerInput {
  /** Movement intent, each in -1..1. */
  moveX: number;
  moveY: number;
  /** Jump pressed (edge or held). */
  jump: boolean;
  /** Fire held. */
  fire: boolean;
  /** Aim point in world units, valid when `hasAim`. */
  aimX: number;
  aimY: number;
  hasAim: boolean;
  /** Seconds since the last human input. */
  idle: number;
}

/** The autopilot's memory. */
export class Autopilot {
  public readonly path = new Float32Array(128);
  public pathLength = 0;
  public pathIndex = 0;
  public replan = 0;
  public jumpTimer = 2;
  public strafe = 1;
  public targetId = -1;
}

/** Runs the player for one step: input or autopilot, then jump physics and facing. */
export function updatePlayer(game: Game, dt: number): void {
  const p = game.player;
  const input = game.input;
  p.cooldown -= dt;
  game.autopilotOn = input.idle >= AUTOPILOT_DELAY;
  // The controls say what to do, or the autopilot does once they have been idle long enough.
  const want: Intent = game.autopilotOn ? autopilot(game, dt) : input;
  let mx = want.moveX,
    my = want.moveY;
  const fire = want.fire,
    jump = want.jump;
  const aimX = want.hasAim ? want.aimX : p.x + Math.cos(p.angle) * 100;
  const aimY = want.hasAim ? want.aimY : p.y + Math.sin(p.angle) * 100;
  const len = Math.hypot(mx, my);
  if (len > 1) {
    mx /= len;
    my /= len;
  }
  const k = 1 - Math.exp(-dt * 12);
  p.vx += (mx * SPEED - p.vx) * k;
  p.vy += (my * SPEED - p.vy) * k;
  p.x += p.vx * dt;
  p.y += p.vy * dt;
  // Height: z is the jump; the view shows it with a shadow and scale.
  if (jump && p.z <= 0) p.vz = JUMP_SPEED;
  p.vz -= GRAVITY * dt;
  p.z += p.vz * dt;
  if (p.z <= 0) {
    p.z = 0;
    p.vz = 0;
  }
  const face = Math.atan2(aimY - p.y, aimX - p.x);
  p.angle = turnTowards(p.angle, face, dt * 14);
  p.aiming = fire || (game.autopilotOn && game.autopilot.targetId >= 0);
  if (fire && p.cooldown <= 0) {
    game.fire(p, p.angle, true);
    p.cooldown = (game.energyTimer > 0 ? 0.1 : 0.22) * (game.autopilotOn ? 2 : 1);
  }
}

/** What the player does this step: the controls' `PlayerInput`, or the autopilot's. */
type Intent = Omit<PlayerInput, 'idle'>;
/** The autopilot's intent, reused every step. */
const intent: Intent = { moveX: 0, moveY: 0, fire: false, jump: false, aimX: 0, aimY: 0, hasAim: false };

function autopilot(game: Game, dt: number): Intent {
  const p: Actor = game.player;
  const ap = game.autopilot;
  intent.moveX = 0;
  intent.moveY = 0;
  intent.fire = false;
  intent.jump = false;
  intent.hasAim = false;
  // Target: the nearest agent in line of sight.
  let target = null;
  let best = 380;
  for (const a of game.agents) {
    const d = Math.hypot(a.x - p.x, a.y - p.y);
    if (d < best && game.arena.lineOfSight(p.x, p.y, a.x, a.y)) {
      best = d;
      target = a;
    }
  }
  ap.targetId = target === null ? -1 : target.id;
  ap.replan -= dt;
  ap.jumpTimer -= dt;
  // Where to go: health when hurt, else keep roaming.
  const health = p.hp < 45 ? game.nearestPickup(p.x, p.y, 500, 'health') : null;
  if (health !== null && (ap.replan <= 0 || ap.pathIndex >= ap.pathLength)) {
    ap.pathLength = game.nav.findPath(p.x, p.y, health.x, health.y, ap.path, p.radius + 2);
    ap.pathIndex = 0;
    ap.replan = 0.6;
  } else if (ap.pathIndex >= ap.pathLength || ap.replan < -6) {
    for (let tries = 0; tries < 8; tries++) {
      // Roam: usually towards a random agent (the demo should show fights), sometimes anywhere.
      const prey =
        game.agents.length > 0 && game.rng.next() < 0.7 ? game.agents[game.rng.int(game.agents.length)] : null;
      const x = prey !== null ? prey.x : 60 + game.rng.next() * (game.arena.width - 120);
      const y = prey !== null ? prey.y : 60 + game.rng.next() * (game.arena.height - 120);
      if (game.arena.solidAt(x, y)) continue;
      ap.pathLength = game.nav.findPath(p.x, p.y, x, y, ap.path, p.radius + 2);
      ap.pathIndex = 0;
      ap.replan = 0;
      if (ap.pathLength > 0) break;
    }
  }
  while (
    ap.pathIndex < ap.pathLength &&
    Math.hypot(ap.path[ap.pathIndex * 2] - p.x, ap.path[ap.pathIndex * 2 + 1] - p.y) < 14
  )
    ap.pathIndex++;
  if (ap.pathIndex < ap.pathLength) {
    const dx = ap.path[ap.pathIndex * 2] - p.x,
      dy = ap.path[ap.pathIndex * 2 + 1] - p.y;
    const d = Math.hypot(dx, dy) || 1;
    intent.moveX = dx / d;
    intent.moveY = dy / d;
  }
  if (target !== null) {
    intent.aimX = target.x;
    intent.aimY = target.y;
    intent.hasAim = true;
    intent.fire = true;
    // Circle-strafe a little while fighting.
    if (game.rng.next() < dt * 0.5) ap.strafe = -ap.strafe;
    const dx = target.x - p.x,
      dy = target.y - p.y;
    const d = Math.hypot(dx, dy) || 1;
    intent.moveX = intent.moveX * 0.5 + (-dy / d) * ap.strafe * 0.6 + (d < 150 ? -dx / d : 0) * 0.5;
    intent.moveY = intent.moveY * 0.5 + (dx / d) * ap.strafe * 0.6 + (d < 150 ? -dy / d : 0) * 0.5;
  } else if (ap.pathIndex < ap.pathLength) {
    intent.aimX = ap.path[ap.pathIndex * 2];
    intent.aimY = ap.path[ap.pathIndex * 2 + 1];
    intent.hasAim = true;
  }
  if (ap.jumpTimer <= 0) {
    intent.jump = true;
    ap.jumpTimer = 1.5 + game.rng.next() * 2.5;
  }
  return intent;
}
