import { describe, expect, it } from 'vitest';
import { Bookmarks } from '../Bookmarks';
import { MarkerKind } from '../MarkerIndex';
import { nearestMarker } from '../nearestMarker';
import { Playback } from '../Playback';
import { TimeControl } from '../TimeControl';
import { quietRecorder } from './helpers';

function recorded(n: number) {
  const rec = quietRecorder();
  for (let i = 0; i < n; i++) {
    rec.beginFrame(i / 60, 1 / 60);
    rec.entity(1, i, 0, 0, 0, 0, 0, 1);
    rec.endFrame();
  }
  return rec;
}

describe('TimeControl: shuttle and the speed at a new pause', () => {
  it('shuttle plays at 1× that way, doubles when already playing that way, and stays within maxSpeed', () => {
    const tc = new TimeControl(recorded(60).reader);
    tc.seek(30);
    const events: string[] = [];
    tc.onChange((t) => events.push(`${t.state} ${t.speed}`));
    const seen: Array<[string, number]> = [];
    for (const d of [1, 1, 1, 1, 1, -1, -1] as const) {
      tc.shuttle(d);
      seen.push([tc.state, tc.speed]);
    }
    expect(seen).toEqual([
      ['playing', 1],
      ['playing', 2],
      ['playing', 4],
      ['playing', 8],
      ['playing', 8],
      ['playing', -1],
      ['playing', -2],
    ]);
    // One change event per command that changed something (none for the clamped 8 → 8).
    expect(events).toEqual(['playing 1', 'playing 2', 'playing 4', 'playing 8', 'playing -1', 'playing -2']);
    tc.pause();
    tc.shuttle(-1);
    expect([tc.state, tc.speed]).toEqual(['playing', -1]);
  });

  it('going live sets the speed back to 1×, unless keepSpeed', () => {
    const reader = recorded(10).reader;
    const tc = new TimeControl(reader);
    tc.pause();
    tc.setSpeed(-2);
    tc.goLive();
    expect(tc.speed).toBe(1);
    tc.pause();
    tc.play();
    expect(tc.speed).toBe(1);
    const keep = new TimeControl(reader, { keepSpeed: true });
    keep.pause();
    keep.setSpeed(-2);
    keep.goLive();
    expect(keep.speed).toBe(-2);
  });
});

describe('nearestMarker', () => {
  it('finds the nearest marker of the chosen kinds strictly after or before a position', () => {
    const pb = new Playback(recorded(100).reader);
    for (const f of [10, 40, 41, 70]) pb.bookmarks.add(f, '');
    pb.markers.refresh();
    const mask = 1 << MarkerKind.BOOKMARK;
    expect(nearestMarker(pb.markers, 40, 1, mask)).toBe(41);
    expect(nearestMarker(pb.markers, 40, -1, mask)).toBe(10);
    expect(nearestMarker(pb.markers, 40.5, 1, mask)).toBe(41);
    expect(nearestMarker(pb.markers, 41, 1, mask)).toBe(70);
    expect(nearestMarker(pb.markers, 40.5, -1, mask)).toBe(40);
    expect(nearestMarker(pb.markers, 70, 1, mask)).toBeNaN();
    expect(nearestMarker(pb.markers, 10, -1, mask)).toBeNaN();
    // Other kinds only: the bookmarks are skipped (the recording has a spawn at its first frame).
    expect(nearestMarker(pb.markers, 50, -1, 1 << MarkerKind.SPAWN)).toBe(0);
    expect(nearestMarker(pb.markers, 50, 1, 1 << MarkerKind.SPAWN)).toBeNaN();
    expect(nearestMarker(pb.markers, Number.NaN, 1, mask)).toBeNaN();
  });
});

describe('Bookmarks.rename', () => {
  it('changes the label, keeps id, frame and order, and tells the listeners once', () => {
    const b = new Bookmarks();
    const a = b.add(5, 'a');
    const c = b.add(9, 'c');
    let changes = 0;
    b.onChange(() => changes++);
    const before = b.list();
    expect(b.rename(a, 'guard gives up')).toBe(true);
    expect(b.list()).toEqual([
      { id: a, frame: 5, label: 'guard gives up' },
      { id: c, frame: 9, label: 'c' },
    ]);
    expect(b.list()).not.toBe(before);
    expect(changes).toBe(1);
    expect(b.rename(a, 'guard gives up')).toBe(true);
    expect(changes).toBe(1);
    expect(b.rename(999, 'x')).toBe(false);
    expect(Object.isFrozen(b.get(a))).toBe(true);
  });
});
