import { quatToAngleZ } from '../../core/math/quat';
import type { Playback } from '../../core/playback/Playback';
import type { SampleBuffer } from '../../core/playback/SampleBuffer';
import { DISPLAY_RECORDED, DISPLAY_SHOWN } from '../../core/read/buffers';
import { flagNames, positionSeries } from './entityState';
import type { InspectorFieldInfo, InspectorFieldSource } from './fieldSource';
import { formatNumber, SparkGraph, stripColor } from './SparkGraph';

/** What a card asks its inspector to do (every command ends in the overlay or its time control). */
export interface InspectorCardHost {
  /** Seeks the shown playback to a whole frame. */
  seek(frame: number): void;
  /** Selects the life of game id `id` present at (or nearest to) the viewed frame. */
  selectId(id: number): void;
  /** Pins or unpins the card's entity. */
  togglePin(handle: number): void;
  /** Closes the card: unpins it, or clears the selection. */
  close(handle: number): void;
  /** Copies the entity's whole state at the viewed frame as JSON. */
  copy(handle: number): void;
  /** Whether the entity is pinned. */
  isPinned(handle: number): boolean;
  /** Adds the field's graph to the timeline as a lane, or removes it when shown. */
  toggleLane(handle: number, info: InspectorFieldInfo): void;
  /** Whether the field is shown as a timeline lane. */
  hasLane(handle: number, info: InspectorFieldInfo): boolean;
}

/** Sizes of a card's graphs, CSS pixels. */
export interface InspectorCardStyle {
  graphWidth: number;
  graphHeight: number;
}

const AXIS_COLORS = ['#ff6b6b', '#6bd66b', '#6b9bff'];
// Slots of `shown`: what each value text shows now (NaN: force a rewrite).
const S_POS = 0;
const S_PRESENT = 1;
const S_X = 2;
const S_ANGLE = 5;
const S_Q = 6;
const S_FLAGS = 10;
const S_BONES = 11;
const S_DISPLAY = 12;
const S_FIELDS = 17;

/** One custom field's row: its info, value text, graph (or link) and what it shows. */
interface FieldRow {
  readonly info: InspectorFieldInfo;
  readonly value: HTMLElement;
  readonly text: Text;
  readonly graph: SparkGraph | null;
  /** Adds the graph to the timeline (or removes it); null for fields without one (references, vectors). */
  readonly lane: HTMLButtonElement | null;
}

/** One built-in graph: position x, y or z. */
interface AxisGraph {
  readonly axis: number;
  readonly graph: SparkGraph;
  readonly row: HTMLElement;
}

/**
 * One entity's card in the inspector: id, kind, label, its life (with buttons to jump to its spawn
 * and despawn), presence at the viewed frame, position, rotation (degrees and quaternion), flags by
 * name, bone count, every custom field, and graphs over the frames shown (position x and y, z when it
 * varies, each numeric field; enum and boolean fields as coloured strips; entity references as
 * links). `update` rewrites only the texts whose value changed and moves the playheads;
 * `setRange` recomputes the series only when the frames shown changed.
 *
 * @internal Built by `EntityInspector`.
 *
 * @example
 * const card = new InspectorCard(handle, playback, fields, host, style);
 * card.setRange(playback.time.rangeIn, playback.time.rangeOut);
 * card.update(playback.time.position, overlay.sample);
 */
export class InspectorCard {
  public readonly root: HTMLDivElement;
  /** The text node of each built-in value (writing `data` replaces no node). */
  private readonly values: Record<string, Text> = {};
  private readonly axes: AxisGraph[] = [];
  private readonly fieldRows: FieldRow[] = [];
  private readonly shown: Float64Array;
  private readonly scratch = new Float64Array(16);
  private readonly pinButton: HTMLButtonElement;
  private readonly despawnButton: HTMLButtonElement;
  private from = Number.NaN;
  private to = Number.NaN;
  private xyz = new Float64Array(0);
  /** Per field row: -1 not shown yet, 0 absent, 1 a value. */
  private readonly fieldState: Int8Array;

  public constructor(
    public readonly handle: number,
    public readonly playback: Playback,
    private readonly fields: InspectorFieldSource | null,
    private readonly host: InspectorCardHost,
    private readonly style: InspectorCardStyle,
  ) {
    const lt = playback.lifetimes;
    const root = document.createElement('div');
    root.className = 'rw-card';
    root.dataset.handle = String(handle);
    root.dataset.id = String(lt.id(handle));
    const kind = lt.kind(handle);
    const label = lt.label(handle);

    const head = div('rw-card-head');
    const title = document.createElement('span');
    title.className = 'rw-card-title';
    title.textContent = `#${lt.id(handle)}${kind !== undefined ? ` ${kind}` : ''}${label !== undefined ? ` “${label}”` : ''}`;
    title.dataset.field = 'title';
    this.pinButton = button('pin', 'pin', 'keep this entity in the inspector, to compare it with others', () =>
      host.togglePin(handle),
    );
    head.append(
      title,
      this.pinButton,
      button('{ }', 'copy', "copy this entity's whole state at this frame as JSON", () => host.copy(handle)),
      button('×', 'close', 'close', () => host.close(handle)),
    );
    root.append(head);

    this.row(root, 'life', 'life');
    const spawn = lt.spawnFrame(handle);
    const first = lt.firstFrame(handle);
    const jumps = div('rw-row rw-jumps');
    const spawnButton = button(
      spawn < first ? `⇤ first held ${first}` : `⇤ spawn ${spawn}`,
      'spawn',
      'jump to its first frame',
      () => host.seek(first),
    );
    this.despawnButton = button('', 'despawn', 'jump to its last frame', () => host.seek(lt.lastFrame(handle)));
    jumps.append(spawnButton, this.despawnButton);
    root.append(jumps);
    this.row(root, 'frame', 'frame');
    this.row(root, 'graphs', 'graphs');
    this.row(root, 'x', 'x');
    this.axisGraph(root, 0);
    this.row(root, 'y', 'y');
    this.axisGraph(root, 1);
    this.row(root, 'z', 'z');
    this.axisGraph(root, 2);
    this.row(root, 'angle', 'angle');
    this.row(root, 'quat', 'quaternion');
    this.row(root, 'flags', 'flags');
    this.row(root, 'bones', 'bones');
    this.row(root, 'display', 'display');

    const schema = fields?.schemaOf(handle) ?? [];
    if (schema.length > 0) {
      const h = div('rw-section');
      h.textContent = 'fields';
      root.append(h);
    }
    for (const info of schema) this.fieldRow(root, info);
    this.shown = new Float64Array(S_FIELDS + schema.length * 3).fill(Number.NaN);
    this.fieldState = new Int8Array(schema.length).fill(-1);
    this.root = root;
    this.refreshChrome();
  }

  /** Names the pin button after the pin state and the despawn button after the life (held frames may change). */
  public refreshChrome(): void {
    const pinned = this.host.isPinned(this.handle);
    this.pinButton.textContent = pinned ? 'unpin' : 'pin';
    this.root.classList.toggle('rw-pinned', pinned);
    const lt = this.playback.lifetimes;
    const alive = lt.existsAtNewest(this.handle);
    const last = lt.lastFrame(this.handle);
    this.despawnButton.textContent = alive ? `alive at newest ${last} ⇥` : `despawn ${last} ⇥`;
    const first = lt.firstFrame(this.handle);
    const spawn = lt.spawnFrame(this.handle);
    this.values.life.data = `${first}..${last}${spawn < first ? ` (spawned at ${spawn}, evicted)` : ''}`;
    for (const row of this.fieldRows) {
      if (row.lane === null) continue;
      const shown = this.host.hasLane(this.handle, row.info);
      row.lane.textContent = shown ? '− timeline' : '+ timeline';
      row.lane.title = shown ? 'remove this lane from the timeline' : 'add this graph to the timeline as a lane';
    }
  }

  /** Recomputes every graph's series when the frames shown changed (whole frames `from..to`). */
  public setRange(from: number, to: number): void {
    if (from === this.from && to === this.to) return;
    this.from = from;
    this.to = to;
    this.values.graphs.data = `${from}..${to}${this.playback.time.hasRange ? ' (in/out range)' : ' (frames held)'}`;
    const frames = Math.max(0, to - from + 1);
    if (this.xyz.length < frames * 3) this.xyz = new Float64Array(frames * 3);
    const xyz = this.xyz;
    // One read for the three position graphs: x, y, z per frame, then each takes its column.
    const n = positionSeries(this.playback.reader, this.handle, from, to, xyz);
    for (const a of this.axes) {
      const out = a.graph.buffer(frames);
      for (let k = 0; k < n; k++) out[k] = xyz[k * 3 + a.axis];
      a.graph.commit(from, to, n);
      // z is shown only when it varies (a 2D game records 0).
      if (a.axis === 2) a.row.hidden = !(a.graph.max > a.graph.min);
    }
    const f = this.fields;
    if (f !== null) {
      for (const row of this.fieldRows) {
        if (row.graph === null) continue;
        const out = row.graph.buffer(frames);
        row.graph.commit(from, to, f.series(this.handle, row.info.index, from, to, out));
      }
    }
    this.shown[S_POS] = Number.NaN;
  }

  /** Shows the values at the (fractional) frame `position` from `sample` (the overlay's sample of it). */
  public update(position: number, sample: SampleBuffer): void {
    const s = this.shown;
    const positionChanged = position !== s[S_POS];
    s[S_POS] = position;
    if (positionChanged) {
      for (const a of this.axes) a.graph.setPlayhead(position);
      for (const r of this.fieldRows) r.graph?.setPlayhead(position);
    }
    const i = sample.indexOfHandle(this.handle);
    const present = i >= 0 && sample.inNearerFrame(i) && sample.position === position;
    if (positionChanged) {
      const whole = Number.isInteger(position);
      this.values.frame.data = `${whole ? position : position.toFixed(2)}${present ? '' : ' — not present'}`;
    }
    if ((present ? 1 : 0) !== s[S_PRESENT]) {
      s[S_PRESENT] = present ? 1 : 0;
      this.root.classList.toggle('rw-absent', !present);
      if (!present) {
        for (let k = S_X; k < S_FIELDS; k++) s[k] = Number.NaN;
        for (const key of ['x', 'y', 'z', 'angle', 'quat', 'flags', 'bones', 'display']) this.values[key].data = '–';
        this.values.frame.data = `${Number.isInteger(position) ? position : position.toFixed(2)} — not present`;
      }
    }
    if (present) {
      const p = sample.positions;
      this.number('x', S_X, p[i * 3]);
      this.number('y', S_X + 1, p[i * 3 + 1]);
      this.number('z', S_X + 2, p[i * 3 + 2]);
      const q = sample.rotations;
      const angle = (quatToAngleZ(q, i * 4) * 180) / Math.PI;
      if (angle !== s[S_ANGLE]) {
        s[S_ANGLE] = angle;
        this.values.angle.data = `${angle.toFixed(1)}°`;
      }
      const qi = i * 4;
      if (q[qi] !== s[S_Q] || q[qi + 1] !== s[S_Q + 1] || q[qi + 2] !== s[S_Q + 2] || q[qi + 3] !== s[S_Q + 3]) {
        s[S_Q] = q[qi];
        s[S_Q + 1] = q[qi + 1];
        s[S_Q + 2] = q[qi + 2];
        s[S_Q + 3] = q[qi + 3];
        this.values.quat.data = `${q[qi].toFixed(3)} ${q[qi + 1].toFixed(3)} ${q[qi + 2].toFixed(3)} ${q[qi + 3].toFixed(3)}`;
      }
      const flags = sample.flags[i];
      if (flags !== s[S_FLAGS]) {
        s[S_FLAGS] = flags;
        const names = flagNames(flags);
        this.values.flags.data = names.length > 0 ? names.join(', ') : 'none';
      }
      const bones = sample.boneStart[i] >= 0 ? sample.boneCount[i] : 0;
      if (bones !== s[S_BONES]) {
        s[S_BONES] = bones;
        this.values.bones.data = String(bones);
      }
      this.updateDisplay(sample, i);
    }
    this.updateFields(position);
  }

  /** The 2D display state of row `i` (scale, alpha, visible, texture), or 'none' when none was recorded. */
  private updateDisplay(sample: SampleBuffer, i: number): void {
    const s = this.shown;
    const has = sample.hasDisplay && (sample.display[i] & DISPLAY_RECORDED) !== 0;
    const bits = has ? sample.display[i] : 0;
    const sx = has ? sample.scales[i * 2] : 0;
    const sy = has ? sample.scales[i * 2 + 1] : 0;
    const a = has ? sample.alphas[i] : 0;
    const t = has ? sample.textures[i] : -2;
    if (
      bits === s[S_DISPLAY] &&
      sx === s[S_DISPLAY + 1] &&
      sy === s[S_DISPLAY + 2] &&
      a === s[S_DISPLAY + 3] &&
      t === s[S_DISPLAY + 4]
    )
      return;
    s[S_DISPLAY] = bits;
    s[S_DISPLAY + 1] = sx;
    s[S_DISPLAY + 2] = sy;
    s[S_DISPLAY + 3] = a;
    s[S_DISPLAY + 4] = t;
    if (!has) {
      this.values.display.data = 'none';
      return;
    }
    const name = t >= 0 ? this.playback.reader.textures[t] : undefined;
    this.values.display.data =
      `scale ${formatNumber(sx)} ${formatNumber(sy)} · alpha ${a.toFixed(2)}` +
      `${(bits & DISPLAY_SHOWN) !== 0 ? '' : ' · hidden'}${name !== undefined ? ` · ${name}` : ''}`;
  }

  private updateFields(position: number): void {
    const f = this.fields;
    if (f === null || this.fieldRows.length === 0) return;
    const s = this.shown;
    const v = this.scratch;
    for (let r = 0; r < this.fieldRows.length; r++) {
      const row = this.fieldRows[r];
      const info = row.info;
      const slot = S_FIELDS + r * 3;
      const how = f.valueAt(this.handle, info.index, position, v);
      if (how === 0) {
        if (this.fieldState[r] !== 0) row.text.data = '–';
        this.fieldState[r] = 0;
        continue;
      }
      const n = info.components;
      let same = this.fieldState[r] === 1;
      for (let c = 0; c < n && c < 3; c++) if (!Object.is(v[c], s[slot + c])) same = false;
      if (same) continue;
      for (let c = 0; c < n && c < 3; c++) s[slot + c] = v[c];
      this.fieldState[r] = 1;
      row.text.data = this.fieldText(info, v);
      if (info.type === 'enum' || info.type === 'bool') row.value.style.borderLeftColor = stripColor(v[0]);
    }
  }

  private fieldText(info: InspectorFieldInfo, v: Float64Array): string {
    switch (info.type) {
      case 'bool':
        return v[0] !== 0 ? 'true' : 'false';
      case 'enum':
        // NaN: a value the recorder repaired (not one of the kind's names).
        return Number.isNaN(v[0]) ? '(invalid)' : (this.fields?.enumName(this.handle, info.index, v[0]) ?? `#${v[0]}`);
      case 'entity':
        return Number.isNaN(v[0]) ? 'none' : `→ #${v[0]}`;
      case 'vec3':
        return `${formatNumber(v[0])} ${formatNumber(v[1])} ${formatNumber(v[2])}`;
      default:
        return formatNumber(v[0]);
    }
  }

  private number(key: string, slot: number, x: number): void {
    if (x === this.shown[slot]) return;
    this.shown[slot] = x;
    this.values[key].data = formatNumber(x);
  }

  private row(parent: HTMLElement, key: string, label: string): HTMLElement {
    const r = div('rw-row');
    const k = document.createElement('span');
    k.className = 'rw-key';
    k.textContent = label;
    const v = document.createElement('span');
    v.className = 'rw-val';
    v.dataset.field = key;
    const t = document.createTextNode('');
    v.append(t);
    r.append(k, v);
    parent.append(r);
    this.values[key] = t;
    return v;
  }

  private axisGraph(parent: HTMLElement, axis: number): void {
    const graph = this.graph('line', 1, [AXIS_COLORS[axis]]);
    graph.root.dataset.graph = 'xyz'[axis];
    const row = div('rw-graph-row');
    row.append(graph.root);
    parent.append(row);
    this.axes.push({ axis, graph, row });
  }

  private fieldRow(parent: HTMLElement, info: InspectorFieldInfo): void {
    const r = div('rw-row');
    const k = document.createElement('span');
    k.className = 'rw-key';
    k.textContent = info.name;
    k.title = info.type;
    let value: HTMLElement;
    if (info.type === 'entity') {
      const link = document.createElement('button');
      link.type = 'button';
      link.className = 'rw-link';
      link.title = 'select the referenced entity';
      link.addEventListener('click', () => {
        const target = this.shown[S_FIELDS + this.fieldRows.findIndex((x) => x.info === info) * 3];
        if (!Number.isNaN(target)) this.host.selectId(target);
      });
      value = link;
    } else {
      value = document.createElement('span');
      value.className = info.type === 'enum' || info.type === 'bool' ? 'rw-val rw-enum' : 'rw-val';
    }
    value.dataset.field = `field:${info.name}`;
    const text = document.createTextNode('');
    value.append(text);
    r.append(k, value);
    parent.append(r);
    let graph: SparkGraph | null = null;
    let lane: HTMLButtonElement | null = null;
    if (info.type !== 'entity' && info.components === 1) {
      lane = button('+ timeline', 'timeline', '', () => this.host.toggleLane(this.handle, info));
      lane.classList.add('rw-lane');
      r.append(lane);
    }
    if (info.type !== 'entity') {
      const strip = info.type === 'enum' || info.type === 'bool';
      graph = this.graph(strip ? 'strip' : 'line', info.components, strip ? [] : AXIS_COLORS);
      graph.root.dataset.graph = `field:${info.name}`;
      const gr = div('rw-graph-row');
      gr.append(graph.root);
      parent.append(gr);
    }
    this.fieldRows.push({ info, value, text, graph, lane });
  }

  private graph(mode: 'line' | 'strip', lines: number, colors: readonly string[]): SparkGraph {
    return new SparkGraph({
      mode,
      lines,
      width: this.style.graphWidth,
      height: mode === 'strip' ? Math.max(8, Math.round(this.style.graphHeight / 3)) : this.style.graphHeight,
      colors: lines === 1 && colors.length > 0 ? [colors[0]] : colors,
      seek: (frame) => this.host.seek(frame),
    });
  }
}

function div(className: string): HTMLDivElement {
  const d = document.createElement('div');
  d.className = className;
  return d;
}

function button(text: string, action: string, title: string, run: () => void): HTMLButtonElement {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = text;
  b.title = title;
  b.dataset.action = action;
  b.addEventListener('click', run);
  return b;
}
