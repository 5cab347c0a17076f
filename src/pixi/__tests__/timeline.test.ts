/**
 * The timeline of a video tool (issue 14): lanes by marker kind with hover tooltips, the dt and
 * byte lanes, zoom and pan with the wheel, in/out handles, a playhead kept in view while zoomed,
 * collapsing, and redraws only when what is shown changed. Also the onion skin and trail.
 */
import { describe, expect, it } from 'vitest';
import type { Application } from 'pixi.js';
import { MarkerKind } from '../../core/playback/MarkerIndex';
import { Playback } from '../../core/playback/Playback';
import { LaneType } from '../TimelineLanes';
import { pixelOf } from '../TimelinePixels';
import { overlayFixture, run } from './testGame';

const { make } = overlayFixture();

function pointer(app: Application, type: string, x: number, y: number, button = 0): void {
  app.renderer.render(app.stage);
  const rect = app.canvas.getBoundingClientRect();
  const init: PointerEventInit = {
    clientX: rect.left + x,
    clientY: rect.top + y,
    pointerId: 1,
    pointerType: 'mouse',
    isPrimary: true,
    button,
    buttons: type === 'pointerup' ? 0 : 1 << (button === 2 ? 1 : 0),
    bubbles: true,
    cancelable: true,
  };
  const target = type === 'pointerdown' ? app.canvas : type === 'pointermove' ? document : window;
  target.dispatchEvent(new PointerEvent(type, init));
}

function wheel(app: Application, x: number, y: number, deltaY: number, shiftKey = false): void {
  app.renderer.render(app.stage);
  const rect = app.canvas.getBoundingClientRect();
  app.canvas.dispatchEvent(
    new WheelEvent('wheel', {
      clientX: rect.left + x,
      clientY: rect.top + y,
      deltaY,
      deltaMode: 0,
      shiftKey,
      bubbles: true,
      cancelable: true,
    }),
  );
}

/** A recording of 3 movers, a 4th spawned at frame 40 and despawned at 80, a hitch at frame 60. */
async function recorded() {
  const s = await make(3);
  run(s.game, s.overlay, 40);
  s.game.spawn(7, 'walker', 100, 100, 1, 0);
  run(s.game, s.overlay, 20);
  run(s.game, s.overlay, 1, 0.25); // a hitch
  run(s.game, s.overlay, 19);
  s.game.despawn(7);
  run(s.game, s.overlay, 40);
  s.overlay.pause();
  s.overlay.update(0);
  return s;
}

describe('timeline lanes', () => {
  it('has a labelled lane per marker kind, then frame dt and bytes', async () => {
    const { overlay } = await recorded();
    const lanes = overlay.timeline.laneLayout;
    expect(lanes.map((l) => l.name)).toEqual([
      'budget',
      'spawn',
      'despawn',
      'damage',
      'events',
      'bookmarks',
      'frame dt',
      'bytes',
    ]);
    expect(overlay.timeline.height).toBeGreaterThanOrEqual(64);
    expect(overlay.timeline.height).toBeLessThanOrEqual(96);
    overlay.timeline.setCollapsed(true);
    expect(overlay.timeline.laneLayout.map((l) => l.name)).toEqual(['markers']);
    expect(overlay.timeline.height).toBeLessThan(40);
  });

  it('shows a hover tooltip with the frame, time, kind and entity of a marker', async () => {
    const { app, overlay } = await recorded();
    const tl = overlay.timeline;
    const m = overlay.playback.markers;
    let spawn = -1;
    for (let i = 0; i < m.count; i++) if (m.kinds[i] === MarkerKind.SPAWN && m.frames[i] > 0) spawn = i;
    expect(spawn).toBeGreaterThanOrEqual(0);
    const frame = m.frames[spawn];
    const lane = tl.laneLayout.find((l) => l.name === 'spawn');
    if (lane === undefined) throw new Error('no spawn lane');
    const y = tl.top + tl.rulerHeight + lane.top + 2;
    pointer(app, 'pointermove', tl.xOf(frame) + 1, y);
    const time = overlay.reader.timeOf(frame).toFixed(2);
    expect(tl.tooltipText).toBe(`frame ${frame} · ${time} s\nspawn: walker "walker #7" (id 7)`);
    // Over the dt lane: the recorded dt of the frame.
    const dtLane = tl.laneLayout.find((l) => l.type === LaneType.DT);
    if (dtLane === undefined) throw new Error('no dt lane');
    pointer(app, 'pointermove', tl.xOf(60), tl.top + tl.rulerHeight + dtLane.top + 2);
    expect(tl.tooltipText).toContain('recorded dt 250.0 ms  (hitch)');
    // Away from the timeline: hidden.
    pointer(app, 'pointermove', 10, 10);
    expect(tl.tooltipText).toBe('');
  });

  it('draws a hitch in its own colour in the dt lane', async () => {
    const { overlay } = await recorded();
    const tl = overlay.timeline;
    const px = (tl as unknown as { pixels: { pixelAt(x: number, y: number): number } }).pixels;
    const dtLane = tl.laneLayout.find((l) => l.type === LaneType.DT);
    if (dtLane === undefined) throw new Error('no dt lane');
    // The lane's rows in the timeline's pixel image (stretched on screen).
    const bottom = dtLane.row + dtLane.rows - 1;
    const col = (f: number): number => Math.round(tl.xOf(f) - tl.barX);
    expect(px.pixelAt(col(60), bottom)).toBe(pixelOf(0xff6b3d));
    expect(px.pixelAt(col(30), bottom)).toBe(pixelOf(0x5e9ed6));
    // The hitch is the full lane high, a normal frame is not.
    expect(px.pixelAt(col(60), dtLane.row)).toBe(pixelOf(0xff6b3d));
    expect(px.pixelAt(col(30), dtLane.row)).toBe(0);
  });
});

describe('timeline zoom, pan and range', () => {
  it('zooms with the wheel around the pointer without moving the camera, and pans with Shift+wheel', async () => {
    const { app, overlay } = await recorded();
    const tl = overlay.timeline;
    const y = tl.top + tl.rulerHeight + 10;
    const x = tl.barX + tl.barWidth * 0.5;
    const f = tl.frameAt(x);
    const camera = Array.from(overlay.camera.current);
    wheel(app, x, y, -600);
    overlay.update(0);
    expect(tl.scale.zoomed).toBe(true);
    expect(tl.scale.end - tl.scale.start).toBeLessThan(40);
    expect(tl.frameAt(x)).toBeCloseTo(f, 6);
    expect(Array.from(overlay.camera.current)).toEqual(camera);
    expect(overlay.camera.mode).toBe('game');
    const start = tl.scale.start;
    wheel(app, x, y, 100, true);
    expect(tl.scale.start).toBeGreaterThan(start);
    // The ruler labels follow the view.
    overlay.update(0);
    const first = Number(tl.rulerLabels[0].split(' ')[0]);
    expect(first).toBeGreaterThanOrEqual(Math.floor(tl.scale.start));
  });

  it('keeps the playhead in view while zoomed', async () => {
    const { overlay } = await recorded();
    const tl = overlay.timeline;
    tl.zoomAt(tl.barX, 8);
    overlay.update(0);
    overlay.playback.time.seek(110);
    overlay.update(0);
    expect(tl.scale.start).toBeLessThanOrEqual(110);
    expect(tl.scale.end).toBeGreaterThanOrEqual(110);
  });

  it('sets the in/out range with I and O, drags its handles, and loops playback inside it', async () => {
    const { app, overlay } = await recorded();
    const t = overlay.playback.time;
    const tl = overlay.timeline;
    t.seek(30);
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'i', bubbles: true }));
    t.seek(70);
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'o', bubbles: true }));
    expect([t.hasRange, t.rangeIn, t.rangeOut]).toEqual([true, 30, 70]);
    overlay.update(0);
    // Drag the out handle (on the ruler) to frame 90.
    const ry = tl.top + tl.rulerHeight - 5;
    pointer(app, 'pointerdown', tl.xOf(70), ry);
    pointer(app, 'pointermove', tl.xOf(90), ry);
    pointer(app, 'pointerup', tl.xOf(90), ry);
    expect(t.rangeOut).toBe(90);
    expect(t.rangeIn).toBe(30);
    expect(t.position).toBe(70); // a handle drag is not a seek
    // Shift+Space plays the range in a loop.
    window.dispatchEvent(new KeyboardEvent('keydown', { key: ' ', shiftKey: true, bubbles: true }));
    expect([t.state, t.loop, t.position]).toEqual(['playing', true, 30]);
    for (let i = 0; i < 200; i++) {
      overlay.update(1 / 30);
      expect(t.position).toBeGreaterThanOrEqual(30);
      expect(t.position).toBeLessThanOrEqual(90);
    }
    expect(t.state).toBe('playing');
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'x', bubbles: true }));
    expect(t.hasRange).toBe(false);
  });

  it('redraws the lanes when markers, view or range change, not when only the playhead moves', async () => {
    const { overlay } = await recorded();
    const tl = overlay.timeline;
    const t = overlay.playback.time;
    const n = tl.markerRedrawCount;
    for (let f = 10; f < 60; f++) {
      t.seek(f + 0.5);
      overlay.update(1 / 60);
    }
    expect(tl.markerRedrawCount).toBe(n);
    t.markIn(20);
    overlay.update(0);
    expect(tl.markerRedrawCount).toBe(n + 1);
    tl.zoomAt(tl.barX + 20, 2);
    overlay.update(0);
    expect(tl.markerRedrawCount).toBe(n + 2);
  });

  it('redraws and uploads only the rows of the part that changed, and the bars stay right after zoom', async () => {
    const { overlay } = await recorded();
    const tl = overlay.timeline;
    const px = (tl as unknown as { pixels: { uploadedRows: readonly [number, number]; height: number } }).pixels;
    const markerRows = tl.laneLayout.filter((l) => l.type === LaneType.MARKERS);
    const first = markerRows[0].row;
    const end = markerRows[markerRows.length - 1].row + 1;
    overlay.playback.bookmarks.add(30, 'here');
    overlay.update(0);
    expect(px.uploadedRows).toEqual([first, end]);
    overlay.playback.time.markIn(20);
    overlay.update(0);
    expect(px.uploadedRows).toEqual([0, first]);
    tl.zoomAt(tl.barX + 20, 4);
    overlay.update(0);
    expect(px.uploadedRows).toEqual([0, px.height]);
    tl.resetZoom();
    overlay.update(0);
    const pixels = (tl as unknown as { pixels: { pixelAt(x: number, y: number): number } }).pixels;
    const dtLane = tl.laneLayout.find((l) => l.type === LaneType.DT);
    if (dtLane === undefined) throw new Error('no dt lane');
    const col = (f: number): number => Math.round(tl.xOf(f) - tl.barX);
    expect(pixels.pixelAt(col(60), dtLane.row)).toBe(pixelOf(0xff6b3d));
    expect(pixels.pixelAt(col(30), dtLane.row + dtLane.rows - 1)).toBe(pixelOf(0x5e9ed6));
  });
});

describe('timeline field lanes', () => {
  it('draws a field of a life over the frames shown, with its min/max, tooltip and ×, redrawn only with the view', async () => {
    const { app, overlay } = await recorded();
    const tl = overlay.timeline;
    const pb = overlay.playback;
    const base = tl.height;
    let calls = 0;
    // A value of 2·frame from frame 10 on (absent before): min 20, max 2·newest.
    const spec = {
      key: 'k',
      label: 'unit · health',
      playback: pb,
      mode: 'line' as const,
      series(from: number, to: number, out: Float64Array): number {
        calls++;
        for (let f = from; f <= to; f++) out[f - from] = f >= 10 ? 2 * f : Number.NaN;
        return to - from + 1;
      },
      format: (v: number) => v.toFixed(0),
      color: () => 0x00ff00,
    };
    expect(tl.addFieldLane(spec)).toBe(true);
    expect(tl.addFieldLane(spec)).toBe(false);
    overlay.update(0);
    expect(tl.height).toBeGreaterThan(base);
    const lane = tl.laneLayout.find((l) => l.type === LaneType.FIELD);
    if (lane === undefined) throw new Error('no field lane');
    const newest = pb.reader.newestFrame;
    expect(tl.fieldLaneTexts).toEqual([`unit · health  20 – ${2 * newest}`]);
    const px = (tl as unknown as { pixels: { pixelAt(x: number, y: number): number } }).pixels;
    const col = (f: number): number => Math.round(tl.xOf(f) - tl.barX);
    const green = pixelOf(0x00ff00);
    // The largest value on the lane's top row, the smallest on its bottom row, nothing where absent.
    expect(px.pixelAt(col(newest), lane.row)).toBe(green);
    expect(px.pixelAt(col(10), lane.row + lane.rows - 1)).toBe(green);
    for (let r = 0; r < lane.rows; r++) expect(px.pixelAt(col(3), lane.row + r)).toBe(0);
    // The tooltip gives the value at the hovered frame.
    pointer(app, 'pointermove', tl.xOf(50), tl.top + tl.rulerHeight + lane.top + 5);
    expect(tl.tooltipText).toBe('unit · health\nframe 50: 100');
    pointer(app, 'pointermove', 10, 10);
    // A changed frame reads nothing; a zoom reads the series again.
    const n = calls;
    for (let f = 20; f < 40; f++) {
      pb.time.seek(f);
      overlay.update(1 / 60);
    }
    expect(calls).toBe(n);
    tl.zoomAt(tl.barX + 40, 2);
    overlay.update(0);
    expect(calls).toBe(n + 1);
    // Its × removes it.
    const legend = (tl as unknown as { fieldTexts: { getGlobalPosition(): { x: number; y: number } }[] }).fieldTexts;
    const at = legend[1].getGlobalPosition();
    pointer(app, 'pointerdown', at.x + 3, at.y + 4);
    pointer(app, 'pointerup', at.x + 3, at.y + 4);
    expect(tl.fieldLaneKeys).toEqual([]);
    expect(tl.height).toBe(base);
  });

  it('draws an enum as a strip of colours by code, and drops the lane when another playback is shown', async () => {
    const { overlay } = await recorded();
    const tl = overlay.timeline;
    tl.addFieldLane({
      key: 's',
      label: 'unit · state',
      playback: overlay.playback,
      mode: 'strip',
      series(from: number, to: number, out: Float64Array): number {
        for (let f = from; f <= to; f++) out[f - from] = f < 60 ? 0 : 1;
        return to - from + 1;
      },
      format: (v: number) => (v === 0 ? 'patrol' : 'chase'),
      color: (v: number) => (v === 0 ? 0x112233 : 0x445566),
    });
    overlay.update(0);
    const lane = tl.laneLayout.find((l) => l.type === LaneType.FIELD);
    if (lane === undefined) throw new Error('no field lane');
    const px = (tl as unknown as { pixels: { pixelAt(x: number, y: number): number } }).pixels;
    const col = (f: number): number => Math.round(tl.xOf(f) - tl.barX);
    expect(px.pixelAt(col(30), lane.row)).toBe(pixelOf(0x112233));
    expect(px.pixelAt(col(90), lane.row + lane.rows - 1)).toBe(pixelOf(0x445566));
    // Another playback shown: the lane goes.
    tl.update(new Playback(overlay.playback.reader));
    expect(tl.fieldLaneKeys).toEqual([]);
  });
});

describe('onion skin and trail', () => {
  it('draws N ghosts on each side of the selected entity, follows the frame, and switches off', async () => {
    const { overlay } = await recorded();
    const t = overlay.playback.time;
    t.seek(100);
    overlay.update(0);
    const h = overlay.sample.handles[0];
    overlay.select(h);
    overlay.onion.configure({ ghosts: 4, spacing: 3 });
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 't', bubbles: true }));
    expect(overlay.onionSkin).toBe(true);
    overlay.update(0);
    expect(overlay.onion.ghostCount).toBe(8);
    // At the newest frame only the past ghosts exist.
    t.seek(overlay.reader.newestFrame);
    overlay.update(0);
    expect(overlay.onion.ghostCount).toBe(4);
    const redraws = overlay.onion.redrawCount;
    overlay.update(0);
    expect(overlay.onion.redrawCount).toBe(redraws);
    overlay.setOnionSkin(false);
    overlay.update(0);
    expect(overlay.onion.ghostCount).toBe(0);
  });

  it('gives ghosts to every shown entity of the kind with wholeKind', async () => {
    const { overlay } = await recorded();
    overlay.playback.time.seek(100);
    overlay.update(0);
    overlay.select(overlay.sample.handles[0]);
    overlay.onion.configure({ enabled: true, ghosts: 2, spacing: 1, wholeKind: true });
    overlay.update(0);
    expect(overlay.onion.ghostCount).toBe(3 * 4);
  });
});
