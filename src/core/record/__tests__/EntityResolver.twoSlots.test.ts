import { describe, expect, it } from 'vitest';
import { GOLDEN, OpenLives } from '../OpenLives';
import { countKernelCalls, livesOf as lives, quiet, recordOps as frame } from './helpers';

/**
 * The kernel's `match` reads an out-of-place entry's home slot and the slot after it in one load and
 * compares both ids at once (lanes 0 and 2 of the four words; lanes 1 and 3 are list indices). These
 * pin what that load must not get wrong, on both backends (the JavaScript path probes slot by slot):
 * a life one slot past its home, a list index equal to the id sought, the last slot (whose
 * neighbour is the block's guard slot) and a probe that wraps to slot 0.
 */

/** Home slot of `id` in the 64-slot table a recorder of 16 entries per frame uses. */
function home(id: number): number {
  return Math.imul(id, GOLDEN) >>> 26;
}

/** The first `count` ids ≥ `from` whose home slot is `slot`. */
function idsAt(slot: number, count: number, from = 0): number[] {
  const out: number[] = [];
  for (let id = from; out.length < count; id++) if (home(id) === slot) out.push(id);
  return out;
}

describe.each([true, false])('EntityResolver: lives past their home slot (wasm %s)', (wasm) => {
  const make = () => quiet({ maxFrames: 8, maxEntitiesPerFrame: 16, wasm });

  it('finds lives one and two slots past their home in a reordered frame, in one kernel call', () => {
    const r = make();
    const calls = countKernelCalls(r, 'match');
    const [a, b, c] = idsAt(20, 3);
    const d = idsAt(21, 1)[0];
    frame(r, 0, [a, b, c, d]); // a at 20, b at 21, c at 22, d at 23
    frame(r, 1, [d, c, b, a]);
    frame(r, 2, [b, d, a, c]);
    expect(lives(r, 2)).toEqual([`${b}@0`, `${d}@0`, `${a}@0`, `${c}@0`]);
    if (calls !== null) expect(calls.calls).toBe(3);
  });

  it('does not take a list index equal to the id for the id (lane 1 of the load)', () => {
    // Id 2 sits two slots past its home, behind y (home, list index 2) and z: the home load reads
    // (y, 2, z, 3); a match on lane 1 would continue y's life for id 2.
    const r = make();
    const [y, z] = idsAt(home(2), 2, 3);
    const others = [idsAt((home(2) + 30) & 63, 1)[0], idsAt((home(2) + 40) & 63, 1)[0]];
    frame(r, 0, [others[0], others[1], y, z, 2]);
    frame(r, 1, [2, y, z, others[0], others[1]]);
    expect(lives(r, 1)).toEqual([`2@0`, `${y}@0`, `${z}@0`, `${others[0]}@0`, `${others[1]}@0`]);
    frame(r, 2, [z, 2, others[1], y, others[0]]);
    expect(lives(r, 2)).toEqual([`${z}@0`, `2@0`, `${others[1]}@0`, `${y}@0`, `${others[0]}@0`]);
  });

  it('finds a life at the last slot, and one wrapped to slot 0, with the table at its reserved size', () => {
    const r = make(); // 16 entries a frame: 64 slots reserved, in use from the start
    const [p, q, s] = idsAt(63, 3);
    const t = idsAt(0, 1)[0];
    frame(r, 0, [p, q, s, t]); // p at 63, q at 0, s at 1, t at 2
    frame(r, 1, [t, s, q, p]);
    frame(r, 2, [q, p, t, s]);
    expect(lives(r, 2)).toEqual([`${q}@0`, `${p}@0`, `${t}@0`, `${s}@0`]);
    // A new life whose home is the last slot, with the guard slot after it: a new life, not a match.
    const u = idsAt(63, 1, s + 1)[0];
    frame(r, 3, [u, q, p, t, s]);
    expect(lives(r, 3)).toEqual([`${u}@3`, `${q}@0`, `${p}@0`, `${t}@0`, `${s}@0`]);
  });
});

describe('OpenLives: the guard slot', () => {
  it('refuses a block without the guard slot after the reserved ones', () => {
    expect(() => new OpenLives(new Int32Array(2 * 64), 64)).toThrow(/128 words hold fewer than 64 \+ 1 slots/);
    expect(new OpenLives(new Int32Array(2 * 65), 64).size).toBe(64);
  });
});
