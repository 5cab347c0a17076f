import {
  BONE_INDEX_BITS,
  BONE_INDEX_MASK,
  DISPLAY_INDEX_MASK,
  DISPLAY_VISIBLE,
  DISPLAY_WORDS,
  EVENT_WORDS,
  FRAME_FIELDS_OVER_BUDGET,
  FRAME_HAS_CAMERA,
  FRAME_TRUNCATED,
  HANDLE_MASK,
  HEADER_WORDS,
  H_BONE_WORDS,
  H_CAM_ROT,
  H_CAM_X,
  H_CAM_ZOOM,
  H_DISPLAY_WORDS,
  H_DT,
  H_ENTITY_COUNT,
  H_EVENT_COUNT,
  H_FLAGS,
  H_FRAME,
  H_OVER_BUDGET,
  H_PRIM_COUNT,
  H_PRIM_WORDS,
  H_TIME,
  H_TOTAL_WORDS,
  NO_TEXTURE,
  PRIM_TEXT,
  PRIM_TYPE_COUNT,
  PRIM_WORDS,
} from '../core/format/layout';
import { firstNonFiniteF32, isPositiveF32, quatWordIsValid } from '../core/validate/rules';
import type { FieldSchemas } from '../core/fields/FieldSchemas';
import { checkFieldSection } from './checkFields';
import { corrupt, tooLarge } from './schema';

/**
 * Structural checks of frame words loaded from an untrusted file, so that everything `FrameReader`
 * later decodes is in bounds, finite and refers to things that exist. Every loop is bounded by the
 * words actually present.
 */

/** What frames are checked against; built from the (already validated) file header. */
export interface FrameCheckContext {
  /** The entity table's handles, strictly increasing; row i describes `handles[i]`. */
  handles: Int32Array;
  /** Row of each handle (-1: none) while handles are dense, else null (binary search of `handles`). */
  rowOfHandle: Int32Array | null;
  /** Spawn and last frame of each row. */
  spawn: Int32Array;
  last: Int32Array;
  /** Scratch, one per row, initialised to -1 (detects a handle twice in one frame). */
  stamp: Int32Array;
  /** Time of the previous frame checked (times never go back). */
  previousTime: number;
  channelCount: number;
  /**
   * Texture names of the recording (format 2): a display record's texture index must be below
   * this or `NO_TEXTURE`. Undefined: any index is accepted (a stream that sends no names).
   */
  textureCount?: number;
  eventKindCount: number;
  maxEntitiesPerFrame: number;
  /**
   * The file's field schemas (format 3), or null when frames carry no field section (formats 1
   * and 2, a live stream): frame words past the other sections are then corrupt.
   */
  fieldSchemas: FieldSchemas | null;
  /** Scratch, one per field schema (the frame each was last seen in). */
  fieldStamp: Int32Array;
  /** Counts the words and records walked (for tests proving the work is bounded by the input). */
  work: { units: number } | null;
}

// Local copies of the layout constants: hot loops then read plain locals, not module bindings
// (which some loaders, e.g. tsx and vitest, turn into getters).
const KNOWN_FLAGS = FRAME_TRUNCATED | FRAME_HAS_CAMERA;
const HANDLE_MASK_ = HANDLE_MASK;
const HEADER_WORDS_ = HEADER_WORDS;
const BONE_INDEX_BITS_ = BONE_INDEX_BITS;
const BONE_INDEX_MASK_ = BONE_INDEX_MASK;
const EVENT_WORDS_ = EVENT_WORDS;
const DISPLAY_WORDS_ = DISPLAY_WORDS;
const PRIM_TEXT_ = PRIM_TEXT;
const PRIM_TYPE_COUNT_ = PRIM_TYPE_COUNT;
const PRIM_WORDS_ = Int32Array.from(PRIM_WORDS);

const firstNonFinite = firstNonFiniteF32;

/** Index of `h` in the strictly increasing `handles`, or -1. */
export function rowOfSorted(handles: Int32Array, h: number): number {
  let lo = 0;
  let hi = handles.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = handles[mid];
    if (v === h) return mid;
    if (v < h) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** Index of the first word of `u[start, end)` that is not a valid rotation, or -1. */
function firstBadRotation(u: Uint32Array, start: number, end: number): number {
  for (let i = start; i < end; i++) if (!quatWordIsValid(u[i])) return i;
  return -1;
}

/**
 * Checks frame `index` of the file (frame number `frame`), `words` words at `at` in the views.
 * Throws `CORRUPT` (or `TOO_LARGE`) naming the section.
 */
export function checkFrame(
  u: Uint32Array,
  f: Float32Array,
  f64: Float64Array,
  at: number,
  words: number,
  frame: number,
  index: number,
  ctx: FrameCheckContext,
): void {
  const path = `frames[${index}]`;
  if (words < HEADER_WORDS_) corrupt(path, `frame of ${words} words is shorter than its ${HEADER_WORDS_}-word header`);
  if (u[at + H_FRAME] !== frame) corrupt(`${path}.frame`, `holds frame number ${u[at + H_FRAME]}, expected ${frame}`);
  if (u[at + H_TOTAL_WORDS] !== words)
    corrupt(`${path}.totalWords`, `says ${u[at + H_TOTAL_WORDS]} words, the frame has ${words}`);
  const flags = u[at + H_FLAGS];
  const known = ctx.fieldSchemas === null ? KNOWN_FLAGS : KNOWN_FLAGS | FRAME_FIELDS_OVER_BUDGET;
  if ((flags & ~known) !== 0) corrupt(`${path}.flags`, `unknown flag bits 0x${(flags >>> 0).toString(16)}`);
  const time = f64[(at + H_TIME) >>> 1];
  if (time - time !== 0) corrupt(`${path}.time`, 'not a finite number');
  if (time < ctx.previousTime) corrupt(`${path}.time`, `${time} is before the previous frame's ${ctx.previousTime}`);
  ctx.previousTime = time;
  const dt = f[at + H_DT];
  if (dt - dt !== 0) corrupt(`${path}.dt`, 'not a finite number');
  const channelMask = ctx.channelCount >= 32 ? 0xffffffff : (1 << ctx.channelCount) - 1;
  if ((u[at + H_OVER_BUDGET] & ~channelMask) !== 0)
    corrupt(`${path}.overBudget`, 'names a channel that does not exist');
  // Position and zoom are floats; the rotation word between them is not (its bits may read as NaN).
  if (firstNonFinite(f, at + H_CAM_X, at + H_CAM_ROT) >= 0 || !isPositiveF32(f[at + H_CAM_ZOOM])) {
    corrupt(`${path}.camera`, 'position is not finite or zoom is not positive');
  }
  if (!quatWordIsValid(u[at + H_CAM_ROT])) corrupt(`${path}.camera`, 'the rotation word is not a unit quaternion');

  const n = u[at + H_ENTITY_COUNT];
  const boneWords = u[at + H_BONE_WORDS];
  const primWords = u[at + H_PRIM_WORDS];
  const primCount = u[at + H_PRIM_COUNT];
  const eventCount = u[at + H_EVENT_COUNT];
  if (n > ctx.maxEntitiesPerFrame || n > BONE_INDEX_MASK_ + 1) {
    tooLarge(
      `${path}.entityCount`,
      `${n} entities exceed the limit of ${Math.min(ctx.maxEntitiesPerFrame, BONE_INDEX_MASK_ + 1)}`,
    );
  }
  const displayWords = u[at + H_DISPLAY_WORDS];
  if (displayWords % DISPLAY_WORDS_ !== 0)
    corrupt(`${path}.displayWords`, `${displayWords} is not a multiple of ${DISPLAY_WORDS_}`);
  // Sums in doubles: no 32-bit overflow can make a huge count look small.
  const expected = HEADER_WORDS_ + n * 5 + boneWords + primWords + eventCount * EVENT_WORDS_ + displayWords;
  if (expected !== words && (ctx.fieldSchemas === null || expected > words)) {
    corrupt(
      path,
      `section sizes (entities ${n}, bone words ${boneWords}, primitive words ${primWords}, events ${eventCount}, display words ${displayWords}) need ${expected} words, the frame has ${words}`,
    );
  }
  if (ctx.work !== null) ctx.work.units += words;

  // Entities: known handles, alive at this frame, each once.
  const hBase = at + HEADER_WORDS_;
  const { spawn, last, stamp, rowOfHandle, handles } = ctx;
  for (let i = 0; i < n; i++) {
    const h = u[hBase + i] & HANDLE_MASK_;
    const r = rowOfHandle === null ? rowOfSorted(handles, h) : h < rowOfHandle.length ? rowOfHandle[h] : -1;
    if (r < 0) corrupt(`${path}.entities[${i}]`, `handle ${h} is not in the entity table`);
    if (frame < spawn[r] || frame > last[r]) {
      corrupt(`${path}.entities[${i}]`, `handle ${h} lives in frames ${spawn[r]}..${last[r]}, not ${frame}`);
    }
    if (stamp[r] === frame) corrupt(`${path}.entities[${i}]`, `handle ${h} appears twice`);
    stamp[r] = frame;
  }
  const pBase = hBase + n;
  const badPos = firstNonFinite(f, pBase, pBase + n * 3);
  if (badPos >= 0) corrupt(`${path}.positions[${Math.floor((badPos - pBase) / 3)}]`, 'not finite');
  const badRot = firstBadRotation(u, pBase + n * 3, pBase + n * 4);
  if (badRot >= 0)
    corrupt(
      `${path}.rotations[${badRot - pBase - n * 3}]`,
      'not a unit quaternion (a code of 1023, or components whose squares sum above 1)',
    );

  // Bones: records of (index | count << 20), count rotations, 3·count offsets, exactly filling the section.
  const bBase = pBase + n * 4;
  const bEnd = bBase + boneWords;
  let b = 0;
  for (let w = bBase; w < bEnd; b++) {
    const head = u[w];
    const idx = head & BONE_INDEX_MASK_;
    const c = head >>> BONE_INDEX_BITS_;
    if (c === 0) corrupt(`${path}.bones[${b}]`, 'bone count is 0');
    if (idx >= n) corrupt(`${path}.bones[${b}]`, `entity index ${idx} is not below the entity count ${n}`);
    const next = w + 1 + c * 4;
    if (next > bEnd) corrupt(`${path}.bones[${b}]`, `${c} bones overrun the bone section`);
    if (firstBadRotation(u, w + 1, w + 1 + c) >= 0)
      corrupt(`${path}.bones[${b}]`, 'a bone rotation is not a unit quaternion');
    if (firstNonFinite(f, w + 1 + c, next) >= 0) corrupt(`${path}.bones[${b}]`, 'a bone offset is not finite');
    w = next;
  }
  if (ctx.work !== null) ctx.work.units += b;

  const primStart = bEnd;
  const walked = checkPrimitives(
    u,
    f,
    primStart,
    primStart + primWords,
    primCount,
    ctx.channelCount,
    `${path}.primitives`,
  );
  if (ctx.work !== null) ctx.work.units += walked;

  const eBase = primStart + primWords;
  for (let i = 0; i < eventCount; i++) {
    const w = eBase + i * EVENT_WORDS_;
    if (u[w] >= ctx.eventKindCount)
      corrupt(`${path}.events[${i}]`, `kind ${u[w]} is not among the ${ctx.eventKindCount} event kinds`);
    if (firstNonFinite(f, w + 2, w + EVENT_WORDS_) >= 0) corrupt(`${path}.events[${i}]`, 'a value is not finite');
  }
  if (displayWords > 0)
    checkDisplay(u, f, eBase + eventCount * EVENT_WORDS_, displayWords, n, ctx.textureCount, `${path}.display`);

  // Fields (format 3): the words after the other sections.
  if (expected < words && ctx.fieldSchemas !== null) {
    const blocks = checkFieldSection(u, f, at + expected, at + words, n, frame, ctx.fieldSchemas, ctx.fieldStamp, path);
    if (ctx.work !== null) ctx.work.units += blocks;
  }
}

/**
 * Checks the display records in `u[start, start + words)`: entity indices below `n`, strictly
 * increasing (one record an entity at most), no unknown bits, finite scales, texture indices below
 * `textureCount` (when known) or `NO_TEXTURE`.
 */
function checkDisplay(
  u: Uint32Array,
  f: Float32Array,
  start: number,
  words: number,
  n: number,
  textureCount: number | undefined,
  path: string,
): void {
  let previous = -1;
  for (let k = 0; k < words / DISPLAY_WORDS_; k++) {
    const w = start + k * DISPLAY_WORDS_;
    const head = u[w];
    const idx = head & DISPLAY_INDEX_MASK;
    if ((head & ~(DISPLAY_INDEX_MASK | DISPLAY_VISIBLE)) !== 0)
      corrupt(`${path}[${k}]`, `unknown bits 0x${(head >>> 0).toString(16)}`);
    if (idx >= n) corrupt(`${path}[${k}]`, `entity index ${idx} is not below the entity count ${n}`);
    if (idx <= previous)
      corrupt(
        `${path}[${k}]`,
        `entity index ${idx} does not follow ${previous} (records are in increasing entity order, one each)`,
      );
    previous = idx;
    if (firstNonFinite(f, w + 1, w + 3) >= 0) corrupt(`${path}[${k}]`, 'a scale is not finite');
    const tex = u[w + 3] >>> 16;
    if (textureCount !== undefined && tex !== NO_TEXTURE && tex >= textureCount) {
      corrupt(`${path}[${k}]`, `texture ${tex} is not among the ${textureCount} texture names`);
    }
  }
}

/**
 * Checks primitive records in `u[start, end)`: known types, existing channels, finite floats,
 * text lengths inside the section, exactly `count` records filling it. Returns the records walked.
 */
export function checkPrimitives(
  u: Uint32Array,
  f: Float32Array,
  start: number,
  end: number,
  count: number,
  channelCount: number,
  path: string,
): number {
  let k = 0;
  for (let w = start; w < end; k++) {
    const head = u[w];
    const type = head & 7;
    if (type >= PRIM_TYPE_COUNT_) corrupt(`${path}[${k}]`, `unknown primitive type ${type}`);
    const channel = (head >>> 3) & 31;
    if (channel >= channelCount) corrupt(`${path}[${k}]`, `channel ${channel} does not exist`);
    let words = PRIM_WORDS_[type];
    if (w + words > end) corrupt(`${path}[${k}]`, 'record overruns the primitive section');
    let floatEnd = w + words;
    if (type === PRIM_TEXT_) {
      const len = u[w + 4];
      words += Math.ceil(len / 4);
      if (w + words > end) corrupt(`${path}[${k}]`, `text of ${len} bytes overruns the primitive section`);
      floatEnd = w + 4;
    }
    if (firstNonFinite(f, w + 1, floatEnd) >= 0) corrupt(`${path}[${k}]`, 'a coordinate is not finite');
    w += words;
  }
  if (k !== count) corrupt(path, `${k} records found, the header says ${count}`);
  return k;
}
