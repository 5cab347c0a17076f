import { MarkerKind } from '../core/playback/MarkerIndex';
import type { Playback } from '../core/playback/Playback';
import { pixelOf, type TimelinePixels } from './TimelinePixels';
import type { TimelineScale } from './TimelineScale';

/** What a lane shows: markers of some kinds, the recorded dt per frame, the bytes per frame, or a recorded field (`Timeline.addFieldLane`). */
export const LaneType = { MARKERS: 0, DT: 1, BYTES: 2, FIELD: 3 } as const;

/** One horizontal band of the timeline. */
export interface TimelineLane {
  /** Legend text. */
  readonly name: string;
  readonly type: (typeof LaneType)[keyof typeof LaneType];
  /** Marker kinds shown (bit k = `MarkerKind` k), for a `MARKERS` lane. */
  readonly kinds: number;
  /** Top inside the lane area, and height, screen pixels. */
  readonly top: number;
  readonly height: number;
  /** First row and rows of the lane in the timeline's pixel image (a marker lane is one row). */
  readonly row: number;
  readonly rows: number;
  /** Legend colour. */
  readonly color: number;
  /** For a `FIELD` lane: its index among the field lanes. */
  readonly field?: number;
}

/** Colours of the bars. */
export interface LaneColors {
  /** Marker colours by `MarkerKind`. */
  markers: readonly number[];
  dt: number;
  /** A frame whose dt is over twice the typical one (a hitch). */
  hitch: number;
  bytes: number;
  /** A frame over budget (a channel dropped primitives) or truncated. */
  overBudget: number;
}

const KIND_COUNT = 6;
/** Marker lanes of the expanded timeline, in order, with their kinds. */
const MARKER_LANES: ReadonlyArray<readonly [string, number]> = [
  ['budget', MarkerKind.OVER_BUDGET],
  ['spawn', MarkerKind.SPAWN],
  ['despawn', MarkerKind.DESPAWN],
  ['damage', MarkerKind.DAMAGE],
  ['events', MarkerKind.EVENT],
  ['bookmarks', MarkerKind.BOOKMARK],
];
/** Drawing order of the kinds in one shared lane: bookmarks last, on top. */
const SHARED_ORDER = [
  MarkerKind.OVER_BUDGET,
  MarkerKind.SPAWN,
  MarkerKind.DESPAWN,
  MarkerKind.DAMAGE,
  MarkerKind.EVENT,
  MarkerKind.BOOKMARK,
];

/**
 * The lanes of the expanded timeline in `height` pixels: one per marker kind (over budget, spawn,
 * despawn, damage, events, bookmarks), then the recorded dt per frame and the bytes per frame; or,
 * collapsed, one lane with every marker kind.
 *
 * @internal
 */
export function laneLayout(height: number, collapsed: boolean, colors: LaneColors, firstRow: number): TimelineLane[] {
  if (collapsed) {
    return [
      {
        name: 'markers',
        type: LaneType.MARKERS,
        kinds: (1 << KIND_COUNT) - 1,
        top: 0,
        height,
        row: firstRow,
        rows: 1,
        color: 0xd0d4dc,
      },
    ];
  }
  const markerH = Math.max(3, Math.floor((height * 0.66) / MARKER_LANES.length));
  const dtH = Math.max(4, Math.floor(height * 0.24));
  const bytesH = Math.max(3, height - markerH * MARKER_LANES.length - dtH);
  const lanes: TimelineLane[] = MARKER_LANES.map(([name, kind], i) => ({
    name,
    type: LaneType.MARKERS,
    kinds: 1 << kind,
    top: i * markerH,
    height: markerH,
    row: firstRow + i,
    rows: 1,
    color: colors.markers[kind] ?? 0xffffff,
  }));
  const dtTop = markerH * MARKER_LANES.length;
  // Bars: one row of the image per two screen pixels (the lane's last pixel is a gap).
  const dtRows = Math.max(1, Math.floor((dtH - 1) / 2));
  const bytesRows = Math.max(1, Math.floor((bytesH - 1) / 2));
  const row = firstRow + MARKER_LANES.length;
  lanes.push({
    name: 'frame dt',
    type: LaneType.DT,
    kinds: 0,
    top: dtTop,
    height: dtH,
    row,
    rows: dtRows,
    color: colors.dt,
  });
  lanes.push({
    name: 'bytes',
    type: LaneType.BYTES,
    kinds: 0,
    top: dtTop + dtH,
    height: bytesH,
    row: row + dtRows,
    rows: bytesRows,
    color: colors.bytes,
  });
  return lanes;
}

/**
 * Draws the lanes into the timeline's pixels for the visible frames: markers (several on one
 * column drawn once), the dt bars (hitches in their own colour) and the byte bars (over-budget
 * frames in theirs). Also answers "which marker is at x in this lane" for the tooltips. The dt, size and
 * over-budget flag of each frame held are cached (read from the ring once per frame), so a redraw
 * of a new view reads typed arrays only.
 *
 * @internal Part of `Timeline`.
 *
 * @example
 * const lanes = new TimelineLanes(colors);
 * lanes.draw(pixels, laneLayout(76, false, colors, 4), scale, playback);
 */
export class TimelineLanes {
  /** Per frame held (index: frame − oldest held): recorded dt, bytes, over budget (1); read once per frame. */
  private frameDt = new Float32Array(0);
  private frameBytes = new Float32Array(0);
  private frameOver = new Uint8Array(0);
  private readonly markerPixels: Uint32Array;
  private readonly dtPixel: number;
  private readonly hitchPixel: number;
  private readonly bytesPixel: number;
  private readonly overPixel: number;
  /** Typical recorded dt and largest frame size over the frames held, as of the last draw. */
  private typicalDt = 0;
  private maxBytes = 0;
  /** The frames held and reader those two were measured over. */
  private measuredLo = 0;
  private measuredHi = -1;
  private measuredPb: Playback | null = null;
  /** Per marker kind: top row and height of its lane in the pixels (-1: not shown), for one pass over the markers. */
  private readonly kindTop = new Int32Array(KIND_COUNT);
  private readonly kindHeight = new Int32Array(KIND_COUNT);

  public constructor(colors: LaneColors) {
    this.markerPixels = new Uint32Array(KIND_COUNT);
    for (let k = 0; k < KIND_COUNT; k++) this.markerPixels[k] = pixelOf(colors.markers[k] ?? 0xffffff);
    this.dtPixel = pixelOf(colors.dt);
    this.hitchPixel = pixelOf(colors.hitch);
    this.bytesPixel = pixelOf(colors.bytes);
    this.overPixel = pixelOf(colors.overBudget);
  }

  /** The typical recorded dt (a mean without the hitches) of the frames held, as of the last draw. */
  public get typicalFrameDt(): number {
    return this.typicalDt;
  }

  /** Draws every lane into its rows of the pixels. */
  public draw(px: TimelinePixels, lanes: readonly TimelineLane[], scale: TimelineScale, pb: Playback): void {
    this.drawMarkerLanes(px, lanes, scale, pb);
    this.drawBarLanes(px, lanes, scale, pb);
  }

  /** Draws the marker lanes into their rows (the rows are not cleared first). */
  public drawMarkerLanes(px: TimelinePixels, lanes: readonly TimelineLane[], scale: TimelineScale, pb: Playback): void {
    if (scale.newest < scale.oldest) return;
    this.kindTop.fill(-1);
    let shared = -1;
    for (let i = 0; i < lanes.length; i++) {
      const lane = lanes[i];
      if (lane.type !== LaneType.MARKERS) continue;
      if ((lane.kinds & (lane.kinds - 1)) !== 0) shared = i;
      for (let k = 0; k < KIND_COUNT; k++) {
        if ((lane.kinds & (1 << k)) === 0) continue;
        this.kindTop[k] = lane.row;
        this.kindHeight[k] = lane.rows;
      }
    }
    if (shared >= 0) {
      // One lane for every kind: drawn kind by kind, so that bookmarks end on top.
      for (let o = 0; o < KIND_COUNT; o++) this.drawMarkers(px, scale, pb, SHARED_ORDER[o]);
    } else {
      this.drawMarkers(px, scale, pb, -1);
    }
  }

  /** Draws the dt and bytes lanes into their rows (the rows are not cleared first). */
  public drawBarLanes(px: TimelinePixels, lanes: readonly TimelineLane[], scale: TimelineScale, pb: Playback): void {
    if (scale.newest < scale.oldest) return;
    this.measure(pb, scale);
    for (let i = 0; i < lanes.length; i++) {
      const lane = lanes[i];
      if (lane.type === LaneType.DT || lane.type === LaneType.BYTES) this.drawBars(px, lane.row, lane, scale);
    }
  }

  /**
   * Index (in `playback.markers`) of the marker of `lane` nearest to screen x within `tolerance`
   * pixels, or -1.
   */
  public markerAt(lane: TimelineLane, x: number, tolerance: number, scale: TimelineScale, pb: Playback): number {
    if (lane.type !== LaneType.MARKERS) return -1;
    const m = pb.markers;
    let best = -1;
    let bestD = tolerance + 0.5;
    for (let i = 0; i < m.count; i++) {
      if ((lane.kinds & (1 << m.kinds[i])) === 0) continue;
      const d = Math.abs(scale.xOf(m.frames[i]) - x);
      if (d < bestD || (d === bestD && best >= 0 && m.kinds[i] === MarkerKind.BOOKMARK)) {
        bestD = d;
        best = i;
      }
    }
    return best;
  }

  /** How many markers of `lane` sit on the frame of marker `index` (for "+N more" in a tooltip). */
  public countAtFrame(lane: TimelineLane, index: number, pb: Playback): number {
    const m = pb.markers;
    const f = m.frames[index];
    let n = 0;
    for (let i = 0; i < m.count; i++) if (m.frames[i] === f && (lane.kinds & (1 << m.kinds[i])) !== 0) n++;
    return n;
  }

  /**
   * Reads the dt, size and over-budget flag of the frames held into the per-frame cache (only the
   * frames new since the last call when the held range moved forward on the same playback), then
   * the typical dt (mean of the frames not over twice the mean) and the largest size.
   */
  private measure(pb: Playback, scale: TimelineScale): void {
    const lo = scale.oldest;
    const hi = scale.newest;
    if (lo === this.measuredLo && hi === this.measuredHi && pb === this.measuredPb) return;
    const r = pb.reader;
    const n = hi - lo + 1;
    if (this.frameDt.length < n) {
      const cap = Math.max(n, this.frameDt.length * 2);
      this.frameDt = new Float32Array(cap);
      this.frameBytes = new Float32Array(cap);
      this.frameOver = new Uint8Array(cap);
      this.measuredPb = null;
    }
    const dts = this.frameDt;
    const sizes = this.frameBytes;
    const over = this.frameOver;
    let from = lo;
    if (pb === this.measuredPb && lo >= this.measuredLo && lo <= this.measuredHi + 1 && hi >= this.measuredHi) {
      // The window moved forward: keep what was read, read the new frames only.
      const shift = lo - this.measuredLo;
      const kept = this.measuredHi - lo + 1;
      if (shift > 0 && kept > 0) {
        dts.copyWithin(0, shift, shift + kept);
        sizes.copyWithin(0, shift, shift + kept);
        over.copyWithin(0, shift, shift + kept);
      }
      from = this.measuredHi + 1;
    }
    for (let f = from; f <= hi; f++) {
      const i = f - lo;
      dts[i] = r.dtOf(f);
      sizes[i] = r.bytesOf(f);
      over[i] = r.overBudgetOf(f) !== 0 ? 1 : 0;
    }
    let sum = 0;
    let count = 0;
    let maxBytes = 0;
    for (let i = 0; i < n; i++) {
      const dt = dts[i];
      if (dt > 0) {
        sum += dt;
        count++;
      }
      if (sizes[i] > maxBytes) maxBytes = sizes[i];
    }
    const mean = count > 0 ? sum / count : 0;
    sum = 0;
    count = 0;
    for (let i = 0; i < n; i++) {
      const dt = dts[i];
      if (dt > 0 && dt <= mean * 2) {
        sum += dt;
        count++;
      }
    }
    this.typicalDt = count > 0 ? sum / count : mean;
    this.maxBytes = maxBytes;
    this.measuredLo = lo;
    this.measuredHi = hi;
    this.measuredPb = pb;
  }

  /** Markers of kind `only` (-1: every kind, each in its lane) in one pass over the markers. */
  private drawMarkers(px: TimelinePixels, scale: TimelineScale, pb: Playback, only: number): void {
    const m = pb.markers;
    const ppf = scale.pixelsPerFrame;
    const start = scale.start;
    const first = Math.floor(start);
    const last = Math.ceil(scale.end);
    const tops = this.kindTop;
    const heights = this.kindHeight;
    const pixels = this.markerPixels;
    const narrow = ppf >= 4 ? 3 : 1;
    const kinds = m.kinds;
    const frames = m.frames;
    // The markers before `bookmarkStart` are sorted by frame: start at the first one shown.
    const sorted = m.bookmarkStart;
    let a = 0;
    let b = sorted;
    while (a < b) {
      const mid = (a + b) >> 1;
      if (frames[mid] < first) a = mid + 1;
      else b = mid;
    }
    for (let i = a; i < m.count; i++) {
      const f = frames[i];
      if (f > last) {
        if (i < sorted) {
          i = sorted - 1;
          continue;
        }
        continue;
      }
      if (f < first) continue;
      const kind = kinds[i];
      if (only >= 0 && kind !== only) continue;
      const y = tops[kind];
      if (y < 0) continue;
      const wide = kind === MarkerKind.BOOKMARK ? 2 : narrow;
      const x = Math.round((f - start) * ppf);
      px.rect(x - (wide >> 1), y, wide, heights[kind], pixels[kind]);
    }
  }

  private drawBars(px: TimelinePixels, y: number, lane: TimelineLane, scale: TimelineScale): void {
    const dt = lane.type === LaneType.DT;
    const values = dt ? this.frameDt : this.frameBytes;
    const over = this.frameOver;
    const h = lane.rows;
    const full = dt ? this.typicalDt * 3 : this.maxBytes;
    if (!(full > 0)) return;
    const hitch = dt ? this.typicalDt * 2 : Number.POSITIVE_INFINITY;
    const ppf = scale.pixelsPerFrame;
    const start = scale.start;
    const base = this.measuredLo;
    const lo = Math.max(scale.oldest, Math.floor(scale.start)) - base;
    const hi = Math.min(scale.newest, Math.ceil(scale.end)) - base;
    const normal = dt ? this.dtPixel : this.bytesPixel;
    const special = dt ? this.hitchPixel : this.overPixel;
    const first = (base - start) * ppf;
    if (ppf >= 2) {
      // One bar per frame.
      const bw = Math.max(1, Math.floor(ppf) - 1);
      for (let i = lo; i <= hi; i++) {
        const v = values[i];
        if (!(v > 0)) continue;
        const bh = Math.max(1, Math.min(h, Math.ceil((v / full) * h)));
        const flagged = v > hitch || (!dt && over[i] !== 0);
        px.rect(Math.round(first + i * ppf) - (bw >> 1), y + h - bh, bw, bh, flagged ? special : normal);
      }
      return;
    }
    // Several frames a column (frames run left to right, so a column's frames are consecutive):
    // the largest value of each column, flagged when any of its frames is special.
    const w = px.width;
    let col = -1;
    let top = 0;
    let flag = false;
    for (let i = lo; i <= hi + 1; i++) {
      const c = i <= hi ? Math.round(first + i * ppf) : w;
      if (c !== col) {
        if (col >= 0 && col < w && top > 0) {
          const bh = Math.max(1, Math.min(h, Math.ceil((top / full) * h)));
          px.vline(col, y + h - bh, y + h, flag ? special : normal);
        }
        col = c;
        top = 0;
        flag = false;
      }
      if (i > hi) break;
      const v = values[i];
      if (!(v > 0)) continue;
      if (v > top) top = v;
      if (v > hitch || (!dt && over[i] !== 0)) flag = true;
    }
  }
}
