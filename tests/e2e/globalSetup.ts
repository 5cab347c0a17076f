import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import type { BrowserServer } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { createServer, type ViteDevServer } from 'vite';
import { launchChromiumServer } from './chromium';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    /** The run's Chromium, for `chromium.connect` (browser.ts's `launchBrowser`). */
    browserWsEndpoint: string;
  }
}

let server: ViteDevServer | undefined;
let browser: BrowserServer | undefined;

/**
 * Serves the demo (vite.config.ts; also the integration fixture, see fixturePage.ts) on a free
 * localhost port for the end-to-end tests, starts the one headless Chromium every test file
 * connects to (chromium.ts), and empties tests/e2e/failures/ so that every screenshot in it belongs
 * to this run.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  rmSync(resolve(__dirname, 'failures'), { recursive: true, force: true });
  server = await createServer({
    configFile: resolve(__dirname, '../../vite.config.ts'),
    server: {
      host: '127.0.0.1',
      port: 0,
      strictPort: false,
      open: false,
      hmr: false,
      watch: null,
      // Transformed while the browser starts and the first test file runs, not on the first page's
      // request: the demo, the viewer and the fixture with every module they import statically.
      warmup: { clientFiles: ['./src/main.ts', './src/viewer.ts', '../tests/fixture/src/main.ts'] },
    },
    // Pre-bundled up front: a dependency discovered mid-run would make vite reload the page.
    optimizeDeps: { include: ['pixi.js', 'lil-gui', 'msgpackr', 'gsap'] },
    logLevel: 'error',
    clearScreen: false,
  });
  await server.listen();
  const address = server.httpServer?.address();
  if (address === null || address === undefined || typeof address === 'string')
    throw new Error('e2e: vite did not listen on a TCP port');
  project.provide('baseUrl', `http://127.0.0.1:${address.port}/`);
  browser = await launchChromiumServer();
  project.provide('browserWsEndpoint', browser.wsEndpoint());
  return async () => {
    await browser?.close();
    await server?.close();
  };
}
