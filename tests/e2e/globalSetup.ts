import { resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { createServer, type ViteDevServer } from 'vite';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

let server: ViteDevServer | undefined;

/** Serves the demo (vite.config.ts) on a free localhost port for the end-to-end tests. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  server = await createServer({
    configFile: resolve(__dirname, '../../vite.config.ts'),
    server: { host: '127.0.0.1', port: 0, strictPort: false, open: false, hmr: false, watch: null },
    logLevel: 'error',
    clearScreen: false,
  });
  await server.listen();
  const address = server.httpServer?.address();
  if (address === null || address === undefined || typeof address === 'string') throw new Error('e2e: vite did not listen on a TCP port');
  project.provide('baseUrl', `http://127.0.0.1:${address.port}/`);
  return async () => {
    await server?.close();
  };
}
