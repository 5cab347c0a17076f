/**
 * A fixed byte arena holding variable-length frames in a circle, plus an index of at most
 * `maxFrames` of them. Frame numbers are contiguous: frame `f` sits at index slot
 * `(oldestSlot + f - oldestFrame) % maxFrames`, so finding a frame is O(1).
 *
 * When the next frame would exceed the arena or the index, the oldest frames are evicted ("out of
 * film"): memory is bounded and allocated once.
 *
 * @example
 * const ring = new FrameRing(16 << 20, 900);
 * const at = ring.reserve(words);      // evicts what it must
 * ring.u32[at] = ...;                  // write the frame
 * ring.commit(frameNumber, words);
 *
 * @advanced Exported by `rewindable/format` only.
 */
export class FrameRing {
  /** The buffer holding the arena (the arena may start at `byteOffset` of a larger buffer). */
  public readonly buffer: ArrayBuffer;
  /** Byte offset of the arena in `buffer`; the views below start there, so indices are arena-relative. */
  public readonly byteOffset: number;
  public readonly u32: Uint32Array;
  public readonly f32: Float32Array;
  public readonly f64: Float64Array;
  public readonly u8: Uint8Array;
  /** Arena size in 32-bit words (even). */
  public readonly arenaWords: number;
  /** Index capacity. */
  public readonly maxFrames: number;

  private readonly slotOffset: Uint32Array;
  private readonly slotWords: Uint32Array;
  private oldestSlot = 0;
  private count = 0;
  private firstFrame = 0;
  private writePos = 0;
  private pendingWords = 0;
  private pendingAt = -1;
  private usedWords = 0;

  /** Called with each frame number as it is evicted, oldest first. */
  public onEvict: ((frame: number) => void) | null = null;

  /**
   * `storage`: place the arena at `byteOffset` (a multiple of 8) of an existing buffer holding at least
   * `arenaBytes` from there (the recorder shares one buffer with its WebAssembly kernel); by default
   * the arena gets a buffer of its own.
   */
  public constructor(arenaBytes: number, maxFrames: number, storage?: { buffer: ArrayBuffer; byteOffset: number }) {
    if (!(arenaBytes >= 1024)) throw new RangeError(`rewindable: arenaBytes must be at least 1024 (got ${arenaBytes})`);
    if (!(maxFrames >= 1 && (maxFrames | 0) === maxFrames)) {
      throw new RangeError(`rewindable: maxFrames must be a positive integer (got ${maxFrames})`);
    }
    this.arenaWords = Math.floor(arenaBytes / 8) * 2;
    const bytes = this.arenaWords * 4;
    if (
      storage !== undefined &&
      !(
        storage.byteOffset % 8 === 0 &&
        storage.byteOffset >= 0 &&
        storage.byteOffset + bytes <= storage.buffer.byteLength
      )
    ) {
      throw new RangeError(`rewindable: arena storage at ${storage.byteOffset} cannot hold ${bytes} bytes`);
    }
    this.buffer = storage === undefined ? new ArrayBuffer(bytes) : storage.buffer;
    this.byteOffset = storage === undefined ? 0 : storage.byteOffset;
    this.u32 = new Uint32Array(this.buffer, this.byteOffset, this.arenaWords);
    this.f32 = new Float32Array(this.buffer, this.byteOffset, this.arenaWords);
    this.f64 = new Float64Array(this.buffer, this.byteOffset, this.arenaWords / 2);
    this.u8 = new Uint8Array(this.buffer, this.byteOffset, bytes);
    this.maxFrames = maxFrames;
    this.slotOffset = new Uint32Array(maxFrames);
    this.slotWords = new Uint32Array(maxFrames);
  }

  /** Frames held. */
  public get frameCount(): number {
    return this.count;
  }

  /** The oldest frame number held (meaningless when empty). */
  public get oldestFrame(): number {
    return this.firstFrame;
  }

  /** The newest frame number held, or `oldestFrame - 1` when empty. */
  public get newestFrame(): number {
    return this.firstFrame + this.count - 1;
  }

  /** Words currently occupied by held frames. */
  public get bytesUsed(): number {
    return this.usedWords * 4;
  }

  /** Whether frame `frame` is held. */
  public has(frame: number): boolean {
    return this.count > 0 && frame >= this.firstFrame && frame < this.firstFrame + this.count && (frame | 0) === frame;
  }

  /** Word offset of a held frame in the arena, or -1. */
  public offsetOf(frame: number): number {
    if (!this.has(frame)) return -1;
    return this.slotOffset[(this.oldestSlot + (frame - this.firstFrame)) % this.maxFrames];
  }

  /** Length in words of a held frame, or 0. */
  public wordsOf(frame: number): number {
    if (!this.has(frame)) return 0;
    return this.slotWords[(this.oldestSlot + (frame - this.firstFrame)) % this.maxFrames];
  }

  /**
   * Makes room for a frame of `words` words (rounded up to even), evicting the oldest frames as
   * needed, and returns the word offset to write it at. Returns -1 when the frame is larger than the
   * whole arena (nothing is evicted then).
   */
  public reserve(words: number): number {
    const w = (words + 1) & ~1;
    if (w > this.arenaWords) return -1;
    if (this.count === this.maxFrames) this.evictOldest();
    if (this.writePos + w > this.arenaWords) {
      // Wrap: every frame at or after writePos belongs to the previous lap and is older than all the
      // frames before it, so they go first, then the start of the arena is reused.
      while (this.count > 0 && this.slotOffset[this.oldestSlot] >= this.writePos) this.evictOldest();
      this.writePos = 0;
    }
    while (
      this.count > 0 &&
      this.slotOffset[this.oldestSlot] >= this.writePos &&
      this.slotOffset[this.oldestSlot] < this.writePos + w
    ) {
      this.evictOldest();
    }
    this.pendingAt = this.writePos;
    this.pendingWords = w;
    return this.writePos;
  }

  /**
   * Commits the frame written at the last `reserve`, `words` long (at most what was reserved).
   * `frame` must be `newestFrame + 1` (or anything when the ring is empty); the recorder guarantees
   * this.
   */
  public commit(frame: number, words = this.pendingWords): void {
    if (this.pendingAt < 0) throw new Error('rewindable: FrameRing.commit without reserve');
    // A frame may turn out shorter than reserved (never longer).
    const w = (words + 1) & ~1;
    if (w < this.pendingWords && w >= 2) this.pendingWords = w;
    // Frames are a whole number of 8-byte units: zero the padding word, so that a frame's bytes
    // depend only on what was recorded (not on what the arena held before).
    if (w > words && words >= 1) this.u32[this.pendingAt + words] = 0;
    if (this.count === 0) {
      this.firstFrame = frame;
      this.oldestSlot = 0;
    } else if (frame !== this.firstFrame + this.count) {
      throw new RangeError(`rewindable: frame ${frame} does not follow ${this.newestFrame}`);
    }
    const slot = (this.oldestSlot + this.count) % this.maxFrames;
    this.slotOffset[slot] = this.pendingAt;
    this.slotWords[slot] = this.pendingWords;
    this.count++;
    this.usedWords += this.pendingWords;
    this.writePos = this.pendingAt + this.pendingWords;
    this.pendingAt = -1;
  }

  /** Evicts the oldest frame. */
  public evictOldest(): void {
    if (this.count === 0) return;
    const frame = this.firstFrame;
    this.usedWords -= this.slotWords[this.oldestSlot];
    this.oldestSlot = (this.oldestSlot + 1) % this.maxFrames;
    this.firstFrame++;
    this.count--;
    if (this.count === 0) this.writePos = 0;
    if (this.onEvict !== null) this.onEvict(frame);
  }

  /** Drops every frame (eviction callbacks run for each). */
  public clear(): void {
    while (this.count > 0) this.evictOldest();
    this.writePos = 0;
  }
}
