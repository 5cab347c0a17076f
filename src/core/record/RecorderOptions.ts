import { HEADER_WORDS } from '../format/layout';

/** Recorder settings; see `DEFAULT_RECORDER_OPTIONS` for the defaults. */
export interface RecorderOptions {
  /** Frames kept (900 = 30 s at 30 fps). */
  maxFrames: number;
  /** Size of the byte arena, allocated once. */
  arenaBytes: number;
  /** Entities stored per frame; more are dropped and counted. */
  maxEntitiesPerFrame: number;
  /** Entity ids must be integers in `[0, maxEntityId)` (at most 2^30). */
  maxEntityId: number;
  /** Default per-channel primitive budget per frame. */
  primitiveBudget: number;
  /** Text bytes stored per frame over all channels. */
  textBudgetBytes: number;
  /** Texts of one channel within this distance of a paragraph's anchor join it. */
  paragraphRadius: number;
  /** Most text paragraphs per frame. */
  maxParagraphs: number;
  /** Words of bone data per frame (16 bytes a bone plus 4 an entity). */
  maxBoneWordsPerFrame: number;
  /** Events (markers) per frame. */
  maxEventsPerFrame: number;
  /** Whether bones are recorded at start; toggle with `recorder.bonesEnabled`. */
  recordBones: boolean;
  /**
   * Encode rotations and pack positions with the WebAssembly SIMD kernel when the platform allows
   * it (a strict Content-Security-Policy may not: the recorder then warns once and uses the
   * JavaScript encoder, which stores the same bytes). `false` forces JavaScript.
   */
  wasm: boolean;
  /** Called once per kind of problem with a readable message (bad input is never thrown). */
  onWarning: (message: string) => void;
}

/** The defaults merged under the options given to `new Recorder(...)`. */
export const DEFAULT_RECORDER_OPTIONS: Readonly<RecorderOptions> = {
  maxFrames: 900,
  arenaBytes: 16 * 1024 * 1024,
  maxEntitiesPerFrame: 16384,
  maxEntityId: 1 << 24,
  primitiveBudget: 1024,
  textBudgetBytes: 8192,
  paragraphRadius: 24,
  maxParagraphs: 256,
  maxBoneWordsPerFrame: 1 << 16,
  maxEventsPerFrame: 256,
  recordBones: true,
  wasm: true,
  onWarning: (message: string) => console.warn(message),
};

/**
 * Arena bytes that hold `frames` frames of `entities` entities each: 20 bytes an entity plus the
 * 88-byte header per frame, plus `extraBytesPerFrame` for bones (16 bytes a bone, 4 a skinned
 * entity), debug draw and events. The default 16 MiB holds 835 frames of 1,000 bare entities.
 *
 * @example
 * new Recorder({ arenaBytes: arenaBytesFor(1000, 900, 4096) }); // 30 s at 30 fps, 4 kB of debug draw a frame
 */
export function arenaBytesFor(entities: number, frames: number, extraBytesPerFrame = 0): number {
  return Math.ceil(frames * (HEADER_WORDS * 4 + entities * 20 + extraBytesPerFrame + 4) / 8) * 8;
}
