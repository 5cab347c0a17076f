import type { PausedView } from './PausedView';

/**
 * Loads the overlay's paused view: the one dynamic `import()` of `RewindOverlay`, which a game's
 * bundler turns into a chunk of its own, fetched while the game runs (docs/performance.md,
 * "Bundle size"). A module of its own so that a test can make the load fail as a missing chunk does.
 *
 * @internal Called by `RewindOverlay`.
 *
 * @example
 * const { PausedView } = await loadPausedView();
 */
export function loadPausedView(): Promise<{ PausedView: typeof PausedView }> {
  return import('./PausedView');
}
