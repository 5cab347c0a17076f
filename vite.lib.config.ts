import { resolve } from 'node:path';
import { defineConfig } from 'vite';

/** The library build: ESM, with pixi.js, lil-gui, msgpackr and ws (the CLI's server) left external. */
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
    },
  },
});
