import { join } from 'node:path';
import type { ViteDevServer } from 'vite';

/**
 * The vite dev server of the overlay bench's page (`bench/overlay/`), not yet listening: one
 * configuration for the bench's overlay section and the probes that run the same page. vite is
 * imported on first use, so sections that never open the page never load it.
 *
 * @example
 * const server = await createOverlayBenchServer(ROOT);
 * await server.listen();
 * const url = server.resolvedUrls?.local[0];
 */
export async function createOverlayBenchServer(root: string): Promise<ViteDevServer> {
  const { createServer } = await import('vite');
  return createServer({
    configFile: false,
    root: join(root, 'bench/overlay'),
    cacheDir: join(root, 'bench/out/vite-overlay'),
    logLevel: 'error',
    clearScreen: false,
    optimizeDeps: { include: ['pixi.js'] },
    server: {
      host: '127.0.0.1',
      port: 0,
      strictPort: false,
      hmr: false,
      fs: { allow: [root] },
      headers: { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' },
    },
  });
}
