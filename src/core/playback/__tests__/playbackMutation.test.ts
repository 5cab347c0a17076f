/**
 * Bookmarks and nearestMarker at their edges: order among equal frames, rounding, ids that are never
 * reused, listeners that unsubscribe or throw, and the nearest marker in each direction with masks,
 * ties and NaN; Playback.dispose. Comments name the mutants (Stryker's notation) a case kills.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Bookmarks } from '../Bookmarks';
import type { MarkerIndex } from '../MarkerIndex';
import { MarkerKind } from '../MarkerIndex';
import { nearestMarker } from '../nearestMarker';
import { Playback } from '../Playback';
import { DEFAULT_TIME_CONTROL_OPTIONS } from '../TimeControlOptions';
import { quietRecorder } from './helpers';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('Bookmarks', () => {
  it('keeps bookmarks sorted by frame, equal frames in the order added, frames rounded', () => {
    const b = new Bookmarks();
    const ids = [b.add(10, 'a'), b.add(5, 'b'), b.add(10, 'c'), b.add(4.6, 'd'), b.add(10.4, 'e'), b.add(0, 'f')];
    expect(ids).toEqual([1, 2, 3, 4, 5, 6]);
    expect(b.list().map((x) => `${x.frame}${x.label}`)).toEqual(['0f', '5b', '5d', '10a', '10c', '10e']);
    expect(Object.isFrozen(b.list()[0])).toBe(true);
    expect(b.get(3)).toEqual({ id: 3, frame: 10, label: 'c' });
    expect(b.get(99)).toBeUndefined();
    expect(b.add(-3, 7 as unknown as string)).toBe(7);
    expect(b.list()[0]).toEqual({ id: 7, frame: -3, label: '7' });
  });

  it('refuses a frame that is not a finite number', () => {
    const b = new Bookmarks();
    expect(() => b.add(Number.NaN, 'x')).toThrow('rewindable: bookmark frame must be a finite number (got NaN)');
    expect(() => b.add(Number.POSITIVE_INFINITY, 'x')).toThrow('(got Infinity)');
    expect(b.list()).toEqual([]);
  });

  it('removes and renames by id; ids are not reused; each change is a new list', () => {
    const b = new Bookmarks();
    b.add(1, 'a');
    b.add(2, 'b');
    const before = b.list();
    expect(b.remove(1)).toBe(true);
    expect(b.remove(1)).toBe(false);
    expect(before.map((x) => x.label)).toEqual(['a', 'b']); // the old list is unchanged
    expect(b.list().map((x) => x.id)).toEqual([2]);
    expect(b.add(0, 'c')).toBe(3);
    const mid = b.list();
    expect(b.rename(2, 'B')).toBe(true);
    expect(b.rename(9, 'x')).toBe(false);
    expect(mid[1]).toEqual({ id: 2, frame: 2, label: 'b' });
    expect(b.list()).toEqual([
      { id: 3, frame: 0, label: 'c' },
      { id: 2, frame: 2, label: 'B' },
    ]);
    expect(Object.isFrozen(b.list()[1])).toBe(true);
    expect(b.rename(3, 12 as unknown as string)).toBe(true);
    expect(b.get(3)?.label).toBe('12');
  });

  it('tells listeners of each change only, and stops after unsubscribing', () => {
    const b = new Bookmarks();
    const seen: string[] = [];
    const offA = b.onChange(() => seen.push(`a${b.list().length}`));
    b.onChange(() => seen.push(`b${b.list().length}`));
    b.add(1, 'x');
    b.rename(1, 'x'); // same label: no change
    b.rename(1, 'y');
    b.remove(5);
    b.rename(5, 'z');
    offA();
    offA();
    b.add(2, 'w');
    b.clear();
    b.clear(); // already empty: no change
    expect(seen).toEqual(['a1', 'b1', 'a1', 'b1', 'b2', 'b0']);
    expect(b.list()).toEqual([]);
  });

  it('a throwing listener is reported and the others still run', () => {
    const err = vi.spyOn(console, 'error').mockImplementation(() => {});
    const b = new Bookmarks();
    const seen: number[] = [];
    b.onChange(() => {
      throw new Error('boom');
    });
    b.onChange(() => seen.push(b.list().length));
    b.add(0, 'x');
    expect(seen).toEqual([1]);
    expect(err).toHaveBeenCalledTimes(1);
    expect(err.mock.calls[0][0]).toBe('rewindable: Bookmarks change listener threw');
    expect((err.mock.calls[0][1] as Error).message).toBe('boom');
  });
});

describe('nearestMarker', () => {
  /** A marker index holding (kind, frame) pairs, as MarkerIndex lays them out. */
  function markers(pairs: [number, number][]): MarkerIndex {
    return {
      count: pairs.length,
      kinds: Uint8Array.from(pairs.map((p) => p[0])),
      frames: Int32Array.from(pairs.map((p) => p[1])),
    } as unknown as MarkerIndex;
  }
  const ALL = 0xff;
  const { SPAWN, DESPAWN, DAMAGE, BOOKMARK, EVENT, OVER_BUDGET } = MarkerKind;

  it('finds the nearest marker strictly after or before the position, in any order of the list', () => {
    const m = markers([
      [SPAWN, 40],
      [DAMAGE, 10],
      [EVENT, 25],
      [BOOKMARK, 20],
      [DESPAWN, 30],
      [OVER_BUDGET, 5],
    ]);
    expect(nearestMarker(m, 20, 1, ALL)).toBe(25);
    expect(nearestMarker(m, 20, -1, ALL)).toBe(10);
    expect(nearestMarker(m, 20.5, -1, ALL)).toBe(20);
    expect(nearestMarker(m, 19.5, 1, ALL)).toBe(20);
    expect(nearestMarker(m, 4, -1, ALL)).toBeNaN();
    expect(nearestMarker(m, 40, 1, ALL)).toBeNaN();
    expect(nearestMarker(m, 0, 1, ALL)).toBe(5);
    expect(nearestMarker(m, 100, -1, ALL)).toBe(40);
  });

  it('keeps only the kinds of the mask', () => {
    const m = markers([
      [DAMAGE, 10],
      [EVENT, 12],
      [BOOKMARK, 14],
      [SPAWN, 8],
    ]);
    expect(nearestMarker(m, 9, 1, 1 << BOOKMARK)).toBe(14);
    expect(nearestMarker(m, 9, 1, (1 << EVENT) | (1 << BOOKMARK))).toBe(12);
    expect(nearestMarker(m, 13, -1, 1 << SPAWN)).toBe(8);
    expect(nearestMarker(m, 13, -1, 1 << OVER_BUDGET)).toBeNaN();
    expect(nearestMarker(m, 13, -1, 0)).toBeNaN();
  });

  it('gives NaN for a NaN position or no markers, and ignores entries past count', () => {
    expect(nearestMarker(markers([[SPAWN, 3]]), Number.NaN, 1, ALL)).toBeNaN();
    expect(nearestMarker(markers([]), 3, -1, ALL)).toBeNaN();
    const m = markers([
      [SPAWN, 3],
      [SPAWN, 4],
    ]);
    (m as { count: number }).count = 1;
    expect(nearestMarker(m, 0, 1, ALL)).toBe(3);
    expect(nearestMarker(m, 3, 1, ALL)).toBeNaN();
  });
});

describe('Playback.dispose', () => {
  it('stops the markers following the bookmarks: a bookmark outside the frames held no longer bumps the version', () => {
    // Playback `dispose` emptied, or MarkerIndex `dispose` emptied (`this.unsubscribe()` left out):
    // the markers still took the bookmark change for a change of their own.
    const rec = quietRecorder();
    for (let f = 0; f < 5; f++) {
      rec.beginFrame(f, 1);
      rec.entity(1, f, 0, 0, 0, 0, 0, 1);
      rec.endFrame();
    }
    const pb = new Playback(rec.reader);
    pb.update(0);
    const v = pb.markers.version;
    pb.bookmarks.add(1000, 'past the newest frame');
    pb.update(0);
    expect(pb.markers.version).toBe(v + 1);
    expect(pb.markers.count - pb.markers.bookmarkStart).toBe(0);
    pb.dispose();
    pb.bookmarks.add(2000, 'after dispose');
    pb.update(0);
    expect(pb.markers.version).toBe(v + 1);
  });
});

describe('DEFAULT_TIME_CONTROL_OPTIONS', () => {
  it('are the documented defaults', () => {
    // TimeControlOptions `loop: false → true`, `1 / 60 → 1 * 60`.
    expect({ ...DEFAULT_TIME_CONTROL_OPTIONS }).toEqual({
      minSpeed: 0.05,
      maxSpeed: 8,
      loop: false,
      fallbackDt: 1 / 60,
      maxFrameDt: 1,
      keepSpeed: false,
    });
    expect(Object.isFrozen(DEFAULT_TIME_CONTROL_OPTIONS)).toBe(true);
  });
});
