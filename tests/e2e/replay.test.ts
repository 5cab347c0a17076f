/**
 * End-to-end: replay files (issue 6). Save the demo's recording as .rwd bytes, check the file in
 * node with the library's own loader, open it in the standalone viewer (demo/viewer.html), seek,
 * and compare entity transforms; corrupted files give an error and crash nothing; the demo shows a
 * loaded replay and returns to its live recording.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { EntityBuffer, loadReplay } from 'rewindable';
import { REPLAY_MAGIC_BYTES } from 'rewindable/format';
import { launchBrowser, need, openPage, ticks, waitForFrames, watchPages, type DemoPage } from './browser';
import type { E2EWindow, RecordedTransform } from './hooks';
import { demoSaveBase64, loadBase64 } from './inPage';

/** Frames recorded before saving. */
const SAVE_FRAMES = 100;
const CROWD = 60;

let browser: Browser | undefined;
let demo: DemoPage | undefined;
let viewer: DemoPage | undefined;

/** The saved file and what the demo recorded at `frame`, read before saving. */
interface Saved {
  base64: string;
  bytes: Uint8Array;
  frame: number;
  oldest: number;
  newest: number;
  frames: number;
  /** id → recorded transform at `frame`, for every entity present there. */
  reference: Record<string, RecordedTransform & { kind: string | null }>;
  /** Ids of lives that began after `frame`. */
  later: number[];
}
let saved: Saved | undefined;

watchPages(() => [demo, viewer], __filename);

beforeAll(async () => {
  browser = await launchBrowser();
  demo = await openPage(browser, 'index.html', '__demo');
  await demo.page.evaluate((n) => (window as unknown as E2EWindow).__demo.setCrowd(n), CROWD);
});

afterAll(async () => {
  await browser?.close();
});

/** Flips, cuts or rewrites the file: each must give a typed error. */
function corruptions(bytes: Uint8Array): Array<{ name: string; bytes: Uint8Array }> {
  const flipped = bytes.slice();
  // Inside the frame payloads (the tail of the file): the checksum or a size check catches it.
  for (let i = Math.floor(bytes.length * 0.7); i < Math.floor(bytes.length * 0.7) + 16; i++) flipped[i] ^= 0x5a;
  const badMagic = bytes.slice();
  badMagic[1] = 0x58; // 'X' instead of 'R'
  const newer = bytes.slice();
  newer[REPLAY_MAGIC_BYTES.length] = 0x7f; // format version 127 (a positive fixint)
  return [
    { name: 'truncated to 60%', bytes: bytes.slice(0, Math.floor(bytes.length * 0.6)) },
    { name: '16 bytes flipped at 70%', bytes: flipped },
    { name: 'bad magic', bytes: badMagic },
    { name: 'format version 127', bytes: newer },
    { name: 'empty', bytes: new Uint8Array(0) },
  ];
}

const b64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64');

test('saves the demo recording as a .rwd file the library loads back frame for frame', async () => {
  const page = need(demo, 'the demo page').page;
  await waitForFrames(page, SAVE_FRAMES);
  await page.evaluate(() => (window as unknown as E2EWindow).__demo.overlay.pause());
  await ticks(page, 2);
  const info = await page.evaluate(() => {
    const d = (window as unknown as E2EWindow).__demo;
    const r = d.overlay.reader;
    // 30 frames back, or earlier so that some live entity spawns after it (to check it is hidden).
    const lts = d.lifetimes();
    const lastSpawn = Math.max(
      -1,
      ...lts.filter((l) => l.existsAtNewest && l.first > r.oldestFrame + 10).map((l) => l.first),
    );
    const frame = lastSpawn > 0 ? Math.min(r.newestFrame - 30, lastSpawn - 1) : r.newestFrame - 30;
    const reference: Record<string, RecordedTransform & { kind: string | null }> = {};
    const later: number[] = [];
    for (const l of lts) {
      if (l.first > frame && l.existsAtNewest) later.push(l.id);
      if (l.first > frame || l.last < frame) continue;
      const rec = d.recordedAt(l.id, frame);
      if (rec !== null) reference[String(l.id)] = { ...rec, kind: l.kind };
    }
    return { frame, oldest: r.oldestFrame, newest: r.newestFrame, frames: r.frameCount, reference, later };
  });
  const base64 = await page.evaluate(demoSaveBase64);
  const bytes = new Uint8Array(Buffer.from(base64, 'base64'));
  saved = { ...info, base64, bytes };

  expect(Object.keys(info.reference).length, `entities recorded at frame ${info.frame}`).toBeGreaterThanOrEqual(CROWD);
  expect([...bytes.subarray(0, REPLAY_MAGIC_BYTES.length)], 'the file starts with the magic').toEqual([
    ...REPLAY_MAGIC_BYTES,
  ]);

  // The library's own loader, in node: same frames, same transforms.
  const replay = loadReplay(bytes);
  expect(
    { frames: replay.reader.frameCount, oldest: replay.reader.oldestFrame, newest: replay.reader.newestFrame },
    'frames in the file',
  ).toEqual({
    frames: info.frames,
    oldest: info.oldest,
    newest: info.newest,
  });
  const buf = new EntityBuffer();
  expect(replay.reader.readEntities(info.frame, buf, false), `frame ${info.frame} in the file`).toBe(true);
  const inFile: Record<string, { x: number; y: number }> = {};
  for (let i = 0; i < buf.count; i++)
    inFile[String(replay.entities.ids[buf.handles[i]])] = { x: buf.positions[i * 3], y: buf.positions[i * 3 + 1] };
  const expected: Record<string, { x: number; y: number }> = {};
  for (const [id, r] of Object.entries(info.reference)) expected[id] = { x: r.x, y: r.y };
  expect(inFile, `positions at frame ${info.frame}: in the file (node loadReplay) vs recorded in the demo`).toEqual(
    expected,
  );
  // The demo stays paused (it costs no simulation) while the viewer tests run; the last test resumes it.
});

test('the viewer opens the file, seeks, and shows each entity where it was recorded', async () => {
  const s = need(saved, 'the saved file');
  viewer = await openPage(need(browser, 'the browser'), 'viewer.html', '__viewer');
  const page = viewer.page;
  const out = await page.evaluate(loadBase64, { hook: '__viewer' as const, base64: s.base64 });
  expect(out, 'loading the saved file in the viewer').toEqual({ threw: false, name: '', code: '', message: '' });
  const shown = await page.evaluate(() => {
    const o = (window as unknown as E2EWindow).__viewer.overlay;
    return {
      source: o.source,
      paused: o.isPaused,
      frames: o.reader.frameCount,
      oldest: o.reader.oldestFrame,
      newest: o.reader.newestFrame,
    };
  });
  expect(shown, 'the viewer shows the replay').toEqual({
    source: 'replay',
    paused: true,
    frames: s.frames,
    oldest: s.oldest,
    newest: s.newest,
  });

  await page.evaluate((f) => (window as unknown as E2EWindow).__viewer.overlay.playback.time.seek(f), s.frame);
  await ticks(page, 2);
  const r = await page.evaluate(
    ([frame, reference, later]) => {
      const v = (window as unknown as E2EWindow).__viewer;
      const TAU = Math.PI * 2;
      const gap = (a: number, b: number): number => Math.abs(((((a - b) % TAU) + TAU + Math.PI) % TAU) - Math.PI);
      const bad: string[] = [];
      let checked = 0;
      for (const [id, want] of Object.entries(reference)) {
        const rec = v.recordedAt(Number(id), frame);
        if (
          rec === null ||
          rec.x !== want.x ||
          rec.y !== want.y ||
          rec.angle !== want.angle ||
          rec.flags !== want.flags
        ) {
          bad.push(
            `${want.kind} ${id}: recorded in the demo ${JSON.stringify(want)}, in the viewer ${JSON.stringify(rec)}`,
          );
          continue;
        }
        const t = v.transform(Number(id));
        if (t === null || t.x !== rec.x || t.y !== rec.y || !(gap(t.rotation, rec.angle) <= 5e-3) || !t.visible) {
          bad.push(
            `${want.kind} ${id}: expected shown at x=${rec.x} y=${rec.y} angle=${rec.angle}, seen ${JSON.stringify(t)}`,
          );
          continue;
        }
        checked++;
      }
      const shownLater = later.filter((id) => v.transform(id)?.visible === true);
      return { position: v.overlay.playback.time.position, bad, checked, shownLater };
    },
    [s.frame, s.reference, s.later] as const,
  );
  expect(r.position, 'viewer playhead').toBe(s.frame);
  expect(r.bad, `viewer at frame ${s.frame}: recorded and displayed transforms vs the demo's recording`).toEqual([]);
  expect(r.checked).toBe(Object.keys(s.reference).length);
  expect(
    r.shownLater,
    `entities spawned after frame ${s.frame} (${s.later.length}) must be hidden in the viewer`,
  ).toEqual([]);

  // Step and play work in the viewer too.
  await page.keyboard.press('ArrowRight');
  await ticks(page, 2);
  expect(
    await page.evaluate(() => (window as unknown as E2EWindow).__viewer.overlay.playback.time.position),
    'after → in the viewer',
  ).toBe(s.frame + 1);
  await page.evaluate(
    (f) => (window as unknown as E2EWindow).__viewer.overlay.playback.time.seek(f),
    Math.round((s.oldest + s.newest) / 2),
  );
  await ticks(page, 3);

  // Channels work in the viewer: the ai channel off changes the pixels, back on restores them. The
  // game's view above the timeline is compared: text elsewhere (the ruler's labels) may be rendered
  // again with a glyph page grown meanwhile, a sub-pixel difference that is not the channel's.
  const toggled = await page.evaluate(() => {
    const v = (window as unknown as E2EWindow).__viewer;
    const top = v.overlay.timeline.top;
    const on = v.canvasChecksum(top);
    v.overlay.setChannel(0, false);
    const off = v.canvasChecksum(top);
    v.overlay.setChannel(0, true);
    return { on, off, back: v.canvasChecksum(top) };
  });
  expect(toggled.off, `viewer: the ai channel off changes the pixels (${JSON.stringify(toggled)})`).not.toBe(
    toggled.on,
  );
  expect(toggled.back, `viewer: the ai channel back on restores them (${JSON.stringify(toggled)})`).toBe(toggled.on);
});

test('a corrupted file gives a clear error, crashes nothing, and the viewer keeps the replay shown', async () => {
  const s = need(saved, 'the saved file');
  const page = need(viewer, 'the viewer page').page;
  const probe = Object.keys(s.reference)[0];
  const shownAt = (): Promise<{ source: string; position: number; t: unknown }> =>
    page.evaluate((id) => {
      const v = (window as unknown as E2EWindow).__viewer;
      return { source: v.overlay.source, position: v.overlay.playback.time.position, t: v.transform(Number(id)) };
    }, probe);
  const before = await shownAt();
  for (const c of corruptions(s.bytes)) {
    const out = await page.evaluate(loadBase64, { hook: '__viewer' as const, base64: b64(c.bytes) });
    expect(out.threw, `loading a file (${c.name}) should fail`).toBe(true);
    expect(out.name, `the error for "${c.name}": ${out.message}`).toBe('ReplayError');
    expect(out.message, `the error for "${c.name}" names the problem`).toMatch(/^rewindable replay [A-Z_]+/);
    // Still alive: it renders, and it still shows the good replay where it was.
    await ticks(page, 2);
    expect(await shownAt(), `the viewer after the bad file (${c.name})`).toEqual(before);
    const msg = await page.evaluate(() => document.body.textContent);
    expect(msg, `the viewer page shows the error of "${c.name}"`).toContain(out.code);
  }
  // And a good file still loads after the bad ones.
  const again = await page.evaluate(loadBase64, { hook: '__viewer' as const, base64: s.base64 });
  expect(again.threw, `loading the good file after the bad ones: ${again.message}`).toBe(false);
});

test('the demo shows a loaded replay, rejects a bad one, and returns to live without losing its recording', async () => {
  const s = need(saved, 'the saved file');
  const page = need(demo, 'the demo page').page;
  await page.evaluate(() => (window as unknown as E2EWindow).__demo.overlay.resume());
  await ticks(page, 3);
  const stats = (): Promise<{ frames: number; newestFrame: number; steps: number }> =>
    page.evaluate(() => (window as unknown as E2EWindow).__demo.stats());
  const live = await stats();
  expect(
    await page.evaluate(() => (window as unknown as E2EWindow).__demo.overlay.state),
    'the demo runs before the load',
  ).toBe('live');

  const out = await page.evaluate(loadBase64, { hook: '__demo' as const, base64: s.base64 });
  expect(out, 'loading the saved file in the demo').toEqual({ threw: false, name: '', code: '', message: '' });
  const atLoad = await stats();
  await page.evaluate((f) => (window as unknown as E2EWindow).__demo.overlay.playback.time.seek(f), s.frame);
  await ticks(page, 2);
  const r = await page.evaluate(
    ([frame, reference]) => {
      const d = (window as unknown as E2EWindow).__demo;
      const o = d.overlay;
      const bad: string[] = [];
      for (const [id, want] of Object.entries(reference)) {
        const rec = d.recordedAt(Number(id), frame);
        if (rec === null || rec.x !== want.x || rec.y !== want.y) {
          bad.push(`${want.kind} ${id}: recorded ${JSON.stringify(want)}, in the loaded replay ${JSON.stringify(rec)}`);
          continue;
        }
        const obj = o.presenter.objectOf(rec.handle);
        if (obj === null || obj.x !== rec.x || obj.y !== rec.y || !obj.visible) {
          bad.push(
            `${want.kind} ${id}: expected re-created at (${rec.x}, ${rec.y}), seen ${obj === null ? 'none' : `(${obj.x}, ${obj.y}) visible=${obj.visible}`}`,
          );
        }
      }
      return { source: o.source, paused: o.isPaused, gamePaused: d.hooks.isPaused(), frames: o.reader.frameCount, bad };
    },
    [s.frame, s.reference] as const,
  );
  expect(
    { source: r.source, paused: r.paused, gamePaused: r.gamePaused, frames: r.frames },
    'the demo showing the loaded replay',
  ).toEqual({
    source: 'replay',
    paused: true,
    gamePaused: true,
    frames: s.frames,
  });
  expect(r.bad, `the loaded replay at frame ${s.frame} in the demo`).toEqual([]);
  const whileReplay = await stats();
  expect(whileReplay, 'the game neither steps nor records while a replay is shown').toEqual(atLoad);
  expect(atLoad.newestFrame, 'the live recording is kept while the replay is shown').toBeGreaterThanOrEqual(
    live.newestFrame,
  );

  const bad = await page.evaluate(loadBase64, { hook: '__demo' as const, base64: b64(corruptions(s.bytes)[1].bytes) });
  expect({ threw: bad.threw, name: bad.name }, `a corrupted file in the demo: ${bad.message}`).toEqual({
    threw: true,
    name: 'ReplayError',
  });
  await ticks(page, 2);
  expect(await stats(), 'a bad file does not touch the live recording').toEqual(whileReplay);

  await page.evaluate(() => (window as unknown as E2EWindow).__demo.overlay.returnToLive());
  await ticks(page, 5);
  const back = await page.evaluate(() => {
    const o = (window as unknown as E2EWindow).__demo.overlay;
    return { source: o.source, state: o.state };
  });
  expect(back, 'after returnToLive').toEqual({ source: 'live', state: 'live' });
  const after = await stats();
  expect(after.steps, 'the game steps again').toBeGreaterThan(whileReplay.steps);
  expect(after.newestFrame, 'the live recording continues where it was').toBeGreaterThan(live.newestFrame);
  expect(after.frames, 'the live recording kept its frames').toBeGreaterThanOrEqual(live.frames);
});
