import { describe, expect, it } from 'vitest';
import { PendingDescriptions } from '../PendingDescriptions';
import { quiet, warningsOf } from './helpers';

/** A small deterministic generator (xorshift32). */
function rng(seed: number): () => number {
  let s = seed | 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

type Row = [number, string, string | undefined, number];

/** What the waiting descriptions are, oldest first, walking `first`/`after`; checks `last`/`before` give the reverse. */
function contents(p: PendingDescriptions): Row[] {
  const out: Row[] = [];
  for (let e = p.first; e >= 0; e = p.after(e)) out.push([p.idAt(e), p.kindAt(e), p.labelAt(e), p.frameAt(e)]);
  const back: Row[] = [];
  for (let e = p.last; e >= 0; e = p.before(e)) back.push([p.idAt(e), p.kindAt(e), p.labelAt(e), p.frameAt(e)]);
  expect(back.reverse()).toEqual(out);
  return out;
}

describe('PendingDescriptions', () => {
  it('agrees with an ordered map over random sets, finds and removes, forgetting the oldest when full', () => {
    for (const capacity of [1, 3, 16, 100]) {
      const p = new PendingDescriptions(capacity);
      // The model: a Map keeps insertion order; a replaced key becomes the newest.
      const model = new Map<number, [string, string | undefined, number]>();
      const next = rng(capacity * 7919);
      // Ids from a small range collide in the hash table and get replaced; some are far apart.
      const idOf = (): number => (next() < 0.8 ? Math.floor(next() * capacity * 3) : Math.floor(next() * 2 ** 31));
      for (let step = 0; step < 20_000; step++) {
        const r = next();
        const id = idOf();
        if (r < 0.5) {
          const kind = `k${step % 5}`;
          const label = step % 3 === 0 ? undefined : `l${step}`;
          const frame = step % 7 === 0 ? -1 : step >> 3;
          p.set(id, kind, label, frame);
          if (model.has(id)) model.delete(id);
          else if (model.size === capacity) model.delete(model.keys().next().value as number);
          model.set(id, [kind, label, frame]);
        } else if (r < 0.8) {
          const e = p.find(id);
          expect(e >= 0).toBe(model.has(id));
          if (e >= 0) {
            expect(p.idAt(e)).toBe(id);
            expect([p.kindAt(e), p.labelAt(e), p.frameAt(e)]).toEqual(model.get(id));
            p.remove(e);
            model.delete(id);
          }
        } else if (r < 0.83 && p.count > 0) {
          // Remove from the middle of the order.
          let e = p.first;
          for (let k = Math.floor(next() * p.count); k > 0; k--) e = p.after(e);
          model.delete(p.idAt(e));
          p.remove(e);
        } else if (r < 0.831) {
          p.clear();
          model.clear();
        }
        expect(p.count).toBe(model.size);
        if (step % 97 === 0) {
          expect(contents(p)).toEqual([...model].map(([k, [kind, label, frame]]) => [k, kind, label, frame]));
          for (const k of model.keys()) expect(p.find(k)).toBeGreaterThanOrEqual(0);
        }
      }
    }
  });
});

describe('Recorder.describe', () => {
  it('names the life recorded in the frame, else the next life; outside a frame the live one, else the next', () => {
    const r = quiet();
    const kindOf = (id: number): string | undefined => {
      const h = r.entities.lookup(id);
      return h < 0 ? undefined : r.entities.kinds[r.entities.kindOf[h]];
    };
    const labelOf = (id: number): string | undefined => r.entities.labels[r.entities.lookup(id)];
    const frame = (f: number, ids: number[], also?: () => void): void => {
      r.beginFrame(f, 1);
      for (const id of ids) r.entity(id, 0, 0, 0, 0, 0, 0, 1);
      also?.();
      r.endFrame();
    };
    frame(0, [1, 2]);
    // Inside a frame, after and before the entity; for an id not in the frame: its next life.
    frame(1, [1, 2, 3], () => {
      r.describe(1, 'crate', 'after');
      r.describe(4, 'bolt', 'not yet');
    });
    r.beginFrame(2, 1);
    r.describe(2, 'tree', 'before');
    r.entity(1, 0, 0, 0, 0, 0, 0, 1);
    r.entity(2, 0, 0, 0, 0, 0, 0, 1);
    r.endFrame();
    expect([kindOf(1), labelOf(1)]).toEqual(['crate', 'after']);
    expect([kindOf(2), labelOf(2)]).toEqual(['tree', 'before']);
    expect(r.entities.lookup(4)).toBe(-1);
    frame(3, [1, 2, 4]);
    expect([kindOf(4), labelOf(4)]).toEqual(['bolt', 'not yet']);
    // Outside a frame: 2 is alive in the newest frame, so it is renamed at once; 3 is not (its
    // life ended in frame 2), so the description waits for its next life.
    r.describe(2, 'rock', 'renamed');
    r.describe(3, 'crate', 'reborn');
    expect(labelOf(2)).toBe('renamed');
    expect(labelOf(3)).toBeUndefined();
    frame(4, [3]);
    expect([kindOf(3), labelOf(3)]).toEqual(['crate', 'reborn']);
    // Described twice before it appears: the last description wins.
    r.describe(9, 'a', 'first');
    r.describe(9, 'b', 'second');
    frame(5, [9]);
    expect([kindOf(9), labelOf(9)]).toEqual(['b', 'second']);
    // Applied once: a later life of 9 starts without it.
    r.despawn(9);
    frame(6, [9]);
    expect(labelOf(9)).toBeUndefined();
  });

  it('ignores and counts a description of an id that could never be recorded (it names no other id)', () => {
    const r = quiet({ maxEntityId: 1000 });
    // Each of these would alias a real id if stored by its int32 truncation: 1, 2, 0, 0, 1000 % 2^32.
    const bad = [1.5, 2 ** 32 + 2, Number.NaN, -0.5, 1000, -1, Infinity];
    for (const id of bad) r.describe(id, 'ghost', `for ${String(id)}`);
    for (let k = 0; k < 5000; k++) r.describe(1.5, 'ghost', 'again'); // must not push real ones out
    r.describe(3, 'crate', 'real');
    r.beginFrame(0, 1);
    for (const id of [0, 1, 2, 3, 999]) r.entity(id, 0, 0, 0, 0, 0, 0, 1);
    r.endFrame();
    const t = r.entities;
    expect([0, 1, 2, 999].map((id) => t.labels[t.lookup(id)])).toEqual([undefined, undefined, undefined, undefined]);
    expect(t.labels[t.lookup(3)]).toBe('real');
    expect(r.stats.idsOutOfRange).toBe(bad.length + 5000);
    expect(warningsOf(r).filter((w) => w.includes('describe(')).length).toBe(1);
  });

  it('forgets the oldest of more than 4,096 descriptions of ids that never appear, and still names the newest', () => {
    const r = quiet();
    for (let id = 0; id < 5000; id++) r.describe(id, 'ghost', `g${id}`);
    r.beginFrame(0, 1);
    r.entity(0, 0, 0, 0, 0, 0, 0, 1); // forgotten: one of the 904 oldest
    r.entity(903, 0, 0, 0, 0, 0, 0, 1); // forgotten, the newest of those
    r.entity(904, 0, 0, 0, 0, 0, 0, 1); // kept, the oldest kept
    r.entity(4999, 0, 0, 0, 0, 0, 0, 1);
    r.endFrame();
    expect(r.entities.labels[r.entities.lookup(0)]).toBeUndefined();
    expect(r.entities.labels[r.entities.lookup(903)]).toBeUndefined();
    expect(r.entities.labels[r.entities.lookup(904)]).toBe('g904');
    expect(r.entities.labels[r.entities.lookup(4999)]).toBe('g4999');
    // With ~4,000 still waiting, a description made in a frame for a life that continues in it
    // is applied at endFrame (only this frame's descriptions are visited).
    r.beginFrame(1, 1);
    r.entity(904, 0, 0, 0, 0, 0, 0, 1);
    r.describe(904, 'tree', 'renamed in frame 1');
    r.endFrame();
    expect(r.entities.labels[r.entities.lookup(904)]).toBe('renamed in frame 1');
    expect(r.entities.kinds[r.entities.kindOf[r.entities.lookup(904)]]).toBe('tree');
  });
});
