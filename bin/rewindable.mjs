#!/usr/bin/env node
// The `rewindable` command line (`npx rewindable info FILE.rwd`). Runs the built library
// (dist/cli.js); in a source checkout without a build, falls back to the TypeScript sources
// through tsx when it is installed. The Node-specific parts (files, stdout, exit code) live here,
// so src/cli stays free of Node APIs.
import { existsSync, readFileSync } from 'node:fs';

const built = new URL('../dist/cli.js', import.meta.url);
const source = new URL('../src/cli/index.ts', import.meta.url);

async function loadCli() {
  if (existsSync(built)) return import(built.href);
  if (existsSync(source)) {
    try {
      const { register } = await import('tsx/esm/api');
      register();
      return await import(source.href);
    } catch {
      // tsx is a dev dependency: not there in an installed package.
    }
  }
  process.stderr.write('rewindable: dist/cli.js is missing; run `npm run build` first\n');
  process.exit(2);
}

const cli = await loadCli();
process.exitCode = cli.runCli(process.argv.slice(2), {
  readFile: (path) => readFileSync(path),
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
});
