import { decodeQuatAt } from '../math/quat';
import { DISPLAY_RECORDED, DISPLAY_SHOWN } from './buffers';
import { FieldSchemas } from '../fields/FieldSchemas';
import {
  BONE_INDEX_BITS,
  BONE_INDEX_MASK,
  EVENT_WORDS,
  FRAME_FIELDS_OVER_BUDGET,
  FRAME_HAS_CAMERA,
  FRAME_TRUNCATED,
  HANDLE_BITS,
  HANDLE_MASK,
  DISPLAY_INDEX_MASK,
  DISPLAY_VISIBLE,
  DISPLAY_WORDS,
  H_DISPLAY_WORDS,
  NO_TEXTURE,
  HEADER_WORDS,
  H_BONE_WORDS,
  H_CAM_ROT,
  H_CAM_X,
  H_CAM_Y,
  H_CAM_Z,
  H_CAM_ZOOM,
  H_DROPPED_ENTITIES,
  H_DROPPED_PRIMS,
  H_DROPPED_TEXT,
  H_DT,
  H_ENTITY_COUNT,
  H_EVENT_COUNT,
  H_FLAGS,
  H_FRAME,
  H_OVER_BUDGET,
  H_PRIM_COUNT,
  H_PRIM_WORDS,
  H_SANITIZED,
  H_TIME,
  H_TOTAL_WORDS,
  PRIM_FLOATS,
  PRIM_TEXT,
  PRIM_TYPE_COUNT,
  PRIM_WORDS,
} from '../format/layout';
import type { ChannelRegistry } from '../store/ChannelRegistry';
import type { EntityTable } from '../store/EntityTable';
import type { FrameRing } from '../store/FrameRing';
import type { EntityBuffer, EventBuffer, FrameHeader, PrimitiveBuffer } from './buffers';

const camScratch = new Float32Array(4);

/**
 * The read side of a ring: "which frames are held" and "decode frame f" into buffers the caller
 * owns, without allocating. Playback, the overlay and replay files read through this.
 *
 * @example
 * const header = new FrameHeader();
 * const ents = new EntityBuffer();
 * const f = reader.newestFrame;
 * if (reader.readHeader(f, header) && reader.readEntities(f, ents)) console.log(ents.count, header.time);
 */
export class FrameReader {
  public constructor(
    public readonly ring: FrameRing,
    public readonly entities: EntityTable,
    public readonly channels: ChannelRegistry,
    public readonly eventKinds: readonly string[],
    /** Texture names of the display state (`Recorder.texture`); a row's texture index is a position here. */
    public readonly textures: readonly string[] = [],
    /** The custom field schemas of the frames (`Recorder.declareFields`; a replay's from its file). */
    public readonly fieldSchemas: FieldSchemas = new FieldSchemas(),
  ) {}

  /** Frames held. */
  public get frameCount(): number {
    return this.ring.frameCount;
  }

  /** Oldest frame held; only meaningful when `frameCount > 0`. */
  public get oldestFrame(): number {
    return this.ring.oldestFrame;
  }

  /** Newest frame held; only meaningful when `frameCount > 0`. */
  public get newestFrame(): number {
    return this.ring.newestFrame;
  }

  /** Whether frame `frame` is held. */
  public has(frame: number): boolean {
    return this.ring.has(frame);
  }

  /**
   * Where a held frame's words start in the ring, or -1 when it is not held. While the frame is
   * held this does not change, so with `timingInto` it tells whether a cached decode of "frame f"
   * is still this frame's content (frame numbers start over after `recorder.clear()`).
   */
  public offsetOf(frame: number): number {
    return this.ring.offsetOf(frame);
  }

  /**
   * Writes a held frame's game time to `out[o]` and its recorded dt to `out[o + 1]`; false (and
   * `out` untouched) when the frame is not held. For per-tick callers: it returns no double, so
   * nothing is boxed when V8 does not inline the call (`timeOf` and `dtOf` return one).
   *
   * @example
   * const timing = new Float64Array(2);
   * if (reader.timingInto(frame | 0, timing, 0)) elapsed += timing[1];
   */
  public timingInto(frame: number, out: Float64Array, o: number): boolean {
    const at = this.ring.offsetOf(frame);
    if (at < 0) return false;
    out[o] = this.ring.f64[(at + H_TIME) >>> 1];
    out[o + 1] = this.ring.f32[at + H_DT];
    return true;
  }

  /** Game time of a held frame (NaN when not held), without decoding anything else. */
  public timeOf(frame: number): number {
    const at = this.ring.offsetOf(frame);
    return at < 0 ? NaN : this.ring.f64[(at + H_TIME) >>> 1];
  }

  /** Recorded dt of a held frame (NaN when not held). */
  public dtOf(frame: number): number {
    const at = this.ring.offsetOf(frame);
    return at < 0 ? NaN : this.ring.f32[at + H_DT];
  }

  /** Over-budget channel bits of a held frame (0 when not held). */
  public overBudgetOf(frame: number): number {
    const at = this.ring.offsetOf(frame);
    return at < 0 ? 0 : this.ring.u32[at + H_OVER_BUDGET];
  }

  /**
   * Bytes a held frame takes in the ring (its header and every section; 0 when not held), without
   * decoding anything: what a timeline shows as the recorder's per-frame cost.
   */
  public bytesOf(frame: number): number {
    const at = this.ring.offsetOf(frame);
    return at < 0 ? 0 : this.ring.u32[at + H_TOTAL_WORDS] * 4;
  }

  /** Entity count of a held frame (0 when not held). */
  public entityCountOf(frame: number): number {
    const at = this.ring.offsetOf(frame);
    return at < 0 ? 0 : this.ring.u32[at + H_ENTITY_COUNT];
  }

  /** Decodes a frame's header; false when the frame is not held. */
  public readHeader(frame: number, out: FrameHeader): boolean {
    const at = this.ring.offsetOf(frame);
    if (at < 0) return false;
    const u = this.ring.u32;
    const f = this.ring.f32;
    out.frame = u[at + H_FRAME];
    out.time = this.ring.f64[(at + H_TIME) >>> 1];
    out.dt = f[at + H_DT];
    out.overBudget = u[at + H_OVER_BUDGET];
    out.droppedPrimitives = u[at + H_DROPPED_PRIMS];
    out.droppedTextBytes = u[at + H_DROPPED_TEXT];
    out.droppedEntities = u[at + H_DROPPED_ENTITIES];
    out.sanitized = u[at + H_SANITIZED];
    out.entityCount = u[at + H_ENTITY_COUNT];
    out.primitiveCount = u[at + H_PRIM_COUNT];
    out.eventCount = u[at + H_EVENT_COUNT];
    const flags = u[at + H_FLAGS];
    out.truncated = (flags & FRAME_TRUNCATED) !== 0;
    out.hasCamera = (flags & FRAME_HAS_CAMERA) !== 0;
    out.fieldsOverBudget = (flags & FRAME_FIELDS_OVER_BUDGET) !== 0;
    const c = out.camera;
    c[0] = f[at + H_CAM_X];
    c[1] = f[at + H_CAM_Y];
    c[2] = f[at + H_CAM_Z];
    decodeQuatAt(u, at + H_CAM_ROT, camScratch, 0);
    c[3] = camScratch[0];
    c[4] = camScratch[1];
    c[5] = camScratch[2];
    c[6] = camScratch[3];
    c[7] = f[at + H_CAM_ZOOM];
    return true;
  }

  /**
   * Decodes a frame's entities (and, with `withBones`, their bones) into `out`. False when the
   * frame is not held.
   */
  public readEntities(frame: number, out: EntityBuffer, withBones = true): boolean {
    if (!this.readHandles(frame, out)) return false;
    const at = this.ring.offsetOf(frame);
    const u = this.ring.u32;
    const f = this.ring.f32;
    const n = out.count;
    const pBase = at + HEADER_WORDS + n;
    const rBase = pBase + n * 3;
    const pos = out.positions;
    for (let i = 0; i < n * 3; i++) pos[i] = f[pBase + i];
    const rot = out.rotations;
    for (let i = 0; i < n; i++) decodeQuatAt(u, rBase + i, rot, i * 4);
    const bs = out.boneStart;
    for (let i = 0; i < n; i++) bs[i] = -1;
    out.boneTotal = 0;
    out.hasDisplay = false;
    if (u[at + H_DISPLAY_WORDS] > 0) this.readDisplay(at, out);
    const boneWords = u[at + H_BONE_WORDS];
    if (!withBones || boneWords === 0) return true;
    // Count bones first, so the arrays grow at most once.
    const bBase = rBase + n;
    const bEnd = bBase + boneWords;
    let total = 0;
    for (let w = bBase; w < bEnd; ) {
      const c = u[w] >>> BONE_INDEX_BITS;
      total += c;
      w += 1 + c * 4;
    }
    out.ensureBones(total);
    let b = 0;
    for (let w = bBase; w < bEnd; ) {
      const head = u[w];
      const idx = head & BONE_INDEX_MASK;
      const c = head >>> BONE_INDEX_BITS;
      if (idx < n) {
        bs[idx] = b;
        out.boneCount[idx] = c;
      }
      for (let i = 0; i < c; i++) decodeQuatAt(u, w + 1 + i, out.boneRotations, (b + i) * 4);
      const oBase = w + 1 + c;
      const bo = out.boneOffsets;
      for (let i = 0; i < c * 3; i++) bo[b * 3 + i] = f[oBase + i];
      b += c;
      w += 1 + c * 4;
    }
    out.boneTotal = b;
    return true;
  }

  /** Decodes the display section of the frame at word `at` into `out`'s display columns. */
  private readDisplay(at: number, out: EntityBuffer): void {
    const u = this.ring.u32;
    const f = this.ring.f32;
    const n = out.count;
    out.ensureDisplay(n);
    out.hasDisplay = true;
    const d = out.display;
    for (let i = 0; i < n; i++) d[i] = 0;
    const start =
      at + HEADER_WORDS + n * 5 + u[at + H_BONE_WORDS] + u[at + H_PRIM_WORDS] + u[at + H_EVENT_COUNT] * EVENT_WORDS;
    const end = start + u[at + H_DISPLAY_WORDS];
    for (let w = start; w < end; w += DISPLAY_WORDS) {
      const head = u[w];
      const i = head & DISPLAY_INDEX_MASK;
      if (i >= n) continue;
      d[i] = DISPLAY_RECORDED | ((head & DISPLAY_VISIBLE) !== 0 ? DISPLAY_SHOWN : 0);
      out.scales[i * 2] = f[w + 1];
      out.scales[i * 2 + 1] = f[w + 2];
      const packed = u[w + 3];
      out.alphas[i] = (packed & 0xffff) / 65535;
      const tex = packed >>> 16;
      out.textures[i] = tex === NO_TEXTURE ? -1 : tex;
    }
  }

  /**
   * Decodes only the handle and display flags of a frame's entities into `out` (`count`, `handles`,
   * `flags`; positions, rotations and bones are left as they were). False when the frame is not
   * held. What a scan of who is present needs, at a fifth of the words of `readEntities`.
   */
  public readHandles(frame: number, out: EntityBuffer): boolean {
    const at = this.ring.offsetOf(frame);
    if (at < 0) return false;
    const u = this.ring.u32;
    const n = u[at + H_ENTITY_COUNT];
    out.ensure(n);
    out.count = n;
    const base = at + HEADER_WORDS;
    const handles = out.handles;
    const flags = out.flags;
    for (let i = 0; i < n; i++) {
      const w = u[base + i];
      handles[i] = w & HANDLE_MASK;
      flags[i] = w >>> HANDLE_BITS;
    }
    return true;
  }

  /**
   * Decodes a frame's debug primitives whose channel bit is set in `mask` into `out`. False when
   * the frame is not held.
   */
  public readPrimitives(frame: number, mask: number, out: PrimitiveBuffer): boolean {
    const at = this.ring.offsetOf(frame);
    if (at < 0) return false;
    const u = this.ring.u32;
    const n = u[at + H_ENTITY_COUNT];
    const start = at + HEADER_WORDS + n * 5 + u[at + H_BONE_WORDS];
    decodePrimitives(
      u,
      this.ring.f32,
      this.ring.u8,
      start,
      start + u[at + H_PRIM_WORDS],
      u[at + H_PRIM_COUNT],
      mask,
      out,
    );
    return true;
  }

  /** Decodes a frame's events into `out`. False when the frame is not held. */
  public readEvents(frame: number, out: EventBuffer): boolean {
    const at = this.ring.offsetOf(frame);
    if (at < 0) return false;
    const u = this.ring.u32;
    const f = this.ring.f32;
    const n = u[at + H_ENTITY_COUNT];
    const count = u[at + H_EVENT_COUNT];
    const base = at + HEADER_WORDS + n * 5 + u[at + H_BONE_WORDS] + u[at + H_PRIM_WORDS];
    out.ensure(count);
    out.count = count;
    for (let i = 0; i < count; i++) {
      const w = base + i * EVENT_WORDS;
      out.kinds[i] = u[w];
      out.subjects[i] = u[w + 1];
      out.data[i * 4] = f[w + 2];
      out.data[i * 4 + 1] = f[w + 3];
      out.data[i * 4 + 2] = f[w + 4];
      out.data[i * 4 + 3] = f[w + 5];
    }
    return true;
  }

  /**
   * Index of `handle` in frame `frame`, or -1. `hint` is where to look first (entities usually keep
   * their index from one frame to the next), so a trail costs O(1) per frame in the common case.
   */
  public indexOf(frame: number, handle: number, hint = -1): number {
    const at = this.ring.offsetOf(frame);
    if (at < 0) return -1;
    const u = this.ring.u32;
    const n = u[at + H_ENTITY_COUNT];
    const base = at + HEADER_WORDS;
    if (hint >= 0 && hint < n && (u[base + hint] & HANDLE_MASK) === handle) return hint;
    for (let i = 0; i < n; i++) if ((u[base + i] & HANDLE_MASK) === handle) return i;
    return -1;
  }

  /** Writes the position of entity `index` of `frame` to `out[o..o+2]`. */
  public positionAt(frame: number, index: number, out: Float32Array | Float64Array, o: number): boolean {
    const at = this.ring.offsetOf(frame);
    if (at < 0) return false;
    const n = this.ring.u32[at + H_ENTITY_COUNT];
    if (index < 0 || index >= n) return false;
    const p = at + HEADER_WORDS + n + index * 3;
    out[o] = this.ring.f32[p];
    out[o + 1] = this.ring.f32[p + 1];
    out[o + 2] = this.ring.f32[p + 2];
    return true;
  }

  /** Display flags of entity `index` of `frame` (0 when absent). */
  public flagsAt(frame: number, index: number): number {
    const at = this.ring.offsetOf(frame);
    if (at < 0) return 0;
    const n = this.ring.u32[at + H_ENTITY_COUNT];
    if (index < 0 || index >= n) return 0;
    return this.ring.u32[at + HEADER_WORDS + index] >>> HANDLE_BITS;
  }
}

/**
 * Decodes primitive records in `u32[start, end)` into `out`, keeping channels set in `mask`. Shared
 * by frames and static layers. Records with an unknown type stop the walk (the data is corrupt).
 *
 * @advanced Exported by `rewindable/format` only.
 */
export function decodePrimitives(
  u: Uint32Array,
  f: Float32Array,
  u8: Uint8Array,
  start: number,
  end: number,
  countHint: number,
  mask: number,
  out: PrimitiveBuffer,
): void {
  out.ensure(countHint);
  let count = 0;
  let textBytes = 0;
  for (let w = start; w < end; ) {
    const head = u[w];
    const type = head & 7;
    if (type >= PRIM_TYPE_COUNT) break;
    const channel = (head >>> 3) & 31;
    // Math.ceil, not (len + 3) >>> 2: a corrupt length near 2^32 must not wrap around to a short record.
    const words = type === PRIM_TEXT ? PRIM_WORDS[PRIM_TEXT] + Math.ceil(u[w + 4] / 4) : PRIM_WORDS[type];
    if (w + words > end) break;
    if ((mask & (1 << channel)) !== 0) {
      if (count >= out.types.length) out.ensure(count + 1);
      out.types[count] = type;
      out.channels[count] = channel;
      out.colors[count] = head >>> 8;
      const d = count * PRIM_FLOATS;
      const nf = type === PRIM_TEXT ? 3 : words - 1;
      for (let i = 0; i < nf; i++) out.data[d + i] = f[w + 1 + i];
      if (type === PRIM_TEXT) {
        const len = u[w + 4];
        out.ensureTextBytes(textBytes + len);
        const src = (w + 5) * 4;
        for (let i = 0; i < len; i++) out.textBytes[textBytes + i] = u8[src + i];
        out.textStart[count] = textBytes;
        out.textLength[count] = len;
        textBytes += len;
      } else {
        out.textStart[count] = 0;
        out.textLength[count] = 0;
      }
      count++;
    }
    w += words;
  }
  out.count = count;
  out.textByteCount = textBytes;
}
