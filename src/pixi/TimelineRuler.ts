import { BitmapText, Container } from 'pixi.js';
import type { FrameReader } from '../core/read/FrameReader';
import { pixelOf, type PixelBand, type TimelinePixels } from './TimelinePixels';
import type { TimelineScale } from './TimelineScale';

/** Frame steps the ruler's ticks use: 1, 2, 5 and their powers of ten. */
const NICE = [
  1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000, 200000, 500000, 1000000,
];
/** Labels shown at most (the widest ruler fits this many). */
const MAX_LABELS = 32;

/**
 * The smallest step of `NICE` whose ticks are at least `minPixels` apart at `pixelsPerFrame`.
 *
 * @internal
 * @example
 * tickStep(1.3, 70); // 100: one labelled tick every 100 frames at 1.3 px a frame
 */
export function tickStep(pixelsPerFrame: number, minPixels: number): number {
  for (let i = 0; i < NICE.length; i++) if (NICE[i] * pixelsPerFrame >= minPixels) return NICE[i];
  return NICE[NICE.length - 1];
}

/** Colours of the ruler. */
export interface RulerColors {
  tick: number;
  label: number;
  /** The overview strip: the frames held, the part shown (when zoomed), the in/out range. */
  held: number;
  view: number;
  range: number;
}

/**
 * The timeline's ruler: an overview strip of every frame held (the part shown when zoomed, the
 * in/out range), minor and major ticks in frames, and at each major tick its frame and recorded
 * time ("120 2.00s"). The ticks go into the timeline's pixels; the labels are a fixed pool of
 * bitmap texts whose strings are rebuilt only when the view changes.
 *
 * @internal Part of `Timeline`.
 *
 * @example
 * const ruler = new TimelineRuler(colors, 'monospace');
 * timeline.root.addChild(ruler.labels);
 * ruler.draw(pixels, scale, reader, -1, -1);
 */
export class TimelineRuler {
  /** The labels' container (positioned like the pixels: x of the frame area, top of the ruler). */
  public readonly labels = new Container();
  private readonly pool: BitmapText[] = [];
  private readonly tickPixel: number;
  private readonly heldPixel: number;
  private readonly viewPixel: number;
  private readonly rangePixel: number;
  /** Screen height of the overview strip at the top of the ruler. */
  public static readonly OVERVIEW_ROWS = 3;
  /** Rows of the pixel image the ruler uses: the overview (2), minor ticks (1), major ticks (1). */
  public static readonly IMAGE_ROWS = 4;

  public constructor(colors: RulerColors, fontFamily: string) {
    this.labels.eventMode = 'none';
    this.labels.label = 'rewindable:timeline-ruler';
    for (let i = 0; i < MAX_LABELS; i++) {
      const t = new BitmapText({ text: '', style: { fontFamily, fontSize: 9, fill: colors.label } });
      t.visible = false;
      this.pool.push(t);
      this.labels.addChild(t);
    }
    this.tickPixel = pixelOf(colors.tick);
    this.heldPixel = pixelOf(colors.held);
    this.viewPixel = pixelOf(colors.view);
    this.rangePixel = pixelOf(colors.range);
  }

  /** The label texts shown, left to right (for tests and tools). */
  public get labelTexts(): string[] {
    return this.pool.filter((t) => t.visible).map((t) => t.text);
  }

  /**
   * The bands of the ruler in the pixel image, for a ruler `height` pixels high: the overview strip,
   * minor ticks (3 px) and major ticks (7 px) at its bottom.
   */
  public static bands(height: number): PixelBand[] {
    return [
      { row: 0, rows: 2, y: 0, height: 2 },
      { row: 2, rows: 1, y: height - 3, height: 3 },
      { row: 3, rows: 1, y: height - 7, height: 7 },
    ];
  }

  /**
   * Draws the overview strip and the ticks into `px` (rows 0..3, see `bands`) and sets the labels.
   * `rangeIn`/`rangeOut` mark the in/out range on the overview (`rangeOut < rangeIn`: none).
   */
  public draw(px: TimelinePixels, scale: TimelineScale, reader: FrameReader, rangeIn: number, rangeOut: number): void {
    const pool = this.pool;
    let used = 0;
    if (scale.newest >= scale.oldest) {
      this.drawOverview(px, scale, rangeIn, rangeOut);
      const ppf = scale.pixelsPerFrame;
      const minor = tickStep(ppf, 6);
      const major = tickStep(ppf, 78);
      const x0 = scale.x;
      const first = Math.ceil(Math.max(scale.start, scale.oldest) / minor) * minor;
      const last = Math.min(scale.end, scale.newest);
      for (let f = first; f <= last; f += minor) {
        const x = Math.round(scale.xOf(f) - x0);
        const isMajor = f % major === 0;
        px.rect(x, isMajor ? 3 : 2, 1, 1, this.tickPixel);
        if (isMajor && used < pool.length) {
          const t = pool[used++];
          const time = reader.timeOf(f);
          const text = `${f} ${Number.isFinite(time) ? time.toFixed(time < 100 ? 2 : 1) : '-'}s`;
          if (t.text !== text) t.text = text;
          t.position.set(x + 2, TimelineRuler.OVERVIEW_ROWS);
          t.visible = true;
        }
      }
    }
    for (let i = used; i < pool.length; i++) pool[i].visible = false;
  }

  private drawOverview(px: TimelinePixels, scale: TimelineScale, rangeIn: number, rangeOut: number): void {
    const w = px.width;
    const rows = 2;
    px.rect(0, 0, w, rows, this.heldPixel);
    const span = scale.newest - scale.oldest;
    const at = (f: number): number => (span > 0 ? ((f - scale.oldest) / span) * (w - 1) : 0);
    if (rangeOut >= rangeIn) {
      const a = Math.round(at(rangeIn));
      px.rect(a, 0, Math.max(1, Math.round(at(rangeOut)) - a + 1), rows, this.rangePixel);
    }
    if (scale.zoomed) {
      const a = Math.round(at(scale.start));
      px.rect(a, 0, Math.max(2, Math.round(at(scale.end)) - a + 1), 1, this.viewPixel);
      px.rect(a, rows - 1, Math.max(2, Math.round(at(scale.end)) - a + 1), 1, this.viewPixel);
    }
  }
}
