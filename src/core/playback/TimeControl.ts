import type { FrameReader } from '../read/FrameReader';
import { DEFAULT_TIME_CONTROL_OPTIONS, type TimeControlOptions } from './TimeControlOptions';

/** `live`: the game runs and records, the view follows the newest frame. `paused`/`playing`: viewing the past. */
export type PlaybackState = 'live' | 'paused' | 'playing';

/**
 * The one object that says which moment is viewed. It changes only through commands (pause, play,
 * setSpeed, step, seek, seekTime, toOldest, toNewest, goLive, setRange, markIn, markOut, clearRange,
 * playRange) and through `update`, and it emits a change event whenever its state, position, speed,
 * loop setting or in/out range changed.
 *
 * **In/out range.** An optional range of whole frames `[rangeIn, rangeOut]` (a video editor's in and
 * out points). While one is set, playing stays inside it: `play` from outside starts at its first
 * frame in the playing direction, playing stops at its ends (or wraps inside it when `loop` is on).
 * Seeking and stepping may still go anywhere held. The range is kept within the frames held: when its
 * first frames are evicted it shrinks to the oldest held, when all of them are, it is cleared.
 *
 * Positions are frame numbers as in `FrameReader`, fractional between frames. Playing advances by
 * the frames' RECORDED dt times the speed, so a replay runs true to real time even when the game's
 * frame rate varied. With an empty ring, commands change the state but the position stays put.
 *
 * Size: one state machine, kept in one file on purpose (a third of it is this contract): every
 * command clamps against the frames held and the range and emits at most one change event, and
 * splitting the range or the speed out would give that rule two owners.
 *
 * @example
 * const time = new TimeControl(recorder.reader);
 * time.onChange((tc) => timeline.setCursor(tc.position));
 * pauseButton.onclick = () => time.pause();
 * app.ticker.add((tk) => {
 *   time.update(tk.deltaMS / 1000);
 *   if (time.state === 'live') recordGameFrame();
 * });
 */
export class TimeControl {
  private readonly options: Readonly<TimeControlOptions>;
  private st: PlaybackState = 'live';
  private pos = 0;
  private spd = 1;
  private looping: boolean;
  private listeners: Array<(tc: TimeControl) => void> = [];
  // What the listeners last heard about; a change event fires when any of these differ.
  private seenState: PlaybackState = 'live';
  private seenPos = Number.NaN;
  private seenSpeed = 1;
  private seenLoop: boolean;
  /** The in/out range, whole frames (meaningful only when `ranged`). */
  private ranged = false;
  private rin = 0;
  private rout = 0;
  private seenRanged = false;
  private seenIn = 0;
  private seenOut = 0;
  /** Output of `segment` (a field, not a return value: a returned double may be boxed). */
  private segDur = 0;
  /** `timingInto` scratch: time and dt of frame f, then of f - 1. */
  private readonly timing = new Float64Array(4);

  public constructor(
    public readonly reader: FrameReader,
    options: Partial<TimeControlOptions> = {},
  ) {
    const o: TimeControlOptions = { ...DEFAULT_TIME_CONTROL_OPTIONS, ...options };
    if (!(o.minSpeed > 0 && o.maxSpeed >= o.minSpeed && Number.isFinite(o.maxSpeed))) {
      throw new RangeError(`rewindable: need 0 < minSpeed <= maxSpeed < Infinity (got ${o.minSpeed}, ${o.maxSpeed})`);
    }
    if (!(o.fallbackDt > 0 && Number.isFinite(o.fallbackDt) && o.maxFrameDt > 0)) {
      throw new RangeError(`rewindable: fallbackDt and maxFrameDt must be > 0 (got ${o.fallbackDt}, ${o.maxFrameDt})`);
    }
    this.options = Object.freeze(o);
    this.looping = o.loop;
    this.seenLoop = o.loop;
    this.spd = clampMagnitude(1, o.minSpeed, o.maxSpeed);
    this.seenSpeed = this.spd;
    this.seenPos = this.position;
  }

  /** `live`, `paused` or `playing`. */
  public get state(): PlaybackState {
    return this.st;
  }

  /** The viewed frame, fractional; while live it is the newest frame held. Always within the frames held. */
  public get position(): number {
    const r = this.reader;
    if (r.frameCount === 0) return this.pos;
    if (this.st === 'live') return r.newestFrame;
    return this.clamp(this.pos);
  }

  /**
   * Writes `position` to `out[index]`. Same value as the getter, for per-frame callers that must not
   * allocate: a double returned from a call the engine does not inline is boxed.
   */
  public positionInto(out: Float64Array, index: number): void {
    const r = this.reader;
    if (r.frameCount === 0) {
      out[index] = this.pos;
      return;
    }
    // `| 0`: frame numbers are int32. Without it, when V8 does not inline the getters, merging
    // their tagged results with the double position boxes the position (once per call).
    const lo = r.oldestFrame | 0;
    const hi = r.newestFrame | 0;
    const x = this.st === 'live' ? hi : this.pos;
    out[index] = x < lo ? lo : x > hi ? hi : x;
  }

  /** Signed speed: the sign is the direction, |speed| in [minSpeed, maxSpeed]. */
  public get speed(): number {
    return this.spd;
  }

  /** Whether playing wraps around at the ends. */
  public get loop(): boolean {
    return this.looping;
  }

  /** Turns wrapping at the ends on or off. */
  public setLoop(on: boolean): void {
    this.looping = on;
    this.emitIfChanged();
  }

  /** Whether an in/out range is set. */
  public get hasRange(): boolean {
    return this.ranged;
  }

  /** First frame of the in/out range (the oldest frame held when none is set; 0 with an empty ring). */
  public get rangeIn(): number {
    return this.ranged ? this.rin : this.reader.frameCount > 0 ? this.reader.oldestFrame : 0;
  }

  /** Last frame of the in/out range (the newest frame held when none is set; 0 with an empty ring). */
  public get rangeOut(): number {
    return this.ranged ? this.rout : this.reader.frameCount > 0 ? this.reader.newestFrame : 0;
  }

  /**
   * Sets the in/out range to the whole frames `[a, b]` (rounded, either order), clamped to the frames
   * held. NaN or an empty ring is ignored. Playing stays inside the range from now on; the position
   * is not moved.
   *
   * @example
   * time.setRange(120, 180);
   * time.setLoop(true);
   * time.play(); // loops over frames 120..180
   */
  public setRange(a: number, b: number): void {
    const r = this.reader;
    if (r.frameCount === 0 || Number.isNaN(a) || Number.isNaN(b)) return;
    const lo = this.clamp(Math.round(a < b ? a : b));
    const hi = this.clamp(Math.round(a < b ? b : a));
    this.ranged = true;
    this.rin = lo;
    this.rout = hi;
    this.emitIfChanged();
  }

  /**
   * Sets the range's in point to `frame` (default: the viewed frame, rounded). The out point stays
   * when it is at or after the in point, else it becomes the newest frame held.
   */
  public markIn(frame: number = this.position): void {
    if (this.reader.frameCount === 0 || Number.isNaN(frame)) return;
    const f = this.clamp(Math.round(frame));
    this.setRange(f, this.ranged && this.rout >= f ? this.rout : this.reader.newestFrame);
  }

  /**
   * Sets the range's out point to `frame` (default: the viewed frame, rounded). The in point stays
   * when it is at or before the out point, else it becomes the oldest frame held.
   */
  public markOut(frame: number = this.position): void {
    if (this.reader.frameCount === 0 || Number.isNaN(frame)) return;
    const f = this.clamp(Math.round(frame));
    this.setRange(this.ranged && this.rin <= f ? this.rin : this.reader.oldestFrame, f);
  }

  /** Removes the in/out range: playing spans every frame held again. */
  public clearRange(): void {
    this.ranged = false;
    this.emitIfChanged();
  }

  /**
   * Plays the in/out range (every frame held when none is set) in a loop at the current speed: loop
   * on, the position at the range's first frame in the playing direction (its out point when the
   * speed is negative), playing.
   */
  public playRange(): void {
    const r = this.reader;
    this.looping = true;
    if (r.frameCount > 0) this.pos = this.spd < 0 ? this.rangeOut : this.rangeIn;
    this.st = 'playing';
    this.emitIfChanged();
  }

  /** live → paused at the newest frame; playing → paused where it is; paused stays paused. */
  public pause(): void {
    if (this.st === 'paused') return;
    this.pos = this.position;
    this.st = 'paused';
    this.emitIfChanged();
  }

  /**
   * paused/live → playing. From live it starts at the newest frame. From paused at the end it is
   * heading to (the newest frame when the speed is positive, the oldest when negative), it restarts
   * from the other end, as a video player does. With an in/out range, its ends are the ends, and
   * from outside it playing starts at its first frame in the playing direction.
   */
  public play(): void {
    if (this.st === 'playing') return;
    const r = this.reader;
    const wasLive = this.st === 'live';
    this.pos = this.position;
    if (r.frameCount > 0 && this.ranged && (this.pos < this.rin || this.pos > this.rout)) {
      this.pos = this.spd < 0 ? this.rout : this.rin;
    } else if (!wasLive && r.frameCount > 1 && !this.looping) {
      const lo = this.rangeIn;
      const hi = this.rangeOut;
      if (this.spd > 0 && this.pos >= hi && lo < hi) this.pos = lo;
      else if (this.spd < 0 && this.pos <= lo && lo < hi) this.pos = hi;
    }
    this.st = 'playing';
    this.emitIfChanged();
  }

  /** playing → paused, paused → playing, live → paused. */
  public togglePlay(): void {
    if (this.st === 'playing' || this.st === 'live') this.pause();
    else this.play();
  }

  /**
   * Sets the speed, clamped to ±[minSpeed, maxSpeed]; the sign is the direction. 0 (or -0) means
   * the slowest speed in the current direction (pausing is a state, not a speed); NaN is ignored.
   */
  public setSpeed(speed: number): void {
    if (Number.isNaN(speed)) return;
    const { minSpeed, maxSpeed } = this.options;
    this.spd = speed === 0 ? Math.sign(this.spd) * minSpeed : clampMagnitude(speed, minSpeed, maxSpeed);
    this.emitIfChanged();
  }

  /**
   * The J/L keys of a video editor: plays in `direction` (1 forwards, -1 backwards) at 1×, or, when
   * already playing that way, twice as fast (up to `maxSpeed`). One change event.
   */
  public shuttle(direction: 1 | -1): void {
    const d = direction < 0 ? -1 : 1;
    const same = this.st === 'playing' && Math.sign(this.spd) === d;
    this.spd = clampMagnitude(same ? this.spd * 2 : d, this.options.minSpeed, this.options.maxSpeed);
    if (this.st === 'playing') this.emitIfChanged();
    else this.play();
  }

  /** Pauses, then moves by ±`frames` whole frames from the rounded position, clamped to the frames held. */
  public step(frames: number): void {
    const base = Math.round(this.position);
    const d = Number.isFinite(frames) ? Math.trunc(frames) : 0;
    if (this.reader.frameCount > 0) this.pos = this.clamp(base + d);
    this.st = 'paused';
    this.emitIfChanged();
  }

  /**
   * Moves to a (fractional) frame, clamped to [oldest, newest]: a frame already evicted clamps to
   * the oldest held. live → paused; playing keeps playing from there. NaN is ignored.
   */
  public seek(frame: number): void {
    if (Number.isNaN(frame)) return;
    if (this.reader.frameCount > 0) this.pos = this.clamp(frame);
    if (this.st === 'live') this.st = 'paused';
    this.emitIfChanged();
  }

  /**
   * Seeks to the fractional frame whose recorded game time is `time` (interpolated between the two
   * frames around it; recorded times are assumed non-decreasing). Times outside the held range clamp.
   */
  public seekTime(time: number): void {
    if (Number.isNaN(time)) return;
    const r = this.reader;
    if (r.frameCount === 0) return this.seek(this.pos);
    let lo = r.oldestFrame;
    let hi = r.newestFrame;
    if (!(time > r.timeOf(lo))) return this.seek(lo);
    if (!(time < r.timeOf(hi))) return this.seek(hi);
    // Invariant: time(lo) < time <= time(hi).
    while (hi - lo > 1) {
      const mid = (lo + hi) >>> 1;
      if (r.timeOf(mid) < time) lo = mid;
      else hi = mid;
    }
    const t0 = r.timeOf(lo);
    const t1 = r.timeOf(hi);
    this.seek(lo + (time - t0) / (t1 - t0));
  }

  /** Seeks to the oldest frame held. */
  public toOldest(): void {
    this.seek(this.reader.frameCount > 0 ? this.reader.oldestFrame : this.pos);
  }

  /** Seeks to the newest frame held (without going live). */
  public toNewest(): void {
    this.seek(this.reader.frameCount > 0 ? this.reader.newestFrame : this.pos);
  }

  /**
   * Back to live: the view follows the newest frame and the game records again. The speed goes
   * back to 1× (unless `keepSpeed`).
   */
  public goLive(): void {
    this.st = 'live';
    if (!this.options.keepSpeed) this.spd = clampMagnitude(1, this.options.minSpeed, this.options.maxSpeed);
    if (this.reader.frameCount > 0) this.pos = this.reader.newestFrame;
    this.emitIfChanged();
  }

  /**
   * Call every tick with the real seconds elapsed. While playing, advances the position by
   * `realDtSeconds × |speed|` seconds of RECORDED time (each frame lasting its recorded dt), then
   * stops at an end (or wraps when looping). While live, reports the newest frame moving; while
   * paused, keeps the position inside the frames held if old ones were evicted.
   */
  public update(realDtSeconds: number): void {
    if (this.st === 'playing') this.advance(realDtSeconds);
    this.emitIfChanged();
  }

  /** Calls `listener` after every change of state, position, speed, loop or in/out range. Returns the unsubscribe function. */
  public onChange(listener: (tc: TimeControl) => void): () => void {
    this.listeners = [...this.listeners, listener];
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }

  /** How long, in recorded seconds, the step from frame `f - 1` to frame `f` lasts. */
  public frameDuration(f: number): number {
    this.segment(f);
    return this.segDur;
  }

  /**
   * Sets `segDur` to `frameDuration(f)` (`f` int32). The times come through `timingInto`, which
   * returns no double, so nothing is boxed here whether or not V8 inlines the calls.
   */
  private segment(f: number): void {
    const r = this.reader;
    const t = this.timing;
    const held = r.timingInto(f, t, 0);
    let d = held ? t[1] : Number.NaN;
    if (!(d > 0)) d = held && r.timingInto((f - 1) | 0, t, 2) ? t[0] - t[2] : Number.NaN;
    if (!(d > 0)) d = this.options.fallbackDt;
    this.segDur = d > this.options.maxFrameDt ? this.options.maxFrameDt : d;
  }

  private advance(realDtSeconds: number): void {
    const r = this.reader;
    if (r.frameCount === 0) return;
    if (this.ranged) this.keepRangeHeld();
    const budget =
      realDtSeconds > 0 && realDtSeconds < Number.POSITIVE_INFINITY ? realDtSeconds * Math.abs(this.spd) : 0;
    // int32 frame numbers (see positionInto), and int32 frames handed to `segment`: no double is
    // boxed here whether or not V8 inlines the calls.
    // Playing stays inside the in/out range (kept within the frames held by `emitIfChanged`).
    const oldest = this.ranged ? this.rin | 0 : r.oldestFrame | 0;
    const newest = this.ranged ? this.rout | 0 : r.newestFrame | 0;
    const p0 = this.pos;
    let p = p0 < oldest ? oldest : p0 > newest ? newest : p0;
    const forward = this.spd > 0;
    // At most one lap of frame crossings per update: a bound even for tiny recorded dts.
    let crossings = newest - oldest + 3;
    let left = budget;
    for (;;) {
      if (forward ? p >= newest : p <= oldest) {
        if (!this.looping || oldest === newest) {
          p = forward ? newest : oldest;
          this.st = 'paused';
          break;
        }
        p = forward ? oldest : newest;
      }
      if (!(left > 0) || crossings-- <= 0) break;
      if (forward) {
        const f = (Math.floor(p) + 1) | 0;
        this.segment(f);
        const dur = this.segDur;
        const need = (f - p) * dur;
        if (left < need) {
          p += left / dur;
          left = 0;
        } else {
          p = f;
          left -= need;
        }
      } else {
        const f = (Math.ceil(p) - 1) | 0;
        this.segment(f + 1);
        const dur = this.segDur;
        const need = (p - f) * dur;
        if (left < need) {
          p -= left / dur;
          left = 0;
        } else {
          p = f;
          left -= need;
        }
      }
    }
    this.pos = p;
  }

  private clamp(x: number): number {
    const r = this.reader;
    if (r.frameCount === 0) return x;
    const lo = r.oldestFrame | 0;
    const hi = r.newestFrame | 0;
    return x < lo ? lo : x > hi ? hi : x;
  }

  /** Evicted frames leave the range: it shrinks to the oldest frame held, or is cleared when none of it is held. */
  private keepRangeHeld(): void {
    const r = this.reader;
    if (r.frameCount === 0) {
      this.ranged = false;
      return;
    }
    const lo = r.oldestFrame | 0;
    const hi = r.newestFrame | 0;
    if (this.rout < lo || this.rin > hi) {
      this.ranged = false;
      return;
    }
    if (this.rin < lo) this.rin = lo;
    if (this.rout > hi) this.rout = hi;
  }

  private emitIfChanged(): void {
    // The effective position, kept in `pos` (inline: a getter returning a double may box it).
    const r = this.reader;
    if (r.frameCount > 0) {
      const lo = r.oldestFrame | 0;
      const hi = r.newestFrame | 0;
      const x = this.st === 'live' ? hi : this.pos;
      this.pos = x < lo ? lo : x > hi ? hi : x;
    }
    if (this.ranged) this.keepRangeHeld();
    const p = this.pos;
    if (
      p === this.seenPos &&
      this.st === this.seenState &&
      this.spd === this.seenSpeed &&
      this.looping === this.seenLoop &&
      this.ranged === this.seenRanged &&
      this.rin === this.seenIn &&
      this.rout === this.seenOut
    )
      return;
    this.seenPos = p;
    this.seenState = this.st;
    this.seenSpeed = this.spd;
    this.seenLoop = this.looping;
    this.seenRanged = this.ranged;
    this.seenIn = this.rin;
    this.seenOut = this.rout;
    const ls = this.listeners;
    for (let i = 0; i < ls.length; i++) {
      try {
        ls[i](this);
      } catch (err) {
        // A throwing listener must not take the game (or the other listeners) down.
        console.error('rewindable: TimeControl change listener threw', err);
      }
    }
  }
}

function clampMagnitude(v: number, min: number, max: number): number {
  const m = Math.abs(v);
  const c = m < min ? min : m > max ? max : m;
  return v < 0 ? -c : c;
}
