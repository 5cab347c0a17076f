import type { Container } from 'pixi.js';
import { Playback } from '../core/playback/Playback';
import type { PlaybackState } from '../core/playback/TimeControl';
import type { FrameReader } from '../core/read/FrameReader';
import { Channel } from '../core/store/ChannelRegistry';
import type { Recorder } from '../core/record/Recorder';
import type { StaticLayers } from '../core/store/StaticLayers';
import type { CameraController } from './CameraController';
import type { OverlayHud } from './OverlayHud';
import type { OverlayView } from './OverlayView';
import type { RewindOverlayOptions, ShowReplayOptions } from './RewindOverlayOptions';

/**
 * Which playback the rewind overlay shows (the live recording's, or a loaded replay's) and the
 * takeover of the game around it: pausing takes over the live objects and the world container's
 * transform (`halt`), resuming restores them exactly (`unhalt`). Follows the time controls' change
 * events; part of `RewindOverlay`, which forwards `showReplay`/`returnToLive` here.
 *
 * @example
 * const session = new ReplaySession(livePlayback, world, recorder, camera, hud, view, options, warn, emit);
 * const pb = session.showReplay(reader, {}, true); // a loaded replay, concrete frames
 * session.returnToLive();
 */
export class ReplaySession {
  /** True while the game must not simulate (a replay is shown). */
  public halted = false;
  /** Time state and speed of the shown playback as of the last change event. */
  public lastState: PlaybackState = 'live';
  public lastSpeed = 1;
  private replayPlayback: Playback | null = null;
  private replayStatic: StaticLayers | null = null;
  private readonly unsubscribeLive: () => void;
  private unsubscribeReplay: (() => void) | null = null;
  private unsubscribeBookmarks: (() => void) | null = null;
  private destroyed = false;
  private worldVisibleAtReplay = true;
  private newestAtPause = -1;

  public constructor(
    public readonly live: Playback,
    private readonly world: Container,
    private readonly recorder: Recorder,
    private readonly camera: CameraController,
    private readonly hud: OverlayHud,
    private readonly view: OverlayView,
    private readonly options: Readonly<RewindOverlayOptions>,
    private readonly warn: (key: string, message: string) => void,
    private readonly emit: () => void,
  ) {
    this.unsubscribeLive = live.time.onChange(() => this.onLiveTimeChange());
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
    return this.replayPlayback !== null ? this.replayStatic : this.recorder.staticLayers;
  }

  /** See `RewindOverlay.showReplay`; `concrete`: show recorded frames without blending. */
  public showReplay(reader: FrameReader, options: ShowReplayOptions, concrete: boolean): Playback {
    this.view.presenter.end();
    this.dropReplay();
    const pb = new Playback(reader, options.playback ?? this.options.playback);
    pb.sampler.concrete = concrete;
    for (const b of options.bookmarks ?? []) pb.bookmarks.add(b.frame, b.label);
    this.replayPlayback = pb;
    this.replayStatic = options.staticLayers ?? null;
    this.unsubscribeReplay = pb.time.onChange(() => this.onReplayTimeChange());
    if (!this.halted) this.halt();
    this.worldVisibleAtReplay = this.world.visible;
    if (this.options.hideWorldInReplay) this.world.visible = false;
    this.view.selected = -1;
    this.camera.follow(-1);
    this.watchBookmarks();
    this.view.presenter.begin(pb, false);
    pb.time.pause();
    this.view.invalidate();
    this.emit();
    return pb;
  }

  /** See `RewindOverlay.returnToLive`. */
  public returnToLive(): void {
    if (this.replayPlayback === null) {
      this.live.time.goLive();
      return;
    }
    this.view.presenter.end();
    this.dropReplay();
    this.world.visible = this.worldVisibleAtReplay;
    if (this.live.time.state !== 'live') this.live.time.goLive();
    else this.unhalt();
    this.watchBookmarks();
    this.emit();
  }

  /** Per tick while paused: warns (once) when the game recorded frames although it must not. */
  public checkRecordingWhilePaused(pb: Playback): void {
    const reader = pb.reader;
    if (pb === this.live && reader.frameCount > 0 && reader.newestFrame !== this.newestAtPause) {
      this.warn('recording-while-paused', 'rewindable: frames were recorded while the overlay was paused; the game must not record while overlay.isPaused is true');
      this.newestAtPause = reader.newestFrame;
    }
  }

  /** Stops following the time controls (the overlay is destroyed). */
  public dispose(): void {
    this.destroyed = true;
    this.unsubscribeLive();
    this.unsubscribeBookmarks?.();
  }

  private onLiveTimeChange(): void {
    if (this.destroyed) return;
    if (this.replayPlayback === null) this.view.timeChanged = true;
    const t = this.live.time;
    if (this.replayPlayback === null) {
      if (t.state !== 'live' && !this.halted) {
        this.halt();
        this.view.presenter.begin(this.live, true);
        this.view.invalidate();
      } else if (t.state === 'live' && this.halted) {
        this.unhalt();
      }
    } else if (t.state === 'live' && this.halted) {
      // goLive on the live recording while a replay is shown: leave the replay.
      this.returnToLive();
      return;
    }
    this.emitIfTimeChanged(t.state, t.speed);
  }

  private onReplayTimeChange(): void {
    const pb = this.replayPlayback;
    if (pb === null || this.destroyed) return;
    this.view.timeChanged = true;
    if (pb.time.state === 'live') {
      this.returnToLive();
      return;
    }
    this.emitIfTimeChanged(pb.time.state, pb.time.speed);
  }

  private emitIfTimeChanged(state: PlaybackState, speed: number): void {
    if (state === this.lastState && speed === this.lastSpeed) return;
    this.lastState = state;
    this.lastSpeed = speed;
    this.emit();
  }

  /** The game stops: save the camera, show the replay interface. */
  private halt(): void {
    this.halted = true;
    const reader = this.recorder.reader;
    this.newestAtPause = reader.frameCount > 0 ? reader.newestFrame : -1;
    const anim = this.playback.reader.channels.list()[Channel.ANIMATION];
    this.view.boneColor = anim !== undefined ? anim.color : 0xd86bff;
    this.hud.layout();
    this.camera.begin(this.world);
    this.hud.timeline.root.visible = true;
    this.hud.refreshLabel(false);
    this.view.invalidate();
    this.watchBookmarks();
    this.emit();
    this.callSafely(this.options.onPause, 'onPause');
  }

  /** The game resumes: restore everything exactly. */
  private unhalt(): void {
    this.view.presenter.end();
    this.camera.end(this.world);
    this.halted = false;
    this.hud.timeline.root.visible = false;
    this.view.clearSelection();
    this.camera.followHandle = -1;
    this.camera.mode = 'game';
    this.hud.info.setText('');
    this.view.invalidate();
    this.lastState = 'live';
    this.emit();
    this.callSafely(this.options.onResume, 'onResume');
  }

  private dropReplay(): void {
    if (this.replayPlayback === null) return;
    this.unsubscribeReplay?.();
    this.unsubscribeReplay = null;
    this.replayPlayback.dispose();
    this.replayPlayback = null;
    this.replayStatic = null;
  }

  private watchBookmarks(): void {
    this.unsubscribeBookmarks?.();
    this.unsubscribeBookmarks = this.playback.bookmarks.onChange(() => this.emit());
  }

  private callSafely(fn: (() => void) | null, name: string): void {
    if (fn === null) return;
    try {
      fn();
    } catch (err) {
      this.warn(name, `rewindable: ${name} threw: ${String(err)}`);
    }
  }
}
