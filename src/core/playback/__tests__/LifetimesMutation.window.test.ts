import { describe, expect, it } from 'vitest';
import { Lifetimes } from '../Lifetimes';
import { Playback } from '../Playback';
import { quietRecorder, windowReader } from './helpers';

/**
 * `Lifetimes` and `Playback.trail` over a reader of a window of the frames (`windowReader`, as
 * `LiveStore.saveRange` builds one) whose entity table is the recorder's: it names lives that began
 * after the window's newest frame and lives that ended before its oldest, which a recorder's own
 * reader never holds (the recorder releases a handle once its frames leave the ring, and allocates
 * only when a frame is committed). Every answer is compared with the lives the game recorded.
 *
 * Kills, in Lifetimes.ts: `isHeld`'s `spawnFrames[handle] <= newestFrame` → `true` / `<` and
 * `lastFrame(handle) >= oldestFrame` → `true` / `>` (and `&&` → `||`), `forEach`'s same two tests,
 * `firstFrame`'s `s > o ? s : o` and `lastFrame`'s `l < n ? l : n` (each `true`, `false`, `>=`/`<=`),
 * `presentAt`'s `frame >= spawn` / `frame <= last` (each `true`, `>`/`<`). In Playback.ts: `trail`'s
 * `first` / `last` (`Math.max` → `Math.min`, the clamps `lo < first` / `hi > last` → `false`).
 */

interface Life {
  id: number;
  start: number;
  end: number;
  kind?: string;
  label?: string;
}

const FRAMES = 40;

function record() {
  const rec = quietRecorder({ maxFrames: 64 });
  rec.describeSkeleton('rig', [-1, 0]);
  const lives: Life[] = [];
  const current = new Map<number, Life>();
  for (let f = 0; f < FRAMES; f++) {
    rec.beginFrame(f, 1);
    for (let id = 0; id < 9; id++) {
      // id 0 always present; the others leave now and then (a new life when they come back).
      const here = id === 0 || (f + id) % (id + 3) !== 0;
      if (!here) {
        current.delete(id);
        continue;
      }
      let l = current.get(id);
      if (l === undefined) {
        l = { id, start: f, end: f };
        if (id % 2 === 1) {
          l.kind = id === 3 ? 'rig' : 'crate';
          l.label = `${l.kind}#${id}@${f}`;
          rec.describe(id, l.kind, l.label);
        }
        lives.push(l);
        current.set(id, l);
      }
      l.end = f;
      rec.entity(id, id + f, 2 * id, 0, 0, 0, 0, 1, 0);
    }
    rec.endFrame();
  }
  return { rec, lives };
}

describe('Lifetimes and trail over a window of the frames', () => {
  it('answer for the window only: lives before it and after it are not held', () => {
    const { rec, lives } = record();
    const t = rec.entities;
    const handleOf = (l: Life): number => {
      for (let h = 0; h < t.highWater; h++)
        if (t.used[h] === 1 && t.ids[h] === l.id && t.spawnFrames[h] === l.start) return h;
      throw new Error(`no handle for ${l.id}/${l.start}`);
    };
    // Every life keeps its handle (no frame left the ring).
    expect(lives.length).toBe(t.highWater);
    let before = 0;
    let after = 0;
    for (const [from, to] of [
      [0, FRAMES - 1],
      [6, 14],
      [11, 11],
      [15, 27],
      [30, FRAMES - 1],
    ]) {
      const reader = windowReader(rec, from, to);
      expect([reader.oldestFrame, reader.newestFrame]).toEqual([from, to]);
      const lt = new Lifetimes(reader);
      const pb = new Playback(reader);
      const held: number[] = [];
      const got: unknown[] = [];
      const want: unknown[] = [];
      for (const l of lives) {
        const h = handleOf(l);
        const isHeld = l.start <= to && l.end >= from;
        if (isHeld) held.push(h);
        if (l.start > to) after++;
        if (l.end < from) before++;
        const presence: boolean[] = [];
        const present: boolean[] = [];
        for (let f = from - 1; f <= to + 1; f++) {
          presence.push(lt.presentAt(h, f));
          present.push(f >= from && f <= to && f >= l.start && f <= l.end);
        }
        got.push([h, lt.isHeld(h), lt.firstFrame(h), lt.lastFrame(h), lt.existsAtNewest(h), presence]);
        want.push([
          h,
          isHeld,
          isHeld ? Math.max(l.start, from) : -1,
          isHeld ? Math.min(l.end, to) : -1,
          isHeld && l.end >= to,
          present,
        ]);
        // The description and the id do not depend on the window.
        got.push([lt.id(h), lt.spawnFrame(h), lt.kind(h), lt.label(h), lt.skeleton(h) && Array.from(lt.skeleton(h)!)]);
        want.push([l.id, l.start, l.kind, l.label, l.kind === 'rig' ? [-1, 0] : undefined]);
        // The trail: the positions of the frames of the life inside the window, whatever the range asked.
        const xyz = new Float32Array(3 * 64);
        const frames = new Int32Array(64);
        const n = pb.trail(h, -1e9, 1e9, xyz, frames);
        const points: number[][] = [];
        for (let k = 0; k < n; k++) points.push([frames[k], xyz[k * 3], xyz[k * 3 + 1]]);
        const wantPoints: number[][] = [];
        for (let f = Math.max(l.start, from); f <= Math.min(l.end, to); f++) wantPoints.push([f, l.id + f, 2 * l.id]);
        got.push(points);
        want.push(wantPoints);
      }
      expect(got, `window ${from}..${to}`).toEqual(want);
      const each: number[] = [];
      lt.forEach((h) => each.push(h));
      expect(each).toEqual(held.sort((a, b) => a - b));
      pb.dispose();
    }
    // A window whose frames have all left its ring: nothing is held, though lives span its bounds.
    // Kills `r.frameCount === 0` → `false` (and `||` → `&&`) in `isHeld` and in `forEach`.
    const empty = windowReader(rec, 6, 14);
    while (empty.frameCount > 0) empty.ring.evictOldest();
    expect([empty.oldestFrame, empty.newestFrame]).toEqual([15, 14]);
    const spanning = lives.filter((l) => l.start <= 14 && l.end >= 15);
    expect(spanning.length).toBeGreaterThan(0);
    const lt = new Lifetimes(empty);
    expect(
      spanning.map((l) => [lt.isHeld(handleOf(l)), lt.firstFrame(handleOf(l)), lt.existsAtNewest(handleOf(l))]),
    ).toEqual(spanning.map(() => [false, -1, false]));
    let none = 0;
    lt.forEach(() => none++);
    expect(none).toBe(0);
    // The windows name lives on both sides.
    expect(before).toBeGreaterThan(20);
    expect(after).toBeGreaterThan(20);
  });
});
