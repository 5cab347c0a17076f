import { describe, expect, it } from 'vitest';
import { Lifetimes } from '../Lifetimes';
import { quietRecorder } from './helpers';

/**
 * Every `Lifetimes` query for every handle the table has issued (and the handles just outside it),
 * against the lives the game recorded, frame after frame while the ring (12 frames) wraps, both
 * between frames and with a frame open: lives that began before the oldest frame held, lives that
 * end in the newest, lives of one frame, kinds with and without a skeleton, undescribed lives, and
 * freed handles.
 */

interface Life {
  id: number;
  start: number;
  end: number;
  kind?: string;
  label?: string;
}

const SKELETON = [-1, 0, 1];

describe('Lifetimes against the recorded lives', () => {
  it('answers every query for every handle, between frames and with a frame open', () => {
    const rec = quietRecorder({ maxFrames: 12 });
    rec.describeSkeleton('rig', SKELETON);
    const lt = new Lifetimes(rec.reader);
    const lives: Life[] = [];
    const current = new Map<number, Life>();
    let checks = 0;

    const check = (open: boolean): void => {
      const r = rec.reader;
      const t = rec.entities;
      const oldest = r.oldestFrame;
      const newest = r.newestFrame;
      const held = new Map<number, Life>();
      for (const l of lives) {
        if (l.start > newest || l.end < oldest) continue;
        let h = -1;
        for (let k = 0; k < t.highWater; k++)
          if (t.used[k] === 1 && t.ids[k] === l.id && t.spawnFrames[k] === l.start) h = k;
        expect(h, `life ${l.id}/${l.start}`).toBeGreaterThanOrEqual(0);
        held.set(h, l);
      }
      const each: number[] = [];
      lt.forEach((h) => each.push(h));
      expect(each).toEqual([...held.keys()].sort((a, b) => a - b));
      // One row per handle, the answers against what the lives say.
      const got: unknown[] = [];
      const want: unknown[] = [];
      for (let h = -1; h <= t.highWater + 1; h++) {
        const l = held.get(h);
        const inUse = h >= 0 && h < t.highWater && t.used[h] === 1;
        const presence: boolean[] = [];
        const present: boolean[] = [];
        for (let f = oldest - 1; f <= newest + 1; f++) {
          presence.push(lt.presentAt(h, f));
          present.push(l !== undefined && f >= oldest && f <= newest && f >= l.start && f <= l.end);
        }
        const sk = lt.skeleton(h);
        got.push([h, lt.isHeld(h), lt.firstFrame(h), lt.lastFrame(h), lt.existsAtNewest(h), presence]);
        // A handle in use but not held (its life began in the open frame, or its frames have left
        // the ring): its id and spawn frame all the same; its description is not checked.
        const description = inUse && l === undefined ? [] : [lt.kind(h), lt.label(h), sk && Array.from(sk)];
        got.push([lt.id(h), lt.spawnFrame(h), ...description]);
        want.push([
          h,
          l !== undefined,
          l === undefined ? -1 : Math.max(l.start, oldest),
          l === undefined ? -1 : Math.min(l.end, newest),
          l !== undefined && l.end >= newest,
          present,
        ]);
        if (l !== undefined) want.push([l.id, l.start, l.kind, l.label, l.kind === 'rig' ? SKELETON : undefined]);
        else if (inUse) want.push([t.ids[h], t.spawnFrames[h]]);
        else want.push([-1, -1, undefined, undefined, undefined]);
        checks++;
      }
      expect(got, `frames ${oldest}..${newest}${open ? ' (open)' : ''}`).toEqual(want);
    };

    check(false); // nothing recorded
    for (let f = 0; f < 30; f++) {
      rec.beginFrame(f, 1);
      for (let id = 0; id < 8; id++) {
        // id 0 always present; the others leave now and then (a new life when they come back),
        // id 7 lives one frame at a time every third frame.
        const here = id === 0 || (id === 7 ? f % 3 === 0 : (f + id) % (id + 2) !== 0);
        if (!here) {
          current.delete(id);
          continue;
        }
        let l = current.get(id);
        if (l === undefined) {
          l = { id, start: f, end: f };
          if (id % 3 === 1) {
            l.kind = id === 4 ? 'rig' : 'crate';
            l.label = `${l.kind}#${id}@${f}`;
            rec.describe(id, l.kind, l.label);
          } else if (id === 6) {
            l.kind = 'guard'; // a kind without a label
            rec.describe(id, l.kind);
          }
          lives.push(l);
          current.set(id, l);
        }
        l.end = f;
        rec.entity(id, id, f, 0, 0, 0, 0, 1, 0);
      }
      if (f > 0) check(true);
      rec.endFrame();
      check(false);
    }
    expect(checks).toBeGreaterThan(500);
  });
});
