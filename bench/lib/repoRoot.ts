import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The repository's root: the nearest folder above this module whose package.json is rewindable's.
 * The same whether the bench runs from its sources (`node --import tsx bench/run.ts`) or from the
 * bundle `npm run bench` builds into bench/out/bundle/ (see scripts/bench.mjs), where a path
 * relative to the module would point elsewhere.
 */
export function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'rewindable')
      return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error('bench: no rewindable package.json above the bench');
    dir = up;
  }
}
