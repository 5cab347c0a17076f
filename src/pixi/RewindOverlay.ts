import { Container, Graphics, UPDATE_PRIORITY, type Application, type StrokeStyle, type Ticker } from 'pixi.js';
import { Playback, type PlaybackOptions } from '../core/playback/Playback';
import { SampleBuffer } from '../core/playback/SampleBuffer';
import type { PlaybackState } from '../core/playback/TimeControl';
import { EntityBuffer, PrimitiveBuffer } from '../core/read/buffers';
import type { FrameReader } from '../core/read/FrameReader';
import { Channel } from '../core/record/ChannelRegistry';
import type { Recorder } from '../core/record/Recorder';
import type { StaticLayers } from '../core/record/StaticLayers';
import { DEFAULT_FLAG_TINTS, type EntityBinding } from './binding';
import { addStickFigure } from './bones';
import { CAM_ANGLE, CAM_ZOOM, copyTransform, viewToWorld } from './camera';
import { CameraController, type CameraControllerOptions, type CameraMode } from './CameraController';
import { DebugLayers } from './DebugLayers';
import { EntityPresenter } from './EntityPresenter';
import { DEFAULT_KEY_BINDINGS, KeyboardControls, type KeyBindings, type OverlayCommand } from './KeyboardControls';
import { DEFAULT_PARAGRAPH_STYLE, type ParagraphStyle } from './ParagraphPool';
import { TextPanel, type TextPanelStyle } from './TextPanel';
import { Timeline, type TimelineStyle } from './Timeline';

/** Settings of `RewindOverlay`; see `DEFAULT_REWIND_OVERLAY_OPTIONS`. */
export interface RewindOverlayOptions {
  /**
   * Records one frame while the game runs: called every tick between `recorder.beginFrame` and
   * `recorder.endFrame` (the overlay opens and closes the frame). Leave null when the game calls
   * the recorder itself.
   */
  record: ((recorder: Recorder, dt: number) => void) | null;
  /** Called when the game must stop simulating (replay starts). Pixi keeps rendering. */
  onPause: (() => void) | null;
  /** Called when the game may simulate again (every live object was restored). */
  onResume: (() => void) | null;
  /**
   * Called after each sample shown while paused (a changed frame), e.g. to draw effects that are
   * replayed from markers (particles). `sample.position` is the viewed frame.
   */
  onPresent: ((sample: SampleBuffer, playback: Playback) => void) | null;
  /** Called once per kind of problem (a throwing binding hook, recording while paused...). */
  onWarning: (message: string) => void;
  /** Channel bits shown at start (bit c = channel c). */
  channels: number;
  /** Whether bones are drawn as stick figures (with the animation channel on). */
  showBones: boolean;
  /** Whether the enabled channels of the newest frame are drawn while the game runs. */
  liveDebugDraw: boolean;
  /** Blend between frames (false: show recorded frames as they are). */
  interpolate: boolean;
  /** Options of the live recording's `Playback` (time control and sampler). */
  playback: Partial<PlaybackOptions>;
  /** Flag → tint, first match wins (see `DEFAULT_FLAG_TINTS`). */
  flagTints: ReadonlyArray<readonly [flag: number, tint: number]>;
  /** Radius (world units) of the circle drawn for an entity that cannot be re-created. */
  ghostRadius: number;
  ghostColor: number;
  /** Colour of the selected entity's ring. */
  selectionColor: number;
  /** A click selects the nearest entity within this many pixels. */
  pickRadius: number;
  /** Manual camera limits and input. */
  camera: Partial<CameraControllerOptions>;
  /** Radians per Q/E press. */
  rotateStep: number;
  /** Speeds `[` and `]` move through (signed; negative plays backwards). */
  speedSteps: readonly number[];
  timeline: Partial<TimelineStyle>;
  paragraph: Partial<ParagraphStyle>;
  /** Most paragraph text blocks shown at once. */
  maxParagraphs: number;
  /** Style of the badge, the help and the selection readout. */
  panel: Partial<TextPanelStyle>;
  /** Whether the keyboard is handled. */
  keyboard: boolean;
  /** Where key presses are listened to (default `window`). */
  keyboardTarget: EventTarget | null;
  /** Keys per command. */
  keys: Partial<KeyBindings>;
  /**
   * Keys used instead of `keys` while the game runs, for games that use the overlay's keys
   * themselves: e.g. `{ togglePlay: ['p'] }` keeps Space for the game and pauses with P (Space still
   * plays/pauses the replay).
   */
  liveKeys: Partial<KeyBindings>;
  /** Commands whose keys work while the game runs (the others only while paused). */
  keysWhileLive: readonly OverlayCommand[];
  /** Hide the world container while a loaded replay (`showReplay`) is shown. */
  hideWorldInReplay: boolean;
  /** Priority of the overlay's ticker callback: after the game's update (NORMAL), before rendering (LOW). */
  tickerPriority: number;
  /** Longest real time step fed to playback, seconds (a stalled tab does not jump). */
  maxTickSeconds: number;
}

/** The defaults merged under the options given to `new RewindOverlay(...)`. */
export const DEFAULT_REWIND_OVERLAY_OPTIONS: Readonly<RewindOverlayOptions> = Object.freeze<RewindOverlayOptions>({
  record: null,
  onPause: null,
  onResume: null,
  onPresent: null,
  onWarning: (message: string) => console.warn(message),
  channels: 0xffffffff,
  showBones: true,
  liveDebugDraw: true,
  interpolate: true,
  playback: {},
  flagTints: DEFAULT_FLAG_TINTS,
  ghostRadius: 10,
  ghostColor: 0x9fb4c8,
  selectionColor: 0x00e5ff,
  pickRadius: 24,
  camera: {},
  rotateStep: Math.PI / 24,
  speedSteps: [-8, -4, -2, -1, -0.5, -0.25, -0.1, 0.1, 0.25, 0.5, 1, 2, 4, 8],
  timeline: {},
  paragraph: {},
  maxParagraphs: 256,
  panel: {},
  keyboard: true,
  keyboardTarget: null,
  keys: {},
  liveKeys: {},
  keysWhileLive: ['togglePlay', 'bookmark', 'help'],
  hideWorldInReplay: true,
  tickerPriority: UPDATE_PRIORITY.LOW + 1,
  maxTickSeconds: 0.25,
});

/** What `RewindOverlay.showReplay` takes besides the reader (all optional). */
export interface ShowReplayOptions {
  /** The replay's static layers (drawn with their channels). */
  staticLayers?: StaticLayers | null;
  /** Bookmarks saved with the replay. */
  bookmarks?: ReadonlyArray<{ readonly frame: number; readonly label: string }>;
  /** Time control and sampler options of the replay's playback. */
  playback?: Partial<PlaybackOptions>;
}

/** What the overlay shows: the live recording, or a replay loaded with `showReplay`. */
export type OverlaySource = 'live' | 'replay';

const selectionStroke: StrokeStyle = { color: 0xffffff, width: 2, alpha: 1 };
const liveBoneStroke: StrokeStyle = { color: 0xffffff, width: 1, pixelLine: true, alpha: 1 };
const pickScratch = new Float64Array(2);

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
 * - `showReplay(reader)` shows a replay that is not the live recording (a loaded file);
 *   `returnToLive()` drops it and resumes the game.
 *
 * The per-tick update allocates nothing in steady state; see docs/getting-started.md.
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
  public readonly worldOverlay = new Container();
  /** Screen-space interface (timeline, badge, help), kept on top of the stage. */
  public readonly ui = new Container();
  public readonly timeline: Timeline;
  public readonly layers: DebugLayers;
  public readonly presenter: EntityPresenter;
  /** Over-budget badge. */
  public readonly badge: TextPanel;
  /** Help overlay (H). */
  public readonly help: TextPanel;
  /** Selected entity readout. */
  public readonly info: TextPanel;

  /** The keyboard handler (null when `keyboard` is off). */
  public readonly keyboard: KeyboardControls | null;
  private readonly helpText: string;
  private readonly recreatedLayer = new Container();
  private readonly ghosts = new Graphics();
  private readonly bones = new Graphics();
  private readonly selection = new Graphics();
  private readonly sampleBuf = new SampleBuffer();
  private readonly prims = new PrimitiveBuffer();
  private readonly liveEntities = new EntityBuffer();
  private readonly listeners: Array<(overlay: RewindOverlay) => void> = [];
  private readonly warned = new Set<string>();
  private readonly warnFn: (key: string, message: string) => void;
  private readonly unsubscribeLive: () => void;
  private replayPlayback: Playback | null = null;
  private replayStatic: StaticLayers | null = null;
  private unsubscribeReplay: (() => void) | null = null;
  private unsubscribeBookmarks: (() => void) | null = null;
  private halted = false;
  private destroyed = false;
  private mask: number;
  private bonesOn: boolean;
  private interpolateOn: boolean;
  private boneColor = 0xd86bff;
  private worldVisibleAtReplay = true;
  private newestAtPause = -1;
  private gameTime = 0;
  // What the screen shows, to redraw only on change.
  private shownPosition = Number.NaN;
  private shownPrimFrame = -1;
  private shownBudgetBits = -1;
  private shownSelection = -2;
  private sampleDirty = true;
  private timeChanged = true;
  private primsDirty = true;
  private cameraDirty = true;
  private viewWidth = -1;
  private viewHeight = -1;
  private viewZoom = Number.NaN;
  private viewAngle = Number.NaN;
  private labelClock = 0;
  private readonly labelKey = new Float64Array(7);
  private lastState: PlaybackState = 'live';
  private lastSpeed = 1;
  private selectedHandle = -1;
  private selectionDrawn = true;
  private liveBonesDrawn = true;
  private samples = 0;

  public constructor(
    public readonly app: Application,
    public readonly world: Container,
    public readonly binding: EntityBinding,
    public readonly recorder: Recorder,
    options: Partial<RewindOverlayOptions> = {},
  ) {
    const o: RewindOverlayOptions = { ...DEFAULT_REWIND_OVERLAY_OPTIONS, ...options };
    this.options = Object.freeze(o);
    this.warnFn = (key, message) => {
      if (this.warned.has(key)) return;
      this.warned.add(key);
      try {
        this.options.onWarning(message);
      } catch {
        // A throwing warning handler must not take the game down.
      }
    };
    this.mask = o.channels >>> 0;
    this.bonesOn = o.showBones;
    this.interpolateOn = o.interpolate;

    this.livePlayback = new Playback(recorder.reader, o.playback);
    this.livePlayback.sampler.concrete = !o.interpolate;
    this.unsubscribeLive = this.livePlayback.time.onChange(() => this.onLiveTimeChange());

    const flat = new Int32Array(o.flagTints.length * 2);
    o.flagTints.forEach(([flag, tint], i) => {
      flat[i * 2] = flag;
      flat[i * 2 + 1] = tint;
    });
    this.layers = new DebugLayers({ ...DEFAULT_PARAGRAPH_STYLE, ...o.paragraph }, o.maxParagraphs);
    this.presenter = new EntityPresenter(binding, this.recreatedLayer, this.ghosts, this.bones, {
      flagTints: flat,
      ghostRadius: o.ghostRadius,
      ghostColor: o.ghostColor,
      warn: this.warnFn,
    });

    this.worldOverlay.label = 'rewindable:world-overlay';
    this.worldOverlay.eventMode = 'none';
    this.recreatedLayer.label = 'rewindable:recreated';
    this.ghosts.label = 'rewindable:ghosts';
    this.bones.label = 'rewindable:bones';
    this.selection.label = 'rewindable:selection';
    this.worldOverlay.addChild(this.recreatedLayer, this.ghosts, this.bones, this.layers.root, this.selection);
    const parent = world.parent ?? app.stage;
    if (world.parent === null) parent.addChild(this.worldOverlay);
    else parent.addChildAt(this.worldOverlay, parent.getChildIndex(world) + 1);

    this.camera = new CameraController(o.camera);
    this.camera.onChange = () => {
      this.cameraDirty = true;
      this.emit();
    };
    this.camera.onClick = (x, y) => this.selectAt(x, y);
    this.timeline = new Timeline(o.timeline, (frame) => this.playback.time.seek(frame));
    const panelStyle = o.panel;
    this.badge = new TextPanel(panelStyle);
    this.badge.setBackground(0x8b0000, 0.85);
    this.help = new TextPanel(panelStyle);
    this.info = new TextPanel(panelStyle);
    this.ui.label = 'rewindable:ui';
    this.timeline.root.visible = false;
    this.ui.addChild(this.camera.input, this.timeline.root, this.badge.root, this.info.root, this.help.root);
    app.stage.addChild(this.ui);

    const bindings: KeyBindings = { ...DEFAULT_KEY_BINDINGS, ...o.keys };
    const target = o.keyboardTarget ?? (typeof window !== 'undefined' ? window : null);
    this.keyboard = o.keyboard && target !== null
      ? new KeyboardControls(target, bindings, o.liveKeys, o.keysWhileLive, () => !this.halted, (c) => this.runCommand(c))
      : null;
    const helpLines = this.keyboard !== null ? this.keyboard.describe() : [];
    this.helpText = ['rewindable — keys', '', ...helpLines, '', 'drag: pan   wheel: zoom   right-drag: rotate   click: select & follow'].join('\n');

    app.ticker.add(this.onTick, this, o.tickerPriority);
    this.layout();
  }

  // ───────────────────────────── state ─────────────────────────────

  /** True while the game must not simulate (a replay is shown). */
  public get isPaused(): boolean {
    return this.halted;
  }

  /** What is shown: the live recording or a loaded replay. */
  public get source(): OverlaySource {
    return this.replayPlayback !== null ? 'replay' : 'live';
  }

  /** The playback commands go to: the loaded replay's when one is shown, else the live recording's. */
  public get playback(): Playback {
    return this.replayPlayback ?? this.livePlayback;
  }

  /** The reader being shown. */
  public get reader(): FrameReader {
    return this.playback.reader;
  }

  /** `live`, `paused` or `playing` (of the playback shown). */
  public get state(): PlaybackState {
    return this.halted ? (this.playback.time.state === 'playing' ? 'playing' : 'paused') : 'live';
  }

  /** The sample shown while paused (read-only; for tools and tests). */
  public get sample(): SampleBuffer {
    return this.sampleBuf;
  }

  /** How many samples were presented (changed frames shown). */
  public get sampleCount(): number {
    return this.samples;
  }

  /** Enabled channels as a bit mask. */
  public get channelMask(): number {
    return this.mask;
  }

  /** Whether bones are drawn (with the animation channel on). */
  public get showBones(): boolean {
    return this.bonesOn;
  }

  /** Whether frames are blended (false: concrete frames). */
  public get interpolate(): boolean {
    return this.interpolateOn;
  }

  /** Handle of the selected entity, or -1. */
  public get selected(): number {
    return this.selectedHandle;
  }

  /** Calls `listener` when the state, speed, source, channels, bones, interpolation, camera mode, selection or bookmarks change. */
  public onChange(listener: (overlay: RewindOverlay) => void): () => void {
    this.listeners.push(listener);
    return () => {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  // ───────────────────────────── commands ─────────────────────────────

  /** Stops the game and shows the newest frame (no-op when paused). */
  public pause(): void {
    if (!this.halted) this.livePlayback.time.pause();
  }

  /** Resumes the game: restores everything and goes live (drops a loaded replay). */
  public resume(): void {
    if (this.replayPlayback !== null) this.returnToLive();
    else this.livePlayback.time.goLive();
  }

  /** Pause when live, else play/pause. */
  public togglePlay(): void {
    this.playback.time.togglePlay();
  }

  /** Enables or disables one channel. */
  public setChannel(channel: number, on: boolean): void {
    const bit = (1 << channel) >>> 0;
    this.setChannelMask(on ? this.mask | bit : this.mask & ~bit);
  }

  /** Sets every channel at once (bit c = channel c). */
  public setChannelMask(mask: number): void {
    const m = mask >>> 0;
    if (m === this.mask) return;
    this.mask = m;
    this.primsDirty = true;
    this.sampleDirty = true;
    this.emit();
  }

  /** Shows or hides bones (stick figures, with the animation channel on). */
  public setShowBones(on: boolean): void {
    if (on === this.bonesOn) return;
    this.bonesOn = on;
    this.sampleDirty = true;
    this.primsDirty = true;
    this.emit();
  }

  /** Blends between frames (true) or shows concrete recorded frames (false). */
  public setInterpolate(on: boolean): void {
    if (on === this.interpolateOn) return;
    this.interpolateOn = on;
    this.livePlayback.sampler.concrete = !on;
    if (this.replayPlayback !== null) this.replayPlayback.sampler.concrete = !on;
    this.sampleDirty = true;
    this.emit();
  }

  /** Sets the camera mode (`game` is the recorded camera). */
  public setCameraMode(mode: CameraMode): void {
    this.camera.setMode(mode);
  }

  /** Selects (and follows) the entity of `handle`; -1 clears the selection. */
  public select(handle: number): void {
    if (handle === this.selectedHandle) return;
    this.selectedHandle = handle;
    this.camera.follow(handle);
    this.updateInfo();
    this.emit();
  }

  /** Adds a bookmark at the viewed frame (the newest while live). Returns its id. */
  public addBookmark(label?: string): number {
    const pb = this.playback;
    const frame = Math.round(pb.time.position);
    return pb.bookmarks.add(frame, label ?? `frame ${frame}`);
  }

  /** Seeks to a bookmark (pausing the game when live). False when the id is unknown. */
  public jumpToBookmark(id: number): boolean {
    const b = this.playback.bookmarks.get(id);
    if (b === undefined) return false;
    this.playback.time.seek(b.frame);
    return true;
  }

  /** Runs one keyboard/panel command. */
  public runCommand(command: OverlayCommand): void {
    const t = this.playback.time;
    switch (command) {
      case 'togglePlay': t.togglePlay(); break;
      case 'stepBack': t.step(-1); break;
      case 'stepForward': t.step(1); break;
      case 'stepBack10': t.step(-10); break;
      case 'stepForward10': t.step(10); break;
      case 'slower': t.setSpeed(this.nextSpeed(-1)); break;
      case 'faster': t.setSpeed(this.nextSpeed(1)); break;
      case 'oldest': t.toOldest(); break;
      case 'newest': t.toNewest(); break;
      case 'cameraMode': this.camera.cycleMode(); break;
      case 'gameCamera': this.camera.toGameCamera(); break;
      case 'rotateLeft': this.camera.rotateBy(-this.options.rotateStep); break;
      case 'rotateRight': this.camera.rotateBy(this.options.rotateStep); break;
      case 'bookmark': this.addBookmark(); break;
      case 'resume': this.resume(); break;
      case 'help': this.toggleHelp(); break;
      default: break;
    }
  }

  /** Shows or hides the key help. */
  public toggleHelp(show = !this.help.root.visible): void {
    this.help.setText(show ? this.helpText : '');
    this.layout(true);
  }

  /**
   * Shows a replay that is not the live recording (e.g. a loaded file): the game is paused (if it
   * was not), its live objects are restored, the world container is hidden (`hideWorldInReplay`)
   * and every entity is re-created through `binding.create` or drawn as a debug shape. The live
   * recording is not touched. Returns the replay's `Playback`.
   */
  public showReplay(reader: FrameReader, options: ShowReplayOptions = {}): Playback {
    if (this.destroyed) throw new Error('rewindable: the overlay was destroyed');
    this.presenter.end();
    this.dropReplay();
    const pb = new Playback(reader, options.playback ?? this.options.playback);
    pb.sampler.concrete = !this.interpolateOn;
    for (const b of options.bookmarks ?? []) pb.bookmarks.add(b.frame, b.label);
    this.replayPlayback = pb;
    this.replayStatic = options.staticLayers ?? null;
    this.unsubscribeReplay = pb.time.onChange(() => this.onReplayTimeChange());
    if (!this.halted) this.halt();
    this.worldVisibleAtReplay = this.world.visible;
    if (this.options.hideWorldInReplay) this.world.visible = false;
    this.selectedHandle = -1;
    this.camera.follow(-1);
    this.watchBookmarks();
    this.presenter.begin(pb, false);
    pb.time.pause();
    this.invalidate();
    this.emit();
    return pb;
  }

  /** Drops the replay shown by `showReplay` and resumes the game (same as `resume()`). */
  public returnToLive(): void {
    if (this.replayPlayback === null) {
      this.livePlayback.time.goLive();
      return;
    }
    this.presenter.end();
    this.dropReplay();
    this.world.visible = this.worldVisibleAtReplay;
    if (this.livePlayback.time.state !== 'live') this.livePlayback.time.goLive();
    else this.unhalt();
    this.watchBookmarks();
    this.emit();
  }

  /** Forces a full redraw on the next update. */
  public invalidate(): void {
    this.sampleDirty = true;
    this.primsDirty = true;
    this.cameraDirty = true;
    this.shownPosition = Number.NaN;
    this.shownPrimFrame = -1;
    this.shownBudgetBits = -1;
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
    this.layout();
    const pb = this.playback;
    // Paused: nothing moves, so only the markers are refreshed (bookmarks may change).
    if (!this.halted || this.lastState === 'playing') pb.update(dt);
    else pb.markers.refresh();
    if (this.halted) this.updateReplay(pb, dt);
    else this.updateLive();
    const stage = this.app.stage;
    if (stage.children[stage.children.length - 1] !== this.ui) stage.addChild(this.ui);
  }

  /** Stops everything: restores the game if paused, removes the overlay's objects and listeners. */
  public destroy(): void {
    if (this.destroyed) return;
    if (this.replayPlayback !== null) this.returnToLive();
    else if (this.halted) this.livePlayback.time.goLive();
    this.destroyed = true;
    this.app.ticker.remove(this.onTick, this);
    this.keyboard?.dispose();
    this.unsubscribeLive();
    this.unsubscribeBookmarks?.();
    this.livePlayback.dispose();
    this.presenter.disposePools();
    this.worldOverlay.parent?.removeChild(this.worldOverlay);
    this.ui.parent?.removeChild(this.ui);
    this.worldOverlay.destroy({ children: true });
    this.ui.destroy({ children: true });
    this.listeners.length = 0;
  }

  private onTick(ticker: Ticker): void {
    const dt = ticker.deltaMS / 1000;
    const hook = this.options.record;
    if (hook !== null && !this.halted) {
      this.gameTime += dt;
      const rec = this.recorder;
      rec.beginFrame(this.gameTime, dt);
      try {
        hook(rec, dt);
      } catch (err) {
        this.warnFn('record', `rewindable: the record hook threw: ${String(err)}`);
      } finally {
        if (rec.inFrame) rec.endFrame();
      }
    }
    this.update(dt);
  }

  private updateLive(): void {
    copyTransform(this.world, this.worldOverlay);
    this.setView(Math.abs(this.world.scale.x), -this.world.rotation);
    const reader = this.recorder.reader;
    this.layers.syncStatic(this.recorder.staticLayers, this.mask);
    if (!this.options.liveDebugDraw || reader.frameCount === 0) {
      if (this.shownPrimFrame !== -1) {
        this.layers.clearFrame();
        this.bones.clear();
        this.shownPrimFrame = -1;
        this.setBudgetBits(0);
      }
      return;
    }
    const newest = reader.newestFrame;
    if (newest === this.shownPrimFrame && !this.primsDirty) return;
    this.shownPrimFrame = newest;
    this.primsDirty = false;
    reader.readPrimitives(newest, this.mask, this.prims);
    this.layers.drawFrame(this.prims, this.mask);
    this.setBudgetBits(reader.overBudgetOf(newest));
    if (this.liveBonesDrawn) this.bones.clear();
    this.liveBonesDrawn = false;
    if (this.bonesVisible() && reader.readEntities(newest, this.liveEntities, true) && this.liveEntities.boneTotal > 0) {
      const ents = this.liveEntities;
      const table = reader.entities;
      let any = false;
      for (let i = 0; i < ents.count; i++) {
        if (ents.boneStart[i] < 0) continue;
        const k = table.kindOf[ents.handles[i]];
        any = addStickFigure(this.bones, ents, i, k >= 0 ? table.skeletons[k] : undefined) || any;
      }
      if (any) {
        liveBoneStroke.color = this.boneColor;
        this.bones.stroke(liveBoneStroke);
        this.liveBonesDrawn = true;
      }
    }
  }

  private updateReplay(pb: Playback, dt: number): void {
    const reader = pb.reader;
    if (pb === this.livePlayback && reader.frameCount > 0 && reader.newestFrame !== this.newestAtPause) {
      this.warnFn('recording-while-paused', 'rewindable: frames were recorded while the overlay was paused; the game must not record while overlay.isPaused is true');
      this.newestAtPause = reader.newestFrame;
    }
    // The position is read only after a change event: a paused overlay does no work at all.
    let sampled = false;
    if (this.timeChanged || this.sampleDirty) {
      this.timeChanged = false;
      const pos = pb.time.position;
      if (pos !== this.shownPosition || this.sampleDirty) {
        this.sampleDirty = false;
        this.shownPosition = pos;
        this.timeline.setPlayhead(pos);
        sampled = this.showSample(pb, pos);
      }
    }
    this.layers.syncStatic(this.replayPlayback !== null ? this.replayStatic : this.recorder.staticLayers, this.mask);
    if (sampled || this.cameraDirty) {
      this.cameraDirty = false;
      this.camera.resolve(reader.frameCount > 0 ? this.sampleBuf : null);
      if (this.camera.apply(this.world)) {
        copyTransform(this.world, this.worldOverlay);
        this.setView(this.camera.current[CAM_ZOOM], this.camera.current[CAM_ANGLE]);
        this.shownSelection = -2;
      }
    }
    if (sampled || this.shownSelection !== this.selectedHandle) this.drawSelection();
    this.timeline.update(pb);
    this.labelClock -= dt;
    if (this.labelClock <= 0 && this.labelInputsChanged(pb)) {
      this.labelClock = 0.1;
      this.timeline.setLabel(this.timelineLabel(pb));
    }
  }

  /** Samples the playback at the shown position and presents it: entities, primitives, badge. */
  private showSample(pb: Playback, position: number): boolean {
    const s = this.sampleBuf;
    if (!pb.sampler.sample(position, s)) return false;
    this.samples++;
    this.presenter.present(s, this.bonesVisible(), this.boneColor);
    const onPresent = this.options.onPresent;
    if (onPresent !== null) {
      try {
        onPresent(s, pb);
      } catch (err) {
        this.warnFn('onPresent', `rewindable: onPresent threw: ${String(err)}`);
      }
    }
    const nearer = s.t < 0.5 ? s.frameA : s.frameB;
    if (nearer !== this.shownPrimFrame || this.primsDirty) {
      this.shownPrimFrame = nearer;
      this.primsDirty = false;
      pb.reader.readPrimitives(nearer, this.mask, this.prims);
      this.layers.drawFrame(this.prims, this.mask);
    }
    this.setBudgetBits(s.overBudget);
    return true;
  }

  // ───────────────────────────── transitions ─────────────────────────────

  private onLiveTimeChange(): void {
    if (this.destroyed) return;
    if (this.replayPlayback === null) this.timeChanged = true;
    const t = this.livePlayback.time;
    if (this.replayPlayback === null) {
      if (t.state !== 'live' && !this.halted) {
        this.halt();
        this.presenter.begin(this.livePlayback, true);
        this.invalidate();
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
    this.timeChanged = true;
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
    const anim = this.reader.channels.list()[Channel.ANIMATION];
    this.boneColor = anim !== undefined ? anim.color : 0xd86bff;
    this.layout();
    this.camera.begin(this.world);
    this.timeline.root.visible = true;
    this.labelClock = 0;
    this.invalidate();
    this.watchBookmarks();
    this.emit();
    this.callSafely(this.options.onPause, 'onPause');
  }

  /** The game resumes: restore everything exactly. */
  private unhalt(): void {
    this.presenter.end();
    this.camera.end(this.world);
    this.halted = false;
    this.timeline.root.visible = false;
    this.selection.clear();
    this.selectionDrawn = false;
    this.liveBonesDrawn = true;
    this.selectedHandle = -1;
    this.camera.followHandle = -1;
    this.camera.mode = 'game';
    this.info.setText('');
    this.invalidate();
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

  // ───────────────────────────── helpers ─────────────────────────────

  private bonesVisible(): boolean {
    return this.bonesOn && (this.mask & (1 << Channel.ANIMATION)) !== 0;
  }

  private nextSpeed(direction: 1 | -1): number {
    const steps = this.options.speedSteps;
    const s = this.playback.time.speed;
    if (direction > 0) {
      for (let i = 0; i < steps.length; i++) if (steps[i] > s + 1e-9) return steps[i];
      return steps[steps.length - 1] ?? s;
    }
    for (let i = steps.length - 1; i >= 0; i--) if (steps[i] < s - 1e-9) return steps[i];
    return steps[0] ?? s;
  }

  private setView(zoom: number, angle: number): void {
    if (zoom === this.viewZoom && angle === this.viewAngle) return;
    this.viewZoom = zoom;
    this.viewAngle = angle;
    this.layers.setView(zoom, angle);
    this.shownSelection = -2;
  }

  private setBudgetBits(bits: number): void {
    if (bits === this.shownBudgetBits) return;
    this.shownBudgetBits = bits;
    if (bits === 0) {
      this.badge.setText('');
      return;
    }
    const names: string[] = [];
    const channels = this.reader.channels;
    for (let c = 0; c < 32; c++) if ((bits & (1 << c)) !== 0) names.push(channels.name(c) ?? `channel ${c}`);
    this.badge.setText(`OVER BUDGET: ${names.join(', ')}`);
    this.layout(true);
  }

  private selectAt(x: number, y: number): void {
    const s = this.sampleBuf;
    viewToWorld(this.camera.current, this.viewWidth, this.viewHeight, x, y, pickScratch);
    const zoom = this.camera.current[CAM_ZOOM];
    let best = -1;
    let bestD = (this.options.pickRadius / zoom) ** 2;
    for (let i = 0; i < s.count; i++) {
      if (!s.inNearerFrame(i)) continue;
      const dx = s.positions[i * 3] - pickScratch[0];
      const dy = s.positions[i * 3 + 1] - pickScratch[1];
      const d = dx * dx + dy * dy;
      if (d <= bestD) {
        bestD = d;
        best = s.handles[i];
      }
    }
    this.select(best);
  }

  private drawSelection(): void {
    this.shownSelection = this.selectedHandle;
    const g = this.selection;
    if (this.selectionDrawn) g.clear();
    this.selectionDrawn = false;
    if (this.selectedHandle < 0) return;
    const i = this.sampleBuf.indexOfHandle(this.selectedHandle);
    if (i < 0 || !this.sampleBuf.inNearerFrame(i)) return;
    const zoom = this.viewZoom > 0 ? this.viewZoom : 1;
    const p = this.sampleBuf.positions;
    g.circle(p[i * 3], p[i * 3 + 1], this.options.pickRadius / zoom);
    selectionStroke.color = this.options.selectionColor;
    selectionStroke.width = 2 / zoom;
    g.stroke(selectionStroke);
    this.selectionDrawn = true;
  }

  private updateInfo(): void {
    const h = this.selectedHandle;
    if (h < 0) {
      this.info.setText('');
      return;
    }
    const lt = this.playback.lifetimes;
    const kind = lt.kind(h);
    const label = lt.label(h);
    this.info.setText(
      `id ${lt.id(h)}${kind !== undefined ? `  ${kind}` : ''}${label !== undefined ? `  "${label}"` : ''}\n` +
      `frames ${lt.firstFrame(h)}..${lt.lastFrame(h)}   camera: ${this.camera.mode}`,
    );
    this.layout(true);
  }

  /** Whether anything the timeline label shows changed since it was last built (no string built otherwise). */
  private labelInputsChanged(pb: Playback): boolean {
    // State and speed come from the change events (`lastState`, `lastSpeed`): no getter calls here.
    const r = pb.reader;
    const k = this.labelKey;
    const f = Math.round(this.shownPosition);
    const oldest = r.frameCount > 0 ? r.oldestFrame : -1;
    const newest = r.frameCount > 0 ? r.newestFrame : -1;
    const state = this.lastState === 'playing' ? 1 : this.lastState === 'paused' ? 2 : 3;
    const mode = this.camera.mode === 'game' ? 1 : this.camera.mode === 'free' ? 2 : 3;
    const src = this.replayPlayback !== null ? 1 : 0;
    if (k[0] === f && k[1] === oldest && k[2] === newest && k[3] === state && k[4] === this.lastSpeed && k[5] === mode && k[6] === src) {
      return false;
    }
    k[0] = f;
    k[1] = oldest;
    k[2] = newest;
    k[3] = state;
    k[4] = this.lastSpeed;
    k[5] = mode;
    k[6] = src;
    return true;
  }

  private timelineLabel(pb: Playback): string {
    const r = pb.reader;
    if (r.frameCount === 0) return 'nothing recorded';
    const f = Math.round(pb.time.position);
    const t = r.timeOf(f);
    const span = r.timeOf(r.newestFrame) - r.timeOf(r.oldestFrame);
    const src = this.replayPlayback !== null ? 'replay' : 'live rec';
    return `${src}  frame ${f}  [${r.oldestFrame}..${r.newestFrame}]  t=${(Number.isFinite(t) ? t : 0).toFixed(2)}s` +
      `  held ${span.toFixed(1)}s  ${pb.time.state}  ×${pb.time.speed}  cam:${this.camera.mode}  H: help`;
  }

  private layout(force = false): void {
    const w = this.app.screen.width;
    const h = this.app.screen.height;
    if (!force && w === this.viewWidth && h === this.viewHeight) return;
    if (w !== this.viewWidth || h !== this.viewHeight) {
      this.viewWidth = w;
      this.viewHeight = h;
      this.camera.resize(w, h);
      this.timeline.layout(w, h);
      this.cameraDirty = true;
    }
    this.badge.root.position.set(12, 12);
    this.info.root.position.set(12, this.badge.root.visible ? 16 + this.badge.height : 12);
    // Near the top rather than centred: games keep their HUD along the bottom.
    this.help.root.position.set(Math.max(12, (w - this.help.width) / 2), Math.max(12, Math.min((h - this.help.height) / 2, 40)));
  }

  private emit(): void {
    this.labelClock = 0;
    this.labelKey[0] = Number.NaN;
    for (let i = 0; i < this.listeners.length; i++) {
      try {
        this.listeners[i](this);
      } catch (err) {
        console.error('rewindable: overlay change listener threw', err);
      }
    }
  }

  private callSafely(fn: (() => void) | null, name: string): void {
    if (fn === null) return;
    try {
      fn();
    } catch (err) {
      this.warnFn(name, `rewindable: ${name} threw: ${String(err)}`);
    }
  }
}
