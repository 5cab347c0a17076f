import { PRIM_FLOATS } from '../format/layout';

/** `EntityBuffer.display` bit: the row has display state this frame. */
export const DISPLAY_RECORDED = 1;
/** `EntityBuffer.display` bit: the row is visible. */
export const DISPLAY_SHOWN = 2;

/** A decoded frame header, filled by `FrameReader.readHeader` into an object the caller owns. */
export class FrameHeader {
  public frame = 0;
  public time = 0;
  public dt = 0;
  /** Bit `c` set: channel `c` ran over its budget this frame. */
  public overBudget = 0;
  public droppedPrimitives = 0;
  public droppedTextBytes = 0;
  public droppedEntities = 0;
  /** Entities repaired (NaN position, bad quaternion) plus invalid primitives dropped. */
  public sanitized = 0;
  public entityCount = 0;
  public primitiveCount = 0;
  public eventCount = 0;
  public truncated = false;
  public hasCamera = false;
  /** Custom field rows were dropped over the recorder's `fieldBudgetBytes` this frame. */
  public fieldsOverBudget = false;
  /** Camera position x, y, z, rotation x, y, z, w, zoom. */
  public readonly camera = new Float32Array(8);
}

/**
 * Decoded entities of one frame in flat arrays with a stride (positions 3, rotations 4, bone
 * rotations 4, bone offsets 3), one row per entity, owned by the caller and reused: capacity grows
 * only when a frame holds more than ever before. `SampleBuffer` is this with a sample's columns added.
 */
export class EntityBuffer {
  /** Rows in use. */
  public count = 0;
  /** Handles (dense per unique id; see `EntityTable`): a handle names one unique id (id + spawn frame). */
  public handles = new Int32Array(0);
  /** Display flags (`EntityFlags`). */
  public flags = new Uint8Array(0);
  /** x, y, z per row. */
  public positions = new Float32Array(0);
  /** Rotation quaternion x, y, z, w per row (unit length). */
  public rotations = new Float32Array(0);
  /** First bone of row i in `boneRotations`/`boneOffsets` (in bones), or -1 for none. */
  public boneStart = new Int32Array(0);
  /** Bones of each row (0 when `boneStart` is -1). */
  public boneCount = new Uint16Array(0);
  /** Bone slots in use. */
  public boneTotal = 0;
  /** Local bone rotations, x, y, z, w per bone. */
  public boneRotations = new Float32Array(0);
  /** Local bone offsets, x, y, z per bone. */
  public boneOffsets = new Float32Array(0);

  /**
   * Whether any row has 2D display state (`Recorder.display`); the display columns below are
   * meaningful only then (and only grown then: a game without display state pays nothing).
   */
  public hasDisplay = false;
  /** Per row: `DISPLAY_RECORDED` (bit 0) when it has display state, `DISPLAY_SHOWN` (bit 1) when visible. */
  public display = new Uint8Array(0);
  /** Scale x, y per row. */
  public scales = new Float32Array(0);
  /** Alpha in [0, 1] per row. */
  public alphas = new Float32Array(0);
  /** Texture index per row (into the recording's texture names), -1 for none. */
  public textures = new Int32Array(0);

  public constructor(capacity = 0, boneCapacity = 0) {
    this.ensure(capacity);
    this.ensureBones(boneCapacity);
  }

  /** Grows the display columns to hold `n` rows (never shrinks). */
  public ensureDisplay(n: number): void {
    if (n <= this.display.length) return;
    const cap = Math.max(n, this.display.length * 2, 16);
    this.display = growTyped(this.display, new Uint8Array(cap));
    this.scales = growTyped(this.scales, new Float32Array(cap * 2));
    this.alphas = growTyped(this.alphas, new Float32Array(cap));
    this.textures = growTyped(this.textures, new Int32Array(cap));
  }

  /** Grows the per-row arrays to hold `n` rows (never shrinks). */
  public ensure(n: number): void {
    if (n <= this.handles.length) return;
    const cap = Math.max(n, this.handles.length * 2, 16);
    this.handles = growTyped(this.handles, new Int32Array(cap));
    this.flags = growTyped(this.flags, new Uint8Array(cap));
    this.positions = growTyped(this.positions, new Float32Array(cap * 3));
    this.rotations = growTyped(this.rotations, new Float32Array(cap * 4));
    this.boneStart = growTyped(this.boneStart, new Int32Array(cap));
    this.boneCount = growTyped(this.boneCount, new Uint16Array(cap));
    this.growRows(cap);
  }

  /**
   * Grows the per-row columns a subclass adds to `cap` rows; called by `ensure`. A subclass's own
   * fields do not exist yet while this constructor runs, so a subclass calls `super()` with no
   * capacity and `ensure` itself.
   */
  protected growRows(_cap: number): void {}

  /** Grows the bone arrays to hold `n` bones (never shrinks). */
  public ensureBones(n: number): void {
    if (n * 4 <= this.boneRotations.length) return;
    const cap = Math.max(n, (this.boneRotations.length / 4) * 2, 16);
    this.boneRotations = growTyped(this.boneRotations, new Float32Array(cap * 4));
    this.boneOffsets = growTyped(this.boneOffsets, new Float32Array(cap * 3));
  }
}

/** Decoded debug primitives of one frame (filtered by a channel mask), owned by the caller. */
export class PrimitiveBuffer {
  public count = 0;
  /** `PrimitiveType` of each primitive. */
  public types = new Uint8Array(0);
  public channels = new Uint8Array(0);
  /** 0xRRGGBB. */
  public colors = new Uint32Array(0);
  /** `PRIM_FLOATS` floats per primitive, as in the record (text: x, y, z). */
  public data = new Float32Array(0);
  /** For text: start and length of its bytes in `textBytes` (Latin-1). */
  public textStart = new Int32Array(0);
  public textLength = new Int32Array(0);
  public textBytes = new Uint8Array(0);
  public textByteCount = 0;

  public constructor(capacity = 0) {
    this.ensure(capacity);
  }

  public ensure(n: number): void {
    if (n <= this.types.length) return;
    const cap = Math.max(n, this.types.length * 2, 16);
    this.types = growTyped(this.types, new Uint8Array(cap));
    this.channels = growTyped(this.channels, new Uint8Array(cap));
    this.colors = growTyped(this.colors, new Uint32Array(cap));
    this.data = growTyped(this.data, new Float32Array(cap * PRIM_FLOATS));
    this.textStart = growTyped(this.textStart, new Int32Array(cap));
    this.textLength = growTyped(this.textLength, new Int32Array(cap));
  }

  public ensureTextBytes(n: number): void {
    if (n <= this.textBytes.length) return;
    this.textBytes = growTyped(this.textBytes, new Uint8Array(Math.max(n, this.textBytes.length * 2, 256)));
  }

  /** The text of primitive `i` as a string (allocates; call when the viewed frame changes). */
  public text(i: number): string {
    const s = this.textStart[i];
    const e = s + this.textLength[i];
    let out = '';
    const b = this.textBytes;
    for (let j = s; j < e; j += 4096) {
      out += String.fromCharCode.apply(null, b.subarray(j, Math.min(e, j + 4096)) as unknown as number[]);
    }
    return out;
  }
}

/** Decoded events (markers) of one frame, owned by the caller. */
export class EventBuffer {
  public count = 0;
  public kinds = new Uint32Array(0);
  /** Entity id, or `NO_SUBJECT`. */
  public subjects = new Uint32Array(0);
  /** x, y, z, value per event. */
  public data = new Float32Array(0);

  public ensure(n: number): void {
    if (n <= this.kinds.length) return;
    const cap = Math.max(n, this.kinds.length * 2, 16);
    this.kinds = growTyped(this.kinds, new Uint32Array(cap));
    this.subjects = growTyped(this.subjects, new Uint32Array(cap));
    this.data = growTyped(this.data, new Float32Array(cap * 4));
  }
}

type Typed = Int32Array | Uint8Array | Uint16Array | Uint32Array | Float32Array;

/**
 * Copies `old` into the larger `next` of the same element type and returns `next`: how the
 * caller-owned read buffers grow (rarely, never in steady state).
 *
 * @example
 * this.handles = growTyped(this.handles, new Int32Array(capacity * 2));
 *
 * @internal Not exported by any entry.
 */
export function growTyped<T extends Typed>(old: T, next: T): T {
  (next as Uint8Array).set(old as Uint8Array);
  return next;
}
