import { BitmapText, type FederatedPointerEvent } from 'pixi.js';
import type { Playback } from '../core/playback/Playback';
import { LaneType, type TimelineLane } from './TimelineLanes';
import { pixelOf, type TimelinePixels } from './TimelinePixels';
import type { TimelineScale } from './TimelineScale';
import type { TimelineStyle } from './TimelineStyle';

/** Screen height of a field lane, and rows of the pixel image it uses (one per two pixels). */
export const FIELD_LANE_HEIGHT = 14;
const FIELD_LANE_ROWS = 6;

/**
 * The legend of field lane `lane`: its name (at `nameX`; `drawLanes` adds the min and max) and its
 * "× remove" (at the legend's margin), which calls `remove`.
 *
 * @internal Part of `Timeline`.
 */
export function fieldLaneLegend(
  lane: TimelineLane,
  s: TimelineStyle,
  nameX: number,
  remove: () => void,
): [BitmapText, BitmapText] {
  const y = s.rulerHeight + lane.top + Math.floor((lane.height - 9) / 2);
  const name = new BitmapText({ text: lane.name, style: { fontFamily: s.fontFamily, fontSize: 9, fill: 0xffffff } });
  name.position.set(nameX, y);
  name.alpha = 0.85;
  const close = new BitmapText({
    text: '× remove',
    style: { fontFamily: s.fontFamily, fontSize: 9, fill: lane.color },
  });
  close.position.set(s.margin, y);
  close.eventMode = 'static';
  close.cursor = 'pointer';
  close.on('pointerdown', (e: FederatedPointerEvent) => {
    e.stopPropagation();
    remove();
  });
  return [name, close];
}

/**
 * One recorded value of one life over time, as a timeline lane: a bar graph between its min and max
 * for numbers, a strip of colours for enum codes (or booleans).
 *
 * @example
 * timeline.addFieldLane({
 *   key: `${handle}:health`,
 *   label: 'agent 3 · health',
 *   playback,
 *   mode: 'line',
 *   series: (from, to, out) => playback.fields.series(handle, 0, from, to, out),
 *   format: (v) => v.toFixed(1),
 *   color: () => 0x7fd67f,
 * });
 */
export interface FieldLaneSpec {
  /** Identifies the lane (adding a key already shown does nothing). */
  readonly key: string;
  /** Its name in the timeline: "label · field". */
  readonly label: string;
  /** The playback whose frames the series reads; the lane goes when another playback is shown. */
  readonly playback: Playback;
  /** 'line': a number drawn between its min and max; 'strip': a colour per code. */
  readonly mode: 'line' | 'strip';
  /** The values of whole frames `from..to` into `out` (one per frame, NaN where absent); returns the frames written. */
  series(from: number, to: number, out: Float64Array): number;
  /** The text of a value (an enum's name, a number's digits). */
  format(value: number): string;
  /** The colour (0xRRGGBB) of a value: of the line, or of a code's strip. */
  color(value: number): number;
}

/**
 * The field lanes of the timeline (owned by `Timeline`): the specs added, and for each the values of
 * the frames shown, read through its `series` into one pooled buffer and drawn into the lane's rows
 * of the timeline's pixels when the view changed. Also gives a lane's value at a frame and the
 * min/max of what it shows.
 *
 * @internal Part of `Timeline`.
 *
 * @example
 * const lanes = new TimelineFieldLanes();
 * lanes.add(spec);
 * lanes.draw(px, 0, rowsTop, rows, scale);
 */
export class TimelineFieldLanes {
  private readonly specs: FieldLaneSpec[] = [];
  private values = new Float64Array(0);
  private readonly one = new Float64Array(1);
  /** Per lane: min and max of the values shown as of the last draw (NaN: none). */
  private minMax = new Float64Array(0);

  public get count(): number {
    return this.specs.length;
  }

  /** The lane at index `i`, top to bottom. */
  public spec(i: number): FieldLaneSpec {
    return this.specs[i];
  }

  public has(key: string): boolean {
    return this.specs.some((s) => s.key === key);
  }

  /** Adds a lane at the bottom; false when its key is already shown. */
  public add(spec: FieldLaneSpec): boolean {
    if (this.has(spec.key)) return false;
    this.specs.push(spec);
    this.minMax = new Float64Array(this.specs.length * 2).fill(Number.NaN);
    return true;
  }

  /** Removes the lane of `key`; false when none. */
  public remove(key: string): boolean {
    const i = this.specs.findIndex((s) => s.key === key);
    if (i < 0) return false;
    this.specs.splice(i, 1);
    this.minMax = new Float64Array(this.specs.length * 2).fill(Number.NaN);
    return true;
  }

  /** Removes the lanes of other playbacks than `pb`; true when any went. */
  public keepOnly(pb: Playback): boolean {
    let removed = false;
    for (let i = this.specs.length - 1; i >= 0; i--) {
      if (this.specs[i].playback !== pb) {
        this.specs.splice(i, 1);
        removed = true;
      }
    }
    if (removed) this.minMax = new Float64Array(this.specs.length * 2).fill(Number.NaN);
    return removed;
  }

  /** Min and max of the values lane `i` showed at its last draw (NaN when it showed none). */
  public min(i: number): number {
    return this.minMax[i * 2];
  }

  public max(i: number): number {
    return this.minMax[i * 2 + 1];
  }

  /** The value of lane `i` at whole frame `frame` (NaN when absent). */
  public valueAt(i: number, frame: number): number {
    const one = this.one;
    one[0] = Number.NaN;
    if (this.specs[i].series(frame, frame, one) < 1) return Number.NaN;
    return one[0];
  }

  /** The tooltip of lane `i` at frame `f`: its label, the frame, the value (or that it is absent). */
  public tooltip(i: number, f: number): string {
    const spec = this.specs[i];
    const v = this.valueAt(i, f);
    return `${spec.label}\nframe ${f}: ${Number.isNaN(v) ? 'absent' : spec.format(v)}`;
  }

  /**
   * Appends a lane per field lane to `out`, from local y `top` of the lane area and pixel-image row
   * `row` down, in legend colour `color`.
   */
  public appendLanes(out: TimelineLane[], top: number, row: number, color: number): void {
    for (let i = 0; i < this.specs.length; i++) {
      out.push({
        name: this.specs[i].label,
        type: LaneType.FIELD,
        kinds: 0,
        top: top + i * FIELD_LANE_HEIGHT,
        height: FIELD_LANE_HEIGHT,
        row: row + i * FIELD_LANE_ROWS,
        rows: FIELD_LANE_ROWS,
        color,
        field: i,
      });
    }
  }

  /**
   * Draws every field lane of `lanes` into `px` and names it in `texts` (name and × per lane, as
   * `fieldLaneLegend` made them) with the min and max of what it shows.
   */
  public drawLanes(
    px: TimelinePixels,
    lanes: readonly TimelineLane[],
    scale: TimelineScale,
    texts: BitmapText[],
  ): void {
    for (const lane of lanes) {
      if (lane.type !== LaneType.FIELD || lane.field === undefined) continue;
      const i = lane.field;
      this.draw(px, i, lane.row, lane.rows, scale);
      const spec = this.specs[i];
      const min = this.min(i);
      const text = Number.isNaN(min) ? spec.label : `${spec.label}  ${spec.format(min)} – ${spec.format(this.max(i))}`;
      const t = texts[i * 2];
      if (t !== undefined && t.text !== text) t.text = text;
    }
  }

  /** Draws lane `i` over the frames shown into rows `[row, row + rows)` of `px` (not cleared first). */
  public draw(px: TimelinePixels, i: number, row: number, rows: number, scale: TimelineScale): void {
    const spec = this.specs[i];
    const lo = Math.max(scale.oldest, Math.floor(scale.start));
    const hi = Math.min(scale.newest, Math.ceil(scale.end));
    this.minMax[i * 2] = Number.NaN;
    this.minMax[i * 2 + 1] = Number.NaN;
    if (hi < lo) return;
    const n = hi - lo + 1;
    if (this.values.length < n) this.values = new Float64Array(Math.max(n, this.values.length * 2));
    const v = this.values;
    v.fill(Number.NaN, 0, n);
    const got = Math.min(n, spec.series(lo, hi, v));
    let min = Number.POSITIVE_INFINITY;
    let max = Number.NEGATIVE_INFINITY;
    for (let k = 0; k < got; k++) {
      const x = v[k];
      if (x < min) min = x;
      if (x > max) max = x;
    }
    if (!(max >= min)) return;
    this.minMax[i * 2] = min;
    this.minMax[i * 2 + 1] = max;
    const ppf = scale.pixelsPerFrame;
    const first = (lo - scale.start) * ppf;
    const w = px.width;
    if (spec.mode === 'strip') {
      // Each frame's colour from its column to the next frame's.
      for (let k = 0; k < got; k++) {
        const x = v[k];
        if (Number.isNaN(x)) continue;
        const a = Math.round(first + (k - 0.5) * ppf);
        const b = Math.max(a + 1, Math.round(first + (k + 0.5) * ppf));
        if (b <= 0 || a >= w) continue;
        px.rect(a, row, b - a, rows, pixelOf(spec.color(x)));
      }
      return;
    }
    // A line: per column the span of the values of its frames (joined to the previous column's).
    const pixel = pixelOf(spec.color(min));
    const range = max - min;
    const yOf = (x: number): number => (range > 0 ? Math.round(((max - x) / range) * (rows - 1)) : rows >> 1);
    let prevY = -1;
    let prevC = -2;
    for (let k = 0; k < got; k++) {
      const x = v[k];
      if (Number.isNaN(x)) {
        prevY = -1;
        continue;
      }
      const c = Math.round(first + k * ppf);
      const y = yOf(x);
      const bw = ppf >= 2 ? Math.floor(ppf) : 1;
      if (prevY >= 0 && c - prevC <= bw + 1) {
        const y0 = Math.min(prevY, y);
        const y1 = Math.max(prevY, y);
        px.vline(c, row + y0, row + y1 + 1, pixel);
      } else {
        px.vline(c, row + y, row + y + 1, pixel);
      }
      if (bw > 1) px.rect(c, row + y, bw, 1, pixel);
      prevY = y;
      prevC = c;
    }
  }
}
