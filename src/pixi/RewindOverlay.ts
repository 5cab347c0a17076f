import type { Application, Container, Ticker } from 'pixi.js';
import { Playback } from '../core/playback/Playback';
import type { SampleBuffer } from '../core/playback/SampleBuffer';
import type { PlaybackState } from '../core/playback/TimeControl';
import type { FrameReader } from '../core/read/FrameReader';
import type { Recorder } from '../core/record/Recorder';
import type { EntityBinding } from './binding';
import { CameraController, type CameraMode } from './CameraController';
import type { DebugLayers } from './DebugLayers';
import type { EntityPresenter } from './EntityPresenter';
import { DEFAULT_KEY_BINDINGS, KeyboardControls, type KeyBindings, type OverlayCommand } from './KeyboardControls';
import { warnOncePerKey, type OverlayContext } from './OverlayContext';
import { OverlayHud } from './OverlayHud';
import { OverlayView } from './OverlayView';
import { LifeKinds } from './LifeKinds';
import { addBookmarkAtViewed, runOverlayCommand, seekBookmark, seekNearestMarker } from './overlayCommands';
import { OverlaySuspension } from './OverlaySuspension';
import { RecordStep } from './RecordStep';
import { ReplaySession, resolveReplay } from './ReplaySession';
import {
  DEFAULT_REWIND_OVERLAY_OPTIONS,
  type OverlaySource,
  type RewindOverlayOptions,
  type ShowReplayOptions,
  type ShowReplaySource,
} from './RewindOverlayOptions';
import type { OnionSkin } from './OnionSkin';
import type { TextPanel } from './TextPanel';
import { Timeline } from './Timeline';

export {
  DEFAULT_REWIND_OVERLAY_OPTIONS,
  type OverlaySource,
  type RewindOverlayOptions,
  type ShowReplayOptions,
  type ShowReplaySource,
} from './RewindOverlayOptions';

/**
 * The rewind debugger on top of a pixi game. Created once with the pixi `Application`, the game's
 * world container (whose transform is the camera, see `camera.ts`), an entity binding and the
 * `Recorder`.
 *
 * **Contract with the game.** While `isPaused` is true the game must not simulate, record, or
 * touch its entities' display objects (pixi keeps rendering); `onPause`/`onResume` announce the
 * changes. Resuming restores every live object's transform, visibility and tint and the world
 * container's transform exactly as they were at pause.
 *
 * - Live: records through the optional `record` hook and draws the enabled channels of the newest
 *   frame (redrawn only when a new frame arrives).
 * - Paused: shows the sampled frame with the game's own objects (spawned-later ones hidden,
 *   despawned ones re-created through `binding.create` or drawn as debug shapes), the debug
 *   channels, bones, the recorded or a manual camera, a timeline, and takes keyboard commands.
 * - `showReplay(replay)` shows a replay that is not the live recording (a loaded file);
 *   `returnToLive()` drops it and resumes the game.
 *
 * The per-tick update allocates nothing in steady state; see docs/getting-started.md.
 *
 * The work is shared out: `OverlayView` draws the world-space layers, `OverlayHud` the screen-space
 * interface, `ReplaySession` switches between live and replay and takes over / restores the game,
 * `RecordStep` records each live tick, `OverlaySuspension` says whether the overlay is suspended and
 * `runOverlayCommand` maps keyboard/panel commands to the public API.
 * Each owns its state and changes it through its methods; they share one `OverlayContext`. Time
 * moves only through commands to the shown playback's `TimeControl` (keys, panel and timeline send
 * them); the session and the view react to its one change event.
 *
 * Size: what stays here is the public API a game calls (each member's contract documented) and
 * the wiring of the parts above; the behaviour lives in them.
 *
 * @example
 * const recorder = new Recorder();
 * const overlay = new RewindOverlay(app, world, { find: (id) => sprites.get(id) }, recorder, {
 *   record: (rec) => { for (const e of entities) rec.entity(e.id, e.x, e.y, 0, 0, 0, Math.sin(e.a / 2), Math.cos(e.a / 2)); },
 * });
 * app.ticker.add(() => { if (!overlay.isPaused) game.step(); });
 */
export class RewindOverlay {
  public readonly options: Readonly<RewindOverlayOptions>;
  /** Playback of the live recording. */
  public readonly livePlayback: Playback;
  /** The replay camera. */
  public readonly camera: CameraController;
  /** World-space layers (re-created entities, debug draw), kept aligned with the world container. */
  public readonly worldOverlay: Container;
  /** Screen-space interface (timeline, badge, help), kept on top of the stage. */
  public readonly ui: Container;
  public readonly timeline: Timeline;
  public readonly layers: DebugLayers;
  public readonly presenter: EntityPresenter;
  /** Over-budget badge. */
  public readonly badge: TextPanel;
  /** Help overlay (H). */
  public readonly help: TextPanel;
  /** Selected entity readout. */
  public readonly info: TextPanel;
  /** Onion skin and trail of the selected entity (`configure` for ghost count, spacing, whole kind). */
  public readonly onion: OnionSkin;

  /** The keyboard handler (null when `keyboard` is off). */
  public readonly keyboard: KeyboardControls | null;
  private readonly hud: OverlayHud;
  private readonly view: OverlayView;
  private readonly session: ReplaySession;
  private listeners: Array<(overlay: RewindOverlay) => void> = [];
  private destroyed = false;
  private interpolateOn: boolean;
  private readonly recordStep: RecordStep;
  private readonly suspension: OverlaySuspension;
  private readonly lifeKinds: LifeKinds;

  public constructor(
    public readonly app: Application,
    public readonly world: Container,
    public readonly binding: EntityBinding,
    public readonly recorder: Recorder,
    options: Partial<RewindOverlayOptions> = {},
  ) {
    const o: RewindOverlayOptions = { ...DEFAULT_REWIND_OVERLAY_OPTIONS, ...options };
    this.options = Object.freeze(o);
    this.interpolateOn = o.interpolate;

    this.livePlayback = new Playback(recorder.reader, o.playback);
    this.livePlayback.sampler.concrete = !o.interpolate;

    this.camera = new CameraController(o.camera);
    this.camera.captureWheel(app.canvas);
    this.camera.setSharedCamera(o.sharedCamera);
    const ctx: OverlayContext = {
      app,
      world,
      binding,
      recorder,
      options: this.options,
      camera: this.camera,
      warn: warnOncePerKey(this.options.onWarning),
      changed: () => this.emit(),
    };
    this.timeline = new Timeline(o.timeline, (frame) => this.playback.time.seek(frame));
    this.hud = new OverlayHud(ctx, this.timeline, () => this.view.invalidateCamera());
    this.ui = this.hud.root;
    this.badge = this.hud.badge;
    this.help = this.hud.help;
    this.info = this.hud.info;
    this.view = new OverlayView(ctx, this.hud);
    this.worldOverlay = this.view.root;
    this.layers = this.view.layers;
    this.presenter = this.view.presenter;
    this.onion = this.view.onion;
    // A render group of its own, as the world layers (see OverlayView): the timeline's changes
    // rebuild this group's draw instructions, not the game's.
    this.ui.isRenderGroup = true;
    app.stage.addChild(this.ui);
    this.session = new ReplaySession(ctx, this.livePlayback, this.view, this.hud);
    this.lifeKinds = new LifeKinds(recorder, binding, ctx.warn);
    this.recordStep = new RecordStep(ctx);
    this.suspension = new OverlaySuspension(o.suspendWhen, ctx.warn, (on) => this.onSuspendedChange(on));
    this.camera.onChange(() => {
      this.view.invalidateCamera();
      this.emit();
    });
    this.camera.onClick((x, y) => this.select(this.view.pick(x, y)));

    const bindings: KeyBindings = { ...DEFAULT_KEY_BINDINGS, ...o.keys };
    const target = o.keyboardTarget ?? (typeof window !== 'undefined' ? window : null);
    this.keyboard =
      o.keyboard && target !== null
        ? new KeyboardControls(target, {
            bindings,
            liveBindings: o.liveKeys,
            liveCommands: o.keysWhileLive,
            isLive: () => !this.session.halted,
            isEnabled: () => !this.suspension.suspended,
            run: (c) => this.runCommand(c),
          })
        : null;
    this.hud.setHelpLines(this.keyboard !== null ? this.keyboard.describe() : []);

    app.ticker.add(this.onTick, this, o.tickerPriority);
    this.hud.layout();
  }

  // ───────────────────────────── state ─────────────────────────────

  /** True while the game must not simulate (a replay is shown). */
  public get isPaused(): boolean {
    return this.session.halted;
  }

  /** What is shown: the live recording or a loaded replay. */
  public get source(): OverlaySource {
    return this.session.replay !== null ? 'replay' : 'live';
  }

  /**
   * What the timeline label calls the replay shown and the status it shows instead of the time
   * state (`setReplayLabel`); `{ name: 'replay', status: null }` unless told otherwise. Meaningful
   * while `source` is `'replay'`.
   */
  public get replayLabel(): { readonly name: string; readonly status: string | null } {
    return this.session.shownTime;
  }

  /** The playback commands go to: the loaded replay's when one is shown, else the live recording's. */
  public get playback(): Playback {
    return this.session.playback;
  }

  /** The reader being shown. */
  public get reader(): FrameReader {
    return this.playback.reader;
  }

  /** `live`, `paused` or `playing` (of the playback shown). */
  public get state(): PlaybackState {
    return this.session.halted ? (this.playback.time.state === 'playing' ? 'playing' : 'paused') : 'live';
  }

  /** The sample shown while paused (read-only; for tools and tests). */
  public get sample(): SampleBuffer {
    return this.view.sample;
  }

  /** How many samples were presented (changed frames shown). */
  public get sampleCount(): number {
    return this.view.samples;
  }

  /** Enabled channels as a bit mask. */
  public get channelMask(): number {
    return this.view.channelMask;
  }

  /** Whether bones are drawn (with the animation channel on). */
  public get showBones(): boolean {
    return this.view.showBones;
  }

  /** Whether frames are blended (false: concrete frames). */
  public get interpolate(): boolean {
    return this.interpolateOn;
  }

  /** Whether the onion skin and trail of the selected entity are shown. */
  public get onionSkin(): boolean {
    return this.view.onion.enabled;
  }

  /** Handle of the selected entity, or -1. */
  public get selected(): number {
    return this.view.selected;
  }

  /**
   * Whether the overlay is suspended (`setSuspended`, or `options.suspendWhen`): nothing is
   * recorded or drawn and no key is handled, for screens without gameplay (title, results).
   */
  public get suspended(): boolean {
    return this.suspension.suspended;
  }

  /** Calls `listener` when the state, speed, source, channels, bones, interpolation, camera mode, selection or bookmarks change. */
  public onChange(listener: (overlay: RewindOverlay) => void): () => void {
    this.listeners = [...this.listeners, listener];
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }

  // ───────────────────────────── commands ─────────────────────────────

  /** Stops the game and shows the newest frame (no-op when paused or suspended). */
  public pause(): void {
    if (!this.session.halted && !this.suspension.suspended) this.livePlayback.time.pause();
  }

  /**
   * Suspends the whole overlay (true) or lets it work again (false), for screens without gameplay:
   * while suspended nothing is recorded (the `record` hook is not called) or drawn, no key is
   * handled, and `pause()` does nothing; suspending while paused resumes the game first (everything
   * restored). `options.suspendWhen` suspends it too, checked every tick.
   *
   * @example
   * titleScreen.on('added', () => overlay.setSuspended(true));
   * startButton.on('pointertap', () => overlay.setSuspended(false));
   */
  public setSuspended(on: boolean): void {
    this.suspension.setByHand(on);
  }

  /** Resumes the game: restores everything and goes live (drops a loaded replay). */
  public resume(): void {
    if (this.session.replay !== null) this.returnToLive();
    else this.livePlayback.time.goLive();
  }

  /** Pause when live, else play/pause. */
  public togglePlay(): void {
    this.playback.time.togglePlay();
  }

  /** Enables or disables one channel. */
  public setChannel(channel: number, on: boolean): void {
    if (this.view.setChannel(channel, on)) this.emit();
  }

  /** Sets every channel at once (bit c = channel c). */
  public setChannelMask(mask: number): void {
    if (this.view.setChannels(mask)) this.emit();
  }

  /** Shows or hides bones (stick figures, with the animation channel on). */
  public setShowBones(on: boolean): void {
    if (this.view.setShowBones(on)) this.emit();
  }

  /** Blends between frames (true) or shows concrete recorded frames (false). */
  public setInterpolate(on: boolean): void {
    if (on === this.interpolateOn) return;
    this.interpolateOn = on;
    this.livePlayback.sampler.concrete = !on;
    const replay = this.session.replay;
    if (replay !== null) replay.sampler.concrete = !on;
    this.view.invalidateSample();
    this.emit();
  }

  /** Shows or hides the onion skin (ghosts at the previous and next frames) and trail of the selected entity. */
  public setOnionSkin(on: boolean): void {
    if (this.view.setOnionSkin(on)) this.emit();
  }

  /** Sets the camera mode (`game` is the recorded camera). */
  public setCameraMode(mode: CameraMode): void {
    this.camera.setMode(mode);
  }

  /** Selects (and follows) the entity of `handle`; -1 clears the selection. */
  public select(handle: number): void {
    if (!this.view.select(handle)) return;
    this.camera.follow(handle);
    this.hud.showInfo(handle, this.playback);
    this.emit();
  }

  /** Adds a bookmark at the viewed frame (the newest while live), with no label unless given. Returns its id. */
  public addBookmark(label?: string): number {
    return addBookmarkAtViewed(this.playback, label ?? '');
  }

  /** Seeks to a bookmark (pausing the game when live). False when the id is unknown. */
  public jumpToBookmark(id: number): boolean {
    return seekBookmark(this.playback, id);
  }

  /**
   * Seeks to the nearest marker after (`direction` 1) or before (-1) the viewed frame, among the
   * kinds in `markerJumpKinds` (pausing the game when live). False when there is none.
   */
  public jumpToMarker(direction: 1 | -1): boolean {
    return seekNearestMarker(this.playback, this.options.markerJumpKinds, direction);
  }

  /**
   * Runs one keyboard/panel command. While the game runs with nothing recorded yet (an empty
   * viewer), only `help` does something: there is no frame to pause on.
   */
  public runCommand(command: OverlayCommand): void {
    runOverlayCommand(this, command);
  }

  /**
   * Sets the first line of the key help (H), under its title: what a new user should try first
   * ('' for none). The entity inspector (`rewindable/ui`) points at itself here.
   *
   * @example
   * overlay.setHelpIntro('click an entity: the inspector shows its values over time');
   */
  public setHelpIntro(line: string): void {
    this.hud.setHelpIntro(line);
  }

  /**
   * Whether the selection readout (top left) names the entity, its kind, label and frames (true, the
   * default) or only the camera mode (false). An entity inspector sets false while its panel is
   * shown, since it shows those.
   */
  public setSelectionDetail(on: boolean): void {
    this.hud.setInfoDetail(on);
  }

  /** Shows or hides the key help; `onChange` listeners hear of it (a page's own HUD can step aside). */
  public toggleHelp(show = !this.help.root.visible): void {
    this.hud.toggleHelp(show);
    this.emit();
  }

  /** Whether the key help is shown. */
  public get helpShown(): boolean {
    return this.help.root.visible;
  }

  /**
   * Shows a replay that is not the live recording (e.g. a loaded file): the game is paused (if it
   * was not), its live objects are restored, the world container is hidden (`hideWorldInReplay`)
   * and every entity is re-created through `binding.create` or drawn as a debug shape. The live
   * recording is not touched. Returns the replay's `Playback`.
   *
   * `source` has the shape `saveReplay` reads: a `LoadedReplay` (its static layers and bookmarks are
   * shown too), a `Recorder`, or `{ reader, staticLayers?, bookmarks? }`; a bare `FrameReader` is
   * accepted as well. What `options` gives wins over the source's.
   *
   * @example
   * overlay.showReplay(loadReplay(bytes)); // pauses the game
   * overlay.returnToLive();
   */
  public showReplay(source: ShowReplaySource | FrameReader, options: ShowReplayOptions = {}): Playback {
    if (this.destroyed) throw new Error('rewindable: the overlay was destroyed');
    return this.session.showReplay(resolveReplay(source, options), options, !this.interpolateOn);
  }

  /**
   * Names the replay shown in the timeline label, and optionally a status shown there instead of
   * its time state: a viewer following a live stream says "live … following" rather than
   * "replay … paused". Does nothing while the live recording is shown; the next `showReplay`
   * resets both (to its `name` option).
   *
   * @example
   * overlay.showReplay(store, { name: 'live' });
   * overlay.setReplayLabel('live', following ? 'following' : null);
   */
  public setReplayLabel(name: string, status: string | null = null): void {
    if (this.session.replay === null) return;
    this.session.setLabel(name, status);
  }

  /** Drops the replay shown by `showReplay` and resumes the game (same as `resume()`). */
  public returnToLive(): void {
    this.session.returnToLive();
  }

  /** Forces a full redraw on the next update. */
  public invalidate(): void {
    this.view.invalidate();
  }

  // ───────────────────────────── per tick ─────────────────────────────

  /**
   * One overlay update: advances playback by `dtSeconds` of real time and redraws what changed
   * (entities, debug channels, camera, timeline). Called by the ticker; public so a benchmark or a
   * test can drive it. Allocates nothing in steady state.
   */
  public update(dtSeconds: number): void {
    if (this.destroyed) return;
    const dt = dtSeconds > 0 ? (dtSeconds < this.options.maxTickSeconds ? dtSeconds : this.options.maxTickSeconds) : 0;
    this.hud.layout();
    const session = this.session;
    const pb = session.playback;
    // Paused: nothing moves, so only the markers are refreshed (bookmarks may change).
    if (!session.halted || session.playing) pb.update(dt);
    else pb.markers.refresh();
    if (session.halted) {
      session.checkRecordingWhilePaused(pb);
      this.view.updateReplay(session.staticLayers);
      this.hud.update(pb, dt, session.shownTime);
    } else {
      this.view.updateLive();
    }
    this.view.placeLayers();
    const stage = this.app.stage;
    if (stage.children[stage.children.length - 1] !== this.ui) stage.addChild(this.ui);
  }

  /** Stops everything: restores the game if paused, removes the overlay's objects and listeners. */
  public destroy(): void {
    if (this.destroyed) return;
    if (this.session.replay !== null) this.returnToLive();
    else if (this.session.halted) this.livePlayback.time.goLive();
    this.destroyed = true;
    this.app.ticker.remove(this.onTick, this);
    this.keyboard?.dispose();
    this.camera.dispose();
    this.session.dispose();
    this.livePlayback.dispose();
    this.presenter.disposePools();
    this.worldOverlay.parent?.removeChild(this.worldOverlay);
    this.ui.parent?.removeChild(this.ui);
    this.worldOverlay.destroy({ children: true });
    this.ui.destroy({ children: true });
    this.listeners = [];
  }

  /** The overlay was suspended (true) or let work again: resumes a pause, hides or shows the layers. */
  private onSuspendedChange(on: boolean): void {
    if (on && this.session.halted) this.resume();
    this.view.setVisible(!on);
    this.ui.visible = !on;
    this.emit();
  }

  private onTick(ticker: Ticker): void {
    if (this.destroyed) return;
    if (this.suspension.refresh()) return;
    const dt = ticker.deltaMS / 1000;
    if (!this.session.halted) this.recordStep.run(dt);
    if (!this.session.halted) this.lifeKinds.update();
    this.update(dt);
  }

  private emit(): void {
    this.hud.refreshLabel(true);
    const ls = this.listeners;
    for (let i = 0; i < ls.length; i++) {
      try {
        ls[i](this);
      } catch (err) {
        console.error('rewindable: overlay change listener threw', err);
      }
    }
  }
}
