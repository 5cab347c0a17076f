import type { EntityKernel } from '../../kernel/EntityKernel';
import { EntityBuffer } from '../../read/buffers';
import type { EntityResolver } from '../EntityResolver';
import { Recorder } from '../Recorder';
import type { RecorderOptions } from '../RecorderOptions';

/** A recorder whose warnings are collected (read them with `warningsOf`) instead of printed. */
export function quiet(o: Partial<RecorderOptions> = {}): Recorder {
  const warnings: string[] = [];
  const r = new Recorder({ onWarning: (m) => warnings.push(m), ...o });
  (r as unknown as { warnings: string[] }).warnings = warnings;
  return r;
}
/** The warnings a `quiet` recorder collected. */
export function warningsOf(r: Recorder): string[] {
  return (r as unknown as { warnings: string[] }).warnings;
}
/** Every channel. */
export const ALL = 0xffffffff;

/** The lives frame `f` holds, in its order, as `id@spawnFrame`. */
export function livesOf(r: Recorder, f: number): string[] {
  const e = new EntityBuffer();
  r.reader.readEntities(f, e);
  return Array.from(e.handles.subarray(0, e.count)).map((h) => `${r.entities.ids[h]}@${r.entities.spawnFrames[h]}`);
}

/** The handle of the life of `id` that began in `spawn`, or -1. */
export function handleOf(r: Recorder, id: number, spawn: number): number {
  const t = r.entities;
  for (let h = 0; h < t.highWater; h++) if (t.used[h] === 1 && t.ids[h] === id && t.spawnFrames[h] === spawn) return h;
  return -1;
}

/**
 * Records frame `f`: each number an entity at (id, f, 0) with the identity rotation, a `-id` a
 * despawn, an `nid` an entity with a NaN position.
 */
export function recordOps(r: Recorder, f: number, ops: Array<number | `-${number}` | `n${number}`>): void {
  r.beginFrame(f, 1 / 60);
  for (const op of ops) {
    if (typeof op === 'number') r.entity(op, op, f, 0, 0, 0, 0, 1);
    else if (op[0] === '-') r.despawn(Number(op.slice(1)));
    else r.entity(Number(op.slice(1)), Number.NaN, f, 0, 0, 0, 0, 1);
  }
  r.endFrame();
}

/** The recorder's resolver (private). */
export function resolverOf(r: Recorder): EntityResolver {
  return (r as unknown as { resolver: EntityResolver }).resolver;
}

/**
 * `resolve` called directly on staged entries (id, x = id, the identity rotation), as the
 * recorder's stage would stage them, after queueing `despawns` (id, at); no arena is written.
 */
export function resolveDirect(r: Recorder): (f: number, ids: number[], despawns?: Array<[number, number]>) => number {
  const resolver = resolverOf(r);
  const kernel = (r as unknown as { kernel: EntityKernel }).kernel;
  return (f, ids, despawns = []) => {
    resolver.begin();
    ids.forEach((id, i) => {
      resolver.ids[i] = id;
      resolver.flags[i] = 0;
      kernel.x[i] = id;
      kernel.y[i] = 0;
      kernel.z[i] = 0;
      kernel.qx[i] = 0;
      kernel.qy[i] = 0;
      kernel.qz[i] = 0;
      kernel.qw[i] = 1;
    });
    for (const [id, at] of despawns) resolver.despawn(id, at);
    return resolver.resolve(f, ids.length, -1, false);
  };
}

/**
 * Counts the calls into one of the recorder's WebAssembly kernel functions from now on, or returns
 * null when the recorder has no WebAssembly kernel.
 */
export function countKernelCalls(r: Recorder, name: 'match' | 'despawn'): { calls: number } | null {
  const kernel = (r as unknown as { kernel: Record<string, ((...a: number[]) => number) | null> }).kernel;
  const fn = kernel[name];
  if (fn === null) return null;
  const count = { calls: 0 };
  Object.defineProperty(kernel, name, {
    value: (...a: number[]): number => {
      count.calls++;
      return fn(...a);
    },
  });
  return count;
}
