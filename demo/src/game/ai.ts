/**
 * The agents' decision state machine (patrol → chase → attack, flee when hurt) and its debug
 * drawing: vision cone, path, steering target, line of sight and a state label above each agent.
 */
import { cone, cross, type DebugChannels, type DebugDraw } from './debugDraw';
import type { Game } from './Game';
import type { Agent, AgentState } from './types';

/** Vision: range and half-angle of the cone. */
export const VISION_RANGE = 340;
export const VISION_HALF_ANGLE = (40 * Math.PI) / 180;
const ATTACK_RANGE = 220;
const WALK = 62;
const RUN = 150;
/** Stamina per second lost running, and regained otherwise. */
const STAMINA_DRAIN = 12;
const STAMINA_REFILL = 8;
const FLEE = 140;

/** Sensor rays per agent drawn by the spam mode. */
const SPAM_RAYS = 128;

/** Formation slots behind the leader (x back, y side), in the leader's frame. */
const FORMATION = [0, 0, -22, -15, -22, 15];

const STATE_COLOR: Record<AgentState, number> = {
  patrol: 0x8fd14f,
  chase: 0xffc83d,
  attack: 0xff5a5a,
  flee: 0x6cb6ff,
};

/** Runs one agent's decisions and steering for a step of `dt` seconds. */
export function updateAgent(game: Game, a: Agent, dt: number): void {
  const p = game.player;
  a.stateTime += dt;
  a.replan -= dt;
  a.cooldown -= dt;
  a.seesPlayer = p.alive && canSee(game, a, p.x, p.y);
  if (a.seesPlayer) {
    a.lostTime = 0;
    a.lastSeenX = p.x;
    a.lastSeenY = p.y;
    // Alert the squad: mates on patrol join the chase.
    for (const m of game.agents) {
      if (m !== a && m.squad === a.squad && m.state === 'patrol') {
        m.lastSeenX = p.x;
        m.lastSeenY = p.y;
        m.lostTime = 0;
        setState(m, 'chase');
      }
    }
  } else {
    a.lostTime += dt;
  }
  const dist = Math.hypot(p.x - a.x, p.y - a.y);
  const hurt = a.hp < a.maxHp * 0.3;

  // Transitions.
  switch (a.state) {
    case 'patrol':
      if (hurt) setState(a, 'flee');
      else if (a.seesPlayer) setState(a, dist < ATTACK_RANGE ? 'attack' : 'chase');
      break;
    case 'chase':
      if (hurt) setState(a, 'flee');
      else if (a.seesPlayer && dist < ATTACK_RANGE) setState(a, 'attack');
      else if (a.lostTime > 4 || !p.alive) setState(a, 'patrol');
      break;
    case 'attack':
      if (hurt) setState(a, 'flee');
      else if (!a.seesPlayer || dist > ATTACK_RANGE * 1.25) setState(a, 'chase');
      break;
    case 'flee':
      if (a.hp >= a.maxHp * 0.7) setState(a, 'patrol');
      break;
  }
  if (a.state !== 'flee' && a.state !== 'attack') a.hp = Math.min(a.maxHp, a.hp + dt * 1.5); // slow regeneration

  // Behaviour.
  let speed = 0;
  a.aiming = false;
  switch (a.state) {
    case 'patrol': {
      const leader = squadLeader(game, a.squad);
      if (leader === a) {
        const route = game.routes[a.squad];
        if (a.pathIndex >= a.pathLength) {
          a.waypoint = (a.waypoint + 1) % (route.length / 2);
          plan(game, a, route[a.waypoint * 2], route[a.waypoint * 2 + 1]);
        }
        followPath(a);
      } else {
        // Formation slot behind the leader.
        const c = Math.cos(leader.angle),
          s = Math.sin(leader.angle);
        const fx = FORMATION[a.slot * 2],
          fy = FORMATION[a.slot * 2 + 1];
        const tx = leader.x + c * fx - s * fy,
          ty = leader.y + s * fx + c * fy;
        if (game.arena.clearPath(a.x, a.y, tx, ty, a.radius)) {
          a.targetX = tx;
          a.targetY = ty;
          a.pathLength = 0;
          a.pathIndex = 0;
        } else {
          if (a.replan <= 0 || a.pathIndex >= a.pathLength) plan(game, a, tx, ty);
          followPath(a);
        }
      }
      const far = Math.hypot(a.targetX - a.x, a.targetY - a.y);
      speed = leader === a ? WALK : Math.min(RUN, WALK * (0.6 + far / 18));
      if (far < 3) speed = 0;
      break;
    }
    case 'chase':
      if (a.replan <= 0 || a.pathIndex >= a.pathLength) plan(game, a, a.lastSeenX, a.lastSeenY);
      followPath(a);
      speed = RUN;
      break;
    case 'attack': {
      a.targetX = a.x;
      a.targetY = a.y;
      a.pathLength = 0;
      a.aiming = true;
      // Strafe a little, sideways to the player.
      const side = Math.sin(a.stateTime * 1.7 + a.id) * 0.8;
      const ux = (p.x - a.x) / (dist || 1),
        uy = (p.y - a.y) / (dist || 1);
      a.targetX = a.x - uy * side * 30;
      a.targetY = a.y + ux * side * 30;
      speed = 35;
      if (a.cooldown <= 0 && a.seesPlayer) {
        const spread = (game.rng.next() - 0.5) * 0.12;
        game.fire(a, Math.atan2(p.y - a.y, p.x - a.x) + spread, false);
        a.cooldown = 0.75 + game.rng.next() * 0.4;
      }
      break;
    }
    case 'flee': {
      a.hp = Math.min(a.maxHp, a.hp + dt * 7);
      const pk = game.nearestPickup(a.x, a.y, 240, 'health');
      if (pk !== null && game.arena.clearPath(a.x, a.y, pk.x, pk.y, a.radius)) {
        a.targetX = pk.x;
        a.targetY = pk.y;
        a.pathLength = 0;
        a.pathIndex = 0;
      } else {
        if (a.replan <= 0 || a.pathIndex >= a.pathLength) {
          const [fx, fy] = fleeTarget(game, a);
          plan(game, a, fx, fy);
          a.replan = 1.5;
        }
        followPath(a);
      }
      speed = FLEE;
      break;
    }
  }
  a.stamina = Math.max(0, Math.min(100, a.stamina + (speed > WALK ? -STAMINA_DRAIN : STAMINA_REFILL) * dt));
  steer(game, a, speed, dt);
}

function setState(a: Agent, s: AgentState): void {
  if (a.state === s) return;
  a.state = s;
  a.stateTime = 0;
  a.replan = 0;
  a.pathLength = 0;
  a.pathIndex = 0;
}

/** The squad's living member with the lowest slot that is on patrol. */
function squadLeader(game: Game, squad: number): Agent {
  let best: Agent | null = null;
  for (const m of game.agents) {
    if (m.squad !== squad || m.state !== 'patrol') continue;
    if (best === null || m.slot < best.slot) best = m;
  }
  return best as Agent;
}

/** Whether the agent sees (x, y): within range, inside the cone, and in line of sight. */
export function canSee(game: Game, a: Agent, x: number, y: number): boolean {
  const dx = x - a.x,
    dy = y - a.y;
  const d2 = dx * dx + dy * dy;
  if (d2 > VISION_RANGE * VISION_RANGE) return false;
  const diff = Math.abs(wrap(Math.atan2(dy, dx) - a.angle));
  if (diff > VISION_HALF_ANGLE && d2 > 40 * 40) return false;
  return game.arena.lineOfSight(a.x, a.y, x, y);
}

/** Plans a path with A* and remembers what the search visited. */
function plan(game: Game, a: Agent, tx: number, ty: number): void {
  a.pathLength = game.nav.findPath(a.x, a.y, tx, ty, a.path, a.radius + 2);
  a.pathIndex = 0;
  a.replan = 0.5 + game.rng.next() * 0.2;
  const n = Math.min(game.nav.lastVisitedCount, a.visited.length);
  for (let i = 0; i < n; i++) a.visited[i] = game.nav.lastVisited[i];
  a.visitedCount = n;
  if (a.pathLength === 0) {
    a.targetX = a.x;
    a.targetY = a.y;
  }
}

/** Sets the steering target to the next waypoint, advancing past the ones reached. */
function followPath(a: Agent): void {
  while (a.pathIndex < a.pathLength) {
    const wx = a.path[a.pathIndex * 2],
      wy = a.path[a.pathIndex * 2 + 1];
    if (Math.hypot(wx - a.x, wy - a.y) > 12 || a.pathIndex === a.pathLength - 1) break;
    a.pathIndex++;
  }
  if (a.pathIndex < a.pathLength) {
    a.targetX = a.path[a.pathIndex * 2];
    a.targetY = a.path[a.pathIndex * 2 + 1];
    if (a.pathIndex === a.pathLength - 1 && Math.hypot(a.targetX - a.x, a.targetY - a.y) < 8) a.pathIndex++;
  }
}

/** Of a few random floor points, the one farthest from the player. */
function fleeTarget(game: Game, a: Agent): [number, number] {
  const p = game.player;
  let bx = a.x,
    by = a.y,
    best = -1;
  for (let i = 0; i < 10; i++) {
    const x = a.x + (game.rng.next() - 0.5) * 700,
      y = a.y + (game.rng.next() - 0.5) * 700;
    if (game.arena.solidAt(x, y) || x < 0 || y < 0 || x > game.arena.width || y > game.arena.height) continue;
    const d = Math.hypot(x - p.x, y - p.y);
    if (d > best) {
      best = d;
      bx = x;
      by = y;
    }
  }
  return [bx, by];
}

/** Accelerates towards the steering target and turns to face the motion (or the player). */
function steer(game: Game, a: Agent, speed: number, dt: number): void {
  const dx = a.targetX - a.x,
    dy = a.targetY - a.y;
  const d = Math.hypot(dx, dy);
  let wantX = 0,
    wantY = 0;
  if (d > 2 && speed > 0) {
    const s = Math.min(speed, d * 4);
    wantX = (dx / d) * s;
    wantY = (dy / d) * s;
  }
  const k = 1 - Math.exp(-dt * 8);
  a.vx += (wantX - a.vx) * k;
  a.vy += (wantY - a.vy) * k;
  a.x += a.vx * dt;
  a.y += a.vy * dt;
  let face = a.angle;
  if (a.state === 'attack' || (a.seesPlayer && a.state === 'chase')) {
    face = Math.atan2(game.player.y - a.y, game.player.x - a.x);
  } else if (Math.hypot(a.vx, a.vy) > 10) {
    face = Math.atan2(a.vy, a.vx);
  } else if (a.state === 'patrol') {
    face = a.angle + Math.sin(a.stateTime * 0.9 + a.id) * dt * 0.8; // look around
  }
  a.angle = turnTowards(a.angle, face, dt * 7);
}

/** Rotates `from` towards `to` by at most `step` radians. */
export function turnTowards(from: number, to: number, step: number): number {
  const d = wrap(to - from);
  return wrap(from + Math.max(-step, Math.min(step, d)));
}

/** An angle wrapped into (-π, π]. */
export function wrap(a: number): number {
  return Math.atan2(Math.sin(a), Math.cos(a));
}

/**
 * Draws an agent's mind to the AI channel: cone, path, target, sight line and a state label. With
 * `spam` it also draws every node its last path search expanded and a fan of sensor rays: far more
 * than the channel's budget, to show the over-budget badge.
 */
export function drawAgentDebug(game: Game, a: Agent, draw: DebugDraw, ch: DebugChannels, spam: boolean): void {
  const color = STATE_COLOR[a.state];
  cone(draw, ch.ai, a.x, a.y, 0, a.angle, VISION_HALF_ANGLE, VISION_RANGE, a.seesPlayer ? 0xff5a5a : color, 10);
  let px = a.x,
    py = a.y;
  for (let i = a.pathIndex; i < a.pathLength; i++) {
    const wx = a.path[i * 2],
      wy = a.path[i * 2 + 1];
    draw.line(ch.ai, px, py, 0, wx, wy, 0, color);
    draw.point(ch.ai, wx, wy, 0, 4, color);
    px = wx;
    py = wy;
  }
  cross(draw, ch.ai, a.targetX, a.targetY, 0, 5, 0xffffff);
  if (a.seesPlayer) draw.line(ch.ai, a.x, a.y, 0, game.player.x, game.player.y, 0, 0xff5a5a);
  if (a.state === 'flee') draw.arrow(ch.ai, a.x, a.y, 0, a.x + a.vx * 0.4, a.y + a.vy * 0.4, 0, 6, color);
  draw.text(ch.ai, a.x, a.y - 24, 0, `${a.name} ${a.state} ${Math.ceil(a.hp)}hp`, color);
  if (spam) {
    // Everything a frustrated programmer might dump: every node the last search expanded, a fan of
    // sensor rays, and a line of text per ray. Far over the channel's primitive and text budgets.
    const cols = game.arena.cols;
    for (let i = 0; i < a.visitedCount; i++) {
      const n = a.visited[i];
      draw.point(ch.ai, (n % cols) * 32 + 16, ((n / cols) | 0) * 32 + 16, 0, 3, 0x886622);
    }
    for (let r = 0; r < SPAM_RAYS; r++) {
      const ang = a.angle + (r / SPAM_RAYS) * Math.PI * 2;
      const ex = a.x + Math.cos(ang) * 120,
        ey = a.y + Math.sin(ang) * 120;
      draw.line(ch.ai, a.x, a.y, 0, ex, ey, 0, 0x8a7420);
      if (r % 8 === 0)
        draw.text(ch.ai, ex, ey, 0, `${a.name} ray ${r} clear=${game.arena.lineOfSight(a.x, a.y, ex, ey)}`, 0x8a7420);
    }
  }
}
