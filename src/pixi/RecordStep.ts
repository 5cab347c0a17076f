import { recordWorldCamera } from './camera';
import type { OverlayContext } from './OverlayContext';

/**
 * The live record step of `RewindOverlay`: once per tick while the game runs, it opens a frame on
 * the `Recorder` at the game's time (`options.clock`, or the ticker's time summed here), records the
 * world camera (`options.recordCamera`), calls the `record` hook, and always closes the frame; a tick
 * that `options.skipWhen` leaves out records nothing. A
 * throwing hook is reported once through `options.onWarning`; the game never sees the error.
 * It owns the summed ticker time; it allocates nothing per call.
 *
 * @internal Built by `RewindOverlay`; not exported from `rewindable/pixi`.
 *
 * @example
 * const step = new RecordStep(ctx);
 * if (!session.halted) step.run(ticker.deltaMS / 1000);
 */
export class RecordStep {
  /** Game time summed from the ticker when there is no `options.clock`. */
  private gameTime = 0;

  public constructor(private readonly ctx: OverlayContext) {}

  /** Records one frame through the `record` hook (nothing when there is none). */
  public run(dt: number): void {
    const ctx = this.ctx;
    const options = ctx.options;
    const hook = options.record;
    if (hook === null || this.skipped()) return;
    const clock = options.clock;
    let time: number;
    let step: number;
    if (clock !== null) {
      time = clock.time;
      step = clock.dt;
    } else {
      this.gameTime += dt;
      time = this.gameTime;
      step = dt;
    }
    const rec = ctx.recorder;
    rec.beginFrame(time, step);
    try {
      if (options.recordCamera) recordWorldCamera(rec, ctx.world, ctx.app.screen.width, ctx.app.screen.height);
      hook(rec, dt);
    } catch (err) {
      ctx.warn('record', `rewindable: the record hook threw: ${String(err)}`);
    } finally {
      if (rec.inFrame) rec.endFrame();
    }
  }

  /** Whether `skipWhen` asks to leave this tick out of the recording (a throwing check records). */
  private skipped(): boolean {
    const when = this.ctx.options.skipWhen;
    if (when === null) return false;
    try {
      return when() === true;
    } catch (err) {
      this.ctx.warn('skipWhen', `rewindable: skipWhen threw: ${String(err)}; the frame was recorded`);
      return false;
    }
  }
}
