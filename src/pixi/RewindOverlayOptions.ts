import { UPDATE_PRIORITY, type Container } from 'pixi.js';
import { MarkerKind, type MarkerKindValue } from '../core/playback/MarkerIndex';
import type { Playback, PlaybackOptions } from '../core/playback/Playback';
import type { SampleBuffer } from '../core/playback/SampleBuffer';
import type { Recorder } from '../core/record/Recorder';
import type { StaticLayers } from '../core/store/StaticLayers';
import type { ReplayBookmark, ReplaySource } from '../replay/saveReplay';
import { DEFAULT_FLAG_TINTS } from './binding';
import type { CameraControllerOptions } from './CameraController';
import type { KeyBindings, OverlayCommand } from './KeyboardControls';
import type { Pausable } from './Pausables';
import type { OnionSkinOptions } from './OnionSkin';
import type { ParagraphStyle } from './ParagraphPool';
import type { TextPanelStyle } from './TextPanel';
import type { TimelineStyle } from './TimelineStyle';

/**
 * Settings of `RewindOverlay`; see `DEFAULT_REWIND_OVERLAY_OPTIONS`.
 *
 * @example
 * new RewindOverlay(app, world, binding, recorder, { showBones: false, liveKeys: { togglePlay: ['p'] } });
 */
export interface RewindOverlayOptions {
  /**
   * Records one frame while the game runs: called every tick between `recorder.beginFrame` and
   * `recorder.endFrame` (the overlay opens and closes the frame). Leave null when the game calls
   * the recorder itself.
   */
  record: ((recorder: Recorder, dt: number) => void) | null;
  /**
   * The game's own clock, read after the game's update each tick the `record` hook records: any
   * object with `time` (seconds) and `dt` (the step that led to it, seconds), e.g. the game object
   * itself. Null: the overlay sums the pixi ticker's `deltaMS`, which pixi caps at 100 ms a step
   * (`minFPS`), so below 10 fps the timeline would run slower than the game.
   *
   * @example
   * new RewindOverlay(app, world, binding, recorder, { record, clock: game }); // game.time, game.dt
   */
  clock: { readonly time: number; readonly dt: number } | null;
  /**
   * With a `record` hook: record the world container's transform as the game camera each frame
   * (`recordWorldCamera`), before the hook runs; a `recorder.camera(...)` call in the hook replaces it.
   */
  recordCamera: boolean;
  /**
   * The clocks the game runs besides the application's ticker, paused while the overlay is and
   * resumed after: tween timelines (`gsap.globalTimeline`), `Ticker.shared` (what
   * `AnimatedSprite`s play on), an `AudioContext`, media elements, any `{ pause(), resume() }`.
   * See `Pausable`.
   *
   * @example
   * new RewindOverlay(app, world, binding, recorder, { pausables: [gsap.globalTimeline, Ticker.shared] });
   */
  pausables: readonly Pausable[];
  /**
   * Containers beside the world container in the same coordinates (a HUD of health bars): while
   * paused they get the world container's transform (they follow the replay's camera), and their
   * own back on resume.
   */
  sharedCamera: readonly Container[];
  /**
   * Where the overlay's world-space layers (re-created entities, debug draw, bones, selection) sit:
   * directly above this container, in its parent. Null (default): directly above the topmost of
   * the world container and the `sharedCamera` containers sharing its parent. The placement follows
   * the world container when the game moves it (screens that add and remove it).
   */
  layersAbove: Container | null;
  /**
   * Checked every tick: while it returns true the overlay is suspended (no recording, no keys, no
   * drawing; a pause is resumed first), e.g. `() => game.screen !== 'play'` for title and result
   * screens. `overlay.setSuspended(on)` does the same by hand.
   */
  suspendWhen: (() => boolean) | null;
  /**
   * Checked every tick before the `record` hook: while it returns true the tick is not recorded (the
   * game's own pause menu, an idle screen), so those frames do not push gameplay out of the ring. No
   * frame is opened, the hook is not called, and the overlay's own clock (without `clock`) does not
   * advance; the overlay still draws and takes keys. Events the game records meanwhile wait for the
   * next recorded frame (see `Recorder.event`).
   *
   * @example
   * new RewindOverlay(app, world, binding, recorder, { record, skipWhen: () => game.menuOpen || game.idle });
   */
  skipWhen: (() => boolean) | null;
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
  /**
   * Called when the overlay's paused view (a chunk loaded right after the overlay is built) failed
   * to load: the game keeps running and recording, without pause or replay. Default: `console.error`.
   */
  onError: (error: Error) => void;
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
  /**
   * Markers the previous/next marker keys (↑/↓) stop at. Default: over budget, damage, bookmarks
   * and events (not spawns and despawns, which a crowd makes on most frames).
   */
  markerJumpKinds: readonly MarkerKindValue[];
  timeline: Partial<TimelineStyle>;
  /** Onion skin and trail of the selected entity (`enabled`, ghost count and spacing, whole kind, colours). */
  onionSkin: Partial<OnionSkinOptions>;
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
  clock: null,
  recordCamera: true,
  pausables: [],
  sharedCamera: [],
  layersAbove: null,
  suspendWhen: null,
  skipWhen: null,
  onPause: null,
  onResume: null,
  onPresent: null,
  onWarning: (message: string) => console.warn(message),
  onError: (error: Error) => console.error(error),
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
  markerJumpKinds: [MarkerKind.OVER_BUDGET, MarkerKind.DAMAGE, MarkerKind.BOOKMARK, MarkerKind.EVENT],
  timeline: {},
  onionSkin: {},
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

/**
 * What `RewindOverlay.showReplay` shows: the shape `saveReplay` reads (a `LoadedReplay`, a
 * `Recorder`, or any `{ reader, staticLayers? }`), with the bookmarks to show when it has some (a
 * `LoadedReplay` has the ones saved with it).
 *
 * @example
 * overlay.showReplay(loadReplay(bytes));  // its reader, static layers and bookmarks
 * overlay.showReplay({ reader: other.reader });
 */
export interface ShowReplaySource extends ReplaySource {
  readonly bookmarks?: ReadonlyArray<Readonly<ReplayBookmark>>;
}

/** What `RewindOverlay.showReplay` takes besides the source (all optional; each given one wins over the source's). */
export interface ShowReplayOptions {
  /** The replay's static layers (drawn with their channels); default: the source's. */
  staticLayers?: StaticLayers | null;
  /** Bookmarks to show; default: the source's. */
  bookmarks?: ReadonlyArray<Readonly<ReplayBookmark>>;
  /** Time control and sampler options of the replay's playback. */
  playback?: Partial<PlaybackOptions>;
  /**
   * What the timeline label calls this replay (default "replay"), e.g. "live" for a stream from a
   * running game; change it, and the status shown, with `RewindOverlay.setReplayLabel`.
   */
  name?: string;
}

/** What the overlay shows: the live recording, or a replay loaded with `showReplay`. */
export type OverlaySource = 'live' | 'replay';
