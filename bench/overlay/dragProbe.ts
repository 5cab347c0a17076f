/**
 * Probe (issue 17): the CPU cost of dragging the demo's timeline across every recorded frame with
 * the demo's crowd at 5,000 movers, in headless Chromium, next to what the running demo costs.
 *
 *   node --import tsx bench/overlay/dragProbe.ts [crowd] [steps] [--profile]
 *
 * It serves the demo with vite (`vite.config.ts`, as the end-to-end tests do), opens it, sets the
 * crowd (default 5,000) through the demo's hook, waits until the ring is full and stops growing,
 * pauses, then drags the real mouse along the timeline's bar from its first frame to its last in
 * `steps` moves (default 120), one move per animation frame. In the page, the overlay's `update`,
 * pixi's `render` and the whole ticker tick (the demo's own per-frame work included) are timed with
 * `performance.now()` (the page is not cross-origin isolated: 100 µs steps).
 *
 * It prints two series against the 16.7 ms of a 60 fps frame: **running**, every tick of the demo
 * running with the full crowd while the ring fills (the game's step, recording and sync, the live
 * overlay, pixi's render of the moved crowd: what the game costs without any replay), and **drag**,
 * the ticks of the drag that showed a new frame. Each as median, 95th percentile and maximum of the
 * whole tick, of `overlay.update`, of the render, and of the rest of the tick. The machine-speed
 * probe is read before and after the drag.
 *
 * With `--ab`, the drag is repeated four times, back and forth, with the crowd's layer alternately in
 * the world's render group (as before issue 17's demo change: `isRenderGroup` off) and in a group of
 * its own (the demo's default), and each variant's drags are reported together: an interleaved A/B
 * of that change on one recording, in one page.
 *
 * With `--profile`, Chrome's sampling CPU profiler (through the DevTools protocol, 100 µs) records
 * 60 running ticks and the drag, and the probe prints, per series, the functions with the most
 * self time and the inclusive time of the overlay's and pixi's main steps, as shares of the
 * profile's busy time; the profiles are written to the system's temporary folder (DevTools opens
 * them). Not part of `npm run bench`: it needs the demo and a minute or more of recording.
 */
import { resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { createServer } from 'vite';
import { speedProbeMs } from '../lib/speedProbe';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../sections/overlay';
import { type CpuProfile, startProfile, stopProfile, summarizeProfile } from './cpuProfile';

/** Per-tick timings of one series. */
interface SeriesTimes {
  update: number[];
  render: number[];
  tick: number[];
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
    /** The demo's view: its per-kind layers (the crowd's is a render group of its own). */
    view: { layers: Map<string, { isRenderGroup: boolean }> };
    setCrowd(n: number): void;
    setPaused(paused: boolean): void;
    stats(): { frames: number; newestFrame: number };
  };
  /** `mode`: 0 off, 1 every tick (running), 2 ticks that showed a new frame (drag). */
  __drag?: { mode: number; update: number[]; render: number[]; tick: number[] };
}

const ROOT = resolve(import.meta.dirname, '../..');
const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const profile = process.argv.includes('--profile');
const ab = process.argv.includes('--ab');
const crowd = Number(args[0] ?? 5000);
const steps = Number(args[1] ?? 120);
function quantiles(values: number[]): [number, number, number] {
  const s = [...values].sort((a, b) => a - b);
  const at = (q: number): number => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? Number.NaN;
  return [at(0.5), at(0.95), s[s.length - 1] ?? Number.NaN];
}

function line(label: string, values: number[]): string {
  const [m, p, x] = quantiles(values);
  return `  ${label.padEnd(24)} median ${m.toFixed(2)} ms, p95 ${p.toFixed(2)}, max ${x.toFixed(2)}`;
}

function report(name: string, t: SeriesTimes): void {
  const rest = t.tick.map((v, i) => v - t.update[i] - t.render[i]);
  console.log(`${name}: ${t.tick.length} ticks`);
  console.log(line('whole tick', t.tick));
  console.log(line('overlay.update', t.update));
  console.log(line('pixi render', t.render));
  console.log(line('rest (game, HUD)', rest));
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
    // Time the overlay's update, pixi's render and the whole tick, per animation frame.
    await page.evaluate(() => {
      const w = window as unknown as ProbeWindow;
      const d = { mode: 0, update: [] as number[], render: [] as number[], tick: [] as number[] };
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
      app.renderer.render = (...a: unknown[]) => {
        const t0 = performance.now();
        render(...a);
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
        if (d.mode === 1 || (d.mode === 2 && overlay.sampleCount !== before)) {
          d.update.push(u);
          d.render.push(r);
          d.tick.push(t);
        }
      };
    });
    const take = (): Promise<SeriesTimes> =>
      page.evaluate((): SeriesTimes => {
        const d = (window as unknown as ProbeWindow).__drag!;
        const out = { update: d.update, render: d.render, tick: d.tick };
        d.mode = 0;
        d.update = [];
        d.render = [];
        d.tick = [];
        return out;
      });
    const setMode = (m: number): Promise<void> =>
      page.evaluate((mode) => {
        (window as unknown as ProbeWindow).__drag!.mode = mode;
      }, m);
    await page.evaluate((n) => (window as unknown as ProbeWindow).__demo.setCrowd(n), crowd);
    // Wait until every frame held was recorded with the crowd grown (it is applied at the next
    // step): the ring has filled once since. The running series is timed meanwhile.
    const start = await page.evaluate(() => (window as unknown as ProbeWindow).__demo.stats().newestFrame);
    await page.waitForTimeout(2000);
    await setMode(1);
    for (let i = 0; i < 1800; i++) {
      await page.waitForTimeout(1000);
      const s = await page.evaluate(() => (window as unknown as ProbeWindow).__demo.stats());
      if (i % 30 === 0) console.log(`  recording: frame ${s.newestFrame}, ${s.frames} held`);
      if (s.newestFrame - start > s.frames + 2) break;
    }
    const running = await take();
    const cdp = profile ? await page.context().newCDPSession(page) : null;
    let runningProfile: CpuProfile | null = null;
    if (cdp !== null) {
      await setMode(1);
      await startProfile(cdp);
      await page.waitForFunction(() => (window as unknown as ProbeWindow).__drag!.tick.length >= 60, undefined, {
        timeout: 300_000,
        polling: 500,
      });
      runningProfile = await stopProfile(cdp);
      await take();
    }
    await page.evaluate(() => (window as unknown as ProbeWindow).__demo.setPaused(true));
    await page.waitForTimeout(500);
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
    /** One drag from `from` to `to` (x on the bar), timed. */
    const dragOnce = async (from: number, to: number): Promise<SeriesTimes> => {
      await page.mouse.move(from, geo.y);
      await setMode(2);
      await page.mouse.down();
      for (let k = 1; k <= steps; k++) {
        await page.mouse.move(from + ((to - from) * k) / steps, geo.y);
        await nextFrame();
      }
      await page.mouse.up();
      await nextFrame();
      return take();
    };
    const crowdGroup = (on: boolean): Promise<void> =>
      page.evaluate((v) => {
        (window as unknown as ProbeWindow).__demo.view.layers.get('mover')!.isRenderGroup = v;
      }, on);
    if (cdp !== null) await startProfile(cdp);
    const drag = await dragOnce(geo.x0, geo.x1);
    const dragProfile = cdp !== null ? await stopProfile(cdp) : null;
    const variants: Array<[string, SeriesTimes]> = [];
    if (ab) {
      const merged = {
        own: { update: [], render: [], tick: [] },
        world: { update: [], render: [], tick: [] },
      } as Record<'own' | 'world', SeriesTimes>;
      for (let round = 0; round < 4; round++) {
        const own = round % 2 === 1;
        await crowdGroup(own);
        const t = await dragOnce(round % 2 === 0 ? geo.x1 : geo.x0, round % 2 === 0 ? geo.x0 : geo.x1);
        const m = merged[own ? 'own' : 'world'];
        m.update.push(...t.update);
        m.render.push(...t.render);
        m.tick.push(...t.tick);
      }
      await crowdGroup(true);
      variants.push(["A/B: the crowd in the world's render group", merged.world]);
      variants.push(['A/B: the crowd a render group of its own', merged.own]);
    }
    const probeAfter = speedProbeMs();
    if (errors.length > 0) throw new Error(`the page reported errors: ${errors.join(' | ')}`);
    report(`running, crowd ${crowd}`, running);
    console.log(
      `drag across frames ${geo.first}..${geo.last} (${geo.frames} held) with crowd ${crowd}, ${steps} moves: ` +
        `${drag.tick.length} ticks showed a new frame (60 fps budget: 16.7 ms)`,
    );
    report('drag', drag);
    for (const [name, t] of variants) report(name, t);
    console.log(`  speed probe ${probeBefore.toFixed(2)} ms before, ${probeAfter.toFixed(2)} ms after`);
    for (const [name, p] of [
      ['running', runningProfile],
      ['drag', dragProfile],
    ] as const) {
      if (p === null) continue;
      summarizeProfile(name === 'running' ? 'running (60 ticks)' : 'drag', p);
    }
  } finally {
    await browser.close();
    await server.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
