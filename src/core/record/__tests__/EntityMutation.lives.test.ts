import { describe, expect, it } from 'vitest';
import { EntityBuffer } from '../../read/buffers';
import { MAX_KINDS } from '../../validate/rules';
import type { Recorder } from '../Recorder';
import { quiet, warningsOf } from './helpers';

/**
 * The entity record path's lives and descriptions, through what a recorder exposes (issue 20, fifth
 * pass): the lives each frame read back names (id and spawn frame), the kinds and labels of lives,
 * the handles in use against a model of the ring, and the errors and warnings of `describe` and
 * `describeSkeleton`. Nothing here reads the resolver's, the hash's or the queues' own state, so the
 * cases hold whatever those become (Descriptions, PendingDescriptions, OpenLives, DeathQueue,
 * EntityResolver, EntityTable). Each case names the mutants it kills.
 */

const BACKENDS = [false, true] as const;

/** Each row of `frame` as `id@spawnFrame`. */
function lifeRows(r: Recorder, frame: number): string[] {
  const e = new EntityBuffer();
  expect(r.reader.readHandles(frame, e)).toBe(true);
  const t = r.entities;
  return Array.from(e.handles.subarray(0, e.count), (h) => `${t.ids[h]}@${t.spawnFrames[h]}`);
}

/** The description of `id`'s newest life: [kind, label], kind undefined when none. */
function descriptionOf(r: Recorder, id: number): [string | undefined, string | undefined] {
  const t = r.entities;
  const h = t.lookup(id);
  expect(h, `id ${id} has a life`).toBeGreaterThanOrEqual(0);
  return [t.kindOf[h] < 0 ? undefined : t.kinds[t.kindOf[h]], t.labels[h]];
}

function record(r: Recorder, frame: number, ids: number[], between?: () => void): void {
  r.beginFrame(frame, 1);
  for (const id of ids) r.entity(id, id, 0, 0, 0, 0, 0, 1);
  between?.();
  r.endFrame();
}

describe('descriptions of large frames', () => {
  // Kills in Descriptions: growLog (the copy of kinds and labels: `k < logCount` → `<=`/false,
  // `cap = length * 2`), growBorn (`bornIds`/`bornHandles` copies), the cursor over the frame's
  // births (`c < born && bornIds[c] === id` → true; `c++` removed), the readAhead path's condition
  // (`n > 8 && born < n`), a description whose id was not recorded (waits: `lastFrame(h) === frame`
  // → true), and `labels[k] = undefined` not reached in a wrong order.
  it.each(BACKENDS)('150 births described in another order, some ids not recorded (wasm %s)', (wasm) => {
    const r = quiet({ wasm, maxEntitiesPerFrame: 512 });
    const ids = Array.from({ length: 150 }, (_, i) => 3 * i);
    record(r, 0, ids, () => {
      // In spawn order for the first 70, then backwards, with ids never recorded in between.
      for (let i = 0; i < 70; i++) r.describe(ids[i], `k${i % 7}`, i % 5 === 0 ? undefined : `L${ids[i]}`);
      for (let i = 149; i >= 70; i--) {
        r.describe(ids[i], `k${i % 7}`, `L${ids[i]}`);
        if (i % 20 === 0) r.describe(ids[i] + 1, 'waiting', `W${ids[i] + 1}`);
      }
    });
    for (let i = 0; i < 150; i++) {
      const label = i < 70 && i % 5 === 0 ? undefined : `L${ids[i]}`;
      expect(descriptionOf(r, ids[i]), `id ${ids[i]}`).toEqual([`k${i % 7}`, label]);
    }
    // The ids never recorded get their description with their first life.
    const waiting = [421, 361, 301, 241];
    record(r, 1, [...ids, ...waiting]);
    for (const id of waiting) expect(descriptionOf(r, id)).toEqual(['waiting', `W${id}`]);
    expect(lifeRows(r, 1).slice(148)).toEqual(['444@0', '447@0', '421@1', '361@1', '301@1', '241@1']);
    expect(warningsOf(r)).toEqual([]);
  });

  // Kills: a description made in frame f for a life begun in f and ended (despawned) in f, its id
  // recorded again in f: the newest life is named (`!isEnded(bornHandles[c])` → true).
  it.each(BACKENDS)(
    'a life begun, despawned and begun again in one frame: the description names the newest (wasm %s)',
    (wasm) => {
      const r = quiet({ wasm });
      r.beginFrame(0, 1);
      for (let id = 0; id < 12; id++) r.entity(id, 0, 0, 0, 0, 0, 0, 1);
      r.despawn(4);
      r.entity(4, 1, 0, 0, 0, 0, 0, 1);
      for (let id = 0; id < 12; id++) r.describe(id, 'thing', `t${id}`);
      r.endFrame();
      const t = r.entities;
      const labelled: string[] = [];
      for (let h = 0; h < t.highWater; h++) if (t.used[h] === 1 && t.ids[h] === 4) labelled.push(`${t.labels[h]}`);
      expect(labelled.sort()).toEqual(['t4', 'undefined']);
      expect(descriptionOf(r, 4)).toEqual(['thing', 't4']);
    },
  );
});

describe('describe: ids, names, kinds', () => {
  // Kills: the id check (`id >= 0` → `>`, `id < maxEntityId` → `<=`, the integer test) and its
  // message; the kind and label repairs (`stringProblem(kind) !== null` → false, the label's
  // `label !== undefined &&` → true) and repairName's counter and message.
  it('refuses ids outside [0, maxEntityId) with the range in the message, repairs bad names', () => {
    const r = quiet({ maxEntityId: 100 });
    record(r, 0, [0, 99]);
    r.describe(100, 'x');
    r.describe(-1, 'x');
    r.describe(2.5, 'x');
    expect(r.stats.idsOutOfRange).toBe(3);
    r.describe(0, 'bad\udc00kind', 'fine');
    r.describe(99, 'good', 'bad\ud800label');
    expect(descriptionOf(r, 0)).toEqual(['bad\ufffdkind', 'fine']);
    expect(descriptionOf(r, 99)).toEqual(['good', 'bad\ufffdlabel']);
    r.describe(0, 7 as unknown as string);
    expect(descriptionOf(r, 0)).toEqual(['7', undefined]);
    // The same bad kind again is repaired again (a bad kind is never the "last valid" one).
    r.describe(99, 'bad\udc00kind');
    expect(descriptionOf(r, 99)).toEqual(['bad\ufffdkind', undefined]);
    expect(r.stats.invalidNames).toBe(4);
    expect(warningsOf(r)).toEqual([
      'rewindable: describe(100): not an entity id (an integer in [0, 100)); ignored',
      'rewindable: a kind, label or event kind was not a string of at most 65,536 well-formed UTF-16 units; it was converted, lone surrogates replaced by U+FFFD, and cut to 65,536',
    ]);
    // 0 and 99 are the range's ends: described, not refused.
    expect(r.stats.idsOutOfRange).toBe(3);
  });

  // Kills: the kinds cap (`t.kinds.length >= MAX_KINDS` → `>`, `indexOf(kind) < 0` → `<= 0`/true),
  // its counter and message; describeSkeleton's cap and its message.
  it('the 65,537th kind is dropped with a warning; existing kinds still describe', () => {
    const r = quiet();
    record(r, 0, [1, 2]);
    for (let k = 0; k < MAX_KINDS; k++) r.describe(1, `kind${k}`);
    expect(r.entities.kinds.length).toBe(MAX_KINDS);
    r.describe(2, 'one too many', 'lost');
    expect(descriptionOf(r, 2)).toEqual([undefined, undefined]);
    expect(r.stats.invalidNames).toBe(1);
    r.describe(2, 'kind0', 'kept'); // the first kind: index 0
    expect(descriptionOf(r, 2)).toEqual(['kind0', 'kept']);
    r.describe(2, `kind${MAX_KINDS - 1}`, 'last');
    expect(descriptionOf(r, 2)).toEqual([`kind${MAX_KINDS - 1}`, 'last']);
    expect(warningsOf(r)).toEqual([
      `rewindable: ${MAX_KINDS} entity kinds exist; the description of entity 2 was dropped`,
    ]);
    expect(() => r.describeSkeleton('new kind', [-1])).toThrow(
      `rewindable: describeSkeleton: ${MAX_KINDS} kinds exist`,
    );
    r.describeSkeleton('kind5', [-1, 0]);
    expect(Array.from(r.entities.skeletons[5] ?? [])).toEqual([-1, 0]);
  });

  // Kills: describeSkeleton's checks (`parents === null ||`, `typeof parents !== 'object'`) and
  // their messages (the kind cut to 64 characters), the stored copy (`Int16Array.from`).
  it('describeSkeleton: refuses a bad kind or skeleton with a message, stores a copy', () => {
    const r = quiet();
    expect(() => r.describeSkeleton('\ud800', [-1])).toThrow(
      'rewindable: describeSkeleton: the kind contains a lone surrogate',
    );
    expect(() => r.describeSkeleton('k', null as unknown as number[])).toThrow(
      'rewindable: describeSkeleton("k"): the skeleton is not an array',
    );
    expect(() => r.describeSkeleton('k', 3 as unknown as number[])).toThrow(
      'rewindable: describeSkeleton("k"): the skeleton is not an array',
    );
    const long = 'x'.repeat(100);
    expect(() => r.describeSkeleton(long, [0])).toThrow(
      `rewindable: describeSkeleton(${JSON.stringify('x'.repeat(64))}): the skeleton bone 0's parent chain is a cycle`,
    );
    expect(r.entities.kinds).toEqual([]);
    const parents = [-1, 0, 1];
    r.describeSkeleton('arm', parents);
    parents[2] = 0;
    expect(Array.from(r.entities.skeletons[0] ?? [])).toEqual([-1, 0, 1]);
    expect(r.entities.kinds).toEqual(['arm']);
  });

  // Kills: Descriptions.clear (the waiting descriptions forgotten, the frame's log emptied).
  it('clear() forgets the descriptions waiting for a life', () => {
    const r = quiet();
    r.describe(5, 'ghost', 'before clear');
    record(r, 0, [1], () => r.describe(6, 'ghost', 'in a frame, not recorded'));
    r.clear();
    record(r, 0, [5, 6]);
    expect(descriptionOf(r, 5)).toEqual([undefined, undefined]);
    expect(descriptionOf(r, 6)).toEqual([undefined, undefined]);
  });
});

describe('lives and handles against a model of the ring', () => {
  // Kills in DeathQueue (release order `<=` → `<`, the batch's head and length, growth), in the
  // resolver's life rules (continue, gap, despawn, duplicate) and in EntityTable (release, reuse):
  // after every frame each held frame's rows name the right lives, and exactly the lives some held
  // frame (or the open life) mentions hold a handle.
  it.each(BACKENDS)('churn over a ring of 5 frames, bursts of deaths (wasm %s)', (wasm) => {
    const r = quiet({ wasm, maxFrames: 5, maxEntitiesPerFrame: 256 });
    // Model: per id the current life's spawn frame (or none); per frame the lives recorded.
    const spawn = new Map<number, number>();
    const frames: string[][] = [];
    let seed = 7;
    const random = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    for (let f = 0; f < 60; f++) {
      // Frame 20 and 40: a burst, 200 lives at once; otherwise 20 to 60 ids from 0..79.
      const burst = f === 20 || f === 40;
      const pool = burst ? 200 : 80;
      const wanted = new Set<number>();
      const count = burst ? 200 : 20 + Math.floor(random() * 40);
      while (wanted.size < count) wanted.add(Math.floor(random() * pool) + (burst ? 1000 : 0));
      const order = [...wanted];
      // Some despawns between frames (before the frame), some ids recorded twice.
      for (const id of [...spawn.keys()]) {
        if (random() < 0.1) {
          r.despawn(id);
          spawn.delete(id);
        }
      }
      r.beginFrame(f, 1);
      const rows: string[] = [];
      for (const id of order) {
        r.entity(id, id, f, 0, 0, 0, 0, 1);
        if (random() < 0.05) r.entity(id, 0, 0, 0, 0, 0, 0, 1); // duplicate: dropped
      }
      r.endFrame();
      // Lives missing from this frame ended.
      for (const id of [...spawn.keys()]) if (!wanted.has(id)) spawn.delete(id);
      for (const id of order) {
        if (!spawn.has(id)) spawn.set(id, f);
        rows.push(`${id}@${spawn.get(id)}`);
      }
      frames[f] = rows;
      const oldest = Math.max(0, f - 4);
      for (let g = oldest; g <= f; g++) expect(lifeRows(r, g), `frame ${f}, held frame ${g}`).toEqual(frames[g]);
      const held = new Set<string>();
      for (let g = oldest; g <= f; g++) for (const life of frames[g]) held.add(life);
      expect(r.entities.liveCount, `frame ${f}`).toBe(held.size);
    }
  });
});
