import { describe, expect, it, vi } from 'vitest';
import { TimeControl } from '../TimeControl';
import { Sampler } from '../Sampler';
import { SampleBuffer } from '../SampleBuffer';
import { quietRecorder } from './helpers';
import type { Recorder } from '../../record/Recorder';

/** Records `n` frames; frame i has dt `dts(i)` and time = sum of dts so far. */
function record(rec: Recorder, n: number, dts: (i: number) => number = () => 1 / 60, t0 = 0): number {
  let time = t0;
  for (let i = 0; i < n; i++) {
    const dt = dts(rec.currentFrame);
    time += dt;
    rec.beginFrame(time, dt);
    rec.entity(1, rec.currentFrame, 0, 0, 0, 0, 0, 1);
    rec.endFrame();
  }
  return time;
}

/** Game time at a fractional position, by the recorded times (what playback must follow). */
function timeAt(tc: TimeControl, p: number): number {
  const r = tc.reader;
  const f = Math.floor(p);
  if (f >= r.newestFrame) return r.timeOf(r.newestFrame);
  return r.timeOf(f) + (r.timeOf(f + 1) - r.timeOf(f)) * (p - f);
}

describe('TimeControl', () => {
  it('rejects impossible options with a RangeError', () => {
    const rec = quietRecorder();
    expect(() => new TimeControl(rec.reader, { minSpeed: 0 })).toThrow(RangeError);
    expect(() => new TimeControl(rec.reader, { minSpeed: 2, maxSpeed: 1 })).toThrow(RangeError);
    expect(() => new TimeControl(rec.reader, { fallbackDt: 0 })).toThrow(RangeError);
  });

  it('handles an empty ring: commands change state only, nothing throws, sampling reports nothing', () => {
    const rec = quietRecorder();
    const tc = new TimeControl(rec.reader);
    expect(tc.state).toBe('live');
    expect(tc.position).toBe(0);
    tc.pause();
    expect(tc.state).toBe('paused');
    tc.seek(50);
    tc.step(10);
    tc.seekTime(3);
    tc.toOldest();
    tc.toNewest();
    expect(tc.position).toBe(0);
    tc.play();
    expect(tc.state).toBe('playing');
    tc.update(1);
    expect(tc.position).toBe(0);
    tc.goLive();
    tc.update(0.1);
    expect(tc.state).toBe('live');
    expect(new Sampler(rec.reader).sample(tc.position, new SampleBuffer())).toBe(false);
    // The first frame recorded while live is followed.
    record(rec, 1);
    tc.update(0.016);
    expect(tc.position).toBe(0);
    expect(tc.state).toBe('live');
  });

  it('handles a single frame: play stops at once, steps and seeks stay on it, loop cannot spin', () => {
    const rec = quietRecorder();
    record(rec, 1);
    const tc = new TimeControl(rec.reader, { loop: true });
    tc.play();
    tc.update(1);
    expect(tc.state).toBe('paused');
    expect(tc.position).toBe(0);
    tc.step(1);
    expect(tc.position).toBe(0);
    tc.step(-10);
    expect(tc.position).toBe(0);
    tc.seek(-5);
    expect(tc.position).toBe(0);
    tc.setSpeed(-8);
    tc.play();
    tc.update(10);
    expect(tc.state).toBe('paused');
  });

  it('follows the newest frame while live and pauses there', () => {
    const rec = quietRecorder();
    record(rec, 5);
    const tc = new TimeControl(rec.reader);
    expect(tc.position).toBe(4);
    record(rec, 3);
    expect(tc.position).toBe(7);
    tc.pause();
    expect(tc.state).toBe('paused');
    expect(tc.position).toBe(7);
    record(rec, 2); // the game kept recording (it should not, but nothing breaks)
    expect(tc.position).toBe(7);
    tc.goLive();
    expect(tc.position).toBe(9);
  });

  it('clamps speeds to the limits, keeps direction, ignores NaN, treats 0 as the slowest speed', () => {
    const rec = quietRecorder();
    const tc = new TimeControl(rec.reader);
    tc.setSpeed(100);
    expect(tc.speed).toBe(8);
    tc.setSpeed(-100);
    expect(tc.speed).toBe(-8);
    tc.setSpeed(Number.NEGATIVE_INFINITY);
    expect(tc.speed).toBe(-8);
    tc.setSpeed(0.001);
    expect(tc.speed).toBe(0.05);
    tc.setSpeed(-0.001);
    expect(tc.speed).toBe(-0.05);
    tc.setSpeed(0);
    expect(tc.speed).toBe(-0.05);
    tc.setSpeed(2);
    tc.setSpeed(0);
    expect(tc.speed).toBe(0.05);
    tc.setSpeed(Number.NaN);
    expect(tc.speed).toBe(0.05);
    tc.setSpeed(-3.5);
    expect(tc.speed).toBe(-3.5);
  });

  it('plays true to recorded time when the frame rate varied, at several speeds', () => {
    const rec = quietRecorder({ maxFrames: 1000 });
    // dt alternates between 1/30, 1/60 and 1/144: the game's frame rate varied.
    const pattern = [1 / 30, 1 / 60, 1 / 144, 1 / 60];
    record(rec, 1000, (i) => pattern[i % 4], 10);
    for (const speed of [1, 2, 0.25, 8, 0.05, -0.05, -8]) {
      const tc = new TimeControl(rec.reader);
      tc.seek(speed > 0 ? 20 : 900);
      tc.setSpeed(speed);
      tc.play();
      const start = timeAt(tc, tc.position);
      let real = 0;
      for (let i = 0; i < 60; i++) {
        const dt = i % 3 === 0 ? 1 / 50 : 1 / 70; // the viewer's frame rate varies too
        tc.update(dt);
        real += dt;
        // Durations are the recorded float32 dts; times are float64 sums: equal to ~1e-9.
        expect(timeAt(tc, tc.position) - start).toBeCloseTo(real * speed, 6);
      }
      expect(tc.state).toBe('playing');
    }
    // Reverse.
    const tc = new TimeControl(rec.reader);
    tc.seek(300.5);
    tc.setSpeed(-1.5);
    tc.play();
    const start = timeAt(tc, tc.position);
    for (let i = 0; i < 30; i++) tc.update(1 / 60);
    expect(start - timeAt(tc, tc.position)).toBeCloseTo(0.5 * 1.5, 6);
  });

  it('uses the fallback for frames without a usable dt and caps recorded hitches', () => {
    const rec = quietRecorder();
    // Frame 0: dt 0 and nothing before it. Frames 1-4: dt 0 but times advance by 0.1. Frame 5: a 10 s hitch.
    const times = [0, 0.1, 0.2, 0.3, 0.4, 10.4, 10.5];
    for (let i = 0; i < times.length; i++) {
      rec.beginFrame(times[i], i === 5 ? 10 : i === 6 ? 0.1 : 0);
      rec.endFrame();
    }
    const tc = new TimeControl(rec.reader, { fallbackDt: 0.5, maxFrameDt: 2 });
    expect(tc.frameDuration(2)).toBeCloseTo(0.1, 12); // from the recorded times
    expect(tc.frameDuration(5)).toBe(2); // hitch capped
    expect(tc.frameDuration(6)).toBeCloseTo(0.1, 6);
    tc.seek(0);
    tc.play();
    tc.update(0.4); // frames 1..4 last 0.1 s each
    expect(tc.position).toBeCloseTo(4, 9);
    tc.update(1); // half of the capped 2 s hitch
    expect(tc.position).toBeCloseTo(4.5, 9);
  });

  it('stops at the newest frame playing forward, and at the oldest playing in reverse', () => {
    const rec = quietRecorder();
    record(rec, 10);
    const tc = new TimeControl(rec.reader);
    tc.seek(7);
    tc.play();
    tc.update(1); // 60 frames' worth
    expect(tc.position).toBe(9);
    expect(tc.state).toBe('paused');
    tc.setSpeed(-8);
    tc.play();
    tc.update(1);
    expect(tc.position).toBe(0);
    expect(tc.state).toBe('paused');
  });

  it('reverses through the oldest frame of a wrapped ring and clamps seeks into evicted frames', () => {
    const rec = quietRecorder({ maxFrames: 10 });
    record(rec, 25);
    expect(rec.reader.oldestFrame).toBe(15);
    const tc = new TimeControl(rec.reader);
    tc.seek(3); // evicted
    expect(tc.position).toBe(15);
    expect(tc.state).toBe('paused');
    tc.seek(1e9);
    expect(tc.position).toBe(24);
    tc.seek(Number.NEGATIVE_INFINITY);
    expect(tc.position).toBe(15);
    tc.seek(17.5);
    tc.setSpeed(-1);
    tc.play();
    tc.update(1 / 60); // one frame back
    expect(tc.position).toBeCloseTo(16.5, 6);
    tc.update(10);
    expect(tc.position).toBe(15);
    expect(tc.state).toBe('paused');
    // Looping in reverse wraps to the newest frame.
    tc.setLoop(true);
    tc.seek(15.5);
    tc.play();
    tc.update(1 / 60 + 2 / 60); // 0.5 frame to the oldest, then from the newest 2.5 frames back
    expect(tc.position).toBeCloseTo(21.5, 6);
    expect(tc.state).toBe('playing');
    // Frames evicted while paused: the position moves up to the oldest held.
    tc.pause();
    tc.seek(16);
    record(rec, 5);
    expect(rec.reader.oldestFrame).toBe(20);
    expect(tc.position).toBe(20);
    tc.update(0);
    expect(tc.position).toBe(20);
  });

  it('loops forward from the newest frame to the oldest', () => {
    const rec = quietRecorder({ maxFrames: 10 });
    record(rec, 12);
    const tc = new TimeControl(rec.reader, { loop: true });
    expect(tc.loop).toBe(true);
    tc.seek(10.5);
    tc.play();
    tc.update(3 / 60); // 0.5 frame to the newest (11), wrap to the oldest (2), then 2.5 more
    expect(tc.position).toBeCloseTo(4.5, 6);
    // A huge update with loop on ends (one lap at most per update) and stays in range.
    tc.update(1e6);
    expect(tc.position).toBeGreaterThanOrEqual(2);
    expect(tc.position).toBeLessThanOrEqual(11);
    expect(tc.state).toBe('playing');
  });

  it('steps by ±1 and ±10 from the rounded position, pausing, clamped to the range', () => {
    const rec = quietRecorder();
    record(rec, 30);
    const tc = new TimeControl(rec.reader);
    tc.step(-1); // from live: the newest frame is 29
    expect(tc.position).toBe(28);
    expect(tc.state).toBe('paused');
    tc.seek(12.6);
    tc.play();
    tc.step(1);
    expect(tc.position).toBe(14);
    expect(tc.state).toBe('paused');
    tc.step(-10);
    expect(tc.position).toBe(4);
    tc.step(-10);
    expect(tc.position).toBe(0);
    tc.step(10);
    tc.step(10);
    tc.step(10);
    expect(tc.position).toBe(29);
    tc.step(Number.NaN);
    expect(tc.position).toBe(29);
  });

  it('seeks to a time, interpolating between frames', () => {
    const rec = quietRecorder();
    const pattern = [0.1, 0.3];
    record(rec, 20, (i) => pattern[i % 2], 0);
    const tc = new TimeControl(rec.reader);
    const t5 = rec.reader.timeOf(5);
    const t6 = rec.reader.timeOf(6);
    tc.seekTime(t5 + (t6 - t5) * 0.25);
    expect(tc.position).toBeCloseTo(5.25, 9);
    tc.seekTime(rec.reader.timeOf(11));
    expect(tc.position).toBeCloseTo(11, 9);
    tc.seekTime(-100);
    expect(tc.position).toBe(0);
    tc.seekTime(1e9);
    expect(tc.position).toBe(19);
    expect(tc.state).toBe('paused');
  });

  it('play restarts from the other end when paused at the end it heads to; from live it starts at the newest', () => {
    const rec = quietRecorder();
    record(rec, 10);
    const tc = new TimeControl(rec.reader);
    tc.play();
    expect(tc.state).toBe('playing');
    expect(tc.position).toBe(9);
    tc.update(0.1);
    expect(tc.state).toBe('paused');
    tc.play();
    expect(tc.position).toBe(0);
    tc.setSpeed(-1);
    tc.pause();
    tc.toOldest();
    tc.play();
    expect(tc.position).toBe(9);
    tc.togglePlay();
    expect(tc.state).toBe('paused');
    tc.togglePlay();
    expect(tc.state).toBe('playing');
    tc.goLive();
    tc.togglePlay();
    expect(tc.state).toBe('paused');
  });

  it('emits one change event per effective change, none otherwise, and survives a throwing listener', () => {
    const rec = quietRecorder();
    record(rec, 10);
    const tc = new TimeControl(rec.reader);
    const seen: string[] = [];
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    tc.onChange(() => {
      throw new Error('listener bug');
    });
    const off = tc.onChange((t) => seen.push(`${t.state}@${+t.position.toFixed(4)}x${t.speed}`));
    tc.pause();
    tc.pause(); // no change
    tc.seek(4);
    tc.seek(4); // no change
    tc.setSpeed(2);
    tc.setSpeed(2); // no change
    tc.setLoop(true);
    tc.setLoop(true); // no change
    tc.play();
    tc.update(1 / 120); // half a frame at 2×
    tc.goLive();
    tc.update(0.016); // live, nothing new
    record(rec, 1);
    tc.update(0.016); // live, the newest frame moved
    off();
    tc.pause();
    expect(seen).toEqual([
      'paused@9x1',
      'paused@4x1',
      'paused@4x2',
      'paused@4x2',
      'playing@4x2',
      'playing@5x2',
      'live@9x1',
      'live@10x1',
    ]); // goLive: back to 1×
    expect(errors).toHaveBeenCalled();
    errors.mockRestore();
  });
});
