import type { Container, FederatedPointerEvent, FederatedWheelEvent, Graphics, Rectangle } from 'pixi.js';
import type { TimeControl } from '../core/playback/TimeControl';
import { TimelineRuler } from './TimelineRuler';
import type { TimelineScale } from './TimelineScale';

/** What a pointer drag on the timeline does. */
const DRAG_NONE = 0;
const DRAG_SEEK = 1;
const DRAG_PAN = 2;
const DRAG_IN = 3;
const DRAG_OUT = 4;
const DRAG_OVERVIEW = 5;
/** Zoom factor per 100 px of wheel delta. */
const WHEEL_ZOOM = 1.25;

/** What `TimelinePointer` asks of its `Timeline`. */
export interface TimelinePointerHost {
  /** The time control of the playback shown, if any. */
  time(): TimeControl | undefined;
  /** Seeks to a (fractional) frame. */
  seek(frame: number): void;
  /** Shows the tooltip of what is under local (x, y). */
  hover(x: number, y: number): void;
  /** Whether a hover tooltip is being tracked. */
  hovering(): boolean;
  /** The pointer left: stop tracking the hover and hide the tooltip. */
  out(): void;
  /** Hides the tooltip (the hover stays tracked). */
  hideTooltip(): void;
}

/**
 * The pointer and wheel interaction of `Timeline`, on its bar: a left click or drag seeks, a drag
 * on the in/out handles moves the range's ends (`TimeControl.setRange`), a drag on the overview
 * strip moves the zoomed view, a right/middle drag or Shift+wheel pans, the wheel zooms around the
 * pointer; moving without a drag hovers. It owns the drag state; the view is the `TimelineScale`'s.
 *
 * @internal Built by `Timeline`; not exported from `rewindable/pixi`.
 *
 * @example
 * new TimelinePointer(bar, root, scale, style.rulerHeight, host); // listens on `bar`
 */
export class TimelinePointer {
  private drag = DRAG_NONE;
  private dragX = 0;

  public constructor(
    private readonly bar: Graphics,
    private readonly root: Container,
    private readonly scale: TimelineScale,
    private readonly rulerHeight: number,
    private readonly host: TimelinePointerHost,
  ) {
    bar.on('pointerdown', this.onDown, this);
    bar.on('globalpointermove', this.onMove, this);
    bar.on('pointerup', this.onUp, this);
    bar.on('pointerupoutside', this.onUp, this);
    bar.on('pointerout', this.onOut, this);
    bar.on('wheel', this.onWheel, this);
  }

  private onDown(e: FederatedPointerEvent): void {
    const x = e.global.x;
    const y = e.global.y - this.root.y;
    e.stopPropagation();
    this.host.hideTooltip();
    if (e.button === 1 || e.button === 2) {
      this.drag = DRAG_PAN;
      this.dragX = x;
      return;
    }
    if (e.button !== 0) return;
    const t = this.host.time();
    if (t?.hasRange && y < this.rulerHeight && y >= 0) {
      if (Math.abs(x - this.scale.xOf(t.rangeIn)) <= 6) {
        this.drag = DRAG_IN;
        return;
      }
      if (Math.abs(x - this.scale.xOf(t.rangeOut)) <= 6) {
        this.drag = DRAG_OUT;
        return;
      }
    }
    if (y >= 0 && y < TimelineRuler.OVERVIEW_ROWS + 1 && this.scale.zoomed) {
      this.drag = DRAG_OVERVIEW;
      this.overviewTo(x);
      return;
    }
    this.drag = DRAG_SEEK;
    this.host.seek(this.scale.frameAt(x));
  }

  private onMove(e: FederatedPointerEvent): void {
    const x = e.global.x;
    const y = e.global.y - this.root.y;
    switch (this.drag) {
      case DRAG_SEEK:
        this.host.seek(this.scale.frameAt(x));
        break;
      case DRAG_PAN:
        this.scale.panBy(x - this.dragX);
        this.dragX = x;
        break;
      case DRAG_OVERVIEW:
        this.overviewTo(x);
        break;
      case DRAG_IN:
      case DRAG_OUT: {
        const t = this.host.time();
        const f = Math.round(this.scale.frameAt(x));
        if (t === undefined) break;
        if (this.drag === DRAG_IN) t.setRange(Math.min(f, t.rangeOut), t.rangeOut);
        else t.setRange(t.rangeIn, Math.max(f, t.rangeIn));
        break;
      }
      default:
        if (this.root.visible && this.bar.hitArea !== null && (this.bar.hitArea as Rectangle).contains(x, y))
          this.host.hover(x, y);
        else if (this.host.hovering()) this.host.out();
    }
  }

  private onUp(): void {
    this.drag = DRAG_NONE;
  }

  private onOut(): void {
    this.host.out();
  }

  private onWheel(e: FederatedWheelEvent): void {
    e.stopPropagation();
    const horizontal = Math.abs(e.deltaX) > Math.abs(e.deltaY);
    if (e.shiftKey || horizontal) {
      this.scale.panBy(-(horizontal ? e.deltaX : e.deltaY));
      return;
    }
    this.scale.zoomAt(e.global.x, WHEEL_ZOOM ** (-e.deltaY / 100));
  }

  /** Centres the zoomed view on the frame under x on the overview strip (which spans every frame held). */
  private overviewTo(x: number): void {
    const sc = this.scale;
    const t = (x - sc.x) / sc.width;
    const f = sc.oldest + (t < 0 ? 0 : t > 1 ? 1 : t) * (sc.newest - sc.oldest);
    sc.panTo(f - (sc.end - sc.start) / 2);
  }
}
