import { resolve } from 'node:path';
import { defineConfig, type Alias } from 'vite';

/**
 * `rewindable`, `rewindable/pixi`, `rewindable/ui`, ... as a game that installed the package writes
 * them, resolved to the library's sources: `rewindable` is src/index.ts and `rewindable/<entry>` is
 * src/<entry>/index.ts (the entries of vite.lib.config.ts, and tsconfig.json's `paths`). Used by the
 * demo's dev server and build (this file, also the e2e tests' server), by vitest's node project and
 * by the e2e tests themselves (tests/e2e/vitest.e2e.config.ts).
 */
export const REWINDABLE_ALIASES: Alias[] = [
  { find: /^rewindable$/, replacement: resolve(__dirname, 'src/index.ts') },
  { find: /^rewindable\/([a-z]+)$/, replacement: resolve(__dirname, 'src/$1/index.ts') },
];

/** The demo app (a real pixi game) and its standalone replay viewer. */
export default defineConfig({
  root: resolve(__dirname, 'demo'),
  base: './',
  resolve: { alias: REWINDABLE_ALIASES },
  build: {
    outDir: resolve(__dirname, 'dist-demo'),
    emptyOutDir: true,
    rollupOptions: {
      input: {
        main: resolve(__dirname, 'demo/index.html'),
        viewer: resolve(__dirname, 'demo/viewer.html'),
      },
    },
  },
  server: { port: 5173, strictPort: false },
});
