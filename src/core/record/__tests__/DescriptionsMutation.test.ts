import { describe, expect, it } from 'vitest';
import { EntityTable } from '../../store/EntityTable';
import { DeathQueue } from '../DeathQueue';
import { PendingDescriptions } from '../PendingDescriptions';
import type { Recorder } from '../Recorder';
import { quiet, warningsOf } from './helpers';

/**
 * Descriptions.ts, DeathQueue.ts and PendingDescriptions.ts (issue 20, sixth pass): the survivors of
 * run `reclives` that a test can tell apart. Through the recorder, every life of an id is listed with
 * its description, so that a description landing on the wrong life (an ended one, an older one) shows.
 * Each case names the mutants it kills.
 */

/** Every life of `id` the table holds, oldest first: `spawnFrame-lastFrame:kind/label`, kind `-` when none. */
function livesOf(r: Recorder, id: number): string[] {
  const t = r.entities;
  const out: Array<[number, string]> = [];
  for (let h = 0; h < t.highWater; h++) {
    if (t.used[h] !== 1 || t.ids[h] !== id) continue;
    const kind = t.kindOf[h] < 0 ? '-' : t.kinds[t.kindOf[h]];
    out.push([t.spawnFrames[h], `${t.spawnFrames[h]}-${t.lastFrame(h)}:${kind}/${t.labels[h] ?? ''}`]);
  }
  return out.sort((a, b) => a[0] - b[0]).map((e) => e[1]);
}

function record(r: Recorder, frame: number, ids: number[], between?: () => void): void {
  r.beginFrame(frame, 1);
  for (const id of ids) r.entity(id, id, 0, 0, 0, 0, 0, 1);
  between?.();
  r.endFrame();
}

describe('Descriptions: which life a description names', () => {
  // Kills Descriptions.describe's `if (openFrame < 0)` (the lookup of the newest frame's life) →
  // `true`: inside frame 1 the id's life of frame 0 is still the newest frame's open life, and the
  // mutant names it at once; it must wait, since frame 1 does not record the id (its life ends).
  // Also afterFrame's `h >= 0 && t.lastFrame(h) === frame` → `h >= 0` / `true` (the ended life
  // named because the id map still finds it).
  it('inside a frame, an id alive in the previous frame but not recorded in this one waits for its next life', () => {
    const r = quiet();
    record(r, 0, [3, 4]);
    record(r, 1, [4], () => r.describe(3, 'crate', 'next life'));
    expect(livesOf(r, 3)).toEqual(['0-0:-/']);
    record(r, 2, [3, 4]);
    expect(livesOf(r, 3)).toEqual(['0-0:-/', '2-2:crate/next life']);
    expect(warningsOf(r)).toEqual([]);
  });

  // Kills describe's `h >= 0` → `h > 0` between frames: the first life recorded holds handle 0, and
  // a description made after its frame names it at once (not its next life).
  it('between frames, the life of handle 0 is described at once', () => {
    const r = quiet();
    record(r, 0, [9, 10]);
    expect(r.entities.lookup(9)).toBe(0);
    r.describe(9, 'first', 'handle 0');
    expect(livesOf(r, 9)).toEqual(['0-0:first/handle 0']);
    record(r, 1, [9]);
    expect(livesOf(r, 9)).toEqual(['0-1:first/handle 0']);
  });

  // Kills describe's `!t.isEnded(h)` → `true`, and `t.lastFrame(h) === newest` → `true`: a life
  // despawned between frames, or absent from the newest frame, is over; its description waits for
  // the id's next life instead of naming the ended one.
  it('between frames, a despawned life or one absent from the newest frame is not described; the next life is', () => {
    const r = quiet();
    record(r, 0, [1, 2, 3]);
    r.despawn(1);
    r.describe(1, 'after despawn', 'a');
    record(r, 1, [3]);
    r.describe(2, 'after absence', 'b');
    expect(livesOf(r, 1)).toEqual(['0-0:-/']);
    expect(livesOf(r, 2)).toEqual(['0-0:-/']);
    record(r, 2, [1, 2, 3]);
    expect(livesOf(r, 1)).toEqual(['0-0:-/', '2-2:after despawn/a']);
    expect(livesOf(r, 2)).toEqual(['0-0:-/', '2-2:after absence/b']);
    expect(livesOf(r, 3)).toEqual(['0-2:-/']);
  });

  // Kills describe's second `if (openFrame < 0)` → `openFrame <= 0` (and the first, which then
  // finds no life in frame 0): in frame 0 the description would wait in the pending list and be
  // taken by the first life the frame begins for the id, the one despawned within the frame,
  // instead of the newest.
  it('in frame 0, a life begun, despawned and begun again: the description names the newest', () => {
    const r = quiet();
    r.beginFrame(0, 1);
    r.entity(6, 0, 0, 0, 0, 0, 0, 1);
    r.despawn(6);
    r.entity(6, 1, 0, 0, 0, 0, 0, 1);
    r.describe(6, 'second', 'newest');
    r.endFrame();
    const t = r.entities;
    const lives = [];
    for (let h = 0; h < t.highWater; h++)
      if (t.used[h] === 1 && t.ids[h] === 6) lives.push(`${t.isEnded(h)}:${t.labels[h] ?? '-'}`);
    expect(lives.sort()).toEqual(['false:newest', 'true:-']);
  });
});

describe('Descriptions: the log of a frame', () => {
  // Kills flushLog's `k < this.logCount` → `k <= this.logCount`: every frame's first description
  // flushes the (always empty, once resolved) log of an earlier frame; one slot more would leave a
  // stale entry waiting: slot 0's id and kind (id 0 and the kind '' before any description, then
  // the previous frame's first description), which the id's next life would take.
  it('a resolved frame leaves nothing waiting: later lives of the ids it described start undescribed', () => {
    const r = quiet();
    record(r, 0, [5, 6], () => {
      r.describe(5, 'first', 'frame 0');
      r.describe(6, 'second');
    });
    record(r, 1, [6, 7], () => r.describe(7, 'third', 'frame 1'));
    record(r, 2, [0, 5, 6, 7]);
    expect(livesOf(r, 5)).toEqual(['0-0:first/frame 0', '2-2:-/']);
    expect(livesOf(r, 0)).toEqual(['2-2:-/']);
    expect(livesOf(r, 6)).toEqual(['0-2:second/']);
    expect(livesOf(r, 7)).toEqual(['1-2:third/frame 1']);
    expect(warningsOf(r)).toEqual([]);
  });
});

describe('Descriptions: the births of a frame', () => {
  // Kills afterFrame's `this.bornCount = 0` (removed: the births of earlier frames stay in the list)
  // and the cursor's `c < born` → `c <= born` (one slot past this frame's births): both reach the
  // slot where frame 0 noted id 2's birth on handle 1. Id 2's life ended, handle 1 went to id 3 when
  // frame 0 left the ring, and the stale slot would name id 3's open life for a description of id 2.
  it('a description of an id not recorded never lands on the life that took its old handle', () => {
    const r = quiet({ maxFrames: 2 });
    record(r, 0, [1, 2]);
    const h2 = r.entities.lookup(2);
    record(r, 1, [1]);
    record(r, 2, [1, 3]);
    // The premise: id 3's life took the handle id 2's life had.
    expect(r.entities.lookup(3)).toBe(h2);
    record(r, 3, [1, 3, 4], () => {
      r.describe(4, 'new', 'z');
      r.describe(1, 'old', 'a');
      r.describe(2, 'gone', 'x');
    });
    expect(livesOf(r, 3)).toEqual(['2-3:-/']);
    expect(livesOf(r, 1)).toEqual(['0-3:old/a']);
    expect(livesOf(r, 4)).toEqual(['3-3:new/z']);
    record(r, 4, [1, 2, 3, 4]);
    expect(livesOf(r, 2)).toEqual(['4-4:gone/x']);
    expect(livesOf(r, 3)).toEqual(['2-4:-/']);
  });
});

describe('DeathQueue and PendingDescriptions, directly', () => {
  // Kills DeathQueue.clear's `this.length = 0` (removed): a cleared queue releases nothing, and what
  // is pushed after it is released in its own order.
  it('DeathQueue.clear forgets the waiting handles', () => {
    const table = new EntityTable(16, 1 << 10);
    const deaths = new DeathQueue(4);
    const a = table.allocate(1, 0);
    const b = table.allocate(2, 0);
    table.end(a);
    table.end(b);
    deaths.push(a, 0);
    deaths.push(b, 0);
    deaths.clear();
    expect(deaths.size).toBe(0);
    deaths.releaseThrough(5, table);
    expect([table.used[a], table.used[b]]).toEqual([1, 1]);
    deaths.push(b, 3);
    deaths.releaseThrough(2, table);
    expect(table.used[b]).toBe(1);
    deaths.releaseThrough(3, table);
    expect([table.used[a], table.used[b], deaths.size]).toEqual([1, 0, 0]);
  });

  // Kills PendingDescriptions.remove's `if (table[i] === 0) return` (removed or → false: an entry
  // not waiting would be searched for forever or unlinked twice) and the constructor's
  // `Math.max(1, capacity | 0)` (a capacity of 0 or below keeps one description).
  it('PendingDescriptions: removing an entry that no longer waits changes nothing; capacity at least 1', () => {
    const p = new PendingDescriptions(8);
    p.set(10, 'a', undefined, -1);
    p.set(11, 'b', 'x', 2);
    const e = p.find(10);
    p.remove(e);
    p.remove(e);
    expect(p.count).toBe(1);
    expect(p.find(10)).toBe(-1);
    expect([p.kindAt(p.find(11)), p.labelAt(p.find(11)), p.frameAt(p.find(11))]).toEqual(['b', 'x', 2]);
    expect(p.first).toBe(p.last);
    for (const capacity of [0, -5, 0.5]) {
      const q = new PendingDescriptions(capacity);
      expect(q.capacity).toBe(1);
      q.set(1, 'one', undefined, -1);
      q.set(2, 'two', undefined, -1);
      expect([q.count, q.find(1), q.kindAt(q.find(2))]).toEqual([1, -1, 'two']);
    }
  });
});
