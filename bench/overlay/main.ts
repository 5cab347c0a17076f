/**
 * Entry of the overlay benchmark page (served by vite from `bench/sections/overlay.ts`): exposes
 * `window.rewindableOverlayBench`, which the section calls through playwright.
 */
import { runOverlayBench, type OverlayBenchOptions, type OverlayBenchResult } from './overlayBench';

declare global {
  interface Window {
    rewindableOverlayBench?: (options: Partial<OverlayBenchOptions>) => Promise<OverlayBenchResult>;
  }
}

window.rewindableOverlayBench = runOverlayBench;
