import type { Rig } from './rig';

/** Entity kinds; each is also the `kind` the recorder is told, so a despawned one can be re-created. */
export type Kind = 'player' | 'agent' | 'ball' | 'crate' | 'projectile' | 'pickup' | 'mover';

/** Every kind, in drawing order (bottom first). */
export const KINDS: readonly Kind[] = ['mover', 'pickup', 'crate', 'ball', 'agent', 'player', 'projectile'];

/** Collision shape of a body: a circle of `radius`, or an axis-aligned box of half-size `radius`. */
export type Shape = 'circle' | 'box';

/** What every simulated entity (except the crowd, which is stored as arrays) has. */
export interface Entity {
  /** Numeric id, unique for the whole run (never reused). */
  readonly id: number;
  readonly kind: Kind;
  x: number;
  y: number;
  /** Height above the floor (jumps, bouncing pickups). */
  z: number;
  /** Rotation about z (radians): facing for actors, spin for balls and pickups. */
  angle: number;
  vx: number;
  vy: number;
  vz: number;
  radius: number;
  shape: Shape;
  invMass: number;
  restitution: number;
  hp: number;
  maxHp: number;
  /** Seconds left showing the damage tint. */
  damageTimer: number;
  alive: boolean;
}

/** Decision states of an agent. */
export type AgentState = 'patrol' | 'chase' | 'attack' | 'flee';

/** The player and the agents: skeletal characters that walk, run, jump and shoot. */
export interface Actor extends Entity {
  readonly rig: Rig;
  /** Seconds until the next shot is allowed. */
  cooldown: number;
  /** Whether the actor is aiming (raises the right arm). */
  aiming: boolean;
}

/** An AI agent: the decision state machine's memory. */
export interface Agent extends Actor {
  readonly name: string;
  readonly squad: number;
  /** Position in the squad: 0 leads, 1 and 2 follow in formation. */
  readonly slot: number;
  state: AgentState;
  /** Seconds spent in the current state. */
  stateTime: number;
  /** Seconds since the player was last seen. */
  lostTime: number;
  /** 0..100: drains while running (chase, flee), refills otherwise. Recorded; drives nothing yet. */
  stamina: number;
  lastSeenX: number;
  lastSeenY: number;
  /** Where the agent is heading now (path waypoint or steering target). */
  targetX: number;
  targetY: number;
  /** Path waypoints (x, y pairs) and the index of the next one. */
  readonly path: Float32Array;
  pathLength: number;
  pathIndex: number;
  /** Seconds until the path is recomputed. */
  replan: number;
  /** Index into the squad's patrol route. */
  waypoint: number;
  /** Whether the agent saw the player this step (drawn as a filled cone). */
  seesPlayer: boolean;
  /** Node indices expanded by this agent's last path search (the spam mode draws them). */
  readonly visited: Int32Array;
  visitedCount: number;
}

/** A projectile: moves straight, hurts what it hits, dies after `life` seconds. */
export interface Projectile extends Entity {
  readonly owner: number;
  readonly fromPlayer: boolean;
  life: number;
  readonly damage: number;
}

/** Pickup kinds. */
export type PickupType = 'health' | 'energy';

/**
 * A pickup: sits on the floor bobbing and glinting, collected by touching it (it then pops: grows and
 * fades for `POP_SECONDS`, see pickupLook.ts), expires. `scale`, `alpha` and `glintFrame` are what
 * it looks like (recorded as 2D display state).
 */
export interface Pickup extends Entity {
  readonly type: PickupType;
  life: number;
  bobPhase: number;
  /** Seconds since it was collected, or -1 while it lies on the floor. */
  popAge: number;
  scale: number;
  alpha: number;
  /** Seconds of glint animation (it drives `glintFrame`). */
  glintTime: number;
  /** The glint animation frame shown, in [0, GLINT_FRAMES). */
  glintFrame: number;
}

/** A live explosion. Its look is a pure function of its age (see `view/explosionFx.ts`). */
export interface Explosion {
  /** Taken from the entity id counter so it never equals an entity id. */
  readonly id: number;
  readonly x: number;
  readonly y: number;
  /** Blast radius in world units. */
  readonly size: number;
  age: number;
}

/** Lifetime of every explosion, in seconds. */
export const EXPLOSION_DURATION = 0.9;

/** A record of an entity life starting this step, for the recorder (`describe`) and the view. */
export interface SpawnNote {
  readonly id: number;
  readonly kind: Kind;
  readonly label: string;
}

/** A game event this step (timeline marker): explosions start/end, hits, deaths, pickups. */
export interface GameEvent {
  readonly kind: 'explosion-start' | 'explosion-end' | 'hit' | 'death' | 'pickup';
  /** Entity id the event concerns (the explosion id for explosions), or -1. */
  readonly subject: number;
  readonly x: number;
  readonly y: number;
  /** Explosion size, damage dealt, ... */
  readonly value: number;
}
