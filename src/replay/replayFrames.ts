/**
 * The frames of a `.rwd` file: each payload sized against its real bytes before the arena is
 * allocated, then decoded (raw or xor-delta) into a ring sized exactly, checksummed, and checked
 * frame by frame against the header (`checkFrame`); a file whose handles are sparse has them
 * renumbered to rows afterwards.
 */
import { HANDLE_MASK, HEADER_WORDS, H_ENTITY_COUNT } from '../core/format/layout';
import { frameChannelMask } from '../core/format/channelMask';
import { FrameRing } from '../core/store/FrameRing';
import { CHECKSUM_SEED, checksumWords } from './checksum';
import { checkFrame, rowOfSorted } from './checkFrames';
import type { FrameCheckContext } from './checkFrames';
import { ReplayError } from './ReplayError';
import type { ReplayLimits } from './replayFormat';
import type { ParsedHeader } from './replayHeader';
import { asArray, asBin, corrupt, tooLarge } from './schema';
import { xorDeltaDecode, xorDeltaHeader } from './xorDelta';
import type { XorDeltaHeader } from './xorDelta';

/**
 * The loaded entity table keeps the file's handles while it is at most this dense (slots ≤ 2 ×
 * rows + 1,024); a sparser file has its handles renumbered to rows, so that memory follows the
 * rows the file holds, not the largest handle it names.
 */
const DENSE_FACTOR = 2;
const DENSE_SLACK = 1024;

/** The loaded frames and how their handles map to the entity rows. */
export interface LoadedFrames {
  readonly ring: FrameRing;
  /** Words of frame data (uncompressed). */
  readonly total: number;
  /** Whether the file's handles are kept (else frame words now hold rows). */
  readonly dense: boolean;
  /** One past the largest handle of the entity columns. */
  readonly largest: number;
  /** Row of each handle while dense, -1 for a handle no row has; `null` when sparse. */
  readonly rowOfHandle: Int32Array | null;
  /** The channels the frames draw on (bit per channel). */
  readonly usedChannels: number;
}

/** Rewrites every entity word's handle (sorted column `handles`) as its row, in `count` frames from `first`. */
function renumberHandles(ring: FrameRing, first: number, count: number, handles: Int32Array): void {
  const u = ring.u32;
  for (let i = 0; i < count; i++) {
    const at = ring.offsetOf(first + i);
    const n = u[at + H_ENTITY_COUNT];
    for (let k = at + HEADER_WORDS; k < at + HEADER_WORDS + n; k++) {
      const w = u[k];
      u[k] = (w & ~HANDLE_MASK) | rowOfSorted(handles, w & HANDLE_MASK);
    }
  }
}

/** Sizes, decodes, checksums and checks the frames array `framesValue` against the parsed header. */
export function loadFrames(
  framesValue: unknown,
  header: ParsedHeader,
  limits: ReplayLimits,
  verifyChecksum: boolean,
  work: { units: number } | null,
): LoadedFrames {
  const { summary, ents, channelList, eventKinds, textures, fieldSchemas } = header;
  // Frame payloads: sizes against the real bytes, before allocating the arena.
  const list = asArray(framesValue, 'frames', limits.maxFrames);
  const count = summary.count;
  if (list.length !== count) corrupt('frames', `${list.length} frames present, the header says ${count}`);
  const maxWords = Math.floor(limits.maxFrameBytes / 4);
  const frameWords = new Int32Array(count);
  const dataAt = new Int32Array(count);
  const bins: Uint8Array[] = new Array<Uint8Array>(count);
  const vh: XorDeltaHeader = { words: 0, dataAt: 0 };
  let total = 0;
  let arenaWords = 0;
  for (let i = 0; i < count; i++) {
    const bin = asBin(list[i], `frames[${i}]`);
    let words: number;
    if (summary.codec === 'none') {
      if (bin.length % 4 !== 0) corrupt(`frames[${i}]`, `${bin.length} bytes is not a whole number of words`);
      words = bin.length / 4;
      dataAt[i] = 0;
    } else {
      xorDeltaHeader(bin, 0, bin.length, vh);
      if (vh.words < 0) corrupt(`frames[${i}]`, 'malformed word count');
      words = vh.words;
      if (Math.ceil(words / 4) > bin.length - vh.dataAt)
        corrupt(`frames[${i}]`, `${words} words cannot fit in ${bin.length} bytes`);
      dataAt[i] = vh.dataAt;
    }
    if (words < HEADER_WORDS)
      corrupt(`frames[${i}]`, `frame of ${words} words is shorter than its ${HEADER_WORDS}-word header`);
    total += words;
    if (total > maxWords) tooLarge('frames', `frame data exceeds the limit of ${limits.maxFrameBytes} bytes`);
    frameWords[i] = words;
    arenaWords += words + (words % 2);
    bins[i] = bin;
  }
  if (total !== summary.words) corrupt('header.frames.words', `says ${summary.words} words, the frames hold ${total}`);

  // What frames are checked against. Every structure is sized by the rows the file holds: a
  // handle table only while handles are dense, else lookups by binary search and renumbering.
  const rows = ents.handle.length;
  const largest = rows > 0 ? ents.handle[rows - 1] + 1 : 0;
  const dense = largest <= DENSE_FACTOR * rows + DENSE_SLACK;
  let rowOfHandle: Int32Array | null = null;
  if (dense) {
    rowOfHandle = new Int32Array(largest).fill(-1);
    for (let i = 0; i < rows; i++) rowOfHandle[ents.handle[i]] = i;
  }
  const ctx: FrameCheckContext = {
    handles: ents.handle,
    rowOfHandle,
    spawn: ents.spawn,
    last: ents.last,
    stamp: new Int32Array(rows).fill(-1),
    channelCount: channelList.length,
    eventKindCount: eventKinds.length,
    textureCount: textures.length,
    maxEntitiesPerFrame: limits.maxEntitiesPerFrame,
    fieldSchemas,
    fieldStamp: new Int32Array(fieldSchemas === null ? 0 : fieldSchemas.count).fill(-1),
    previousTime: Number.NEGATIVE_INFINITY,
    work,
  };
  if (work !== null) work.units += (dense ? largest : 0) + rows;

  // The ring: sized exactly, so frames go in one after another and nothing is evicted.
  const ring = new FrameRing(Math.max(1024, arenaWords * 4), Math.max(1, count));
  const u32 = ring.u32;
  let checksum = CHECKSUM_SEED;
  let prevAt = 0;
  let prevWords = 0;
  // The channels the frames draw on (a panel lists only the channels in use).
  let usedChannels = 0;
  for (let i = 0; i < count; i++) {
    const words = frameWords[i];
    const at = ring.reserve(words);
    const bin = bins[i];
    if (summary.codec === 'none') {
      ring.u8.set(bin, at * 4);
    } else if (!xorDeltaDecode(bin, dataAt[i], bin.length, words, u32, prevAt, prevWords, u32, at)) {
      corrupt(`frames[${i}]`, 'compressed data does not decode to the words it claims');
    }
    const frame = summary.first + i;
    if (verifyChecksum) checksum = checksumWords(u32, at, words, checksum);
    checkFrame(u32, ring.f32, ring.f64, at, words, frame, i, ctx);
    usedChannels |= frameChannelMask(u32, at);
    ring.commit(frame);
    prevAt = at;
    prevWords = words;
  }
  if (verifyChecksum && summary.checksum !== null && checksum !== summary.checksum) {
    throw new ReplayError(
      'CHECKSUM',
      `frame data checksum is 0x${checksum.toString(16)}, the header says 0x${summary.checksum.toString(16)}`,
      'frames',
    );
  }
  // Sparse handles become rows (only now: xor-delta decodes each frame against the previous one's
  // words as stored).
  if (!dense) renumberHandles(ring, summary.first, count, ents.handle);
  return { ring, total, dense, largest, rowOfHandle, usedChannels };
}
