import { resolve } from 'node:path';
import { defineConfig } from 'vite';

/** The demo app (a real pixi game) and its standalone replay viewer. */
export default defineConfig({
  root: resolve(__dirname, 'demo'),
  base: './',
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
