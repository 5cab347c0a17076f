import { BitmapText, Container, Graphics, Rectangle, type FederatedPointerEvent, type StrokeStyle } from 'pixi.js';
import { MarkerKind } from '../core/playback/MarkerIndex';
import type { Playback } from '../core/playback/Playback';

/** Look of the timeline. */
export interface TimelineStyle {
  /** Height of the bar, pixels. */
  height: number;
  /** Gap to the screen edges, pixels. */
  margin: number;
  background: number;
  /** Colour of the part of the bar that holds frames. */
  held: number;
  playhead: number;
  /** Marker colours by `MarkerKind`: over budget, spawn, despawn, damage, bookmark, event. */
  markerColors: readonly number[];
  fontFamily: string;
}

/** The default look of the timeline. */
export const DEFAULT_TIMELINE_STYLE: Readonly<TimelineStyle> = Object.freeze({
  height: 20,
  margin: 12,
  background: 0x0c0d10,
  held: 0x2c3039,
  playhead: 0xffffff,
  markerColors: Object.freeze([0xff453a, 0x30d158, 0x98989d, 0xff9f0a, 0x0a84ff, 0xffd60a]),
  fontFamily: 'monospace',
});

/** Marker kinds in drawing order, and the vertical band (fraction of the bar) each occupies. */
const BAND_TOP = [0.0, 0.62, 0.62, 0.3, 0.0, 0.3];
const BAND_BOTTOM = [0.3, 1.0, 1.0, 0.62, 1.0, 0.62];
const KINDS = 6;

const markStroke: StrokeStyle = { color: 0xffffff, width: 1, pixelLine: true, alpha: 1 };
const headStroke: StrokeStyle = { color: 0xffffff, width: 2, alpha: 1 };

/**
 * The scrub bar along the bottom of the screen: the range of frames held, a playhead, and markers
 * for over-budget frames, spawns, despawns, damage, bookmarks and events. Markers are redrawn only
 * when the marker set (`markers.version`), the range held or the bar's size changes; several markers
 * of one kind on one pixel column are drawn once. Click or drag to seek.
 *
 * @example
 * const timeline = new Timeline(style, (frame) => playback.time.seek(frame));
 * app.stage.addChild(timeline.root);
 * timeline.layout(app.screen.width, app.screen.height);
 * timeline.update(playback);               // every tick: markers when they changed
 * timeline.setPlayhead(playback.time.position); // when the position changed
 */
export class Timeline {
  public readonly root = new Container();
  private readonly bar = new Graphics();
  private readonly markerLayer = new Graphics();
  private readonly head = new Graphics();
  private readonly label: BitmapText;
  private x0 = 0;
  private width = 1;
  private oldest = 0;
  private newest = -1;
  private drawnVersion = -1;
  private drawnOldest = -1;
  private drawnNewest = -2;
  private drawnWidth = -1;
  private dragging = false;
  private headPosition = 0;
  private columns = new Uint8Array(0);
  private markerRedraws = 0;

  private readonly style: Readonly<TimelineStyle>;

  public constructor(style: Partial<TimelineStyle>, private readonly onSeek: (frame: number) => void) {
    this.style = Object.freeze({ ...DEFAULT_TIMELINE_STYLE, ...style });
    this.root.label = 'rewindable:timeline';
    this.label = new BitmapText({ text: '', style: { fontFamily: this.style.fontFamily, fontSize: 12, fill: 0xffffff } });
    this.label.eventMode = 'none';
    this.markerLayer.eventMode = 'none';
    this.head.eventMode = 'none';
    this.bar.eventMode = 'static';
    this.bar.cursor = 'pointer';
    this.root.addChild(this.bar, this.markerLayer, this.head, this.label);
    this.bar.on('pointerdown', this.onDown, this);
    this.bar.on('globalpointermove', this.onMove, this);
    this.bar.on('pointerup', this.onUp, this);
    this.bar.on('pointerupoutside', this.onUp, this);
  }

  /** How many times the markers were redrawn (for tests and tools). */
  public get markerRedrawCount(): number {
    return this.markerRedraws;
  }

  /** The bar's area in screen pixels: x, width (for tests and tools). */
  public get barX(): number {
    return this.x0;
  }

  public get barWidth(): number {
    return this.width;
  }

  /** The screen x of a frame on the bar. */
  public xOf(frame: number): number {
    const span = this.newest - this.oldest;
    return this.x0 + (span > 0 ? ((frame - this.oldest) / span) * this.width : 0);
  }

  /** The frame at screen x on the bar (clamped to the range held). */
  public frameAt(x: number): number {
    const span = this.newest - this.oldest;
    const t = (x - this.x0) / this.width;
    const c = t < 0 ? 0 : t > 1 ? 1 : t;
    return this.oldest + c * (span > 0 ? span : 0);
  }

  /** Places the bar along the bottom of a `screenWidth × screenHeight` view. */
  public layout(screenWidth: number, screenHeight: number): void {
    const s = this.style;
    this.x0 = s.margin;
    this.width = Math.max(1, screenWidth - s.margin * 2);
    this.root.position.set(0, screenHeight - s.margin - s.height);
    this.bar.clear();
    this.bar.rect(this.x0 - 4, -20, this.width + 8, s.height + 24).fill({ color: s.background, alpha: 0.72 });
    this.bar.rect(this.x0, 0, this.width, s.height).fill({ color: s.held, alpha: 0.9 });
    this.bar.hitArea = new Rectangle(this.x0 - 4, -4, this.width + 8, s.height + 8);
    this.label.position.set(this.x0, -18);
    this.head.clear();
    this.head.moveTo(0, 0).lineTo(0, s.height + 3).stroke({ ...headStroke, color: s.playhead });
    this.head.poly([-5, -3, 5, -3, 0, 4]).fill({ color: s.playhead });
    if (this.columns.length < Math.ceil(this.width) * KINDS) this.columns = new Uint8Array(Math.ceil(this.width + 1) * KINDS);
  }

  /** Redraws the markers when the marker set, the range held or the bar's size changed; cheap otherwise. */
  public update(playback: Playback): void {
    const r = playback.reader;
    if (r.frameCount > 0) {
      this.oldest = r.oldestFrame;
      this.newest = r.newestFrame;
    } else {
      this.oldest = 0;
      this.newest = -1;
    }
    const m = playback.markers;
    if (m.version !== this.drawnVersion || this.oldest !== this.drawnOldest || this.newest !== this.drawnNewest ||
        this.width !== this.drawnWidth) {
      this.drawMarkers(playback);
      this.head.x = this.xOf(this.headPosition);
    }
    this.head.visible = r.frameCount > 0;
  }

  /** Moves the playhead to a (fractional) frame. */
  public setPlayhead(position: number): void {
    this.headPosition = position;
    // Inline rather than `xOf`: a number returned by a call that is not inlined is boxed.
    const span = this.newest - this.oldest;
    this.head.position.x = this.x0 + (span > 0 ? ((position - this.oldest) / span) * this.width : 0);
  }

  /** The text above the bar. */
  public setLabel(text: string): void {
    if (text !== this.label.text) this.label.text = text;
  }

  private drawMarkers(playback: Playback): void {
    const m = playback.markers;
    this.drawnVersion = m.version;
    this.drawnOldest = this.oldest;
    this.drawnNewest = this.newest;
    this.drawnWidth = this.width;
    this.markerRedraws++;
    const g = this.markerLayer;
    g.clear();
    if (this.newest < this.oldest) return;
    const cols = this.columns;
    cols.fill(0);
    const w = Math.ceil(this.width);
    const h = this.style.height;
    for (let kind = 0; kind < KINDS; kind++) {
      let any = false;
      for (let i = 0; i < m.count; i++) {
        if (m.kinds[i] !== kind) continue;
        const f = m.frames[i];
        if (f < this.oldest || f > this.newest) continue;
        const x = Math.round(this.xOf(f) - this.x0);
        const col = (x < 0 ? 0 : x > w ? w : x) * KINDS + kind;
        if (cols[col] !== 0) continue;
        cols[col] = 1;
        const px = this.x0 + x + 0.5;
        g.moveTo(px, BAND_TOP[kind] * h);
        g.lineTo(px, BAND_BOTTOM[kind] * h);
        any = true;
      }
      if (any) {
        markStroke.color = this.style.markerColors[kind] ?? 0xffffff;
        markStroke.width = kind === MarkerKind.BOOKMARK ? 2 : 1;
        markStroke.pixelLine = kind !== MarkerKind.BOOKMARK;
        g.stroke(markStroke);
      }
    }
  }

  private onDown(e: FederatedPointerEvent): void {
    if (e.button !== 0) return;
    this.dragging = true;
    this.onSeek(this.frameAt(e.global.x));
    e.stopPropagation();
  }

  private onMove(e: FederatedPointerEvent): void {
    if (!this.dragging) return;
    this.onSeek(this.frameAt(e.global.x));
  }

  private onUp(): void {
    this.dragging = false;
  }
}
