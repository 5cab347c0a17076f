import { defineConfig } from 'vitest/config';
import e2e from './vitest.e2e.config';

/**
 * `npm run screenshots`: regenerates docs/images/*.png (tests/e2e/screenshots.shots.ts) with the
 * end-to-end tests' settings (the same served demo and Chromium). Kept out of `npm test`, which
 * writes nothing into the tree.
 */
export default defineConfig({
  ...e2e,
  test: { ...e2e.test, name: 'screenshots', include: ['tests/e2e/**/*.shots.ts'] },
});
