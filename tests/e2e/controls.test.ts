/**
 * End-to-end: the controls as a user meets them in the demo (issue 14): keys after a click in the
 * rewind panel, the wheel over the paused game, panel labels from the key bindings, readouts that
 * follow what changed, the playback speed at a new pause, and the video-editor keys (J/K/L shuttle,
 * previous/next marker, channel number keys, bookmarks in the panel).
 *
 * One page for the whole file, tests in order. Keys are real key presses (playwright), clicks are
 * real clicks on the panel's DOM; waits are counted in ticks, never in wall-clock time.
 */
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { need, openDemo, ticks, waitForFrames, watchPages, type DemoPage } from './browser';
import type { E2EWindow } from './hooks';
import { demoSaveBase64, loadBase64 } from './inPage';

const CROWD = 40;
/** The documented default kinds of marker ↑/↓ jump to: over budget, damage, bookmark, event. */
const JUMP_KINDS = [0, 3, 4, 5];

let demo: DemoPage | undefined;
/** Every console message of the page (all levels), for the passive-listener warning. */
const consoleLines: string[] = [];

watchPages(() => [demo], __filename);

beforeAll(async () => {
  demo = await openDemo('index.html', '__demo', { width: 1024, height: 600 });
  demo.page.on('console', (m) => consoleLines.push(`${m.type()}: ${m.text()}`));
  await demo.page.evaluate((n) => (window as unknown as E2EWindow).__demo.setCrowd(n), CROWD);
});

afterAll(async () => {
  await demo?.close();
});

function page(): DemoPage['page'] {
  return need(demo, 'the demo page').page;
}

interface Now {
  position: number;
  state: string;
  paused: boolean;
  speed: number;
  mask: number;
  oldest: number;
  newest: number;
  bookmarks: Array<{ id: number; frame: number; label: string }>;
  info: string;
}

async function now(): Promise<Now> {
  return page().evaluate(() => {
    const o = (window as unknown as E2EWindow).__demo.overlay;
    const t = o.playback.time;
    return {
      position: t.position,
      state: o.state,
      paused: o.isPaused,
      speed: t.speed,
      mask: o.channelMask,
      oldest: o.reader.oldestFrame,
      newest: o.reader.newestFrame,
      bookmarks: o.playback.bookmarks.list().map((b) => ({ id: b.id, frame: b.frame, label: b.label })),
      info: o.info.text.text,
    };
  });
}

async function seek(frame: number): Promise<void> {
  await page().evaluate((f) => (window as unknown as E2EWindow).__demo.overlay.playback.time.seek(f), frame);
  await ticks(page(), 1);
}

async function press(key: string): Promise<void> {
  await page().keyboard.press(key);
  await ticks(page(), 1);
}

const panel = (): Locator => page().locator('.rewindable-panel');
/** A panel button whose label starts with `start` (its text, or its title for the transport row's glyphs). */
const button = (start: string): Locator =>
  panel()
    .locator('.lil-controller button')
    .filter({ hasText: new RegExp(`^\\s*${escapeRegExp(start)}`) })
    .or(panel().locator(`.lil-controller button[title^="${start}"]`))
    .first();
/** The input of the panel control named `name` (optionally followed by its key, "ai (1)"). */
const control = (name: string): Locator =>
  panel()
    .locator('.lil-controller')
    .filter({ has: page().locator('.lil-name', { hasText: new RegExp(`^${escapeRegExp(name)}( \\(.+\\))?$`) }) })
    .locator('input')
    .first();

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

test('panel labels come from the key bindings; "resume game" is disabled while the game runs', async () => {
  await waitForFrames(page(), 120);
  const play = button('pause game');
  const text = (await play.textContent()) ?? '';
  // The demo pauses with P while it runs (liveKeys), Space is the game's jump.
  expect(text, 'the live pause button names the live key').toContain('(P)');
  expect(text, 'the live pause button names the live key').not.toContain('Space');
  expect(await button('resume game').isDisabled(), '"resume game" while live').toBe(true);
  await press('p');
  expect((await now()).state).toBe('paused');
  expect((await button('play').textContent()) ?? '', 'paused: Space plays the replay').toContain('(Space)');
  expect(await button('resume game').isDisabled(), '"resume game" while paused').toBe(false);
});

test('keys keep working after clicking a panel checkbox or button, and Space does not click them again', async () => {
  const start = await now();
  const f = start.newest - 60;
  await seek(f);
  // A channel checkbox: off, and it keeps the focus.
  await control('ai').click();
  await ticks(page(), 1);
  expect((await now()).mask & 1, 'the ai checkbox turned the channel off').toBe(0);
  await press('ArrowLeft');
  expect((await now()).position, '← after clicking a checkbox').toBe(f - 1);
  await press('Space');
  let s = await now();
  expect(s.state, 'Space after clicking a checkbox plays').toBe('playing');
  expect(s.mask & 1, 'Space did not toggle the focused checkbox').toBe(0);
  await press('Space');
  expect((await now()).state).toBe('paused');
  // A button: "step +1" clicked once, then Space plays instead of stepping again.
  await seek(f);
  await button('step +1').click();
  await ticks(page(), 1);
  expect((await now()).position, 'the step button stepped').toBe(f + 1);
  await press('Space');
  s = await now();
  expect(s.state, 'Space after clicking a button plays (not the button again)').toBe('playing');
  await press('Space');
  await control('ai').click();
  expect((await now()).mask & 1, 'the ai checkbox turned the channel back on').toBe(1);
  // Typing in a text field is typing: no bookmark, no step.
  const label = control('label');
  await label.click();
  const before = await now();
  await page().keyboard.type('b,');
  await ticks(page(), 1);
  const after = await now();
  expect(await label.inputValue(), 'the text field got the keys').toBe('b,');
  expect(
    { bookmarks: after.bookmarks.length, position: after.position },
    'keys typed into a text field are not commands',
  ).toEqual({ bookmarks: before.bookmarks.length, position: before.position });
  await label.fill('');
  // Esc from a panel button (not typing) resumes.
  await button('step −1').click();
  await press('Escape');
  expect((await now()).state, 'Esc after clicking a button').toBe('live');
});

test('the wheel over the paused game zooms the camera, without the passive-listener error or scrolling the page', async () => {
  await press('p');
  // A host page that scrolls.
  await page().evaluate(() => {
    document.documentElement.style.overflow = 'auto';
    document.body.style.overflow = 'auto';
    const tall = document.createElement('div');
    tall.id = 'e2e-tall';
    tall.style.height = '4000px';
    document.body.append(tall);
    window.scrollTo(0, 0);
  });
  const zoom = (): Promise<number> =>
    page().evaluate(() => (window as unknown as E2EWindow).__demo.overlay.camera.current[3]);
  const z0 = await zoom();
  const linesBefore = consoleLines.length;
  await page().mouse.move(400, 260);
  for (let i = 0; i < 3; i++) {
    await page().mouse.wheel(0, -100);
    await ticks(page(), 1);
  }
  await ticks(page(), 2);
  const z1 = await zoom();
  const scrolled = await page().evaluate(() => window.scrollY);
  await page().evaluate(() => {
    document.getElementById('e2e-tall')?.remove();
    document.documentElement.style.overflow = '';
    document.body.style.overflow = '';
  });
  expect(z1, 'the wheel zoomed in').toBeGreaterThan(z0);
  expect(
    consoleLines.slice(linesBefore).filter((l) => /passive/i.test(l)),
    'console messages about passive listeners',
  ).toEqual([]);
  expect(scrolled, 'the host page did not scroll').toBe(0);
  await press('g');
});

test('the selection readout follows the camera mode; the HUD says the replay is playing; bookmark labels do not repeat the frame', async () => {
  const handle = await page().evaluate(() => {
    const o = (window as unknown as E2EWindow).__demo.overlay;
    o.update(0);
    const s = o.sample;
    const h = s.handles[0];
    o.select(h);
    return h;
  });
  expect(handle).toBeGreaterThanOrEqual(0);
  expect((await now()).info, 'a selected entity follows').toContain('camera: follow');
  await press('g');
  expect((await now()).info, 'after G').toContain('camera: game');
  await press('c');
  expect((await now()).info, 'after C').toContain('camera: free');
  await press('g');
  // The demo's HUD while the replay plays.
  await press('Space');
  expect((await now()).state).toBe('playing');
  await page().waitForFunction(
    () => {
      const t = document.querySelector('#hud [data-id="status"]')?.textContent ?? '';
      return /playing/i.test(t);
    },
    undefined,
    { timeout: 20_000, polling: 100 },
  );
  const status = await page().locator('#hud [data-id="status"]').textContent();
  expect(status, 'the HUD while the replay plays').not.toMatch(/PAUSED/);
  await press('k');
  // A bookmark from B: its row shows the frame once.
  const s = await now();
  const f = Math.round(s.position);
  await press('b');
  const added = (await now()).bookmarks.find((b) => b.frame === f);
  expect(added, `a bookmark at frame ${f}`).toBeDefined();
  const rows = await panel()
    .locator('.lil-controller')
    .evaluateAll(
      (els, frame) =>
        els
          .map(
            (e) =>
              `${e.textContent ?? ''} ${[...e.querySelectorAll('input')].map((i) => (i as HTMLInputElement).value).join(' ')}`,
          )
          .filter((t) => new RegExp(`\\b${frame}\\b`).test(t)),
      f,
    );
  expect(rows.length, `panel rows naming frame ${f}: ${JSON.stringify(rows)}`).toBeGreaterThan(0);
  for (const r of rows) expect(r.match(new RegExp(`\\b${f}\\b`, 'g'))?.length, `"${r}" names the frame once`).toBe(1);
});

test('bookmarks are renamed and deleted from the panel', async () => {
  const b = (await now()).bookmarks.at(-1);
  expect(b).toBeDefined();
  const row = panel().locator(`[data-bookmark="${b!.id}"]`);
  await row.locator('input').fill('guard loses sight');
  await row.locator('input').press('Enter');
  await ticks(page(), 1);
  expect((await now()).bookmarks.find((x) => x.id === b!.id)?.label).toBe('guard loses sight');
  await seek((await now()).oldest);
  await row.locator('[data-action="jump"]').click();
  await ticks(page(), 1);
  expect((await now()).position, 'the row jumps to its frame').toBe(b!.frame);
  await row.locator('[data-action="delete"]').click();
  await ticks(page(), 1);
  expect(
    (await now()).bookmarks.find((x) => x.id === b!.id),
    'deleted',
  ).toBeUndefined();
  expect(await panel().locator(`[data-bookmark="${b!.id}"]`).count(), 'its row is gone').toBe(0);
});

test('a new pause starts at 1×, whatever speed the last pause ended at', async () => {
  await page().evaluate(() => (window as unknown as E2EWindow).__demo.overlay.playback.time.setSpeed(-2));
  await ticks(page(), 1);
  await press('Escape');
  await ticks(page(), 3);
  let s = await now();
  expect(s.state).toBe('live');
  expect(s.speed, 'the speed while live').toBe(1);
  expect(Number(await control('speed').inputValue()), 'the panel speed while live').toBe(1);
  await press('p');
  await seek(s.newest - 60);
  const from = (await now()).position;
  await press('Space');
  await ticks(page(), 3);
  s = await now();
  expect(s.speed, 'the speed at the new pause').toBe(1);
  expect(s.position, 'Space plays forwards').toBeGreaterThan(from);
  await press('k');
});

test('J/K/L shuttle: L plays forwards and doubles, J backwards and doubles, K stops', async () => {
  const s = await now();
  await seek(Math.round((s.oldest + s.newest) / 2));
  const speeds: Array<[string, string, number]> = [];
  for (const k of ['l', 'l', 'l', 'k', 'j', 'j', 'k', 'l']) {
    await press(k);
    const n = await now();
    speeds.push([k, n.state, n.speed]);
    if (k === 'j' && n.state === 'playing') await seek(Math.round((s.oldest + s.newest) / 2));
  }
  await press('k');
  expect(speeds).toEqual([
    ['l', 'playing', 1],
    ['l', 'playing', 2],
    ['l', 'playing', 4],
    ['k', 'paused', 4],
    ['j', 'playing', -1],
    ['j', 'playing', -2],
    ['k', 'paused', -2],
    ['l', 'playing', 1],
  ]);
});

test('↑/↓ jump to the previous/next marker', async () => {
  const s = await now();
  const f = Math.round((s.oldest + s.newest) / 2);
  await page().evaluate((fr) => {
    const o = (window as unknown as E2EWindow).__demo.overlay;
    o.playback.bookmarks.add(fr - 6, 'before');
    o.playback.bookmarks.add(fr + 5, 'after');
    o.update(0);
  }, f);
  await seek(f);
  const expected = await page().evaluate(
    ([fr, kinds]) => {
      const m = (window as unknown as E2EWindow).__demo.overlay.playback.markers;
      let next = Infinity;
      let prev = -Infinity;
      for (let i = 0; i < m.count; i++) {
        if (!(kinds as number[]).includes(m.kinds[i])) continue;
        const x = m.frames[i];
        if (x > (fr as number) && x < next) next = x;
        if (x < (fr as number) && x > prev) prev = x;
      }
      return { next, prev };
    },
    [f, JUMP_KINDS] as const,
  );
  expect(expected.next).toBeLessThanOrEqual(f + 5);
  expect(expected.prev).toBeGreaterThanOrEqual(f - 6);
  await press('ArrowDown');
  expect((await now()).position, 'next marker').toBe(expected.next);
  await seek(f);
  await press('ArrowUp');
  expect((await now()).position, 'previous marker').toBe(expected.prev);
});

test('number keys 1–9 toggle the first channels', async () => {
  const m0 = (await now()).mask;
  await press('1');
  expect((await now()).mask, 'after 1').toBe((m0 ^ 1) >>> 0);
  await press('2');
  expect((await now()).mask, 'after 1, 2').toBe((m0 ^ 3) >>> 0);
  await press('1');
  await press('2');
  expect((await now()).mask, 'after 1, 2, 1, 2').toBe(m0);
  const ai = await control('ai').isChecked();
  expect(ai, 'the panel shows channel 1 on again').toBe(true);
});

test('the help (H) lists the new keys; loading a replay clears the selection readout', async () => {
  await press('h');
  const help = await page().evaluate(() => (window as unknown as E2EWindow).__demo.overlay.help.text.text);
  for (const k of ['J', 'K', 'L', '↑', '↓', '1']) expect(help, `help names ${k}`).toContain(k);
  await press('h');
  await page().evaluate(() => {
    const o = (window as unknown as E2EWindow).__demo.overlay;
    o.update(0);
    o.select(o.sample.handles[0]);
  });
  expect((await now()).info).not.toBe('');
  const base64 = await page().evaluate(demoSaveBase64);
  const out = await page().evaluate(loadBase64, { hook: '__demo' as const, base64 });
  expect(out.threw).toBe(false);
  await ticks(page(), 2);
  const s = await now();
  expect({
    info: s.info,
    selected: await page().evaluate(() => (window as unknown as E2EWindow).__demo.overlay.selected),
  }).toEqual({ info: '', selected: -1 });
  await press('Escape');
});
