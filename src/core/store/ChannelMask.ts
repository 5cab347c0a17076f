/**
 * A set of debug channels as a 32-bit mask, after three.js `Layers`: channel `i` is bit `i`.
 *
 * @example
 * const mask = new ChannelMask();   // nothing enabled
 * mask.enable(Channel.AI);
 * mask.toggle(Channel.PHYSICS);
 * mask.test(Channel.AI);            // true
 *
 * @internal The overlay's channel state (`src/pixi/OverlayView.ts`); a game passes masks as plain
 * numbers (`RewindOverlayOptions.channels`, `overlay.setChannelMask`), so no entry exports it.
 */
export class ChannelMask {
  /** The raw bits; bit `i` set means channel `i` is enabled. */
  public bits: number;

  public constructor(bits = 0) {
    this.bits = bits >>> 0;
  }

  /** Enables one channel. */
  public enable(channel: number): this {
    this.bits = (this.bits | (1 << channel)) >>> 0;
    return this;
  }

  /** Disables one channel. */
  public disable(channel: number): this {
    this.bits = (this.bits & ~(1 << channel)) >>> 0;
    return this;
  }

  /** Flips one channel. */
  public toggle(channel: number): this {
    this.bits = (this.bits ^ (1 << channel)) >>> 0;
    return this;
  }

  /** Sets one channel on or off. */
  public set(channel: number, on: boolean): this {
    return on ? this.enable(channel) : this.disable(channel);
  }

  /** Enables every channel. */
  public enableAll(): this {
    this.bits = 0xffffffff;
    return this;
  }

  /** Disables every channel. */
  public disableAll(): this {
    this.bits = 0;
    return this;
  }

  /** Whether one channel is enabled. */
  public test(channel: number): boolean {
    return (this.bits & (1 << channel)) !== 0;
  }
}
