import type { DebugDraw } from '../draw/DebugDraw';
import {
  PRIM_AABB,
  PRIM_ARROW,
  PRIM_LINE,
  PRIM_POINT,
  PRIM_SPHERE,
  PRIM_TEXT,
  PRIM_WORDS,
  textRecordWords,
} from '../format/layout';
import type { ChannelRegistry } from '../store/ChannelRegistry';
import type { RecorderStats } from './RecorderStats';
import type { WarnOnce } from '../validate/WarnOnce';

/** Options of the debug-draw half of the recorder. */
export interface DrawRecorderOptions {
  /** Text bytes stored per frame over all channels; more is dropped and the channel flagged. */
  textBudgetBytes: number;
  /** Texts of one channel whose anchors lie within this distance merge into one paragraph. */
  paragraphRadius: number;
  /** Most paragraphs per frame. */
  maxParagraphs: number;
  /** When false, no budget applies (used for static layers, which are recorded once). */
  budgeted: boolean;
}

/**
 * Float32 rounding: a coordinate is valid when its float32 is finite (the rule `isFiniteF32` of
 * src/core/validate/rules.ts, written inline: no double is passed to a call).
 */
const fr = Math.fround;

/** Encodes one character as Latin-1, or '?' (63) when it has no Latin-1 form. */
function latin1(code: number): number {
  return code < 256 ? code : 63;
}

/**
 * The recording implementation of `DebugDraw`: each call becomes one compact record in a staging
 * buffer, under a per-channel primitive budget and a per-frame text budget. What exceeds a budget is
 * dropped, counted, and the channel's over-budget bit is set; spam never grows memory or throws.
 *
 * Texts are merged into paragraphs (one anchor, lines joined by '\n') and written by `flushText`.
 *
 * Size: just over 450 lines: each primitive method repeats the validity checks inline on purpose
 * (no double passed to a helper call, so nothing is boxed whatever V8 inlines).
 */
export class DrawRecorder implements DebugDraw {
  /** Staged primitive words of the current frame; `words` and `floats` alias one buffer. */
  public words: Uint32Array;
  public floats: Float32Array;
  /** Words used in the staging buffer. */
  public wordCount = 0;
  /** Primitive records staged. */
  public primCount = 0;
  /** Bit per channel that ran over its budget this frame. */
  public overBudget = 0;
  /** Primitives dropped this frame (over budget). */
  public droppedPrims = 0;
  /** Text bytes dropped this frame (over budget). */
  public droppedTextBytes = 0;
  /** Primitives dropped this frame as invalid (NaN/Infinity or unknown channel). */
  public invalidPrims = 0;
  /** Whether calls are accepted (the recorder opens this between begin/end frame). */
  public open = false;

  private readonly channelCounts = new Int32Array(32);
  private readonly textBytes: Uint8Array;
  private textUsed = 0;
  private paraCount = 0;
  private readonly paraX: Float32Array;
  private readonly paraY: Float32Array;
  private readonly paraZ: Float32Array;
  private readonly paraChannel: Uint8Array;
  private readonly paraColor: Uint32Array;
  private readonly paraLength: Int32Array;
  private readonly paraFirst: Int32Array;
  private readonly paraLast: Int32Array;
  private readonly fragStart: Int32Array;
  private readonly fragLength: Int32Array;
  private readonly fragNext: Int32Array;
  private fragCount = 0;
  private readonly radius2: number;

  public constructor(
    private readonly channels: ChannelRegistry,
    private readonly stats: RecorderStats,
    private readonly options: DrawRecorderOptions,
    private readonly warnings: WarnOnce,
  ) {
    this.words = new Uint32Array(0);
    this.floats = new Float32Array(this.words.buffer);
    this.resize();
    channels.onChange(() => this.resize());
    const maxP = Math.max(1, options.maxParagraphs | 0);
    this.textBytes = new Uint8Array(Math.max(0, options.textBudgetBytes | 0));
    this.paraX = new Float32Array(maxP);
    this.paraY = new Float32Array(maxP);
    this.paraZ = new Float32Array(maxP);
    this.paraChannel = new Uint8Array(maxP);
    this.paraColor = new Uint32Array(maxP);
    this.paraLength = new Int32Array(maxP);
    this.paraFirst = new Int32Array(maxP);
    this.paraLast = new Int32Array(maxP);
    // A fragment holds at least one byte, so there are never more fragments than budget bytes.
    const maxFrags = Math.max(1, Math.min(this.textBytes.length, 65536));
    this.fragStart = new Int32Array(maxFrags);
    this.fragLength = new Int32Array(maxFrags);
    this.fragNext = new Int32Array(maxFrags);
    this.radius2 = options.paragraphRadius * options.paragraphRadius;
  }

  /** Most words one frame's primitives can take (budgets plus all paragraphs). */
  public get capacityWords(): number {
    return this.words.length;
  }

  /** Staging sized for the budgets; called at construction and when channels change, never per frame. */
  private resize(): void {
    const budgetWords = this.options.budgeted ? this.channels.totalBudget() * 8 : 1 << 16;
    const textWords = this.options.budgeted
      ? Math.max(1, this.options.maxParagraphs) * PRIM_WORDS[PRIM_TEXT] +
        ((this.options.textBudgetBytes + 3) >>> 2) +
        Math.max(1, this.options.maxParagraphs)
      : 0;
    const need = budgetWords + textWords;
    if (need <= this.words.length) return;
    const next = new Uint32Array(need);
    next.set(this.words.subarray(0, this.wordCount));
    this.words = next;
    this.floats = new Float32Array(next.buffer);
  }

  /** Starts a new frame's staging. */
  public reset(): void {
    this.wordCount = 0;
    this.primCount = 0;
    this.overBudget = 0;
    this.droppedPrims = 0;
    this.droppedTextBytes = 0;
    this.invalidPrims = 0;
    this.textUsed = 0;
    this.paraCount = 0;
    this.fragCount = 0;
    this.channelCounts.fill(0);
  }

  /**
   * Admits one primitive of `channel` needing `words` words, or counts why not. Returns the word
   * index to write at, or -1.
   */
  private admit(channel: number, type: number, color: number, words: number): number {
    if (!this.open) {
      this.stats.callsOutsideFrame++;
      this.warnings.warn('outside', 'rewindable: debug draw called outside beginFrame/endFrame; the call was ignored');
      return -1;
    }
    if (!(channel >= 0 && channel < this.channels.count && (channel | 0) === channel)) {
      this.stats.unknownChannels++;
      this.invalidPrims++;
      if (!this.warnings.has('channel'))
        this.warnings.warn(
          'channel',
          `rewindable: debug draw on unknown channel ${String(channel)}; the primitive was dropped`,
        );
      return -1;
    }
    if (this.options.budgeted && this.channelCounts[channel] >= this.channels.budgets[channel]) {
      this.overBudget |= 1 << channel;
      this.droppedPrims++;
      this.stats.primitivesOverBudget++;
      return -1;
    }
    if (this.wordCount + words > this.words.length) {
      if (this.options.budgeted) {
        this.overBudget |= 1 << channel;
        this.droppedPrims++;
        this.stats.primitivesOverBudget++;
        return -1;
      }
      this.grow(words);
    }
    this.channelCounts[channel]++;
    const at = this.wordCount;
    this.words[at] = type | (channel << 3) | ((color & 0xffffff) << 8);
    this.wordCount += words;
    this.primCount++;
    return at + 1;
  }

  /** Unbudgeted writers (static layers) grow; budgeted ones never do. */
  private grow(words: number): void {
    const next = new Uint32Array(Math.max(this.words.length * 2, this.wordCount + words));
    next.set(this.words);
    this.words = next;
    this.floats = new Float32Array(next.buffer);
  }

  private invalid(): void {
    this.invalidPrims++;
    this.stats.invalidPrimitives++;
  }

  public point(channel: number, x: number, y: number, z: number, size: number, color: number): void {
    if (fr(x) - fr(x) + fr(y) - fr(y) + fr(z) - fr(z) + fr(size) - fr(size) !== 0) return this.invalid();
    const at = this.admit(channel, PRIM_POINT, color, 5);
    if (at < 0) return;
    const f = this.floats;
    f[at] = x;
    f[at + 1] = y;
    f[at + 2] = z;
    f[at + 3] = size;
  }

  public line(
    channel: number,
    x1: number,
    y1: number,
    z1: number,
    x2: number,
    y2: number,
    z2: number,
    color: number,
  ): void {
    if (fr(x1) - fr(x1) + fr(y1) - fr(y1) + fr(z1) - fr(z1) + fr(x2) - fr(x2) + fr(y2) - fr(y2) + fr(z2) - fr(z2) !== 0)
      return this.invalid();
    const at = this.admit(channel, PRIM_LINE, color, 7);
    if (at < 0) return;
    const f = this.floats;
    f[at] = x1;
    f[at + 1] = y1;
    f[at + 2] = z1;
    f[at + 3] = x2;
    f[at + 4] = y2;
    f[at + 5] = z2;
  }

  public arrow(
    channel: number,
    x1: number,
    y1: number,
    z1: number,
    x2: number,
    y2: number,
    z2: number,
    headSize: number,
    color: number,
  ): void {
    if (
      fr(x1) -
        fr(x1) +
        fr(y1) -
        fr(y1) +
        fr(z1) -
        fr(z1) +
        fr(x2) -
        fr(x2) +
        fr(y2) -
        fr(y2) +
        fr(z2) -
        fr(z2) +
        fr(headSize) -
        fr(headSize) !==
      0
    )
      return this.invalid();
    const at = this.admit(channel, PRIM_ARROW, color, 8);
    if (at < 0) return;
    const f = this.floats;
    f[at] = x1;
    f[at + 1] = y1;
    f[at + 2] = z1;
    f[at + 3] = x2;
    f[at + 4] = y2;
    f[at + 5] = z2;
    f[at + 6] = headSize;
  }

  public sphere(channel: number, x: number, y: number, z: number, radius: number, color: number): void {
    if (fr(x) - fr(x) + fr(y) - fr(y) + fr(z) - fr(z) + fr(radius) - fr(radius) !== 0) return this.invalid();
    const at = this.admit(channel, PRIM_SPHERE, color, 5);
    if (at < 0) return;
    const f = this.floats;
    f[at] = x;
    f[at + 1] = y;
    f[at + 2] = z;
    f[at + 3] = radius;
  }

  public aabb(
    channel: number,
    minX: number,
    minY: number,
    minZ: number,
    maxX: number,
    maxY: number,
    maxZ: number,
    color: number,
  ): void {
    if (
      fr(minX) -
        fr(minX) +
        fr(minY) -
        fr(minY) +
        fr(minZ) -
        fr(minZ) +
        fr(maxX) -
        fr(maxX) +
        fr(maxY) -
        fr(maxY) +
        fr(maxZ) -
        fr(maxZ) !==
      0
    )
      return this.invalid();
    const at = this.admit(channel, PRIM_AABB, color, 7);
    if (at < 0) return;
    const f = this.floats;
    f[at] = minX;
    f[at + 1] = minY;
    f[at + 2] = minZ;
    f[at + 3] = maxX;
    f[at + 4] = maxY;
    f[at + 5] = maxZ;
  }

  public text(channel: number, x: number, y: number, z: number, text: string, color: number): void {
    if (!this.open) {
      this.stats.callsOutsideFrame++;
      this.warnings.warn('outside', 'rewindable: debug draw called outside beginFrame/endFrame; the call was ignored');
      return;
    }
    if (!(channel >= 0 && channel < this.channels.count && (channel | 0) === channel)) {
      this.stats.unknownChannels++;
      this.invalidPrims++;
      if (!this.warnings.has('channel'))
        this.warnings.warn(
          'channel',
          `rewindable: debug draw on unknown channel ${String(channel)}; the text was dropped`,
        );
      return;
    }
    if (fr(x) - fr(x) + fr(y) - fr(y) + fr(z) - fr(z) !== 0 || typeof text !== 'string') return this.invalid();
    const len = text.length;
    if (len === 0) return;
    // Find a paragraph of this channel within the merge radius.
    let p = -1;
    for (let i = 0; i < this.paraCount; i++) {
      if (this.paraChannel[i] !== channel) continue;
      const dx = this.paraX[i] - x,
        dy = this.paraY[i] - y,
        dz = this.paraZ[i] - z;
      if (dx * dx + dy * dy + dz * dz <= this.radius2) {
        p = i;
        break;
      }
    }
    const need = p >= 0 ? len + 1 : len; // a merged line costs its '\n'
    const budgeted = this.options.budgeted;
    if (
      (budgeted && this.textUsed + need > this.textBytes.length) ||
      (p < 0 && this.paraCount >= this.paraX.length) ||
      this.fragCount >= this.fragStart.length
    ) {
      if (!budgeted) return this.warnTextCapacity(len);
      this.overBudget |= 1 << channel;
      this.droppedTextBytes += len;
      this.stats.textBytesOverBudget += len;
      return;
    }
    if (this.textUsed + need > this.textBytes.length) return this.warnTextCapacity(len);
    // Stage the bytes.
    const start = this.textUsed;
    const bytes = this.textBytes;
    for (let i = 0; i < len; i++) {
      const code = text.charCodeAt(i);
      // A surrogate pair is one character: store a single '?'.
      if (code >= 0xd800 && code <= 0xdbff && i + 1 < len) {
        const next = text.charCodeAt(i + 1);
        if (next >= 0xdc00 && next <= 0xdfff) i++;
      }
      bytes[this.textUsed++] = latin1(code);
    }
    const f = this.fragCount++;
    this.fragStart[f] = start;
    this.fragLength[f] = this.textUsed - start;
    this.fragNext[f] = -1;
    if (p >= 0) {
      this.fragNext[this.paraLast[p]] = f;
      this.paraLast[p] = f;
      this.paraLength[p] += 1 + this.fragLength[f];
      this.textUsed++; // reserve the '\n' in the budget accounting
    } else {
      p = this.paraCount++;
      this.paraX[p] = x;
      this.paraY[p] = y;
      this.paraZ[p] = z;
      this.paraChannel[p] = channel;
      this.paraColor[p] = color & 0xffffff;
      this.paraFirst[p] = f;
      this.paraLast[p] = f;
      this.paraLength[p] = this.fragLength[f];
    }
  }

  private warnTextCapacity(len: number): void {
    this.stats.textBytesOverBudget += len;
    this.warnings.warn('textcap', 'rewindable: text capacity reached; text dropped');
  }

  /** Writes the staged paragraphs as text records after the other primitives. */
  public flushText(): void {
    for (let p = 0; p < this.paraCount; p++) {
      const len = this.paraLength[p];
      const words = textRecordWords(len);
      if (this.wordCount + words > this.words.length) {
        if (this.options.budgeted) {
          this.overBudget |= 1 << this.paraChannel[p];
          this.droppedTextBytes += len;
          continue;
        }
        this.grow(words);
      }
      const at = this.wordCount;
      this.words[at] = PRIM_TEXT | (this.paraChannel[p] << 3) | (this.paraColor[p] << 8);
      this.floats[at + 1] = this.paraX[p];
      this.floats[at + 2] = this.paraY[p];
      this.floats[at + 3] = this.paraZ[p];
      this.words[at + 4] = len;
      // Zero the padded tail, then write bytes through a byte view of the same buffer.
      const byteBase = (at + 5) * 4;
      const padWords = (len + 3) >>> 2;
      for (let w = 0; w < padWords; w++) this.words[at + 5 + w] = 0;
      const out = this.byteView();
      let o = byteBase;
      let first = true;
      for (let fr = this.paraFirst[p]; fr >= 0; fr = this.fragNext[fr]) {
        if (!first) out[o++] = 10;
        first = false;
        const s = this.fragStart[fr];
        const e = s + this.fragLength[fr];
        for (let i = s; i < e; i++) out[o++] = this.textBytes[i];
      }
      this.wordCount += words;
      this.primCount++;
    }
    this.paraCount = 0;
  }

  private bytes: Uint8Array | null = null;
  private byteView(): Uint8Array {
    if (this.bytes === null || this.bytes.buffer !== this.words.buffer) this.bytes = new Uint8Array(this.words.buffer);
    return this.bytes;
  }
}
