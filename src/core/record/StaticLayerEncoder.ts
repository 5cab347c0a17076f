import type { DebugDraw } from '../draw/DebugDraw';
import type { ChannelRegistry } from '../store/ChannelRegistry';
import type { PrimitiveEncoder } from '../store/StaticLayers';
import { DrawRecorder } from './DrawRecorder';
import { primitiveChannelMask } from '../format/channelMask';
import type { RecorderStats } from './RecorderStats';
import type { WarnOnce } from '../validate/WarnOnce';

/**
 * The recorder's encoder for `StaticLayers.set`: draws into an unbudgeted `DrawRecorder` (created on
 * first use) and returns a copy of its records, in the same format as a frame's primitives.
 *
 * @example
 * const layers = new StaticLayers(new StaticLayerEncoder(channels, stats, new WarnOnce(console.warn)));
 * layers.set('walls', (draw) => draw.line(Channel.PHYSICS, 0, 0, 0, 10, 0, 0, 0xffffff));
 *
 * @internal The recorder's; not exported by any entry.
 */
export class StaticLayerEncoder implements PrimitiveEncoder {
  private builder: DrawRecorder | null = null;

  public constructor(
    private readonly channels: ChannelRegistry,
    private readonly stats: RecorderStats,
    private readonly warnings: WarnOnce,
  ) {}

  public encode(build: (draw: DebugDraw) => void): { words: Uint32Array; primCount: number } {
    if (this.builder === null) {
      this.builder = new DrawRecorder(
        this.channels,
        this.stats,
        {
          textBudgetBytes: 1 << 16,
          paragraphRadius: 0,
          maxParagraphs: 4096,
          budgeted: false,
        },
        this.warnings,
      );
    }
    const b = this.builder;
    b.reset();
    b.open = true;
    try {
      build(b);
    } finally {
      b.flushText();
      b.open = false;
    }
    const words = b.words.slice(0, b.wordCount);
    // A static layer's channels are in use (a panel lists them).
    this.channels.markUsed(primitiveChannelMask(words, 0, words.length));
    return { words, primCount: b.primCount };
  }
}
