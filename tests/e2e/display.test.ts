/**
 * End-to-end: 2D display state in the demo (issue 19). A pickup that is collected pops (its root
 * grows and fades out) and its glint sprite changes texture (an animation frame) every few frames;
 * both are recorded with `Recorder.display`. Paused, stepped frame by frame, every frame of the
 * pickup's life shows the recorded scale, alpha, visibility and texture; on resume the live
 * pickups show the game's own state again. Waits are counted in frames and ticks, never in time.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openDemo, ticks, waitForFrames, watchPages, type DemoPage } from './browser';
import type { DisplayedTransform, E2EWindow, RecordedTransform } from './hooks';

/** A smaller crowd renders faster in SwiftShader. */
const CROWD = 40;
/** Frames of the pickup's life before the pop that are checked too (its glint animation). */
const BEFORE_POP = 30;

let demo: DemoPage | undefined;

watchPages(() => [demo], __filename);

beforeAll(async () => {
  demo = await openDemo('index.html');
  await demo.page.evaluate((n) => (window as unknown as E2EWindow).__demo.setCrowd(n), CROWD);
});

afterAll(async () => {
  await demo?.close();
});

function page(): DemoPage['page'] {
  if (demo === undefined) throw new Error('e2e: the demo page did not open (see the beforeAll error)');
  return demo.page;
}

interface Step {
  frame: number;
  shown: DisplayedTransform | null;
  recorded: RecordedTransform | null;
}

test('a popping, glinting pickup replays frame by frame as recorded, and the game gets its own back on resume', async () => {
  const p = page();
  await waitForFrames(p, BEFORE_POP + 10);
  // Collect the oldest pickup on the floor as the game does when it is touched: it starts to pop.
  const id = await p.evaluate(() => (window as unknown as E2EWindow).__demo.popPickup());
  expect(id, 'a pickup on the floor').toBeGreaterThanOrEqual(0);
  // Until it has popped and despawned, then a few frames more.
  await p.waitForFunction((i) => !(window as unknown as E2EWindow).__demo.pickups().some((x) => x.id === i), id, {
    timeout: 120_000,
    polling: 100,
  });
  await ticks(p, 3);
  await p.evaluate(() => (window as unknown as E2EWindow).__demo.overlay.pause());
  await ticks(p, 2);

  const steps = await p.evaluate(
    ({ i, before }) => {
      const d = (window as unknown as E2EWindow).__demo;
      const life = d.lifetimes().find((l) => l.id === i && !l.existsAtNewest);
      if (life === undefined) return [];
      const time = d.overlay.playback.time;
      time.seek(Math.max(life.first, life.last - before - 30));
      const out: Step[] = [];
      for (;;) {
        const frame = Math.round(time.position);
        out.push({ frame, shown: d.transform(i), recorded: d.recordedAt(i, frame) });
        if (frame >= life.last) break;
        d.overlay.runCommand('stepForward');
      }
      return out;
    },
    { i: id, before: BEFORE_POP },
  );
  expect(steps.length, 'frames of the pickup held').toBeGreaterThan(BEFORE_POP);
  const textures = new Set<string>();
  let popping = 0;
  for (const s of steps) {
    const where = `pickup ${id}, frame ${s.frame}`;
    expect(s.recorded?.display, `${where}: recorded display state`).toBeTruthy();
    expect(s.shown, `${where}: shown`).not.toBeNull();
    const r = s.recorded!.display!;
    const d = s.shown!;
    expect(d.scaleX, `${where}: scale x`).toBeCloseTo(r.scaleX, 5);
    expect(d.scaleY, `${where}: scale y`).toBeCloseTo(r.scaleY, 5);
    expect(d.alpha, `${where}: alpha`).toBeCloseTo(r.alpha, 5);
    expect(d.visible, `${where}: visible`).toBe(r.visible);
    expect(d.texture, `${where}: texture`).toBe(r.texture);
    if (r.texture !== null) textures.add(r.texture);
    if (r.scaleX > 1) popping++;
  }
  // The sequence shows what it is meant to: a glint that changes frame, and a pop that grows and fades.
  expect(textures.size, 'glint frames seen').toBeGreaterThanOrEqual(2);
  expect(popping, 'frames of the pop').toBeGreaterThanOrEqual(3);
  const last = steps[steps.length - 1].recorded!.display!;
  expect(last.scaleX).toBeGreaterThan(1.5);
  expect(last.alpha).toBeLessThan(0.6);

  // Resume: every live pickup shows the game's own look again.
  await p.evaluate(() => (window as unknown as E2EWindow).__demo.overlay.resume());
  const live = await p.evaluate(() => {
    const d = (window as unknown as E2EWindow).__demo;
    return d.pickups().map((x) => ({ game: { scale: x.scale, alpha: x.alpha }, shown: d.transform(x.id) }));
  });
  expect(live.length).toBeGreaterThan(0);
  for (const l of live) {
    expect(l.shown?.scaleX).toBeCloseTo(l.game.scale, 5);
    expect(l.shown?.alpha).toBeCloseTo(l.game.alpha, 5);
  }
});
