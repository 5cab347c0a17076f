/** Time-control settings; see `DEFAULT_TIME_CONTROL_OPTIONS`. */
export interface TimeControlOptions {
  /** Slowest speed magnitude (slow motion), > 0. */
  minSpeed: number;
  /** Fastest speed magnitude, >= `minSpeed`. */
  maxSpeed: number;
  /** Playing past an end wraps to the other end instead of stopping. */
  loop: boolean;
  /**
   * Seconds a frame lasts in playback when its recorded dt is zero, negative or missing and the
   * recorded times give no better answer (e.g. the very first frame, or a paused game still recording).
   */
  fallbackDt: number;
  /** Longest a single frame lasts in playback, in seconds: a recorded hitch (tab switch) is not replayed in full. */
  maxFrameDt: number;
  /**
   * Keep the speed when going live. Default false: `goLive` sets the speed back to 1×, so the next
   * pause plays forwards at 1× whatever speed the last one ended at.
   */
  keepSpeed: boolean;
}

/** The defaults merged under the options given to `new TimeControl(...)`. */
export const DEFAULT_TIME_CONTROL_OPTIONS: Readonly<TimeControlOptions> = Object.freeze({
  minSpeed: 0.05,
  maxSpeed: 8,
  loop: false,
  fallbackDt: 1 / 60,
  maxFrameDt: 1,
  keepSpeed: false,
});
