import { describe, expect, it } from 'vitest';
import type { Recorder } from '../Recorder';
import { countKernelCalls, quiet, livesOf as lives } from './helpers';

/** Counts the resolver's calls into the kernel's `match` (the test needs the WebAssembly kernel). */
function countMatchCalls(r: Recorder): { calls: number } {
  const count = countKernelCalls(r, 'match');
  if (count === null) throw new Error('no WebAssembly kernel here');
  return count;
}

describe('EntityResolver: runs of new lives', () => {
  it('resolves a run of spawns in one pass, then hands the entries that continue back to the kernel', () => {
    const r = quiet({ maxFrames: 8, maxEntitiesPerFrame: 1024 });
    const calls = countMatchCalls(r);
    r.beginFrame(0, 1 / 60);
    for (let id = 0; id < 100; id++) r.entity(id, id, 0, 0, 0, 0, 0, 1);
    r.endFrame();
    // Frame 1: 30 despawned, the survivors in place, then a run of 300 spawns (one recorded twice,
    // one an id that just died: a new life), then survivors out of place, then in place again.
    r.beginFrame(1 / 60, 1 / 60);
    for (let id = 70; id < 100; id++) r.despawn(id);
    const order: number[] = [];
    for (let id = 0; id < 50; id++) order.push(id);
    for (let id = 1000; id < 1300; id++) order.push(id);
    order.splice(60, 0, 1010, 75);
    for (let id = 69; id >= 50; id--) order.push(id);
    for (const id of order) r.entity(id, id, 1, 0, 0, 0, 0, 1);
    calls.calls = 0;
    r.endFrame();
    // The first entry of 1010 (spliced in ahead of its place in the run) is kept, the second dropped.
    const second = order.lastIndexOf(1010);
    const want = order.filter((_, k) => k !== second).map((id) => `${id}@${id < 70 ? 0 : 1}`);
    expect(lives(r, 1)).toEqual(want);
    expect(r.stats.duplicateIds).toBe(1);
    // One call up to the run, one after it, and the survivors out of place: not one per spawn.
    expect(calls.calls).toBeLessThan(30);
    // The next frame continues every life, the spawned ones included, in the kernel.
    r.beginFrame(2 / 60, 1 / 60);
    for (const id of order) r.entity(id, id, 2, 0, 0, 0, 0, 1);
    r.endFrame();
    expect(lives(r, 2)).toEqual(want);
  });
});
