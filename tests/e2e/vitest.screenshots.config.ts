import { defineConfig } from 'vitest/config';

/**
 * `npm run screenshots`: regenerates docs/images/*.png (tests/e2e/screenshots.shots.ts) with the same
 * served demo and Chromium as the end-to-end tests. Kept out of `npm test`, which writes nothing
 * into the tree.
 */
export default defineConfig({
  test: {
    name: 'screenshots',
    include: ['tests/e2e/**/*.shots.ts'],
    globalSetup: ['tests/e2e/globalSetup.ts'],
    environment: 'node',
    testTimeout: 240_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    pool: 'forks',
  },
});
