import { Playback } from '../core/playback/Playback';
import type { PlaybackState } from '../core/playback/TimeControl';
import type { FrameReader } from '../core/read/FrameReader';
import type { StaticLayers } from '../core/store/StaticLayers';
import type { ReplayBookmark } from '../replay/saveReplay';
import type { OverlayContext } from './OverlayContext';
import type { ShownTime } from './OverlayHud';
import { Pausables } from './Pausables';
import type { ShowReplayOptions, ShowReplaySource } from './RewindOverlayOptions';

/** What `ReplaySession.showReplay` shows: a reader with its static layers and bookmarks (all resolved). */
export interface ResolvedReplay {
  readonly reader: FrameReader;
  readonly staticLayers: StaticLayers | null;
  readonly bookmarks: ReadonlyArray<Readonly<ReplayBookmark>>;
}

/**
 * What the session asks of the paused view (`PausedView`, loaded after the overlay is built): the
 * takeover of the screen around a pause. The session works without one: a pause before the view
 * has loaded halts the game at once, and the view takes over when it is attached.
 *
 * @internal Implemented by `PausedView`.
 *
 * @example
 * session.attach(pausedView); // shows the pause already under way, if any
 */
export interface SessionView {
  /** The game stopped: save the game's camera, show the timeline. */
  halt(): void;
  /** The game resumes: close the session, restore the camera, hide the timeline, clear the selection. */
  unhalt(): void;
  /** Presents `playback` from now on (`takeLive`: take over the game's live objects). */
  open(playback: Playback, takeLive: boolean): void;
  /** Closes what `open` opened: live objects are restored. */
  close(): void;
  /** No entity selected or followed. */
  deselect(): void;
}

/**
 * Resolves what `RewindOverlay.showReplay` was given (a `{ reader, ... }` source or a bare
 * `FrameReader`) into a `ResolvedReplay`: what `options` gives wins over the source's.
 *
 * @internal
 *
 * @example
 * session.showReplay(resolveReplay(loadReplay(bytes), {}), {}, false);
 */
export function resolveReplay(source: ShowReplaySource | FrameReader, options: ShowReplayOptions): ResolvedReplay {
  const s: ShowReplaySource = isReplaySource(source) ? source : { reader: source };
  return {
    reader: s.reader,
    staticLayers: options.staticLayers !== undefined ? options.staticLayers : (s.staticLayers ?? null),
    bookmarks: options.bookmarks ?? s.bookmarks ?? [],
  };
}

/** Whether `source` is a `{ reader, ... }` source rather than a bare `FrameReader`. */
function isReplaySource(source: ShowReplaySource | FrameReader): source is ShowReplaySource {
  return (
    typeof (source as Partial<ShowReplaySource>).reader === 'object' && (source as ShowReplaySource).reader !== null
  );
}

/**
 * Which playback the rewind overlay shows (the live recording's, or a loaded replay's) and the
 * takeover of the game around it: pausing takes over the live objects and the world container's
 * transform (`halt`), resuming restores them exactly (`unhalt`). It reacts to the time controls'
 * change events (the one response to every time command) and opens and closes the view's
 * sessions; it owns whether the game is halted and the time state shown.
 *
 * The view (`SessionView`) is attached when it has loaded: a pause before halts the game at once
 * (the game's objects stay as they are) and the view takes over when attached. A view that failed
 * to load (`fail`) leaves the game running: the live time control is sent back to live.
 *
 * @internal Part of `RewindOverlay`, which forwards `showReplay`/`returnToLive` here.
 *
 * @example
 * const session = new ReplaySession(ctx, livePlayback);
 * session.attach(pausedView);
 * const pb = session.showReplay({ reader, staticLayers: null, bookmarks: [] }, {}, true); // concrete frames
 * session.returnToLive();
 */
export class ReplaySession {
  private haltedValue = false;
  /** Time state and speed of the shown playback as of the last change event. */
  private readonly shown: {
    state: PlaybackState;
    speed: number;
    replay: boolean;
    name: string;
    status: string | null;
    labelVersion: number;
  } = { state: 'live', speed: 1, replay: false, name: 'replay', status: null, labelVersion: 0 };
  private replayPlayback: Playback | null = null;
  private replayStatic: StaticLayers | null = null;
  private readonly unsubscribeLive: () => void;
  private unsubscribeReplay: (() => void) | null = null;
  private unsubscribeBookmarks: (() => void) | null = null;
  private destroyed = false;
  private worldVisibleAtReplay = true;
  private newestAtPause = -1;
  private readonly clocks: Pausables;
  /** The paused view, once loaded. */
  private view: SessionView | null = null;
  /** Why the view will never come (it failed to load), or null. */
  private failure: string | null = null;

  public constructor(
    private readonly ctx: OverlayContext,
    public readonly live: Playback,
  ) {
    this.clocks = new Pausables(ctx.options.pausables, ctx.app.ticker, ctx.warn);
    this.unsubscribeLive = live.time.onChange(() => this.onLiveTimeChange());
  }

  /** The paused view has loaded: it shows the pause under way, if any, and every one after. */
  public attach(view: SessionView): void {
    this.view = view;
    if (!this.haltedValue) return;
    view.halt();
    if (this.replayPlayback !== null) view.deselect();
    view.open(this.playback, this.replayPlayback === null);
  }

  /**
   * The paused view failed to load (`message` says why): a pause under way ends (the game runs
   * again, everything as it was), and from now on the live time control is sent back to live
   * whenever it leaves it; `showReplay` throws `message`.
   */
  public fail(message: string): void {
    this.failure = message;
    if (this.replayPlayback !== null) this.returnToLive();
    else if (this.haltedValue || this.live.time.state !== 'live') this.live.time.goLive();
  }

  /** True while the game must not simulate (a replay is shown). */
  public get halted(): boolean {
    return this.haltedValue;
  }

  /** Time state, speed and source shown, as of the last change event (read-only; no getter per field). */
  public get shownTime(): ShownTime {
    return this.shown;
  }

  /** Whether the shown playback was playing at the last change event. */
  public get playing(): boolean {
    return this.shown.state === 'playing';
  }

  /** The loaded replay's playback, or null while the live recording is shown. */
  public get replay(): Playback | null {
    return this.replayPlayback;
  }

  /** The playback shown: the loaded replay's when there is one, else the live recording's. */
  public get playback(): Playback {
    return this.replayPlayback ?? this.live;
  }

  /** The static layers of what is shown. */
  public get staticLayers(): StaticLayers | null {
    return this.replayPlayback !== null ? this.replayStatic : this.ctx.recorder.staticLayers;
  }

  /** See `RewindOverlay.showReplay`; `concrete`: show recorded frames without blending. */
  public showReplay(source: ResolvedReplay, options: ShowReplayOptions, concrete: boolean): Playback {
    if (this.failure !== null) throw new Error(this.failure);
    const ctx = this.ctx;
    this.view?.close();
    this.dropReplay();
    const pb = new Playback(source.reader, options.playback ?? ctx.options.playback);
    pb.sampler.concrete = concrete;
    for (const b of source.bookmarks) pb.bookmarks.add(b.frame, b.label);
    this.replayPlayback = pb;
    this.replayStatic = source.staticLayers;
    this.shown.replay = true;
    this.setLabel(options.name ?? 'replay', null);
    this.unsubscribeReplay = pb.time.onChange(() => this.onReplayTimeChange());
    if (!this.haltedValue) this.halt();
    this.worldVisibleAtReplay = ctx.world.visible;
    if (ctx.options.hideWorldInReplay) ctx.world.visible = false;
    this.view?.deselect();
    this.watchBookmarks();
    this.view?.open(pb, false);
    pb.time.pause();
    ctx.changed();
    return pb;
  }

  /**
   * What the timeline label calls the replay shown, and a status shown instead of its time state
   * (null: the state). Applies until the next `showReplay`. See `RewindOverlay.setReplayLabel`.
   */
  public setLabel(name: string, status: string | null): void {
    const shown = this.shown;
    if (name === shown.name && status === shown.status) return;
    shown.name = name;
    shown.status = status;
    shown.labelVersion++;
  }

  /** See `RewindOverlay.returnToLive`. */
  public returnToLive(): void {
    if (this.replayPlayback === null) {
      this.live.time.goLive();
      return;
    }
    this.view?.close();
    this.dropReplay();
    this.ctx.world.visible = this.worldVisibleAtReplay;
    if (this.live.time.state !== 'live') this.live.time.goLive();
    else this.unhalt();
    this.watchBookmarks();
    this.ctx.changed();
  }

  /** Per tick while paused: warns (once) when the game recorded frames although it must not. */
  public checkRecordingWhilePaused(pb: Playback): void {
    const reader = pb.reader;
    if (pb === this.live && reader.frameCount > 0 && reader.newestFrame !== this.newestAtPause) {
      this.ctx.warn(
        'recording-while-paused',
        'rewindable: frames were recorded while the overlay was paused; the game must not record while overlay.isPaused is true',
      );
      this.newestAtPause = reader.newestFrame;
    }
  }

  /** Stops following the time controls and closes the view's session (the overlay is destroyed). */
  public dispose(): void {
    this.destroyed = true;
    this.unsubscribeLive();
    this.unsubscribeBookmarks?.();
    this.view?.close();
  }

  private onLiveTimeChange(): void {
    if (this.destroyed) return;
    const t = this.live.time;
    if (this.replayPlayback === null) {
      if (t.state !== 'live' && !this.haltedValue && this.failure !== null) {
        // No view will show a pause: the game keeps running.
        this.ctx.warn('paused-view-failed', this.failure);
        t.goLive();
        return;
      }
      if (t.state !== 'live' && !this.haltedValue) {
        this.halt();
        this.view?.open(this.live, true);
      } else if (t.state === 'live' && this.haltedValue) {
        this.unhalt();
      }
    } else if (t.state === 'live' && this.haltedValue) {
      // goLive on the live recording while a replay is shown: leave the replay.
      this.returnToLive();
      return;
    }
    this.emitIfTimeChanged(t.state, t.speed);
  }

  private onReplayTimeChange(): void {
    const pb = this.replayPlayback;
    if (pb === null || this.destroyed) return;
    if (pb.time.state === 'live') {
      this.returnToLive();
      return;
    }
    this.emitIfTimeChanged(pb.time.state, pb.time.speed);
  }

  private emitIfTimeChanged(state: PlaybackState, speed: number): void {
    const shown = this.shown;
    if (state === shown.state && speed === shown.speed) return;
    shown.state = state;
    shown.speed = speed;
    this.ctx.changed();
  }

  /** The game stops: save the camera, show the replay interface. */
  private halt(): void {
    const ctx = this.ctx;
    this.haltedValue = true;
    this.clocks.pause();
    const reader = ctx.recorder.reader;
    this.newestAtPause = reader.frameCount > 0 ? reader.newestFrame : -1;
    this.view?.halt();
    this.watchBookmarks();
    ctx.changed();
    this.callSafely(ctx.options.onPause, 'onPause');
  }

  /** The game resumes: restore everything exactly. */
  private unhalt(): void {
    const ctx = this.ctx;
    this.view?.unhalt();
    this.haltedValue = false;
    this.shown.state = 'live';
    this.clocks.resume();
    ctx.changed();
    this.callSafely(ctx.options.onResume, 'onResume');
  }

  private dropReplay(): void {
    if (this.replayPlayback === null) return;
    this.unsubscribeReplay?.();
    this.unsubscribeReplay = null;
    this.replayPlayback.dispose();
    this.replayPlayback = null;
    this.replayStatic = null;
    this.shown.replay = false;
  }

  private watchBookmarks(): void {
    this.unsubscribeBookmarks?.();
    this.unsubscribeBookmarks = this.playback.bookmarks.onChange(() => this.ctx.changed());
  }

  private callSafely(fn: (() => void) | null, name: string): void {
    if (fn === null) return;
    try {
      fn();
    } catch (err) {
      this.ctx.warn(name, `rewindable: ${name} threw: ${String(err)}`);
    }
  }
}
