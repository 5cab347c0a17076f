import { describe, expect, it } from 'vitest';
import { quiet, warningsOf } from './helpers';

describe('Recorder: descriptions of churning lives', () => {
  it('names every life the ring holds right while lives churn over a full ring and their handles are reused', () => {
    const r = quiet({ maxFrames: 12 });
    const t = r.entities;
    const population = 40;
    const alive: number[] = [];
    let nextId = 0;
    // Ids of ended lives, oldest first: one comes back once 20 more wait.
    const freedIds: number[] = [];
    // Each life's description by id + spawn frame: kinds alternate, some lives have no label,
    // some are described between frames (after their first frame), the rest in their first frame.
    const expected = new Map<string, [string, string | undefined]>();
    const kindOf = (id: number): string => (id % 3 === 0 ? 'orc' : 'elf');
    const labelOf = (id: number): string | undefined => (id % 4 === 0 ? undefined : `#${id}`);
    const lateDescribed: number[] = [];
    const wrong: string[] = [];
    for (let frame = 0; frame < 200; frame++) {
      for (const id of lateDescribed.splice(0)) r.describe(id, kindOf(id), labelOf(id));
      r.beginFrame(frame / 60, 1 / 60);
      const born: number[] = [];
      const births = frame === 0 ? population : 5;
      for (let k = 0; k < births && frame > 0; k++) {
        const i = (frame * 7 + k * 13) % alive.length;
        r.despawn(alive[i]);
        freedIds.push(alive[i]);
        alive.splice(i, 1);
      }
      for (let k = 0; k < births; k++) {
        const id = freedIds.length > 20 ? (freedIds.shift() as number) : nextId++;
        alive.push(id);
        born.push(id);
      }
      for (const id of alive) r.entity(id, id, 0, 0, 0, 0, 0, 1, 0);
      for (const id of born) {
        if (id % 5 === 0) lateDescribed.push(id);
        else r.describe(id, kindOf(id), labelOf(id));
        expected.set(`${id}@${frame}`, [kindOf(id), labelOf(id)]);
      }
      r.endFrame();
      // Every life held: the description it was given (none yet for one described late in its first frame).
      for (let h = 0; h < t.highWater; h++) {
        if (t.used[h] !== 1) continue;
        const key = `${t.ids[h]}@${t.spawnFrames[h]}`;
        const want = expected.get(key);
        const late = t.ids[h] % 5 === 0 && t.spawnFrames[h] === frame;
        const got = t.kindOf[h] < 0 ? undefined : [t.kinds[t.kindOf[h]], t.labels[h]];
        if (late ? got !== undefined || t.labels[h] !== undefined : JSON.stringify(got) !== JSON.stringify(want))
          wrong.push(`frame ${frame}, life ${key}: ${JSON.stringify(got)}, not ${JSON.stringify(want)}`);
      }
    }
    expect(wrong.slice(0, 5)).toEqual([]);
    // Ids came back as new lives, and handles were reused.
    expect(expected.size).toBeGreaterThan(2 * nextId);
    expect(expected.size).toBeGreaterThan(4 * t.highWater);
    expect(warningsOf(r)).toEqual([]);
  });

  it('applies the descriptions made in a frame in call order, and keeps the others waiting for their life', () => {
    const r = quiet();
    const t = r.entities;
    const kindOf = (id: number): string | undefined => {
      const h = t.lookup(id);
      return h < 0 || t.kindOf[h] < 0 ? undefined : `${t.kinds[t.kindOf[h]]}/${t.labels[h] ?? ''}`;
    };
    r.beginFrame(0, 1 / 60);
    for (let id = 0; id < 100; id++) r.entity(id, 0, 0, 0, 0, 0, 0, 1, 0);
    // More than the log's first room (64), each life twice: the later description wins.
    for (let id = 0; id < 100; id++) r.describe(id, 'first', `${id}`);
    for (let id = 0; id < 100; id += 2) r.describe(id, 'second');
    r.describe(500, 'ghost', 'not recorded yet');
    r.endFrame();
    expect(kindOf(0)).toBe('second/');
    expect(kindOf(1)).toBe('first/1');
    expect(kindOf(98)).toBe('second/');
    expect(kindOf(99)).toBe('first/99');
    expect(kindOf(500)).toBeUndefined();
    r.beginFrame(1 / 60, 1 / 60);
    r.entity(0, 0, 0, 0, 0, 0, 0, 1, 0); // continues: keeps its description
    r.entity(500, 0, 0, 0, 0, 0, 0, 1, 0); // its first life takes the one waiting
    r.endFrame();
    expect(kindOf(0)).toBe('second/');
    expect(kindOf(500)).toBe('ghost/not recorded yet');
    // Described in a frame before its entity is recorded in it, then recorded: applied at endFrame.
    r.beginFrame(2 / 60, 1 / 60);
    r.describe(600, 'late', 'x');
    r.entity(600, 0, 0, 0, 0, 0, 0, 1, 0);
    r.endFrame();
    expect(kindOf(600)).toBe('late/x');
    expect(warningsOf(r)).toEqual([]);
  });

  it('describes the newest life of an id begun twice in a frame, and lives described in another order', () => {
    const r = quiet();
    const t = r.entities;
    r.beginFrame(0, 1 / 60);
    r.entity(1, 0, 0, 0, 0, 0, 0, 1, 0);
    r.endFrame();
    r.beginFrame(1 / 60, 1 / 60);
    // Id 5 begins a life, is despawned after its entry, and begins another in the same frame.
    r.entity(5, 0, 0, 0, 0, 0, 0, 1, 0);
    r.despawn(5);
    r.entity(5, 0, 0, 0, 0, 0, 0, 1, 0);
    for (let id = 10; id < 20; id++) r.entity(id, 0, 0, 0, 0, 0, 0, 1, 0);
    r.entity(1, 0, 0, 0, 0, 0, 0, 1, 0); // continues
    r.describe(5, 'second');
    for (let id = 19; id >= 10; id--) r.describe(id, 'reversed', `${id}`);
    r.describe(1, 'old');
    r.endFrame();
    const lives5 = Array.from({ length: t.highWater }, (_, h) => h).filter((h) => t.used[h] === 1 && t.ids[h] === 5);
    expect(lives5.map((h) => [t.isEnded(h), t.kindOf[h] < 0 ? '-' : t.kinds[t.kindOf[h]]])).toEqual([
      [true, '-'],
      [false, 'second'],
    ]);
    const named = (id: number): string => `${t.kinds[t.kindOf[t.lookup(id)]]}/${t.labels[t.lookup(id)] ?? ''}`;
    expect([10, 15, 19, 1].map(named)).toEqual(['reversed/10', 'reversed/15', 'reversed/19', 'old/']);
    expect(warningsOf(r)).toEqual([]);
  });

  it('repairs an invalid kind on every call, also after a valid one and before it', () => {
    const r = quiet();
    const bad = 'x\uD800';
    r.beginFrame(0, 1 / 60);
    for (let id = 0; id < 6; id++) r.entity(id, 0, 0, 0, 0, 0, 0, 1, 0);
    r.describe(0, bad);
    r.describe(1, 'ok');
    r.describe(2, bad);
    r.describe(3, bad);
    r.describe(4, 'ok');
    r.describe(5, 'ok', bad);
    r.endFrame();
    expect(r.stats.invalidNames).toBe(4);
    const t = r.entities;
    const kinds = [0, 1, 2, 3, 4, 5].map((id) => t.kinds[t.kindOf[t.lookup(id)]]);
    expect(kinds).toEqual(['x\uFFFD', 'ok', 'x\uFFFD', 'x\uFFFD', 'ok', 'ok']);
    expect(t.labels[t.lookup(5)]).toBe('x\uFFFD');
  });
});
