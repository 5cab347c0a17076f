import { SeededRandom } from './SeededRandom';

/**
 * The benchmark's game world: N entities that move and rotate smoothly in 3D, about 30% of them
 * asleep (perfectly still), with ids that are neither sorted nor contiguous and a few entities
 * spawning and despawning every frame. Everything is derived from one seed, so every peer of the
 * benchmark records exactly the same sequence of frames.
 *
 * The state is flat typed arrays indexed by slot (`0 .. count-1`), the way a data-oriented game
 * keeps it. Slots are not stable: a despawn moves the last entity into the freed slot, which keeps
 * the order of ids unsorted. Positions and rotations are float32, as a game stores them.
 *
 * The options make it look like harder games (issue 17): heavy churn (`churnPerFrame`), sparse ids
 * (`idSpace` up to 10^6 and beyond), and `order: 'sortY'`, every frame re-sorted by y as a 2D game
 * sorts for depth.
 */

/** Workload settings; see `DEFAULT_WORKLOAD_OPTIONS`. */
export interface WorkloadOptions {
  /** Entities alive in every frame. */
  entities: number;
  /** Seed of the deterministic random sequence. */
  seed: number;
  /** Probability that a spawned entity is asleep (it never moves during its life). */
  sleepingFraction: number;
  /** Entities despawned, and as many spawned, per frame after the first. */
  churnPerFrame: number;
  /** Ids are drawn from `[0, idSpace)`; 0 means `8 * entities`. Must exceed `entities + churnPerFrame`. */
  idSpace: number;
  /** Half the side of the square the entities move in (x and y); z stays within a tenth of it. */
  halfExtent: number;
  /** Top speed of an awake entity in the xy plane, in units per second (z drifts at up to a tenth of it). */
  maxSpeed: number;
  /** Top angular speed of an awake entity, in radians per second. */
  maxAngularSpeed: number;
  /** Simulation step in seconds. */
  dt: number;
  /**
   * The order of the entities in each frame: `slots`, the storage order (swap-remove on despawn, so
   * only the despawned slots change); `sortY`, every frame re-sorted by y, as a 2D game sorts for
   * depth (neighbours that crossed swap places, spawns land anywhere).
   */
  order: 'slots' | 'sortY';
}

/** The defaults merged under the options given to `new Workload(...)`. */
export const DEFAULT_WORKLOAD_OPTIONS: Readonly<WorkloadOptions> = {
  entities: 1000,
  seed: 0x5eed,
  sleepingFraction: 0.3,
  churnPerFrame: 4,
  idSpace: 0,
  halfExtent: 2000,
  maxSpeed: 120,
  maxAngularSpeed: 3,
  dt: 1 / 60,
  order: 'slots',
};

/** `sortY` sorts keys y-rank × 2^SLOT_BITS + slot: at most 2^SLOT_BITS slots. */
const SLOT_BITS = 17;
/** Levels y is quantised to in a sort key (ties keep the slot order). */
const Y_LEVELS = 2 ** 30;

/** Display flag toggled on a few entities per frame (same bit as `EntityFlags.DAMAGED`). */
const FLAG_DAMAGED = 1;
/** Flags a spawned entity may carry for its whole life (user bits 0x04..0x40). */
const FLAG_USER_MASK = 0x7c;

/** `a[0..n)` reordered so that position k holds what slot `perm[k]` held (through `scratch`). */
function permute<T extends Int32Array | Float32Array | Uint8Array>(
  a: T,
  perm: Int32Array,
  n: number,
  scratch: T,
): void {
  for (let k = 0; k < n; k++) scratch[k] = a[perm[k]];
  a.set(scratch.subarray(0, n));
}

/**
 * The benchmark world. Call `step()` once per frame: the first call spawns the initial
 * population, every later one despawns `churnPerFrame` entities, spawns as many, and moves the
 * awake ones. After a step, `ids[0..count)` and the parallel arrays describe the frame, and
 * `spawned`/`despawned` list that frame's churn.
 *
 * @example
 * const world = new Workload({ entities: 1000, seed: 7 });
 * for (let f = 0; f < 100; f++) {
 *   world.step();
 *   for (let i = 0; i < world.count; i++) record(world.ids[i], world.x[i], world.y[i], world.z[i]);
 * }
 */
export class Workload {
  public readonly options: Readonly<WorkloadOptions>;
  /** Most entities alive at once (the arrays' length). */
  public readonly capacity: number;
  /** Ids are integers in `[0, idSpace)`. */
  public readonly idSpace: number;
  /** Entities alive in the current frame. */
  public count = 0;
  /** Current frame number: -1 before the first `step()`. */
  public frame = -1;
  /** Game time of the current frame, in seconds. */
  public time = 0;
  public readonly ids: Int32Array;
  public readonly x: Float32Array;
  public readonly y: Float32Array;
  public readonly z: Float32Array;
  public readonly qx: Float32Array;
  public readonly qy: Float32Array;
  public readonly qz: Float32Array;
  public readonly qw: Float32Array;
  public readonly flags: Uint8Array;
  /** 1 when the entity in that slot is asleep. */
  public readonly asleep: Uint8Array;
  /** Ids that appeared this frame (`spawned[0..spawnedCount)`). */
  public readonly spawned: Int32Array;
  public spawnedCount = 0;
  /** Ids that disappeared this frame (they were alive in the previous one). */
  public readonly despawned: Int32Array;
  public despawnedCount = 0;

  private readonly rng: SeededRandom;
  // Motion of each slot: velocity, and the constant per-frame rotation increment (a unit quaternion).
  private readonly vx: Float32Array;
  private readonly vy: Float32Array;
  private readonly vz: Float32Array;
  private readonly dqx: Float32Array;
  private readonly dqy: Float32Array;
  private readonly dqz: Float32Array;
  private readonly dqw: Float32Array;
  // Free ids, a FIFO queue: spawns take from the head, despawned ids join the tail.
  private readonly freeIds: Int32Array;
  private freeHead = 0;
  private freeCount = 0;
  /** `sortY`: the sort keys, and a scratch column the permutation goes through. */
  private readonly sortKeys: Float64Array;
  private readonly perm: Int32Array;
  private readonly scratchI32: Int32Array;
  private readonly scratchF32: Float32Array;
  private readonly scratchU8: Uint8Array;

  public constructor(options: Partial<WorkloadOptions> = {}) {
    const o: WorkloadOptions = { ...DEFAULT_WORKLOAD_OPTIONS, ...options };
    if (!(o.entities >= 1 && (o.entities | 0) === o.entities)) {
      throw new RangeError(`Workload: entities must be a positive integer (got ${o.entities})`);
    }
    if (!(o.churnPerFrame >= 0 && (o.churnPerFrame | 0) === o.churnPerFrame && o.churnPerFrame <= o.entities)) {
      throw new RangeError(`Workload: churnPerFrame must be an integer in [0, entities] (got ${o.churnPerFrame})`);
    }
    if (!(o.sleepingFraction >= 0 && o.sleepingFraction <= 1)) {
      throw new RangeError(`Workload: sleepingFraction must be in [0, 1] (got ${o.sleepingFraction})`);
    }
    const idSpace = o.idSpace === 0 ? 8 * o.entities : o.idSpace;
    if (!(idSpace > o.entities + o.churnPerFrame && (idSpace | 0) === idSpace)) {
      throw new RangeError(`Workload: idSpace must be an integer above entities + churnPerFrame (got ${idSpace})`);
    }
    if (o.order !== 'slots' && o.order !== 'sortY')
      throw new RangeError(`Workload: order must be 'slots' or 'sortY' (got ${String(o.order)})`);
    if (o.order === 'sortY' && o.entities + o.churnPerFrame > 2 ** SLOT_BITS) {
      throw new RangeError(`Workload: order 'sortY' takes at most ${2 ** SLOT_BITS} entities + churn`);
    }
    this.options = Object.freeze({ ...o, idSpace });
    this.idSpace = idSpace;
    this.capacity = o.entities + o.churnPerFrame;
    const n = this.capacity;
    this.ids = new Int32Array(n);
    this.x = new Float32Array(n);
    this.y = new Float32Array(n);
    this.z = new Float32Array(n);
    this.qx = new Float32Array(n);
    this.qy = new Float32Array(n);
    this.qz = new Float32Array(n);
    this.qw = new Float32Array(n);
    this.flags = new Uint8Array(n);
    this.asleep = new Uint8Array(n);
    this.vx = new Float32Array(n);
    this.vy = new Float32Array(n);
    this.vz = new Float32Array(n);
    this.dqx = new Float32Array(n);
    this.dqy = new Float32Array(n);
    this.dqz = new Float32Array(n);
    this.dqw = new Float32Array(n);
    this.spawned = new Int32Array(Math.max(o.entities, o.churnPerFrame));
    this.despawned = new Int32Array(Math.max(1, o.churnPerFrame));
    const sorted = o.order === 'sortY';
    this.sortKeys = new Float64Array(sorted ? n : 0);
    this.perm = new Int32Array(sorted ? n : 0);
    this.scratchI32 = new Int32Array(sorted ? n : 0);
    this.scratchF32 = new Float32Array(sorted ? n : 0);
    this.scratchU8 = new Uint8Array(sorted ? n : 0);
    this.rng = new SeededRandom(o.seed);
    // Every id starts free, in a shuffled order: spawns get ids in no particular order and with gaps.
    this.freeIds = new Int32Array(idSpace);
    for (let i = 0; i < idSpace; i++) this.freeIds[i] = i;
    for (let i = idSpace - 1; i > 0; i--) {
      const j = this.rng.below(i + 1);
      const t = this.freeIds[i];
      this.freeIds[i] = this.freeIds[j];
      this.freeIds[j] = t;
    }
    this.freeCount = idSpace;
  }

  /** Simulation step in seconds. */
  public get dt(): number {
    return this.options.dt;
  }

  /** Advances to the next frame: churn, then motion. */
  public step(): void {
    this.frame++;
    this.time = this.frame * this.options.dt;
    this.spawnedCount = 0;
    this.despawnedCount = 0;
    if (this.frame === 0) {
      for (let i = 0; i < this.options.entities; i++) this.spawn();
      if (this.options.order === 'sortY') this.sortByY();
      return;
    }
    const churn = this.options.churnPerFrame;
    for (let i = 0; i < churn; i++) this.despawnAt(this.rng.below(this.count));
    for (let i = 0; i < churn; i++) this.spawn();
    // A few entities get hurt or recover: a display flag that changes from frame to frame.
    for (let i = 0; i < churn; i++) this.flags[this.rng.below(this.count)] ^= FLAG_DAMAGED;
    this.move();
    if (this.options.order === 'sortY') this.sortByY();
  }

  /**
   * Re-sorts every slot by y (ascending; equal quantised y keeps the slot order), moving all the
   * per-slot state with it.
   */
  private sortByY(): void {
    const n = this.count;
    const keys = this.sortKeys;
    const h = this.options.halfExtent;
    const slots = 2 ** SLOT_BITS;
    for (let s = 0; s < n; s++) {
      const t = Math.min(Y_LEVELS - 1, Math.max(0, Math.floor(((this.y[s] + h) / (2 * h)) * Y_LEVELS)));
      keys[s] = t * slots + s;
    }
    keys.subarray(0, n).sort();
    const perm = this.perm;
    // keys[k] % slots is the slot that goes to position k.
    for (let k = 0; k < n; k++) perm[k] = keys[k] % slots;
    permute(this.ids, perm, n, this.scratchI32);
    permute(this.x, perm, n, this.scratchF32);
    permute(this.y, perm, n, this.scratchF32);
    permute(this.z, perm, n, this.scratchF32);
    permute(this.qx, perm, n, this.scratchF32);
    permute(this.qy, perm, n, this.scratchF32);
    permute(this.qz, perm, n, this.scratchF32);
    permute(this.qw, perm, n, this.scratchF32);
    permute(this.vx, perm, n, this.scratchF32);
    permute(this.vy, perm, n, this.scratchF32);
    permute(this.vz, perm, n, this.scratchF32);
    permute(this.dqx, perm, n, this.scratchF32);
    permute(this.dqy, perm, n, this.scratchF32);
    permute(this.dqz, perm, n, this.scratchF32);
    permute(this.dqw, perm, n, this.scratchF32);
    permute(this.flags, perm, n, this.scratchU8);
    permute(this.asleep, perm, n, this.scratchU8);
  }

  private spawn(): void {
    const s = this.count++;
    const id = this.freeIds[this.freeHead];
    this.freeHead = (this.freeHead + 1) % this.idSpace;
    this.freeCount--;
    this.ids[s] = id;
    this.spawned[this.spawnedCount++] = id;
    const r = this.rng;
    const h = this.options.halfExtent;
    this.x[s] = r.range(-h, h);
    this.y[s] = r.range(-h, h);
    this.z[s] = r.range(-h * 0.1, h * 0.1);
    // A uniformly random orientation: a point drawn uniformly in the unit 4-ball, projected onto S3.
    let ax = 0,
      ay = 0,
      az = 0,
      aw = 0,
      n2 = 0;
    do {
      ax = r.range(-1, 1);
      ay = r.range(-1, 1);
      az = r.range(-1, 1);
      aw = r.range(-1, 1);
      n2 = ax * ax + ay * ay + az * az + aw * aw;
    } while (n2 > 1 || n2 < 1e-6);
    const inv = 1 / Math.sqrt(n2);
    this.qx[s] = ax * inv;
    this.qy[s] = ay * inv;
    this.qz[s] = az * inv;
    this.qw[s] = aw * inv;
    const userBits = r.nextUint32() & FLAG_USER_MASK;
    this.flags[s] = r.next() < 0.25 ? userBits : 0;
    const sleeping = r.next() < this.options.sleepingFraction;
    this.asleep[s] = sleeping ? 1 : 0;
    // Motion: a heading and speed, and a constant rotation about a random axis.
    const speed = sleeping ? 0 : r.range(0.2, 1) * this.options.maxSpeed;
    const heading = r.range(0, 2 * Math.PI);
    this.vx[s] = Math.cos(heading) * speed;
    this.vy[s] = Math.sin(heading) * speed;
    this.vz[s] = r.range(-0.1, 0.1) * speed;
    let ux = 0,
      uy = 0,
      uz = 0,
      u2 = 0;
    do {
      ux = r.range(-1, 1);
      uy = r.range(-1, 1);
      uz = r.range(-1, 1);
      u2 = ux * ux + uy * uy + uz * uz;
    } while (u2 > 1 || u2 < 1e-6);
    const ui = 1 / Math.sqrt(u2);
    const omega = sleeping ? 0 : r.range(0.1, 1) * this.options.maxAngularSpeed;
    const half = 0.5 * omega * this.options.dt;
    const sh = Math.sin(half);
    this.dqx[s] = ux * ui * sh;
    this.dqy[s] = uy * ui * sh;
    this.dqz[s] = uz * ui * sh;
    this.dqw[s] = Math.cos(half);
  }

  /** Removes the entity in slot `s`; the last slot moves into it. */
  private despawnAt(s: number): void {
    const id = this.ids[s];
    this.despawned[this.despawnedCount++] = id;
    this.freeIds[(this.freeHead + this.freeCount) % this.idSpace] = id;
    this.freeCount++;
    const last = --this.count;
    if (s === last) return;
    this.ids[s] = this.ids[last];
    this.x[s] = this.x[last];
    this.y[s] = this.y[last];
    this.z[s] = this.z[last];
    this.qx[s] = this.qx[last];
    this.qy[s] = this.qy[last];
    this.qz[s] = this.qz[last];
    this.qw[s] = this.qw[last];
    this.flags[s] = this.flags[last];
    this.asleep[s] = this.asleep[last];
    this.vx[s] = this.vx[last];
    this.vy[s] = this.vy[last];
    this.vz[s] = this.vz[last];
    this.dqx[s] = this.dqx[last];
    this.dqy[s] = this.dqy[last];
    this.dqz[s] = this.dqz[last];
    this.dqw[s] = this.dqw[last];
  }

  /** Integrates positions (bouncing off the bounds) and rotations of the awake entities. */
  private move(): void {
    const dt = this.options.dt;
    const h = this.options.halfExtent;
    const hz = h * 0.1;
    const { x, y, z, vx, vy, vz, qx, qy, qz, qw, dqx, dqy, dqz, dqw, asleep } = this;
    for (let s = 0; s < this.count; s++) {
      if (asleep[s] === 1) continue;
      let px = x[s] + vx[s] * dt;
      let py = y[s] + vy[s] * dt;
      let pz = z[s] + vz[s] * dt;
      if (px > h || px < -h) {
        vx[s] = -vx[s];
        px = px > h ? h : -h;
      }
      if (py > h || py < -h) {
        vy[s] = -vy[s];
        py = py > h ? h : -h;
      }
      if (pz > hz || pz < -hz) {
        vz[s] = -vz[s];
        pz = pz > hz ? hz : -hz;
      }
      x[s] = px;
      y[s] = py;
      z[s] = pz;
      // q' = dq * q, renormalised so float32 rounding never drifts the length.
      const ax = dqx[s],
        ay = dqy[s],
        az = dqz[s],
        aw = dqw[s];
      const bx = qx[s],
        by = qy[s],
        bz = qz[s],
        bw = qw[s];
      const rx = aw * bx + ax * bw + ay * bz - az * by;
      const ry = aw * by - ax * bz + ay * bw + az * bx;
      const rz = aw * bz + ax * by - ay * bx + az * bw;
      const rw = aw * bw - ax * bx - ay * by - az * bz;
      const inv = 1 / Math.sqrt(rx * rx + ry * ry + rz * rz + rw * rw);
      qx[s] = rx * inv;
      qy[s] = ry * inv;
      qz[s] = rz * inv;
      qw[s] = rw * inv;
    }
  }
}
