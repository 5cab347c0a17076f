import type { Graphics, StrokeStyle } from 'pixi.js';
import {
  PRIM_AABB,
  PRIM_ARROW,
  PRIM_FLOATS,
  PRIM_LINE,
  PRIM_POINT,
  PRIM_SPHERE,
  PRIM_TEXT,
} from '../core/format/layout';
import type { PrimitiveBuffer } from '../core/read/buffers';

/** Most channels (one bit each in a mask). */
const CHANNELS = 32;

/**
 * Draws decoded debug primitives into pixi `Graphics`, one per channel. Primitives of one channel
 * and one colour become a single path with a single stroke (and a single fill for points), so
 * thousands of primitives cost a handful of draw instructions. The grouping is a counting sort
 * over flat scratch arrays: no allocation once the scratch has grown to the largest frame.
 *
 * Conventions (2D view of 3D records): z is ignored; a sphere is a circle; an AABB is a rectangle;
 * a point is a filled square of `size` world units; arrow heads are `headSize` world units long.
 * Lines are 1 pixel wide at any zoom (`pixelLine`) unless `lineWidth` is set.
 *
 * @internal Not exported from `rewindable/pixi`; reached as `overlay.layers.drawer`.
 *
 * @example
 * const drawer = new PrimitiveDrawer();
 * reader.readPrimitives(frame, mask, prims);
 * drawer.draw(prims, layers, CHANNEL_MASK_ALL); // layers[c]: the Graphics of channel c
 */
export class PrimitiveDrawer {
  /** Line width in world units; 0 draws hairlines 1 pixel wide at any zoom. */
  public lineWidth = 0;
  /** Opacity of fills (points). */
  public fillAlpha = 0.9;

  private order = new Int32Array(0);
  private grouped = new Int32Array(0);
  private groupOf = new Int32Array(0);
  private readonly channelCount = new Int32Array(CHANNELS + 1);
  private readonly drawn = new Uint8Array(CHANNELS);
  private readonly channelStart = new Int32Array(CHANNELS + 1);
  // Colour → group hash (open addressing, cleared by generation stamps).
  private hashKeys = new Int32Array(0);
  private hashVals = new Int32Array(0);
  private hashStamp = new Int32Array(0);
  private hashGen = 0;
  private groupColor = new Int32Array(0);
  private groupCount = new Int32Array(0);
  private groupStart = new Int32Array(0);
  private readonly stroke: StrokeStyle = { color: 0xffffff, width: 1, pixelLine: true, alpha: 1 };
  private readonly fill = { color: 0xffffff, alpha: 0.9 };
  /** Indices of text primitives found by the last `draw`, in record order. */
  public texts = new Int32Array(0);
  /** How many indices `texts` holds. */
  public textCount = 0;
  /** Non-text primitives drawn per channel by the last `draw`. */
  public readonly drawnCount = new Int32Array(CHANNELS);

  /**
   * Clears and redraws the Graphics of every channel in `mask` from `prims` (channels outside the
   * mask are cleared). Text primitives are not drawn: their indices are listed in `texts`.
   * `layers[c]` may be undefined for a channel that has no Graphics.
   */
  public draw(prims: PrimitiveBuffer, layers: ReadonlyArray<Graphics | undefined>, mask: number): void {
    const n = prims.count;
    this.ensure(n);
    const counts = this.channelCount;
    counts.fill(0);
    this.textCount = 0;
    const types = prims.types;
    const chans = prims.channels;
    for (let i = 0; i < n; i++) {
      if (types[i] === PRIM_TEXT) {
        this.texts[this.textCount++] = i;
        continue;
      }
      counts[chans[i]]++;
    }
    const start = this.channelStart;
    let acc = 0;
    for (let c = 0; c < CHANNELS; c++) {
      start[c] = acc;
      acc += counts[c];
    }
    start[CHANNELS] = acc;
    // Scatter by channel (counts reused as cursors).
    for (let c = 0; c < CHANNELS; c++) counts[c] = start[c];
    const order = this.order;
    for (let i = 0; i < n; i++) {
      if (types[i] === PRIM_TEXT) continue;
      order[counts[chans[i]]++] = i;
    }
    const drawn = this.drawn;
    for (let c = 0; c < CHANNELS; c++) {
      const g = layers[c];
      if (g === undefined) continue;
      // Clearing an empty Graphics still costs pixi an update event: only when something was drawn.
      if (drawn[c] !== 0 || g.context.instructions.length > 0) g.clear();
      drawn[c] = 0;
      this.drawnCount[c] = 0;
      if ((mask & (1 << c)) === 0) continue;
      const s = start[c];
      const e = start[c + 1];
      this.drawnCount[c] = e - s;
      if (e > s) {
        this.drawChannel(prims, g, s, e);
        drawn[c] = 1;
      }
    }
  }

  /** Draws the primitives `order[s .. e)` (one channel) grouped by colour. */
  private drawChannel(prims: PrimitiveBuffer, g: Graphics, s: number, e: number): void {
    const colors = prims.colors;
    const order = this.order;
    const groupOf = this.groupOf;
    const keys = this.hashKeys;
    const vals = this.hashVals;
    const stamp = this.hashStamp;
    const maskBits = keys.length - 1;
    if (++this.hashGen >= 0x7ffffff0) {
      stamp.fill(0);
      this.hashGen = 1;
    }
    const gen = this.hashGen;
    let groups = 0;
    for (let k = s; k < e; k++) {
      const color = colors[order[k]] | 0;
      let slot = (Math.imul(color, 0x9e3779b1) >>> 8) & maskBits;
      while (stamp[slot] === gen && keys[slot] !== color) slot = (slot + 1) & maskBits;
      if (stamp[slot] !== gen) {
        stamp[slot] = gen;
        keys[slot] = color;
        vals[slot] = groups;
        this.groupColor[groups] = color;
        this.groupCount[groups] = 0;
        groups++;
      }
      const grp = vals[slot];
      groupOf[k] = grp;
      this.groupCount[grp]++;
    }
    let acc = s;
    for (let q = 0; q < groups; q++) {
      this.groupStart[q] = acc;
      acc += this.groupCount[q];
      this.groupCount[q] = this.groupStart[q];
    }
    const grouped = this.grouped;
    for (let k = s; k < e; k++) grouped[this.groupCount[groupOf[k]]++] = order[k];
    const stroke = this.stroke;
    stroke.width = this.lineWidth > 0 ? this.lineWidth : 1;
    stroke.pixelLine = !(this.lineWidth > 0);
    const fill = this.fill;
    fill.alpha = this.fillAlpha;
    for (let q = 0; q < groups; q++) {
      const gs = this.groupStart[q];
      const ge = q + 1 < groups ? this.groupStart[q + 1] : e;
      if (this.addShapes(prims, g, gs, ge, false)) {
        stroke.color = this.groupColor[q];
        g.stroke(stroke);
      }
      if (this.addShapes(prims, g, gs, ge, true)) {
        fill.color = this.groupColor[q];
        g.fill(fill);
      }
    }
  }

  /** Adds the stroked (or, with `points`, the filled) shapes of `grouped[s .. e)`; true when any. */
  private addShapes(prims: PrimitiveBuffer, g: Graphics, s: number, e: number, points: boolean): boolean {
    const types = prims.types;
    const d = prims.data;
    const grouped = this.grouped;
    let any = false;
    for (let k = s; k < e; k++) {
      const i = grouped[k];
      const type = types[i];
      const o = i * PRIM_FLOATS;
      if (points !== (type === PRIM_POINT)) continue;
      any = true;
      switch (type) {
        case PRIM_POINT: {
          const h = d[o + 3] * 0.5;
          g.rect(d[o] - h, d[o + 1] - h, h * 2, h * 2);
          break;
        }
        case PRIM_LINE:
          g.moveTo(d[o], d[o + 1]);
          g.lineTo(d[o + 3], d[o + 4]);
          break;
        case PRIM_ARROW: {
          const x1 = d[o],
            y1 = d[o + 1],
            x2 = d[o + 3],
            y2 = d[o + 4],
            head = d[o + 6];
          g.moveTo(x1, y1);
          g.lineTo(x2, y2);
          const dx = x2 - x1,
            dy = y2 - y1;
          const len = Math.sqrt(dx * dx + dy * dy);
          if (len > 0 && head > 0) {
            const ux = dx / len,
              uy = dy / len;
            const bx = x2 - ux * head,
              by = y2 - uy * head;
            const px = -uy * head * 0.5,
              py = ux * head * 0.5;
            g.moveTo(bx + px, by + py);
            g.lineTo(x2, y2);
            g.lineTo(bx - px, by - py);
          }
          break;
        }
        case PRIM_SPHERE:
          if (d[o + 3] > 0) g.circle(d[o], d[o + 1], d[o + 3]);
          break;
        case PRIM_AABB:
          g.rect(d[o], d[o + 1], d[o + 3] - d[o], d[o + 4] - d[o + 1]);
          break;
        default:
          break;
      }
    }
    return any;
  }

  private ensure(n: number): void {
    if (n <= this.order.length) return;
    const cap = Math.max(n, this.order.length * 2, 64);
    this.order = new Int32Array(cap);
    this.grouped = new Int32Array(cap);
    this.groupOf = new Int32Array(cap);
    this.texts = new Int32Array(cap);
    this.groupColor = new Int32Array(cap);
    this.groupCount = new Int32Array(cap);
    this.groupStart = new Int32Array(cap);
    let size = 64;
    while (size < cap * 2) size <<= 1;
    this.hashKeys = new Int32Array(size);
    this.hashVals = new Int32Array(size);
    this.hashStamp = new Int32Array(size);
    this.hashGen = 0;
  }
}
