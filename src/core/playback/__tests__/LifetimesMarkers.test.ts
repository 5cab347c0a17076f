import { describe, expect, it } from 'vitest';
import { EntityFlags } from '../../format/layout';
import { Bookmarks } from '../Bookmarks';
import { Lifetimes } from '../Lifetimes';
import { MarkerIndex, MarkerKind } from '../MarkerIndex';
import { rng } from '../../../../tests/helpers/random';
import { quietRecorder } from './helpers';
import type { Recorder } from '../../record/Recorder';

interface Life {
  id: number;
  start: number;
  /** Last frame present so far. */
  end: number;
  ended: boolean;
  kind: string;
  label: string;
  /** Flags per frame of the life. */
  flags: Map<number, number>;
}

/**
 * A game with spawn/despawn churn, recorded frame by frame, keeping its own log of every life (the
 * oracle). Lives end either by not being recorded any more or by `despawn` (then the id may come
 * back the very next frame as a new life).
 */
class ChurnGame {
  public readonly lives: Life[] = [];
  public readonly overBudgetFrames = new Set<number>();
  public readonly events: Array<{ frame: number; kind: number; life: Life | null }> = [];
  private readonly current = new Map<number, Life>();
  private readonly rand: () => number;
  private frame = 0;

  public constructor(
    public readonly rec: Recorder,
    seed: number,
    private readonly ids = 60,
  ) {
    this.rand = rng(seed);
    rec.channels.setBudget(0, 2);
    rec.eventKind('hit');
    rec.eventKind('note');
  }

  public step(): void {
    const rec = this.rec;
    const r = this.rand;
    const f = this.frame++;
    rec.beginFrame(f / 30, 1 / 30);
    const despawnAfter: number[] = [];
    for (let id = 0; id < this.ids; id++) {
      let life = this.current.get(id);
      if (life !== undefined && !life.ended && r() < 0.08) {
        life.ended = true; // silently gone
        this.current.delete(id);
        life = undefined;
        continue; // absent this frame
      }
      if (life === undefined) {
        if (r() < 0.25) continue; // stays dead this frame
        const kind = r() < 0.5 ? 'guard' : 'crate';
        life = { id, start: f, end: f, ended: false, kind, label: `${kind}#${id}@${f}`, flags: new Map() };
        this.lives.push(life);
        this.current.set(id, life);
        rec.describe(id, kind, life.label);
      }
      const prev = life.flags.get(f - 1) ?? 0;
      let flags = prev;
      if (r() < 0.15) flags ^= EntityFlags.DAMAGED;
      if (r() < 0.1) flags ^= EntityFlags.USER0;
      life.flags.set(f, flags);
      life.end = f;
      rec.entity(id, id, f, 0, 0, 0, 0, 1, flags);
      if (r() < 0.04) despawnAfter.push(id);
    }
    if (r() < 0.2) {
      for (let i = 0; i < 3; i++) rec.draw.point(0, 0, 0, 0, 1, 0xffffff);
      this.overBudgetFrames.add(f);
    }
    if (r() < 0.3) {
      const alive = [...this.current.values()].filter((l) => l.end === f);
      const life = alive.length > 0 && r() < 0.8 ? alive[Math.floor(r() * alive.length)] : null;
      const kind = r() < 0.5 ? 0 : 1;
      rec.event(kind, life === null ? -1 : life.id, 0, 0, 0, 1);
      this.events.push({ frame: f, kind, life });
    }
    rec.endFrame();
    for (const id of despawnAfter) {
      rec.despawn(id);
      this.current.get(id)!.ended = true;
      this.current.delete(id);
    }
  }

  /** Expected markers over the held range, as sorted strings `kind frame id/spawn channels`. */
  public expectedMarkers(unknownBeforeOldest: boolean): string[] {
    const r = this.rec.reader;
    const lo = r.oldestFrame;
    const hi = r.newestFrame;
    const out: string[] = [];
    for (const f of this.overBudgetFrames) if (f >= lo && f <= hi) out.push(`${MarkerKind.OVER_BUDGET} ${f} - 1`);
    for (const l of this.lives) {
      const who = `${l.id}/${l.start}`;
      if (l.start >= lo && l.start <= hi) out.push(`${MarkerKind.SPAWN} ${l.start} ${who} 0`);
      const gone = l.end < hi && (l.ended || l.end < this.frame - 1);
      if (gone && l.end >= lo) out.push(`${MarkerKind.DESPAWN} ${l.end} ${who} 0`);
      for (const [f, fl] of l.flags) {
        if (f < lo || f > hi || (fl & EntityFlags.DAMAGED) === 0) continue;
        const before = f === lo && unknownBeforeOldest ? 0 : (l.flags.get(f - 1) ?? 0);
        if ((before & EntityFlags.DAMAGED) === 0) out.push(`${MarkerKind.DAMAGE} ${f} ${who} ${fl & ~before}`);
      }
    }
    for (const e of this.events) {
      if (e.frame < lo || e.frame > hi) continue;
      out.push(`${MarkerKind.EVENT} ${e.frame} ${e.life === null ? '-' : `${e.life.id}/${e.life.start}`} ${e.kind}`);
    }
    return out.sort();
  }
}

function actualMarkers(m: MarkerIndex, rec: Recorder): string[] {
  const out: string[] = [];
  for (let i = 0; i < m.bookmarkStart; i++) {
    const h = m.handles[i];
    const who = h < 0 ? '-' : `${rec.entities.ids[h]}/${rec.entities.spawnFrames[h]}`;
    out.push(`${m.kinds[i]} ${m.frames[i]} ${who} ${m.channels[i]}`);
  }
  return out.sort();
}

describe('Lifetimes and MarkerIndex over spawn/despawn churn', () => {
  it("match the game's own log while the ring wraps, refreshed every frame, rarely, or once", () => {
    const rec = quietRecorder({ maxFrames: 40 });
    const game = new ChurnGame(rec, 5);
    const bookmarks = new Bookmarks();
    const everyFrame = new MarkerIndex(rec.reader, bookmarks);
    const every25 = new MarkerIndex(rec.reader, bookmarks);
    const lifetimes = new Lifetimes(rec.reader);
    let checks = 0;
    for (let f = 0; f < 240; f++) {
      game.step();
      everyFrame.refresh();
      if (f % 25 === 0) every25.refresh();
      if (f % 20 !== 19) continue;
      checks++;
      every25.refresh();
      const expected = game.expectedMarkers(false);
      expect(actualMarkers(everyFrame, rec)).toEqual(expected);
      expect(actualMarkers(every25, rec)).toEqual(expected);
      // A new index sees the oldest frame with nothing before it: damage there counts as rising.
      const fresh = new MarkerIndex(rec.reader, bookmarks);
      expect(actualMarkers(fresh, rec)).toEqual(game.expectedMarkers(true));
      fresh.dispose();
      // Frame markers are in frame order.
      for (let i = 1; i < everyFrame.bookmarkStart; i++)
        expect(everyFrame.frames[i]).toBeGreaterThanOrEqual(everyFrame.frames[i - 1]);
      // Every kind occurs, so each comparison above means something.
      for (const k of [
        MarkerKind.SPAWN,
        MarkerKind.DESPAWN,
        MarkerKind.DAMAGE,
        MarkerKind.EVENT,
        MarkerKind.OVER_BUDGET,
      ]) {
        expect(expected.some((s) => s.startsWith(`${k} `))).toBe(true);
      }

      // Lifetimes: exactly the lives intersecting the held range.
      const lo = rec.reader.oldestFrame;
      const hi = rec.reader.newestFrame;
      const held = game.lives.filter((l) => l.start <= hi && l.end >= lo);
      const seen: string[] = [];
      lifetimes.forEach((h) => {
        seen.push(`${lifetimes.id(h)}/${lifetimes.spawnFrame(h)}`);
        const life = held.find((l) => l.id === lifetimes.id(h) && l.start === lifetimes.spawnFrame(h))!;
        expect(life).toBeDefined();
        expect(lifetimes.firstFrame(h)).toBe(Math.max(life.start, lo));
        expect(lifetimes.lastFrame(h)).toBe(Math.min(life.end, hi));
        expect(lifetimes.existsAtNewest(h)).toBe(life.end === hi);
        expect(lifetimes.kind(h)).toBe(life.kind);
        expect(lifetimes.label(h)).toBe(life.label);
        expect(lifetimes.presentAt(h, lifetimes.firstFrame(h))).toBe(true);
        expect(lifetimes.presentAt(h, lifetimes.lastFrame(h) + 1)).toBe(false);
      });
      expect(seen.sort()).toEqual(held.map((l) => `${l.id}/${l.start}`).sort());
      expect(held.some((l) => l.end < hi)).toBe(true); // some despawned lives are still held
      expect(held.some((l) => l.start > lo)).toBe(true); // some spawned inside the range
    }
    expect(checks).toBe(12);
    expect(rec.reader.oldestFrame).toBe(200);
    everyFrame.dispose();
    every25.dispose();
  });

  it('starts afresh when frames were evicted before they were scanned', () => {
    const rec = quietRecorder({ maxFrames: 30 });
    const game = new ChurnGame(rec, 11);
    const markers = new MarkerIndex(rec.reader, new Bookmarks());
    for (let f = 0; f < 10; f++) game.step();
    markers.refresh();
    for (let f = 0; f < 100; f++) game.step(); // 100 frames later, 70 of them evicted unseen
    markers.refresh();
    expect(actualMarkers(markers, rec)).toEqual(game.expectedMarkers(true));
  });

  it('lists no despawn in a frame evicted just before the frame after it is scanned', () => {
    const rec = quietRecorder({ maxFrames: 30 });
    const game = new ChurnGame(rec, 11);
    const markers = new MarkerIndex(rec.reader, new Bookmarks());
    for (let f = 0; f < 10; f++) game.step();
    markers.refresh(); // scanned through frame 9
    for (let f = 0; f < 30; f++) game.step(); // frames 10..39 held: frame 9 is gone, frame 10 is next to scan
    markers.refresh();
    expect(rec.reader.oldestFrame).toBe(10);
    for (let i = 0; i < markers.count; i++) expect(markers.frames[i]).toBeGreaterThanOrEqual(10);
    expect(actualMarkers(markers, rec)).toEqual(game.expectedMarkers(false));
  });

  it('starts over when the recorder is cleared', () => {
    const rec = quietRecorder();
    const game = new ChurnGame(rec, 21, 20);
    const markers = new MarkerIndex(rec.reader, new Bookmarks());
    for (let f = 0; f < 15; f++) {
      game.step();
      markers.refresh();
    }
    expect(markers.count).toBeGreaterThan(0);
    rec.clear();
    markers.refresh();
    expect(markers.count).toBe(0);
    for (let f = 0; f < 5; f++) {
      rec.beginFrame(100 + f, 1);
      for (let id = 0; id < 3; id++) rec.entity(id, 0, 0, 0, 0, 0, 0, 1, f === 2 ? EntityFlags.DAMAGED : 0);
      rec.endFrame();
      markers.refresh();
    }
    const first = rec.reader.oldestFrame;
    const got = Array.from({ length: markers.count }, (_, i) => `${markers.kinds[i]}@${markers.frames[i] - first}`);
    expect(got).toEqual([...Array(3).fill(`${MarkerKind.SPAWN}@0`), ...Array(3).fill(`${MarkerKind.DAMAGE}@2`)]);
  });

  it('answers safely for handles not held', () => {
    const rec = quietRecorder();
    const lifetimes = new Lifetimes(rec.reader);
    expect(lifetimes.firstFrame(0)).toBe(-1);
    expect(lifetimes.lastFrame(3)).toBe(-1);
    expect(lifetimes.existsAtNewest(-1)).toBe(false);
    expect(lifetimes.kind(1e9)).toBeUndefined();
    expect(lifetimes.label(0)).toBeUndefined();
    expect(lifetimes.id(0)).toBe(-1);
    let n = 0;
    lifetimes.forEach(() => n++);
    expect(n).toBe(0);
    // An entity recorded in the open frame only is not held yet.
    rec.beginFrame(0, 1);
    rec.entity(5, 0, 0, 0, 0, 0, 0, 1);
    expect(lifetimes.isHeld(rec.entities.lookup(5))).toBe(false);
    rec.endFrame();
    expect(lifetimes.firstFrame(rec.entities.lookup(5))).toBe(0);
    expect(lifetimes.existsAtNewest(rec.entities.lookup(5))).toBe(true);
  });

  it('produces no entity markers around a truncated frame', () => {
    const rec = quietRecorder({ arenaBytes: 8192, maxFrames: 20 });
    const markers = new MarkerIndex(rec.reader, new Bookmarks());
    for (let f = 0; f < 6; f++) {
      rec.beginFrame(f, 1);
      const n = f === 3 ? 600 : 20; // frame 3 is larger than the whole arena
      for (let id = 0; id < n; id++) rec.entity(id, 0, 0, 0, 0, 0, 0, 1);
      rec.endFrame();
      markers.refresh();
    }
    expect(rec.stats.framesTruncated).toBe(1);
    const kinds = Array.from(markers.kinds.subarray(0, markers.count));
    const frames = Array.from(markers.frames.subarray(0, markers.count));
    // Only the 20 initial spawns: no despawn/spawn churn around frame 3, and nothing for ids
    // 20..599, whose one frame was not stored.
    expect(rec.reader.oldestFrame).toBe(0);
    expect(markers.count).toBe(20);
    expect(kinds.every((k) => k === MarkerKind.SPAWN)).toBe(true);
    expect(frames.every((f) => f === 0)).toBe(true);
  });
});

describe('Bookmarks', () => {
  it('adds, removes and lists in frame order, with change events; bad frames throw', () => {
    const b = new Bookmarks();
    let changes = 0;
    const off = b.onChange(() => changes++);
    const x = b.add(30, 'x');
    const y = b.add(10.6, 'y');
    const z = b.add(30, 'z');
    expect(b.list().map((m) => `${m.frame}:${m.label}`)).toEqual(['11:y', '30:x', '30:z']);
    const before = b.list();
    expect(b.list()).toBe(before); // same array until a change
    expect(b.remove(x)).toBe(true);
    expect(b.remove(x)).toBe(false);
    expect(b.list()).not.toBe(before);
    expect(before.length).toBe(3); // a listed array is never mutated
    expect(b.get(z)?.label).toBe('z');
    expect(b.get(y)?.frame).toBe(11);
    expect(() => b.add(Number.NaN, 'bad')).toThrow(RangeError);
    expect(changes).toBe(4);
    off();
    b.clear();
    expect(changes).toBe(4);
    expect(b.list().length).toBe(0);
  });

  it('appear as markers while their frame is held, and bump the version', () => {
    const rec = quietRecorder({ maxFrames: 10 });
    const b = new Bookmarks();
    const m = new MarkerIndex(rec.reader, b);
    expect(m.count).toBe(0);
    for (let f = 0; f < 10; f++) {
      rec.beginFrame(f, 1);
      rec.endFrame();
    }
    m.refresh();
    const v0 = m.version;
    m.refresh();
    expect(m.version).toBe(v0); // nothing changed
    const id = b.add(3, 'here');
    b.add(50, 'future');
    m.refresh();
    expect(m.version).toBeGreaterThan(v0);
    expect(m.count - m.bookmarkStart).toBe(1);
    expect(m.kinds[m.bookmarkStart]).toBe(MarkerKind.BOOKMARK);
    expect(m.frames[m.bookmarkStart]).toBe(3);
    expect(m.channels[m.bookmarkStart]).toBe(id);
    expect(m.handles[m.bookmarkStart]).toBe(-1);
    const v1 = m.version;
    for (let f = 10; f < 14; f++) {
      rec.beginFrame(f, 1);
      rec.endFrame();
    }
    m.refresh(); // frame 3 evicted
    expect(m.count - m.bookmarkStart).toBe(0);
    expect(m.version).toBeGreaterThan(v1);
    m.dispose();
  });
});
