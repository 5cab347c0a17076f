import type { Application, Container } from 'pixi.js';
import type { Recorder } from '../core/record/Recorder';
import { WarnOnce } from '../core/validate/WarnOnce';
import type { EntityBinding } from './binding';
import type { CameraController } from './CameraController';
import type { RewindOverlayOptions } from './RewindOverlayOptions';

/**
 * What the parts of `RewindOverlay` (`ReplaySession`, `RecordStep`, the lazily loaded `PausedView`)
 * share, handed to each as one object instead of a long argument list. It holds no state of its
 * own: every piece of state stays with the part that owns it, and a part that changed something
 * says so through `changed()`, which reaches the overlay's `onChange` listeners.
 *
 * @internal Built by `RewindOverlay`; not exported from `rewindable/pixi`.
 *
 * @example
 * const ctx: OverlayContext = { app, world, binding, recorder, options, warn, changed: () => emit() };
 * const session = new ReplaySession(ctx, livePlayback);
 */
export interface OverlayContext {
  readonly app: Application;
  /** The game's world container: its transform is the camera (see `camera.ts`). */
  readonly world: Container;
  readonly binding: EntityBinding;
  readonly recorder: Recorder;
  readonly options: Readonly<RewindOverlayOptions>;
  /** Reports a problem once per `key` through `options.onWarning` (never throws). */
  warn(key: string, message: string): void;
  /** Tells the overlay's change listeners that its state changed. */
  changed(): void;
}

/**
 * The `OverlayContext` of the paused view's parts (`OverlayHud`, `OverlayView`), with the replay
 * camera that `PausedView` builds when it loads.
 *
 * @internal Built by `PausedView`.
 *
 * @example
 * const ctx: ViewContext = { ...shell, camera: new CameraController(options.camera) };
 * const view = new OverlayView(ctx, hud, sample);
 */
export interface ViewContext extends OverlayContext {
  /** The replay camera (commands: `follow`, `begin`, `end`, ...). */
  readonly camera: CameraController;
}

/**
 * A `warn(key, message)` that calls `onWarning(message)` once per key and never throws (a throwing
 * warning handler must not take the game down).
 *
 * @internal
 *
 * @example
 * const warn = warnOncePerKey((m) => console.warn(m));
 * warn('find', 'binding.find threw'); // reported
 * warn('find', 'binding.find threw'); // not again
 */
export function warnOncePerKey(onWarning: (message: string) => void): (key: string, message: string) => void {
  // The recorder's helper: one implementation of "once per key, never throws".
  const once = new WarnOnce(onWarning);
  return (key, message) => once.warn(key, message);
}
