/**
 * The clocks a game runs besides the pixi ticker the overlay shares with it: tween timelines
 * (`gsap.globalTimeline`), `Ticker.shared` (which plays `AnimatedSprite`s), audio. The overlay
 * pauses them when the game pauses and resumes them when it resumes, so "nothing moves while
 * paused" is one option (`pausables`), not knowledge of every clock.
 */

/**
 * A pixi `Ticker` (e.g. `Ticker.shared`): stopped while paused, started again on resume if it ran.
 * Its `autoStart` is off while paused, or the first listener added (an `AnimatedSprite` re-created
 * for a replay calls `play()`) would start it again.
 */
export interface TickerClock {
  stop(): unknown;
  start(): unknown;
  readonly started: boolean;
  autoStart?: boolean;
}

/** A gsap timeline or tween (e.g. `gsap.globalTimeline`): `paused()` reads, `pause()`/`resume()` act. */
export interface TimelineClock {
  pause(): unknown;
  resume(): unknown;
  paused(): boolean;
}

/** A Web Audio `AudioContext`: suspended while paused, resumed if it was running. */
export interface AudioClock {
  suspend(): Promise<void>;
  resume(): Promise<void>;
  readonly state: string;
}

/** An `<audio>`/`<video>` element (or anything with `paused`, `pause()` and `play()`). */
export interface MediaClock {
  pause(): unknown;
  play(): unknown;
  readonly paused: boolean;
}

/** Anything else: the overlay calls `pause()` when the game pauses and `resume()` when it resumes. */
export interface CustomClock {
  pause(): unknown;
  resume(): unknown;
}

/**
 * One entry of the `pausables` option: a pixi `Ticker`, a gsap timeline or tween, an
 * `AudioContext`, a media element, or any `{ pause(), resume() }`. Each is paused only if it was
 * running, and resumed only if the overlay paused it.
 *
 * @example
 * new RewindOverlay(app, world, binding, recorder, { pausables: [gsap.globalTimeline, Ticker.shared, audioContext, music] });
 */
export type Pausable = TickerClock | TimelineClock | AudioClock | MediaClock | CustomClock;

type Kind = 'ticker' | 'timeline' | 'audio' | 'media' | 'custom';

function kindOf(p: Pausable): Kind | null {
  const o = p as unknown as Record<string, unknown>;
  if (o === null || (typeof o !== 'object' && typeof o !== 'function')) return null;
  if (typeof o.stop === 'function' && typeof o.start === 'function' && typeof o.started === 'boolean') return 'ticker';
  if (typeof o.suspend === 'function' && typeof o.resume === 'function' && typeof o.state === 'string') return 'audio';
  if (typeof o.paused === 'function' && typeof o.pause === 'function' && typeof o.resume === 'function')
    return 'timeline';
  if (typeof o.paused === 'boolean' && typeof o.pause === 'function' && typeof o.play === 'function') return 'media';
  if (typeof o.pause === 'function' && typeof o.resume === 'function') return 'custom';
  return null;
}

/**
 * Pauses and resumes the `pausables` of the overlay around a pause. Built once; `pause()` records
 * which clocks were running and stops them, `resume()` restarts exactly those. A clock that throws
 * is reported through `warn` and skipped. The application's own ticker is never paused (the overlay
 * renders through it): given as a pausable, it is ignored with a warning.
 *
 * @internal Part of `RewindOverlay` (its `pausables` option).
 *
 * @example
 * const clocks = new Pausables([gsap.globalTimeline, Ticker.shared], app.ticker, warn);
 * clocks.pause();
 * clocks.resume();
 */
export class Pausables {
  private readonly clocks: Pausable[] = [];
  private readonly kinds: Kind[] = [];
  private readonly pausedByUs: boolean[] = [];
  /** A ticker's `autoStart` before the pause. */
  private readonly autoStart: boolean[] = [];

  public constructor(
    pausables: readonly Pausable[],
    appTicker: unknown,
    private readonly warn: (key: string, message: string) => void,
  ) {
    pausables.forEach((p, i) => {
      const k = kindOf(p);
      if (k === null) {
        throw new TypeError(
          `rewindable: pausables[${i}] is not a Ticker, a gsap timeline, an AudioContext, a media element or a { pause(), resume() } object`,
        );
      }
      if (p === appTicker) {
        warn(
          'pausable-app-ticker',
          "rewindable: pausables holds the application's own ticker, which the overlay renders through; ignored (the pause contract stops the game's updates on it)",
        );
        return;
      }
      this.clocks.push(p);
      this.kinds.push(k);
      this.pausedByUs.push(false);
      this.autoStart.push(false);
    });
  }

  /** How many clocks are handled. */
  public get count(): number {
    return this.clocks.length;
  }

  /** Stops every running clock. */
  public pause(): void {
    for (let i = 0; i < this.clocks.length; i++) {
      try {
        this.pausedByUs[i] = this.pauseOne(this.clocks[i], this.kinds[i], i);
      } catch (err) {
        this.pausedByUs[i] = false;
        this.warn(`pausable-${i}`, `rewindable: pausing pausables[${i}] threw: ${String(err)}`);
      }
    }
  }

  /** Restarts the clocks `pause` stopped. */
  public resume(): void {
    for (let i = 0; i < this.clocks.length; i++) {
      if (!this.pausedByUs[i]) continue;
      this.pausedByUs[i] = false;
      try {
        this.resumeOne(this.clocks[i], this.kinds[i], i);
      } catch (err) {
        this.warn(`pausable-${i}`, `rewindable: resuming pausables[${i}] threw: ${String(err)}`);
      }
    }
  }

  private pauseOne(p: Pausable, k: Kind, i: number): boolean {
    switch (k) {
      case 'ticker': {
        const t = p as TickerClock;
        if (!t.started) return false;
        this.autoStart[i] = t.autoStart === true;
        t.autoStart = false;
        t.stop();
        return true;
      }
      case 'timeline': {
        const t = p as TimelineClock;
        if (t.paused()) return false;
        t.pause();
        return true;
      }
      case 'audio': {
        const a = p as AudioClock;
        if (a.state !== 'running') return false;
        a.suspend().catch((err: unknown) =>
          this.warn('pausable-audio', `rewindable: suspending an AudioContext failed: ${String(err)}`),
        );
        return true;
      }
      case 'media': {
        const m = p as MediaClock;
        if (m.paused) return false;
        m.pause();
        return true;
      }
      default:
        (p as CustomClock).pause();
        return true;
    }
  }

  private resumeOne(p: Pausable, k: Kind, i: number): void {
    switch (k) {
      case 'ticker': {
        const t = p as TickerClock;
        t.autoStart = this.autoStart[i];
        t.start();
        break;
      }
      case 'timeline':
        (p as TimelineClock).resume();
        break;
      case 'audio':
        (p as AudioClock)
          .resume()
          .catch((err: unknown) =>
            this.warn('pausable-audio', `rewindable: resuming an AudioContext failed: ${String(err)}`),
          );
        break;
      case 'media': {
        const r = (p as MediaClock).play() as Promise<void> | undefined;
        if (r !== undefined && typeof r.catch === 'function') r.catch(() => undefined);
        break;
      }
      default:
        (p as CustomClock).resume();
        break;
    }
  }
}
