import { DOMAdapter, Mesh, MeshGeometry, Texture } from 'pixi.js';

/** Side of the atlas canvas, in its own pixels. */
const ATLAS_SIZE = 512;
/** Empty pixels around each glyph's cell in the atlas (so linear filtering never reads a neighbour). */
const GUTTER = 2;

/**
 * A glyph atlas: the characters of one font drawn once into a canvas texture, each in a cell as
 * wide as its advance and one line high. Characters are added on first use; when the atlas is full
 * a character outside it shows as `?`.
 *
 * @internal Used by `GlyphText`.
 */
export class GlyphAtlas {
  public readonly texture: Texture;
  /** Height of a line, logical pixels. */
  public readonly lineHeight: number;
  private readonly ctx: CanvasRenderingContext2D;
  private readonly resolution: number;
  private readonly baseline: number;
  /** Per character code: cell left, top, width (atlas pixels) and advance (logical pixels); `codes` maps a code to its slot. */
  private cells = new Float64Array(4 * 128);
  private readonly codes = new Map<number, number>();
  private readonly ascii = new Int32Array(128).fill(-1);
  private count = 0;
  private penX = 0;
  private penY = 0;
  private full = false;

  public constructor(fontFamily: string, fontSize: number, lineHeight: number, resolution: number) {
    this.resolution = resolution;
    this.lineHeight = lineHeight;
    const canvas = DOMAdapter.get().createCanvas(ATLAS_SIZE, ATLAS_SIZE);
    const ctx = canvas.getContext('2d') as CanvasRenderingContext2D | null;
    if (ctx === null) throw new Error('rewindable: no 2D canvas context for paragraph text');
    this.ctx = ctx;
    ctx.font = `${fontSize * resolution}px ${fontFamily}`;
    ctx.textBaseline = 'alphabetic';
    ctx.fillStyle = '#ffffff';
    const m = ctx.measureText('M|Ég');
    const ascent = m.fontBoundingBoxAscent ?? m.actualBoundingBoxAscent;
    const descent = m.fontBoundingBoxDescent ?? m.actualBoundingBoxDescent;
    const cellH = lineHeight * resolution;
    this.baseline = (cellH - (ascent + descent)) / 2 + ascent;
    this.texture = Texture.from(canvas);
    this.texture.source.scaleMode = 'linear';
  }

  /** The slot of character `code`, drawn into the atlas on first use. */
  public slot(code: number): number {
    if (code < 128) {
      const s = this.ascii[code];
      if (s >= 0) return s;
    } else {
      const s = this.codes.get(code);
      if (s !== undefined) return s;
    }
    return this.add(code);
  }

  /** Advance of slot `s`, logical pixels. */
  public advance(s: number): number {
    return this.cells[s * 4 + 3];
  }

  /** Writes slot `s`'s texture coordinates (u0, v0, u1, v1) into `out` at `o`. */
  public uv(s: number, out: Float32Array, o: number): void {
    const c = this.cells;
    const x = c[s * 4];
    const y = c[s * 4 + 1];
    const w = c[s * 4 + 2];
    out[o] = x / ATLAS_SIZE;
    out[o + 1] = y / ATLAS_SIZE;
    out[o + 2] = (x + w) / ATLAS_SIZE;
    out[o + 3] = (y + this.lineHeight * this.resolution) / ATLAS_SIZE;
  }

  private add(code: number): number {
    if (this.full) return code === 63 ? 0 : this.slot(63);
    const ch = String.fromCodePoint(code);
    const r = this.resolution;
    const adv = this.ctx.measureText(ch).width;
    const w = Math.ceil(adv) + GUTTER * 2;
    const h = Math.ceil(this.lineHeight * r) + GUTTER * 2;
    if (this.penX + w > ATLAS_SIZE) {
      this.penX = 0;
      this.penY += h;
    }
    if (this.penY + h > ATLAS_SIZE) {
      this.full = true;
      return code === 63 ? 0 : this.slot(63);
    }
    const s = this.count++;
    if (this.cells.length < this.count * 4) {
      const grown = new Float64Array(this.cells.length * 2);
      grown.set(this.cells);
      this.cells = grown;
    }
    this.ctx.fillText(ch, this.penX + GUTTER, this.penY + GUTTER + this.baseline);
    this.cells[s * 4] = this.penX + GUTTER;
    this.cells[s * 4 + 1] = this.penY + GUTTER;
    this.cells[s * 4 + 2] = adv;
    this.cells[s * 4 + 3] = adv / r;
    this.penX += w;
    if (code < 128) this.ascii[code] = s;
    else this.codes.set(code, s);
    this.texture.source.update();
    return s;
  }
}

/**
 * A single-font text drawn as a mesh of glyph quads from a shared `GlyphAtlas`: setting the text
 * rewrites the quads in place (buffers grow, never shrink; unused quads are degenerate), so a
 * changing text costs one pass over its characters and a small upload, with no layout or geometry
 * rebuilt by pixi. Lines are split at `\n`; `width` and `height` are those of the laid-out text.
 * White glyphs: `tint` colours them.
 *
 * @internal Used by `ParagraphPool`.
 *
 * @example
 * const atlas = new GlyphAtlas('monospace', 12, 14.4, 2);
 * const t = new GlyphText(atlas);
 * t.text = 'unit 7: patrol';
 */
export class GlyphText extends Mesh {
  private readonly atlas: GlyphAtlas;
  private content = '';
  private textWidth = 0;
  private textHeight = 0;
  private positions: Float32Array;
  private uvs: Float32Array;
  private indices: Uint32Array;
  private readonly uvScratch = new Float32Array(4);
  /** Quads the previous text used. */
  private quads = 0;

  public constructor(atlas: GlyphAtlas) {
    const positions = new Float32Array(8 * 16);
    const uvs = new Float32Array(8 * 16);
    const indices = new Uint32Array(6 * 16);
    // Batched whatever its size: paragraphs and their backings then go to the GPU in one draw call.
    const geometry = new MeshGeometry({ positions, uvs, indices });
    geometry.batchMode = 'batch';
    super({ geometry, texture: atlas.texture });
    this.atlas = atlas;
    this.positions = positions;
    this.uvs = uvs;
    this.indices = indices;
  }

  /** The text shown. */
  public get text(): string {
    return this.content;
  }

  public set text(value: string) {
    if (value === this.content) return;
    this.content = value;
    this.layout(value);
  }

  /** Width of the laid-out text, local pixels. */
  public override get width(): number {
    return this.textWidth * Math.abs(this.scale.x);
  }

  public override set width(_value: number) {
    // The size follows the text.
  }

  /** Height of the laid-out text (lines × line height), local pixels. */
  public override get height(): number {
    return this.textHeight * Math.abs(this.scale.y);
  }

  public override set height(_value: number) {
    // The size follows the text.
  }

  private layout(value: string): void {
    const atlas = this.atlas;
    const n = value.length;
    this.reserve(n);
    const pos = this.positions;
    const uvs = this.uvs;
    const idx = this.indices;
    const uv = this.uvScratch;
    const lh = atlas.lineHeight;
    let x = 0;
    let y = 0;
    let widest = 0;
    let q = 0;
    for (let i = 0; i < n; i++) {
      let code = value.charCodeAt(i);
      if (code === 10) {
        if (x > widest) widest = x;
        x = 0;
        y += lh;
        continue;
      }
      if (code >= 0xd800 && code <= 0xdbff && i + 1 < n) {
        code = value.codePointAt(i) as number;
        i++;
      }
      const s = atlas.slot(code);
      const adv = atlas.advance(s);
      atlas.uv(s, uv, 0);
      const k = q * 8;
      pos[k] = x;
      pos[k + 1] = y;
      pos[k + 2] = x + adv;
      pos[k + 3] = y;
      pos[k + 4] = x + adv;
      pos[k + 5] = y + lh;
      pos[k + 6] = x;
      pos[k + 7] = y + lh;
      uvs[k] = uv[0];
      uvs[k + 1] = uv[1];
      uvs[k + 2] = uv[2];
      uvs[k + 3] = uv[1];
      uvs[k + 4] = uv[2];
      uvs[k + 5] = uv[3];
      uvs[k + 6] = uv[0];
      uvs[k + 7] = uv[3];
      const v = q * 4;
      const j = q * 6;
      idx[j] = v;
      idx[j + 1] = v + 1;
      idx[j + 2] = v + 2;
      idx[j + 3] = v;
      idx[j + 4] = v + 2;
      idx[j + 5] = v + 3;
      x += adv;
      q++;
    }
    if (x > widest) widest = x;
    // Quads past the text: degenerate (zero area) at the origin, so nothing of an older, longer text
    // shows or widens the bounds.
    if (this.quads > q) {
      idx.fill(0, q * 6, this.quads * 6);
      pos.fill(0, q * 8, this.quads * 8);
    }
    this.quads = q;
    this.textWidth = widest;
    this.textHeight = n === 0 ? 0 : y + lh;
    const g = this.geometry;
    g.getBuffer('aPosition').update();
    g.getBuffer('aUV').update();
    g.getIndex().update();
  }

  /** Makes room for `n` quads (doubling; the geometry's buffers are replaced only when they grow). */
  private reserve(n: number): void {
    const cap = this.indices.length / 6;
    if (n <= cap) return;
    const size = Math.max(n, cap * 2);
    this.positions = new Float32Array(size * 8);
    this.uvs = new Float32Array(size * 8);
    this.indices = new Uint32Array(size * 6);
    const g = this.geometry;
    g.positions = this.positions;
    g.uvs = this.uvs;
    g.indices = this.indices;
  }
}
