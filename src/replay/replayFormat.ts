/**
 * Constants of the `.rwd` replay file format (specified in docs/replay-format.md).
 *
 * A file is a sequence of four MessagePack values: the magic string `"RWND"`, the format version
 * (a positive integer), the header map, and the array of frames (one `bin` per frame).
 */

/** The first value of every replay file. */
export const REPLAY_MAGIC = 'RWND';
/** The magic as it is encoded: MessagePack fixstr of length 4, then `R W N D`. */
export const REPLAY_MAGIC_BYTES: Readonly<Uint8Array> = Uint8Array.of(0xa4, 0x52, 0x57, 0x4e, 0x44);
/** The version this code writes, and the newest it reads. */
export const REPLAY_FORMAT_VERSION = 1;
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
  /** Entity handles (the loaded entity table has one slot per handle up to the largest). */
  maxHandles: number;
  /**
   * Entity ids must be below this (the recorder's `maxEntityId`, at most 2^30). The loaded entity
   * table maps ids in pages of 4,096, so this also bounds that map's memory (64 MiB at 2^24).
   */
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

/** The limits used when none are given: generous for real recordings, bounded for hostile ones. */
export const DEFAULT_REPLAY_LIMITS: Readonly<ReplayLimits> = {
  maxFileBytes: 1024 * 1024 * 1024,
  maxFrameBytes: 1024 * 1024 * 1024,
  maxFrames: 1 << 20,
  maxEntitiesPerFrame: 1 << 20,
  maxHandles: 1 << 20,
  maxEntityId: 1 << 24,
  maxKinds: 1 << 16,
  maxBookmarks: 1 << 16,
  maxStaticLayers: 4096,
  maxStaticBytes: 256 * 1024 * 1024,
  maxStringLength: 1 << 16,
  maxInfoFields: 1024,
};

/** Whether typed arrays on this host are little-endian (replay words are stored little-endian). */
export const HOST_IS_LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;
