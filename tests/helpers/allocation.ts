import { getHeapSpaceStatistics } from 'node:v8';

/**
 * Bytes allocated on V8's young generation while `fn` runs, for allocation tests on hot paths.
 * It collects garbage first (needs `--expose-gc`, which the node test project passes), reads the
 * new space's used size, runs `fn`, reads it again, and subtracts the cost of measuring itself. If
 * a scavenge happened during `fn` (the reading went down) it tries again, so the figure is never
 * silently wrong.
 */
export function allocatedBytes(fn: () => void, attempts = 5): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('allocatedBytes needs node --expose-gc');
  const baseline = measure(gc, () => {});
  for (let i = 0; i < attempts; i++) {
    const bytes = measure(gc, fn);
    if (bytes >= 0) return Math.max(0, bytes - baseline);
  }
  throw new Error('allocatedBytes: a garbage collection ran during every attempt; measure a shorter run');
}

function newSpaceUsed(): number {
  for (const s of getHeapSpaceStatistics()) if (s.space_name === 'new_space') return s.space_used_size;
  throw new Error('no new_space in V8 heap statistics');
}

function measure(gc: () => void, fn: () => void): number {
  gc();
  const before = newSpaceUsed();
  fn();
  const after = newSpaceUsed();
  return after - before;
}
