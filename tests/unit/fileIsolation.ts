/**
 * Setup file of vitest's `node` project (vitest.config.ts). The project runs its test files one
 * after another in one worker process (`isolate: false`: no new process and no new vitest runtime
 * per file, most of the node tests' CPU time before), and this file gives each test file what a
 * process of its own gave it: its own instances of the modules it imports (module-level state such
 * as the compiled-WebAssembly cache starts empty), and, when it ends, the globals, environment
 * variables and timers it replaced through `vi` put back. vitest itself restores `vi.spyOn` mocks
 * between files.
 */
import { afterAll, vi } from 'vitest';

vi.resetModules();

afterAll(() => {
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  vi.useRealTimers();
});
