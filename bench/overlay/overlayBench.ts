/**
 * The overlay benchmark, run inside headless Chromium (see `bench/sections/overlay.ts`): the CPU
 * time of one `RewindOverlay.update` on a changed frame, for a pixi game of `entities` sprites
 * whose recording holds `primitives` debug primitives per frame.
 *
 * A changed frame is a seek to another recorded frame followed by `overlay.update(0)`: the sample
 * is taken (one frame decoded when playing, two when scrubbing), every sprite is moved, tinted and
 * shown or hidden through the binding, every channel's debug meshes and the paragraphs are refilled,
 * the camera, the selection and the timeline are updated. pixi uploads the refilled buffers when it
 * renders, so the render that follows is timed too (`changedFrame` is their sum per frame), and so
 * is the render of an unchanged frame (the cost the game pays anyway).
 *
 * Everything runs on the page's main thread, synchronously: `performance.now()` around it is its
 * CPU time (the page is cross-origin isolated, so the timer's resolution is 5 µs, not 100 µs).
 */
import { Application, Container, Sprite, Texture } from 'pixi.js';
import { FrameHeader } from '../../src/core/read/buffers';
import { Channel } from '../../src/core/store/ChannelRegistry';
import { Recorder } from '../../src/core/record/Recorder';
import { RewindOverlay } from '../../src/pixi/RewindOverlay';
import { runInspectorBench, type InspectorBenchResult } from './inspectorBench';
import { runTimelineBench, type TimelineBenchResult } from './timelineBench';

/** Settings of `runOverlayBench`; see `DEFAULT_OVERLAY_BENCH_OPTIONS`. */
export interface OverlayBenchOptions {
  /** Game entities (sprites), all recorded every frame. */
  entities: number;
  /** Debug primitives recorded per frame (lines, spheres, boxes, arrows, points and texts). */
  primitives: number;
  /** Of which texts (grouped into paragraphs by the recorder). */
  texts: number;
  /** Frames recorded (live, with the overlay updating) before pausing. */
  recordFrames: number;
  /** Untimed updates before each timed series. */
  warmup: number;
  /** Timed updates per series. */
  iterations: number;
  /** Logical size of the canvas (the scene's layout). */
  width: number;
  height: number;
  /**
   * Pixels per logical unit of the canvas. The overlay's work does not depend on it; SwiftShader's
   * rasterisation (CPU work in the GPU process, waited for untimed after each frame) does, and
   * 0.25 keeps a 1280×720 scene at ~10 ms a frame instead of ~100.
   */
  resolution: number;
  /** Also run the timeline and onion-skin series (`timelineBench.ts`) after the overlay's. */
  timeline: boolean;
}

/** The defaults merged under the options given to `runOverlayBench`. */
export const DEFAULT_OVERLAY_BENCH_OPTIONS: Readonly<OverlayBenchOptions> = Object.freeze({
  entities: 1000,
  primitives: 2000,
  texts: 20,
  recordFrames: 120,
  warmup: 40,
  iterations: 300,
  width: 1280,
  height: 720,
  resolution: 0.25,
  timeline: true,
});

/** Order statistics of one timed series, in ms. */
export interface SeriesStats {
  median: number;
  p95: number;
  mean: number;
  min: number;
}

/** What `runOverlayBench` measured. */
export interface OverlayBenchResult {
  /** `overlay.update(0)` on a changed frame, playing (each update shows the next recorded frame). */
  update: SeriesStats;
  /** The render right after such an update. */
  renderChanged: SeriesStats;
  /** Update plus render of each changed frame, playing: the CPU a changed frame costs. */
  changedFrame: SeriesStats;
  /** The same, scrubbing. */
  scrubChangedFrame: SeriesStats;
  /** `overlay.update(0)` when scrubbing (each update 7 frames from the last: two frames decoded). */
  scrubUpdate: SeriesStats;
  scrubRender: SeriesStats;
  /** `overlay.update(0)` with nothing changed (the frame shown again). */
  unchangedUpdate: SeriesStats;
  /** The render of an unchanged frame (what the game's own scene costs to draw). */
  renderUnchanged: SeriesStats;
  /** Playing with every debug channel off: update, and the render after it (sprites moved, no primitives). */
  channelsOffUpdate: SeriesStats;
  channelsOffRender: SeriesStats;
  /** Untimed wait for the GPU process after a changed frame's render (SwiftShader rasterising on the CPU; not the overlay's cost). */
  gpuChanged: SeriesStats;
  /** Samples the overlay took per timed update (1 when every update was a changed frame). */
  samplesPerChangedUpdate: number;
  samplesPerUnchangedUpdate: number;
  /** Entities and primitives the recorder stored in the newest frame. */
  entitiesStored: number;
  primitivesStored: number;
  /** Largest distance between a sprite and its recorded position after a changed update (checked on 4 frames). */
  maxSpriteErrorPx: number;
  /** The timeline's redraw and playhead move, and the onion skin (issue 14); see `timelineBench.ts`. Null when not asked. */
  timeline: TimelineBenchResult | null;
  /** The entity inspector's update on a changed frame (issue 15); see `inspectorBench.ts`. Run with the timeline. */
  inspector: InspectorBenchResult | null;
  /** Smallest step of `performance.now()` observed, in ms. */
  timerResolutionMs: number;
  crossOriginIsolated: boolean;
  /** Wall time of each phase of the page's run, in seconds. */
  phaseSeconds: {
    setup: number;
    record: number;
    playing: number;
    scrubbing: number;
    unchanged: number;
    channelsOff: number;
  };
  renderer: string;
  userAgent: string;
  options: OverlayBenchOptions;
}

function stats(xs: readonly number[]): SeriesStats {
  const s = [...xs].sort((a, b) => a - b);
  const at = (p: number): number => s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))];
  return { median: at(0.5), p95: at(0.95), mean: s.reduce((a, b) => a + b, 0) / s.length, min: s[0] };
}

function timerResolution(): number {
  let best = Infinity;
  for (let i = 0; i < 50; i++) {
    const a = performance.now();
    let b = performance.now();
    while (b === a) b = performance.now();
    if (b - a < best) best = b - a;
  }
  return best;
}

const pixel = new Uint8Array(4);

/**
 * Waits until the GPU process has executed every command sent so far: reading a pixel back cannot
 * complete earlier (`gl.finish()` does not wait in Chromium).
 */
function syncGpu(gl: WebGLRenderingContext | undefined): void {
  if (gl) gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, pixel);
}

function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) gc();
}

/** Recorded position of entity `i` at frame `f` (a slow orbit around its home). */
function positionOf(home: Float64Array, i: number, f: number, out: Float64Array): void {
  const a = f * 0.05 + i * 0.37;
  out[0] = home[i * 2] + Math.cos(a) * 12;
  out[1] = home[i * 2 + 1] + Math.sin(a) * 12;
}

/**
 * Builds the game and its recording, pauses the overlay, and times the updates and renders.
 *
 * @example
 * const r = await runOverlayBench({ entities: 1000, primitives: 2000 });
 * r.update.median; // ms of CPU per changed frame
 */
export async function runOverlayBench(options: Partial<OverlayBenchOptions> = {}): Promise<OverlayBenchResult> {
  const o: OverlayBenchOptions = { ...DEFAULT_OVERLAY_BENCH_OPTIONS, ...options };
  const start = performance.now();
  const app = new Application();
  await app.init({
    width: o.width,
    height: o.height,
    preference: 'webgl',
    autoStart: false,
    antialias: false,
    resolution: o.resolution,
    background: 0x111111,
  });
  app.ticker.stop();
  document.body.appendChild(app.canvas);
  const world = new Container();
  app.stage.addChild(world);

  const n = o.entities;
  const texts = Math.min(o.texts, o.primitives);
  const shapes = o.primitives - texts;
  const recorder = new Recorder({
    maxFrames: o.recordFrames + 8,
    arenaBytes: 64 * 1024 * 1024,
    primitiveBudget: o.primitives,
    textBudgetBytes: 64 * 1024,
    onWarning: (m) => {
      throw new Error(`recorder warning: ${m}`);
    },
  });
  // The game: a grid of small sprites, each orbiting its home; ids 1..n.
  const sprites = new Map<number, Sprite>();
  const home = new Float64Array(n * 2);
  const cols = Math.ceil(Math.sqrt((n * o.width) / o.height));
  const cell = o.width / cols;
  for (let i = 0; i < n; i++) {
    const s = new Sprite(Texture.WHITE);
    s.anchor.set(0.5);
    s.width = 8;
    s.height = 4;
    s.tint = 0x6fa8dc;
    world.addChild(s);
    sprites.set(i + 1, s);
    home[i * 2] = cell * (0.5 + (i % cols));
    home[i * 2 + 1] = cell * (0.5 + Math.floor(i / cols));
  }
  const overlay = new RewindOverlay(app, world, { find: (id) => sprites.get(id) }, recorder, {
    keyboard: false,
    onWarning: (m) => {
      throw new Error(`overlay warning: ${m}`);
    },
  });
  // The paused view (timeline, layers, presenter) is a chunk loaded after the overlay is built.
  await overlay.ready;

  const p = new Float64Array(2);
  const d = recorder.draw;
  const recordStart = performance.now();
  const states = ['patrol', 'chase', 'flee', 'attack'];
  for (let f = 0; f < o.recordFrames; f++) {
    recorder.beginFrame(f / 60, 1 / 60);
    recorder.camera(o.width / 2, o.height / 2, 0, 0, 0, 0, 1, 1);
    for (let i = 0; i < n; i++) {
      positionOf(home, i, f, p);
      const s = sprites.get(i + 1) as Sprite;
      const angle = f * 0.05 + i * 0.37;
      s.position.set(p[0], p[1]);
      s.rotation = angle;
      recorder.entity(
        i + 1,
        p[0],
        p[1],
        0,
        0,
        0,
        Math.sin(angle / 2),
        Math.cos(angle / 2),
        (i * 7 + f) % 50 === 0 ? 1 : 0,
      );
    }
    for (let k = 0; k < shapes; k++) {
      positionOf(home, k % n, f, p);
      const x = p[0];
      const y = p[1];
      switch (k % 5) {
        case 0:
          d.line(Channel.AI, x, y, 0, x + 10 + (k % 7), y - 6, 0, 0xffd60a);
          break;
        case 1:
          d.sphere(Channel.PHYSICS, x, y, 0, 5 + (k % 4), 0x64d2ff);
          break;
        case 2:
          d.aabb(Channel.PHYSICS, x - 5, y - 4, 0, x + 5, y + 4, 0, 0x30d158);
          break;
        case 3:
          d.arrow(Channel.AI, x, y, 0, x + 12, y + 5, 0, 4, 0xff9f0a);
          break;
        default:
          d.point(Channel.ANIMATION, x, y, 0, 3, 0xbf5af2);
          break;
      }
    }
    for (let k = 0; k < texts; k++) {
      const i = (k * 47) % n;
      positionOf(home, i, f, p);
      d.text(Channel.AI, p[0], p[1] - 10, 0, `unit ${i + 1}: ${states[(f >> 4) % 4]} (${f})`, 0xffffff);
    }
    recorder.endFrame();
    overlay.update(1 / 60);
    if (f % 30 === 0) {
      app.renderer.render(app.stage);
      syncGpu((app.renderer as unknown as { gl?: WebGLRenderingContext }).gl);
    }
  }
  const header = new FrameHeader();
  const reader = recorder.reader;
  reader.readHeader(reader.newestFrame, header);

  const gl = (app.renderer as unknown as { gl?: WebGLRenderingContext }).gl;
  overlay.pause();
  overlay.update(0);
  app.renderer.render(app.stage);
  syncGpu(gl);
  const time = overlay.playback.time;
  const oldest = reader.oldestFrame;
  const span = reader.newestFrame - oldest + 1;

  let maxSpriteError = 0;
  const checkSprites = (frame: number): void => {
    for (let i = 0; i < n; i += 97) {
      positionOf(home, i, frame, p);
      const s = sprites.get(i + 1) as Sprite;
      const e = Math.hypot(s.x - Math.fround(p[0]), s.y - Math.fround(p[1]));
      if (e > maxSpriteError) maxSpriteError = e;
    }
  };

  /** `count` updates (after `warmup` untimed), each at the frame `step` frames after the last. */
  const series = (
    step: number,
    count: number,
  ): { update: number[]; render: number[]; gpu: number[]; samples: number } => {
    const update: number[] = [];
    const render: number[] = [];
    const gpu: number[] = [];
    let frame = oldest + 1;
    let samples = 0;
    collectGarbage();
    for (let k = -o.warmup; k < count; k++) {
      frame = oldest + ((frame - oldest + step) % span);
      time.seek(frame);
      const before = overlay.sampleCount;
      const t0 = performance.now();
      overlay.update(0);
      const t1 = performance.now();
      app.renderer.render(app.stage);
      const t2 = performance.now();
      // Untimed: wait for the GPU process (SwiftShader rasterises on the CPU) to finish this frame,
      // so it neither queues up nor competes with the next timed update for the cores.
      syncGpu(gl);
      const t3 = performance.now();
      if (k >= 0) {
        update.push(t1 - t0);
        render.push(t2 - t1);
        gpu.push(t3 - t2);
        samples += overlay.sampleCount - before;
      }
      if (step !== 0 && k >= count - 4) checkSprites(frame);
    }
    return { update, render, gpu, samples };
  };

  const t0 = performance.now();
  const playing = series(1, o.iterations);
  const t1 = performance.now();
  const scrubbing = series(7, o.iterations);
  const t2 = performance.now();
  const unchanged = series(0, Math.max(20, Math.round(o.iterations / 5)));
  const t3 = performance.now();
  // Playing again with every channel off: the sprites still move, no debug primitive is drawn.
  const mask = overlay.channelMask;
  overlay.setChannelMask(0);
  const bare = series(1, Math.max(20, Math.round(o.iterations / 2)));
  overlay.setChannelMask(mask);
  const t4 = performance.now();
  // The timeline and the onion skin (issue 14), on the same page without the overlay's scene.
  overlay.ui.visible = false;
  world.visible = false;
  const timeline = o.timeline ? runTimelineBench(app, o.iterations, o.warmup) : null;
  const inspector = o.timeline ? await runInspectorBench(app, o.iterations, o.warmup) : null;
  const debugInfo = gl?.getExtension('WEBGL_debug_renderer_info');
  const renderer = gl && debugInfo ? String(gl.getParameter(debugInfo.UNMASKED_RENDERER_WEBGL)) : app.renderer.name;
  overlay.destroy();
  app.destroy({ removeView: true }, { children: true });
  return {
    update: stats(playing.update),
    renderChanged: stats(playing.render),
    changedFrame: stats(playing.update.map((u, i) => u + playing.render[i])),
    scrubChangedFrame: stats(scrubbing.update.map((u, i) => u + scrubbing.render[i])),
    scrubUpdate: stats(scrubbing.update),
    scrubRender: stats(scrubbing.render),
    unchangedUpdate: stats(unchanged.update),
    renderUnchanged: stats(unchanged.render),
    gpuChanged: stats(playing.gpu),
    channelsOffUpdate: stats(bare.update),
    channelsOffRender: stats(bare.render),
    samplesPerChangedUpdate:
      (playing.samples + scrubbing.samples + bare.samples) / (2 * o.iterations + bare.update.length),
    samplesPerUnchangedUpdate: unchanged.samples / unchanged.update.length,
    entitiesStored: header.entityCount,
    primitivesStored: header.primitiveCount,
    maxSpriteErrorPx: maxSpriteError,
    timeline,
    inspector,
    timerResolutionMs: timerResolution(),
    crossOriginIsolated: globalThis.crossOriginIsolated === true,
    phaseSeconds: {
      setup: (recordStart - start) / 1000,
      record: (t0 - recordStart) / 1000,
      playing: (t1 - t0) / 1000,
      scrubbing: (t2 - t1) / 1000,
      unchanged: (t3 - t2) / 1000,
      channelsOff: (t4 - t3) / 1000,
    },
    renderer,
    userAgent: navigator.userAgent,
    options: o,
  };
}
