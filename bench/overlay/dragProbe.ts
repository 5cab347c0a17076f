/**
 * Probe (issue 17): the CPU cost of dragging the demo's timeline across every recorded frame with
 * the demo's crowd at 5,000 movers, in headless Chromium.
 *
 *   node --import tsx bench/overlay/dragProbe.ts [crowd] [steps]
 *
 * It serves the demo with vite (`vite.config.ts`, as the end-to-end tests do), opens it, sets the
 * crowd (default 5,000) through the demo's hook, waits until the ring is full and stops growing,
 * pauses, then drags the real mouse along the timeline's bar from its first frame to its last in
 * `steps` moves (default 120), one move per animation frame. In the page, the overlay's `update`,
 * pixi's `render` and the whole ticker tick (the demo's own per-frame work included) are timed with
 * `performance.now()` (the page is not cross-origin isolated: 100 µs steps). It prints, over the
 * ticks that showed a new frame, the median, 95th percentile and maximum of each against the
 * 16.7 ms of a 60 fps frame, plus the machine-speed probe before and after. Not part of `npm run
 * bench`: it needs the demo and a minute or more of recording.
 */
import { resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { createServer } from 'vite';
import { speedProbeMs } from '../lib/speedProbe';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../sections/overlay';

/** What the page reports for the drag. */
interface DragTimes {
  /** Ticks that showed a new frame (the sample changed). */
  ticks: number;
  update: number[];
  render: number[];
  tick: number[];
  frames: number;
  firstFrame: number;
  lastFrame: number;
}

/** Page-side pieces of the demo's hook the probe touches. */
interface ProbeWindow {
  __demo: {
    app: {
      ticker: { update(time?: number): void };
      renderer: { render(...args: unknown[]): void };
    };
    overlay: {
      update(dt: number): void;
      readonly sampleCount: number;
      readonly playback: { readonly reader: { oldestFrame: number; newestFrame: number; frameCount: number } };
      readonly timeline: { top: number; rulerHeight: number; barX: number; barWidth: number; xOf(f: number): number };
    };
    setCrowd(n: number): void;
    setPaused(paused: boolean): void;
    stats(): { frames: number; newestFrame: number };
  };
  __drag?: { on: boolean; update: number[]; render: number[]; tick: number[]; samples: number[] };
}

const ROOT = resolve(import.meta.dirname, '../..');
const crowd = Number(process.argv[2] ?? 5000);
const steps = Number(process.argv[3] ?? 120);

function stats(values: number[]): string {
  const s = [...values].sort((a, b) => a - b);
  const at = (q: number): number => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? Number.NaN;
  return `median ${at(0.5).toFixed(2)} ms, p95 ${at(0.95).toFixed(2)}, max ${s[s.length - 1]?.toFixed(2)}`;
}

async function main(): Promise<void> {
  const server = await createServer({
    configFile: resolve(ROOT, 'vite.config.ts'),
    server: { host: '127.0.0.1', port: 0, strictPort: false, open: false, hmr: false, watch: null },
    optimizeDeps: { include: ['pixi.js', 'lil-gui', 'msgpackr', 'gsap'] },
    logLevel: 'error',
    clearScreen: false,
  });
  await server.listen();
  const address = server.httpServer?.address();
  if (address === null || address === undefined || typeof address === 'string') throw new Error('no port');
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      ...CHROMIUM_ARGS,
      '--disable-background-timer-throttling',
      '--disable-renderer-backgrounding',
      '--disable-backgrounding-occluded-windows',
    ],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`http://127.0.0.1:${address.port}/index.html`, { waitUntil: 'load', timeout: 120_000 });
    await page.waitForFunction(() => (window as unknown as ProbeWindow).__demo !== undefined, undefined, {
      timeout: 120_000,
    });
    await page.evaluate((n) => (window as unknown as ProbeWindow).__demo.setCrowd(n), crowd);
    // Wait until every frame held was recorded with the crowd grown (it is applied at the next
    // step): the ring has filled once since.
    const start = await page.evaluate(() => (window as unknown as ProbeWindow).__demo.stats().newestFrame);
    for (let i = 0; i < 1800; i++) {
      await page.waitForTimeout(1000);
      const s = await page.evaluate(() => (window as unknown as ProbeWindow).__demo.stats());
      if (i % 30 === 0) console.log(`  recording: frame ${s.newestFrame}, ${s.frames} held`);
      if (s.newestFrame - start > s.frames + 2) break;
    }
    await page.evaluate(() => (window as unknown as ProbeWindow).__demo.setPaused(true));
    await page.waitForTimeout(500);
    // Time the overlay's update, pixi's render and the whole tick, per animation frame.
    await page.evaluate(() => {
      const w = window as unknown as ProbeWindow;
      const d = {
        on: false,
        update: [] as number[],
        render: [] as number[],
        tick: [] as number[],
        samples: [] as number[],
      };
      w.__drag = d;
      const { app, overlay } = w.__demo;
      const update = overlay.update.bind(overlay);
      let u = 0;
      let r = 0;
      overlay.update = (dt: number) => {
        const t0 = performance.now();
        update(dt);
        u += performance.now() - t0;
      };
      const render = app.renderer.render.bind(app.renderer);
      app.renderer.render = (...args: unknown[]) => {
        const t0 = performance.now();
        render(...args);
        r += performance.now() - t0;
      };
      const tick = app.ticker.update.bind(app.ticker);
      app.ticker.update = (time?: number) => {
        u = 0;
        r = 0;
        const before = overlay.sampleCount;
        const t0 = performance.now();
        tick(time);
        const t = performance.now() - t0;
        if (d.on) {
          d.update.push(u);
          d.render.push(r);
          d.tick.push(t);
          d.samples.push(overlay.sampleCount - before);
        }
      };
    });
    const geo = await page.evaluate(() => {
      const o = (window as unknown as ProbeWindow).__demo.overlay;
      const rd = o.playback.reader;
      const t = o.timeline;
      return {
        y: t.top + t.rulerHeight + 8,
        x0: t.xOf(rd.oldestFrame),
        x1: t.xOf(rd.newestFrame),
        frames: rd.frameCount,
        first: rd.oldestFrame,
        last: rd.newestFrame,
      };
    });
    const probeBefore = speedProbeMs();
    const nextFrame = (): Promise<void> =>
      page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => r())));
    await page.mouse.move(geo.x0, geo.y);
    await page.evaluate(() => {
      (window as unknown as ProbeWindow).__drag!.on = true;
    });
    await page.mouse.down();
    for (let k = 1; k <= steps; k++) {
      await page.mouse.move(geo.x0 + ((geo.x1 - geo.x0) * k) / steps, geo.y);
      await nextFrame();
    }
    await page.mouse.up();
    await nextFrame();
    const times = await page.evaluate((): DragTimes => {
      const w = window as unknown as ProbeWindow;
      const d = w.__drag!;
      d.on = false;
      // No named function in here: tsx's transpiler would wrap it in a helper the page does not have.
      const rd = w.__demo.overlay.playback.reader;
      return {
        ticks: d.tick.filter((_, i) => d.samples[i] > 0).length,
        update: d.update.filter((_, i) => d.samples[i] > 0),
        render: d.render.filter((_, i) => d.samples[i] > 0),
        tick: d.tick.filter((_, i) => d.samples[i] > 0),
        frames: rd.frameCount,
        firstFrame: rd.oldestFrame,
        lastFrame: rd.newestFrame,
      };
    });
    const probeAfter = speedProbeMs();
    if (errors.length > 0) throw new Error(`the page reported errors: ${errors.join(' | ')}`);
    console.log(
      `drag across frames ${geo.first}..${geo.last} (${geo.frames} held) with crowd ${crowd}, ${steps} moves: ` +
        `${times.ticks} ticks showed a new frame`,
    );
    console.log(`  overlay.update          ${stats(times.update)}`);
    console.log(`  pixi render             ${stats(times.render)}`);
    console.log(`  whole tick (demo incl.) ${stats(times.tick)}   (60 fps budget: 16.7 ms)`);
    console.log(`  speed probe ${probeBefore.toFixed(2)} ms before, ${probeAfter.toFixed(2)} ms after`);
  } finally {
    await browser.close();
    await server.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
