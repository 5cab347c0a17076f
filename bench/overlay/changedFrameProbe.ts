/**
 * Probe (issue 17): the overlay bench's changed frame at a chosen size, alone, with Chrome's CPU
 * profile of the page if asked. Where `npm run bench -- --section overlay` gives the figures, this
 * shows where they go.
 *
 *   node --import tsx bench/overlay/changedFrameProbe.ts [entities] [primitives] [runs] [--profile]
 *
 * Defaults: the 10,000 entities and 10,000 primitives of `overlayChangedFrameMs10k`, one run. Each
 * run opens a new page of `bench/overlay/` (served by vite, cross-origin isolated as in the bench),
 * runs `runOverlayBench` without the timeline series, and prints the medians of the update, the
 * render and their sum for the playing, scrubbing and channels-off series, with the machine's speed
 * probe before and after. With `--profile` the first run is profiled (100 µs sampling) and the
 * functions with the most self and inclusive time are printed (see `cpuProfile.ts`), leaving out the
 * page's untimed waits for the GPU process (`syncGpu`).
 */
import { resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { speedProbeMs } from '../lib/speedProbe';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../sections/overlay';
import { startProfile, stopProfile, summarizeProfile } from './cpuProfile';
import type { OverlayBenchOptions, OverlayBenchResult } from './overlayBench';
import { createOverlayBenchServer } from './overlayServer';

const ROOT = resolve(import.meta.dirname, '../..');
const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const profile = process.argv.includes('--profile');
const entities = Number(args[0] ?? 10000);
const primitives = Number(args[1] ?? 10000);
const runs = Number(args[2] ?? 1);

async function main(): Promise<void> {
  const server = await createOverlayBenchServer(ROOT);
  await server.listen();
  const url = server.resolvedUrls?.local[0];
  if (url === undefined) throw new Error('no local URL');
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: [...CHROMIUM_ARGS] });
  const options: Partial<OverlayBenchOptions> = {
    entities,
    primitives,
    texts: 20,
    recordFrames: 60,
    iterations: 100,
    warmup: 20,
    timeline: false,
  };
  try {
    for (let run = 0; run < runs; run++) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(url, { waitUntil: 'load', timeout: 120_000 });
      await page.waitForFunction(() => typeof window.rewindableOverlayBench === 'function', undefined, {
        timeout: 120_000,
      });
      const cdp = profile && run === 0 ? await page.context().newCDPSession(page) : null;
      const before = speedProbeMs();
      if (cdp !== null) await startProfile(cdp);
      const r: OverlayBenchResult = await page.evaluate((o) => window.rewindableOverlayBench!(o), options);
      const p = cdp !== null ? await stopProfile(cdp) : null;
      const after = speedProbeMs();
      if (errors.length > 0) throw new Error(`the page reported errors: ${errors.join(' | ')}`);
      const f = (v: number): string => v.toFixed(2).padStart(6);
      console.log(
        `run ${run + 1}: ${entities} entities, ${primitives} primitives (speed probe ${f(before)} / ${f(after)} ms)`,
      );
      console.log(
        `  playing        update ${f(r.update.median)}  render ${f(r.renderChanged.median)}  sum ${f(r.changedFrame.median)}`,
      );
      console.log(
        `  scrubbing      update ${f(r.scrubUpdate.median)}  render ${f(r.scrubRender.median)}  sum ${f(r.scrubChangedFrame.median)}`,
      );
      console.log(`  channels off   update ${f(r.channelsOffUpdate.median)}  render ${f(r.channelsOffRender.median)}`);
      console.log(`  unchanged      update ${f(r.unchangedUpdate.median)}  render ${f(r.renderUnchanged.median)}`);
      if (p !== null) summarizeProfile(`changed frame ${entities}`, p, 30, 50, ['syncGpu']);
      await page.close();
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
