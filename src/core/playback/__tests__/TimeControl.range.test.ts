import { describe, expect, it } from 'vitest';
import { TimeControl } from '../TimeControl';
import { quietRecorder } from './helpers';
import type { Recorder } from '../../record/Recorder';

/** Records `n` frames of 1/60 s each. */
function record(rec: Recorder, n: number): void {
  for (let i = 0; i < n; i++) {
    const f = rec.currentFrame;
    rec.beginFrame((f + 1) / 60, 1 / 60);
    rec.entity(1, f, 0, 0, 0, 0, 0, 1);
    rec.endFrame();
  }
}

/** A time control over `n` recorded frames (0..n-1), with a change counter. */
function setup(n: number, maxFrames = 900): { rec: Recorder; tc: TimeControl; events: () => number } {
  const rec = quietRecorder({ maxFrames });
  record(rec, n);
  const tc = new TimeControl(rec.reader);
  let count = 0;
  tc.onChange(() => count++);
  return { rec, tc, events: () => count };
}

describe('TimeControl in/out range', () => {
  it('has no range at first: its ends are the frames held', () => {
    const { tc } = setup(30);
    expect(tc.hasRange).toBe(false);
    expect(tc.rangeIn).toBe(0);
    expect(tc.rangeOut).toBe(29);
  });

  it('setRange rounds, orders and clamps to the frames held; NaN and an empty ring are ignored', () => {
    const { tc } = setup(30);
    tc.setRange(20.4, 9.6);
    expect([tc.hasRange, tc.rangeIn, tc.rangeOut]).toEqual([true, 10, 20]);
    tc.setRange(-50, 1e9);
    expect([tc.rangeIn, tc.rangeOut]).toEqual([0, 29]);
    tc.setRange(Number.NaN, 5);
    expect([tc.rangeIn, tc.rangeOut]).toEqual([0, 29]);
    const empty = new TimeControl(quietRecorder().reader);
    empty.setRange(1, 2);
    empty.markIn(3);
    empty.markOut(4);
    expect(empty.hasRange).toBe(false);
  });

  it('markIn and markOut set one end at the viewed frame and keep the other when it still fits', () => {
    const { tc } = setup(60);
    tc.seek(10.4);
    tc.markIn();
    expect([tc.rangeIn, tc.rangeOut]).toEqual([10, 59]);
    tc.seek(40);
    tc.markOut();
    expect([tc.rangeIn, tc.rangeOut]).toEqual([10, 40]);
    // An in point after the out point: the out point moves to the newest frame.
    tc.markIn(45);
    expect([tc.rangeIn, tc.rangeOut]).toEqual([45, 59]);
    // An out point before the in point: the in point moves to the oldest frame.
    tc.markOut(30);
    expect([tc.rangeIn, tc.rangeOut]).toEqual([0, 30]);
    tc.clearRange();
    expect(tc.hasRange).toBe(false);
    expect([tc.rangeIn, tc.rangeOut]).toEqual([0, 59]);
  });

  it('emits one change event per range change and none for a command that changes nothing', () => {
    const { tc, events } = setup(30);
    tc.pause();
    const e0 = events();
    tc.setRange(5, 10);
    expect(events()).toBe(e0 + 1);
    tc.setRange(10, 5);
    expect(events()).toBe(e0 + 1);
    tc.markOut(12);
    expect(events()).toBe(e0 + 2);
    tc.clearRange();
    expect(events()).toBe(e0 + 3);
    tc.clearRange();
    expect(events()).toBe(e0 + 3);
  });

  it('plays inside the range: stops at its out point, or loops inside it', () => {
    const { tc } = setup(100);
    tc.setRange(20, 30);
    tc.seek(25);
    tc.play();
    tc.update(3 / 60);
    expect(tc.position).toBeCloseTo(28, 4);
    tc.update(1);
    expect(tc.position).toBe(30);
    expect(tc.state).toBe('paused');
    // Playing again from the out point restarts at the in point.
    tc.play();
    expect(tc.position).toBe(20);
    tc.setLoop(true);
    tc.update(12 / 60); // 10 frames to the out point, wrap to the in point, 2 more
    expect(tc.position).toBeCloseTo(22, 4);
    expect(tc.state).toBe('playing');
    // A long update stays inside the range.
    for (let i = 0; i < 50; i++) {
      tc.update(0.37);
      expect(tc.position).toBeGreaterThanOrEqual(20);
      expect(tc.position).toBeLessThanOrEqual(30);
    }
  });

  it('loops in reverse inside the range', () => {
    const { tc } = setup(100);
    tc.setRange(20, 30);
    tc.setLoop(true);
    tc.setSpeed(-1);
    tc.seek(21);
    tc.play();
    tc.update(3 / 60); // 1 frame to the in point, wrap to the out point, 2 more back
    expect(tc.position).toBeCloseTo(28, 4);
  });

  it('play from outside the range starts at its first frame in the playing direction; seeking may leave it', () => {
    const { tc } = setup(100);
    tc.setRange(40, 50);
    tc.seek(80);
    expect(tc.position).toBe(80);
    tc.play();
    expect(tc.position).toBe(40);
    tc.pause();
    tc.seek(5);
    tc.setSpeed(-2);
    tc.play();
    expect(tc.position).toBe(50);
  });

  it('playRange loops the range at the chosen speed from its first frame in the playing direction', () => {
    const { tc } = setup(100);
    tc.setRange(10, 20);
    tc.setSpeed(2);
    tc.seek(70);
    tc.playRange();
    expect([tc.state, tc.loop, tc.position, tc.speed]).toEqual(['playing', true, 10, 2]);
    tc.update(3 / 60); // 6 frames at 2×
    expect(tc.position).toBeCloseTo(16, 4);
    tc.update(5 / 60); // 4 to the out point, wrap, 6 more
    expect(tc.position).toBeCloseTo(16, 4);
    tc.pause();
    tc.setSpeed(-1);
    tc.playRange();
    expect(tc.position).toBe(20);
    // Without a range, playRange loops over every frame held.
    tc.clearRange();
    tc.pause();
    tc.setSpeed(1);
    tc.playRange();
    expect(tc.position).toBe(0);
  });

  it('evicted frames shrink the range to the oldest frame held, and clear it when none of it is held', () => {
    const { rec, tc, events } = setup(10, 10);
    tc.pause();
    tc.setRange(3, 7);
    const e0 = events();
    record(rec, 5); // frames 0..4 evicted, oldest is 5
    tc.update(0);
    expect([tc.hasRange, tc.rangeIn, tc.rangeOut]).toEqual([true, 5, 7]);
    expect(events()).toBe(e0 + 1);
    tc.seek(6);
    tc.play();
    tc.update(10);
    expect(tc.position).toBe(7);
    record(rec, 5); // oldest is 10: the whole range is gone
    tc.update(0);
    expect(tc.hasRange).toBe(false);
    expect([tc.rangeIn, tc.rangeOut]).toEqual([10, 19]);
  });

  it('stays inside a range whose first frames were evicted while playing', () => {
    const { rec, tc } = setup(10, 10);
    tc.setRange(2, 8);
    tc.setLoop(true);
    tc.seek(7);
    tc.play();
    record(rec, 4); // oldest 4
    for (let i = 0; i < 20; i++) {
      tc.update(0.05);
      expect(tc.position).toBeGreaterThanOrEqual(4);
      expect(tc.position).toBeLessThanOrEqual(8);
    }
    expect(tc.rangeIn).toBe(4);
  });
});
