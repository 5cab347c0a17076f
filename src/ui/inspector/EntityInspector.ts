import type { Ticker } from 'pixi.js';
import type { Playback } from '../../core/playback/Playback';
import type { RewindOverlay } from '../../pixi/RewindOverlay';
import { EntityList } from './EntityList';
import { inspectState, type InspectedState } from './entityState';
import { fieldSourceOf, type InspectorFieldInfo, type InspectorFieldSource } from './fieldSource';
import { InspectorCard, type InspectorCardHost } from './InspectorCard';
import { installInspectorStyle } from './inspectorStyle';
import { formatNumber, stripColor } from './SparkGraph';

/** Settings of `EntityInspector`; see `DEFAULT_ENTITY_INSPECTOR_OPTIONS`. */
export interface EntityInspectorOptions {
  /** Where the panel goes (it is `position: fixed`); null: `document.body`. */
  container: HTMLElement | null;
  /** The custom fields of a playback (default: its `fields`, when it has them). */
  fields: (playback: Playback) => InspectorFieldSource | null;
  /** Distance from the canvas' left and top edges, CSS pixels. */
  left: number;
  top: number;
  /** Size of each graph, CSS pixels (a card is a little wider than its graphs). */
  graphWidth: number;
  graphHeight: number;
  /** Most rows the entity list shows (the filter narrows the rest down). */
  maxListRows: number;
  /** Text of the overlay's help (H) line that points a new user here; '' adds none. */
  helpLine: string;
}

/** The defaults merged under the options given to `new EntityInspector(...)`. */
export const DEFAULT_ENTITY_INSPECTOR_OPTIONS: Readonly<EntityInspectorOptions> = Object.freeze({
  container: null,
  fields: fieldSourceOf,
  left: 12,
  top: 64,
  graphWidth: 232,
  graphHeight: 30,
  maxListRows: 300,
  helpLine: 'click an entity: the inspector shows its values and graphs over time ("entities" lists them all)',
});

/** Height of the timeline's label line above its ruler (`Timeline.top`), pixels. */
const TIMELINE_LABEL_PX = 20;

/** A pinned life: its handle, and the id and spawn frame that make sure the handle still names it. */
interface Pin {
  readonly handle: number;
  readonly id: number;
  readonly spawn: number;
}

/**
 * The entity inspector: a DOM panel (selectable, copyable text; it draws nothing into the game's
 * canvas) beside the paused game, for the entity selected in the overlay (click it in the paused
 * game, pick it from the **entity list** of every life held, or type its id in the list's filter and
 * press Enter). For each entity it shows, at the viewed frame: id, kind, label, its life (with
 * buttons to jump to its spawn and despawn), position, rotation (degrees and quaternion), flags by
 * name, bone count and every custom field the recording has (`playback.fields`); graphs of the
 * position and of each numeric field over the frames held (or the in/out range), enum fields as
 * coloured state strips, entity references as links. A click or a drag on a graph seeks. **Pin**
 * keeps an entity to compare it side by side with others; **{ }** copies its whole state at this
 * frame as JSON (`stateOf`).
 *
 * It owns no playback state: it follows the overlay (`onChange`: selection, source, pause) and the
 * shown playback's time control (`onChange`), marks what changed, and redraws it once per tick on
 * the application's ticker, after the overlay has sampled the frame: a changed frame rewrites only
 * the values that changed and moves the graphs' playheads; the series are read again only when the
 * frames shown change. Every button sends a command to the overlay (`select`) or to the time
 * control (`seek`), as the timeline does. Shown only while the game is paused (or a replay is shown);
 * it never covers the timeline, and its × closes it until the next selection.
 *
 * @example
 * const inspector = new EntityInspector(overlay);
 * overlay.select(handle);   // or click an entity in the paused game
 * inspector.pin(handle);    // compare it with the next one selected
 * inspector.stateOf(handle); // what "copy as JSON" copies
 * inspector.destroy();
 */
export class EntityInspector {
  public readonly options: Readonly<EntityInspectorOptions>;
  /** The panel. */
  public readonly root: HTMLDivElement;
  public readonly list: EntityList;
  private readonly cardsRoot: HTMLDivElement;
  private readonly hint: HTMLDivElement;
  private readonly status: HTMLSpanElement;
  private readonly listButton: HTMLButtonElement;
  private readonly cards = new Map<number, InspectorCard>();
  /** The cards shown, in order (iterated per update without an iterator object). */
  private cardList: InspectorCard[] = [];
  private readonly host: InspectorCardHost;
  private pins: Pin[] = [];
  private playback: Playback | null = null;
  private fields: InspectorFieldSource | null = null;
  private selectedHandle = -1;
  private unsubscribeTime: (() => void) | null = null;
  private readonly unsubscribeOverlay: () => void;
  private unsubscribeLanes: () => void = () => {};
  private timeDirty = true;
  private cardsDirty = true;
  private layoutDirty = true;
  private closedByUser = false;
  private listOpen = false;
  private shownTimelineTop = Number.NaN;
  private copiedText = '';
  private updates = 0;
  private destroyed = false;
  private readonly onResize = (): void => {
    this.layoutDirty = true;
  };

  public constructor(
    public readonly overlay: RewindOverlay,
    options: Partial<EntityInspectorOptions> = {},
  ) {
    const o: EntityInspectorOptions = { ...DEFAULT_ENTITY_INSPECTOR_OPTIONS, ...options };
    this.options = Object.freeze(o);
    installInspectorStyle(document);
    const root = document.createElement('div');
    root.className = 'rewindable-inspector';
    root.hidden = true;
    const head = document.createElement('div');
    head.className = 'rw-head';
    const title = document.createElement('span');
    title.className = 'rw-title';
    title.textContent = 'inspector';
    this.status = document.createElement('span');
    this.status.className = 'rw-status';
    this.listButton = headButton('entities', 'list', 'list every entity held (filter by kind, label or id)', () =>
      this.toggleList(),
    );
    head.append(
      title,
      this.status,
      this.listButton,
      headButton('×', 'close-inspector', 'close the inspector (it opens again with the next selection)', () =>
        this.close(),
      ),
    );
    this.hint = document.createElement('div');
    this.hint.className = 'rw-hint';
    this.hint.textContent = 'Click an entity in the paused game, or pick one from "entities".';
    this.list = new EntityList(o.maxListRows, (h) => this.inspect(h));
    this.list.root.hidden = true;
    this.cardsRoot = document.createElement('div');
    this.cardsRoot.className = 'rw-cards';
    root.append(head, this.hint, this.list.root, this.cardsRoot);
    (o.container ?? document.body).append(root);
    this.root = root;

    this.host = {
      seek: (frame) => this.overlay.playback.time.seek(frame),
      selectId: (id) => this.selectId(id),
      togglePin: (h) => (this.isPinned(h) ? this.unpin(h) : this.pin(h)),
      close: (h) => {
        if (this.isPinned(h)) this.unpin(h);
        else if (h === this.overlay.selected) this.overlay.select(-1);
      },
      copy: (h) => void this.copy(h),
      isPinned: (h) => this.isPinned(h),
      toggleLane: (h, info) => this.toggleLane(h, info),
      hasLane: (h, info) => this.overlay.timeline.hasFieldLane(laneKey(h, info)),
    };
    // The cards' "+ timeline" buttons follow the timeline's lanes (a lane's × removes it there); the
    // timeline exists once the overlay's paused view has loaded (the panel opens only then).
    overlay.ready.then(
      () => {
        if (this.destroyed) return;
        this.unsubscribeLanes = overlay.timeline.onFieldLanesChange(() => {
          for (const card of this.cards.values()) card.refreshChrome();
        });
      },
      () => {},
    );
    this.unsubscribeOverlay = overlay.onChange(() => this.overlayChanged());
    overlay.app.ticker.add(this.tick, this, overlay.options.tickerPriority - 0.5);
    if (typeof window !== 'undefined') window.addEventListener('resize', this.onResize);
    if (o.helpLine.length > 0) overlay.setHelpIntro(o.helpLine);
    this.overlayChanged();
  }

  /** Handles of the pinned entities, in the order pinned. */
  public get pinned(): readonly number[] {
    return this.pins.map((p) => p.handle);
  }

  /** Handles of the cards shown, left to right (the selection first unless it is pinned). */
  public get shownHandles(): readonly number[] {
    return [...this.cardsRoot.children].map((c) => Number((c as HTMLElement).dataset.handle));
  }

  /** Whether the panel is shown now. */
  public get isOpen(): boolean {
    return !this.root.hidden;
  }

  /** Whether the entity list is open. */
  public get isListOpen(): boolean {
    return this.listOpen;
  }

  /** The text the last "copy as JSON" copied ('' before the first). */
  public get lastCopied(): string {
    return this.copiedText;
  }

  /** How many updates redrew something (for tests and tools). */
  public get updateCount(): number {
    return this.updates;
  }

  /** Whether `handle` is pinned. */
  public isPinned(handle: number): boolean {
    return this.pins.some((p) => p.handle === handle);
  }

  /** Pins the life `handle` of the shown playback: its card stays, beside the selection's. */
  public pin(handle: number): void {
    const pb = this.overlay.playback;
    if (this.isPinned(handle) || !pb.lifetimes.isHeld(handle)) return;
    this.pins = [...this.pins, { handle, id: pb.lifetimes.id(handle), spawn: pb.lifetimes.spawnFrame(handle) }];
    this.cardsDirty = true;
  }

  /** Unpins `handle`. */
  public unpin(handle: number): void {
    if (!this.isPinned(handle)) return;
    this.pins = this.pins.filter((p) => p.handle !== handle);
    this.cardsDirty = true;
  }

  /**
   * Selects the life `handle` in the overlay (as a click on it does), seeking into its life first
   * when the viewed frame is outside it, and opens the panel.
   */
  public inspect(handle: number): void {
    const pb = this.overlay.playback;
    const lt = pb.lifetimes;
    if (!lt.isHeld(handle)) return;
    const f = pb.time.position;
    const first = lt.firstFrame(handle);
    const last = lt.lastFrame(handle);
    if (f < first) pb.time.seek(first);
    else if (f > last) pb.time.seek(last);
    this.closedByUser = false;
    this.cardsDirty = true;
    this.overlay.select(handle);
  }

  /** Selects the life of game id `id` present at the viewed frame (else its latest life held). False when none is held. */
  public selectId(id: number): boolean {
    const pb = this.overlay.playback;
    const lt = pb.lifetimes;
    const frame = Math.round(pb.time.position);
    let best = -1;
    let bestLast = Number.NEGATIVE_INFINITY;
    lt.forEach((h) => {
      if (lt.id(h) !== id) return;
      const present = lt.presentAt(h, frame);
      const score = present ? Number.POSITIVE_INFINITY : lt.lastFrame(h);
      if (score > bestLast) {
        bestLast = score;
        best = h;
      }
    });
    if (best < 0) return false;
    this.inspect(best);
    return true;
  }

  /** Opens or closes the entity list. */
  public toggleList(open = !this.listOpen): void {
    this.listOpen = open;
    this.list.root.hidden = !open;
    this.listButton.classList.toggle('rw-on', open);
    if (open) {
      this.closedByUser = false;
      this.list.refresh(this.overlay.playback.lifetimes);
    }
    this.cardsDirty = true;
    this.update();
  }

  /** Closes the panel, clears the selection and the pins; the next selection opens it again. */
  public close(): void {
    this.closedByUser = true;
    this.pins = [];
    this.toggleList(false);
    this.overlay.select(-1);
    this.cardsDirty = true;
    this.update();
  }

  /** The whole recorded state of `handle` at the viewed frame (rounded to a whole frame); null when not held. */
  public stateOf(handle: number): InspectedState | null {
    const pb = this.overlay.playback;
    return inspectState(pb, handle, this.options.fields(pb));
  }

  /**
   * Copies `stateOf(handle)` as JSON to the clipboard (also kept in `lastCopied`). Resolves true when
   * the clipboard took it; false when the page may not write to it (the text is still in `lastCopied`).
   */
  public async copy(handle: number): Promise<boolean> {
    const state = this.stateOf(handle);
    if (state === null) return false;
    const text = JSON.stringify(state, null, 2);
    this.copiedText = text;
    this.status.textContent = `copied #${state.id} at ${state.frame}`;
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      this.status.textContent = `#${state.id} at ${state.frame}: clipboard refused (see console)`;
      console.info(text);
      return false;
    }
  }

  /**
   * Redraws what changed since the last update: the cards (selection, pins, a new recording), the
   * series (the frames shown), the values and playheads (the viewed frame). Called on every tick
   * (it returns at once when nothing changed); call it yourself after `overlay.update` to redraw now.
   */
  public update(): void {
    if (this.destroyed) return;
    const o = this.overlay;
    const open = this.shouldOpen();
    if (open === this.root.hidden) {
      this.root.hidden = !open;
      this.layoutDirty = true;
      // The overlay's readout drops what the panel shows (id, kind, label, frames) while it is open.
      o.setSelectionDetail(!open);
    }
    if (!open) return;
    const pb = o.playback;
    if (this.cardsDirty) this.syncCards(pb);
    if (this.layoutDirty || o.timeline.top !== this.shownTimelineTop) this.layout();
    if (!this.timeDirty && !this.cardsDirty) return;
    this.timeDirty = false;
    this.cardsDirty = false;
    this.updates++;
    const time = pb.time;
    const from = time.rangeIn;
    const to = time.rangeOut;
    const sample = o.sample;
    const position = sample.position;
    const list = this.cardList;
    for (let k = 0; k < list.length; k++) {
      list[k].setRange(from, to);
      list[k].update(position, sample);
    }
  }

  /** Removes the panel and stops listening. */
  public destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.unsubscribeOverlay();
    this.unsubscribeLanes();
    this.unsubscribeTime?.();
    this.overlay.app.ticker.remove(this.tick, this);
    if (typeof window !== 'undefined') window.removeEventListener('resize', this.onResize);
    if (this.options.helpLine.length > 0) this.overlay.setHelpIntro('');
    this.overlay.setSelectionDetail(true);
    this.root.remove();
  }

  /**
   * Adds field `info` of life `handle` to the timeline as a lane ("label · field": a bar graph with
   * its min and max, or a strip of colours for enums and booleans), or removes it when shown. The
   * timeline owns the lane and reads its values through the inspector's field source (`series`).
   */
  public toggleLane(handle: number, info: InspectorFieldInfo): void {
    const tl = this.overlay.timeline;
    const key = laneKey(handle, info);
    if (tl.removeFieldLane(key)) return;
    const fields = this.fields;
    const pb = this.playback ?? this.overlay.playback;
    if (fields === null) return;
    const lt = pb.lifetimes;
    const name = lt.label(handle) ?? `${lt.kind(handle) ?? 'entity'} ${lt.id(handle)}`;
    const strip = info.type === 'enum' || info.type === 'bool';
    const index = info.index;
    tl.addFieldLane({
      key,
      label: `${name} · ${info.name}`,
      playback: pb,
      mode: strip ? 'strip' : 'line',
      series: (from, to, out) => fields.series(handle, index, from, to, out),
      format: (v) =>
        info.type === 'enum'
          ? (fields.enumName(handle, index, v) ?? String(v))
          : info.type === 'bool'
            ? String(v !== 0)
            : formatNumber(v),
      color: (v) => (strip ? Number.parseInt(stripColor(v).slice(1), 16) : LANE_LINE_COLOR),
    });
  }

  private tick(_ticker: Ticker): void {
    if (
      this.timeDirty ||
      this.cardsDirty ||
      this.layoutDirty ||
      this.root.hidden === this.shouldOpen() ||
      (!this.root.hidden && this.overlay.timeline.top !== this.shownTimelineTop)
    )
      this.update();
  }

  /** Open while paused, unless suspended, closed with ×, or the key help is shown (it would cover the help). */
  private shouldOpen(): boolean {
    const o = this.overlay;
    return o.isPaused && o.viewState === 'ready' && !o.suspended && !this.closedByUser && !o.helpShown;
  }

  /** The overlay changed: a new playback shown (a replay loaded or dropped), the selection, pause. */
  private overlayChanged(): void {
    const o = this.overlay;
    const pb = o.playback;
    if (pb !== this.playback) {
      this.unsubscribeTime?.();
      this.playback = pb;
      this.fields = this.options.fields(pb);
      this.unsubscribeTime = pb.time.onChange(() => {
        this.timeDirty = true;
      });
      this.pins = [];
      for (const c of this.cards.values()) c.root.remove();
      this.cards.clear();
      this.cardList = [];
      if (this.listOpen) this.list.refresh(pb.lifetimes);
      this.cardsDirty = true;
    }
    if (o.selected !== this.selectedHandle) {
      this.selectedHandle = o.selected;
      if (o.selected >= 0) this.closedByUser = false;
      this.cardsDirty = true;
    }
    this.timeDirty = true;
  }

  /** The cards wanted now: the selection (unless pinned), then the pins; others are removed. */
  private syncCards(pb: Playback): void {
    const lt = pb.lifetimes;
    // A pin whose handle no longer names the same life (evicted, recycled) is dropped.
    this.pins = this.pins.filter(
      (p) => lt.isHeld(p.handle) && lt.id(p.handle) === p.id && lt.spawnFrame(p.handle) === p.spawn,
    );
    const wanted: number[] = [];
    const sel = this.overlay.selected;
    if (sel >= 0 && lt.isHeld(sel) && !this.isPinned(sel)) wanted.push(sel);
    for (const p of this.pins) wanted.push(p.handle);
    for (const [h, card] of this.cards) {
      if (!wanted.includes(h) || card.playback !== pb) {
        card.root.remove();
        this.cards.delete(h);
      }
    }
    for (let k = 0; k < wanted.length; k++) {
      const h = wanted[k];
      let card = this.cards.get(h);
      if (card === undefined) {
        card = new InspectorCard(h, pb, this.fields, this.host, this.options);
        this.cards.set(h, card);
      }
      card.refreshChrome();
      card.root.classList.toggle('rw-selected', h === sel);
      if (this.cardsRoot.children[k] !== card.root)
        this.cardsRoot.insertBefore(card.root, this.cardsRoot.children[k] ?? null);
    }
    this.cardList = wanted.map((h) => this.cards.get(h) as InspectorCard);
    this.hint.hidden = wanted.length > 0 || this.listOpen;
  }

  /** Keeps the panel between its top offset and the timeline (it scrolls inside when taller). */
  private layout(): void {
    this.layoutDirty = false;
    const o = this.overlay;
    const top = o.timeline.top;
    this.shownTimelineTop = top;
    const rect = o.app.canvas.getBoundingClientRect();
    const opt = this.options;
    this.root.style.left = `${Math.round(rect.left + opt.left)}px`;
    this.root.style.top = `${Math.round(rect.top + opt.top)}px`;
    // Above the timeline's label line too (18 pixels above its ruler).
    const bottom = o.timeline.root.visible ? rect.top + top - TIMELINE_LABEL_PX : rect.bottom;
    const room = Math.max(80, Math.floor(bottom - (rect.top + opt.top) - 8));
    this.root.style.maxHeight = `${room}px`;
  }
}

function headButton(text: string, action: string, title: string, run: () => void): HTMLButtonElement {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = text;
  b.title = title;
  b.dataset.action = action;
  b.addEventListener('click', run);
  return b;
}

/** Colour of a numeric field's lane in the timeline. */
const LANE_LINE_COLOR = 0x7fd67f;

/** The timeline lane key of field `info` of life `handle`. */
function laneKey(handle: number, info: InspectorFieldInfo): string {
  return `field:${handle}:${info.index}`;
}
