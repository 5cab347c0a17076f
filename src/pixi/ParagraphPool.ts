import { Container, Sprite, Texture } from 'pixi.js';
import { PRIM_FLOATS } from '../core/format/layout';
import type { PrimitiveBuffer } from '../core/read/buffers';
import { GlyphAtlas, GlyphText } from './GlyphText';

/** Look of the paragraph text blocks. */
export interface ParagraphStyle {
  fontFamily: string;
  fontSize: number;
  /** Backing colour and opacity. */
  background: number;
  backgroundAlpha: number;
  /** Padding around the text, pixels. */
  padding: number;
}

/** The default look of paragraphs: monospace 12 px on a 72 % black backing. */
export const DEFAULT_PARAGRAPH_STYLE: Readonly<ParagraphStyle> = Object.freeze({
  fontFamily: 'monospace',
  fontSize: 12,
  background: 0x000000,
  backgroundAlpha: 0.72,
  padding: 3,
});

/** Gap kept between stacked paragraphs, screen pixels. */
const STACK_GAP = 2;
/** Most moves of one paragraph while stacking it (past that it may overlap: a bound on the work). */
const MAX_MOVES = 24;

/**
 * One pooled paragraph: a leader line, a dark backing sprite and a text, plus the bytes it shows.
 * The root sits at the anchor; the block is drawn `lift` screen pixels above it (0 unless moved
 * to clear another paragraph), with the leader line down to the anchor.
 */
class Paragraph {
  public readonly root = new Container();
  public readonly leader = new Sprite(Texture.WHITE);
  public readonly bg = new Sprite(Texture.WHITE);
  public readonly text: GlyphText;
  public bytes = new Uint8Array(64);
  public length = -1;
  public color = -1;
  /** Text size, screen pixels (without padding). */
  public w = 0;
  public h = 0;
  /** How far the block is lifted above its anchor, screen pixels (≥ 0). */
  public lift = -1;

  public constructor(style: ParagraphStyle, atlas: GlyphAtlas) {
    this.text = new GlyphText(atlas);
    this.bg.tint = style.background;
    this.bg.alpha = style.backgroundAlpha;
    this.leader.tint = 0xffffff;
    this.leader.alpha = 0.6;
    this.leader.visible = false;
    this.root.addChild(this.leader, this.bg, this.text);
    this.root.eventMode = 'none';
  }

  /** Draws the block `lift` pixels above the anchor (a leader line when lifted). */
  public place(lift: number, pad: number): void {
    if (lift === this.lift) return;
    this.lift = lift;
    const w = this.w;
    const h = this.h;
    this.text.position.set(-w * 0.5, -h - pad - lift);
    this.bg.position.set(-w * 0.5 - pad, -h - pad * 2 - lift);
    this.bg.width = w + pad * 2;
    this.bg.height = h + pad * 2;
    this.leader.visible = lift > 0.5;
    this.leader.position.set(-0.5, -lift);
    this.leader.width = 1;
    this.leader.height = lift;
  }
}

/**
 * Readable text blocks for debug-draw paragraphs, from a pool of `GlyphText` meshes (glyphs come
 * from a shared atlas drawn once, so changing a text rewrites a few quads and uploads no texture). A paragraph's text
 * is re-rendered only when its bytes or colour change; moving it costs nothing. The blocks keep a
 * constant size and stay upright on screen whatever the camera (`setView`).
 *
 * Nearby paragraphs do not cover each other: after each `show` and view change they are stacked
 * in screen space, lowest anchor first, each lifted just above the blocks it would overlap, with a
 * thin leader line down to its anchor. The layout uses arrays sized once for `max` paragraphs (it
 * allocates nothing) and costs O(n²) box tests for n paragraphs in the usual case; a paragraph
 * moves at most 24 times (the bound for a pile of many paragraphs at one spot).
 *
 * @internal Not exported from `rewindable/pixi`; reached as `overlay.layers.paragraphs`.
 *
 * @example
 * const pool = new ParagraphPool(layer, style, 256);
 * pool.show(prims, drawer.texts, drawer.textCount);
 */
export class ParagraphPool {
  private readonly items: Paragraph[] = [];
  private active = 0;
  private viewScale = 1;
  private viewAngle = 0;
  /** Texts in the last `show` beyond `max` (not shown). */
  public overflow = 0;
  // Layout scratch, one slot per paragraph: anchors in screen orientation, the stacking order,
  // and the boxes placed so far (left, right, top, bottom; screen pixels, y down).
  private readonly anchorX: Float64Array;
  private readonly anchorY: Float64Array;
  private readonly order: Int32Array;
  private readonly boxes: Float64Array;

  /** The glyphs of every paragraph (shared with other pools of the same style when given). */
  public readonly atlas: GlyphAtlas;

  public constructor(
    private readonly parent: Container,
    private readonly style: ParagraphStyle,
    private readonly max: number,
    atlas?: GlyphAtlas,
  ) {
    this.atlas = atlas ?? ParagraphPool.atlasFor(style);
    const n = max > 0 ? max : 0;
    this.anchorX = new Float64Array(n);
    this.anchorY = new Float64Array(n);
    this.order = new Int32Array(n);
    this.boxes = new Float64Array(n * 4);
  }

  /**
   * A glyph atlas for `style` (line height 1.2 × the font size), at the device's pixel ratio
   * rounded up so glyphs stay sharp on high-density screens.
   */
  public static atlasFor(style: ParagraphStyle): GlyphAtlas {
    const dpr = typeof globalThis.devicePixelRatio === 'number' ? globalThis.devicePixelRatio : 1;
    return new GlyphAtlas(
      style.fontFamily,
      style.fontSize,
      style.fontSize * 1.2,
      Math.min(3, Math.max(1, Math.ceil(dpr))),
    );
  }

  /** Paragraphs shown. */
  public get count(): number {
    return this.active;
  }

  /** Paragraph objects created so far (the pool's size). */
  public get created(): number {
    return this.items.length;
  }

  /** The text object of shown paragraph `i` (for tests and tools). */
  public textAt(i: number): GlyphText | undefined {
    return i < this.active ? this.items[i].text : undefined;
  }

  /** How far shown paragraph `i` is lifted above its anchor to clear the others, screen pixels. */
  public liftAt(i: number): number {
    return i < this.active ? this.items[i].lift : 0;
  }

  /**
   * Shows the text primitives `indices[0 .. count)` of `prims`, anchored at their position
   * (horizontally centred, bottom at the anchor); hides the rest of the pool.
   */
  public show(prims: PrimitiveBuffer, indices: Int32Array, count: number): void {
    const n = Math.min(count, this.max);
    this.overflow = count - n;
    while (this.items.length < n) {
      const p = new Paragraph(this.style, this.atlas);
      this.items.push(p);
      this.parent.addChild(p.root);
    }
    for (let k = 0; k < n; k++) {
      const i = indices[k];
      const p = this.items[k];
      this.setContent(p, prims, i);
      const o = i * PRIM_FLOATS;
      p.root.position.set(prims.data[o], prims.data[o + 1]);
      p.root.scale.set(this.viewScale, this.viewScale);
      p.root.rotation = this.viewAngle;
      p.root.visible = true;
    }
    for (let k = n; k < this.active; k++) this.items[k].root.visible = false;
    this.active = n;
    this.layout();
  }

  /** Shows or hides shown paragraph `i` (without changing what it shows). */
  public setVisible(i: number, on: boolean): void {
    if (i < this.active) this.items[i].root.visible = on;
  }

  /** Hides every paragraph. */
  public clear(): void {
    for (let k = 0; k < this.active; k++) this.items[k].root.visible = false;
    this.active = 0;
    this.overflow = 0;
  }

  /**
   * Keeps paragraphs at a constant pixel size and upright under a camera of `zoom` and `angle`
   * (the world is drawn rotated by `-angle`).
   */
  public setView(zoom: number, angle: number): void {
    const s = zoom > 0 ? 1 / zoom : 1;
    if (s === this.viewScale && angle === this.viewAngle) return;
    this.viewScale = s;
    this.viewAngle = angle;
    for (let k = 0; k < this.active; k++) {
      const r = this.items[k].root;
      r.scale.set(s, s);
      r.rotation = angle;
    }
    // Zoom and rotation change the distances on screen: stack again.
    this.layout();
  }

  /**
   * Stacks the shown paragraphs so that none covers another on screen: lowest anchor first, each
   * lifted above every block already placed that it would overlap.
   */
  private layout(): void {
    const n = this.active;
    if (n === 0) return;
    const pad = this.style.padding;
    const zoom = 1 / this.viewScale;
    const c = Math.cos(this.viewAngle) * zoom;
    const s = Math.sin(this.viewAngle) * zoom;
    const ax = this.anchorX;
    const ay = this.anchorY;
    const order = this.order;
    // Anchors in screen orientation (the world is drawn rotated by -angle, scaled by zoom).
    for (let k = 0; k < n; k++) {
      const pos = this.items[k].root.position;
      ax[k] = pos.x * c + pos.y * s;
      ay[k] = -pos.x * s + pos.y * c;
      // Insertion sort, lowest anchor (largest y) first.
      let j = k;
      while (j > 0 && ay[order[j - 1]] < ay[k]) {
        order[j] = order[j - 1];
        j--;
      }
      order[j] = k;
    }
    const boxes = this.boxes;
    let placed = 0;
    for (let q = 0; q < n; q++) {
      const k = order[q];
      const p = this.items[k];
      if (!p.root.visible) continue;
      const half = p.w * 0.5 + pad;
      const height = p.h + pad * 2;
      const left = ax[k] - half;
      const right = ax[k] + half;
      let bottom = ay[k];
      for (let moves = 0; moves < MAX_MOVES; moves++) {
        // The highest top among the placed blocks this one overlaps (with the gap).
        const top = bottom - height;
        let above = Number.POSITIVE_INFINITY;
        for (let b = 0; b < placed; b++) {
          const o = b * 4;
          if (
            left < boxes[o + 1] + STACK_GAP &&
            boxes[o] - STACK_GAP < right &&
            top < boxes[o + 3] + STACK_GAP &&
            boxes[o + 2] - STACK_GAP < bottom &&
            boxes[o + 2] < above
          ) {
            above = boxes[o + 2];
          }
        }
        if (above === Number.POSITIVE_INFINITY) break;
        bottom = above - STACK_GAP;
      }
      const o = placed * 4;
      boxes[o] = left;
      boxes[o + 1] = right;
      boxes[o + 2] = bottom - height;
      boxes[o + 3] = bottom;
      placed++;
      p.place(ay[k] - bottom, pad);
    }
  }

  private setContent(p: Paragraph, prims: PrimitiveBuffer, i: number): void {
    const start = prims.textStart[i];
    const len = prims.textLength[i];
    const src = prims.textBytes;
    let same = len === p.length;
    if (same) {
      const b = p.bytes;
      for (let j = 0; j < len; j++) {
        if (b[j] !== src[start + j]) {
          same = false;
          break;
        }
      }
    }
    if (!same) {
      if (p.bytes.length < len) p.bytes = new Uint8Array(Math.max(len, p.bytes.length * 2));
      for (let j = 0; j < len; j++) p.bytes[j] = src[start + j];
      p.length = len;
      p.text.text = prims.text(i);
      p.w = p.text.width;
      p.h = p.text.height;
      p.lift = -1; // placed again by the layout
    }
    const color = prims.colors[i];
    if (color !== p.color) {
      p.color = color;
      p.text.tint = color;
    }
  }
}
