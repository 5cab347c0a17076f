/** Look of the timeline. */
export interface TimelineStyle {
  /** Height of the expanded timeline (ruler and lanes), pixels. */
  height: number;
  /** Height when collapsed (ruler and one marker lane), pixels. */
  collapsedHeight: number;
  /** Start collapsed. */
  collapsed: boolean;
  /** Height of the ruler at the top, pixels. */
  rulerHeight: number;
  /** Width of the lanes' legend on the left, pixels. */
  legendWidth: number;
  /** Gap to the screen edges, pixels. */
  margin: number;
  background: number;
  /** Colour of the part of the bar that holds frames. */
  held: number;
  playhead: number;
  /** Marker colours by `MarkerKind`: over budget, spawn, despawn, damage, bookmark, event. */
  markerColors: readonly number[];
  /** Bars of the recorded dt per frame, and of a hitch (over twice the typical dt). */
  dtColor: number;
  hitchColor: number;
  /** Bars of the bytes per frame, and of a frame over budget. */
  bytesColor: number;
  overBudgetColor: number;
  /** The in/out range: its shading and handles. */
  rangeColor: number;
  /** Ruler ticks and labels. */
  tickColor: number;
  fontFamily: string;
}

/** The default look of the timeline. */
export const DEFAULT_TIMELINE_STYLE: Readonly<TimelineStyle> = Object.freeze({
  height: 92,
  collapsedHeight: 28,
  collapsed: false,
  rulerHeight: 16,
  legendWidth: 62,
  margin: 12,
  background: 0x0c0d10,
  held: 0x1e2128,
  playhead: 0xffffff,
  markerColors: Object.freeze([0xff453a, 0x30d158, 0x98989d, 0xff9f0a, 0x0a84ff, 0xffd60a]),
  dtColor: 0x5e9ed6,
  hitchColor: 0xff6b3d,
  bytesColor: 0x7d8597,
  overBudgetColor: 0xff453a,
  rangeColor: 0x64d2ff,
  tickColor: 0x8a909c,
  fontFamily: 'monospace',
});
