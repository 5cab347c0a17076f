import { defineConfig } from 'vitest/config';
import { REWINDABLE_ALIASES } from '../../vite.config';

/**
 * End-to-end tests: playwright-core drives Debian's Chromium (/usr/bin/chromium) against the demo,
 * served by a vite dev server that `globalSetup.ts` starts on a free port.
 */
export default defineConfig({
  // The tests read replay files with the library as a user imports it (`rewindable`).
  resolve: { alias: REWINDABLE_ALIASES },
  test: {
    name: 'e2e',
    include: ['tests/e2e/**/*.test.ts'],
    globalSetup: ['tests/e2e/globalSetup.ts'],
    environment: 'node',
    testTimeout: 240_000,
    // A beforeAll may open a page (up to 90 s, browser.ts) and then wait for frames (up to 150 s).
    hookTimeout: 240_000,
    fileParallelism: false,
    pool: 'forks',
    // One worker process runs the files in turn (not a process, a vitest runtime and playwright's
    // import per file); the setup file gives each file fresh modules, as vitest.config.ts's node project.
    isolate: false,
    setupFiles: ['tests/unit/fileIsolation.ts'],
  },
});
