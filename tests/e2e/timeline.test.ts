/**
 * End-to-end: the timeline of a video tool in the demo (issue 14), driven with the real mouse and
 * keyboard in headless Chromium: wheel zoom over the timeline, the hover tooltip of a spawn marker,
 * the in/out range set with I and O and played in a loop with Shift+Space, and the onion skin
 * switched on and off with T (the canvas changes, then comes back exactly).
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { need, openDemo, ticks, waitForFrames, watchPages, type DemoPage } from './browser';
import type { E2EWindow } from './hooks';

let demo: DemoPage | undefined;

watchPages(() => [demo], __filename);

beforeAll(async () => {
  demo = await openDemo('index.html');
  await demo.page.evaluate(() => (window as unknown as E2EWindow).__demo.setCrowd(60));
  await waitForFrames(demo.page, 200);
  await demo.page.evaluate(() => (window as unknown as E2EWindow).__demo.overlay.pause());
  await ticks(demo.page, 3);
});

afterAll(async () => {
  await demo?.close();
});

function page(): DemoPage['page'] {
  return need(demo, 'the demo page').page;
}

/** The timeline's geometry in page pixels (the canvas fills the page). */
async function geometry(): Promise<{
  top: number;
  ruler: number;
  x: number;
  width: number;
  lanes: Record<string, { top: number; height: number }>;
}> {
  return page().evaluate(() => {
    const t = (window as unknown as E2EWindow).__demo.overlay.timeline;
    const lanes: Record<string, { top: number; height: number }> = {};
    for (const l of t.laneLayout) lanes[l.name] = { top: l.top, height: l.height };
    return { top: t.top, ruler: t.rulerHeight, x: t.barX, width: t.barWidth, lanes };
  });
}

test('the wheel over the timeline zooms around the pointer, and the game camera stays', async () => {
  const g = await geometry();
  const x = g.x + g.width * 0.5;
  const y = g.top + g.ruler + g.lanes.spawn.top + 2;
  await page().mouse.move(x, y);
  const before = await page().evaluate((px) => {
    const o = (window as unknown as E2EWindow).__demo.overlay;
    return {
      frame: o.timeline.frameAt(px),
      span: o.timeline.scale.end - o.timeline.scale.start,
      camera: o.camera.mode,
    };
  }, x);
  await page().mouse.wheel(0, -500);
  await ticks(page(), 2);
  const after = await page().evaluate((px) => {
    const o = (window as unknown as E2EWindow).__demo.overlay;
    return {
      frame: o.timeline.frameAt(px),
      span: o.timeline.scale.end - o.timeline.scale.start,
      zoomed: o.timeline.scale.zoomed,
      camera: o.camera.mode,
      labels: o.timeline.rulerLabels,
    };
  }, x);
  expect(after.zoomed).toBe(true);
  expect(after.span).toBeLessThan(before.span / 2);
  expect(Math.abs(after.frame - before.frame)).toBeLessThan(1);
  expect(after.camera).toBe(before.camera);
  expect(after.labels.length).toBeGreaterThan(2);
  // Zoom back out to every frame held.
  await page().mouse.wheel(0, 3000);
  await ticks(page(), 2);
  expect(await page().evaluate(() => (window as unknown as E2EWindow).__demo.overlay.timeline.scale.zoomed)).toBe(
    false,
  );
});

test('hovering a spawn marker shows its frame, time, kind and entity', async () => {
  const g = await geometry();
  // The newest frame with a spawn, and every spawn on it: the demo often spawns two things on one
  // frame (a bolt and a pickup), and the tooltip names one and counts the rest.
  const m = await page().evaluate(() => {
    const o = (window as unknown as E2EWindow).__demo.overlay;
    const mk = o.playback.markers;
    let frame = -1;
    const spawns: { id: number; kind: string }[] = [];
    for (let i = mk.count - 1; i >= 0; i--) {
      if (mk.kinds[i] !== 1) continue; // MarkerKind.SPAWN
      if (frame === -1) frame = mk.frames[i];
      if (mk.frames[i] !== frame) continue;
      const h = mk.handles[i];
      spawns.push({ id: o.playback.lifetimes.id(h), kind: o.playback.lifetimes.kind(h) ?? '' });
    }
    if (frame === -1) return null;
    return { frame, x: o.timeline.xOf(frame), spawns, time: o.reader.timeOf(frame) };
  });
  expect(m, 'the demo recorded a spawn').not.toBeNull();
  if (m === null) return;
  await page().mouse.move(m.x, g.top + g.ruler + g.lanes.spawn.top + 2);
  await ticks(page(), 1);
  const text = await page().evaluate(() => (window as unknown as E2EWindow).__demo.overlay.timeline.tooltipText);
  const lines = text.split('\n');
  expect(lines[0]).toBe(`frame ${m.frame} · ${m.time.toFixed(2)} s`);
  const named = m.spawns.filter((s) => lines[1].startsWith(`spawn: ${s.kind}`) && lines[1].endsWith(`(id ${s.id})`));
  expect(named.length, `the tooltip names one of ${JSON.stringify(m.spawns)}: ${text}`).toBe(1);
  if (m.spawns.length > 1) expect(lines[2]).toBe(`+${m.spawns.length - 1} more on this frame`);
  else expect(lines.length).toBe(2);
  await page().mouse.move(5, 5);
  await ticks(page(), 1);
  expect(await page().evaluate(() => (window as unknown as E2EWindow).__demo.overlay.timeline.tooltipText)).toBe('');
});

test('I and O set the in/out range; Shift+Space plays it in a loop', async () => {
  const newest = await page().evaluate(() => (window as unknown as E2EWindow).__demo.overlay.reader.newestFrame);
  const a = newest - 60;
  const b = newest - 40;
  await page().evaluate((f) => (window as unknown as E2EWindow).__demo.overlay.playback.time.seek(f), a);
  await page().keyboard.press('i');
  await page().evaluate((f) => (window as unknown as E2EWindow).__demo.overlay.playback.time.seek(f), b);
  await page().keyboard.press('o');
  const range = await page().evaluate(() => {
    const t = (window as unknown as E2EWindow).__demo.overlay.playback.time;
    return [t.hasRange, t.rangeIn, t.rangeOut];
  });
  expect(range).toEqual([true, a, b]);
  await page().keyboard.press('Shift+Space');
  // Watch the position over many ticks: it stays inside the range and wraps at least once.
  const seen = await page().evaluate(async () => {
    const w = window as unknown as E2EWindow;
    const t = w.__demo.overlay.playback.time;
    const positions: number[] = [];
    for (let i = 0; i < 40; i++) {
      await w.__e2e.ticks(1);
      positions.push(t.position);
    }
    return { positions, state: t.state, loop: t.loop };
  });
  expect(seen.state).toBe('playing');
  expect(seen.loop).toBe(true);
  for (const p of seen.positions) {
    expect(p).toBeGreaterThanOrEqual(a);
    expect(p).toBeLessThanOrEqual(b);
  }
  const wrapped = seen.positions.some((p, i) => i > 0 && p < seen.positions[i - 1]);
  expect(wrapped, `positions ${seen.positions.map((p) => p.toFixed(1)).join(' ')}`).toBe(true);
  await page().keyboard.press('Space');
  await page().keyboard.press('x');
  expect(await page().evaluate(() => (window as unknown as E2EWindow).__demo.overlay.playback.time.hasRange)).toBe(
    false,
  );
});

test('T switches the onion skin of the selected entity on (the canvas changes) and off (it comes back)', async () => {
  await page().evaluate(() => {
    const o = (window as unknown as E2EWindow).__demo.overlay;
    o.playback.time.seek(o.reader.newestFrame - 30);
    o.setCameraMode('game');
  });
  await ticks(page(), 2);
  // Select the entity that moved most around the viewed frame, so that its ghosts stand apart, among
  // those whose ghosts are on screen above the timeline (a ghost drawn off screen changes no pixel:
  // CI once picked an entity walking out of view).
  const picked = await page().evaluate(() => {
    const d = (window as unknown as E2EWindow).__demo;
    const o = d.overlay;
    const world = d.view.world as unknown as { toGlobal(p: { x: number; y: number }): { x: number; y: number } };
    const s = o.sample;
    const f = Math.round(o.playback.time.position);
    const xy = new Float32Array(3);
    const xy2 = new Float32Array(3);
    const w = o.app.screen.width;
    const bottom = o.timeline.top;
    const onScreen = (x: number, y: number): boolean => {
      const p = world.toGlobal({ x, y });
      return p.x > 20 && p.x < w - 20 && p.y > 20 && p.y < bottom - 20;
    };
    let best = -1;
    let bestD = 0;
    for (let i = 0; i < s.count; i++) {
      const h = s.handles[i];
      if (o.playback.trail(h, f - 10, f - 10, xy) !== 1 || o.playback.trail(h, f + 10, f + 10, xy2) !== 1) continue;
      if (!onScreen(xy[0], xy[1]) || !onScreen(xy2[0], xy2[1])) continue;
      const dist = Math.hypot(xy[0] - xy2[0], xy[1] - xy2[1]);
      if (dist > bestD) {
        bestD = dist;
        best = h;
      }
    }
    o.select(best);
    o.setCameraMode('game');
    return { best, bestD };
  });
  expect(picked.best, 'an entity that moved, on screen').toBeGreaterThanOrEqual(0);
  expect(picked.bestD).toBeGreaterThan(1);
  await ticks(page(), 2);
  const off = await page().evaluate(() => (window as unknown as E2EWindow).__demo.canvasChecksum());
  await page().keyboard.press('t');
  await ticks(page(), 2);
  const on = await page().evaluate(() => {
    const d = (window as unknown as E2EWindow).__demo;
    return { sum: d.canvasChecksum(), enabled: d.overlay.onionSkin, ghosts: d.overlay.onion.ghostCount };
  });
  expect(on.enabled).toBe(true);
  expect(on.ghosts).toBeGreaterThan(0);
  expect(on.sum).not.toBe(off);
  await page().keyboard.press('t');
  await ticks(page(), 2);
  const back = await page().evaluate(() => {
    const d = (window as unknown as E2EWindow).__demo;
    return { sum: d.canvasChecksum(), enabled: d.overlay.onionSkin };
  });
  expect(back.enabled).toBe(false);
  expect(back.sum).toBe(off);
});
