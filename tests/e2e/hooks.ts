/**
 * Types of the debug hooks the e2e tests drive (demo/src/debugHook.ts `window.__demo`, and
 * `window.__viewer` of demo/viewer.html), as agreed in the demo-hook contract. Only the members the
 * tests use are listed. In page functions: `const d = (window as unknown as E2EWindow).__demo;` —
 * a type-only cast, erased before the function is sent to the page.
 */
import type { RewindOverlay } from '../../src/pixi/RewindOverlay';

/** What is on screen for an entity (its display object). */
export interface DisplayedTransform {
  x: number;
  y: number;
  rotation: number;
  visible: boolean;
  tint: number;
}

/** The recorded transform of an entity at a frame (the life present in that frame). */
export interface RecordedTransform {
  x: number;
  y: number;
  angle: number;
  flags: number;
  handle: number;
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

/** `window.__demo`. */
export interface E2EDemoHook {
  readonly app: E2EApp;
  readonly overlay: RewindOverlay;
  readonly kinds: readonly string[];
  readonly view: { readonly world: { x: number; y: number; rotation: number; scale: { x: number; y: number }; pivot: { x: number; y: number }; visible: boolean } };
  readonly hooks: { isPaused(): boolean };
  transform(id: number): DisplayedTransform | null;
  ids(kind: string): number[];
  displayedIds(kind: string): number[];
  setCrowd(n: number): void;
  stats(): DemoStats;
  recordedAt(id: number, frame: number): RecordedTransform | null;
  lifetimes(): Lifetime[];
  saveReplayBytes(): Uint8Array;
  loadReplayBytes(bytes: Uint8Array): void;
  canvasChecksum(): number;
}

/** `window.__viewer` (demo/viewer.html). */
export interface E2EViewerHook {
  readonly overlay: RewindOverlay;
  readonly app?: E2EApp;
  loadReplayBytes(bytes: Uint8Array): void;
  recordedAt(id: number, frame: number): RecordedTransform | null;
  transform(id: number): DisplayedTransform | null;
  canvasChecksum(): number;
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
