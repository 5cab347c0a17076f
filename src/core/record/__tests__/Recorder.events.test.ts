import { describe, expect, it } from 'vitest';
import { FrameHeader, EventBuffer } from '../../read/buffers';
import { quiet } from './helpers';

describe('Recorder: events outside a frame (issue 19)', () => {
  it('an event between frames (a tween callback) is recorded in the next frame, after nothing is lost', () => {
    const r = quiet();
    r.beginFrame(0, 1);
    r.event('tick', -1, 0, 0, 0);
    r.endFrame();
    r.event('cleared', 7, 1, 2, 3, 0.5); // between frames 0 and 1
    r.event('cleared', 8, 4, 5, 6);
    r.beginFrame(1, 1);
    r.event('tick', -1, 0, 0, 0);
    r.endFrame();
    r.beginFrame(2, 1);
    r.endFrame();
    const ev = new EventBuffer();
    r.reader.readEvents(0, ev);
    expect(ev.count).toBe(1);
    r.reader.readEvents(1, ev);
    expect(ev.count).toBe(3);
    expect(r.eventKinds[ev.kinds[0]]).toBe('cleared');
    expect(ev.subjects[0]).toBe(7);
    expect(Array.from(ev.data.subarray(0, 4))).toEqual([1, 2, 3, 0.5]);
    expect(ev.subjects[1]).toBe(8);
    expect(r.eventKinds[ev.kinds[2]]).toBe('tick');
    r.reader.readEvents(2, ev);
    expect(ev.count).toBe(0);
    expect(r.stats.callsOutsideFrame).toBe(0);
    expect(r.stats.eventsDropped).toBe(0);
  });

  it("waiting events share the next frame's maxEventsPerFrame: the overflow is dropped and counted; a repair counts in that frame", () => {
    const r = quiet({ maxEventsPerFrame: 3 });
    for (let i = 0; i < 5; i++) r.event('pop', i, i, 0, 0);
    expect(r.stats.eventsDropped).toBe(2);
    r.event('pop', 9, 0, 0, 0); // still full
    expect(r.stats.eventsDropped).toBe(3);
    r.beginFrame(0, 1);
    r.event('pop', 10, 0, 0, 0); // the frame is full of waiting events
    r.endFrame();
    expect(r.stats.eventsDropped).toBe(4);
    const ev = new EventBuffer();
    r.reader.readEvents(0, ev);
    expect(Array.from(ev.subjects.subarray(0, ev.count))).toEqual([0, 1, 2]);
    r.event('pop', 1, Number.NaN, 0, 0); // repaired while waiting: counted in the frame that holds it
    r.beginFrame(1, 1);
    r.endFrame();
    const h = new FrameHeader();
    r.reader.readHeader(1, h);
    expect(h.sanitized).toBe(1);
    r.reader.readEvents(1, ev);
    expect(ev.count).toBe(1);
    expect(ev.data[0]).toBe(0);
    r.beginFrame(2, 1);
    r.endFrame();
    r.reader.readHeader(2, h);
    expect(h.sanitized).toBe(0);
  });
});
