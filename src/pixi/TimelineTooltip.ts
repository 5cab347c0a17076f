import { MarkerKind } from '../core/playback/MarkerIndex';
import type { Playback } from '../core/playback/Playback';
import { TextPanel, type TextPanelStyle } from './TextPanel';

/** Names of the marker kinds in tooltips, by `MarkerKind`. */
const KIND_NAMES = ['over budget', 'spawn', 'despawn', 'damage', 'bookmark', 'event'];

/** "frame 412 · 6.87 s" (the time as recorded). */
export function frameTimeText(pb: Playback, frame: number): string {
  const t = pb.reader.timeOf(frame);
  return `frame ${frame} · ${Number.isFinite(t) ? t.toFixed(2) : '?'} s`;
}

/** "walker "guard 3" (id 17)", "id 17", or "" when `handle` names nothing. */
export function entityText(pb: Playback, handle: number): string {
  if (handle < 0) return '';
  const lt = pb.lifetimes;
  const id = lt.id(handle);
  if (id < 0) return '';
  const kind = lt.kind(handle);
  const label = lt.label(handle);
  return `${kind !== undefined ? `${kind} ` : ''}${label !== undefined ? `"${label}" ` : ''}(id ${id})`;
}

/**
 * The text of a dt bar's tooltip: the frame and its recorded dt, flagged as a hitch when over twice
 * `typicalDt` (seconds).
 *
 * @internal
 * @example
 * dtBarText(playback, 412, 1 / 60); // 'frame 412 · 6.87 s\nrecorded dt 16.7 ms'
 */
export function dtBarText(pb: Playback, frame: number, typicalDt: number): string {
  const dt = pb.reader.dtOf(frame);
  const hitch = dt > typicalDt * 2 ? '  (hitch)' : '';
  return `${frameTimeText(pb, frame)}\nrecorded dt ${(dt * 1000).toFixed(1)} ms${hitch}`;
}

/**
 * The text of a bytes bar's tooltip: the frame and the bytes recorded for it, flagged when over budget.
 *
 * @internal
 * @example
 * bytesBarText(playback, 412); // 'frame 412 · 6.87 s\n1,204 bytes recorded'
 */
export function bytesBarText(pb: Playback, frame: number): string {
  const bytes = pb.reader.bytesOf(frame);
  const over = pb.reader.overBudgetOf(frame) !== 0 ? '  (over budget)' : '';
  return `${frameTimeText(pb, frame)}\n${bytes.toLocaleString('en-US')} bytes recorded${over}`;
}

/**
 * The text of a marker's tooltip: its frame and recorded time, its kind, and what it names: the
 * entity (kind, label and id, from `Lifetimes`), the event kind, the over-budget channels or the
 * bookmark's label; `more` other markers on the same frame and lane are counted.
 *
 * @internal
 * @example
 * markerText(playback, 3, 0); // 'frame 412 · 6.87 s\nspawn: walker "guard 3" (id 17)'
 */
export function markerText(pb: Playback, index: number, more: number): string {
  const m = pb.markers;
  const kind = m.kinds[index];
  const frame = m.frames[index];
  const handle = m.handles[index];
  const extra = m.channels[index];
  let what = KIND_NAMES[kind] ?? 'marker';
  if (kind === MarkerKind.OVER_BUDGET) {
    const names: string[] = [];
    for (let c = 0; c < 32; c++) if ((extra & (1 << c)) !== 0) names.push(pb.reader.channels.name(c) ?? `channel ${c}`);
    what += `: ${names.join(', ')}`;
  } else if (kind === MarkerKind.BOOKMARK) {
    const b = pb.bookmarks.get(extra);
    if (b !== undefined) what += `: ${b.label}`;
  } else if (kind === MarkerKind.EVENT) {
    what = `event ${pb.reader.eventKinds[extra] ?? `#${extra}`}`;
    const e = entityText(pb, handle);
    if (e !== '') what += `: ${e}`;
  } else {
    const e = entityText(pb, handle);
    if (e !== '') what += `: ${e}`;
  }
  return `${frameTimeText(pb, frame)}\n${what}${more > 0 ? `\n+${more} more on this frame` : ''}`;
}

/**
 * The timeline's hover tooltip: a small text panel placed above the pointer, kept on screen. Its
 * text is rebuilt only when the hovered item changes.
 *
 * @internal Part of `Timeline`.
 *
 * @example
 * tooltip.show('key', () => markerText(pb, i, 0), x, screenWidth);
 * tooltip.hide();
 */
export class TimelineTooltip {
  public readonly panel: TextPanel;
  private shownKey = '';

  public constructor(style: Partial<TextPanelStyle>) {
    this.panel = new TextPanel({ fontSize: 11, padding: 4, backgroundAlpha: 0.9, background: 0x16181d, ...style });
    this.panel.root.label = 'rewindable:timeline-tooltip';
  }

  /** The text shown ('' when hidden). */
  public get text(): string {
    return this.panel.root.visible ? this.panel.value : '';
  }

  /**
   * Shows the tooltip of the item `key` (its text from `build` when the key changed) with its left
   * edge near local x, its bottom at local y, within [0, maxX].
   */
  public show(key: string, build: () => string, x: number, y: number, maxX: number): void {
    if (key !== this.shownKey) {
      this.shownKey = key;
      this.panel.setText(build());
    }
    this.panel.root.visible = true;
    const w = this.panel.width;
    const left = Math.max(0, Math.min(x + 8, maxX - w));
    this.panel.root.position.set(left, y - this.panel.height - 4);
  }

  public hide(): void {
    this.shownKey = '';
    this.panel.root.visible = false;
  }
}
