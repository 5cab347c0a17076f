import { describe, expect, it } from 'vitest';
import { DEFAULT_TIME_CONTROL_OPTIONS, TimeControl } from '../TimeControl';
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
  recordTimes(rec, Array.from({ length: n }, (_, i) => (i + 1) / 60), Array.from({ length: n }, () => 1 / 60));
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
    expect(d.frameDuration(4)).toBe(DEFAULT_TIME_CONTROL_OPTIONS.maxFrameDt);
  });
});
