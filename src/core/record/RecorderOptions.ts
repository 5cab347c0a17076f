import { HEADER_WORDS } from '../format/layout';
import {
  MAX_ARENA_BYTES,
  MAX_CHANNEL_BUDGET,
  MAX_ENTITIES_PER_FRAME,
  MAX_ENTITY_ID,
  MAX_FRAMES,
  isIntIn,
} from '../validate/rules';

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
  /**
   * Bytes of custom field values (`Recorder.fields`) per frame; rows past it are dropped, counted
   * in `stats.fieldRowsOverBudget`, and the frame is flagged `FRAME_FIELDS_OVER_BUDGET`. The
   * recorder's buffer also holds a field area of this size (at most 4 MB) and a staging of
   * per-entity rows of four times it (at most 16 MB); pages never written take no memory.
   */
  fieldBudgetBytes: number;
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
  fieldBudgetBytes: 256 * 1024,
  recordBones: true,
  wasm: true,
  onWarning: (message: string) => console.warn(message),
};

/** The range of each numeric option: [min, max], integers unless `real`. */
const NUMERIC_RULES: ReadonlyArray<[keyof RecorderOptions, number, number, boolean?]> = [
  ['maxFrames', 1, MAX_FRAMES],
  ['arenaBytes', 1024, MAX_ARENA_BYTES],
  ['maxEntitiesPerFrame', 1, MAX_ENTITIES_PER_FRAME],
  ['maxEntityId', 1, MAX_ENTITY_ID],
  ['primitiveBudget', 0, MAX_CHANNEL_BUDGET],
  ['textBudgetBytes', 0, 1 << 24],
  ['paragraphRadius', 0, Number.MAX_VALUE, true],
  ['maxParagraphs', 1, 1 << 16],
  ['maxBoneWordsPerFrame', 0, 1 << 24],
  ['maxEventsPerFrame', 0, 1 << 20],
  ['fieldBudgetBytes', 0, 1 << 26],
];

/**
 * Checks merged recorder options: every number in its range (see the table in docs/concepts.md,
 * "Bad input"), the booleans booleans, `onWarning` a function. Options are configuration, not game
 * input: a bad one throws at construction.
 *
 * @throws RangeError naming the first bad option.
 * @example
 * validateRecorderOptions({ ...DEFAULT_RECORDER_OPTIONS, maxFrames: 0 }); // throws RangeError
 */
export function validateRecorderOptions(o: RecorderOptions): void {
  for (const [key, min, max, real] of NUMERIC_RULES) {
    const v = o[key];
    const ok = real === true ? typeof v === 'number' && v >= min && v <= max : isIntIn(v, min, max);
    if (!ok) {
      throw new RangeError(
        `rewindable: ${key} must be ${real === true ? 'a number' : 'an integer'} in [${min}, ${max}] (got ${String(v)})`,
      );
    }
  }
  for (const key of ['recordBones', 'wasm'] as const) {
    if (typeof o[key] !== 'boolean')
      throw new RangeError(`rewindable: ${key} must be a boolean (got ${String(o[key])})`);
  }
  if (typeof o.onWarning !== 'function') throw new RangeError('rewindable: onWarning must be a function');
}

/**
 * Arena bytes that hold `frames` frames of `entities` entities each: 20 bytes an entity plus the
 * 88-byte header per frame, plus `extraBytesPerFrame` for bones (16 bytes a bone, 4 a skinned
 * entity), debug draw and events. The default 16 MiB holds 835 frames of 1,000 bare entities.
 *
 * @example
 * new Recorder({ arenaBytes: arenaBytesFor(1000, 900, 4096) }); // 30 s at 30 fps, 4 kB of debug draw a frame
 */
export function arenaBytesFor(entities: number, frames: number, extraBytesPerFrame = 0): number {
  return Math.ceil((frames * (HEADER_WORDS * 4 + entities * 20 + extraBytesPerFrame + 4)) / 8) * 8;
}
