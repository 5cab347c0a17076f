/**
 * The docs' screenshots (docs/images/*.png), taken in headless Chromium from the demo and the
 * viewer. Not a test and not part of `npm test` (which never writes into docs/): run
 * `npm run screenshots` when the UI changes, and commit the images it rewrites.
 *
 * Each picture is one state of the demo, set up through the hooks (tests/e2e/hooks.ts): the game
 * running, paused mid-replay with the ai and physics channels and an in/out range on the timeline, the
 * key help, the entity inspector on an agent with the player pinned beside it, and the viewer showing
 * a file saved from the demo.
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { launchBrowser, need, openPage, ticks, waitForFrames, type DemoPage } from './browser';
import type { E2EWindow } from './hooks';
import { demoSaveBase64, loadBase64 } from './inPage';

/** Where the pictures go: the docs' images. */
const DOCS_IMAGES = resolve(__dirname, '../../docs/images');
const AI = 0;
const PHYSICS = 1;
/** As in demo.test.ts: a smaller crowd than the default 200 renders faster in SwiftShader. */
const CROWD = 100;
const LIVE_FRAMES = 150;

let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;
let demo: DemoPage | undefined;

beforeAll(async () => {
  browser = await launchBrowser();
  demo = await openPage(browser, 'index.html', '__demo');
  await demo.page.evaluate((n) => (window as unknown as E2EWindow).__demo.setCrowd(n), CROWD);
});

afterAll(async () => {
  await browser?.close();
});

/** Writes docs/images/`name` and checks the page printed no errors on the way. */
async function shot(p: DemoPage, name: string): Promise<void> {
  expect(p.errors, `the ${p.label} page printed errors before ${name}`).toEqual([]);
  mkdirSync(DOCS_IMAGES, { recursive: true });
  const file = resolve(DOCS_IMAGES, name);
  await p.page.screenshot({ path: file });
  console.log(`screenshots: wrote ${file}`);
}

async function seek(page: Page, frame: number): Promise<void> {
  await page.evaluate((f) => (window as unknown as E2EWindow).__demo.overlay.playback.time.seek(f), frame);
  await ticks(page, 2);
}

test('demo-live.png: the game running, newest frame drawn', async () => {
  const d = need(demo, 'the demo page');
  await waitForFrames(d.page, LIVE_FRAMES);
  await ticks(d.page, 5);
  await shot(d, 'demo-live.png');
});

test('demo-paused.png and help.png: paused 60 frames back, ai and physics on; the key help', async () => {
  const d = need(demo, 'the demo page');
  const newest = await d.page.evaluate(() => {
    const o = (window as unknown as E2EWindow).__demo.overlay;
    o.pause();
    return o.reader.newestFrame;
  });
  await d.page.evaluate(
    ([a, p]) => {
      const o = (window as unknown as E2EWindow).__demo.overlay;
      o.setChannel(a, true);
      o.setChannel(p, true);
    },
    [AI, PHYSICS] as const,
  );
  await seek(d.page, newest - 60);
  // An in/out range on the timeline, around the viewed frame.
  await d.page.evaluate(
    (n) => (window as unknown as E2EWindow).__demo.overlay.playback.time.setRange(n - 100, n - 30),
    newest,
  );
  await ticks(d.page, 2);
  await shot(d, 'demo-paused.png');
  await d.page.keyboard.press('h');
  await ticks(d.page, 2);
  await shot(d, 'help.png');
  await d.page.keyboard.press('h');
});

test('inspector.png: an agent selected in the paused game, the player pinned beside it', async () => {
  const d = need(demo, 'the demo page');
  const picked = await d.page.evaluate(() => {
    const o = (window as unknown as E2EWindow).__demo.overlay;
    const s = o.sample;
    const lt = o.playback.lifetimes;
    let agent = -1;
    let player = -1;
    for (let i = 0; i < s.count; i++) {
      const kind = lt.kind(s.handles[i]);
      if (kind === 'agent' && agent < 0 && s.inNearerFrame(i)) agent = s.handles[i];
      if (kind === 'player' && s.inNearerFrame(i)) player = s.handles[i];
    }
    return { agent, player };
  });
  expect(picked.agent, 'an agent in the viewed frame').toBeGreaterThanOrEqual(0);
  await d.page.evaluate(({ agent, player }) => {
    const w = window as unknown as E2EWindow;
    if (player >= 0) {
      w.__demo.overlay.select(player);
      w.__demo.inspector.pin(player);
    }
    w.__demo.overlay.select(agent);
  }, picked);
  await ticks(d.page, 3);
  await shot(d, 'inspector.png');
  await d.page.evaluate(() => (window as unknown as E2EWindow).__demo.inspector.close());
  await ticks(d.page, 1);
});

test('viewer.png: the standalone viewer showing a replay saved from the demo', async () => {
  const d = need(demo, 'the demo page');
  const base64 = await d.page.evaluate(demoSaveBase64);
  const v = await openPage(need(browser, 'the browser'), 'viewer.html', '__viewer');
  const out = await v.page.evaluate(loadBase64, { hook: '__viewer' as const, base64 });
  expect(out, 'loading the saved file in the viewer').toEqual({ threw: false, name: '', code: '', message: '' });
  await v.page.evaluate(() => {
    const o = (window as unknown as E2EWindow).__viewer.overlay;
    o.playback.time.seek(Math.round((o.reader.oldestFrame + o.reader.newestFrame) / 2));
  });
  await ticks(v.page, 3);
  await shot(v, 'viewer.png');
});
