import { BufferImageSource, Container, Rectangle, Sprite, Texture } from 'pixi.js';

/** Rows `[row, row + rows)` of the image shown stretched over `height` screen pixels from local y. */
export interface PixelBand {
  readonly row: number;
  readonly rows: number;
  readonly y: number;
  readonly height: number;
}

/** An opaque pixel of colour 0xRRGGBB in the buffer's byte order (RGBA in memory, little-endian words). */
export function pixelOf(rgb: number): number {
  return (0xff000000 | ((rgb & 0xff) << 16) | (rgb & 0xff00) | ((rgb >>> 16) & 0xff)) >>> 0;
}

/**
 * A small pixel image the timeline draws its ruler ticks, lanes and bars into: a redraw writes a
 * few thousand words into a buffer made once (per size) and uploads it once, instead of building
 * thousands of vector shapes. The image has one column per screen pixel but only a few rows: each
 * band of rows is shown by a sprite stretched to its screen height (a marker lane is one row, a
 * bar lane one row per two pixels), so the upload stays small. Pixels are either opaque or fully
 * transparent (what is behind shows through, such as the playhead line), sampled nearest so lines
 * stay sharp.
 *
 * @internal Part of `Timeline`.
 *
 * @example
 * const px = new TimelinePixels();
 * px.resize(1000, [{ row: 0, rows: 1, y: 16, height: 8 }]);
 * px.clear();
 * px.rect(10, 0, 1, 1, pixelOf(0xff453a)); // a marker across the 8-pixel lane
 * px.commit(); // or px.commitRows(0, 1): only the rows redrawn
 */
export class TimelinePixels {
  /** The bands' sprites, in local coordinates of the frame area. */
  public readonly root = new Container();
  private data = new Uint32Array(0);
  private source: BufferImageSource | null = null;
  private w = 0;
  private h = 0;
  /** Rows of the last upload: first, end (for tests and tools). */
  private readonly uploaded = new Int32Array(2);

  public constructor() {
    this.root.eventMode = 'none';
    this.root.label = 'rewindable:timeline-pixels';
  }

  public get width(): number {
    return this.w;
  }

  public get height(): number {
    return this.h;
  }

  /** Sets the image's width (screen pixels) and its bands (a new buffer, texture and sprites). */
  public resize(width: number, bands: readonly PixelBand[]): void {
    const w = Math.max(1, Math.ceil(width));
    let h = 1;
    for (const b of bands) h = Math.max(h, b.row + b.rows);
    this.w = w;
    this.h = h;
    const bytes = new Uint8Array(w * h * 4);
    this.data = new Uint32Array(bytes.buffer);
    const old = this.source;
    this.source = new BufferImageSource({
      resource: bytes,
      width: w,
      height: h,
      format: 'rgba8unorm',
      scaleMode: 'nearest',
    });
    for (const c of this.root.removeChildren()) c.destroy();
    for (const b of bands) {
      const sprite = new Sprite(new Texture({ source: this.source, frame: new Rectangle(0, b.row, w, b.rows) }));
      sprite.position.set(0, b.y);
      sprite.height = b.height;
      sprite.eventMode = 'none';
      this.root.addChild(sprite);
    }
    old?.destroy();
  }

  /** Makes every pixel transparent. */
  public clear(): void {
    this.data.fill(0);
  }

  /** Makes the pixels of rows `[row0, row1)` transparent. */
  public clearRows(row0: number, row1: number): void {
    const a = row0 < 0 ? 0 : row0;
    const b = row1 > this.h ? this.h : row1;
    if (b > a) this.data.fill(0, a * this.w, b * this.w);
  }

  /** A vertical line at column x from row y0 to row y1 (exclusive), clipped. */
  public vline(x: number, y0: number, y1: number, pixel: number): void {
    const cx = x | 0;
    if (cx < 0 || cx >= this.w) return;
    const a = y0 < 0 ? 0 : y0 | 0;
    const b = y1 > this.h ? this.h : y1 | 0;
    const d = this.data;
    const w = this.w;
    for (let y = a; y < b; y++) d[y * w + cx] = pixel;
  }

  /** A filled rectangle (clipped). */
  public rect(x: number, y: number, width: number, height: number, pixel: number): void {
    const x0 = x < 0 ? 0 : x | 0;
    const x1 = x + width > this.w ? this.w : (x + width) | 0;
    const y0 = y < 0 ? 0 : y | 0;
    const y1 = y + height > this.h ? this.h : (y + height) | 0;
    const d = this.data;
    const w = this.w;
    for (let yy = y0; yy < y1; yy++) {
      const row = yy * w;
      for (let xx = x0; xx < x1; xx++) d[row + xx] = pixel;
    }
  }

  /** The pixel at (x, y), 0 when outside or transparent (for tests and tools). */
  public pixelAt(x: number, y: number): number {
    if (x < 0 || y < 0 || x >= this.w || y >= this.h) return 0;
    return this.data[(y | 0) * this.w + (x | 0)];
  }

  /** Uploads the whole image. */
  public commit(): void {
    this.commitRows(0, this.h);
  }

  /** The rows `[first, end)` of the last upload (for tests and tools). */
  public get uploadedRows(): readonly [number, number] {
    return [this.uploaded[0], this.uploaded[1]];
  }

  /**
   * Uploads rows `[row0, row1)` only (one texture upload of that span): what a redraw of some lanes
   * changed, without the bytes of the others.
   */
  public commitRows(row0: number, row1: number): void {
    const a = row0 < 0 ? 0 : row0;
    const b = row1 > this.h ? this.h : row1;
    if (b <= a) return;
    this.uploaded[0] = a;
    this.uploaded[1] = b;
    this.source?.update(a * this.w, b * this.w);
  }

  public destroy(): void {
    this.root.destroy({ children: true });
    this.source?.destroy();
    this.source = null;
  }
}
