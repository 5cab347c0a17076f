import { Container, Graphics } from 'pixi.js';
import { PRIM_FLOATS, PRIM_TEXT } from '../core/format/layout';
import { PrimitiveBuffer } from '../core/read/buffers';
import { decodePrimitives } from '../core/read/FrameReader';
import type { StaticLayers } from '../core/store/StaticLayers';
import { ParagraphPool, type ParagraphStyle } from './ParagraphPool';
import { PrimitiveDrawer } from './PrimitiveDrawer';
import { PrimitiveMeshes } from './PrimitiveMeshes';

const CHANNELS = 32;

/**
 * The debug-draw layers in world space: static layers (drawn once per version), one layer per
 * channel, and pooled paragraph text blocks on top. Everything is created once (a channel's layer
 * on first use) and redrawn only when asked, i.e. when the viewed frame or the channel mask changes.
 *
 * A channel's layer holds a `Graphics` and, on WebGL, two persistent meshes (`PrimitiveMeshes`).
 * The frame's primitives go to the meshes (their buffers refilled in place: no geometry rebuilt)
 * when they exist and lines are hairlines (`drawer.lineWidth` 0); otherwise to the Graphics
 * (`PrimitiveDrawer`). Static layers always use Graphics: they are drawn once.
 *
 * Exported from `rewindable/pixi` as a type only (`overlay.layers`): the overlay builds it.
 *
 * @example
 * const layers = new DebugLayers(paragraphStyle, 256);
 * worldOverlay.addChild(layers.root);
 * reader.readPrimitives(frame, mask, prims);
 * layers.drawFrame(prims, mask);
 */
export class DebugLayers {
  /** Holds every layer; keep it aligned with the world container. */
  public readonly root = new Container();
  /** Static layers, one Graphics per channel (shown with its channel). */
  private readonly staticRoot = new Container();
  private readonly staticGraphics: Array<Graphics | undefined> = [];
  private readonly staticTexts: ParagraphPool;
  private readonly staticTextChannels = new Int32Array(4096);
  private readonly channelRoot = new Container();
  private readonly channelGraphics: Array<Graphics | undefined> = [];
  /** Per channel, the container of its Graphics and meshes (in channel order in `channelRoot`). */
  private readonly channelLayers: Array<Container | undefined> = [];
  private readonly textRoot = new Container();
  private readonly staticTextRoot = new Container();
  /** The frame's paragraphs. */
  public readonly paragraphs: ParagraphPool;
  /** Draws into the channels' Graphics: static layers, and frames when `meshes` is null or lines are wide. */
  public readonly drawer = new PrimitiveDrawer();
  /** Draws frames into persistent meshes (WebGL renderers); null when not used. */
  public readonly meshes: PrimitiveMeshes | null;
  /** What drew the shown frame: 0 nothing, 1 the Graphics, 2 the meshes. */
  private frameDrawnBy = 0;
  private readonly staticPrims = new PrimitiveBuffer();
  private staticVersion = -1;
  private staticSource: StaticLayers | null = null;
  private staticMask = -1;
  private redraws = 0;

  /**
   * @param meshes Draw frames with `PrimitiveMeshes` (needs a WebGL renderer: its shader is GLSL).
   */
  public constructor(style: ParagraphStyle, maxParagraphs: number, meshes = false) {
    this.meshes = meshes ? new PrimitiveMeshes() : null;
    this.root.eventMode = 'none';
    this.root.label = 'rewindable:debug';
    this.staticRoot.label = 'rewindable:static';
    this.channelRoot.label = 'rewindable:channels';
    this.textRoot.label = 'rewindable:paragraphs';
    this.root.addChild(this.staticRoot, this.staticTextRoot, this.channelRoot, this.textRoot);
    this.textRoot.isRenderGroup = true;
    this.paragraphs = new ParagraphPool(this.textRoot, style, maxParagraphs);
    this.staticTexts = new ParagraphPool(
      this.staticTextRoot,
      style,
      this.staticTextChannels.length,
      this.paragraphs.atlas,
    );
  }

  /** How many times `drawFrame` ran (a frame redraw). */
  public get redrawCount(): number {
    return this.redraws;
  }

  /** The Graphics of channel `c`, if it was ever drawn. */
  public graphicsOf(c: number): Graphics | undefined {
    return this.channelGraphics[c];
  }

  /** Non-text primitives of channel `c` drawn for the shown frame (0 when the channel is off). */
  public primitivesShown(c: number): number {
    if (this.frameDrawnBy === 2 && this.meshes !== null) return this.meshes.drawnCount[c];
    if (this.frameDrawnBy === 1) return this.drawer.drawnCount[c];
    return 0;
  }

  /**
   * Redraws every channel from `prims` (already filtered by `mask`) and the paragraphs. Creates a
   * channel's layer the first time the channel has primitives.
   */
  public drawFrame(prims: PrimitiveBuffer, mask: number): void {
    this.redraws++;
    const chans = prims.channels;
    for (let i = 0; i < prims.count; i++) {
      const c = chans[i];
      if (this.channelGraphics[c] === undefined && prims.types[i] !== PRIM_TEXT) this.makeChannel(c);
    }
    const meshes = this.meshes;
    if (meshes !== null && !(this.drawer.lineWidth > 0)) {
      if (this.frameDrawnBy === 1) this.clearGraphics();
      meshes.fillAlpha = this.drawer.fillAlpha;
      meshes.draw(prims, mask);
      this.frameDrawnBy = 2;
      this.paragraphs.show(prims, meshes.texts, meshes.textCount);
      return;
    }
    if (this.frameDrawnBy === 2) meshes?.clear();
    this.drawer.draw(prims, this.channelGraphics, mask);
    this.frameDrawnBy = 1;
    this.paragraphs.show(prims, this.drawer.texts, this.drawer.textCount);
  }

  /** Clears every channel and paragraph. */
  public clearFrame(): void {
    this.clearGraphics();
    this.meshes?.clear();
    this.frameDrawnBy = 0;
    this.paragraphs.clear();
  }

  private clearGraphics(): void {
    for (let c = 0; c < CHANNELS; c++) {
      const g = this.channelGraphics[c];
      if (g !== undefined && g.context.instructions.length > 0) g.clear();
    }
    this.drawer.drawnCount.fill(0);
  }

  /**
   * Brings the static layers up to date: rebuilt when `layers.version` changed (or another source
   * is given), shown per channel by `mask`. Cheap when nothing changed.
   */
  public syncStatic(layers: StaticLayers | null, mask: number): void {
    if (layers !== this.staticSource || (layers !== null && layers.version !== this.staticVersion)) {
      this.staticSource = layers;
      this.staticVersion = layers === null ? -1 : layers.version;
      this.rebuildStatic(layers);
      this.staticMask = -1;
    }
    if (mask === this.staticMask) return;
    this.staticMask = mask;
    for (let c = 0; c < CHANNELS; c++) {
      const g = this.staticGraphics[c];
      if (g !== undefined) g.visible = (mask & (1 << c)) !== 0;
    }
    for (let k = 0; k < this.staticTexts.count; k++) {
      this.staticTexts.setVisible(k, (mask & (1 << this.staticTextChannels[k])) !== 0);
    }
  }

  /** Keeps paragraphs readable (constant pixel size, upright) under a camera. */
  public setView(zoom: number, angle: number): void {
    this.paragraphs.setView(zoom, angle);
    this.staticTexts.setView(zoom, angle);
  }

  private rebuildStatic(layers: StaticLayers | null): void {
    for (let c = 0; c < CHANNELS; c++) this.staticGraphics[c]?.clear();
    this.staticTexts.clear();
    if (layers === null) return;
    const all = layers.list();
    const prims = this.staticPrims;
    // Every layer is decoded in turn and drawn on top of the previous ones, channel by channel.
    const merged = new PrimitiveBuffer();
    for (const layer of all) {
      const f = new Float32Array(layer.words.buffer, layer.words.byteOffset, layer.words.length);
      const u8 = new Uint8Array(layer.words.buffer, layer.words.byteOffset, layer.words.byteLength);
      decodePrimitives(layer.words, f, u8, 0, layer.words.length, layer.primCount, 0xffffffff, prims);
      appendPrimitives(merged, prims);
    }
    for (let i = 0; i < merged.count; i++) {
      const c = merged.channels[i];
      if (this.staticGraphics[c] === undefined && merged.types[i] !== PRIM_TEXT) {
        const g = new Graphics();
        g.label = `rewindable:static:${c}`;
        this.staticGraphics[c] = g;
        this.staticRoot.addChild(g);
      }
    }
    const drawer = new PrimitiveDrawer();
    drawer.draw(merged, this.staticGraphics, 0xffffffff);
    this.staticTexts.show(merged, drawer.texts, Math.min(drawer.textCount, this.staticTextChannels.length));
    for (let k = 0; k < this.staticTexts.count; k++) this.staticTextChannels[k] = merged.channels[drawer.texts[k]];
  }

  private makeChannel(c: number): void {
    const layer = new Container();
    layer.label = `rewindable:channel:${c}`;
    const g = new Graphics();
    g.label = `rewindable:channel:${c}:graphics`;
    layer.addChild(g);
    this.meshes?.attach(c, layer);
    this.channelGraphics[c] = g;
    this.channelLayers[c] = layer;
    // Keep channel order stable: insert by channel index.
    let at = 0;
    for (let k = 0; k < c; k++) if (this.channelLayers[k] !== undefined) at++;
    this.channelRoot.addChildAt(layer, at);
  }
}

/** Appends the primitives of `src` to `dst` (static layers only: allocates as needed). */
function appendPrimitives(dst: PrimitiveBuffer, src: PrimitiveBuffer): void {
  const base = dst.count;
  dst.ensure(base + src.count);
  dst.ensureTextBytes(dst.textByteCount + src.textByteCount);
  for (let i = 0; i < src.count; i++) {
    const k = base + i;
    dst.types[k] = src.types[i];
    dst.channels[k] = src.channels[i];
    dst.colors[k] = src.colors[i];
    for (let j = 0; j < PRIM_FLOATS; j++) dst.data[k * PRIM_FLOATS + j] = src.data[i * PRIM_FLOATS + j];
    if (src.types[i] === PRIM_TEXT) {
      dst.textStart[k] = dst.textByteCount + src.textStart[i];
      dst.textLength[k] = src.textLength[i];
    } else {
      dst.textStart[k] = 0;
      dst.textLength[k] = 0;
    }
  }
  dst.textBytes.set(src.textBytes.subarray(0, src.textByteCount), dst.textByteCount);
  dst.textByteCount += src.textByteCount;
  dst.count = base + src.count;
}
