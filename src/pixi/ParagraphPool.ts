import { BitmapText, Container, Sprite, Texture } from 'pixi.js';
import { PRIM_FLOATS } from '../core/format/layout';
import type { PrimitiveBuffer } from '../core/read/buffers';

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

/** One pooled paragraph: a dark backing sprite and a text, plus the bytes it shows. */
class Paragraph {
  public readonly root = new Container();
  public readonly bg = new Sprite(Texture.WHITE);
  public readonly text: BitmapText;
  public bytes = new Uint8Array(64);
  public length = -1;
  public color = -1;

  public constructor(style: ParagraphStyle) {
    this.text = new BitmapText({
      text: '',
      style: { fontFamily: style.fontFamily, fontSize: style.fontSize, fill: 0xffffff, lineHeight: style.fontSize * 1.2 },
    });
    this.bg.tint = style.background;
    this.bg.alpha = style.backgroundAlpha;
    this.root.addChild(this.bg, this.text);
    this.root.eventMode = 'none';
  }
}

/**
 * Readable text blocks for debug-draw paragraphs, from a pool of `BitmapText` objects (glyphs come
 * from a dynamic bitmap font, so changing a text uploads no texture). A paragraph's text
 * is re-rendered only when its bytes or colour change; moving it costs nothing. The blocks keep a
 * constant size and stay upright on screen whatever the camera (`setView`).
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

  public constructor(
    private readonly parent: Container,
    private readonly style: ParagraphStyle,
    private readonly max: number,
  ) {}

  /** Paragraphs shown. */
  public get count(): number {
    return this.active;
  }

  /** Paragraph objects created so far (the pool's size). */
  public get created(): number {
    return this.items.length;
  }

  /** The text object of shown paragraph `i` (for tests and tools). */
  public textAt(i: number): BitmapText | undefined {
    return i < this.active ? this.items[i].text : undefined;
  }

  /**
   * Shows the text primitives `indices[0 .. count)` of `prims`, anchored at their position
   * (horizontally centred, bottom at the anchor); hides the rest of the pool.
   */
  public show(prims: PrimitiveBuffer, indices: Int32Array, count: number): void {
    const n = Math.min(count, this.max);
    this.overflow = count - n;
    while (this.items.length < n) {
      const p = new Paragraph(this.style);
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
      const pad = this.style.padding;
      const w = p.text.width;
      const h = p.text.height;
      p.text.position.set(-w * 0.5, -h - pad);
      p.bg.position.set(-w * 0.5 - pad, -h - pad * 2);
      p.bg.width = w + pad * 2;
      p.bg.height = h + pad * 2;
    }
    const color = prims.colors[i];
    if (color !== p.color) {
      p.color = color;
      p.text.tint = color;
    }
  }
}
