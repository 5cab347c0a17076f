import type { Application, Container, Ticker } from 'pixi.js';
import { Playback } from '../core/playback/Playback';
import { SampleBuffer } from '../core/playback/SampleBuffer';
import type { PlaybackState } from '../core/playback/TimeControl';
import type { FrameReader } from '../core/read/FrameReader';
import type { Recorder } from '../core/record/Recorder';
import type { EntityBinding } from './binding';
import type { CameraMode } from './camera';
import type { CameraController } from './CameraController';
import type { DebugLayers } from './DebugLayers';
import type { EntityPresenter } from './EntityPresenter';
import { DEFAULT_KEY_BINDINGS, KeyboardControls, type KeyBindings, type OverlayCommand } from './KeyboardControls';
import { warnOncePerKey, type OverlayContext } from './OverlayContext';
import { PausedViewSlot, type PausedViewState } from './PausedViewSlot';
import { LifeKinds } from './LifeKinds';
import { loadPausedView } from './loadPausedView';
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
import type { Timeline } from './Timeline';

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
 * **Loading.** What shows a pause (the timeline, the camera, debug layers, the entity presenter,
 * the onion skin: `PausedView`) is a chunk of its own, loaded with `import()` as the overlay is
 * built, while the game runs (docs/performance.md, "Bundle size"). Until it has loaded (`ready`,
 * `viewState`) the overlay records, takes keys and tracks the pause: a pause then halts the game at
 * once (`isPaused`, `onPause`) and the view shows it when it arrives; live debug drawing starts then
 * too. The view's parts (`camera`, `timeline`, `layers`, `presenter`, `onion`, `worldOverlay`, `ui`,
 * `badge`, `help`, `info`) exist from then on, and reading one before throws an error that says so;
 * settings changed before (`setChannel`, `setShowBones`, `setOnionSkin`, `setCameraMode`,
 * `toggleHelp`, ...) are handed to it. A view that fails to load is reported through
 * `options.onError` and leaves the game running and recording, without pause or replay.
 *
 * The work is shared out: `PausedView` (with `OverlayView`, the world-space layers, and `OverlayHud`,
 * the screen-space interface), `ReplaySession` switches between live and replay and takes over /
 * restores the game, `RecordStep` records each live tick, `OverlaySuspension` says whether the
 * overlay is suspended and `runOverlayCommand` maps keyboard/panel commands to the public API.
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
 * await overlay.ready; // only to reach overlay.timeline, overlay.layers, ... (the view's parts)
 */
export class RewindOverlay {
  public readonly options: Readonly<RewindOverlayOptions>;
  /** Playback of the live recording. */
  public readonly livePlayback: Playback;
  /**
   * Settles when the paused view has loaded (see "Loading" above): `camera`, `timeline`, `layers`,
   * `presenter`, `onion`, `worldOverlay`, `ui`, `badge`, `help` and `info` exist from then on.
   * Rejects when it failed to load (reported through `options.onError` too; the game keeps running
   * without pause or replay) or the overlay was destroyed first. Awaiting it is optional.
   *
   * @example
   * const overlay = new RewindOverlay(app, world, binding, recorder);
   * await overlay.ready;
   * overlay.worldOverlay.addChildAt(effects, 1);
   */
  public readonly ready: Promise<void>;
  /** The keyboard handler (null when `keyboard` is off). */
  public readonly keyboard: KeyboardControls | null;
  private readonly session: ReplaySession;
  private listeners: Array<(overlay: RewindOverlay) => void> = [];
  private destroyed = false;
  private interpolateOn: boolean;
  private readonly recordStep: RecordStep;
  private readonly suspension: OverlaySuspension;
  private readonly lifeKinds: LifeKinds;
  private readonly sampleBuffer = new SampleBuffer();
  private readonly ctx: OverlayContext;
  /** The paused view once loaded, and the view settings changed until then. */
  private readonly slot: PausedViewSlot;

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
    this.ctx = {
      app,
      world,
      binding,
      recorder,
      options: this.options,
      warn: warnOncePerKey(this.options.onWarning),
      changed: () => this.emit(),
    };
    this.slot = new PausedViewSlot(this.options);
    this.session = new ReplaySession(this.ctx, this.livePlayback);
    this.lifeKinds = new LifeKinds(recorder, binding, this.ctx.warn);
    this.recordStep = new RecordStep(this.ctx);
    this.suspension = new OverlaySuspension(o.suspendWhen, this.ctx.warn, (on) => this.onSuspendedChange(on));

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

    app.ticker.add(this.onTick, this, o.tickerPriority);
    this.ready = this.loadView();
    // Reported through onError; a game that never awaits `ready` must not see an unhandled rejection.
    this.ready.catch(() => {});
  }

  // ───────────────────────────── the paused view ─────────────────────────────

  /**
   * `'loading'` until the paused view has loaded, then `'ready'` (or `'failed'`: the game runs on
   * without pause or replay). See `ready`.
   */
  public get viewState(): PausedViewState {
    return this.slot.state;
  }

  /** The replay camera. Exists once `ready` has settled (reading it before throws). */
  public get camera(): CameraController {
    return this.slot.require('camera').camera;
  }

  /** World-space layers (re-created entities, debug draw), kept aligned with the world container. After `ready`. */
  public get worldOverlay(): Container {
    return this.slot.require('worldOverlay').worldOverlay;
  }

  /** Screen-space interface (timeline, badge, help), kept on top of the stage. After `ready`. */
  public get ui(): Container {
    return this.slot.require('ui').ui;
  }

  /** The timeline (shown while paused). After `ready`. */
  public get timeline(): Timeline {
    return this.slot.require('timeline').timeline;
  }

  /** The debug layers (channels' primitives, paragraphs). After `ready`. */
  public get layers(): DebugLayers {
    return this.slot.require('layers').layers;
  }

  /** Shows the game's objects, re-created ones and debug shapes while paused. After `ready`. */
  public get presenter(): EntityPresenter {
    return this.slot.require('presenter').presenter;
  }

  /** Over-budget badge. After `ready`. */
  public get badge(): TextPanel {
    return this.slot.require('badge').badge;
  }

  /** Help overlay (H). After `ready`. */
  public get help(): TextPanel {
    return this.slot.require('help').help;
  }

  /** Selected entity readout. After `ready`. */
  public get info(): TextPanel {
    return this.slot.require('info').info;
  }

  /** Onion skin and trail of the selected entity (`configure` for ghost count, spacing, whole kind). After `ready`. */
  public get onion(): OnionSkin {
    return this.slot.require('onion').onion;
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
    return this.sampleBuffer;
  }

  /** How many samples were presented (changed frames shown). */
  public get sampleCount(): number {
    const view = this.slot.view;
    return view !== null ? view.view.samples : 0;
  }

  /** Enabled channels as a bit mask. */
  public get channelMask(): number {
    return this.slot.channelMask;
  }

  /** Whether bones are drawn (with the animation channel on). */
  public get showBones(): boolean {
    return this.slot.showBones;
  }

  /** Whether frames are blended (false: concrete frames). */
  public get interpolate(): boolean {
    return this.interpolateOn;
  }

  /** Whether the onion skin and trail of the selected entity are shown. */
  public get onionSkin(): boolean {
    return this.slot.onionSkin;
  }

  /** Handle of the selected entity, or -1 (always before the paused view has loaded). */
  public get selected(): number {
    const view = this.slot.view;
    return view !== null ? view.view.selected : -1;
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
    if (this.slot.setChannel(channel, on)) this.emit();
  }

  /** Sets every channel at once (bit c = channel c). */
  public setChannelMask(mask: number): void {
    if (this.slot.setChannelMask(mask)) this.emit();
  }

  /** Shows or hides bones (stick figures, with the animation channel on). */
  public setShowBones(on: boolean): void {
    if (this.slot.setShowBones(on)) this.emit();
  }

  /** Blends between frames (true) or shows concrete recorded frames (false). */
  public setInterpolate(on: boolean): void {
    if (on === this.interpolateOn) return;
    this.interpolateOn = on;
    this.livePlayback.sampler.concrete = !on;
    const replay = this.session.replay;
    if (replay !== null) replay.sampler.concrete = !on;
    this.slot.view?.view.invalidateSample();
    this.emit();
  }

  /** Shows or hides the onion skin (ghosts at the previous and next frames) and trail of the selected entity. */
  public setOnionSkin(on: boolean): void {
    if (this.slot.setOnionSkin(on)) this.emit();
  }

  /** The camera mode (`camera.mode`; before the paused view has loaded, the mode it will start in). */
  public get cameraMode(): CameraMode {
    return this.slot.cameraMode;
  }

  /** Sets the camera mode (`game` is the recorded camera); before the paused view has loaded, its first mode. */
  public setCameraMode(mode: CameraMode): void {
    if (this.slot.setCameraMode(mode)) this.emit();
  }

  /**
   * Selects (and follows) the entity of `handle`; -1 clears the selection. Does nothing before the
   * paused view has loaded (no entity is shown to select).
   */
  public select(handle: number): void {
    if (this.slot.view?.select(handle, this.playback)) this.emit();
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
    this.slot.setHelpIntro(line);
  }

  /**
   * Whether the selection readout (top left) names the entity, its kind, label and frames (true, the
   * default) or only the camera mode (false). An entity inspector sets false while its panel is
   * shown, since it shows those.
   */
  public setSelectionDetail(on: boolean): void {
    this.slot.setSelectionDetail(on);
  }

  /**
   * Shows or hides the key help; `onChange` listeners hear of it (a page's own HUD can step aside).
   * Before the paused view has loaded, it is shown when it loads.
   */
  public toggleHelp(show = !this.helpShown): void {
    this.slot.toggleHelp(show);
    this.emit();
  }

  /** Whether the key help is shown (or will be, once the paused view has loaded). */
  public get helpShown(): boolean {
    return this.slot.helpShown;
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
    this.slot.view?.view.invalidate();
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
    const view = this.slot.view;
    view?.layout();
    const session = this.session;
    const pb = session.playback;
    // Paused: nothing moves, so only the markers are refreshed (bookmarks may change).
    if (!session.halted || session.playing) pb.update(dt);
    else pb.markers.refresh();
    if (session.halted) session.checkRecordingWhilePaused(pb);
    // Before the paused view has loaded nothing is drawn (a pause waits for it, the game halted).
    if (view === null) return;
    if (session.halted) view.updateReplay(session.staticLayers, pb, dt, session.shownTime);
    else view.updateLive();
    view.place();
  }

  /** Stops everything: restores the game if paused, removes the overlay's objects and listeners. */
  public destroy(): void {
    if (this.destroyed) return;
    if (this.session.replay !== null) this.returnToLive();
    else if (this.session.halted) this.livePlayback.time.goLive();
    this.destroyed = true;
    this.app.ticker.remove(this.onTick, this);
    this.keyboard?.dispose();
    this.session.dispose();
    this.livePlayback.dispose();
    this.slot.view?.destroy();
    this.listeners = [];
  }

  /** The overlay was suspended (true) or let work again: resumes a pause, hides or shows the layers. */
  private onSuspendedChange(on: boolean): void {
    if (on && this.session.halted) this.resume();
    this.slot.view?.setVisible(!on);
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

  /**
   * Loads the paused view (a chunk of its own) and hands it the view settings and the pause under
   * way, if any. A failed load is reported (`options.onError`) and leaves the game running.
   */
  private async loadView(): Promise<void> {
    try {
      const { PausedView } = await loadPausedView();
      if (this.destroyed) throw new Error('rewindable: the overlay was destroyed before its paused view loaded');
      const view = new PausedView(
        this.ctx,
        this.sampleBuffer,
        { seek: (frame) => this.playback.time.seek(frame), select: (handle) => this.select(handle) },
        this.slot.settings,
        this.keyboard !== null ? this.keyboard.describe() : [],
      );
      if (this.suspension.suspended) view.setVisible(false);
      this.slot.loaded(view);
      this.session.attach(view);
      this.emit();
    } catch (err) {
      if (!this.destroyed) this.viewFailed(err);
      throw err;
    }
  }

  /** The paused view failed to load: reported once, a pause under way ends, the game keeps running. */
  private viewFailed(err: unknown): void {
    this.slot.failed();
    const message =
      `rewindable: the overlay's paused view failed to load (${err instanceof Error ? err.message : String(err)}); ` +
      'the game keeps running and records, without pause or replay';
    this.session.fail(message);
    try {
      this.options.onError(new Error(message, { cause: err }));
    } catch (thrown) {
      console.error('rewindable: onError threw', thrown);
    }
    this.emit();
  }

  private emit(): void {
    this.slot.view?.hud.refreshLabel(true);
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
