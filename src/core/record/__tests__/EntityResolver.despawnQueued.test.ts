import { describe, expect, it, vi } from 'vitest';
import type { EntityResolver } from '../EntityResolver';
import type { Recorder } from '../Recorder';
import { countKernelCalls, livesOf as lives, quiet, recordOps as frame, resolverOf } from './helpers';

/**
 * The despawns queued before a frame's first entry, which the kernel's `despawn` ends in one call
 * (EntityResolver.despawnQueued): the same lives as the JavaScript path (`wasm: false`, one
 * `endLife` each), more of them than the frame holds entries, and the resolver's counts.
 */

/** The resolver's count of open lives in its hash. */
function openLives(r: Recorder): number {
  return (resolverOf(r) as unknown as { lives: { live: number } }).lives.live;
}

/** Counts the calls of the resolver's search for lives that died by absence. */
function countDeathSearches(r: Recorder): { calls: number } {
  const resolver = resolverOf(r) as unknown as { collectDeaths: (frame: number) => void };
  const count = { calls: 0 };
  const collect = resolver.collectDeaths.bind(resolver);
  vi.spyOn(resolver, 'collectDeaths').mockImplementation((f: number) => {
    count.calls++;
    collect(f);
  });
  return count;
}

describe.each([true, false])('EntityResolver: despawns queued before the entries (wasm %s)', (wasm) => {
  it('runs on the kernel when there is one: one call for the despawns that name open lives', () => {
    const r = quiet({ maxFrames: 8, maxEntitiesPerFrame: 8, wasm });
    const calls = countKernelCalls(r, 'despawn');
    expect(calls !== null).toBe(wasm);
    frame(r, 0, [1, 2, 3, 4]);
    frame(r, 1, ['-1', '-3', 2, 4]);
    if (calls !== null) expect(calls.calls).toBe(1);
    // A despawn queued after an entry is not before the first one: `endLife`, as before (the entry
    // of 4 staged after it starts a new life).
    frame(r, 2, [2, '-4', 4]);
    if (calls !== null) expect(calls.calls).toBe(1);
    expect(lives(r, 2)).toEqual(['2@0', '4@2']);
    frame(r, 3, [2, 4]);
    expect(lives(r, 3)).toEqual(['2@0', '4@2']);
  });

  it('ends every life named, past the first batch of a frame’s capacity', () => {
    // Capacity 4: the ten despawns go through the kernel four at a time. The first eight name no
    // open life (the JavaScript path ends nothing for them); the last two end 1 and 2, whose entries
    // then start new lives.
    const r = quiet({ maxFrames: 8, maxEntitiesPerFrame: 4, wasm });
    frame(r, 0, [1, 2, 3, 4]);
    frame(r, 1, ['-100', '-101', '-102', '-103', '-104', '-105', '-106', '-107', '-1', '-2', 1, 2, 3, 4]);
    expect(lives(r, 1)).toEqual(['1@1', '2@1', '3@0', '4@0']);
    expect(r.entities.lastFrame(r.entities.lookup(3))).toBe(1);
    frame(r, 2, [3, 4]);
    expect(lives(r, 2)).toEqual(['3@0', '4@0']);
  });

  it('takes, in its last batch, only the despawns queued before the first entry', () => {
    // Six before the entries (batches of 4 and 2), then one after the entry of 3: that one ends 3's
    // life after its entry continued it, not before (which would make the entry a new life).
    const r = quiet({ maxFrames: 8, maxEntitiesPerFrame: 4, wasm });
    frame(r, 0, [1, 2, 3, 4]);
    frame(r, 1, ['-100', '-101', '-102', '-103', '-104', '-1', 2, 3, '-3', 4]);
    expect(lives(r, 1)).toEqual(['2@0', '3@0', '4@0']);
    frame(r, 2, [2, 3, 4]);
    expect(lives(r, 2)).toEqual(['2@0', '3@2', '4@0']);
  });

  it('ends the lives in the hash: its count of open lives drops, and a colliding life is still found', () => {
    // 64 lives fill a hash of 256 slots enough that some share a probe sequence; ending every third
    // moves the ones after it back (backward-shift deletion), and every survivor must continue.
    const r = quiet({ maxFrames: 8, maxEntitiesPerFrame: 128, wasm });
    const ids = Array.from({ length: 64 }, (_, k) => 7 + 13 * k);
    frame(r, 0, ids);
    expect(openLives(r)).toBe(64);
    const gone = ids.filter((_, k) => k % 3 === 0);
    const kept = ids.filter((_, k) => k % 3 !== 0);
    frame(r, 1, [...gone.map((id) => `-${id}` as const), ...kept]);
    expect(openLives(r)).toBe(kept.length);
    expect(lives(r, 1)).toEqual(kept.map((id) => `${id}@0`));
    // The ended ids start new lives; the others still continue theirs.
    frame(r, 2, [...gone, ...kept]);
    expect(lives(r, 2)).toEqual([...gone.map((id) => `${id}@2`), ...kept.map((id) => `${id}@0`)]);
    expect(openLives(r)).toBe(64);
  });

  it('ends a life once when despawned twice, and an unknown or out-of-range id ends nothing', () => {
    const r = quiet({ maxFrames: 8, maxEntitiesPerFrame: 8, maxEntityId: 1000, wasm });
    frame(r, 0, [1, 2, 3]);
    frame(r, 1, ['-2', '-2', '-999', '-5000', '-3', 1, 2]);
    expect(lives(r, 1)).toEqual(['1@0', '2@1']);
    // Kernel calls from past an id it stopped at count only the lives they ended.
    expect(openLives(r)).toBe(2);
    const resolver: EntityResolver = resolverOf(r);
    expect(resolver.dropped).toBe(0);
    frame(r, 2, [1, 2, 3]);
    expect(lives(r, 2)).toEqual(['1@0', '2@1', '3@2']);
  });

  it('does not search for deaths when every life that left was despawned', () => {
    const r = quiet({ maxFrames: 8, maxEntitiesPerFrame: 8, wasm });
    const searches = countDeathSearches(r);
    frame(r, 0, [1, 2, 3, 4]);
    frame(r, 1, ['-2', '-4', 1, 3]);
    expect(searches.calls).toBe(0);
    // A life that left without a despawn: the search runs, and finds it.
    frame(r, 2, [1]);
    expect(searches.calls).toBe(1);
    expect(r.entities.lastFrame(r.entities.lookup(3))).toBe(1);
  });
});
