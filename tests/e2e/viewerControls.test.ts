/**
 * End-to-end: the standalone viewer before and after a file (issue 14): an empty viewer does not
 * act like a game, error banners can be closed and go away once a good file loads, and paragraphs
 * of one channel drawn ~30 px apart are laid out so that none covers another.
 *
 * The replay files are made here, in node, with the library as a game uses it.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { Channel, Recorder, saveReplay } from 'rewindable';
import { need, openDemo, ticks, watchPages, type DemoPage } from './browser';
import type { E2EWindow } from './hooks';
import { loadBase64 } from './inPage';

/** The demo's build id (demo/src/rewind/replayFile.ts): a file with another one gets a warning. */
const BUILD_ID = 'rewindable-demo/0.1.0';

let viewer: DemoPage | undefined;

watchPages(() => [viewer], __filename);

beforeAll(async () => {
  viewer = await openDemo('viewer.html', '__viewer', { width: 1024, height: 600 });
});

afterAll(async () => {
  await viewer?.close();
});

function page(): DemoPage['page'] {
  return need(viewer, 'the viewer page').page;
}

/**
 * 20 frames of a few entities, each with a two-line paragraph on the AI channel; the paragraphs
 * of entities 1-3 stand 30 px apart, entity 4's 26 px right of entity 3's (the recorder merges texts closer than 24 px).
 */
function paragraphsFile(): string {
  const recorder = new Recorder({ maxFrames: 64, arenaBytes: 1 << 20 });
  const spots = [
    [400, 260],
    [400, 290],
    [430, 320],
    [456, 320],
    [700, 200],
  ];
  for (let f = 0; f < 20; f++) {
    recorder.beginFrame(f / 30, 1 / 30);
    spots.forEach(([x, y], i) => {
      recorder.entity(i + 1, x, y, 0, 0, 0, 0, 1, 0);
      recorder.draw.text(Channel.AI, x, y, 0, `guard ${i + 1}\nstate: patrol ${f}`, 0xffffff);
    });
    recorder.endFrame();
  }
  return Buffer.from(saveReplay(recorder, { buildId: BUILD_ID })).toString('base64');
}

test('the empty viewer does not act like a game: no "pause game", Space pauses nothing', async () => {
  const play = page().locator('.rewindable-panel .lil-function button').first();
  const label = (await play.textContent()) ?? '';
  expect(label, 'the first playback button with no file').not.toMatch(/pause game/);
  expect(await play.isDisabled(), 'it is disabled').toBe(true);
  await page().keyboard.press('Space');
  await ticks(page(), 2);
  const s = await page().evaluate(() => {
    const o = (window as unknown as E2EWindow).__viewer.overlay;
    return { paused: o.isPaused, state: o.state };
  });
  expect(s, 'after Space with no file').toEqual({ paused: false, state: 'live' });
});

test('an error banner closes with its button, and an old error goes once a good file loads', async () => {
  const bad = Buffer.from('not a replay at all').toString('base64');
  let out = await page().evaluate(loadBase64, { hook: '__viewer' as const, base64: bad });
  expect(out.threw).toBe(true);
  const errors = page().locator('#banner .msg.error');
  expect(await errors.count(), 'an error banner').toBe(1);
  await errors.first().locator('button').click();
  expect(await errors.count(), 'closed by its button').toBe(0);
  out = await page().evaluate(loadBase64, { hook: '__viewer' as const, base64: bad });
  expect(await errors.count(), 'a new error').toBe(1);
  out = await page().evaluate(loadBase64, { hook: '__viewer' as const, base64: paragraphsFile() });
  expect(out.threw, out.message).toBe(false);
  expect(await errors.count(), 'the old error after a good file loaded').toBe(0);
});

test('paragraphs 26-30 px apart do not cover each other', async () => {
  await page().evaluate(() => (window as unknown as E2EWindow).__viewer.overlay.playback.time.seek(10));
  await ticks(page(), 3);
  const boxes = await page().evaluate(() => {
    const o = (window as unknown as E2EWindow).__viewer.overlay;
    o.update(0);
    const pool = o.layers.paragraphs;
    const out: Array<{ text: string; x: number; y: number; w: number; h: number }> = [];
    for (let i = 0; i < pool.count; i++) {
      const t = pool.textAt(i);
      if (t === undefined || !t.visible) continue;
      const b = t.getBounds();
      out.push({ text: t.text, x: b.x, y: b.y, w: b.width, h: b.height });
    }
    return out;
  });
  expect(boxes.length, 'paragraphs shown').toBe(5);
  const overlaps: string[] = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i];
      const b = boxes[j];
      if (a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h)
        overlaps.push(`${JSON.stringify(a)} × ${JSON.stringify(b)}`);
    }
  }
  expect(overlaps, 'overlapping paragraphs').toEqual([]);
});
