/**
 * A minimal live view of the debug channels, drawn from the NEWEST RECORDED FRAME (so what you see is
 * exactly what was stored: merged paragraphs, budget cuts and all) plus the static layers. It stands
 * in until the rewindable overlay is attached (see `attachOverlay` in rewind.ts), which draws live
 * and replayed channels itself; then this file goes.
 */
import { BitmapFont, BitmapText, Container, Graphics } from 'pixi.js';
import {
  decodePrimitives, PRIM_AABB, PRIM_ARROW, PRIM_FLOATS, PRIM_LINE, PRIM_POINT, PRIM_SPHERE, PRIM_TEXT, PrimitiveBuffer,
  type Rewind,
} from '../rewind';
const FONT = 'rewind-debug';

export class DebugPreview {
  public readonly container = new Container({ label: 'debug-preview' });
  /** Channels shown (bit per channel). */
  public mask = 0xffffffff;
  private readonly staticG = new Graphics();
  /** The static layers: rebuilt only when they or the mask change. */
  private readonly staticLayer = new Container();
  private readonly g = new Graphics();
  private readonly texts: BitmapText[] = [];
  /** Dark plates behind the paragraphs, so text stays readable over lines. */
  private readonly plates = new Graphics();
  private readonly textLayer = new Container();
  private readonly prims = new PrimitiveBuffer();
  private readonly staticPrims = new PrimitiveBuffer();
  private staticVersion = -1;
  private staticMask = -1;

  public constructor(private readonly rw: Rewind) {
    BitmapFont.install({
      name: FONT,
      style: { fontFamily: 'monospace', fontSize: 22, fill: 0xffffff, stroke: { color: 0x000000, width: 4 } },
    });
    this.staticLayer.alpha = 0.55;
    this.staticLayer.addChild(this.staticG);
    this.container.addChild(this.staticLayer, this.g, this.plates, this.textLayer);
  }

  /** Redraws from the newest recorded frame. */
  public update(): void {
    const r = this.rw.recorder;
    const layers = r.staticLayers;
    if (layers.version !== this.staticVersion || this.mask !== this.staticMask) {
      this.staticVersion = layers.version;
      this.staticMask = this.mask;
      this.staticG.clear();
      for (const layer of layers.list()) {
        decodePrimitives(layer.words, new Float32Array(layer.words.buffer, layer.words.byteOffset, layer.words.length),
          new Uint8Array(layer.words.buffer, layer.words.byteOffset, layer.words.byteLength), 0, layer.words.length,
          layer.primCount, this.mask, this.staticPrims);
        this.drawPrims(this.staticG, this.staticPrims, 0);
      }
    }
    this.g.clear();
    this.plates.clear();
    const reader = r.reader;
    let textCount = 0;
    if (reader.frameCount > 0 && reader.readPrimitives(reader.newestFrame, this.mask, this.prims)) {
      textCount = this.drawPrims(this.g, this.prims, 0);
    }
    for (let i = textCount; i < this.texts.length; i++) this.texts[i].visible = false;
  }

  /** Draws primitives; texts go to the pooled BitmapTexts from index `textBase`. Returns texts used. */
  private drawPrims(g: Graphics, p: PrimitiveBuffer, textBase: number): number {
    let t = textBase;
    const d = p.data;
    for (let i = 0; i < p.count; i++) {
      const o = i * PRIM_FLOATS;
      const color = p.colors[i];
      switch (p.types[i]) {
        case PRIM_POINT: {
          const r = Math.max(1, d[o + 3] * 0.5);
          if (r <= 1.5) g.rect(d[o] - r, d[o + 1] - r, r * 2, r * 2).fill(color); // tiny: 2 triangles
          else g.circle(d[o], d[o + 1], r).fill(color);
          break;
        }
        case PRIM_LINE:
          g.moveTo(d[o], d[o + 1]).lineTo(d[o + 3], d[o + 4]).stroke({ width: 1.25, color });
          break;
        case PRIM_ARROW: {
          const x1 = d[o], y1 = d[o + 1], x2 = d[o + 3], y2 = d[o + 4], h = d[o + 6];
          const a = Math.atan2(y2 - y1, x2 - x1);
          g.moveTo(x1, y1).lineTo(x2, y2)
            .moveTo(x2 - Math.cos(a - 0.45) * h, y2 - Math.sin(a - 0.45) * h).lineTo(x2, y2)
            .lineTo(x2 - Math.cos(a + 0.45) * h, y2 - Math.sin(a + 0.45) * h)
            .stroke({ width: 1.5, color });
          break;
        }
        case PRIM_SPHERE:
          g.circle(d[o], d[o + 1], d[o + 3]).stroke({ width: 1.25, color });
          break;
        case PRIM_AABB:
          g.rect(d[o], d[o + 1], d[o + 3] - d[o], d[o + 4] - d[o + 1]).stroke({ width: 1.25, color });
          break;
        case PRIM_TEXT: {
          const text = this.text(t++);
          const s = p.text(i);
          if (text.text !== s) text.text = s;
          text.tint = color;
          text.position.set(d[o], d[o + 1]);
          text.visible = true;
          const w = text.width, h = text.height;
          this.plates.roundRect(d[o] - w / 2 - 3, d[o + 1] - h - 1, w + 6, h + 3, 3).fill({ color: 0x07080b, alpha: 0.62 });
          break;
        }
      }
    }
    return t;
  }

  private text(i: number): BitmapText {
    while (this.texts.length <= i) {
      const b = new BitmapText({ text: '', style: { fontFamily: FONT, fontSize: 11 } });
      b.anchor.set(0.5, 1);
      this.texts.push(b);
      this.textLayer.addChild(b);
    }
    return this.texts[i];
  }
}
