import { mkdirSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterEach, beforeEach, expect, inject } from 'vitest';
import type { E2EWindow } from './hooks';

/** Screenshots of failed tests land here (git-ignored; emptied at the start of each run). */
export const FAILURE_DIR = resolve(__dirname, 'failures');

/**
 * How long a page may take to load (`page.goto`, whose default is 30 s) and then to set its ready
 * global: the demo's modules come one by one from the dev server, and a busy machine is slow.
 */
export const PAGE_LOAD_MS = 90_000;

/** The global a page sets once it is ready: the demo's `__demo`, the viewer's `__viewer`. */
export type ReadyGlobal = '__demo' | '__viewer';

/** A browser page on the demo (or the viewer), with the console and page errors it printed. */
export interface DemoPage {
  browser: Browser;
  page: Page;
  /** Short name used in failure screenshots ('demo', 'viewer'). */
  label: string;
  /** Every `pageerror` and `console.error` since the page opened, in order. */
  errors: string[];
  close(): Promise<void>;
}

/**
 * Connects to the run's Chromium (started once by globalSetup.ts, see chromium.ts). Every page the
 * returned browser opens lives in a browser context of its own; `close()` closes them all and
 * disconnects, leaving the browser to the next test file.
 */
export async function launchBrowser(): Promise<Browser> {
  return chromium.connect(inject('browserWsEndpoint'));
}

/**
 * Opens `path` (relative to the served demo, e.g. 'index.html' or 'viewer.html') in a new page of
 * `browser`, collects its errors, waits for its ready global (`__demo` or `__viewer`) and installs
 * the in-page test helpers (`window.__e2e`).
 */
export async function openPage(
  browser: Browser,
  path: string,
  ready: ReadyGlobal,
  label = ready.slice(2),
  viewport = { width: 1280, height: 720 },
): Promise<DemoPage> {
  const page = await browser.newPage({ viewport });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console.error: ${m.text()}`);
  });
  const url = new URL(path, inject('baseUrl')).href;
  try {
    await page.goto(url, { timeout: PAGE_LOAD_MS });
    await page.waitForFunction((g) => (window as unknown as Record<string, unknown>)[g] !== undefined, ready, {
      timeout: PAGE_LOAD_MS,
    });
  } catch (err) {
    mkdirSync(FAILURE_DIR, { recursive: true });
    const shot = resolve(FAILURE_DIR, `open-${label}.png`);
    await page.screenshot({ path: shot }).catch(() => undefined);
    throw new Error(
      `e2e: ${url} did not load or did not set window.${ready} within 90 s (errors so far: ${errors.length > 0 ? errors.join(' | ') : 'none'}; screenshot: ${shot}): ${String(err)}`,
    );
  }
  await installHelpers(page, ready);
  return { browser, page, label, errors, close: () => page.close() };
}

/**
 * Connects to the run's browser (`launchBrowser`), opens a demo page (`path` relative to the served
 * demo, e.g. 'index.html') and waits for its ready global. `close()` closes every page opened
 * through that connection and disconnects.
 */
export async function openDemo(
  path = 'index.html',
  ready: ReadyGlobal = '__demo',
  viewport = { width: 1280, height: 720 },
): Promise<DemoPage> {
  const browser = await launchBrowser();
  try {
    const p = await openPage(browser, path, ready, ready.slice(2), viewport);
    return { ...p, close: () => browser.close() };
  } catch (err) {
    await browser.close();
    throw err;
  }
}

/**
 * Per test: on failure, a screenshot of every page `pages()` returns is written to
 * tests/e2e/failures/ and its path is added to the failure message; after each test, the test
 * fails when a page printed a console error or threw since the previous test ended (or since it
 * opened: errors while loading count against the first test), listing them. Call once at the top
 * of a test file.
 */
export function watchPages(pages: () => ReadonlyArray<DemoPage | undefined>, testFile: string): void {
  /** Errors of each page already reported. */
  const seen = new Map<DemoPage, number>();
  beforeEach((ctx) => {
    ctx.onTestFailed(async () => {
      mkdirSync(FAILURE_DIR, { recursive: true });
      const stem = `${basename(testFile).replace(/\.test\.ts$/, '')}--${ctx.task.name}`
        .replace(/[^a-z0-9-]+/gi, '-')
        .toLowerCase();
      for (const p of pages()) {
        if (p === undefined || p.page.isClosed()) continue;
        const file = resolve(FAILURE_DIR, `${stem}--${p.label}.png`);
        try {
          await p.page.screenshot({ path: file });
          console.error(`e2e: "${ctx.task.name}" failed; screenshot of the ${p.label} page written to ${file}`);
          // Also in the failure report itself, under the assertion's message.
          for (const e of ctx.task.result?.errors ?? [])
            e.message = `${e.message}\n[e2e] screenshot of the ${p.label} page: ${file}`;
        } catch {
          console.error(`e2e: "${ctx.task.name}" failed; the ${p.label} page could not be captured`);
        }
        if (p.errors.length > 0)
          console.error(`e2e: errors printed by the ${p.label} page:\n  ${p.errors.join('\n  ')}`);
      }
    });
  });
  afterEach(() => {
    for (const p of pages()) {
      if (p === undefined) continue;
      const fresh = p.errors.slice(seen.get(p) ?? 0);
      seen.set(p, p.errors.length);
      expect(fresh, `the ${p.label} page printed console errors or threw during this test`).toEqual([]);
    }
  });
}

/**
 * `value`, which an earlier test or hook of the file set; throws a clear error when it is missing
 * (that test failed, see its error).
 *
 * @example
 * const page = need(viewer, 'the viewer page').page;
 */
export function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`e2e: ${what} is missing: an earlier test of this file failed (see above)`);
  return value;
}

/** Waits until the recorder holds at least `frames` frames. */
export async function waitForFrames(page: Page, frames: number, timeout = 150_000): Promise<void> {
  try {
    await page.waitForFunction((n) => (window as unknown as E2EWindow).__demo.stats().frames >= n, frames, {
      timeout,
      polling: 250,
    });
  } catch (err) {
    const held = await page.evaluate(() => (window as unknown as E2EWindow).__demo.stats().frames).catch(() => NaN);
    throw new Error(
      `e2e: expected the demo to record ≥ ${frames} frames within ${timeout / 1000} s, it holds ${held}: ${String(err)}`,
    );
  }
}

/** Waits for `n` ticks of the page's pixi ticker, each counted after pixi rendered it. */
export async function ticks(page: Page, n: number): Promise<void> {
  await page.evaluate((k) => (window as unknown as E2EWindow).__e2e.ticks(k), n);
}

/** Defines `window.__e2e` (see `E2EHelpers`) on a page whose ready global is set. */
async function installHelpers(page: Page, ready: ReadyGlobal): Promise<void> {
  await page.evaluate((g) => {
    const w = window as unknown as E2EWindow;
    const ticker = () => (g === '__demo' ? (w.__demo.overlay?.app ?? w.__demo.app) : w.__viewer.overlay.app).ticker;
    w.__e2e = {
      ticks: (n) =>
        new Promise<void>((done) => {
          let left = n;
          const t = ticker();
          const fn = (): void => {
            if (--left > 0) return;
            t.remove(fn);
            done();
          };
          // UTILITY (-50): after the game (0), the overlay (-24) and pixi's render (-25).
          t.add(fn, undefined, -50);
        }),
    };
  }, ready);
}
