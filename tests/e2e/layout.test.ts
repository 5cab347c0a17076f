/**
 * End-to-end: the page layout around the overlay (issue 14, defect 5). The rewind panel (lil-gui,
 * top right) must stop above the overlay's timeline on a short screen, in the demo and in the
 * viewer: at 1024×600 and 1280×600 its box does not overlap the timeline's, whose right end holds
 * the playhead at a pause. In the demo, the panel does not cover the demo's HUD either.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { launchBrowser, need, openPage, ticks, waitForFrames, watchPages, type DemoPage } from './browser';
import type { E2EWindow } from './hooks';
import { demoSaveBase64, loadBase64 } from './inPage';

const SIZES = [
  { width: 1024, height: 600 },
  { width: 1280, height: 600 },
];

let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;
let demo: DemoPage | undefined;
let viewer: DemoPage | undefined;

watchPages(() => [demo, viewer], __filename);

beforeAll(async () => {
  browser = await launchBrowser();
  demo = await openPage(browser, 'index.html', '__demo', 'demo', SIZES[0]);
  await demo.page.evaluate(() => (window as unknown as E2EWindow).__demo.setCrowd(40));
});

afterAll(async () => {
  await browser?.close();
});

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** The boxes of the rewind panel (DOM) and of the overlay's timeline (pixi, screen pixels) in the page. */
async function boxes(
  page: Page,
  hook: '__demo' | '__viewer',
): Promise<{ panel: Box | null; timeline: Box; timelineVisible: boolean; screen: string }> {
  return page.evaluate((h) => {
    const w = window as unknown as E2EWindow;
    const o = h === '__demo' ? w.__demo.overlay : w.__viewer.overlay;
    o.update(0);
    const el = document.querySelector('.rewindable-panel');
    const r = el?.getBoundingClientRect();
    const canvas = o.app.canvas.getBoundingClientRect();
    const b = o.timeline.root.getBounds();
    let shown = true;
    for (let n: { visible: boolean; parent: unknown } | null = o.timeline.root; n !== null; n = n.parent as typeof n)
      shown &&= n.visible;
    return {
      panel: r === undefined ? null : { left: r.left, top: r.top, right: r.right, bottom: r.bottom },
      timeline: {
        left: canvas.left + b.x,
        top: canvas.top + b.y,
        right: canvas.left + b.x + b.width,
        bottom: canvas.top + b.y + b.height,
      },
      timelineVisible: shown,
      screen: `${window.innerWidth}×${window.innerHeight}`,
    };
  }, hook);
}

const overlap = (a: Box, b: Box): boolean =>
  a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

async function expectPanelClearOfTimeline(page: Page, hook: '__demo' | '__viewer', where: string): Promise<void> {
  const r = await boxes(page, hook);
  expect(r.panel, `${where} (${r.screen}): the rewind panel is on the page`).not.toBeNull();
  expect(r.timelineVisible, `${where} (${r.screen}): the timeline is shown`).toBe(true);
  const panel = r.panel as Box;
  expect(panel.right - panel.left, `${where} (${r.screen}): the panel has a size`).toBeGreaterThan(100);
  expect(
    overlap(panel, r.timeline),
    `${where} (${r.screen}): panel ${JSON.stringify(panel)} vs timeline ${JSON.stringify(r.timeline)}`,
  ).toBe(false);
}

test('demo: at 1024×600 and 1280×600 the rewind panel does not cover the timeline', async () => {
  const page = need(demo, 'the demo page').page;
  await waitForFrames(page, 30);
  await page.evaluate(() => (window as unknown as E2EWindow).__demo.overlay.pause());
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await ticks(page, 3);
    await expectPanelClearOfTimeline(page, '__demo', 'demo, paused');
  }
});

test("demo: at 1024×600 and 1280×600 the panel does not cover the demo's HUD (its file buttons and viewer link)", async () => {
  const page = need(demo, 'the demo page').page;
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await ticks(page, 3);
    const r = await page.evaluate(() => {
      const box = (el: Element | null): Box | null => {
        const b = el?.getBoundingClientRect();
        return b === undefined ? null : { left: b.left, top: b.top, right: b.right, bottom: b.bottom };
      };
      // The HUD's width follows its text (the stats line grows with the crowd and a slow machine's
      // timings): measure it at its widest, as wide as its max-width lets it be.
      const hud = document.querySelector<HTMLElement>('#hud');
      const before = hud?.style.width ?? '';
      if (hud !== null) hud.style.width = '4000px';
      const hudBox = box(hud);
      if (hud !== null) hud.style.width = before;
      return {
        panel: box(document.querySelector('.rewindable-panel')),
        hud: hudBox,
        screen: `${window.innerWidth}×${window.innerHeight}`,
      };
    });
    expect(r.panel, `${r.screen}: the rewind panel is on the page`).not.toBeNull();
    expect(r.hud, `${r.screen}: the demo's HUD is on the page`).not.toBeNull();
    expect(
      overlap(r.panel as Box, r.hud as Box),
      `${r.screen}: panel ${JSON.stringify(r.panel)} vs HUD ${JSON.stringify(r.hud)}`,
    ).toBe(false);
  }
});

test('viewer: at 1024×600 and 1280×600 the rewind panel does not cover the timeline', async () => {
  const base64 = await need(demo, 'the demo page').page.evaluate(demoSaveBase64);
  viewer = await openPage(need(browser, 'the browser'), 'viewer.html', '__viewer', 'viewer', SIZES[0]);
  const page = viewer.page;
  const out = await page.evaluate(loadBase64, { hook: '__viewer' as const, base64 });
  expect(out, 'loading the demo recording in the viewer').toEqual({ threw: false, name: '', code: '', message: '' });
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await ticks(page, 3);
    await expectPanelClearOfTimeline(page, '__viewer', 'viewer, replay shown');
  }
});
