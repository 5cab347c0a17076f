import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../lib/repoRoot';

describe('repoRoot', () => {
  it('is the folder of the bench and the library, whichever module asks', () => {
    const root = repoRoot();
    // The sections serve bench/overlay with vite from here and write bench/out here.
    expect(existsSync(join(root, 'bench/run.ts'))).toBe(true);
    expect(existsSync(join(root, 'src/index.ts'))).toBe(true);
    expect(existsSync(join(root, 'bench/overlay/index.html'))).toBe(true);
  });
});
