/**
 * Setup file of vitest's `node` project (vitest.config.ts) and of the end-to-end tests
 * (tests/e2e/vitest.e2e.config.ts). Each runs its test files one after another in one worker
 * process (`isolate: false`: no new process and vitest runtime per file, which cost about 0.6 s of
 * CPU per file), and this file gives each test file what a process of its own gave it: its own
 * instances of the modules it imports (module-level state such as the compiled-WebAssembly cache
 * starts empty), and, when the file ends, the globals, environment variables and timers it
 * replaced through `vi` put back. vitest itself restores `vi.spyOn` mocks between files.
 */
import { afterAll, vi } from 'vitest';

vi.resetModules();

afterAll(() => {
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  vi.useRealTimers();
});
