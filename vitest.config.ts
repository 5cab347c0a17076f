import { defineConfig } from 'vitest/config';
import { playwright } from '@vitest/browser-playwright';
import { REWINDABLE_ALIASES } from './vite.config';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Two projects: `node` runs the renderer-agnostic core; `browser` runs pixi and DOM code in real
 * headless Chromium (WebGL through SwiftShader).
 */
export default defineConfig({
  test: {
    projects: [
      {
        // The demo imports the library as a game does (`rewindable`, `rewindable/pixi`, ...).
        resolve: { alias: REWINDABLE_ALIASES },
        test: {
          name: 'node',
          environment: 'node',
          // --expose-gc lets allocation tests empty the young generation before measuring.
          pool: 'forks',
          execArgv: ['--expose-gc'],
          // One worker process runs the files in turn instead of a new process per file (about 0.6 s
          // of CPU each); the setup file gives each file fresh modules and puts back what it stubbed.
          isolate: false,
          setupFiles: ['tests/unit/fileIsolation.ts'],
          include: [
            'src/core/**/__tests__/**/*.test.ts',
            'src/live/**/__tests__/**/*.test.ts',
            'src/cli/**/__tests__/**/*.test.ts',
            'src/replay/**/__tests__/**/*.test.ts',
            'bench/__tests__/**/*.test.ts',
            'demo/src/**/__tests__/**/*.test.ts',
            // The docs' claims checked against the code (key table, quoted files).
            'tests/docs/**/*.test.ts',
          ],
          // The demo's tests that draw with pixi run in the browser project.
          exclude: ['demo/src/**/__tests__/**/*.browser.test.ts'],
          // A limit for a hung test, not a speed check: the heap-measuring allocation tests (100k
          // samples, warm-ups) and the fuzz suites take 5–10 s on an idle machine and more than 60 s
          // on a busy one.
          testTimeout: 180_000,
        },
      },
      {
        // Pre-bundled up front: discovering them mid-run reloads the page and fails every test.
        optimizeDeps: { include: ['pixi.js', 'lil-gui'] },
        test: {
          name: 'browser',
          include: [
            'src/pixi/**/__tests__/**/*.test.ts',
            'src/ui/**/__tests__/**/*.test.ts',
            'demo/src/**/__tests__/**/*.browser.test.ts',
          ],
          testTimeout: 60_000,
          browser: {
            enabled: true,
            headless: true,
            screenshotFailures: false,
            provider: playwright({
              launchOptions: {
                executablePath: CHROMIUM,
                args: [
                  '--no-sandbox',
                  '--disable-background-networking',
                  '--disable-component-update',
                  '--disable-sync',
                  '--no-first-run',
                  '--disable-quic',
                  '--use-angle=swiftshader',
                  '--enable-unsafe-swiftshader',
                  '--js-flags=--expose-gc',
                ],
              },
            }),
            instances: [{ browser: 'chromium' }],
          },
        },
      },
    ],
  },
});
