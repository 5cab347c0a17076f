/**
 * End-to-end: the overlay's key help (H) on small screens (issue 19). At 1280×720 and 1024×600 the
 * help lies whole inside the canvas and above the timeline, and no page element covers it: the
 * rewind panel (lil-gui) and the demo's HUD step aside while it is shown and come back after.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { need, openDemo, ticks, waitForFrames, watchPages, type DemoPage } from './browser';
import type { E2EWindow } from './hooks';

const SIZES = [
  { width: 1280, height: 720 },
  { width: 1024, height: 600 },
];

let demo: DemoPage | undefined;

watchPages(() => [demo], __filename);

beforeAll(async () => {
  demo = await openDemo('index.html', '__demo', SIZES[0]);
  await demo.page.evaluate(() => (window as unknown as E2EWindow).__demo.setCrowd(40));
});

afterAll(async () => {
  await demo?.close();
});

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

interface Layout {
  help: Box;
  helpShown: boolean;
  canvas: Box;
  timeline: Box;
  /** Page elements drawn over the canvas that are visible now, by selector. */
  covers: Array<{ what: string; box: Box }>;
}

/** Where the help, the canvas, the timeline and the visible page elements over the canvas are. */
function layout(page: Page): Promise<Layout> {
  return page.evaluate(() => {
    const o = (window as unknown as E2EWindow).__demo.overlay;
    o.update(0);
    const c = o.app.canvas.getBoundingClientRect();
    const inPage = (b: { x: number; y: number; width: number; height: number }) => ({
      left: c.left + b.x,
      top: c.top + b.y,
      right: c.left + b.x + b.width,
      bottom: c.top + b.y + b.height,
    });
    const covers: Array<{ what: string; box: Box }> = [];
    for (const what of ['#hud', '.rewindable-panel']) {
      const el = document.querySelector(what);
      if (el === null) continue;
      const style = getComputedStyle(el);
      const r = el.getBoundingClientRect();
      if (style.visibility === 'hidden' || style.display === 'none' || r.width === 0 || r.height === 0) continue;
      covers.push({ what, box: { left: r.left, top: r.top, right: r.right, bottom: r.bottom } });
    }
    return {
      help: inPage(o.help.root.getBounds()),
      helpShown: o.helpShown,
      canvas: { left: c.left, top: c.top, right: c.right, bottom: c.bottom },
      timeline: inPage(o.timeline.root.getBounds()),
      covers,
    };
  });
}

const overlap = (a: Box, b: Box): boolean =>
  a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

test('the key help is never clipped or covered, at 1280×720 and 1024×600', async () => {
  const page = need(demo, 'the demo page').page;
  await waitForFrames(page, 30);
  await page.evaluate(() => (window as unknown as E2EWindow).__demo.overlay.pause());
  for (const size of SIZES) {
    const where = `${size.width}×${size.height}`;
    await page.setViewportSize(size);
    await page.evaluate(() => (window as unknown as E2EWindow).__demo.overlay.toggleHelp(true));
    await ticks(page, 3);
    const l = await layout(page);
    expect(l.helpShown, `${where}: help shown`).toBe(true);
    expect(l.help.left, `${where}: help inside the canvas`).toBeGreaterThanOrEqual(l.canvas.left);
    expect(l.help.top, `${where}: help inside the canvas`).toBeGreaterThanOrEqual(l.canvas.top);
    expect(l.help.right, `${where}: help inside the canvas`).toBeLessThanOrEqual(l.canvas.right);
    expect(l.help.bottom, `${where}: help above the timeline`).toBeLessThanOrEqual(l.timeline.top);
    for (const c of l.covers) {
      expect(
        overlap(c.box, l.help),
        `${where}: ${c.what} ${JSON.stringify(c.box)} covers the help ${JSON.stringify(l.help)}`,
      ).toBe(false);
    }
    // Readable: not shrunk to nothing.
    expect(l.help.right - l.help.left, `${where}: help width`).toBeGreaterThan(300);
    await page.evaluate(() => (window as unknown as E2EWindow).__demo.overlay.toggleHelp(false));
    await ticks(page, 2);
    const after = await layout(page);
    expect(after.covers.map((c) => c.what).sort(), `${where}: HUD and panel back`).toEqual([
      '#hud',
      '.rewindable-panel',
    ]);
  }
});
