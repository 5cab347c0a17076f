import { describe, expect, it } from 'vitest';
import { Bookmarks } from '../Bookmarks';
import { DEFAULT_PLAYBACK_OPTIONS, Playback } from '../Playback';
import { quietRecorder } from './helpers';

/**
 * Playback's own logic: its documented defaults, and `trail`'s range and capacity rules against
 * the positions the game recorded (an output whose length is not a multiple of 3, a frames array
 * shorter or longer than it, ranges given either way round with fractional and whole ends, and a
 * range of one frame).
 */

describe('Playback', () => {
  // Kills: `DEFAULT_PLAYBACK_OPTIONS` → `{}` and its parts → `{}` / removed.
  it('has the documented defaults', () => {
    expect(DEFAULT_PLAYBACK_OPTIONS).toEqual({ time: {}, sampler: {} });
    expect(Object.isFrozen(DEFAULT_PLAYBACK_OPTIONS)).toBe(true);
  });

  // Kills: `Math.floor(out.length / 3)` → `Math.ceil` / `* 3`, `frames.length < cap` → `>` / `true`,
  // `k < cap` → `<=`, `Math.ceil(Math.min(...))` / `Math.floor(Math.max(...))` swapped, `k * 3` → `/`,
  // `frames[k] = f` left out.
  it('trail: whole frames of the range, as many as the output holds', () => {
    const rec = quietRecorder();
    for (let f = 0; f < 30; f++) {
      rec.beginFrame(f, 1);
      if (f >= 5) rec.entity(3, f, 100 + f, -f, 0, 0, 0, 1);
      rec.endFrame();
    }
    const pb = new Playback(rec.reader);
    const h = rec.entities.lookup(3);
    const point = (f: number): number[] => [f, f, 100 + f, -f];
    const trail = (from: number, to: number, floats: number, frameSlots?: number): number[][] => {
      const out = new Float32Array(floats).fill(-1);
      const frames = frameSlots === undefined ? undefined : new Int32Array(frameSlots).fill(-1);
      const n = pb.trail(h, from, to, out, frames);
      const got: number[][] = [];
      for (let k = 0; k < n; k++)
        got.push([frames === undefined ? -1 : frames[k], out[k * 3], out[k * 3 + 1], out[k * 3 + 2]]);
      // Nothing written past the points returned.
      for (let j = n * 3; j < out.length; j++) expect(out[j]).toBe(-1);
      if (frames !== undefined) for (let j = n; j < frames.length; j++) expect(frames[j]).toBe(-1);
      return got;
    };
    expect(trail(10, 14, 30, 10)).toEqual([10, 11, 12, 13, 14].map(point));
    expect(trail(14, 10, 30, 10)).toEqual([10, 11, 12, 13, 14].map(point));
    expect(trail(10.5, 13.5, 30, 10)).toEqual([11, 12, 13].map(point));
    expect(trail(13.5, 10.5, 30, 10)).toEqual([11, 12, 13].map(point));
    expect(trail(12, 12, 30, 10)).toEqual([point(12)]);
    expect(trail(12.2, 12.8, 30, 10)).toEqual([]);
    // 8 floats hold two points; 9 hold three.
    expect(trail(10, 20, 8, 10)).toEqual([10, 11].map(point));
    expect(trail(10, 20, 9, 10)).toEqual([10, 11, 12].map(point));
    // A frames array shorter than the output bounds the points; a longer one does not.
    expect(trail(10, 20, 30, 3)).toEqual([10, 11, 12].map(point));
    expect(trail(10, 20, 6, 10)).toEqual([10, 11].map(point));
    // Without a frames array.
    expect(trail(0, 6, 30).map((p) => p.slice(1))).toEqual([5, 6].map((f) => point(f).slice(1)));
    pb.dispose();
  });
});

describe('Bookmarks.add', () => {
  // Kills: `this.items.slice()` → `this.items` in `add` (the listed array changed in place).
  it('replaces the listed array: a list taken before an add is unchanged', () => {
    const b = new Bookmarks();
    b.add(5, 'a');
    const before = b.list();
    b.add(1, 'b');
    expect(before.map((x) => x.label)).toEqual(['a']);
    expect(b.list().map((x) => x.label)).toEqual(['b', 'a']);
  });
});
