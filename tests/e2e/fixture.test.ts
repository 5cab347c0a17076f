/**
 * End-to-end: the overlay in a real game that was not written for it (issue 16). The fixture,
 * "Dockyard" (tests/fixture), is built the way pixi v8 games are: level logic on gsap's clock,
 * `AnimatedSprite`s on `Ticker.shared`, pooled actors with per-life ids in swap-remove arrays, a
 * y-sorted actor layer, a raft (nested, tweened container) carrying crates, a HUD container in world
 * coordinates beside the world, a shockwave filter on the world, title and game-over screens and a
 * layout redone on resize. Its integration is the ≤ 15 lines docs/getting-started.md shows first.
 *
 * One page for the whole file, in order: title → play → pause → nothing moves → world space →
 * re-created pooled lives → camera shared with the HUD → heavy use with a resize → resume exact →
 * the game's clock → game over and title suspend the overlay. Waits are counted in ticks and
 * recorded frames, never in wall-clock time.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { need, watchPages, type DemoPage } from './browser';
import { fixtureTicks, openFixture, type FixtureWindow, type ShownEntity, type Snapshot } from './fixturePage';

const ROOT = resolve(__dirname, '../..');
const VIEW = { width: 1024, height: 640 };
const RESIZED = { width: 820, height: 560 };
/** Frames recorded before the pause: several waves, coins collected and pooled objects reused. */
const LIVE_FRAMES = 150;

let fixture: DemoPage | undefined;
/** Everything at the pause (taken in the same turn as the pause key). */
let atPause: Snapshot | undefined;
let newestAtPause = -1;

watchPages(() => [fixture], __filename);

beforeAll(async () => {
  fixture = await openFixture(VIEW);
});

afterAll(async () => {
  await fixture?.close();
});

function page(): DemoPage['page'] {
  return need(fixture, 'the fixture page').page;
}

/** Presses a key on the window, synchronously inside the page (so a snapshot can share its turn). */
async function press(key: string): Promise<void> {
  await page().evaluate((k) => {
    window.dispatchEvent(new KeyboardEvent('keydown', { key: k, code: k === ' ' ? 'Space' : k, bubbles: true }));
  }, key);
}

async function frames(): Promise<number> {
  return page().evaluate(() => (window as unknown as FixtureWindow).__fixture.recorder.reader.frameCount);
}

/** Entries of `b` that differ from `a` (or exist in only one), as readable lines. */
function differences(a: Snapshot, b: Snapshot, expected: Snapshot = {}): string[] {
  const out: string[] = [];
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const want = k in expected ? expected[k] : a[k];
    if (!Object.is(want, b[k])) out.push(`${k}: expected ${String(want)}, got ${String(b[k])}`);
  }
  return out;
}

/** Entities of the viewed frame that are not shown as they were recorded (debug shapes, wrong kind, place or visibility, shared objects). */
function badlyShown(shown: ShownEntity[]): string[] {
  const bad: string[] = [];
  const owner = new Map<number, number>();
  for (const e of shown) {
    const what = `entity ${e.id} (${e.kind ?? 'unknown kind'})`;
    if (e.shownBy === 'shape') {
      bad.push(`${what} is drawn as a debug shape, not as a ${e.kind}`);
      continue;
    }
    if (e.looksLike !== e.kind) bad.push(`${what} is shown by a ${e.looksLike} object`);
    if (!e.visible) bad.push(`${what} is hidden`);
    if (!(Math.abs(e.worldX - e.x) < 0.01 && Math.abs(e.worldY - e.y) < 0.01)) {
      bad.push(
        `${what} is shown at (${e.worldX.toFixed(2)}, ${e.worldY.toFixed(2)}) in world space, recorded at (${e.x.toFixed(2)}, ${e.y.toFixed(2)})`,
      );
    }
    const other = owner.get(e.object);
    if (other !== undefined) bad.push(`${what} and entity ${other} are shown by the same display object`);
    owner.set(e.object, e.id);
  }
  return bad;
}

test('the title screen suspends the overlay: nothing is recorded and the pause key does nothing', async () => {
  await fixtureTicks(page(), 10);
  const r = await page().evaluate(() => (window as unknown as FixtureWindow).__fixture.game.screen);
  expect(r).toBe('title');
  expect(await frames(), 'frames recorded on the title screen').toBe(0);
  await press(' ');
  await fixtureTicks(page(), 3);
  const paused = await page().evaluate(() => (window as unknown as FixtureWindow).__fixture.overlay.isPaused);
  expect(paused, 'the pause key paused the overlay on the title screen').toBe(false);
  expect(await frames(), 'frames recorded on the title screen').toBe(0);
});

test('plays: waves on the tween clock, slimes on Ticker.shared, pooled lives reused', async () => {
  await press('Enter');
  // Frames and game time both: at 60 fps 150 frames are 2.5 s of play, too little for waves and ended
  // lives; under load (a few fps) the frames are what takes long.
  await page().waitForFunction(
    (n) => {
      const f = (window as unknown as FixtureWindow).__fixture;
      const a = f.game.arena;
      return f.recorder.reader.frameCount >= n && f.game.waveNumber() >= 2 && a.nextId - a.byId.size > 6;
    },
    LIVE_FRAMES,
    { timeout: 150_000, polling: 250 },
  );
  const r = await page().evaluate(() => {
    const f = (window as unknown as FixtureWindow).__fixture;
    const a = f.game.arena;
    return {
      screen: f.game.screen,
      wave: f.game.waveNumber(),
      lives: a.nextId,
      alive: a.byId.size,
      slimes: a.slimes.length,
    };
  });
  expect(r.screen).toBe('play');
  expect(r.wave, 'waves started by the level timeline').toBeGreaterThanOrEqual(2);
  expect(r.lives - r.alive, 'lives that ended (pooled objects to reuse)').toBeGreaterThan(3);
});

test('pausing stops everything: no tween, animated sprite, timer or game value moves while paused', async () => {
  const r = await page().evaluate(() => {
    const f = (window as unknown as FixtureWindow).__fixture;
    const snap = f.snapshot();
    window.dispatchEvent(new KeyboardEvent('keydown', { key: ' ', code: 'Space', bubbles: true }));
    return { snap, paused: f.overlay.isPaused, newest: f.recorder.reader.newestFrame };
  });
  expect(r.paused, 'the pause key paused the game').toBe(true);
  atPause = r.snap;
  newestAtPause = r.newest;
  await fixtureTicks(page(), 3);
  const p1 = await page().evaluate(() => (window as unknown as FixtureWindow).__fixture.snapshot());
  await fixtureTicks(page(), 45);
  const p2 = await page().evaluate(() => (window as unknown as FixtureWindow).__fixture.snapshot());
  expect(differences(p1, p2), 'what changed over 45 ticks while paused on one frame').toEqual([]);
  expect(await page().evaluate(() => (window as unknown as FixtureWindow).__fixture.recorder.reader.newestFrame)).toBe(
    newestAtPause,
  );
});

test('records every entity in world-container space, nested ones (crates on the raft) too, and shows it there', async () => {
  const at = need(atPause, 'the snapshot at pause');
  expect(at['game.screen']).toBe('play');
  const shown = await page().evaluate(() => (window as unknown as FixtureWindow).__fixture.shown());
  expect(shown.filter((e) => e.kind === 'crate').length, 'crates recorded in the newest frame').toBe(3);
  expect(badlyShown(shown), 'entities of the newest frame').toEqual([]);
});

test('pooled entities are re-created in old frames: a despawned life shows as its kind, not on its reused display object', async () => {
  const r = await page().evaluate(() => {
    const f = (window as unknown as FixtureWindow).__fixture;
    const reader = f.recorder.reader;
    const alive = new Set(f.aliveIds());
    // The newest frame holding at least 3 lives that have ended since (their objects went back to the pool).
    for (let frame = reader.newestFrame - 20; frame >= reader.oldestFrame; frame -= 5) {
      f.overlay.playback.time.seek(frame);
      f.overlay.update(0);
      const shown = f.shown();
      const gone = shown.filter((e) => !alive.has(e.id));
      if (gone.length >= 3) return { frame, shown, gone: gone.length };
    }
    return { frame: -1, shown: [] as ShownEntity[], gone: 0 };
  });
  expect(r.frame, 'an old frame with 3 lives that ended since').toBeGreaterThanOrEqual(0);
  expect(badlyShown(r.shown), `entities of frame ${r.frame} (${r.gone} despawned since)`).toEqual([]);
});

test('the HUD shares the camera and the overlay draws above world and HUD', async () => {
  const r = await page().evaluate(() => {
    const f = (window as unknown as FixtureWindow).__fixture;
    f.overlay.setCameraMode('free');
    f.overlay.camera.panBy(120, -80);
    f.overlay.update(0);
    const w = f.game.world;
    const h = f.game.arena.hud;
    const stage = f.app.stage;
    const overlayRoot = f.overlay.worldOverlay;
    return {
      world: [w.x, w.y, w.pivot.x, w.pivot.y, w.scale.x, w.rotation],
      hud: [h.x, h.y, h.pivot.x, h.pivot.y, h.scale.x, h.rotation],
      worldAt: stage.children.indexOf(w),
      hudAt: stage.children.indexOf(h),
      overlayAt: stage.children.indexOf(overlayRoot),
    };
  });
  expect(r.hud, 'the HUD container follows the manual camera like the world').toEqual(r.world);
  expect(r.overlayAt, 'the overlay layer sits above the world').toBeGreaterThan(r.worldAt);
  expect(r.overlayAt, 'the overlay layer sits above the HUD').toBeGreaterThan(r.hudAt);
});

test('after heavy use with a resize while paused, resuming restores every display object and game value', async () => {
  const at = need(atPause, 'the snapshot at pause');
  const p = page();
  // Scrub, reverse, slow motion, step, select, drag and zoom the camera, click the stage, resize.
  await p.evaluate((newest) => {
    const f = (window as unknown as FixtureWindow).__fixture;
    const o = f.overlay;
    o.playback.time.seek(newest - 150);
    o.update(0);
    o.playback.time.setSpeed(-2);
    o.playback.time.play();
  }, newestAtPause);
  await fixtureTicks(p, 10);
  await p.evaluate(() => {
    const o = (window as unknown as FixtureWindow).__fixture.overlay;
    o.playback.time.setSpeed(0.25);
    o.playback.time.play();
  });
  await fixtureTicks(p, 10);
  await p.mouse.move(500, 300);
  await p.mouse.down();
  await p.mouse.move(380, 240, { steps: 4 });
  await p.mouse.up();
  await p.mouse.click(520, 330);
  await p.mouse.wheel(0, -240);
  await p.setViewportSize(RESIZED);
  await fixtureTicks(p, 6);
  await p.evaluate((newest) => {
    const o = (window as unknown as FixtureWindow).__fixture.overlay;
    o.playback.time.pause();
    o.playback.time.seek(newest - 60);
    o.playback.time.step(-1);
    o.setCameraMode('game');
  }, newestAtPause);
  await fixtureTicks(p, 4);
  const r = await p.evaluate((size) => {
    const f = (window as unknown as FixtureWindow).__fixture;
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', code: 'Escape', bubbles: true }));
    return { snap: f.snapshot(), paused: f.overlay.isPaused, layout: f.layoutEntries(size.width, size.height) };
  }, RESIZED);
  expect(r.paused, 'Esc resumed the game').toBe(false);
  expect(differences(at, r.snap, r.layout), "at resume vs at pause (the resize's layout expected)").toEqual([]);
});

test("records the game's own time and step, also below 10 fps (not the ticker's capped step)", async () => {
  const r = await page().evaluate(async () => {
    const f = (window as unknown as FixtureWindow).__fixture;
    // Five slow frames (160 ms of work each): pixi's deltaMS is capped at 100 ms, the game's clock is not.
    let slow = 5;
    const stall = (): void => {
      if (slow-- <= 0) return;
      const until = performance.now() + 160;
      while (performance.now() < until) {
        /* a slow frame */
      }
    };
    f.app.ticker.add(stall, undefined, 100);
    await f.ticks(8);
    f.app.ticker.remove(stall);
    const reader = f.recorder.reader;
    const n = reader.newestFrame;
    const dts: number[] = [];
    for (let k = n - 7; k <= n; k++) dts.push(reader.dtOf(k));
    return {
      time: reader.timeOf(n),
      gameTime: f.game.time,
      dt: reader.dtOf(n),
      gameDt: f.game.dt,
      dts,
      max: Math.max(...dts),
    };
  });
  expect(r.max, `recorded steps ${r.dts.join(', ')}`).toBeGreaterThan(0.15);
  expect(r.time, "recorded time of the newest frame vs the game's clock").toBe(r.gameTime);
  expect(r.dt, "recorded step of the newest frame vs the game's (stored as float32)").toBe(Math.fround(r.gameDt));
});

test('the game-over and title screens suspend the overlay; play resumes recording', async () => {
  const p = page();
  await p.evaluate(() => (window as unknown as FixtureWindow).__fixture.game.gameOver());
  await fixtureTicks(p, 2);
  const before = await frames();
  await fixtureTicks(p, 10);
  expect(await frames(), 'frames recorded on the game-over screen').toBe(before);
  await press(' ');
  await fixtureTicks(p, 2);
  expect(
    await p.evaluate(() => (window as unknown as FixtureWindow).__fixture.overlay.isPaused),
    'paused by the key on the game-over screen',
  ).toBe(false);
  await press('Enter');
  await fixtureTicks(p, 10);
  expect(await p.evaluate(() => (window as unknown as FixtureWindow).__fixture.game.screen)).toBe('title');
  expect(await frames(), 'frames recorded on the title screen').toBe(before);
  await press('Enter');
  await fixtureTicks(p, 10);
  expect(await frames(), 'frames recorded once play started again').toBeGreaterThan(before);
  await press(' ');
  await fixtureTicks(p, 2);
  expect(
    await p.evaluate(() => (window as unknown as FixtureWindow).__fixture.overlay.isPaused),
    'the pause key works during play',
  ).toBe(true);
  await press('Escape');
  await fixtureTicks(p, 2);
});

test('the integration is at most 15 lines, and docs/getting-started.md shows it first, line for line', () => {
  const main = readFileSync(resolve(ROOT, 'tests/fixture/src/main.ts'), 'utf8');
  const m = /\/\/ ── rewindable integration: start ──\n([\s\S]*?)\n\/\/ ── rewindable integration: end ──/.exec(main);
  expect(m, 'the integration markers in tests/fixture/src/main.ts').not.toBeNull();
  const lines = (m?.[1] ?? '').split('\n').filter((l) => l.trim().length > 0);
  expect(lines.length, `the integration's lines:\n${lines.join('\n')}`).toBeLessThanOrEqual(15);
  const doc = readFileSync(resolve(ROOT, 'docs/getting-started.md'), 'utf8');
  const first = /```ts\n([\s\S]*?)\n```/.exec(doc);
  expect(
    (first?.[1] ?? '').split('\n').filter((l) => l.trim().length > 0),
    'the first ts block of docs/getting-started.md',
  ).toEqual(lines);
});
