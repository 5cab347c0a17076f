/**
 * Runs the overlay benchmark (1,000 entities + 2,000 primitives, changed frames) and prints its
 * result as one JSON line starting with `OVERLAY_BENCH ` for `npm run bench` to pick up:
 *
 *   npx vitest run --project browser src/pixi/__tests__/overlayBench.test.ts
 *
 * Asserts only that the benchmark measured what it claims (no wall-clock assertion).
 */
import { expect, it } from 'vitest';
import { runOverlayBench } from './overlayBench';

it('measures the overlay update on changed frames', async () => {
  const r = await runOverlayBench({ entities: 1000, primitives: 2000 });
  console.log(`OVERLAY_BENCH ${JSON.stringify(r)}`);
  expect(r.frames).toBe(300);
  expect(r.primitivesStored).toBe(2000);
  expect(Number.isFinite(r.overlayUpdateMs) && r.overlayUpdateMs > 0).toBe(true);
  expect(Number.isFinite(r.renderMs)).toBe(true);
});
