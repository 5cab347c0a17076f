/**
 * Constants of the `.rwd` replay file format (specified in docs/replay-format.md).
 *
 * A file is a sequence of four MessagePack values: the magic string `"RWND"`, the format version
 * (a positive integer), the header map, and the array of frames (one `bin` per frame).
 */

import { MAX_HANDLES } from '../core/format/layout';
import {
  MAX_ARENA_BYTES,
  MAX_ENTITIES_PER_FRAME,
  MAX_ENTITY_ID,
  MAX_FRAMES,
  MAX_KINDS,
  MAX_STATIC_BYTES,
  MAX_STATIC_LAYERS,
  MAX_STRING_LENGTH,
} from '../core/validate/rules';

/** The first value of every replay file. */
export const REPLAY_MAGIC = 'RWND';
/** The magic as it is encoded: MessagePack fixstr of length 4, then `R W N D`. */
export const REPLAY_MAGIC_BYTES: Readonly<Uint8Array> = Uint8Array.of(0xa4, 0x52, 0x57, 0x4e, 0x44);
/** The version this code writes, and the newest it reads. */
export const REPLAY_FORMAT_VERSION = 3;
/** The first version whose frames may carry a field section (and whose header lists `fieldSchemas`). */
export const REPLAY_FIELDS_VERSION = 3;
/** The oldest version this code reads. */
export const REPLAY_MIN_FORMAT_VERSION = 1;
/** Conventional file extension. */
export const REPLAY_FILE_EXTENSION = '.rwd';

/**
 * How frame payloads are stored:
 * - `none`: each frame's words verbatim (fastest, the default);
 * - `xor-delta`: each frame XOR-ed word by word with the previous frame, then packed with 2-bit
 *   length tags (see `xorDelta.ts`); smaller, costs a pass over every word on save and load.
 */
export type ReplayCompression = 'none' | 'xor-delta';
/** Every codec name, in the order of the docs. */
export const REPLAY_CODECS: readonly ReplayCompression[] = ['none', 'xor-delta'];

/** The names of the three built-in channels, which every file lists first, in this order. */
export const BUILTIN_CHANNEL_NAMES: readonly string[] = ['ai', 'physics', 'animation'];

/** Largest frame number a file may hold (the entity table stores frames as int32). */
export const MAX_FRAME_NUMBER = 0x7fffffff;

/** Caps on every size and count `loadReplay` accepts; anything above is `TOO_LARGE`. */
export interface ReplayLimits {
  /** Whole file. */
  maxFileBytes: number;
  /** Frame words after decompression, in bytes (the arena the loaded ring allocates). */
  maxFrameBytes: number;
  /** Frames. */
  maxFrames: number;
  /** Entities in one frame (the layout allows at most 2^20). */
  maxEntitiesPerFrame: number;
  /**
   * Rows of the entity table (lives). Memory follows the rows: handles (below 2^24) are kept when
   * they are dense and renumbered when they are not, and ids map through a hash map.
   */
  maxHandles: number;
  /** Entity ids must be below this (the recorder's `maxEntityId` allows at most 2^30). */
  maxEntityId: number;
  /** Kinds and event kinds, each. */
  maxKinds: number;
  /** Bookmarks. */
  maxBookmarks: number;
  /** Static layers. */
  maxStaticLayers: number;
  /** Encoded words of all static layers, in bytes. */
  maxStaticBytes: number;
  /** Any one string (UTF-16 code units). */
  maxStringLength: number;
  /** Entries of `info.fields`. */
  maxInfoFields: number;
}

/**
 * The limits used when none are given: every file a recorder can write loads under them (they are
 * the recorder's own bounds, src/core/validate/rules.ts), and allocation stays bounded by the file.
 */
export const DEFAULT_REPLAY_LIMITS: Readonly<ReplayLimits> = {
  maxFileBytes: 1024 * 1024 * 1024,
  maxFrameBytes: MAX_ARENA_BYTES,
  maxFrames: MAX_FRAMES,
  maxEntitiesPerFrame: MAX_ENTITIES_PER_FRAME,
  maxHandles: MAX_HANDLES,
  maxEntityId: MAX_ENTITY_ID,
  maxKinds: MAX_KINDS,
  maxBookmarks: 1 << 16,
  maxStaticLayers: MAX_STATIC_LAYERS,
  maxStaticBytes: MAX_STATIC_BYTES,
  maxStringLength: MAX_STRING_LENGTH,
  maxInfoFields: 1024,
};

/** Whether typed arrays on this host are little-endian (replay words are stored little-endian). */
export const HOST_IS_LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;
