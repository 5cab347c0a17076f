/**
 * The demo-hook contract: what the end-to-end tests may rely on in the demo's `window.__demo`
 * (demo/src/hook/demoHook.ts) and the viewer's `window.__viewer` (demo/src/hook/viewerHook.ts).
 *
 * - A page sets its global once it is fully wired (game, overlay, panel, replay files); the tests
 *   wait for it (`openPage` in browser.ts) and then call into it between ticks.
 * - Only the members listed here are the contract; the hooks may offer more (for people in the
 *   console). Renaming or changing a member listed here is a change of the contract: change this
 *   file and the tests with it. The type checks at the end of this file fail typecheck when a hook
 *   no longer meets its interface.
 * - Frames are the recording's frame numbers (`overlay.reader`: the live recorder, or the replay
 *   shown); ids are the game's numeric entity ids. `recordedAt` and `transform` answer for the life
 *   of the id present in that frame (ids are reused).
 * - Everything is synchronous: calls that show something (`transform`, `canvasChecksum`) first
 *   present the current playback position (`overlay.update(0)`), so a seek is visible at once.
 * - A bad replay file makes `loadReplayBytes` throw the `ReplayError` (after the page's banner says
 *   what is wrong); nothing else throws.
 *
 * In page functions: `const d = (window as unknown as E2EWindow).__demo;` — a type-only cast, erased
 * before the function is sent to the page.
 */
import type { DemoHook } from '../../demo/src/hook/demoHook';
import type { ViewerHook } from '../../demo/src/hook/viewerHook';
import type { RewindOverlay } from 'rewindable/pixi';
import type { EntityInspector } from 'rewindable/ui';

/** What is on screen for an entity (its display object). */
export interface DisplayedTransform {
  x: number;
  y: number;
  rotation: number;
  visible: boolean;
  tint: number;
  /** The root's scale and alpha (2D display state, issue 19). */
  scaleX: number;
  scaleY: number;
  alpha: number;
  /** The label of the texture a pickup's glint sprite shows, or null. */
  texture: string | null;
}

/** 2D display state as recorded (`Recorder.display`). */
export interface RecordedDisplay {
  scaleX: number;
  scaleY: number;
  alpha: number;
  visible: boolean;
  texture: string | null;
}

/** The recorded transform of an entity at a frame (the life present in that frame). */
export interface RecordedTransform {
  x: number;
  y: number;
  angle: number;
  flags: number;
  handle: number;
  /** Its 2D display state, or null when none was recorded for it in that frame. */
  display: RecordedDisplay | null;
}

/** One unique id (one life of an id) held in the overlay's current reader. */
export interface Lifetime {
  handle: number;
  id: number;
  kind: string | null;
  first: number;
  last: number;
  existsAtNewest: boolean;
}

/** The parts of a pixi render group the tests touch: each rebuild of its draw instructions starts with `reset`. */
export interface E2ERenderGroup {
  readonly instructionSet: { reset(): void };
}

/** The pixi application members the tests touch. */
export interface E2EApp {
  readonly ticker: {
    add(fn: (ticker: { deltaMS: number }) => void, context?: unknown, priority?: number): unknown;
    remove(fn: (ticker: { deltaMS: number }) => void, context?: unknown): unknown;
  };
  readonly stage: unknown;
}

/** Recorder stats of the demo. */
export interface DemoStats {
  recordMs: number;
  drawMs: number;
  ringBytes: number;
  arenaBytes: number;
  frames: number;
  newestFrame: number;
  steps: number;
}

/** `window.__demo`: the demo game with its overlay. */
export interface E2EDemoHook {
  readonly app: E2EApp;
  readonly overlay: RewindOverlay;
  /** The entity inspector (a DOM panel, `.rewindable-inspector`). */
  readonly inspector: EntityInspector;
  readonly kinds: readonly string[];
  readonly view: {
    readonly world: {
      x: number;
      y: number;
      rotation: number;
      scale: { x: number; y: number };
      pivot: { x: number; y: number };
      visible: boolean;
    };
    /** The world's layer per kind; the crowd's ('mover') is a render group of its own (issue 17). */
    readonly layers: ReadonlyMap<string, { readonly renderGroup: E2ERenderGroup | null }>;
  };
  /** The game's side of the pause contract: `isPaused()` is the game's own paused flag. */
  readonly hooks: { isPaused(): boolean };
  /**
   * What is on screen for entity `id`: while paused, the display showing it in the viewed frame
   * (taken over or re-created; hidden when absent from that frame); live, its display; null when
   * nothing stands for it (or, in a loaded replay, it is drawn as a debug shape).
   */
  transform(id: number): DisplayedTransform | null;
  /** Ids of the live game's entities of a kind. */
  ids(kind: string): number[];
  /** Ids that have a display object now, per kind. */
  displayedIds(kind: string): number[];
  /** Sets the crowd size (0..5000), applied during the next step. */
  setCrowd(n: number): void;
  stats(): DemoStats;
  /** The recorded transform of `id` in `frame` of the recording shown; null when absent or not held. */
  recordedAt(id: number, frame: number): RecordedTransform | null;
  /** Every life held in the recording shown. */
  lifetimes(): Lifetime[];
  /** The recording shown (live, or the loaded replay) as .rwd bytes. */
  saveReplayBytes(): Uint8Array;
  /** Opens .rwd bytes and shows them (the game pauses). */
  loadReplayBytes(bytes: Uint8Array): void;
  /** Hash of the canvas RGBA after presenting and rendering (equal pixels, equal hash). */
  canvasChecksum(): number;
  /** The live game's pickups and their look (2D display state, issue 19). */
  pickups(): PickupState[];
  /** Collects the oldest pickup on the floor as a touch does (it starts to pop); its id, or -1. */
  popPickup(): number;
}

/** A live pickup's look in the game. */
export interface PickupState {
  id: number;
  scale: number;
  alpha: number;
  /** Collected and popping. */
  popping: boolean;
}

/** `window.__viewer` (demo/viewer.html). */
export interface E2EViewerHook {
  readonly overlay: RewindOverlay;
  readonly inspector: EntityInspector;
  readonly app?: E2EApp;
  loadReplayBytes(bytes: Uint8Array): void;
  recordedAt(id: number, frame: number): RecordedTransform | null;
  transform(id: number): DisplayedTransform | null;
  /** Hash of the canvas after an update and a render; of the screen rows above `above` when given. */
  canvasChecksum(above?: number): number;
}

/** In-page helpers installed by `installHelpers` (browser.ts). */
export interface E2EHelpers {
  /** Resolves after `n` ticks of the shown page's pixi ticker, each after its render. */
  ticks(n: number): Promise<void>;
}

/** The globals the tests read. */
export interface E2EWindow {
  __demo: E2EDemoHook;
  __viewer: E2EViewerHook;
  __e2e: E2EHelpers;
}

/** True when `Hook` meets `Contract`; else a compile error where it is used. */
type Meets<Hook extends Contract, Contract> = Hook extends Contract ? true : never;

/** The demo's and the viewer's hooks meet the contract (checked by typecheck; no runtime code). */
export type HooksMeetTheContract = [Meets<DemoHook, E2EDemoHook>, Meets<ViewerHook, E2EViewerHook>];
