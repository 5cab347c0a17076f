import type { FieldFn } from '../kernel/EntityKernel';

/** Where a `FieldRawPool` lives: `bytes` bytes at `byteOffset` (a multiple of 8) of `buffer`. */
export interface FieldRawPoolStorage {
  readonly buffer: ArrayBufferLike;
  readonly byteOffset: number;
  readonly bytes: number;
}

/**
 * Where per-entity field rows are staged (`FieldRows.raw`, one float64 a component, and the rows'
 * repair marks `rowBad`): in the
 * recorder's one buffer, next to the arena, so that `endFrame` converts them into the frame with
 * the entity kernel (`convert`, WebAssembly SIMD, four rows a step) instead of a JavaScript loop
 * per field.
 *
 * `take` hands out views of the region in order, never given back (a kind's rows grow by doubling,
 * a few times in a recording's life); once the region is used up, or without a region or a kernel,
 * it returns a `Float64Array` of its own, and rows staged there are converted in JavaScript (the
 * same bytes).
 *
 * Internal to the recorder (its `FieldStage`).
 *
 * @example
 * const pool = new FieldRawPool({ buffer: kernel.buffer, byteOffset, bytes: 1 << 20 }, kernel.field);
 * const raw = pool.take(64 * schema.slots); // the rows of a kind
 * const marks = pool.takeBytes(64);
 * pool.converts(raw, marks, ring.buffer); // true: endFrame converts them with the kernel
 */
export class FieldRawPool {
  /** The kernel's conversion, or null (JavaScript backend, or no region). */
  public readonly convert: FieldFn | null;
  private readonly buffer: ArrayBufferLike | null;
  /** The next free byte of the region, and its end. */
  private next: number;
  private readonly end: number;

  /** Without `storage` or `convert`, every `take` is a `Float64Array` of its own. */
  public constructor(storage?: FieldRawPoolStorage, convert: FieldFn | null = null) {
    const usable = storage !== undefined && convert !== null;
    this.buffer = usable ? storage.buffer : null;
    this.convert = usable ? convert : null;
    this.next = usable ? Math.ceil(storage.byteOffset / 8) * 8 : 0;
    this.end = usable ? storage.byteOffset + storage.bytes : 0;
  }

  /** A zeroed view of `doubles` float64s: in the region while it has room, else an array of its own. */
  public take(doubles: number): Float64Array {
    const bytes = doubles * 8;
    if (this.buffer !== null && this.next + bytes <= this.end) {
      const view = new Float64Array(this.buffer, this.next, doubles);
      view.fill(0);
      this.next += bytes;
      return view;
    }
    return new Float64Array(doubles);
  }

  /** Zeroed bytes (a kind's row marks), in the region while it has room, else an array of their own. */
  public takeBytes(bytes: number): Uint8Array {
    const whole = Math.ceil(bytes / 8) * 8;
    if (this.buffer !== null && this.next + whole <= this.end) {
      const view = new Uint8Array(this.buffer, this.next, bytes);
      view.fill(0);
      this.next += whole;
      return view;
    }
    return new Uint8Array(bytes);
  }

  /**
   * Whether rows staged in `raw`, with their marks in `marks`, are converted by the kernel into a
   * frame held in `target`.
   */
  public converts(raw: Float64Array, marks: Uint8Array, target: ArrayBufferLike): boolean {
    return (
      this.convert !== null && raw.buffer === this.buffer && marks.buffer === this.buffer && target === this.buffer
    );
  }

  /** Bytes of the region for a field budget of `budgetBytes` (the recorder's `fieldBudgetBytes`). */
  public static bytesFor(budgetBytes: number): number {
    // A frame's rows take about twice their stored bytes as float64s (and a byte a row of marks),
    // and doubling leaves as much again behind: four times the budget, at most 16 MB (pages never
    // written cost no memory).
    return Math.ceil(Math.min(Math.max(budgetBytes, 0) * 4, 16 << 20) / 8) * 8;
  }
}
