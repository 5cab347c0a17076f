// @ts-check
/**
 * Mutation testing (opt-in, not part of `npm test`): `npm run mutation` mutates src/core and src/replay
 * and runs, for each mutant, the node tests that cover it (vitest.mutation.config.ts). One file:
 * `npm run mutation -- --mutate src/core/playback/TimeControl.ts`. Reports land in reports/mutation/
 * (gitignored). Scores, and the survivors marked equivalent, are in docs/testing.md.
 * MUTATION_RUN=<name> keeps a run's sandbox and reports apart, so that several runs can go at once
 * (e.g. `MUTATION_RUN=sampler npm run mutation -- --mutate src/core/playback/Sampler.ts`).
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
const run = process.env.MUTATION_RUN ? `-${process.env.MUTATION_RUN}` : '';

export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'vitest.mutation.config.ts', related: true },
  coverageAnalysis: 'perTest',
  mutate: [
    'src/core/**/*.ts',
    'src/replay/**/*.ts',
    '!**/__tests__/**',
    '!**/index.ts',
    // Generated from src/core/kernel/entityKernel.wat by scripts/build-kernel.mjs: bytes, not logic.
    '!src/core/kernel/entityKernelWasm.ts',
  ],
  ignorePatterns: ['dist', 'dist-demo', 'bench/out', 'test-results', 'reports', '.scratch'],
  concurrency: 2,
  timeoutMS: 20_000,
  // The first run executes every related test once, with coverage: slow on a loaded machine.
  dryRunTimeoutMinutes: 30,
  timeoutFactor: 2,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: `reports/mutation/index${run}.html` },
  jsonReporter: { fileName: `reports/mutation/mutation${run}.json` },
  tempDirName: `reports/.stryker-tmp${run}`,
  cleanTempDir: true,
  thresholds: { high: 90, low: 85, break: null },
};
