import { describe, expect, it } from 'vitest';
import { allocatedBytes } from '../../../../tests/helpers/allocation';
import { EntityKernel } from '../EntityKernel';

// In a file of its own: type feedback from other tests would make this measure their history.
describe('EntityKernel: allocation', () => {
  for (const wasm of [true, false]) {
    it(`allocates nothing per call (${wasm ? 'WebAssembly' : 'JavaScript'} backend)`, () => {
      const n = 1000;
      const k = new EntityKernel(n, n * 16, { wasm });
      expect(k.backend).toBe(wasm ? 'wasm-simd' : 'js');
      for (let i = 0; i < n; i++) {
        const a = i * 0.37;
        k.x[i] = i;
        k.y[i] = -i * 0.5;
        k.z[i] = i % 7 === 0 ? NaN : 1;
        k.qz[i] = Math.sin(a);
        k.qw[i] = Math.cos(a);
        k.qx[i] = i % 3 === 0 ? 0.1 : 0; // 2D and 3D rotations
        k.qy[i] = i % 11 === 0 ? NaN : 0; // and a few invalid ones
      }
      const call = (): void => {
        k.packPositions(n, k.extraOffset);
        k.encodeRotations(n, k.extraOffset + n * 12);
        k.encodeRotations(7, k.extraOffset + 4); // a partial vector
      };
      const gc = (globalThis as { gc: () => void }).gc;
      for (let i = 0; i < 3000; i++) call(); // warm up: optimised code
      // A collection can drop optimised code that referred to objects of an earlier test (a
      // one-off recompilation, which allocates); warm up again after one.
      gc();
      for (let i = 0; i < 3000; i++) call();
      // One 16-byte object per call would show as 32 kB over 2,000 calls.
      // The least of three windows: a one-off engine event shows in one window, an allocation of
      // the kernel's in all three.
      const window = (): number =>
        allocatedBytes(() => {
          for (let i = 0; i < 2000; i++) call();
        });
      const young = Math.min(window(), window(), window());
      expect(young).toBeLessThan(4000);
      // The measure sees allocation: a call that allocates is caught.
      const leaky = allocatedBytes(() => {
        for (let i = 0; i < 2000; i++) {
          call();
          k.x.subarray(0, 1);
        }
      });
      expect(leaky).toBeGreaterThan(2000 * 16);
    });
  }
});
