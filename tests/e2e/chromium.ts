/**
 * The end-to-end tests' Chromium: Debian's (/usr/bin/chromium, or $CHROMIUM_PATH), headless, with
 * software WebGL (SwiftShader). One browser serves the whole run: `globalSetup.ts` starts it with
 * `launchChromiumServer` and each test file connects to it (`launchBrowser` in browser.ts), each
 * page in a browser context of its own. No vitest imports here: globalSetup runs outside the tests.
 */
import { chromium, type BrowserServer } from 'playwright-core';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const BROWSER_ARGS = [
  '--no-sandbox',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  // A hidden or occluded headless page must keep its requestAnimationFrame (the game loop) running.
  '--disable-background-timer-throttling',
  '--disable-renderer-backgrounding',
  '--disable-backgrounding-occluded-windows',
];

/** Starts headless Chromium for the run; test files connect to its `wsEndpoint()`. */
export async function launchChromiumServer(): Promise<BrowserServer> {
  return chromium.launchServer({ executablePath: CHROMIUM, headless: true, args: BROWSER_ARGS });
}
