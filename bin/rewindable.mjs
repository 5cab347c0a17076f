#!/usr/bin/env node
// The `rewindable` command line (`npx rewindable info FILE.rwd`, `npx rewindable serve`). Runs the
// built library (dist/cli.js); in a source checkout without a build, falls back to the TypeScript
// sources through tsx when it is installed. The process-specific parts (files, stdout, exit code,
// signals) live here; `info` is free of Node APIs, `serve` is a Node server (ws).
// REWINDABLE_CLI_SOURCE=1 runs the sources even when a build exists (the unit tests do: a stale
// dist/ from an earlier build must not decide whether today's sources pass).
import { existsSync, readFileSync } from 'node:fs';

const built = new URL('../dist/cli.js', import.meta.url);
const source = new URL('../src/cli/index.ts', import.meta.url);

async function loadCli() {
  const fromSource = process.env.REWINDABLE_CLI_SOURCE === '1';
  if (existsSync(built) && !fromSource) return import(built.href);
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
const argv = process.argv.slice(2);
const io = {
  readFile: (path) => readFileSync(path),
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  exitCode: (code) => {
    process.exitCode = code;
  },
};
if (argv[0] === 'serve') {
  const server = await cli.runServe(argv.slice(1), io);
  if (server !== null) {
    const stop = () => {
      server.close().then(() => process.exit(0));
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  }
} else {
  process.exitCode = cli.runCli(argv, io);
}
