/**
 * The timeline's layout math: which frames are visible (zoom and pan) and where each one is on
 * screen. Pure arithmetic, no pixi: the timeline's parts and its tests share it.
 *
 * The view spans `[start, end]` (fractional frames) inside the frames held `[oldest, newest]`.
 * Unzoomed, it follows the held range as frames arrive and leave; zoomed, it keeps its span and is
 * pushed inside the held range when frames are evicted. `version` bumps whenever the mapping from
 * frames to x changed, so a lane is redrawn only then.
 *
 * @internal Part of `Timeline`.
 *
 * @example
 * const scale = new TimelineScale();
 * scale.setArea(80, 1000);
 * scale.setHeld(0, 899);
 * scale.zoomAt(scale.xOf(450), 10);   // ten times closer around frame 450
 * scale.frameAt(scale.xOf(451));      // 451
 */
export class TimelineScale {
  /** Smallest span shown, in frames: at most zoom, this many frames fill the width. */
  public minSpan = 8;
  private x0 = 0;
  private w = 1;
  private lo = 0;
  private hi = -1;
  private s = 0;
  private e = -1;
  private zoomedIn = false;
  private ver = 0;

  /** Bumps whenever the frame ↔ x mapping changed. */
  public get version(): number {
    return this.ver;
  }

  /** Left edge of the frame area, screen pixels. */
  public get x(): number {
    return this.x0;
  }

  /** Width of the frame area, pixels. */
  public get width(): number {
    return this.w;
  }

  /** First visible frame (fractional). */
  public get start(): number {
    return this.s;
  }

  /** Last visible frame (fractional). */
  public get end(): number {
    return this.e;
  }

  /** Oldest frame held (as last given to `setHeld`). */
  public get oldest(): number {
    return this.lo;
  }

  /** Newest frame held (as last given to `setHeld`; below `oldest` when nothing is held). */
  public get newest(): number {
    return this.hi;
  }

  /** Whether the view shows only part of the frames held. */
  public get zoomed(): boolean {
    return this.zoomedIn;
  }

  /** Pixels per frame. */
  public get pixelsPerFrame(): number {
    const span = this.e - this.s;
    return span > 0 ? this.w / span : this.w;
  }

  /** Sets the frame area on screen. Returns whether it changed. */
  public setArea(x: number, width: number): boolean {
    const w = width > 1 ? width : 1;
    if (x === this.x0 && w === this.w) return false;
    this.x0 = x;
    this.w = w;
    this.ver++;
    return true;
  }

  /**
   * Sets the frames held (`newest < oldest`: none). Unzoomed, the view is the held range; zoomed,
   * the view keeps its span (at most the held span) and moves inside the held range. Returns whether
   * the view changed.
   */
  public setHeld(oldest: number, newest: number): boolean {
    if (oldest === this.lo && newest === this.hi) return false;
    this.lo = oldest;
    this.hi = newest;
    if (!this.zoomedIn || newest - oldest <= this.e - this.s) this.fit();
    else this.setView(this.s, this.e - this.s);
    this.ver++;
    return true;
  }

  /** The screen x of a (fractional) frame; frames outside the view map outside the area. */
  public xOf(frame: number): number {
    const span = this.e - this.s;
    return this.x0 + (span > 0 ? ((frame - this.s) / span) * this.w : 0);
  }

  /** The frame at screen x, clamped to the view (fractional). */
  public frameAt(x: number): number {
    const span = this.e - this.s;
    const t = (x - this.x0) / this.w;
    const c = t < 0 ? 0 : t > 1 ? 1 : t;
    return this.s + c * (span > 0 ? span : 0);
  }

  /**
   * Zooms by `factor` (> 1: closer) keeping the frame under screen x where it is. The span stays
   * within [`minSpan`, the held span]; at the held span the view is unzoomed again. Returns whether
   * the view changed.
   */
  public zoomAt(x: number, factor: number): boolean {
    if (!(factor > 0) || !Number.isFinite(factor)) return false;
    const full = this.hi - this.lo;
    if (full <= 0) return false;
    const span = this.e - this.s;
    let next = span / factor;
    const min = this.minSpan < full ? this.minSpan : full;
    if (next < min) next = min;
    if (next >= full) {
      if (!this.zoomedIn) return false;
      this.fit();
      this.ver++;
      return true;
    }
    const t = (x - this.x0) / this.w;
    const c = t < 0 ? 0 : t > 1 ? 1 : t;
    const anchor = this.s + c * span;
    const before = this.s;
    const beforeEnd = this.e;
    this.zoomedIn = true;
    this.setView(anchor - c * next, next);
    if (this.s === before && this.e === beforeEnd) return false;
    this.ver++;
    return true;
  }

  /** Moves the view by `dx` screen pixels (positive: towards older frames, as dragging the content right). */
  public panBy(dx: number): boolean {
    if (!this.zoomedIn || !Number.isFinite(dx)) return false;
    const span = this.e - this.s;
    return this.panTo(this.s - (dx / this.w) * span);
  }

  /** Moves the zoomed view to start at `frame` (clamped inside the held range). Returns whether it moved. */
  public panTo(frame: number): boolean {
    if (!this.zoomedIn || Number.isNaN(frame)) return false;
    const before = this.s;
    this.setView(frame, this.e - this.s);
    if (this.s === before) return false;
    this.ver++;
    return true;
  }

  /**
   * Keeps `frame` visible while zoomed: when it left the view, the view pages so that it sits a
   * tenth of the span from the edge it entered by. Returns whether the view moved.
   */
  public reveal(frame: number): boolean {
    if (!this.zoomedIn || (frame >= this.s && frame <= this.e)) return false;
    const span = this.e - this.s;
    return this.panTo(frame > this.e ? frame - span * 0.9 : frame - span * 0.1);
  }

  /** Shows every frame held (unzoomed). Returns whether the view changed. */
  public reset(): boolean {
    if (!this.zoomedIn) return false;
    this.fit();
    this.ver++;
    return true;
  }

  private fit(): void {
    this.zoomedIn = false;
    this.s = this.lo;
    this.e = this.hi >= this.lo ? this.hi : this.lo;
  }

  /** View of `span` frames from `start`, pushed inside the held range. */
  private setView(start: number, span: number): void {
    let st = start;
    if (st + span > this.hi) st = this.hi - span;
    if (st < this.lo) st = this.lo;
    this.s = st;
    this.e = st + span;
  }
}
