/**
 * The integration fixture (tests/fixture, "Dockyard") in headless Chromium: opening it, waiting on
 * its ticker, and the in-page hook's types (`window.__fixture`, tests/fixture/src/hook.ts).
 *
 * The fixture lives outside the demo's root: the e2e server (globalSetup.ts, vite.config.ts) serves
 * it through vite's file-system route, `/@fs/<absolute path>`, with the same `rewindable` aliases.
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { inject } from 'vitest';
import { FAILURE_DIR, launchBrowser, PAGE_LOAD_MS, type DemoPage } from './browser';
import type { FixtureWindow } from '../fixture/src/hook';

export type { FixtureWindow, ShownEntity, Snapshot } from '../fixture/src/hook';

/** The fixture page's URL on the e2e server. */
export function fixtureUrl(): string {
  const file = resolve(__dirname, '../fixture/index.html').split('\\').join('/');
  return new URL(`/@fs${file.startsWith('/') ? '' : '/'}${file}`, inject('baseUrl')).href;
}

/**
 * Connects to the run's browser (`launchBrowser`), opens the fixture (title screen) and waits for
 * `window.__fixture`. `close()` closes the page and disconnects.
 */
export async function openFixture(viewport = { width: 1024, height: 640 }): Promise<DemoPage> {
  const browser = await launchBrowser();
  const page = await browser.newPage({ viewport });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console.error: ${m.text()}`);
  });
  try {
    await page.goto(fixtureUrl(), { timeout: PAGE_LOAD_MS });
    await page.waitForFunction(() => (window as unknown as Partial<FixtureWindow>).__fixture !== undefined, undefined, {
      timeout: PAGE_LOAD_MS,
    });
  } catch (err) {
    mkdirSync(FAILURE_DIR, { recursive: true });
    const shot = resolve(FAILURE_DIR, 'open-fixture.png');
    await page.screenshot({ path: shot }).catch(() => undefined);
    await browser.close();
    throw new Error(
      `e2e: the fixture did not load or did not set window.__fixture within 90 s (errors: ${errors.join(' | ') || 'none'}; screenshot: ${shot}): ${String(err)}`,
    );
  }
  return { browser, page, label: 'fixture', errors, close: () => browser.close() };
}

/** Waits for `n` ticks of the fixture's application ticker, each counted after pixi rendered it. */
export async function fixtureTicks(page: Page, n: number): Promise<void> {
  await page.evaluate((k) => (window as unknown as FixtureWindow).__fixture.ticks(k), n);
}
