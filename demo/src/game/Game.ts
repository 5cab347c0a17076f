/**
 * The game simulation: arena, player, agents, physics bodies, projectiles, pickups, explosions and a
 * crowd. It knows nothing about rendering or recording. Each step it lists what spawned, despawned
 * and happened (`spawns`, `despawns`, `events`); the recorder and the view read those lists and the
 * entity arrays, then `flushNotes()` clears them.
 *
 * `paused` is the one switch the main loop checks: while it is true `update` is not called, and the
 * state stays exactly as it was.
 */
import { drawAgentDebug, updateAgent } from './ai';
import { cross, stickFigure, type DebugChannels, type DebugDraw } from './debugDraw';
import { POP_SECONDS, pickupLookAtSpawn, stepPickupLook } from './pickupLook';
import { Arena, TILE } from './Arena';
import { Camera } from './Camera';
import { Crowd, MAX_MOVERS } from './Crowd';
import { NavGrid } from './NavGrid';
import { FLY_HEIGHT, Physics } from './Physics';
import { Autopilot, AUTOPILOT_DELAY, updatePlayer, type PlayerInput } from './player';
import { animateRig, BONE_COUNT, createRig, forwardKinematics, RIG_PARENTS } from './rig';
import { Rng } from './rng';
import {
  EXPLOSION_DURATION,
  type Actor,
  type Agent,
  type Entity,
  type Explosion,
  type GameEvent,
  type Kind,
  type Pickup,
  type PickupType,
  type Projectile,
  type SpawnNote,
} from './types';

/** Recorded label of a crowd mover per colour variant. */
const MOVER_LABELS = ['mover 0', 'mover 1', 'mover 2', 'mover 3'];
const SQUADS = 4;
const SQUAD_SIZE = 3;
const MAX_PICKUPS = 14;
const AGENT_RESPAWN = 4;
const CRATE_RESPAWN = 6;

/** Options of a new game. */
export interface GameOptions {
  /** Seed of the level's random placement. */
  seed: number;
  /** Crowd movers at start (the scale control changes it later). */
  crowd: number;
}

export const DEFAULT_GAME_OPTIONS: Readonly<GameOptions> = { seed: 1234, crowd: 200 };

interface Respawn {
  at: number;
  kind: 'agent' | 'crate';
  squad: number;
  slot: number;
  x: number;
  y: number;
}

export class Game {
  /** While true the main loop does not step the game (the renderer keeps running). */
  public paused = false;
  /** Simulated time in seconds. */
  public time = 0;
  /** Steps simulated. */
  public steps = 0;
  /** Debug-draw spam (far over the AI channel's budget). */
  public spam = false;
  /** Movers the crowd should have; applied during the next step. */
  public crowdTarget: number;
  public autopilotOn = true;
  /** Seconds of fast fire left from an energy pickup. */
  public energyTimer = 0;

  public readonly rng: Rng;
  public readonly arena = new Arena();
  public readonly nav = new NavGrid(this.arena);
  public readonly physics = new Physics(this.arena);
  public readonly crowd = new Crowd(this.arena);
  public readonly camera = new Camera();
  public readonly autopilot = new Autopilot();
  public readonly input: PlayerInput = {
    moveX: 0,
    moveY: 0,
    jump: false,
    fire: false,
    aimX: 0,
    aimY: 0,
    hasAim: false,
    idle: AUTOPILOT_DELAY,
  };

  public readonly player: Actor;
  public readonly agents: Agent[] = [];
  /** Balls and crates. */
  public readonly bodies: Entity[] = [];
  public readonly projectiles: Projectile[] = [];
  public readonly pickups: Pickup[] = [];
  public readonly explosions: Explosion[] = [];
  /** Patrol routes per squad: x, y pairs. */
  public readonly routes: Float32Array[];

  /** Entity lives that started since the last `flushNotes`. */
  public readonly spawns: SpawnNote[] = [];
  /** Entity ids whose life ended since the last `flushNotes`. */
  public readonly despawns: number[] = [];
  /** Events since the last `flushNotes`. */
  public readonly events: GameEvent[] = [];

  private nextIdValue = 1;
  private readonly respawns: Respawn[] = [];
  private readonly colliders: Entity[] = [];
  private pickupTimer = 0;
  private readonly spawnX: number;
  private readonly spawnY: number;
  private readonly joints = new Float32Array(BONE_COUNT * 3);

  public constructor(options: Partial<GameOptions> = {}) {
    const o: GameOptions = { ...DEFAULT_GAME_OPTIONS, ...options };
    this.rng = new Rng(o.seed);
    this.crowdTarget = Math.max(0, Math.min(MAX_MOVERS, o.crowd | 0));
    this.spawnX = 32 * TILE;
    this.spawnY = 24 * TILE;
    this.player = this.makeActor('player', this.spawnX, this.spawnY, 100, 'Player');
    this.camera.snap(this.player.x, this.player.y);
    const w = this.arena.width,
      h = this.arena.height;
    // Each squad patrols a loop through one quarter of the arena and the hall next to it.
    const quarter = (sx: number, sy: number): Float32Array => {
      const fx = (x: number): number => (sx < 0 ? x : w - x);
      const fy = (y: number): number => (sy < 0 ? y : h - y);
      return new Float32Array([
        fx(8 * TILE),
        fy(5 * TILE),
        fx(19 * TILE),
        fy(4 * TILE),
        fx(26 * TILE),
        fy(10.5 * TILE),
        fx(19 * TILE),
        fy(16.5 * TILE),
        fx(4 * TILE),
        fy(16.5 * TILE),
      ]);
    };
    this.routes = [quarter(-1, -1), quarter(1, -1), quarter(-1, 1), quarter(1, 1)];
    for (let s = 0; s < SQUADS; s++) {
      for (let slot = 0; slot < SQUAD_SIZE; slot++) {
        this.spawnAgent(s, slot, this.routes[s][0] - slot * 20, this.routes[s][1] + slot * 14);
      }
    }
    // Balls and crates in the halls.
    for (let i = 0; i < 10; i++) {
      const [x, y] = this.freePoint(20);
      this.spawnBody('ball', x, y);
    }
    for (let i = 0; i < 8; i++) {
      const [x, y] = this.freePoint(24);
      this.spawnBody('crate', x, y);
    }
  }

  /** A new, never-reused numeric id. */
  public nextId(): number {
    return this.nextIdValue++;
  }

  /** Advances the simulation by `dt` seconds. */
  public update(dt: number): void {
    this.time += dt;
    this.steps++;
    // Explosions age first, so one started during this step has age 0 in this step's frame (its
    // start marker's frame), exactly what replaying from the markers gives.
    this.updateExplosions(dt);
    this.applyCrowdTarget();
    this.energyTimer = Math.max(0, this.energyTimer - dt);

    updatePlayer(this, dt);
    for (const a of this.agents) updateAgent(this, a, dt);
    this.physics.integrate(this.bodies, dt);
    const col = this.colliders;
    col.length = 0;
    col.push(this.player);
    for (const a of this.agents) col.push(a);
    for (const b of this.bodies) col.push(b);
    this.physics.solve(col);

    this.updateProjectiles(dt);
    this.updatePickups(dt);
    this.crowd.update(dt);

    // Animation: gait from actual speed, after collisions.
    for (const a of this.actorsIter()) {
      const speed = Math.hypot(a.vx, a.vy);
      animateRig(a.rig, dt, speed, a.z > 1, a.aiming);
    }
    for (const e of this.colliders) e.damageTimer = Math.max(0, e.damageTimer - dt);
    this.updateRespawns();
    this.camera.update(dt, this.player.x, this.player.y, this.player.vx, this.player.vy);
  }

  /** Forgets the spawn/despawn/event notes (after the recorder and the view have read them). */
  public flushNotes(): void {
    this.spawns.length = 0;
    this.despawns.length = 0;
    this.events.length = 0;
  }

  /**
   * Draws the game's debug view through `draw`: the agents' minds to the AI channel, bodies and
   * contacts to physics, skeletons to animation, projectiles/pickups/blasts to the combat channel.
   */
  public drawDebug(draw: DebugDraw, ch: DebugChannels): void {
    for (const a of this.agents) drawAgentDebug(this, a, draw, ch, this.spam);
    this.physics.drawDebug(draw, ch.physics, this.colliders);
    const j = this.joints;
    for (const a of this.actorsIter()) {
      const h = a.angle / 2;
      forwardKinematics(
        RIG_PARENTS,
        BONE_COUNT,
        a.rig.rot,
        a.rig.off,
        0,
        a.x,
        a.y,
        a.z,
        0,
        0,
        Math.sin(h),
        Math.cos(h),
        j,
      );
      stickFigure(draw, ch.animation, j, RIG_PARENTS, BONE_COUNT, a.kind === 'player' ? 0xff9df5 : 0xd86bff);
    }
    for (const p of this.projectiles) {
      draw.line(
        ch.combat,
        p.x,
        p.y,
        p.z,
        p.x - p.vx * 0.05,
        p.y - p.vy * 0.05,
        p.z,
        p.fromPlayer ? 0x7df9ff : 0xff7a4d,
      );
    }
    for (const p of this.pickups)
      draw.sphere(ch.combat, p.x, p.y, 0, p.radius + 10, p.type === 'health' ? 0x5dff8a : 0xc59bff);
    for (const e of this.explosions) {
      draw.sphere(ch.combat, e.x, e.y, 0, e.size, 0xffa040);
      cross(draw, ch.combat, e.x, e.y, 0, 8, 0xffa040);
    }
    if (this.autopilotOn && this.autopilot.pathIndex < this.autopilot.pathLength) {
      const ap = this.autopilot;
      draw.line(
        ch.ai,
        this.player.x,
        this.player.y,
        0,
        ap.path[ap.pathIndex * 2],
        ap.path[ap.pathIndex * 2 + 1],
        0,
        0x7df9ff,
      );
      for (let i = ap.pathIndex + 1; i < ap.pathLength; i++) {
        draw.line(ch.ai, ap.path[i * 2 - 2], ap.path[i * 2 - 1], 0, ap.path[i * 2], ap.path[i * 2 + 1], 0, 0x7df9ff);
      }
    }
  }

  /** Fires a projectile from an actor's hand. */
  public fire(from: Actor, angle: number, fromPlayer: boolean): void {
    const c = Math.cos(angle),
      s = Math.sin(angle);
    const speed = fromPlayer ? 520 : 340;
    const p: Projectile = {
      ...baseEntity(this.nextId(), 'projectile', from.x + c * 18 - s * 9, from.y + s * 18 + c * 9, 3),
      z: from.z + 12,
      angle: wrapAngle(angle),
      vx: c * speed,
      vy: s * speed,
      owner: from.id,
      fromPlayer,
      life: fromPlayer ? 1.1 : 1.6,
      damage: fromPlayer ? 14 : 7,
    };
    this.projectiles.push(p);
    this.noteSpawn(p, fromPlayer ? 'bolt' : 'bullet');
  }

  /** The nearest pickup of a type within `range`, or null. */
  public nearestPickup(x: number, y: number, range: number, type: PickupType): Pickup | null {
    let best: Pickup | null = null;
    let bd = range;
    for (const p of this.pickups) {
      if (p.type !== type || p.popAge >= 0) continue;
      const d = Math.hypot(p.x - x, p.y - y);
      if (d < bd) {
        bd = d;
        best = p;
      }
    }
    return best;
  }

  /** Starts an explosion: damage and knock-back now, a visual for `EXPLOSION_DURATION` seconds. */
  public explode(x: number, y: number, size: number, hurtsPlayer: boolean): void {
    const e: Explosion = { id: this.nextId(), x, y, size, age: 0 };
    this.explosions.push(e);
    this.events.push({ kind: 'explosion-start', subject: e.id, x, y, value: size });
    const reach = size * 1.6;
    for (const t of this.actorsAndBodies()) {
      const dx = t.x - x,
        dy = t.y - y;
      const d = Math.hypot(dx, dy);
      if (d > reach) continue;
      const f = 1 - d / reach;
      const nx = d > 1e-3 ? dx / d : 1,
        ny = d > 1e-3 ? dy / d : 0;
      t.vx += nx * f * 520 * Math.min(1, t.invMass * 2);
      t.vy += ny * f * 520 * Math.min(1, t.invMass * 2);
      if (t.kind === 'ball' || (t.kind === 'player' && !hurtsPlayer)) continue;
      this.damage(t, Math.round(f * size * 0.6), x, y);
    }
    this.crowd.blast(x, y, reach, 400);
    const pd = Math.hypot(this.player.x - x, this.player.y - y);
    this.camera.shake(Math.max(0, 0.75 - pd / 700) * (size / 60));
  }

  /** Hurts an entity (sets its damage tint); kills it at 0 hp. */
  public damage(t: Entity, amount: number, fromX: number, fromY: number): void {
    if (!t.alive || amount <= 0) return;
    t.hp -= amount;
    t.damageTimer = 0.3;
    this.events.push({ kind: 'hit', subject: t.id, x: t.x, y: t.y, value: amount });
    if (t === this.player) {
      this.camera.shake(0.35);
      if (t.hp <= 0) this.knockOut();
      return;
    }
    if (t.kind === 'agent') {
      const a = t as Agent;
      // Being shot reveals the shooter's direction.
      a.lastSeenX = fromX;
      a.lastSeenY = fromY;
      if (a.state === 'patrol') {
        a.state = 'chase';
        a.stateTime = 0;
        a.replan = 0;
        a.lostTime = 0;
      }
    }
    if (t.hp <= 0) this.kill(t);
  }

  /** Lists the ids of live entities of a kind (the crowd included). */
  public idsOf(kind: Kind): number[] {
    if (kind === 'mover') return Array.from(this.crowd.ids.subarray(0, this.crowd.count));
    const out: number[] = [];
    for (const e of this.entities()) if (e.kind === kind) out.push(e.id);
    return out;
  }

  /** Every live entity except the crowd movers. */
  public *entities(): IterableIterator<Entity> {
    yield this.player;
    yield* this.agents;
    yield* this.bodies;
    yield* this.projectiles;
    yield* this.pickups;
  }

  private *actorsIter(): IterableIterator<Actor> {
    yield this.player;
    yield* this.agents;
  }

  private *actorsAndBodies(): IterableIterator<Entity> {
    yield this.player;
    yield* this.agents;
    yield* this.bodies;
  }

  private noteSpawn(e: Entity, label: string): void {
    this.spawns.push({ id: e.id, kind: e.kind, label });
  }

  private noteDespawn(e: Entity): void {
    e.alive = false;
    this.despawns.push(e.id);
  }

  private makeActor(kind: 'player' | 'agent', x: number, y: number, hp: number, label: string): Actor {
    const a: Actor = {
      ...baseEntity(this.nextId(), kind, x, y, 11),
      invMass: kind === 'player' ? 1 / 3 : 1 / 2,
      restitution: 0.1,
      hp,
      maxHp: hp,
      rig: createRig(),
      cooldown: 0,
      aiming: false,
    };
    this.noteSpawn(a, label);
    return a;
  }

  private spawnAgent(squad: number, slot: number, x: number, y: number): Agent {
    const name = `${String.fromCharCode(65 + squad)}${slot + 1}`;
    const base = this.makeActor('agent', x, y, 80, `agent ${name}`);
    const a: Agent = Object.assign(base, {
      name,
      squad,
      slot,
      state: 'patrol' as const,
      stateTime: 0,
      lostTime: 99,
      stamina: 100,
      lastSeenX: x,
      lastSeenY: y,
      targetX: x,
      targetY: y,
      path: new Float32Array(128),
      pathLength: 0,
      pathIndex: 0,
      replan: 0,
      waypoint: 0,
      seesPlayer: false,
      visited: new Int32Array(512),
      visitedCount: 0,
    });
    a.angle = this.rng.range(-Math.PI, Math.PI);
    this.agents.push(a);
    return a;
  }

  private spawnBody(kind: 'ball' | 'crate', x: number, y: number): Entity {
    const ball = kind === 'ball';
    const r = ball ? 8 + this.rng.int(7) : 13;
    const b: Entity = {
      ...baseEntity(this.nextId(), kind, x, y, r),
      shape: ball ? 'circle' : 'box',
      invMass: ball ? 1 / (r * r * 0.02) : 1 / 8,
      restitution: ball ? 0.85 : 0.25,
      hp: ball ? 1 : 70,
      maxHp: ball ? 1 : 70,
    };
    this.bodies.push(b);
    this.noteSpawn(b, kind);
    return b;
  }

  /** A random floor point at least `margin` away from walls. */
  private freePoint(margin: number): [number, number] {
    const a = this.arena;
    for (let tries = 0; tries < 200; tries++) {
      const x = margin + this.rng.next() * (a.width - margin * 2),
        y = margin + this.rng.next() * (a.height - margin * 2);
      if (
        !a.solidAt(x - margin, y - margin) &&
        !a.solidAt(x + margin, y - margin) &&
        !a.solidAt(x - margin, y + margin) &&
        !a.solidAt(x + margin, y + margin) &&
        Math.hypot(x - this.spawnX, y - this.spawnY) > 80
      )
        return [x, y];
    }
    return [this.spawnX + 60, this.spawnY];
  }

  private kill(t: Entity): void {
    this.events.push({ kind: 'death', subject: t.id, x: t.x, y: t.y, value: 0 });
    if (t.kind === 'agent') {
      const a = t as Agent;
      this.agents.splice(this.agents.indexOf(a), 1);
      this.noteDespawn(a);
      this.explode(a.x, a.y, 46, false);
      const route = this.routes[a.squad];
      this.respawns.push({
        at: this.time + AGENT_RESPAWN,
        kind: 'agent',
        squad: a.squad,
        slot: a.slot,
        x: route[0],
        y: route[1],
      });
    } else if (t.kind === 'crate') {
      this.bodies.splice(this.bodies.indexOf(t), 1);
      this.noteDespawn(t);
      this.explode(t.x, t.y, 64, true);
      this.respawns.push({ at: this.time + CRATE_RESPAWN, kind: 'crate', squad: 0, slot: 0, x: t.x, y: t.y });
    }
  }

  /** The player does not die: a knock-out blast, full health, back to the start (a teleport). */
  private knockOut(): void {
    const p = this.player;
    this.explode(p.x, p.y, 40, false);
    p.hp = p.maxHp;
    p.x = this.spawnX;
    p.y = this.spawnY;
    p.vx = p.vy = 0;
  }

  private updateRespawns(): void {
    for (let i = this.respawns.length - 1; i >= 0; i--) {
      const r = this.respawns[i];
      if (r.at > this.time) continue;
      this.respawns.splice(i, 1);
      if (r.kind === 'agent') this.spawnAgent(r.squad, r.slot, r.x, r.y);
      else this.spawnBody('crate', r.x, r.y);
    }
  }

  private updateProjectiles(dt: number): void {
    const list = this.projectiles;
    for (let i = list.length - 1; i >= 0; i--) {
      const p = list[i];
      p.life -= dt;
      let dead = p.life <= 0;
      const dist = Math.hypot(p.vx, p.vy) * dt;
      const steps = Math.max(1, Math.ceil(dist / 8));
      for (let s = 0; s < steps && !dead; s++) {
        p.x += (p.vx * dt) / steps;
        p.y += (p.vy * dt) / steps;
        if (this.arena.solidAt(p.x, p.y)) {
          dead = true;
          if (p.fromPlayer) this.explode(p.x - p.vx * 0.01, p.y - p.vy * 0.01, 30, false);
          break;
        }
        for (const t of this.colliders) {
          if (t.id === p.owner || !t.alive) continue;
          if (t.z > FLY_HEIGHT) continue; // jumped over it
          if (!p.fromPlayer && t.kind === 'agent') continue; // no friendly fire
          const reach = t.radius + p.radius + (t.shape === 'box' ? 3 : 0);
          if (Math.abs(t.x - p.x) > reach || Math.abs(t.y - p.y) > reach) continue;
          if (t.shape === 'circle' && Math.hypot(t.x - p.x, t.y - p.y) > reach) continue;
          const push = 90 * Math.min(1, t.invMass * 3);
          t.vx += (p.vx / Math.hypot(p.vx, p.vy)) * push;
          t.vy += (p.vy / Math.hypot(p.vx, p.vy)) * push;
          if (t.kind !== 'ball') this.damage(t, p.damage, p.x - p.vx * 0.2, p.y - p.vy * 0.2);
          if (p.fromPlayer) this.explode(p.x, p.y, 26, false);
          dead = true;
          break;
        }
      }
      if (dead) {
        list.splice(i, 1);
        this.noteDespawn(p);
      }
    }
  }

  private updatePickups(dt: number): void {
    this.pickupTimer -= dt;
    if (this.pickupTimer <= 0 && this.pickups.length < MAX_PICKUPS) {
      this.pickupTimer = 0.7 + this.rng.next() * 0.5;
      const [x, y] = this.freePoint(14);
      const type: PickupType = this.rng.next() < 0.6 ? 'health' : 'energy';
      const p: Pickup = {
        ...baseEntity(this.nextId(), 'pickup', x, y, 7),
        type,
        life: 7 + this.rng.next() * 4,
        bobPhase: this.rng.next() * Math.PI * 2,
        ...pickupLookAtSpawn(),
      };
      this.pickups.push(p);
      this.noteSpawn(p, type);
    }
    for (let i = this.pickups.length - 1; i >= 0; i--) {
      const p = this.pickups[i];
      p.life -= dt;
      p.angle = wrapAngle(p.angle + dt * 2.2);
      p.bobPhase += dt * 4;
      p.z = 4 + Math.sin(p.bobPhase) * 3;
      // A collected pickup pops (grows and fades), then despawns; it can be taken only once.
      if (stepPickupLook(p, dt)) {
        if (p.popAge >= POP_SECONDS) {
          this.pickups.splice(i, 1);
          this.noteDespawn(p);
        }
        continue;
      }
      let taker: Actor | null = null;
      for (const a of this.actorsIter()) {
        if (Math.hypot(a.x - p.x, a.y - p.y) < a.radius + p.radius + 4 && a.z < FLY_HEIGHT) {
          taker = a;
          break;
        }
      }
      if (taker !== null) {
        if (p.type === 'health') taker.hp = Math.min(taker.maxHp, taker.hp + 30);
        else if (taker === this.player) this.energyTimer = 4;
        this.events.push({ kind: 'pickup', subject: taker.id, x: p.x, y: p.y, value: p.type === 'health' ? 1 : 2 });
        p.popAge = 0;
      } else if (p.life <= 0) {
        this.pickups.splice(i, 1);
        this.noteDespawn(p);
      }
    }
  }

  private updateExplosions(dt: number): void {
    for (let i = this.explosions.length - 1; i >= 0; i--) {
      const e = this.explosions[i];
      e.age += dt;
      if (e.age >= EXPLOSION_DURATION) {
        this.explosions.splice(i, 1);
        this.events.push({ kind: 'explosion-end', subject: e.id, x: e.x, y: e.y, value: e.size });
      }
    }
  }

  private applyCrowdTarget(): void {
    const c = this.crowd;
    const target = Math.max(0, Math.min(MAX_MOVERS, this.crowdTarget | 0));
    while (c.count < target) {
      const id = this.nextId();
      c.add(id);
      // The label names the colour variant, so a re-created mover looks like the one that left.
      this.spawns.push({ id, kind: 'mover', label: MOVER_LABELS[c.variant[c.count - 1]] ?? 'mover' });
    }
    while (c.count > target) this.despawns.push(c.removeLast());
  }
}

function wrapAngle(a: number): number {
  return Math.atan2(Math.sin(a), Math.cos(a));
}

function baseEntity(id: number, kind: Kind, x: number, y: number, radius: number): Entity {
  return {
    id,
    kind,
    x,
    y,
    z: 0,
    angle: 0,
    vx: 0,
    vy: 0,
    vz: 0,
    radius,
    shape: 'circle',
    invMass: 1,
    restitution: 0.5,
    hp: 1,
    maxHp: 1,
    damageTimer: 0,
    alive: true,
  };
}
