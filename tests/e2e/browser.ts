import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { inject, onTestFailed } from 'vitest';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Screenshots of failed tests land here (git-ignored). */
export const FAILURE_DIR = resolve(__dirname, 'failures');
/** Screenshots used by the docs. */
export const DOCS_IMAGES = resolve(__dirname, '../../docs/images');

/** A browser page on the demo, with the console errors it printed. */
export interface DemoPage {
  browser: Browser;
  page: Page;
  errors: string[];
  close(): Promise<void>;
}

/**
 * Launches headless Chromium on a demo page (`path` relative to the served demo, e.g.
 * 'index.html?seed=1') and waits for `window.__demo` to exist. Call inside a test: a failing test
 * leaves a screenshot in tests/e2e/failures/ and says so in its error.
 */
export async function openDemo(path = '', viewport = { width: 1280, height: 720 }): Promise<DemoPage> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--use-angle=swiftshader',
      '--enable-unsafe-swiftshader',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
  const page = await browser.newPage({ viewport });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console.error: ${m.text()}`);
  });
  onTestFailed(async ({ task }) => {
    mkdirSync(FAILURE_DIR, { recursive: true });
    const file = resolve(FAILURE_DIR, `${task.name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}.png`);
    try {
      await page.screenshot({ path: file });
      task.result?.errors?.push({ name: 'Screenshot', message: `e2e: screenshot of the failure written to ${file}` } as never);
      console.error(`e2e: screenshot of the failure written to ${file}`);
    } catch {
      console.error('e2e: the page could not be captured after the failure');
    }
  });
  await page.goto(new URL(path, inject('baseUrl')).href);
  await page.waitForFunction(() => window.__demo !== undefined, undefined, { timeout: 90_000 });
  return {
    browser,
    page,
    errors,
    close: () => browser.close(),
  };
}

/** Waits until the recorder holds at least `frames` frames. */
export async function waitForFrames(page: Page, frames: number, timeout = 150_000): Promise<void> {
  await page.waitForFunction((n) => (window.__demo?.stats().frames ?? 0) >= n, frames, { timeout, polling: 250 });
}

/** Saves a docs screenshot under docs/images/. */
export async function docsShot(page: Page, name: string): Promise<void> {
  mkdirSync(DOCS_IMAGES, { recursive: true });
  await page.screenshot({ path: resolve(DOCS_IMAGES, name) });
}
