import { describe, expect, it } from 'vitest';
import { EntityFlags } from '../../format/layout';
import type { Recorder } from '../../record/Recorder';
import { Bookmarks } from '../Bookmarks';
import { MarkerIndex, MarkerKind } from '../MarkerIndex';
import { quietRecorder } from './helpers';

/**
 * MarkerIndex against a small game's own log (a faster, narrower companion of LifetimesMarkers'
 * churn case, which the mutation runs leave out): every marker with its frame, life and channels,
 * frame markers in frame order and the bookmarks after them, over a ring that wraps, refreshed
 * every frame, every few frames and once. Plus the version's rules, the clear of the recorder
 * (refreshed while empty or not), events whose subject's id has a newer life by the time the
 * frame is scanned, and handles issued past the entity table's first capacity.
 */

interface Life {
  id: number;
  start: number;
  end: number;
  flags: Map<number, number>;
}

/** A deterministic game: 14 ids that come and go (silently or by `despawn`), flags, events, budgets. */
class Game {
  public readonly lives: Life[] = [];
  public readonly overBudget = new Set<number>();
  public readonly events: Array<{ frame: number; kind: number; id: number }> = [];
  private readonly current = new Map<number, Life>();
  private seed: number;
  public frame = 0;

  public constructor(
    public readonly rec: Recorder,
    seed: number,
    private readonly ids = 14,
  ) {
    this.seed = seed;
    rec.channels.setBudget(0, 2);
    rec.eventKind('hit');
    rec.eventKind('note');
    rec.eventKind('third');
  }

  private rand(): number {
    this.seed = (Math.imul(this.seed, 1103515245) + 12345) >>> 0;
    return (this.seed >>> 8) / 16777216;
  }

  public step(): void {
    const rec = this.rec;
    const f = this.frame++;
    rec.beginFrame(f, 1);
    const despawn: number[] = [];
    for (let id = 0; id < this.ids; id++) {
      let life = this.current.get(id);
      if (life !== undefined && this.rand() < 0.1) {
        this.current.delete(id); // silently gone: absent this frame
        continue;
      }
      if (life === undefined) {
        if (this.rand() < 0.3) continue;
        life = { id, start: f, end: f, flags: new Map() };
        this.lives.push(life);
        this.current.set(id, life);
      }
      let flags = life.flags.get(f - 1) ?? 0;
      if (this.rand() < 0.25) flags ^= EntityFlags.DAMAGED;
      if (this.rand() < 0.2) flags ^= EntityFlags.USER0;
      if (this.rand() < 0.1) flags ^= EntityFlags.USER3;
      life.flags.set(f, flags);
      life.end = f;
      rec.entity(id, id, f, 0, 0, 0, 0, 1, flags);
      if (this.rand() < 0.06) despawn.push(id);
    }
    if (this.rand() < 0.25) {
      for (let i = 0; i < 3; i++) rec.draw.point(0, 0, 0, 0, 1, 0xffffff);
      this.overBudget.add(f);
    }
    const n = Math.floor(this.rand() * 3);
    for (let e = 0; e < n; e++) {
      // A present id, an id absent this frame (or never used: 14..16), or none.
      const r = this.rand();
      const id = r < 0.15 ? -1 : Math.floor(this.rand() * (this.ids + 3));
      const kind = Math.floor(this.rand() * 3);
      rec.event(kind, id, 0, 0, 0);
      this.events.push({ frame: f, kind, id });
    }
    rec.endFrame();
    for (const id of despawn) {
      rec.despawn(id);
      this.current.delete(id);
    }
  }

  /** The markers expected over the frames held, sorted; `unknownFirst`: nothing is known before the oldest frame. */
  public expected(unknownFirst: boolean): string[] {
    const r = this.rec.reader;
    const lo = r.oldestFrame;
    const hi = r.newestFrame;
    const out: string[] = [];
    for (const f of this.overBudget) if (f >= lo && f <= hi) out.push(`${MarkerKind.OVER_BUDGET} ${f} - 1`);
    for (const l of this.lives) {
      const who = `${l.id}/${l.start}`;
      if (l.start >= lo && l.start <= hi) out.push(`${MarkerKind.SPAWN} ${l.start} ${who} 0`);
      if (l.end < hi && l.end >= lo) out.push(`${MarkerKind.DESPAWN} ${l.end} ${who} 0`);
      for (const [f, fl] of l.flags) {
        if (f < lo || f > hi || (fl & EntityFlags.DAMAGED) === 0) continue;
        const before = f === lo && unknownFirst ? 0 : (l.flags.get(f - 1) ?? 0);
        if ((before & EntityFlags.DAMAGED) === 0) out.push(`${MarkerKind.DAMAGE} ${f} ${who} ${fl & ~before}`);
      }
    }
    for (const e of this.events) {
      if (e.frame < lo || e.frame > hi) continue;
      const l = this.lives.find((x) => x.id === e.id && x.start <= e.frame && x.end >= e.frame);
      out.push(`${MarkerKind.EVENT} ${e.frame} ${l === undefined ? '-' : `${l.id}/${l.start}`} ${e.kind}`);
    }
    return out.sort();
  }
}

/** The frame markers as `kind frame id/spawn channels`, sorted, after checking their order and the bookmarks'. */
function markers(m: MarkerIndex, rec: Recorder, bookmarks?: Bookmarks): string[] {
  const out: string[] = [];
  for (let i = 0; i < m.bookmarkStart; i++) {
    if (i > 0) expect(m.frames[i], `marker ${i} in frame order`).toBeGreaterThanOrEqual(m.frames[i - 1]);
    const h = m.handles[i];
    const who = h < 0 ? '-' : `${rec.entities.ids[h]}/${rec.entities.spawnFrames[h]}`;
    out.push(`${m.kinds[i]} ${m.frames[i]} ${who} ${m.channels[i]}`);
  }
  if (bookmarks !== undefined) {
    const lo = rec.reader.oldestFrame;
    const hi = rec.reader.newestFrame;
    const want = bookmarks
      .list()
      .filter((b) => rec.reader.frameCount > 0 && b.frame >= lo && b.frame <= hi)
      .map((b) => `${MarkerKind.BOOKMARK} ${b.frame} -1 ${b.id}`);
    const got: string[] = [];
    for (let i = m.bookmarkStart; i < m.count; i++)
      got.push(`${m.kinds[i]} ${m.frames[i]} ${m.handles[i]} ${m.channels[i]}`);
    expect(got).toEqual(want);
  }
  return out.sort();
}

describe('MarkerIndex against the game log', () => {
  // Kills: the scan's tests and writes (spawn `spawns[h] === f`, the despawn pass and its
  // `inFrame[h] !== f`, `r.has(f - 1)`, damage `(fl & DAMAGED) !== 0`, `wasHere`, `fl & ~before`,
  // `seenFrame`/`seenFlags` writes), the events' subject (`id <= 0x7fffffff`, the life test
  // `spawnFrames[h] <= f && lastFrame(h) >= f` and its parts, `handleOfId`), the eviction drop
  // (`frames[drop] < oldest`, the four `copyWithin`, `derived -= drop`), `from`, `prevKnown`,
  // `ensure` (more than 64 and 128 markers kept across growth), the bookmarks' window.
  it('lists every marker of the frames held while the ring wraps, however often refreshed', () => {
    const rec = quietRecorder({ maxFrames: 24 });
    const game = new Game(rec, 7);
    const bookmarks = new Bookmarks();
    for (let f = 0; f < 90; f += 4) bookmarks.add(f, `b${f}`);
    const every = new MarkerIndex(rec.reader, bookmarks);
    const every7 = new MarkerIndex(rec.reader, bookmarks);
    const kinds = new Set<number>();
    for (let f = 0; f < 80; f++) {
      game.step();
      every.refresh();
      if (f % 7 === 0) every7.refresh();
      if (f % 10 !== 9) continue;
      every7.refresh();
      const want = game.expected(false);
      expect(markers(every, rec, bookmarks), `frame ${f}`).toEqual(want);
      expect(markers(every7, rec, bookmarks), `frame ${f}`).toEqual(want);
      const fresh = new MarkerIndex(rec.reader, bookmarks);
      expect(markers(fresh, rec, bookmarks)).toEqual(game.expected(true));
      fresh.dispose();
      for (const s of want) kinds.add(Number(s.split(' ')[0]));
      expect(every.count).toBeGreaterThan(every.bookmarkStart);
    }
    expect([...kinds].sort()).toEqual([0, 1, 2, 3, 5]);
    expect(rec.reader.oldestFrame).toBe(56);
    expect(every.bookmarkStart).toBeGreaterThan(128);
    // Events that name a newer life's id and ids absent in their frame both occur.
    const late = game.events.filter((e) => {
      const lives = game.lives.filter((l) => l.id === e.id);
      const at = lives.find((l) => l.start <= e.frame && l.end >= e.frame);
      return at !== undefined && at !== lives[lives.length - 1] && e.frame >= 56;
    });
    expect(late.length).toBeGreaterThan(0);
    every.dispose();
    every7.dispose();
  });

  // Regression: a life that begins damaged on a handle whose previous life the index saw in the
  // frame just before (the handle released and issued again in between) gets its damage marker.
  // Before the fix the scan took the previous life's flags for the new life's (`wasHere` did not
  // test the spawn frame), as after `Recorder.clear()` with no refresh while empty. Kills as well: the empty reader's branch (`count > 0` → version bump, `derived`,
  // `count`, `bookmarkStart`, `visibleBookmarks`, `forgetScan`'s `prevKnown`).
  it('a new life on a reused handle: its damage rises in its first frame', () => {
    for (const refreshWhileEmpty of [true, false]) {
      const rec = quietRecorder();
      const bookmarks = new Bookmarks();
      bookmarks.add(2, 'two');
      const m = new MarkerIndex(rec.reader, bookmarks);
      expect([m.count, m.bookmarkStart, m.version]).toEqual([0, 0, 0]);
      // Id 5 (handle 0) damaged in frames 0 to 9, seen by the index.
      for (let f = 0; f < 10; f++) {
        rec.beginFrame(f, 1);
        rec.entity(5, 0, 0, 0, 0, 0, 0, 1, EntityFlags.DAMAGED);
        rec.endFrame();
        m.refresh();
      }
      expect(m.count).toBe(3); // spawn, damage at 0, bookmark
      rec.clear();
      if (refreshWhileEmpty) {
        const v = m.version;
        m.refresh();
        expect([m.count, m.bookmarkStart, m.version]).toEqual([0, 0, v + 1]);
        m.refresh();
        expect(m.version).toBe(v + 1); // still empty: no change
      }
      // Frame numbers go on (10 to 12); id 1 takes handle 0, damaged from its first frame.
      for (let f = 0; f < 3; f++) {
        rec.beginFrame(f, 1);
        rec.entity(1, 0, 0, 0, 0, 0, 0, 1, EntityFlags.DAMAGED | (f === 0 ? EntityFlags.USER1 : 0));
        rec.endFrame();
      }
      expect([rec.entities.lookup(1), rec.reader.oldestFrame]).toEqual([0, 10]);
      m.refresh();
      expect(markers(m, rec, bookmarks)).toEqual([
        `${MarkerKind.SPAWN} 10 1/10 0`,
        `${MarkerKind.DAMAGE} 10 1/10 ${EntityFlags.DAMAGED | EntityFlags.USER1}`,
      ]);
      expect(m.count - m.bookmarkStart).toBe(0);
      m.dispose();
    }
  });

  // Kills: the version's rules: `changed` by eviction alone (`drop > 0`), by new markers
  // (`derived !== before`), by the bookmarks (dirty, or their visible count changed as frames left),
  // and no bump when nothing changed (`if (changed) ver++` → true).
  it('bumps the version exactly when the marker set changes', () => {
    const rec = quietRecorder({ maxFrames: 5 });
    const bookmarks = new Bookmarks();
    const m = new MarkerIndex(rec.reader, bookmarks);
    const frame = (f: number, withEntity: boolean): void => {
      rec.beginFrame(f, 1);
      if (withEntity) rec.entity(1, 0, 0, 0, 0, 0, 0, 1);
      rec.endFrame();
    };
    frame(0, true); // spawn at 0
    m.refresh();
    expect(m.version).toBe(1);
    m.refresh();
    expect(m.version).toBe(1);
    for (let f = 1; f < 5; f++) frame(f, true);
    m.refresh(); // nothing new: no marker in frames 1..4
    expect([m.count, m.version]).toEqual([1, 1]);
    bookmarks.add(3, 'three');
    m.refresh();
    expect([m.count, m.bookmarkStart, m.version]).toEqual([2, 1, 2]);
    frame(5, true); // frame 0 leaves: the spawn marker goes
    m.refresh();
    expect([m.count, m.bookmarkStart, m.version]).toEqual([1, 0, 3]);
    expect(m.frames[0]).toBe(3);
    frame(6, true);
    frame(7, true);
    m.refresh(); // no marker added or dropped, the bookmark still held
    expect(m.version).toBe(3);
    frame(8, true); // frame 3 leaves: the bookmark is no longer visible
    frame(9, true);
    m.refresh();
    expect([m.count, m.version]).toEqual([0, 4]);
    m.dispose();
  });

  // Kills: `ensureTables` (the scan's tables grown with the entity table: `need <= length`, the
  // copies kept), `ensure(derived + visible)` for more than 64 visible bookmarks.
  it('follows handles past the first capacity of the entity table, and many bookmarks', () => {
    const rec = quietRecorder({ maxEntitiesPerFrame: 20 });
    const bookmarks = new Bookmarks();
    const m = new MarkerIndex(rec.reader, bookmarks);
    const cap = rec.entities.capacity;
    const want: string[] = [];
    for (let f = 0; f < 5; f++) {
      // 20 new lives a frame; the lives of the frame before end.
      rec.beginFrame(f, 1);
      for (let id = f * 20; id < f * 20 + 20; id++) {
        rec.entity(id, 0, 0, 0, 0, 0, 0, 1, f === 4 ? EntityFlags.DAMAGED : 0);
        want.push(`${MarkerKind.SPAWN} ${f} ${id}/${f} 0`);
        if (f < 4) want.push(`${MarkerKind.DESPAWN} ${f} ${id}/${f} 0`);
        else want.push(`${MarkerKind.DAMAGE} ${f} ${id}/${f} ${EntityFlags.DAMAGED}`);
      }
      rec.endFrame();
      m.refresh();
    }
    expect(cap).toBeLessThan(100);
    expect(rec.entities.highWater).toBe(100);
    for (let i = 0; i < 100; i++) bookmarks.add(i % 3, `b${i}`);
    m.refresh();
    expect(markers(m, rec, bookmarks)).toEqual(want.sort());
    expect(m.count - m.bookmarkStart).toBe(100);
    m.dispose();
  });

  // Kills: `forgetScan`'s `inFrame.fill(-2)` → `+2` (a stale stamp equal to the frame being scanned
  // hides a despawn), the empty branch's `bookmarksDirty = false` → `true` (a version bump with
  // nothing changed), and a bookmark on the newest frame (`<= newest` → `<` in the count, `> newest`
  // → `>=` in the listing).
  it('after a clear early on: despawns found, no change reported for frames without markers', () => {
    const cleared = (): { rec: Recorder; bookmarks: Bookmarks; m: MarkerIndex } => {
      const rec = quietRecorder();
      const bookmarks = new Bookmarks();
      const m = new MarkerIndex(rec.reader, bookmarks);
      rec.beginFrame(0, 1);
      rec.endFrame();
      m.refresh();
      rec.clear();
      m.refresh(); // empty: forgets the scan
      return { rec, bookmarks, m };
    };
    // Frames 1 (id 4, handle 0) and 2 (id 4 gone): the despawn is found in frame 2.
    const a = cleared();
    a.rec.beginFrame(0, 1);
    a.rec.entity(4, 0, 0, 0, 0, 0, 0, 1);
    a.rec.endFrame();
    a.rec.beginFrame(0, 1);
    a.rec.endFrame();
    a.m.refresh();
    expect(markers(a.m, a.rec, a.bookmarks)).toEqual([`${MarkerKind.SPAWN} 1 4/1 0`, `${MarkerKind.DESPAWN} 1 4/1 0`]);
    a.bookmarks.add(2, 'on the newest frame');
    a.m.refresh();
    expect(markers(a.m, a.rec, a.bookmarks).length).toBe(2);
    expect(a.m.count - a.m.bookmarkStart).toBe(1);
    a.m.dispose();
    // A fresh index over frames 1 (id 4) and 2 (id 4 gone): its scan tables start at -2
    // (`ensureTables`' fills → `+2` would hide the despawn found in frame 2).
    const ring2 = quietRecorder({ maxFrames: 2 });
    for (let f = 0; f < 3; f++) {
      ring2.beginFrame(f, 1);
      if (f === 1) ring2.entity(4, 0, 0, 0, 0, 0, 0, 1);
      ring2.endFrame();
    }
    const fresh = new MarkerIndex(ring2.reader, new Bookmarks());
    expect(markers(fresh, ring2)).toEqual([`${MarkerKind.SPAWN} 1 4/1 0`, `${MarkerKind.DESPAWN} 1 4/1 0`]);
    fresh.dispose();
    // A frame without markers after the empty state: nothing changed.
    const b = cleared();
    const v = b.m.version;
    b.rec.beginFrame(0, 1);
    b.rec.endFrame();
    b.m.refresh();
    expect([b.m.count, b.m.version]).toEqual([0, v]);
    b.m.dispose();
  });
});
