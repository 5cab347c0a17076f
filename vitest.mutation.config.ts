import { defineConfig } from 'vitest/config';
import { REWINDABLE_ALIASES } from './vite.config';

/**
 * The test run StrykerJS repeats for every mutant (`npm run mutation`, see docs/testing.md): the node
 * tests of src/core and src/replay only. Browser-mode tests cannot run under Stryker's vitest runner,
 * and the allocation tests are left out (they measure the heap, not behaviour, and need --expose-gc,
 * which the runner's worker threads do not get). The two randomised suites run fewer cases: each
 * mutant is tested against every test that reaches its code, and a few hundred random cases kill what
 * ten thousand kill.
 * Likewise quat.ts's sweeps (`RWD_QUAT_SWEEP`: 5 % of the 100,000 and more rotations of `npm test`).
 *
 * `MUTATION_TESTS` (comma-separated globs) narrows the set further, for one file whose code every
 * recording test reaches (e.g. DrawRecorder.ts: its own tests instead of the fuzz suites). Fewer tests
 * can only kill fewer mutants, so a score measured this way is a lower bound of the full set's.
 */
const only = (process.env.MUTATION_TESTS ?? '').split(',').filter((g) => g !== '');

export default defineConfig({
  resolve: { alias: REWINDABLE_ALIASES },
  test: {
    name: 'node',
    environment: 'node',
    include: only.length > 0 ? only : ['src/core/**/__tests__/**/*.test.ts', 'src/replay/**/__tests__/**/*.test.ts'],
    exclude: ['**/*.alloc.test.ts', 'src/core/playback/__tests__/allocation.test.ts'],
    env: { RWD_PROPERTY_RUNS: '100', RWD_FUZZ_CASES: '150', RWD_QUAT_SWEEP: '0.05' },
    testTimeout: 60_000,
  },
});
