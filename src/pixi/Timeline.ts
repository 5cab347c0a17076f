import { BitmapText, Container, Graphics, Rectangle, Sprite, Texture, type FederatedPointerEvent } from 'pixi.js';
import type { Playback } from '../core/playback/Playback';
import { FIELD_LANE_HEIGHT, type FieldLaneSpec, fieldLaneLegend, TimelineFieldLanes } from './TimelineFieldLanes';
import { laneLayout, LaneType, TimelineLanes, type TimelineLane } from './TimelineLanes';
import { TimelinePixels } from './TimelinePixels';
import { TimelinePointer } from './TimelinePointer';
import { TimelineRuler } from './TimelineRuler';
import { TimelineScale } from './TimelineScale';
import { DEFAULT_TIMELINE_STYLE, type TimelineStyle } from './TimelineStyle';
import { bytesBarText, dtBarText, frameTimeText, markerText, TimelineTooltip } from './TimelineTooltip';

/**
 * The scrub timeline along the bottom of the screen, as in a video editor: a ruler in frames and
 * recorded seconds with an overview of every frame held, lanes of markers by kind (over budget,
 * spawn, despawn, damage, events, bookmarks) with a legend, the recorded dt per frame (hitches
 * stand out) and the bytes per frame, the in/out range, and the playhead with its frame and time.
 *
 * - Click or drag to seek; the wheel zooms around the pointer (down to `minSpan` frames across),
 *   Shift+wheel or a right/middle drag pans, a drag on the overview strip moves the view.
 * - Hover a marker for its frame, time, kind and entity; hover a bar for its dt or size.
 * - Drag the in/out handles to move the range's ends (`TimeControl.setRange`).
 * - `[-]`/`[+]` (or `setCollapsed`) folds the lanes into one.
 * - `addFieldLane` adds a lane of a recorded field of one life (the entity inspector's "+ timeline"),
 *   below the others; its "× remove" (or `removeFieldLane`) removes it.
 *
 * The lanes and the ruler are drawn into one pixel image (`TimelinePixels`), each part into its
 * own rows and only when what it shows changed: the ruler when the view or the in/out range moved,
 * the marker lanes when the view or the markers (`markers.version`) changed, the dt and bytes lanes
 * when the view or the frames held changed (their values cached per frame by `TimelineLanes`);
 * only the rows redrawn are uploaded. A moving playhead only moves its display objects. `TimelinePointer` handles the pointer and wheel.
 *
 * Size: the drawing, zoom, lanes, field lanes, ruler, tooltip and pointer live in their own files;
 * what stays (about 580 lines, a third of it documentation and the public lane API) is the one place
 * that decides what is redrawn when, into which rows (a changed frame must cost one comparison), and
 * which part answers a hover.
 *
 * @example
 * const timeline = new Timeline(style, (frame) => playback.time.seek(frame));
 * app.stage.addChild(timeline.root);
 * timeline.layout(app.screen.width, app.screen.height);
 * timeline.update(playback);               // every tick: redraws only what changed
 * timeline.setPlayhead(playback.time.position); // when the position changed
 */
export class Timeline {
  public readonly root = new Container();
  /** Zoom and pan: the frames shown and where each one is. */
  public readonly scale = new TimelineScale();
  private readonly style: Readonly<TimelineStyle>;
  private readonly bar = new Graphics();
  private readonly rangeShade = new Graphics();
  private readonly headLine = new Graphics();
  private readonly pixels = new TimelinePixels();
  private readonly ruler: TimelineRuler;
  private readonly lanes: TimelineLanes;
  private readonly legend = new Container();
  private readonly handles = new Graphics();
  private readonly head = new Graphics();
  private readonly headTag: BitmapText;
  private readonly headTagBg = new Sprite(Texture.WHITE);
  private readonly label: BitmapText;
  private readonly toggle: BitmapText;
  private readonly tooltip: TimelineTooltip;
  private laneList: TimelineLane[] = [];
  private readonly fieldLanes = new TimelineFieldLanes();
  /** Per field lane: its name and min/max over the frames shown, and its × (remove). */
  private readonly fieldTexts: BitmapText[] = [];
  private readonly fieldListeners = new Set<() => void>();
  private collapsedOn: boolean;
  private screenW = 0;
  private screenH = 0;
  private playback: Playback | null = null;
  /** What the pixels show: view version, markers version, range; -1/NaN force a redraw. */
  private drawnView = -1;
  private drawnMarkers = -1;
  private drawnIn = -1;
  private drawnOut = -2;
  private drawnPb: Playback | null = null;
  private redraws = 0;
  /** The view as of the last redraw: start, end, x, width, zoomed (read per tick without getters). */
  private readonly view = new Float64Array(5);
  private readonly headPosition = new Float64Array(1);
  /** Rows of the pixel image: the marker lanes' [start, end), the bar lanes', the field lanes'. */
  private readonly rows = new Int32Array(6);
  private hoverX = Number.NaN;
  private hoverY = Number.NaN;

  public constructor(
    style: Partial<TimelineStyle>,
    private readonly onSeek: (frame: number) => void,
  ) {
    this.style = Object.freeze({ ...DEFAULT_TIMELINE_STYLE, ...style });
    const s = this.style;
    this.collapsedOn = s.collapsed;
    this.root.label = 'rewindable:timeline';
    this.ruler = new TimelineRuler(
      { tick: s.tickColor, label: s.tickColor, held: 0x3a3f4b, view: s.playhead, range: s.rangeColor },
      s.fontFamily,
    );
    this.lanes = new TimelineLanes({
      markers: s.markerColors,
      dt: s.dtColor,
      hitch: s.hitchColor,
      bytes: s.bytesColor,
      overBudget: s.overBudgetColor,
    });
    this.label = new BitmapText({ text: '', style: { fontFamily: s.fontFamily, fontSize: 12, fill: 0xffffff } });
    this.toggle = new BitmapText({ text: '', style: { fontFamily: s.fontFamily, fontSize: 12, fill: s.tickColor } });
    this.headTag = new BitmapText({ text: '', style: { fontFamily: s.fontFamily, fontSize: 10, fill: 0x0c0d10 } });
    this.headTagBg.tint = s.playhead;
    this.tooltip = new TimelineTooltip({ fontFamily: s.fontFamily });
    for (const o of [
      this.label,
      this.rangeShade,
      this.headLine,
      this.handles,
      this.head,
      this.headTag,
      this.headTagBg,
    ]) {
      o.eventMode = 'none';
    }
    this.legend.eventMode = 'passive';
    this.bar.eventMode = 'static';
    this.bar.cursor = 'pointer';
    this.toggle.eventMode = 'static';
    this.toggle.cursor = 'pointer';
    this.root.addChild(
      this.bar,
      this.rangeShade,
      this.headLine,
      this.pixels.root,
      this.ruler.labels,
      this.legend,
      this.handles,
      this.head,
      this.headTagBg,
      this.headTag,
      this.label,
      this.toggle,
      this.tooltip.panel.root,
    );
    new TimelinePointer(this.bar, this.root, this.scale, s.rulerHeight, {
      time: () => this.playback?.time,
      seek: (frame) => this.onSeek(frame),
      hover: (x, y) => this.hover(x, y),
      hovering: () => !Number.isNaN(this.hoverX),
      out: () => this.onOut(),
      hideTooltip: () => this.tooltip.hide(),
    });
    this.toggle.on('pointerdown', (e: FederatedPointerEvent) => {
      e.stopPropagation();
      this.setCollapsed(!this.collapsedOn);
    });
  }

  /** How many times the lanes and ruler were redrawn (for tests and tools). */
  public get markerRedrawCount(): number {
    return this.redraws;
  }

  /** The frame area in screen pixels: x, width (for tests and tools). */
  public get barX(): number {
    return this.scale.x;
  }

  public get barWidth(): number {
    return this.scale.width;
  }

  /** Height of the timeline's bar (ruler and lanes) now, pixels. */
  public get height(): number {
    return (
      (this.collapsedOn ? this.style.collapsedHeight : this.style.height) + this.fieldLanes.count * FIELD_LANE_HEIGHT
    );
  }

  /**
   * Adds a lane of a recorded field (one value of one life over the frames shown) at the bottom of
   * the timeline: a bar graph between its min and max, or a strip of colours for codes, labelled, with
   * its value at the hovered frame in the tooltip. Redrawn with the view. A lane's × removes it. The
   * lane goes when another playback is shown. Returns false when a lane of that key is shown.
   */
  public addFieldLane(spec: FieldLaneSpec): boolean {
    if (!this.fieldLanes.add(spec)) return false;
    this.fieldLanesChanged();
    return true;
  }

  /** Removes the field lane of `key`; false when none is shown. */
  public removeFieldLane(key: string): boolean {
    if (!this.fieldLanes.remove(key)) return false;
    this.fieldLanesChanged();
    return true;
  }

  /** Whether a field lane of `key` is shown. */
  public hasFieldLane(key: string): boolean {
    return this.fieldLanes.has(key);
  }

  /** The keys of the field lanes shown, top to bottom. */
  public get fieldLaneKeys(): string[] {
    const keys: string[] = [];
    for (let i = 0; i < this.fieldLanes.count; i++) keys.push(this.fieldLanes.spec(i).key);
    return keys;
  }

  /** The label texts of the field lanes (name and min–max of what they show; for tests and tools). */
  public get fieldLaneTexts(): string[] {
    return this.fieldTexts.filter((_, i) => i % 2 === 0).map((t) => t.text);
  }

  /** Calls `listener` when a field lane is added or removed; returns the unsubscribe. */
  public onFieldLanesChange(listener: () => void): () => void {
    this.fieldListeners.add(listener);
    return () => this.fieldListeners.delete(listener);
  }

  /** Whether the lanes are folded into one. */
  public get collapsed(): boolean {
    return this.collapsedOn;
  }

  /** The lanes shown, top to bottom (`top` relative to the end of the ruler). */
  public get laneLayout(): readonly TimelineLane[] {
    return this.laneList;
  }

  /** Screen y of the top of the ruler (the lanes start `style.rulerHeight` below). */
  public get top(): number {
    return this.root.y;
  }

  /** Height of the ruler, pixels. */
  public get rulerHeight(): number {
    return this.style.rulerHeight;
  }

  /** The hover tooltip's text ('' when none is shown; for tests and tools). */
  public get tooltipText(): string {
    return this.tooltip.text;
  }

  /** The text above the bar (for tests and tools). */
  public get labelText(): string {
    return this.label.text;
  }

  /** The ruler's labels, left to right (for tests and tools). */
  public get rulerLabels(): string[] {
    return this.ruler.labelTexts;
  }

  /** The screen x of a frame. */
  public xOf(frame: number): number {
    return this.scale.xOf(frame);
  }

  /** The frame at screen x (clamped to the frames shown). */
  public frameAt(x: number): number {
    return this.scale.frameAt(x);
  }

  /** Folds the lanes into one (true) or shows every lane. */
  public setCollapsed(on: boolean): void {
    if (on === this.collapsedOn) return;
    this.collapsedOn = on;
    this.tooltip.hide();
    if (this.screenW > 0) this.layout(this.screenW, this.screenH);
  }

  /** Zooms by `factor` (> 1: closer) around the frame at screen x. */
  public zoomAt(x: number, factor: number): void {
    this.scale.zoomAt(x, factor);
  }

  /** Shows every frame held again. */
  public resetZoom(): void {
    this.scale.reset();
  }

  /** Places the bar along the bottom of a `screenWidth × screenHeight` view. */
  public layout(screenWidth: number, screenHeight: number): void {
    const s = this.style;
    this.screenW = screenWidth;
    this.screenH = screenHeight;
    const h = this.height;
    const x0 = s.margin + s.legendWidth;
    const width = Math.max(1, screenWidth - x0 - s.margin);
    this.scale.setArea(x0, width);
    this.root.position.set(0, screenHeight - s.margin - h);
    const fieldsH = this.fieldLanes.count * FIELD_LANE_HEIGHT;
    this.laneList = laneLayout(
      h - s.rulerHeight - fieldsH,
      this.collapsedOn,
      {
        markers: s.markerColors,
        dt: s.dtColor,
        hitch: s.hitchColor,
        bytes: s.bytesColor,
        overBudget: s.overBudgetColor,
      },
      TimelineRuler.IMAGE_ROWS,
    );
    this.appendFieldLanes(h - s.rulerHeight - fieldsH);
    const bar = this.bar;
    bar.clear();
    bar.rect(s.margin - 4, -20, screenWidth - s.margin * 2 + 8, h + 24).fill({ color: s.background, alpha: 0.92 });
    bar.rect(x0, 0, width, s.rulerHeight).fill({ color: s.held, alpha: 0.9 });
    for (let i = 0; i < this.laneList.length; i++) {
      const lane = this.laneList[i];
      bar
        .rect(x0, s.rulerHeight + lane.top, width, lane.height - 1)
        .fill({ color: s.held, alpha: i % 2 === 0 ? 0.95 : 0.75 });
    }
    bar.hitArea = new Rectangle(s.margin - 4, -4, screenWidth - s.margin * 2 + 8, h + 8);
    const bands = TimelineRuler.bands(s.rulerHeight);
    for (const lane of this.laneList) {
      const barLane = lane.type !== LaneType.MARKERS && lane.type !== LaneType.FIELD;
      bands.push({
        row: lane.row,
        rows: lane.rows,
        y: s.rulerHeight + lane.top,
        height: barLane ? lane.rows * 2 : lane.height - 1,
      });
    }
    this.pixels.resize(width + 1, bands);
    const rows = this.rows;
    rows[0] = rows[2] = rows[4] = this.pixels.height;
    rows[1] = rows[3] = rows[5] = 0;
    for (const lane of this.laneList) {
      const k = lane.type === LaneType.MARKERS ? 0 : lane.type === LaneType.FIELD ? 4 : 2;
      rows[k] = Math.min(rows[k], lane.row);
      rows[k + 1] = Math.max(rows[k + 1], lane.row + lane.rows);
    }
    this.pixels.root.position.set(x0, 0);
    this.ruler.labels.position.set(x0, 0);
    this.label.position.set(x0, -18);
    this.toggle.text = this.collapsedOn ? '[+]' : '[-]';
    this.toggle.position.set(s.margin, -18);
    this.buildLegend();
    this.head.clear();
    this.head.poly([-5, 0, 5, 0, 0, 6]).fill({ color: s.playhead });
    this.headLine.clear();
    this.headLine.rect(0, 0, 1, h).fill({ color: s.playhead, alpha: 0.8 });
    this.drawnView = -1;
  }

  /** Redraws the lanes, ruler and range when what they show changed; cheap otherwise. */
  public update(playback: Playback): void {
    const r = playback.reader;
    this.playback = playback;
    if (r.frameCount > 0) this.scale.setHeld(r.oldestFrame, r.newestFrame);
    else this.scale.setHeld(0, -1);
    const t = playback.time;
    const rin = t.hasRange ? t.rangeIn : -1;
    const rout = t.hasRange ? t.rangeOut : -2;
    if (this.fieldLanes.count > 0 && this.fieldLanes.keepOnly(playback)) this.fieldLanesChanged();
    const viewChanged = this.scale.version !== this.drawnView || playback !== this.drawnPb;
    const markersChanged = viewChanged || playback.markers.version !== this.drawnMarkers;
    const rangeChanged = viewChanged || rin !== this.drawnIn || rout !== this.drawnOut;
    if (markersChanged || rangeChanged) this.redraw(playback, rin, rout, viewChanged, markersChanged, rangeChanged);
    const visible = r.frameCount > 0;
    this.head.visible = visible;
    this.headLine.visible = visible;
    this.headTag.visible = visible;
    this.headTagBg.visible = visible;
  }

  /** Moves the playhead to a (fractional) frame; while zoomed, the view pages to keep it in sight. */
  public setPlayhead(position: number): void {
    this.headPosition[0] = position;
    const v = this.view;
    if (v[4] === 1 && (position < v[0] || position > v[1])) {
      this.scale.reveal(position);
      return; // placed by the redraw on the next update
    }
    this.placeHead();
  }

  /** Sets the playhead's tag to the rounded position's frame and recorded time (call when the label is rebuilt). */
  public setHeadFrame(playback: Playback): void {
    const r = playback.reader;
    if (r.frameCount === 0) return;
    const text = frameTimeText(playback, Math.round(this.headPosition[0]));
    if (text === this.headTag.text) return;
    this.headTag.text = text;
    this.headTagBg.width = this.headTag.width + 6;
    this.headTagBg.height = 12;
    this.placeHead();
  }

  /** The text above the bar. */
  public setLabel(text: string): void {
    if (text !== this.label.text) this.label.text = text;
  }

  /** The lane at local y (relative to the timeline's top), or null (the ruler, or outside). */
  public laneAt(localY: number): TimelineLane | null {
    const y = localY - this.style.rulerHeight;
    for (const lane of this.laneList) if (y >= lane.top && y < lane.top + lane.height) return lane;
    return null;
  }

  /**
   * Redraws what changed into its rows of the pixels and uploads those rows only: the ruler and the
   * range when the range moved, the marker lanes when markers came or went, everything (the bars
   * read from the lanes' per-frame cache) when the view moved.
   */
  private redraw(
    pb: Playback,
    rin: number,
    rout: number,
    viewChanged: boolean,
    markersChanged: boolean,
    rangeChanged: boolean,
  ): void {
    const scale = this.scale;
    this.drawnView = scale.version;
    this.drawnMarkers = pb.markers.version;
    this.drawnIn = rin;
    this.drawnOut = rout;
    this.drawnPb = pb;
    this.redraws++;
    const v = this.view;
    v[0] = scale.start;
    v[1] = scale.end;
    v[2] = scale.x;
    v[3] = scale.width;
    v[4] = scale.zoomed ? 1 : 0;
    const px = this.pixels;
    const rows = this.rows;
    let r0 = px.height;
    let r1 = 0;
    if (rangeChanged) {
      px.clearRows(0, TimelineRuler.IMAGE_ROWS);
      this.ruler.draw(px, scale, pb.reader, rin, rout);
      r0 = 0;
      r1 = TimelineRuler.IMAGE_ROWS;
      this.drawRange(rin, rout);
    }
    if (markersChanged && rows[1] > rows[0]) {
      px.clearRows(rows[0], rows[1]);
      this.lanes.drawMarkerLanes(px, this.laneList, scale, pb);
      r0 = Math.min(r0, rows[0]);
      r1 = Math.max(r1, rows[1]);
    }
    if (viewChanged && rows[3] > rows[2]) {
      px.clearRows(rows[2], rows[3]);
      this.lanes.drawBarLanes(px, this.laneList, scale, pb);
      r0 = Math.min(r0, rows[2]);
      r1 = Math.max(r1, rows[3]);
    }
    if (viewChanged && rows[5] > rows[4]) {
      px.clearRows(rows[4], rows[5]);
      this.fieldLanes.drawLanes(this.pixels, this.laneList, this.scale, this.fieldTexts);
      r0 = Math.min(r0, rows[4]);
      r1 = Math.max(r1, rows[5]);
    }
    px.commitRows(r0, r1);
    if (viewChanged) this.placeHead();
    if (!Number.isNaN(this.hoverX)) this.hover(this.hoverX, this.hoverY);
  }

  /** The field lanes below the others, from local y `top` of the lane area. */
  private appendFieldLanes(top: number): void {
    let row = TimelineRuler.IMAGE_ROWS;
    for (const lane of this.laneList) row = Math.max(row, lane.row + lane.rows);
    this.fieldLanes.appendLanes(this.laneList, top, row, this.style.tickColor);
  }

  private fieldLanesChanged(): void {
    this.tooltip.hide();
    if (this.screenW > 0) this.layout(this.screenW, this.screenH);
    for (const l of [...this.fieldListeners]) l();
  }

  private drawRange(rin: number, rout: number): void {
    const g = this.rangeShade;
    const hg = this.handles;
    g.clear();
    hg.clear();
    if (rout < rin) return;
    const s = this.style;
    const scale = this.scale;
    const left = scale.x;
    const right = scale.x + scale.width;
    const a = Math.max(left, scale.xOf(rin));
    const b = Math.min(right, scale.xOf(rout));
    const h = this.height;
    if (b >= a)
      g.rect(a, s.rulerHeight, Math.max(1, b - a), h - s.rulerHeight).fill({ color: s.rangeColor, alpha: 0.16 });
    const ry = s.rulerHeight;
    const xi = scale.xOf(rin);
    const xo = scale.xOf(rout);
    if (xi >= left - 0.5 && xi <= right + 0.5) {
      hg.rect(xi - 1, 3, 2, h - 3).fill({ color: s.rangeColor });
      hg.poly([xi - 1, ry - 10, xi + 6, ry - 10, xi - 1, ry - 3]).fill({ color: s.rangeColor });
    }
    if (xo >= left - 0.5 && xo <= right + 0.5) {
      hg.rect(xo - 1, 3, 2, h - 3).fill({ color: s.rangeColor });
      hg.poly([xo + 1, ry - 10, xo - 6, ry - 10, xo + 1, ry - 3]).fill({ color: s.rangeColor });
    }
  }

  private placeHead(): void {
    const v = this.view;
    const span = v[1] - v[0];
    const p = this.headPosition[0];
    const x = v[2] + (span > 0 ? ((p - v[0]) / span) * v[3] : 0);
    this.head.x = x;
    this.headLine.x = x;
    const tw = this.headTagBg.width;
    const right = v[2] + v[3];
    const tx = x + 4 + tw > right ? x - 4 - tw : x + 4;
    this.headTagBg.position.set(tx, 2);
    this.headTag.position.set(tx + 3, 3);
  }

  private buildLegend(): void {
    const s = this.style;
    for (const c of this.legend.removeChildren()) c.destroy();
    this.fieldTexts.length = 0;
    for (const lane of this.laneList) {
      if (lane.type === LaneType.FIELD) {
        const key = this.fieldLanes.spec(lane.field ?? 0).key;
        const texts = fieldLaneLegend(lane, s, this.scale.x + 2, () => this.removeFieldLane(key));
        this.legend.addChild(...texts);
        this.fieldTexts.push(...texts);
        continue;
      }
      const t = new BitmapText({ text: lane.name, style: { fontFamily: s.fontFamily, fontSize: 9, fill: lane.color } });
      t.position.set(s.margin, s.rulerHeight + lane.top + Math.floor((lane.height - 9) / 2));
      this.legend.addChild(t);
    }
  }

  /** Shows the tooltip of what is under local (x, y): a marker, a bar, or the ruler's frame. */
  private hover(x: number, y: number): void {
    const pb = this.playback;
    const scale = this.scale;
    this.hoverX = x;
    this.hoverY = y;
    if (pb === null || pb.reader.frameCount === 0 || x < scale.x - 4 || x > scale.x + scale.width + 4) {
      this.tooltip.hide();
      return;
    }
    const lane = this.laneAt(y);
    const maxX = this.screenW - this.style.margin;
    if (lane !== null && lane.type === LaneType.MARKERS) {
      const i = this.lanes.markerAt(lane, x, 4, scale, pb);
      if (i < 0) {
        this.tooltip.hide();
        return;
      }
      const more = this.lanes.countAtFrame(lane, i, pb) - 1;
      this.tooltip.show(`m${pb.markers.version}:${i}`, () => markerText(pb, i, more), x, -20, maxX);
      return;
    }
    const f = Math.round(scale.frameAt(x));
    if (lane !== null && lane.type === LaneType.FIELD && lane.field !== undefined) {
      const i = lane.field;
      const spec = this.fieldLanes.spec(i);
      this.tooltip.show(`v${spec.key}:${f}`, () => this.fieldLanes.tooltip(i, f), x, -20, maxX);
      return;
    }
    if (lane === null) {
      this.tooltip.show(`f${f}`, () => frameTimeText(pb, f), x, -20, maxX);
    } else if (lane.type === LaneType.DT) {
      this.tooltip.show(`d${f}`, () => dtBarText(pb, f, this.lanes.typicalFrameDt), x, -20, maxX);
    } else {
      this.tooltip.show(`b${f}`, () => bytesBarText(pb, f), x, -20, maxX);
    }
  }

  private onOut(): void {
    this.hoverX = Number.NaN;
    this.tooltip.hide();
  }
}
