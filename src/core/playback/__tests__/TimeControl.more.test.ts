import { describe, expect, it, vi } from 'vitest';
import { TimeControl } from '../TimeControl';
import { DEFAULT_TIME_CONTROL_OPTIONS } from '../TimeControlOptions';
import { quietRecorder } from './helpers';
import type { Recorder } from '../../record/Recorder';

/** Records frames with the given times and dts (one entity each). */
function recordTimes(rec: Recorder, times: number[], dts: number[]): void {
  for (let i = 0; i < times.length; i++) {
    rec.beginFrame(times[i], dts[i]);
    rec.entity(1, i, 0, 0, 0, 0, 0, 1);
    rec.endFrame();
  }
}

function evenFrames(rec: Recorder, n: number): void {
  recordTimes(
    rec,
    Array.from({ length: n }, (_, i) => (i + 1) / 60),
    Array.from({ length: n }, () => 1 / 60),
  );
}

describe('TimeControl: listeners, playing through seeks, fallback durations', () => {
  it('several listeners all hear each change, in order; unsubscribing one leaves the others', () => {
    const rec = quietRecorder();
    evenFrames(rec, 10);
    const tc = new TimeControl(rec.reader);
    const heard: string[] = [];
    const offA = tc.onChange((t) => heard.push(`a:${t.position}`));
    tc.onChange((t) => heard.push(`b:${t.position}`));
    const offC = tc.onChange((t) => heard.push(`c:${t.position}`));
    tc.pause();
    expect(heard).toEqual(['a:9', 'b:9', 'c:9']);
    heard.length = 0;
    offA();
    tc.seek(3);
    expect(heard).toEqual(['b:3', 'c:3']);
    heard.length = 0;
    offA(); // twice: nothing more happens
    offC();
    tc.seek(4);
    expect(heard).toEqual(['b:4']);
  });

  it('the same function subscribed twice is called twice until unsubscribed', () => {
    const rec = quietRecorder();
    evenFrames(rec, 3);
    const tc = new TimeControl(rec.reader);
    let calls = 0;
    const f = (): void => {
      calls++;
    };
    tc.onChange(f);
    const off = tc.onChange(f);
    tc.pause();
    expect(calls).toBe(2);
    off();
    tc.seek(0);
    expect(calls).toBe(2);
  });

  it('seek while playing keeps playing from the new position; seek while paused stays paused', () => {
    const rec = quietRecorder();
    evenFrames(rec, 100);
    const tc = new TimeControl(rec.reader);
    tc.seek(10);
    tc.play();
    tc.seek(50);
    expect(tc.state).toBe('playing');
    tc.update(2 / 60);
    expect(tc.position).toBeCloseTo(52, 5);
    tc.seekTime(rec.reader.timeOf(20));
    expect(tc.state).toBe('playing');
    tc.toOldest();
    expect(tc.state).toBe('playing');
    tc.toNewest();
    expect(tc.state).toBe('playing');
    tc.pause();
    tc.seek(30);
    expect(tc.state).toBe('paused');
    tc.update(1);
    expect(tc.position).toBe(30);
  });

  it('a frame with no usable dt and no frame before it lasts the fallback dt; a hitch is capped', () => {
    const rec = quietRecorder();
    // Frame 0: dt 0, nothing before. Frame 1: dt 0, same time as frame 0. Frame 2: negative dt, time +0.2.
    recordTimes(rec, [5, 5, 5.2, 5.3, 105.3], [0, 0, -1, 0.1, 100]);
    const tc = new TimeControl(rec.reader, { fallbackDt: 0.25, maxFrameDt: 3 });
    expect(tc.frameDuration(0)).toBe(0.25);
    expect(tc.frameDuration(1)).toBe(0.25);
    expect(tc.frameDuration(2)).toBeCloseTo(0.2, 6);
    expect(tc.frameDuration(3)).toBeCloseTo(0.1, 6);
    expect(tc.frameDuration(4)).toBe(3);
    expect(tc.frameDuration(99)).toBe(0.25); // not held
    tc.seek(0);
    tc.play();
    tc.update(0.125); // half of frame 1's fallback
    expect(tc.position).toBeCloseTo(0.5, 9);
    tc.update(0.125 + 0.1); // the rest of frame 1, then half of frame 2
    expect(tc.position).toBeCloseTo(1.5, 6);
    // Reverse through the fallback frame.
    tc.setSpeed(-1);
    tc.update(0.1 + 0.125);
    expect(tc.position).toBeCloseTo(0.5, 6);
    // The defaults: 1/60 s and 1 s.
    const d = new TimeControl(rec.reader);
    expect(d.frameDuration(0)).toBe(DEFAULT_TIME_CONTROL_OPTIONS.fallbackDt);
    expect(DEFAULT_TIME_CONTROL_OPTIONS.fallbackDt).toBe(1 / 60);
    expect(d.frameDuration(4)).toBe(DEFAULT_TIME_CONTROL_OPTIONS.maxFrameDt);
  });

  it('options: equal speed limits are allowed; a zero or negative maxFrameDt is refused, each with a message', () => {
    const rec = quietRecorder();
    expect(new TimeControl(rec.reader, { minSpeed: 2, maxSpeed: 2 }).speed).toBe(2);
    expect(() => new TimeControl(rec.reader, { minSpeed: 3, maxSpeed: 2 })).toThrow(/minSpeed <= maxSpeed/);
    expect(() => new TimeControl(rec.reader, { maxFrameDt: 0 })).toThrow(/fallbackDt and maxFrameDt must be > 0/);
    expect(() => new TimeControl(rec.reader, { maxFrameDt: -1 })).toThrow(RangeError);
  });

  it('positionInto writes what the position getter says, in every state, also before any update', () => {
    const rec = quietRecorder({ maxFrames: 10 });
    const tc = new TimeControl(rec.reader);
    const out = new Float64Array(3).fill(-7);
    const same = (): void => {
      tc.positionInto(out, 1);
      expect([out[0], out[1], out[2]]).toEqual([-7, tc.position, -7]);
    };
    same(); // empty
    evenFrames(rec, 5);
    same(); // live, frames recorded since the last update
    expect(out[1]).toBe(4);
    tc.seek(2.5);
    same();
    evenFrames(rec, 10); // frames 0..7 evicted while paused, no update since
    expect(rec.reader.oldestFrame).toBe(5);
    same();
    expect(out[1]).toBe(5);
    tc.seek(14);
    rec.clear(); // empty again: the last position stays
    same();
    expect(out[1]).toBe(14);
    evenFrames(rec, 3); // frame numbers go on after clear: 15..17
    same();
    expect(out[1]).toBe(15);
  });

  it('after clear: toOldest, toNewest, goLive and update keep the position; recorded again, the view is clamped and heard', () => {
    const rec = quietRecorder();
    evenFrames(rec, 20);
    const tc = new TimeControl(rec.reader);
    tc.seek(19); // the newest
    rec.clear();
    tc.toOldest();
    tc.toNewest();
    tc.update(0);
    expect(tc.position).toBe(19);
    tc.goLive();
    expect(tc.position).toBe(19);
    tc.pause();
    tc.play(); // nothing held: no restart from an end
    expect([tc.position, tc.state]).toEqual([19, 'playing']);
    tc.pause();
    const heard: number[] = [];
    tc.onChange((t) => heard.push(t.position));
    evenFrames(rec, 5); // frame numbers go on after clear: 20..24
    tc.update(0);
    expect(heard).toEqual([20]);
  });

  it('frames evicted while paused: the next update moves the position to the oldest held and says so', () => {
    const rec = quietRecorder({ maxFrames: 10 });
    evenFrames(rec, 10);
    const tc = new TimeControl(rec.reader);
    tc.seek(3);
    const heard: number[] = [];
    tc.onChange((t) => heard.push(t.position));
    evenFrames(rec, 5);
    tc.update(0);
    tc.update(0);
    expect(heard).toEqual([5]);
  });

  it('toOldest and toNewest move there and pause, without going live', () => {
    const rec = quietRecorder();
    evenFrames(rec, 10);
    const tc = new TimeControl(rec.reader);
    tc.seek(5);
    tc.toOldest();
    expect([tc.position, tc.state]).toEqual([0, 'paused']);
    tc.toNewest();
    expect([tc.position, tc.state]).toEqual([9, 'paused']);
  });

  it('play while playing changes nothing, even at the end it heads to; reverse play from the newest frame plays back', () => {
    const rec = quietRecorder();
    evenFrames(rec, 10);
    const tc = new TimeControl(rec.reader);
    tc.seek(4);
    tc.play();
    tc.seek(9); // playing, at the newest frame
    tc.play();
    expect([tc.position, tc.state]).toEqual([9, 'playing']);
    tc.pause();
    tc.setSpeed(-1);
    tc.play(); // heading back from the newest frame: no restart
    expect(tc.position).toBe(9);
    tc.update(1 / 60);
    expect(tc.position).toBeCloseTo(8, 5);
    tc.pause();
    tc.pause(); // paused stays paused, in place
    expect([tc.position, tc.state]).toEqual([tc.position, 'paused']);
  });

  it('NaN seeks are ignored in every state (live stays live); a seek to a time shared by two frames lands on the first (the newest, at the end)', () => {
    const rec = quietRecorder();
    recordTimes(rec, [1, 1, 2, 3, 3, 4, 4], [0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1]);
    const tc = new TimeControl(rec.reader);
    tc.seek(Number.NaN);
    tc.seekTime(Number.NaN);
    expect([tc.state, tc.position]).toEqual(['live', 6]);
    tc.seekTime(1); // frames 0 and 1
    expect(tc.position).toBe(0);
    tc.seekTime(3); // frames 3 and 4
    expect(tc.position).toBe(3);
    tc.seekTime(4); // frames 5 and 6, the newest
    expect(tc.position).toBe(6);
    tc.seekTime(2.5);
    expect(tc.position).toBeCloseTo(2.5, 12);
    tc.seekTime(0.5);
    expect(tc.position).toBe(0);
    tc.seekTime(99);
    expect(tc.position).toBe(6);
  });

  it('a frame with a recorded dt lasts that dt, whatever the recorded times say', () => {
    const rec = quietRecorder();
    recordTimes(rec, [0, 1, 2, 3], [0.5, 0.5, 0.5, 0.5]);
    const tc = new TimeControl(rec.reader);
    expect(tc.frameDuration(2)).toBe(0.5);
  });

  it('an update of no time, negative, infinite or NaN time does not move a playing position', () => {
    const rec = quietRecorder();
    evenFrames(rec, 10);
    const tc = new TimeControl(rec.reader);
    tc.seek(3);
    tc.play();
    for (const dt of [0, -1, Number.POSITIVE_INFINITY, Number.NaN]) tc.update(dt);
    expect([tc.position, tc.state]).toEqual([3, 'playing']);
  });

  it('playing from a position whose frames were evicted starts from the oldest held', () => {
    const rec = quietRecorder({ maxFrames: 10 });
    evenFrames(rec, 10);
    const tc = new TimeControl(rec.reader);
    tc.seek(3.5);
    tc.play();
    evenFrames(rec, 5); // oldest is now 5
    tc.update(1 / 60);
    expect(tc.position).toBeCloseTo(6, 5);
  });

  it('one update crosses at most one lap of frames when looping', () => {
    const rec = quietRecorder();
    evenFrames(rec, 10);
    const tc = new TimeControl(rec.reader, { loop: true });
    tc.seek(0);
    tc.play();
    tc.update(1000);
    // 12 crossings (frame count + 2): 9 to the newest frame, the wrap to 0, then 3 more.
    expect(tc.position).toBe(3);
    expect(tc.state).toBe('playing');
  });

  it('a change is heard without an error, and a throwing listener is reported by name', () => {
    const rec = quietRecorder();
    evenFrames(rec, 3);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const tc = new TimeControl(rec.reader);
      let calls = 0;
      tc.onChange(() => calls++);
      tc.update(0.016); // live, nothing new: no event
      expect(calls).toBe(0);
      tc.pause();
      expect(calls).toBe(1);
      expect(errors).not.toHaveBeenCalled();
      tc.onChange(() => {
        throw new Error('bug');
      });
      tc.seek(1);
      expect(errors).toHaveBeenCalledTimes(1);
      expect(String(errors.mock.calls[0][0])).toMatch(/TimeControl change listener threw/);
    } finally {
      errors.mockRestore();
    }
  });
});
