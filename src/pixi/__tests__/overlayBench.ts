/**
 * The overlay benchmark (browser only): the CPU time of one full overlay update on a changed frame,
 * with `entities` live sprites and `primitives` debug primitives per frame, in real Chromium.
 *
 * "One update" is `overlay.update(0)` after a seek to another frame: sampling (frames decoded and
 * blended), every entity presented through the binding, every channel's Graphics rebuilt, the
 * paragraphs, the camera and the timeline. pixi tessellates Graphics when it renders, so the render
 * that follows is timed separately (`renderMs`). Timed twice: playing (the next frame each time)
 * and scrubbing (7 frames away each time).
 *
 * @example
 * const result = await runOverlayBench({ entities: 1000, primitives: 2000 });
 * console.log(JSON.stringify({ overlayUpdateMs: result.overlayUpdateMs }));
 */
import { Application, Container, Sprite, Texture } from 'pixi.js';
import { FrameHeader } from '../../core/read/buffers';
import { Channel } from '../../core/record/ChannelRegistry';
import { Recorder } from '../../core/record/Recorder';
import { RewindOverlay } from '../RewindOverlay';

export interface OverlayBenchOptions {
  entities: number;
  /** Debug primitives per frame (spheres, lines, boxes, arrows, points), texts included. */
  primitives: number;
  /** Of which text paragraphs. */
  texts: number;
  /** Frames recorded before pausing. */
  recordFrames: number;
  /** Changed frames timed. */
  measureFrames: number;
  width: number;
  height: number;
}

export const DEFAULT_OVERLAY_BENCH_OPTIONS: Readonly<OverlayBenchOptions> = Object.freeze({
  entities: 1000,
  primitives: 2000,
  texts: 20,
  recordFrames: 120,
  measureFrames: 300,
  width: 1024,
  height: 768,
});

export interface OverlayBenchResult {
  /** Median ms of one overlay update on a changed frame, playing (each frame the next one). */
  overlayUpdateMs: number;
  /** 95th percentile of the same. */
  overlayUpdateP95Ms: number;
  /** Median ms of the render that follows (pixi tessellates the rebuilt Graphics here). */
  renderMs: number;
  /** Median ms of one overlay update when scrubbing (each frame 7 frames away from the last). */
  overlayScrubMs: number;
  /** Median ms of the render that follows a scrub update. */
  scrubRenderMs: number;
  entities: number;
  primitives: number;
  /** Primitives the recorder stored per frame (equal to `primitives` unless a budget dropped some). */
  primitivesStored: number;
  frames: number;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * p))];
}

/** Runs the benchmark in the current page (creates and destroys its own pixi application). */
export async function runOverlayBench(options: Partial<OverlayBenchOptions> = {}): Promise<OverlayBenchResult> {
  const o: OverlayBenchOptions = { ...DEFAULT_OVERLAY_BENCH_OPTIONS, ...options };
  const app = new Application();
  await app.init({ width: o.width, height: o.height, preference: 'webgl', autoStart: false, antialias: false, resolution: 1 });
  app.ticker.stop();
  document.body.appendChild(app.canvas);
  const world = new Container();
  app.stage.addChild(world);
  const recorder = new Recorder({
    maxFrames: o.recordFrames + 10,
    arenaBytes: 64 * 1024 * 1024,
    primitiveBudget: o.primitives + 16,
    onWarning: () => {},
  });
  const sprites = new Map<number, Sprite>();
  const n = o.entities;
  const cols = Math.ceil(Math.sqrt(n));
  const xs = new Float64Array(n);
  const ys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const s = new Sprite(Texture.WHITE);
    s.anchor.set(0.5);
    s.width = 6;
    s.height = 6;
    world.addChild(s);
    sprites.set(i + 1, s);
    xs[i] = 20 + (i % cols) * (o.width - 40) / cols;
    ys[i] = 20 + Math.floor(i / cols) * (o.height - 40) / cols;
    recorder.describe(i + 1, 'unit', `unit ${i + 1}`);
  }
  const overlay = new RewindOverlay(app, world, { find: (id) => sprites.get(id) }, recorder, {
    keyboard: false,
    onWarning: () => {},
  });
  const texts = Math.min(o.texts, o.primitives);
  const shapes = o.primitives - texts;
  for (let f = 0; f < o.recordFrames; f++) {
    recorder.beginFrame(f / 60, 1 / 60);
    recorder.camera(o.width / 2 + f, o.height / 2, 0, 0, 0, 0, 1, 1);
    for (let i = 0; i < n; i++) {
      const a = f * 0.03 + i;
      const x = xs[i] + Math.cos(a) * 10;
      const y = ys[i] + Math.sin(a) * 10;
      sprites.get(i + 1)!.position.set(x, y);
      recorder.entity(i + 1, x, y, 0, 0, 0, Math.sin(a / 2), Math.cos(a / 2), (i + f) % 50 === 0 ? 1 : 0);
    }
    const d = recorder.draw;
    for (let k = 0; k < shapes; k++) {
      const i = k % n;
      const x = xs[i] + ((k * 7 + f) % 13);
      const y = ys[i] + ((k * 11 + f) % 17);
      switch (k % 5) {
        case 0: d.line(Channel.AI, x, y, 0, x + 14, y - 6, 0, 0xffd60a); break;
        case 1: d.sphere(Channel.PHYSICS, x, y, 0, 7, 0x64d2ff); break;
        case 2: d.aabb(Channel.PHYSICS, x - 5, y - 5, 0, x + 5, y + 5, 0, 0x30d158); break;
        case 3: d.arrow(Channel.PHYSICS, x, y, 0, x + 12, y + 4, 0, 4, 0xff9f0a); break;
        default: d.point(Channel.ANIMATION, x, y, 0, 3, 0xbf5af2); break;
      }
    }
    for (let k = 0; k < texts; k++) {
      const i = (k * 37) % n;
      d.text(Channel.AI, xs[i], ys[i] - 12, 0, `unit ${i + 1}: ${['patrol', 'chase', 'flee', 'attack'][(f >> 3) % 4]}`, 0xffffff);
    }
    recorder.endFrame();
    overlay.update(1 / 60);
  }
  const header = new FrameHeader();
  recorder.reader.readHeader(recorder.reader.newestFrame, header);
  const primitivesStored = header.primitiveCount;
  overlay.pause();
  overlay.update(0);
  app.renderer.render(app.stage);
  const time = overlay.playback.time;
  const reader = recorder.reader;
  const span = reader.newestFrame - reader.oldestFrame;
  // Playing: every timed frame is the next recorded frame (one new frame to decode). Scrubbing:
  // every timed frame is 7 frames away (two new frames to decode, every paragraph text changes).
  const measure = (step: number): { update: number[]; render: number[] } => {
    const update: number[] = [];
    const render: number[] = [];
    for (let k = -30; k < o.measureFrames; k++) {
      time.seek(reader.oldestFrame + ((k + 30) * step) % span);
      const t0 = performance.now();
      overlay.update(0);
      const t1 = performance.now();
      app.renderer.render(app.stage);
      const t2 = performance.now();
      if (k >= 0) {
        update.push(t1 - t0);
        render.push(t2 - t1);
      }
    }
    return { update, render };
  };
  const playing = measure(1);
  const scrubbing = measure(7);
  overlay.destroy();
  app.destroy({ removeView: true }, { children: true });
  return {
    overlayUpdateMs: median(playing.update),
    overlayUpdateP95Ms: percentile(playing.update, 0.95),
    renderMs: median(playing.render),
    overlayScrubMs: median(scrubbing.update),
    scrubRenderMs: median(scrubbing.render),
    entities: n,
    primitives: o.primitives,
    primitivesStored,
    frames: playing.update.length,
  };
}
