/** How a `SparkGraph` draws its values: lines (numbers) or a coloured strip (enum codes, booleans). */
export type SparkGraphMode = 'line' | 'strip';

/** Settings of a `SparkGraph`. */
export interface SparkGraphOptions {
  mode: SparkGraphMode;
  /** Values per frame (1; 3 for a vector: one line each). */
  lines: number;
  /** Width and height in CSS pixels. */
  width: number;
  height: number;
  /** Line colours (CSS), one per line. */
  colors: readonly string[];
  /** Seeks to a whole frame (a click or a drag on the graph). */
  seek: (frame: number) => void;
}

/** Colours of strip codes 0..15 (a code c uses `STRIP_COLORS[c % 16]`). */
export const STRIP_COLORS: readonly string[] = [
  '#5e9ed6',
  '#ff9f0a',
  '#30d158',
  '#ff453a',
  '#bf5af2',
  '#ffd60a',
  '#64d2ff',
  '#ff6b9a',
  '#a2845e',
  '#8e8e93',
  '#32ade6',
  '#ffcc80',
  '#66d4a0',
  '#d0a0ff',
  '#e0e070',
  '#ff8a65',
];

/** The strip colour of an enum code (or a boolean: 0, 1). */
export function stripColor(code: number): string {
  const c = Math.trunc(code);
  return STRIP_COLORS[((c % 16) + 16) % 16];
}

/**
 * A small graph of one value over a range of frames, drawn directly on a canvas (a sparkline:
 * cheaper than a chart library at this size): lines for numbers with their min and max, or a
 * strip of colours for enum codes. The playhead is on a second canvas above it, so a changed frame
 * redraws one line of pixels, not the graph. A click or a drag seeks to the frame under the pointer.
 *
 * The values live in the graph's own buffer: fill `buffer(frames)`, then `commit`.
 *
 * @example
 * const g = new SparkGraph({ mode: 'line', lines: 1, width: 240, height: 32, colors: ['#5e9ed6'], seek });
 * const n = fill(g.buffer(to - from + 1));
 * g.commit(from, to, n);
 * g.setPlayhead(playback.time.position); // per changed frame
 */
export class SparkGraph {
  public readonly root: HTMLDivElement;
  private readonly plot: HTMLCanvasElement;
  private readonly head: HTMLCanvasElement;
  private readonly plotCtx: CanvasRenderingContext2D | null;
  private readonly headCtx: CanvasRenderingContext2D | null;
  private readonly maxLabel: HTMLSpanElement;
  private readonly minLabel: HTMLSpanElement;
  private readonly options: SparkGraphOptions;
  private values = new Float64Array(0);
  private frames = 0;
  private from = 0;
  private to = 0;
  private minValue = Number.NaN;
  private maxValue = Number.NaN;
  private headX = Number.NaN;
  private readonly ratio: number;
  private dragging = false;

  public constructor(options: SparkGraphOptions) {
    this.options = options;
    this.ratio = Math.max(1, Math.min(3, globalThis.devicePixelRatio || 1));
    const root = document.createElement('div');
    root.className = 'rw-graph';
    root.style.width = `${options.width}px`;
    root.style.height = `${options.height}px`;
    root.title = 'click or drag: seek';
    this.plot = this.canvas();
    this.head = this.canvas();
    this.plotCtx = this.plot.getContext('2d');
    this.headCtx = this.head.getContext('2d');
    this.maxLabel = document.createElement('span');
    this.maxLabel.className = 'rw-graph-max';
    this.minLabel = document.createElement('span');
    this.minLabel.className = 'rw-graph-min';
    root.append(this.plot, this.head);
    if (options.mode === 'line') root.append(this.maxLabel, this.minLabel);
    root.addEventListener('pointerdown', (e) => {
      this.dragging = true;
      root.setPointerCapture?.(e.pointerId);
      this.seekAt(e.clientX);
      e.preventDefault();
    });
    root.addEventListener('pointermove', (e) => {
      if (this.dragging) this.seekAt(e.clientX);
    });
    const stop = (e: PointerEvent): void => {
      this.dragging = false;
      if (root.hasPointerCapture?.(e.pointerId)) root.releasePointerCapture(e.pointerId);
    };
    root.addEventListener('pointerup', stop);
    root.addEventListener('pointercancel', stop);
    this.root = root;
  }

  /** First and last frame shown. */
  public get range(): readonly [number, number] {
    return [this.from, this.to];
  }

  /** Smallest and largest value shown (NaN when none). */
  public get min(): number {
    return this.minValue;
  }

  public get max(): number {
    return this.maxValue;
  }

  /** The frame at page x `clientX` (rounded to a whole frame, clamped to the range shown). */
  public frameAtClientX(clientX: number): number {
    const r = this.root.getBoundingClientRect();
    const t = r.width > 0 ? (clientX - r.left) / r.width : 0;
    const c = t < 0 ? 0 : t > 1 ? 1 : t;
    return Math.round(this.from + c * (this.to - this.from));
  }

  /** The buffer to fill with `frames` frames of values (`lines` per frame); grows, never shrinks. */
  public buffer(frames: number): Float64Array {
    const n = Math.max(0, frames) * this.options.lines;
    if (this.values.length < n) this.values = new Float64Array(Math.max(n, this.values.length * 2));
    return this.values;
  }

  /** Shows the `frames` frames of values in the buffer as the frames `from..to`, and redraws. */
  public commit(from: number, to: number, frames: number): void {
    this.from = from;
    this.to = to;
    this.frames = Math.min(frames, Math.floor(this.values.length / this.options.lines));
    this.draw();
    this.headX = Number.NaN;
  }

  /** Moves the playhead to the (fractional) frame `position`; hidden outside the range shown. */
  public setPlayhead(position: number): void {
    const ctx = this.headCtx;
    if (ctx === null) return;
    const span = this.to - this.from;
    const w = this.head.width;
    let x = span > 0 ? Math.round(((position - this.from) / span) * (w - 1)) : 0;
    if (!(position >= this.from && position <= this.to)) x = -1;
    if (x === this.headX) return;
    const lw = Math.max(1, Math.round(this.ratio));
    // Only the old playhead's columns are cleared (NaN: nothing drawn yet, or a redraw: all of it).
    if (Number.isNaN(this.headX)) ctx.clearRect(0, 0, w, this.head.height);
    else if (this.headX >= 0) ctx.clearRect(this.headX - 1, 0, lw + 2, this.head.height);
    this.headX = x;
    if (x < 0) return;
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(x, 0, lw, this.head.height);
  }

  private canvas(): HTMLCanvasElement {
    const c = document.createElement('canvas');
    c.width = Math.round(this.options.width * this.ratio);
    c.height = Math.round(this.options.height * this.ratio);
    return c;
  }

  private seekAt(clientX: number): void {
    if (this.frames > 0) this.options.seek(this.frameAtClientX(clientX));
  }

  private draw(): void {
    const ctx = this.plotCtx;
    const w = this.plot.width;
    const h = this.plot.height;
    if (ctx !== null) ctx.clearRect(0, 0, w, h);
    if (this.options.mode === 'strip') this.drawStrip(ctx, w, h);
    else this.drawLines(ctx, w, h);
  }

  private drawStrip(ctx: CanvasRenderingContext2D | null, w: number, h: number): void {
    this.minValue = Number.NaN;
    this.maxValue = Number.NaN;
    const n = this.frames;
    const v = this.values;
    if (ctx === null || n === 0) return;
    const step = this.options.lines;
    const px = n > 1 ? w / (n - 1) : w;
    let start = 0;
    for (let k = 1; k <= n; k++) {
      const a = v[start * step];
      if (k < n && (v[k * step] === a || (Number.isNaN(a) && Number.isNaN(v[k * step])))) continue;
      if (!Number.isNaN(a)) {
        ctx.fillStyle = stripColor(a);
        const x0 = n > 1 ? Math.round((start - 0.5) * px) : 0;
        const x1 = n > 1 ? Math.round((k - 0.5) * px) : w;
        ctx.fillRect(Math.max(0, x0), 0, Math.min(w, x1) - Math.max(0, x0), h);
      }
      start = k;
    }
  }

  private drawLines(ctx: CanvasRenderingContext2D | null, w: number, h: number): void {
    const n = this.frames;
    const lines = this.options.lines;
    const v = this.values;
    let lo = Number.POSITIVE_INFINITY;
    let hi = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < n * lines; i++) {
      const x = v[i];
      if (x < lo) lo = x;
      if (x > hi) hi = x;
    }
    const any = lo <= hi;
    this.minValue = any ? lo : Number.NaN;
    this.maxValue = any ? hi : Number.NaN;
    this.maxLabel.textContent = any ? formatNumber(hi) : '';
    this.minLabel.textContent = any ? formatNumber(lo) : '';
    if (ctx === null || !any) return;
    const pad = 2 * this.ratio;
    const span = hi - lo;
    const yOf = (x: number): number => (span > 0 ? h - pad - ((x - lo) / span) * (h - 2 * pad) : h / 2);
    const xOf = (k: number): number => (n > 1 ? (k / (n - 1)) * (w - 1) : w / 2);
    ctx.lineWidth = Math.max(1, this.ratio);
    for (let l = 0; l < lines; l++) {
      ctx.strokeStyle = this.options.colors[l] ?? this.options.colors[0] ?? '#5e9ed6';
      ctx.beginPath();
      let pen = false;
      for (let k = 0; k < n; k++) {
        const x = v[k * lines + l];
        if (Number.isNaN(x)) {
          pen = false;
          continue;
        }
        if (pen) ctx.lineTo(xOf(k), yOf(x));
        else ctx.moveTo(xOf(k), yOf(x));
        pen = true;
      }
      ctx.stroke();
    }
  }
}

/**
 * A number as the inspector shows it: integers as they are, others with 3 decimals (7 significant
 * digits from a million), NaN as '–'.
 *
 * @example
 * formatNumber(12.345678); // '12.346'
 */
export function formatNumber(x: number): string {
  if (Number.isNaN(x)) return '–';
  if (Number.isInteger(x)) return String(x);
  return Math.abs(x) >= 1e6 ? x.toPrecision(7) : x.toFixed(3);
}
