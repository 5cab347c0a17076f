/**
 * `window.__viewer`: the standalone viewer's hook for end-to-end tests (contract: `E2EViewerHook` in
 * tests/e2e/hooks.ts; typecheck fails when this hook no longer meets it).
 *
 * @example
 * __viewer.loadReplayBytes(bytes);
 * __viewer.overlay.playback.time.seek(120);
 * __viewer.transform(id); // the display standing for entity `id` in frame 120
 * __viewer.recordedAt(id, 120);
 */
import type { RewindOverlay } from 'rewindable/pixi';
import type { EntityInspector } from 'rewindable/ui';
import type { Application } from 'pixi.js';
import type { ReplayFiles } from '../ReplayFiles';
import { canvasChecksum } from './canvasChecksum';
import {
  displayedTransform,
  recordedTransform,
  shownObjectOf,
  type DisplayedTransform,
  type RecordedTransform,
} from './readBack';

export interface ViewerHook {
  readonly app: Application;
  readonly overlay: RewindOverlay;
  /** The entity inspector beside the replay. */
  readonly inspector: EntityInspector;
  /** Loads .rwd bytes and shows them. Throws the ReplayError on a bad file (the banner says it too). */
  loadReplayBytes(bytes: Uint8Array): void;
  /** The recorded transform of entity `id` in `frame` of the replay shown (the life of `id` present there). */
  recordedAt(id: number, frame: number): RecordedTransform | null;
  /**
   * The displayed transform of the display object standing for entity `id` in the frame shown
   * (after presenting the current playback position); null when none (absent, or a debug shape).
   */
  transform(id: number): DisplayedTransform | null;
  /** Hash of the canvas RGBA after bringing the overlay up to date and rendering. */
  canvasChecksum(above?: number): number;
}

declare global {
  interface Window {
    __viewer?: ViewerHook;
  }
}

/**
 * Sets `window.__viewer` (once the viewer is wired).
 *
 * @example
 * installViewerHook(app, overlay, files, inspector);
 */
export function installViewerHook(
  app: Application,
  overlay: RewindOverlay,
  files: ReplayFiles,
  inspector: EntityInspector,
): ViewerHook {
  const hook: ViewerHook = {
    app,
    overlay,
    inspector,
    loadReplayBytes(bytes) {
      files.loadBytes(bytes, 'replay (debug hook)');
    },
    recordedAt: (id, frame) => recordedTransform(overlay.reader, id, frame),
    transform(id) {
      overlay.update(0);
      const d = shownObjectOf(overlay, id);
      return d === null ? null : displayedTransform(d);
    },
    canvasChecksum(above) {
      overlay.update(0);
      return canvasChecksum(app, above);
    },
  };
  window.__viewer = hook;
  return hook;
}
