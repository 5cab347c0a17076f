#!/usr/bin/env node
// `npm run bench`: bundles bench/run.ts (and the library sources it imports) with esbuild into
// bench/out/bundle/run.mjs, then runs that with plain Node, as a game's bundle runs the library.
// Running the TypeScript through tsx's module hooks instead makes Node detach an ArrayBuffer at
// start-up, which invalidates V8's "array buffer detaching" protector for the whole process: from
// then on every typed-array access in optimized code checks its buffer, and the recorder's
// per-entity calls cost 1 to 3 ns more (docs/performance.md, "The bench ran under tsx"). The sources run
// as they are with `node --expose-gc --import tsx bench/run.ts`.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outfile = join(root, 'bench/out/bundle/run.mjs');
await build({
  entryPoints: [join(root, 'bench/run.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
const run = spawnSync(process.execPath, ['--expose-gc', '--enable-source-maps', outfile, ...process.argv.slice(2)], {
  stdio: 'inherit',
});
process.exit(run.status ?? 1);
