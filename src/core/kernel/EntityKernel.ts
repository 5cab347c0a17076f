import { encodeQuatColumns } from '../math/quat';
import { ENTITY_KERNEL_WASM, FIELD_KERNEL_WASM } from './entityKernelWasm';

/** Options of `EntityKernel`. */
export interface EntityKernelOptions {
  /** Use the WebAssembly SIMD kernel when the platform allows it. */
  wasm: boolean;
}

/** Defaults of `EntityKernelOptions`. */
export const DEFAULT_ENTITY_KERNEL_OPTIONS: Readonly<EntityKernelOptions> = Object.freeze({ wasm: true });

/** The WebAssembly kernel's exports: (column address, column stride, n, output address) → count. */
type KernelFn = (columns: number, stride: number, n: number, out: number) => number;

/**
 * The recorder's match of entries to open lives (`EntityResolver.resolve`) in WebAssembly:
 * `(i, end, dropped, outByte, headerByte) → the first entry not taken`. `headerByte` is the address
 * of the resolver's header (see `match` in entityKernel.wat): the addresses of the staged ids and
 * flags, the previous frame's ids, the room for new lives, this frame's ids and handles, the births
 * list, the hash of open lives (`OpenLives`), its mask and shift, the id bound, the previous frame's
 * count, its handles, its `taken` bytes and the births listed. From entry `i` up to `end`, while the
 * entry continues a life of the previous frame (at index j there): marks `taken[j]`, writes the
 * handle and id to this frame's lists at `i - dropped`, and `handle | flags[i] << 24` to the int32
 * at `outByte + 4i`; an entry with no open life opens one while there is room (the hash slot and
 * the id; the entry goes to the births list, its handle is the caller's to allocate).
 */
export type MatchFn = (i: number, end: number, dropped: number, outByte: number, headerByte: number) => number;

/**
 * The despawns queued before a frame's first entry (`EntityResolver.resolve`) in WebAssembly:
 * `(k, n, headerByte) → the first despawn not taken`. The ids are in the births list of the
 * resolver's header at [k, n) (see `despawn` in entityKernel.wat). While an id has an open life,
 * the life leaves the hash, its entry of the previous frame is marked despawned, and its handle
 * replaces the id in the list; stops at an id with no open life or out of range.
 */
export type DespawnFn = (k: number, n: number, headerByte: number) => number;

/**
 * The conversion of one field of the recorder's staged rows of custom fields into a frame's field
 * block, four rows a step, repairing invalid values: `(type, src, stride, n, dst, lo, hi, marks) →
 * values repaired` (see `field` in fieldKernel.wat; the JavaScript reference is `writeRawBlock` in
 * src/core/fields/fieldBlocks.ts). Addresses are byte offsets in the kernel's buffer; `type` is a
 * `FIELD_*` code (a vec3 is three f32 calls); integers are valid in `[lo, hi]`; the byte at
 * `marks + row` is set to 1 for each row with a repaired value. `FieldRawPool` holds it as `convert`.
 */
export type FieldFn = (
  type: number,
  src: number,
  stride: number,
  n: number,
  dst: number,
  lo: number,
  hi: number,
  marks: number,
) => number;

const WASM_PAGE = 65536;
/** Exponent bits of a float32: all ones for NaN and ±Infinity. */
const EXPONENT = 0x7f800000;
/** Staging columns, in memory order. */
const COLUMNS = 7;

/**
 * The compiled modules (the entity kernel's and the field kernel's, two modules so that each stays
 * under the 4 KB that browsers compile synchronously on the main thread), compiled once per
 * process, and the `WebAssembly` namespace that compiled them.
 */
let cachedModule: WebAssembly.Module | undefined;
let cachedFieldModule: WebAssembly.Module | undefined;
let cachedFor: unknown;

/**
 * The per-entity number crunching of the recorder: encodes quaternions (smallest-three, 32 bits, the
 * `encodeQuatColumns` codec of src/core/math/quat.ts) and packs positions, from staging columns
 * straight into a region of the same buffer that the caller owns (the recorder's arena). It runs a
 * WebAssembly SIMD module (4 entities per vector) when the platform allows it, and otherwise the
 * JavaScript reference; both write the same bits. Neither allocates per call.
 *
 * Memory layout of `buffer`: the columns x, y, z, qx, qy, qz, qw (float32, each padded to a
 * multiple of 4 entities, 16-byte aligned), then the caller's region at `extraOffset`. The buffer
 * never grows and never detaches, so views on it stay valid.
 *
 * @example
 * const kernel = new EntityKernel(1000, 1 << 20);
 * kernel.qw[0] = 1; // entity 0: identity rotation, at the origin
 * const region = new Int32Array(kernel.buffer, kernel.extraOffset, 4);
 * const bad = kernel.encodeRotations(1, kernel.extraOffset); // 0; region[0] === QUAT_IDENTITY_BITS
 * kernel.packPositions(1, kernel.extraOffset + 4);           // region[1..3] = x, y, z of entity 0
 *
 * @internal The recorder's; not exported by any entry.
 */
export class EntityKernel {
  /** Most entities per call. */
  public readonly capacity: number;
  /** Which implementation runs: the WebAssembly SIMD module, or the JavaScript reference. */
  public readonly backend: 'wasm-simd' | 'js';
  /**
   * Why the WebAssembly kernel is not used (undefined when it is): disabled by the options, no
   * WebAssembly, no SIMD, compilation refused (a Content-Security-Policy without
   * 'wasm-unsafe-eval') or failed, or the memory could not be allocated.
   */
  public readonly fallbackReason: string | undefined;
  /** The whole memory: staging columns, then the caller's region. Never grows, never detaches. */
  public readonly buffer: ArrayBuffer;
  /** Byte offset of the caller's region (a multiple of 16), `extraBytes` long. */
  public readonly extraOffset: number;
  /** Staging input: positions (float32 views on `buffer`, `capacity` long). */
  public readonly x: Float32Array;
  public readonly y: Float32Array;
  public readonly z: Float32Array;
  /** Staging input: rotations as quaternions (float32 views on `buffer`, `capacity` long; need not be unit). */
  public readonly qx: Float32Array;
  public readonly qy: Float32Array;
  public readonly qz: Float32Array;
  public readonly qw: Float32Array;
  /**
   * The seven staging columns as one view, column k starting at `k · stride`: `Recorder.entity`
   * stages through it, one typed array instead of seven (V8 loads and checks each array it stores
   * to, on every call).
   */
  public readonly columns: Float32Array;
  /** Floats from one staging column to the next (a multiple of 4). */
  public readonly stride: number;

  /** The whole buffer as int32 words (outputs, bit-exact copies). */
  private readonly words: Int32Array;
  /** Bytes between two columns (a multiple of 16). */
  private readonly columnBytes: number;
  /** `buffer.byteLength`, kept as a number: the getter is a call in optimised code. */
  private readonly byteLength: number;
  /**
   * The match of entries to lives in WebAssembly (see `MatchFn`), or null with the JavaScript
   * backend (the recorder then applies the same rules in JavaScript).
   */
  public readonly match: MatchFn | null;
  /** The despawns queued before a frame's entries in WebAssembly (see `DespawnFn`), or null. */
  public readonly despawn: DespawnFn | null;
  /**
   * The conversion of custom fields' staged rows into a frame (see `FieldFn`), or null with the
   * JavaScript backend (the recorder then converts in JavaScript, to the same bytes).
   */
  public readonly field: FieldFn | null;
  private readonly encodeFn: KernelFn | null;
  private readonly packFn: KernelFn | null;

  /**
   * @param capacity Most entities per call (an integer ≥ 0).
   * @param extraBytes Size of the region the caller owns (the recorder's arena), placed after the
   *   staging columns in the same buffer so that the kernel writes straight into it. Allocated once.
   * @throws RangeError when `capacity` or `extraBytes` is not a non-negative integer, or when the
   *   buffer cannot be allocated at all.
   */
  public constructor(capacity: number, extraBytes: number, options?: Partial<EntityKernelOptions>) {
    if (!Number.isSafeInteger(capacity) || capacity < 0) {
      throw new RangeError(`EntityKernel: capacity must be a non-negative integer, got ${capacity}`);
    }
    if (!Number.isSafeInteger(extraBytes) || extraBytes < 0) {
      throw new RangeError(`EntityKernel: extraBytes must be a non-negative integer, got ${extraBytes}`);
    }
    const wasm = options?.wasm ?? DEFAULT_ENTITY_KERNEL_OPTIONS.wasm;
    this.capacity = capacity;
    // Each column holds a whole number of 4-entity vectors (at least one), so the kernel's vector
    // loads of the last, partial vector stay inside the columns.
    const columnBytes = Math.max(16, Math.ceil(capacity / 4) * 16);
    this.columnBytes = columnBytes;
    this.extraOffset = COLUMNS * columnBytes;
    const totalBytes = this.extraOffset + extraBytes;

    let buffer: ArrayBuffer | undefined;
    let encodeFn: KernelFn | null = null;
    let packFn: KernelFn | null = null;
    let matchFn: MatchFn | null = null;
    let despawnFn: DespawnFn | null = null;
    let fieldFn: FieldFn | null = null;
    let reason: string | undefined;
    if (!wasm) {
      reason = 'the WebAssembly kernel is disabled (option wasm: false)';
    } else {
      const wa = (globalThis as { WebAssembly?: typeof WebAssembly }).WebAssembly;
      if (
        typeof wa !== 'object' ||
        wa === null ||
        typeof wa.Module !== 'function' ||
        typeof wa.validate !== 'function'
      ) {
        reason = 'WebAssembly is not available';
      } else if (!safeValidate(wa)) {
        reason = 'WebAssembly SIMD is not supported';
      } else {
        let module: WebAssembly.Module | undefined;
        let fieldModule: WebAssembly.Module | undefined;
        try {
          if (cachedModule === undefined || cachedFor !== wa) {
            cachedModule = new wa.Module(ENTITY_KERNEL_WASM);
            cachedFieldModule = new wa.Module(FIELD_KERNEL_WASM);
            cachedFor = wa;
          }
          module = cachedModule;
          fieldModule = cachedFieldModule;
        } catch (e) {
          reason = `WebAssembly compilation was refused or failed (${describe(e)})`;
        }
        if (module !== undefined && fieldModule !== undefined) {
          let memory: WebAssembly.Memory | undefined;
          try {
            const pages = Math.max(1, Math.ceil(totalBytes / WASM_PAGE));
            memory = new wa.Memory({ initial: pages, maximum: pages });
          } catch (e) {
            reason = `could not allocate ${totalBytes} bytes of WebAssembly memory (${describe(e)})`;
          }
          if (memory !== undefined) {
            try {
              const exports = new wa.Instance(module, { env: { memory } }).exports;
              encodeFn = exports.encode as KernelFn;
              packFn = exports.pack as KernelFn;
              matchFn = typeof exports.match === 'function' ? (exports.match as MatchFn) : null;
              despawnFn = typeof exports.despawn === 'function' ? (exports.despawn as DespawnFn) : null;
              const fieldExports = new wa.Instance(fieldModule, { env: { memory } }).exports;
              fieldFn = typeof fieldExports.field === 'function' ? (fieldExports.field as FieldFn) : null;
              buffer = memory.buffer;
            } catch (e) {
              reason = `WebAssembly instantiation failed (${describe(e)})`;
            }
          }
        }
      }
    }
    if (buffer === undefined) {
      encodeFn = null;
      packFn = null;
      matchFn = null;
      despawnFn = null;
      fieldFn = null;
      // Throws RangeError when even a plain buffer of this size cannot be allocated.
      buffer = new ArrayBuffer(totalBytes);
    }
    this.buffer = buffer;
    this.byteLength = buffer.byteLength;
    this.encodeFn = encodeFn;
    this.packFn = packFn;
    this.match = matchFn;
    this.despawn = despawnFn;
    this.field = fieldFn;
    this.backend = encodeFn === null ? 'js' : 'wasm-simd';
    this.fallbackReason = reason;
    this.words = new Int32Array(buffer, 0, this.byteLength >>> 2);
    const column = (k: number): Float32Array => new Float32Array(buffer, k * columnBytes, capacity);
    this.x = column(0);
    this.y = column(1);
    this.z = column(2);
    this.qx = column(3);
    this.qy = column(4);
    this.qz = column(5);
    this.qw = column(6);
    this.stride = columnBytes >>> 2;
    this.columns = new Float32Array(buffer, 0, COLUMNS * this.stride);
  }

  /**
   * Encodes the rotations `qx..qw[0..n)` into `n` int32 codes (see `encodeQuat`) at byte offset
   * `outByte` of `buffer`. Writes exactly `n` words, nothing past `outByte + 4n`. Returns how many
   * were invalid (zero, NaN, infinite, float32 squared norm outside (1e-20, 1e20)): the identity
   * was written for them.
   *
   * @throws RangeError when `n` is not an integer in [0, capacity], or `outByte` is not 4-aligned or
   *   the output does not fit in `buffer`.
   * @example
   * kernel.qx[0] = 0; kernel.qy[0] = 0; kernel.qz[0] = Math.sin(0.5); kernel.qw[0] = Math.cos(0.5);
   * kernel.encodeRotations(1, kernel.extraOffset); // 0 invalid
   */
  public encodeRotations(n: number, outByte: number): number {
    this.checkCall(n, outByte, 4);
    const encode = this.encodeFn;
    if (encode !== null) return encode(this.columnBytes * 3, this.columnBytes, n, outByte);
    return encodeQuatColumns(this.qx, this.qy, this.qz, this.qw, n, this.words, outByte >>> 2);
  }

  /**
   * Writes the positions `x, y, z[0..n)` as `n` xyz triples (float32) at byte offset `outByte` of
   * `buffer`, as bit-exact copies (NaN and ±Infinity are copied as they are). Writes exactly `3n`
   * floats. Returns how many entities have a non-finite coordinate.
   *
   * @throws RangeError when `n` is not an integer in [0, capacity], or `outByte` is not 4-aligned or
   *   the output does not fit in `buffer`.
   * @example
   * kernel.x[0] = 1; kernel.y[0] = 2; kernel.z[0] = 3;
   * kernel.packPositions(1, kernel.extraOffset); // 0; the region starts with 1, 2, 3
   */
  public packPositions(n: number, outByte: number): number {
    this.checkCall(n, outByte, 12);
    const pack = this.packFn;
    if (pack !== null) return pack(0, this.columnBytes, n, outByte);
    const u = this.words;
    const stride = this.columnBytes >>> 2;
    let o = outByte >>> 2;
    let bad = 0;
    for (let i = 0; i < n; i++) {
      const xi = u[i],
        yi = u[stride + i],
        zi = u[2 * stride + i];
      u[o] = xi;
      u[o + 1] = yi;
      u[o + 2] = zi;
      o += 3;
      // Exponent all ones (NaN, ±Infinity) iff adding one exponent step carries into bit 31.
      bad += (((xi & EXPONENT) + 0x800000) | ((yi & EXPONENT) + 0x800000) | ((zi & EXPONENT) + 0x800000)) >>> 31;
    }
    return bad;
  }

  private checkCall(n: number, outByte: number, bytesPerEntity: number): void {
    if ((n | 0) !== n || n < 0 || n > this.capacity) {
      throw new RangeError(`EntityKernel: n must be an integer in [0, ${this.capacity}], got ${n}`);
    }
    if (
      !Number.isSafeInteger(outByte) ||
      outByte < 0 ||
      (outByte & 3) !== 0 ||
      outByte + n * bytesPerEntity > this.byteLength
    ) {
      throw new RangeError(
        `EntityKernel: output at byte ${outByte} (${n * bytesPerEntity} bytes) must be 4-aligned and inside the ${this.byteLength}-byte buffer`,
      );
    }
  }
}

/** `WebAssembly.validate` of the kernel: false when the engine lacks SIMD (or anything it uses). */
function safeValidate(wa: typeof WebAssembly): boolean {
  try {
    return wa.validate(ENTITY_KERNEL_WASM) && wa.validate(FIELD_KERNEL_WASM);
  } catch {
    return false;
  }
}

function describe(e: unknown): string {
  if (e instanceof Error) return `${e.name}: ${e.message}`;
  return String(e);
}
