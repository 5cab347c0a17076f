/**
 * The viewer page attached to a live game (issue 18): a `LiveViewer` (rewindable/live) lists the
 * sessions, follows one into its `LiveStore`, and the viewer's overlay shows that store like any
 * replay (`overlay.showReplay(store)`): the same timeline, channels, camera and inspector. While
 * following, the playhead is moved to the newest frame every tick; any time command of the user
 * (scrub, step, play, a key) stops following, and the viewer's copy stays where it is while the
 * game keeps running (the game never hears of it). Two-way commands are sent only when the game
 * allows them.
 */
import type { Playback } from 'rewindable';
import {
  type LiveCommandName,
  type LiveCommandResult,
  type LiveSessionInfo,
  type LiveStore,
  LiveViewer,
} from 'rewindable/live';
import type { RewindOverlay } from 'rewindable/pixi';

/** Settings of `LiveAttach`. */
export interface LiveAttachOptions {
  /** Follows the newest session by itself (and a newer one when the followed game is gone). */
  autoFollow: boolean;
  /** The server's shared token (`npx rewindable serve --token`), or null. */
  token: string | null;
  /** A stream the viewer refused, a server error. */
  onError: (message: string) => void;
}

export const DEFAULT_LIVE_ATTACH_OPTIONS: Readonly<LiveAttachOptions> = Object.freeze({
  autoFollow: true,
  token: null,
  onError: (message: string) => console.warn(message),
});

/** What the page shows of the live link (read by the panel and the test hook). */
export interface LiveAttachState {
  readonly target: string;
  readonly sessions: readonly LiveSessionInfo[];
  readonly session: string | null;
  readonly following: boolean;
  /** Whether the overlay shows this live store (and not a file opened meanwhile). */
  readonly shown: boolean;
  readonly frames: number;
  readonly oldest: number;
  readonly newest: number;
  /** The viewer's playhead (-1: nothing shown). */
  readonly position: number;
  readonly gapFrames: number;
  /** The commands the game allows. */
  readonly commands: readonly LiveCommandName[];
}

/**
 * @example
 * const live = new LiveAttach(overlay, 'ws://127.0.0.1:7070');
 * app.ticker.add(() => live.tick()); // before the overlay's update
 * live.setFollowing(false);          // the viewer's copy stops; the game runs on
 * download(live.saveRange(100, 400));
 */
export class LiveAttach {
  public readonly options: Readonly<LiveAttachOptions>;
  public readonly viewer: LiveViewer;
  private followingNow = true;
  /** The store shown, and its playback (null: not shown yet). */
  private shownStore: LiveStore | null = null;
  private playback: Playback | null = null;
  private unsubscribe: (() => void) | null = null;
  /** Set while this class seeks, so its own seeks do not count as the user's. */
  private ownSeek = false;
  /** Show the store at the next tick that has frames (set when attaching, following a session or asked to follow). */
  private wantShow = true;
  private readonly listeners: Array<() => void> = [];

  public constructor(
    public readonly overlay: RewindOverlay,
    public readonly target: string,
    options: Partial<LiveAttachOptions> = {},
  ) {
    this.options = Object.freeze({ ...DEFAULT_LIVE_ATTACH_OPTIONS, ...options });
    this.viewer = LiveViewer.connect(target, {
      token: this.options.token,
      onError: (e) => this.options.onError(`live: ${e.message}`),
    });
    this.viewer.onSessions = () => {
      this.autoFollow();
      this.changed();
    };
  }

  /** Whether the playhead follows the newest frame. */
  public get following(): boolean {
    return this.followingNow;
  }

  /** Whether the overlay shows this live store. */
  public get shown(): boolean {
    return this.playback !== null && this.overlay.playback === this.playback;
  }

  /** The store of the session followed. */
  public get store(): LiveStore {
    return this.viewer.store;
  }

  /** Called when the sessions, the session followed or following changed. */
  public onChange(listener: () => void): () => void {
    this.listeners.push(listener);
    return () => {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  /** Follows a session (from `viewer.sessions`) and the newest frame. */
  public follow(session: string): void {
    this.viewer.follow(session);
    this.followingNow = true;
    this.wantShow = true;
    this.changed();
  }

  /**
   * Follows the newest frame (true; shows the live store again if a file was opened meanwhile), or
   * stops (false): the playhead stays, the store keeps receiving, the game is not told.
   */
  public setFollowing(on: boolean): void {
    if (on === this.followingNow && (!on || this.shown)) return;
    this.followingNow = on;
    if (on && !this.shown) this.wantShow = true;
    this.changed();
  }

  /** Per tick, before the overlay's update: shows the store when asked to, follows the newest frame. */
  public tick(): void {
    const store = this.store;
    if (store.reader.frameCount === 0) return;
    if (this.wantShow || (store !== this.shownStore && this.shown) || this.overlay.source === 'live') this.show();
    if (!this.shown) {
      // A file opened in the viewer took the overlay: stop following until asked again.
      if (this.followingNow) {
        this.followingNow = false;
        this.changed();
      }
      return;
    }
    if (!this.followingNow) return;
    const pb = this.playback as Playback;
    const newest = store.reader.newestFrame;
    if (pb.time.position !== newest || pb.time.state !== 'paused') {
      this.ownSeek = true;
      try {
        if (pb.time.state === 'playing') pb.time.pause();
        pb.time.seek(newest);
      } finally {
        this.ownSeek = false;
      }
    }
  }

  /** The viewer's playhead as a whole frame (-1: nothing shown). */
  public get position(): number {
    return this.shown ? Math.round((this.playback as Playback).time.position) : -1;
  }

  /**
   * A `.rwd` file of frames `from..to` of the viewer's copy (clamped to what it holds).
   * @throws Error when nothing is held.
   */
  public saveRange(from: number, to: number): Uint8Array {
    const r = this.store.reader;
    if (r.frameCount === 0) throw new Error('no live frames held yet');
    return this.store.saveRange(Math.min(from, to), Math.max(from, to), {
      note: `live session ${this.viewer.session ?? ''}`,
    });
  }

  /** Asks the game to run `command` at the viewer's playhead; refused unless the game allows it. */
  public command(command: LiveCommandName): Promise<LiveCommandResult> {
    const frame = this.position;
    if (frame < 0) return Promise.resolve({ id: 0, ok: false, detail: 'no live frame shown' });
    return this.viewer.command(command, frame);
  }

  /** Whether the game allows `command`. */
  public allows(command: LiveCommandName): boolean {
    return this.store.hello?.commands.includes(command) ?? false;
  }

  public state(): LiveAttachState {
    const r = this.store.reader;
    return {
      target: this.target,
      sessions: this.viewer.sessions,
      session: this.viewer.session,
      following: this.followingNow,
      shown: this.shown,
      frames: r.frameCount,
      oldest: r.frameCount > 0 ? r.oldestFrame : -1,
      newest: r.frameCount > 0 ? r.newestFrame : -1,
      position: this.position,
      gapFrames: this.store.gapFrames,
      commands: this.store.hello?.commands ?? [],
    };
  }

  public close(): void {
    this.unsubscribe?.();
    this.viewer.close();
  }

  private show(): void {
    this.unsubscribe?.();
    const store = this.store;
    const pb = this.overlay.showReplay(store, { name: 'live' });
    this.wantShow = false;
    this.shownStore = store;
    this.playback = pb;
    // A time command that is not this class's own (the user's) stops following.
    this.unsubscribe = pb.time.onChange(() => {
      if (!this.ownSeek && this.followingNow && this.overlay.playback === pb) {
        this.followingNow = false;
        this.changed();
      }
    });
    this.changed();
  }

  /** Follows the newest session when none is followed, or when the one followed ended and a newer one runs. */
  private autoFollow(): void {
    if (!this.options.autoFollow) return;
    const list = this.viewer.sessions;
    if (list.length === 0) return;
    const newest = list[0];
    const current = list.find((s) => s.session === this.viewer.session);
    if (
      this.viewer.session === null ||
      (current !== undefined && !current.connected && newest.connected && newest.session !== current.session)
    ) {
      this.follow(newest.session);
    }
  }

  private changed(): void {
    // The timeline label says what is shown: "live … following", or the time state once the user took over.
    if (this.shown) this.overlay.setReplayLabel('live', this.followingNow ? 'following' : null);
    for (const l of this.listeners) l();
  }
}
