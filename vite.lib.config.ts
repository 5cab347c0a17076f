import { resolve } from 'node:path';
import { defineConfig } from 'vite';

/**
 * The library build: ESM, with pixi.js, lil-gui, msgpackr and ws (the CLI's server) left external.
 * One output file per source module (`preserveModules`), not chunks merged by rollup: a game's bundler
 * then drops every module the game does not reach. In merged chunks, `import { Recorder }` pulled in
 * the chunk that also held `saveReplay`, and with it msgpackr (whose modules have side effects, so no
 * bundler may drop them): 11.7 kB gzipped that an integration never ran (docs/performance.md,
 * "Bundle size"; tests/e2e/bundle.test.ts checks it).
 */
export default defineConfig({
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    minify: false,
    lib: {
      entry: {
        index: resolve(__dirname, 'src/index.ts'),
        format: resolve(__dirname, 'src/format/index.ts'),
        pixi: resolve(__dirname, 'src/pixi/index.ts'),
        ui: resolve(__dirname, 'src/ui/index.ts'),
        live: resolve(__dirname, 'src/live/index.ts'),
        cli: resolve(__dirname, 'src/cli/index.ts'),
      },
      formats: ['es'],
    },
    rollupOptions: {
      external: [/^pixi\.js/, /^lil-gui/, /^msgpackr/, /^ws$/, /^node:/],
      output: { preserveModules: true, preserveModulesRoot: 'src' },
    },
  },
});
