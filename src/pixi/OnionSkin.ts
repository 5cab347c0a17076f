import { Container, Graphics, type StrokeStyle } from 'pixi.js';
import type { Playback } from '../core/playback/Playback';
import type { SampleBuffer } from '../core/playback/SampleBuffer';

/** Settings of the onion skin and trail; see `DEFAULT_ONION_SKIN_OPTIONS`. */
export interface OnionSkinOptions {
  /** Shown from the start. */
  enabled: boolean;
  /** Ghosts on each side: at the N previous and N next frames (0..60). */
  ghosts: number;
  /** Frames between two ghosts (≥ 1). */
  spacing: number;
  /** Ghosts for every shown entity of the selected one's kind, not only the selected one. */
  wholeKind: boolean;
  /** Most entities given ghosts with `wholeKind`. */
  maxEntities: number;
  /** Radius of a ghost, world units. */
  radius: number;
  /** Colour of the ghosts before and after the viewed frame. */
  pastColor: number;
  futureColor: number;
  /** Opacity of the nearest ghost; farther ones fade to nothing. */
  alpha: number;
  /** Draw the selected entity's path over the in/out range (every frame held when none is set). */
  trail: boolean;
  trailColor: number;
  /** Length of the tick drawn at each frame of the trail, screen pixels. */
  tickPixels: number;
}

/** The defaults merged under `RewindOverlayOptions.onionSkin`. */
export const DEFAULT_ONION_SKIN_OPTIONS: Readonly<OnionSkinOptions> = Object.freeze({
  enabled: false,
  ghosts: 5,
  spacing: 2,
  wholeKind: false,
  maxEntities: 64,
  radius: 9,
  pastColor: 0xff6b6b,
  futureColor: 0x4cc9f0,
  alpha: 0.55,
  trail: true,
  trailColor: 0xf5f5f7,
  tickPixels: 3,
});

const MAX_GHOSTS = 60;
const lineStroke: StrokeStyle = { color: 0xffffff, width: 1, pixelLine: true, alpha: 0.75 };

/**
 * Onion skin and trail for animators, in world space: for the selected entity (or every shown one
 * of its kind), fading ghosts at the N previous and next frames (every `spacing` frames), and the
 * path of its positions over the in/out range (or every frame held) as a polyline with a tick at
 * each frame. Positions are read straight from the ring (`FrameReader.indexOf` with a hint, then
 * `positionAt`; the trail through `Playback.trail`) into buffers kept between redraws.
 *
 * Redrawn only when what it shows changed: the ghosts when the viewed frame, the selection or the
 * settings changed; the trail when the selection, the range, the zoom or the settings changed.
 *
 * @internal Part of the overlay's `OverlayView`; reached as `overlay.onion`.
 *
 * @example
 * overlay.setOnionSkin(true);                           // or the T key
 * overlay.onion.configure({ ghosts: 10, spacing: 1, wholeKind: true });
 */
export class OnionSkin {
  /** World-space container (the trail under the ghosts). */
  public readonly root = new Container();
  private readonly trailGraphics = new Graphics();
  private readonly ghostGraphics = new Graphics();
  private o: OnionSkinOptions;
  private on: boolean;
  private zoom = 1;
  private dirty = true;
  private trailDirty = true;
  /** What is drawn: handle and frame of the ghosts, handle and range of the trail. */
  private ghostHandle = -2;
  private ghostFrame = -1;
  private trailHandle = -2;
  private trailFrom = -1;
  private trailTo = -1;
  private trailPb: Playback | null = null;
  private ghostsDrawn = 0;
  private points = new Float32Array(0);
  private readonly at = new Float64Array(3);
  private redraws = 0;

  public constructor(options: Partial<OnionSkinOptions> = {}) {
    this.o = sanitize({ ...DEFAULT_ONION_SKIN_OPTIONS, ...options });
    this.on = this.o.enabled;
    this.root.label = 'rewindable:onion-skin';
    this.root.eventMode = 'none';
    this.trailGraphics.label = 'rewindable:trail';
    this.ghostGraphics.label = 'rewindable:onion-ghosts';
    this.root.addChild(this.trailGraphics, this.ghostGraphics);
  }

  /** Whether ghosts and trail are shown. */
  public get enabled(): boolean {
    return this.on;
  }

  /** The settings in use. */
  public get options(): Readonly<OnionSkinOptions> {
    return this.o;
  }

  /** Ghosts drawn by the last redraw (for tests and tools). */
  public get ghostCount(): number {
    return this.ghostsDrawn;
  }

  /** Redraws of the ghosts so far (for tests and tools). */
  public get redrawCount(): number {
    return this.redraws;
  }

  /** Shows or hides ghosts and trail. Returns whether it changed. */
  public setEnabled(on: boolean): boolean {
    if (on === this.on) return false;
    this.on = on;
    this.invalidate();
    return true;
  }

  /**
   * Changes settings (ghost count, spacing, whole kind, colours...); out-of-range values are clamped
   * (`ghosts` to 0..60, `spacing` to ≥ 1 whole frames).
   */
  public configure(options: Partial<OnionSkinOptions>): void {
    this.o = sanitize({ ...this.o, ...options });
    if (options.enabled !== undefined) this.on = options.enabled;
    this.invalidate();
  }

  /** The view's zoom (screen pixels per world unit): the trail's ticks keep their screen length. */
  public setZoom(zoom: number): void {
    if (zoom === this.zoom || !(zoom > 0)) return;
    this.zoom = zoom;
    this.trailDirty = true;
  }

  /** Everything is redrawn on the next update. */
  public invalidate(): void {
    this.dirty = true;
    this.trailDirty = true;
  }

  /** Removes what is drawn (the session ended). */
  public clear(): void {
    this.ghostGraphics.clear();
    this.trailGraphics.clear();
    this.ghostsDrawn = 0;
    this.ghostHandle = -2;
    this.trailHandle = -2;
    this.trailPb = null;
  }

  /**
   * Per tick while paused: redraws the ghosts for `handle` (-1: none) around the frame nearest to
   * the sample, and its trail, when what they show changed.
   */
  public update(pb: Playback, sample: SampleBuffer, handle: number): void {
    const h = this.on ? handle : -1;
    const r = pb.reader;
    const frame = sample.count > 0 || r.frameCount > 0 ? (sample.t < 0.5 ? sample.frameA : sample.frameB) : -1;
    if (this.dirty || h !== this.ghostHandle || (h >= 0 && frame !== this.ghostFrame)) {
      this.dirty = false;
      this.ghostHandle = h;
      this.ghostFrame = frame;
      this.drawGhosts(pb, sample, h, frame);
    }
    const t = pb.time;
    const from = h < 0 || !this.o.trail ? -1 : t.rangeIn;
    const to = h < 0 || !this.o.trail ? -1 : t.rangeOut;
    if (
      this.trailDirty ||
      h !== this.trailHandle ||
      from !== this.trailFrom ||
      to !== this.trailTo ||
      pb !== this.trailPb
    ) {
      this.trailDirty = false;
      this.trailHandle = h;
      this.trailFrom = from;
      this.trailTo = to;
      this.trailPb = pb;
      this.drawTrail(pb, h, from, to);
    }
  }

  private drawGhosts(pb: Playback, sample: SampleBuffer, handle: number, frame: number): void {
    const g = this.ghostGraphics;
    g.clear();
    this.ghostsDrawn = 0;
    this.redraws++;
    if (handle < 0 || frame < 0 || this.o.ghosts === 0) return;
    const table = pb.reader.entities;
    if (!this.o.wholeKind) {
      this.ghostsOf(pb, handle, frame);
      return;
    }
    const kind = handle < table.highWater ? table.kindOf[handle] : -1;
    let n = 0;
    for (let i = 0; i < sample.count && n < this.o.maxEntities; i++) {
      const h = sample.handles[i];
      if (h !== handle && (kind < 0 || table.kindOf[h] !== kind || !sample.inNearerFrame(i))) continue;
      this.ghostsOf(pb, h, frame);
      n++;
    }
    if (sample.indexOfHandle(handle) < 0) this.ghostsOf(pb, handle, frame);
  }

  /** The ghosts of one entity: farthest first, so that the nearest are on top. */
  private ghostsOf(pb: Playback, handle: number, frame: number): void {
    const r = pb.reader;
    const g = this.ghostGraphics;
    const o = this.o;
    const at = this.at;
    const n = o.ghosts;
    for (let side = 0; side < 2; side++) {
      const dir = side === 0 ? -1 : 1;
      const color = side === 0 ? o.pastColor : o.futureColor;
      let hint = -1;
      for (let k = n; k >= 1; k--) {
        const f = frame + dir * k * o.spacing;
        const i = r.indexOf(f, handle, hint);
        if (i < 0) continue;
        hint = i;
        r.positionAt(f, i, at, 0);
        const alpha = o.alpha * (1 - (k - 1) / n);
        g.circle(at[0], at[1], o.radius).fill({ color, alpha: alpha * 0.6 });
        g.circle(at[0], at[1], o.radius).stroke({ color, alpha, width: 1, pixelLine: true });
        this.ghostsDrawn++;
      }
    }
  }

  private drawTrail(pb: Playback, handle: number, from: number, to: number): void {
    const g = this.trailGraphics;
    g.clear();
    if (handle < 0 || to < from) return;
    const need = (to - from + 1) * 3;
    if (this.points.length < need) this.points = new Float32Array(need);
    const p = this.points;
    const n = pb.trail(handle, from, to, p);
    if (n < 2) return;
    g.moveTo(p[0], p[1]);
    for (let k = 1; k < n; k++) g.lineTo(p[k * 3], p[k * 3 + 1]);
    lineStroke.color = this.o.trailColor;
    lineStroke.alpha = 0.8;
    g.stroke(lineStroke);
    // A tick across the path at each frame, `tickPixels` long on screen.
    const half = this.o.tickPixels / this.zoom;
    for (let k = 0; k < n; k++) {
      const a = k > 0 ? k - 1 : k;
      const b = k < n - 1 ? k + 1 : k;
      const dx = p[b * 3] - p[a * 3];
      const dy = p[b * 3 + 1] - p[a * 3 + 1];
      const len = Math.hypot(dx, dy);
      const x = p[k * 3];
      const y = p[k * 3 + 1];
      if (len > 1e-6) {
        const nx = (-dy / len) * half;
        const ny = (dx / len) * half;
        g.moveTo(x - nx, y - ny).lineTo(x + nx, y + ny);
      } else {
        g.moveTo(x - half, y).lineTo(x + half, y);
      }
    }
    lineStroke.alpha = 0.55;
    g.stroke(lineStroke);
  }
}

function sanitize(o: OnionSkinOptions): OnionSkinOptions {
  const ghosts = Number.isFinite(o.ghosts)
    ? Math.max(0, Math.min(MAX_GHOSTS, Math.round(o.ghosts)))
    : DEFAULT_ONION_SKIN_OPTIONS.ghosts;
  const spacing = Number.isFinite(o.spacing) ? Math.max(1, Math.round(o.spacing)) : DEFAULT_ONION_SKIN_OPTIONS.spacing;
  const radius = o.radius > 0 && Number.isFinite(o.radius) ? o.radius : DEFAULT_ONION_SKIN_OPTIONS.radius;
  const maxEntities = Number.isFinite(o.maxEntities)
    ? Math.max(1, Math.round(o.maxEntities))
    : DEFAULT_ONION_SKIN_OPTIONS.maxEntities;
  return Object.freeze({ ...o, ghosts, spacing, radius, maxEntities });
}
