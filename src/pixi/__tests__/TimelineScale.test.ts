import { describe, expect, it } from 'vitest';
import { TimelineScale } from '../TimelineScale';

function scale(oldest: number, newest: number, x = 80, width = 1000): TimelineScale {
  const s = new TimelineScale();
  s.setArea(x, width);
  s.setHeld(oldest, newest);
  return s;
}

describe('TimelineScale: frame ↔ x with zoom and pan', () => {
  it('unzoomed, maps the frames held onto the area and back', () => {
    const s = scale(100, 999);
    expect(s.zoomed).toBe(false);
    expect(s.xOf(100)).toBe(80);
    expect(s.xOf(999)).toBe(1080);
    expect(s.xOf(549.5)).toBeCloseTo(580, 9);
    for (const f of [100, 250.25, 612, 999]) expect(s.frameAt(s.xOf(f))).toBeCloseTo(f, 9);
    // Outside the area clamps to the ends of the view.
    expect(s.frameAt(0)).toBe(100);
    expect(s.frameAt(5000)).toBe(999);
  });

  it('follows the frames held while unzoomed', () => {
    const s = scale(0, 99);
    const v = s.version;
    s.setHeld(10, 120);
    expect([s.start, s.end]).toEqual([10, 120]);
    expect(s.version).toBeGreaterThan(v);
    expect(s.setHeld(10, 120)).toBe(false);
  });

  it('zooms around the pointer: the frame under x stays under x', () => {
    const s = scale(0, 899);
    const x = 80 + 1000 * 0.3;
    const f = s.frameAt(x);
    expect(s.zoomAt(x, 4)).toBe(true);
    expect(s.zoomed).toBe(true);
    expect(s.end - s.start).toBeCloseTo(899 / 4, 9);
    expect(s.frameAt(x)).toBeCloseTo(f, 9);
    expect(s.xOf(f)).toBeCloseTo(x, 9);
  });

  it('picks one frame among 9,000: at most zoom, minSpan frames fill the width', () => {
    const s = scale(0, 8999, 74, 1194);
    for (let i = 0; i < 40; i++) s.zoomAt(74 + 1194 * 0.5, 2);
    expect(s.end - s.start).toBe(s.minSpan);
    expect(s.pixelsPerFrame).toBeGreaterThanOrEqual(1194 / 8);
    // Frames 4500 and 4501 are far apart: each has its own click target.
    expect(Math.round(s.frameAt(s.xOf(4500) + 20))).toBe(4500);
    expect(Math.round(s.frameAt(s.xOf(4501) - 20))).toBe(4501);
  });

  it('zooming out past the held span shows every frame again; a no-op reports false', () => {
    const s = scale(0, 899);
    expect(s.zoomAt(500, 0.5)).toBe(false);
    s.zoomAt(500, 3);
    expect(s.zoomAt(500, 1 / 100)).toBe(true);
    expect(s.zoomed).toBe(false);
    expect([s.start, s.end]).toEqual([0, 899]);
    expect(s.zoomAt(500, Number.NaN)).toBe(false);
    expect(s.zoomAt(500, 0)).toBe(false);
  });

  it('pans inside the frames held, and only while zoomed', () => {
    const s = scale(0, 899);
    expect(s.panBy(100)).toBe(false);
    s.zoomAt(80, 9); // 0 .. ~99.9
    const span = s.end - s.start;
    expect(s.start).toBe(0);
    // Dragging the content left shows later frames.
    s.panBy(-500);
    expect(s.start).toBeCloseTo(span / 2, 9);
    s.panBy(-1e7);
    expect(s.end).toBe(899);
    expect(s.end - s.start).toBeCloseTo(span, 9);
    s.panBy(1e7);
    expect(s.start).toBe(0);
  });

  it('a zoomed view keeps its span and moves inside the held range when frames are evicted', () => {
    const s = scale(0, 899);
    s.zoomAt(80, 9);
    const span = s.end - s.start;
    s.setHeld(300, 1199);
    expect(s.zoomed).toBe(true);
    expect(s.start).toBe(300);
    expect(s.end - s.start).toBeCloseTo(span, 9);
    // Fewer frames held than the span: unzoomed.
    s.setHeld(1150, 1199);
    expect(s.zoomed).toBe(false);
    expect([s.start, s.end]).toEqual([1150, 1199]);
  });

  it('reveal pages the zoomed view to a frame outside it', () => {
    const s = scale(0, 899);
    s.zoomAt(80, 9);
    const span = s.end - s.start;
    expect(s.reveal(50)).toBe(false);
    expect(s.reveal(400)).toBe(true);
    expect(s.start).toBeLessThan(400);
    expect(s.end).toBeGreaterThan(400);
    expect(s.end - 400).toBeCloseTo(span * 0.1, 6);
  });

  it('maps a single frame, and no frame, to the left edge without NaN', () => {
    const s = scale(5, 5);
    expect(s.xOf(5)).toBe(80);
    expect(s.frameAt(500)).toBe(5);
    s.setHeld(0, -1);
    expect(Number.isNaN(s.xOf(0))).toBe(false);
    expect(s.zoomAt(100, 2)).toBe(false);
  });
});
