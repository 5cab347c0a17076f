/**
 * End-to-end: the entity inspector in the demo (issue 15), driven with the real mouse and keyboard
 * in headless Chromium. One page for the whole file, tests in order: an agent clicked in the paused
 * game shows what was recorded at that frame; a click and a drag on its graph seek; the entity list
 * filters and picks by id; "copy as JSON" gives the recorded values; pinning shows two entities side
 * by side; the panel stays above the timeline and closes; the viewer shows a saved file's entity
 * the same way. Values are compared with what the demo
 * hook reads back from the recording (`recordedAt`, `lifetimes`).
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { need, openDemo, openPage, ticks, waitForFrames, watchPages, type DemoPage } from './browser';
import type { E2EWindow } from './hooks';
import { demoSaveBase64, loadBase64 } from './inPage';

let demo: DemoPage | undefined;
let viewer: DemoPage | undefined;
/** The frame viewed, and the agent selected in the first test. */
let viewed = -1;
let agent: { id: number; handle: number } | undefined;

watchPages(() => [demo, viewer], __filename);

beforeAll(async () => {
  demo = await openDemo('index.html');
  await demo.page.evaluate(() => (window as unknown as E2EWindow).__demo.setCrowd(40));
  await waitForFrames(demo.page, 150);
  viewed = await demo.page.evaluate(() => {
    const o = (window as unknown as E2EWindow).__demo.overlay;
    o.pause();
    const f = o.reader.newestFrame - 20;
    o.playback.time.seek(f);
    return f;
  });
  await ticks(demo.page, 3);
});

afterAll(async () => {
  await demo?.close();
});

function page(): DemoPage['page'] {
  return need(demo, 'the demo page').page;
}

function selected(): { id: number; handle: number } {
  return need(agent, 'the agent selected by the first test');
}

/** The text of a value of the card of `handle`. */
async function value(handle: number, field: string): Promise<string> {
  return (
    (await page().locator(`.rw-card[data-handle="${handle}"] [data-field="${field}"]`).first().textContent()) ?? ''
  );
}

async function position(): Promise<number> {
  return page().evaluate(() => (window as unknown as E2EWindow).__demo.overlay.playback.time.position);
}

test('an agent clicked in the paused game: the inspector shows what was recorded at that frame', async () => {
  // Where an agent present in the viewed frame is on screen (the world container is the camera),
  // clear of the DOM panels over the canvas (inspector, HUD, lil-gui) and of the timeline; earlier
  // frames are tried when no agent is there.
  const target = await page().evaluate((first) => {
    const d = (window as unknown as E2EWindow).__demo;
    const o = d.overlay;
    const world = d.view.world as unknown as { toGlobal(p: { x: number; y: number }): { x: number; y: number } };
    for (let f = first; f > first - 150 && f >= o.reader.oldestFrame; f -= 5) {
      o.playback.time.seek(f);
      o.update(0);
      const s = o.sample;
      for (let i = 0; i < s.count; i++) {
        const h = s.handles[i];
        if (o.playback.lifetimes.kind(h) !== 'agent' || !s.inNearerFrame(i)) continue;
        const p = world.toGlobal({ x: s.positions[i * 3], y: s.positions[i * 3 + 1] });
        if (p.x < 340 || p.x > 980 || p.y < 60 || p.y > 400) continue;
        let alone = true; // no other entity near it: the click picks this one
        for (let j = 0; j < s.count && alone; j++) {
          if (j === i || !s.inNearerFrame(j)) continue;
          const q = world.toGlobal({ x: s.positions[j * 3], y: s.positions[j * 3 + 1] });
          if (Math.hypot(q.x - p.x, q.y - p.y) < 40) alone = false;
        }
        if (alone) return { id: s.ids[i], handle: h, x: p.x, y: p.y, frame: f };
      }
    }
    return null;
  }, viewed);
  if (target !== null) viewed = target.frame;
  expect(target, 'an agent on screen in the viewed frame').not.toBeNull();
  if (target === null) return;
  await page().mouse.click(target.x, target.y);
  await ticks(page(), 2);
  const sel = await page().evaluate(() => (window as unknown as E2EWindow).__demo.overlay.selected);
  expect(sel, 'the click selected the agent').toBe(target.handle);
  agent = { id: target.id, handle: target.handle };
  expect(await page().locator('.rewindable-inspector').isVisible()).toBe(true);

  const rec = await page().evaluate(([id, f]) => (window as unknown as E2EWindow).__demo.recordedAt(id, f), [
    target.id,
    viewed,
  ] as const);
  expect(rec).not.toBeNull();
  if (rec === null) return;
  const life = await page().evaluate(
    (h) => (window as unknown as E2EWindow).__demo.lifetimes().find((l) => l.handle === h) ?? null,
    target.handle,
  );
  expect(life).not.toBeNull();
  const h = target.handle;
  expect(await value(h, 'title')).toMatch(new RegExp(`^#${target.id} agent`));
  expect(await value(h, 'life')).toBe(`${life?.first}..${life?.last}`);
  expect(await value(h, 'frame')).toBe(String(viewed));
  expect(Number(await value(h, 'x'))).toBeCloseTo(rec.x, 2);
  expect(Number(await value(h, 'y'))).toBeCloseTo(rec.y, 2);
  expect(Number((await value(h, 'angle')).replace('°', ''))).toBeCloseTo((rec.angle * 180) / Math.PI, 1);
  const flags = await value(h, 'flags');
  expect(flags.includes('damaged')).toBe((rec.flags & 1) !== 0);
  expect(flags === 'none').toBe(rec.flags === 0);
  // Another frame: the values follow the playhead.
  await page().evaluate((f) => (window as unknown as E2EWindow).__demo.overlay.playback.time.seek(f), viewed - 30);
  await ticks(page(), 2);
  const rec2 = await page().evaluate(([id, f]) => (window as unknown as E2EWindow).__demo.recordedAt(id, f), [
    target.id,
    viewed - 30,
  ] as const);
  if (rec2 !== null) {
    expect(await value(h, 'frame')).toBe(String(viewed - 30));
    expect(Number(await value(h, 'x'))).toBeCloseTo(rec2.x, 2);
  }
});

test('a click on the x graph seeks to the frame under it, and a drag follows the pointer', async () => {
  const h = selected().handle;
  const graph = page().locator(`.rw-card[data-handle="${h}"] [data-graph="x"]`);
  const box = await graph.boundingBox();
  expect(box).not.toBeNull();
  if (box === null) return;
  const range = await page().evaluate(() => {
    const t = (window as unknown as E2EWindow).__demo.overlay.playback.time;
    return { from: t.rangeIn, to: t.rangeOut };
  });
  const at = (t: number): number => Math.round(range.from + t * (range.to - range.from));
  await page().mouse.click(box.x + box.width * 0.25, box.y + box.height / 2);
  await ticks(page(), 1);
  expect(Math.abs((await position()) - at(0.25))).toBeLessThanOrEqual(1);
  await page().mouse.move(box.x + box.width * 0.3, box.y + box.height / 2);
  await page().mouse.down();
  await page().mouse.move(box.x + box.width * 0.5, box.y + box.height / 2, { steps: 4 });
  await ticks(page(), 1);
  expect(Math.abs((await position()) - at(0.5))).toBeLessThanOrEqual(1);
  await page().mouse.move(box.x + box.width * 0.7, box.y + box.height / 2, { steps: 4 });
  await page().mouse.up();
  await ticks(page(), 1);
  expect(Math.abs((await position()) - at(0.7))).toBeLessThanOrEqual(1);
  expect(await page().evaluate(() => (window as unknown as E2EWindow).__demo.overlay.state)).toBe('paused');
  // Back to the frame of the first test.
  await page().evaluate((f) => (window as unknown as E2EWindow).__demo.overlay.playback.time.seek(f), viewed);
  await ticks(page(), 2);
});

test('the entity list filters by kind, label or id, and an id typed with Enter selects it', async () => {
  await page().locator('.rewindable-inspector [data-action="list"]').click();
  const filter = page().locator('.rewindable-inspector [data-action="filter"]');
  await filter.fill('agent');
  const rows = page().locator('.rewindable-inspector .rw-list-row');
  const agents = await page().evaluate(() =>
    (window as unknown as E2EWindow).__demo
      .lifetimes()
      .filter((l) => l.kind === 'agent')
      .map((l) => l.handle)
      .sort((a, b) => a - b),
  );
  expect(agents.length).toBeGreaterThan(0);
  const listed = (await rows.evaluateAll((els) => els.map((e) => Number((e as HTMLElement).dataset.handle)))).sort(
    (a, b) => a - b,
  );
  expect(listed).toEqual(agents);
  for (const text of await rows.allTextContents()) expect(text.startsWith('agent #')).toBe(true);
  // The player: one life, found by its kind.
  await filter.fill('player');
  expect(await rows.count()).toBeGreaterThanOrEqual(1);
  for (const text of await rows.allTextContents()) expect(text.startsWith('player #')).toBe(true);
  await filter.fill('no such thing at all');
  expect(await rows.count()).toBe(0);
  // An id and Enter: the agent's life is selected again.
  await page().evaluate(() => (window as unknown as E2EWindow).__demo.overlay.select(-1));
  await filter.fill(String(selected().id));
  await filter.press('Enter');
  await ticks(page(), 2);
  expect(await page().evaluate(() => (window as unknown as E2EWindow).__demo.overlay.selected)).toBe(selected().handle);
  await page().locator('.rewindable-inspector [data-action="list"]').click();
  expect(await page().locator('.rewindable-inspector .rw-list').isVisible()).toBe(false);
});

test('copy as JSON gives the whole recorded state at the viewed frame', async () => {
  const { id, handle } = selected();
  await page().evaluate((f) => (window as unknown as E2EWindow).__demo.overlay.playback.time.seek(f), viewed);
  await ticks(page(), 1);
  await page().context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page().locator(`.rw-card[data-handle="${handle}"] [data-action="copy"]`).click();
  await ticks(page(), 1);
  const text = await page().evaluate(() => (window as unknown as E2EWindow).__demo.inspector.lastCopied);
  const clipboard = await page().evaluate(() => navigator.clipboard.readText());
  expect(clipboard).toBe(text);
  const state = JSON.parse(text);
  const rec = await page().evaluate(([i, f]) => (window as unknown as E2EWindow).__demo.recordedAt(i, f), [
    id,
    viewed,
  ] as const);
  expect(rec).not.toBeNull();
  expect(state.frame).toBe(viewed);
  expect(state.id).toBe(id);
  expect(state.handle).toBe(handle);
  expect(state.kind).toBe('agent');
  expect(state.present).toBe(true);
  expect(state.position.x).toBe(rec?.x);
  expect(state.position.y).toBe(rec?.y);
  expect(state.flags.bits).toBe(rec?.flags);
  expect(state.rotation.angleDeg).toBeCloseTo(((rec?.angle ?? 0) * 180) / Math.PI, 9);
});

test("custom fields: the agent's health, stamina, state and target as recorded; its health graph seeks", async () => {
  const { handle } = selected();
  await page().evaluate((f) => (window as unknown as E2EWindow).__demo.overlay.playback.time.seek(f), viewed);
  await ticks(page(), 2);
  // What was recorded, read back through the playback's field query.
  const rec = await page().evaluate(
    ([h, f]) => {
      const fields = (window as unknown as E2EWindow).__demo.overlay.playback.fields;
      const out = new Float64Array(3);
      const r: Record<string, { value: number; name: string | null }> = {};
      for (const info of fields.schemaOf(h)) {
        fields.valueAt(h, info.index, f, out);
        r[info.name] = {
          value: out[0],
          name: info.type === 'enum' ? (fields.enumName(h, info.index, out[0]) ?? null) : null,
        };
      }
      return r;
    },
    [handle, viewed] as const,
  );
  expect(Object.keys(rec)).toEqual(expect.arrayContaining(['health', 'stamina', 'state', 'target', 'velocity']));
  expect(Number(await value(handle, 'field:health'))).toBeCloseTo(rec.health.value, 2);
  expect(Number(await value(handle, 'field:stamina'))).toBe(rec.stamina.value);
  expect(await value(handle, 'field:state')).toBe(rec.state.name);
  expect(await value(handle, 'field:target')).toBe(Number.isNaN(rec.target.value) ? 'none' : `→ #${rec.target.value}`);
  // Copy as JSON carries them by name.
  await page().locator(`.rw-card[data-handle="${handle}"] [data-action="copy"]`).click();
  const state = JSON.parse(await page().evaluate(() => (window as unknown as E2EWindow).__demo.inspector.lastCopied));
  expect(state.fields.health).toBe(rec.health.value);
  expect(state.fields.state).toBe(rec.state.name);
  // The health graph seeks like the position graphs.
  const box = await page().locator(`.rw-card[data-handle="${handle}"] [data-graph="field:health"]`).boundingBox();
  expect(box).not.toBeNull();
  if (box === null) return;
  const range = await page().evaluate(() => {
    const t = (window as unknown as E2EWindow).__demo.overlay.playback.time;
    return { from: t.rangeIn, to: t.rangeOut };
  });
  await page().mouse.click(box.x + box.width * 0.4, box.y + box.height / 2);
  await ticks(page(), 1);
  expect(Math.abs((await position()) - Math.round(range.from + 0.4 * (range.to - range.from)))).toBeLessThanOrEqual(1);
  await page().evaluate((f) => (window as unknown as E2EWindow).__demo.overlay.playback.time.seek(f), viewed);
  await ticks(page(), 2);
});

test("the agent's health added to the timeline as a lane: its tooltip gives the recorded value at a frame; removed again", async () => {
  const { handle } = selected();
  const button = page().locator(
    `.rw-card[data-handle="${handle}"] .rw-row:has([data-field="field:health"]) [data-action="timeline"]`,
  );
  expect(await button.textContent()).toBe('+ timeline');
  await button.click();
  await ticks(page(), 2);
  expect(await button.textContent()).toBe('− timeline');
  // Where the lane is, and what was recorded at the viewed frame (through the playback's series query).
  const at = await page().evaluate(
    ([h, f]) => {
      const o = (window as unknown as E2EWindow).__demo.overlay;
      const tl = o.timeline;
      const lane = tl.laneLayout.find((l) => l.type === 3);
      const info = o.playback.fields.schemaOf(h).find((x) => x.name === 'health');
      if (lane === undefined || info === undefined) return null;
      const out = new Float64Array(1);
      o.playback.fields.series(h, info.index, f, f, out);
      const rect = o.app.canvas.getBoundingClientRect();
      return {
        keys: tl.fieldLaneKeys,
        name: lane.name,
        x: rect.left + tl.xOf(f),
        y: rect.top + tl.top + tl.rulerHeight + lane.top + lane.height / 2,
        value: out[0],
        label: o.playback.lifetimes.label(h),
      };
    },
    [handle, viewed] as const,
  );
  expect(at).not.toBeNull();
  if (at === null) return;
  expect(at.keys).toHaveLength(1);
  expect(at.name).toBe(`${at.label} · health`);
  await page().mouse.move(at.x, at.y);
  await ticks(page(), 2);
  const tooltip = await page().evaluate(() => (window as unknown as E2EWindow).__demo.overlay.timeline.tooltipText);
  const shown = Number.isInteger(at.value) ? String(at.value) : at.value.toFixed(3);
  expect(tooltip).toBe(`${at.label} · health\nframe ${viewed}: ${shown}`);
  // Removed from the inspector: the lane goes.
  await button.click();
  await ticks(page(), 2);
  expect(await page().evaluate(() => (window as unknown as E2EWindow).__demo.overlay.timeline.fieldLaneKeys)).toEqual(
    [],
  );
  expect(await button.textContent()).toBe('+ timeline');
  await page().mouse.move(5, 5);
});

test('pinned entities are shown side by side', async () => {
  const { handle } = selected();
  await page().locator(`.rw-card[data-handle="${handle}"] [data-action="pin"]`).click();
  // A second entity: the player, through the list's filter.
  await page().locator('.rewindable-inspector [data-action="list"]').click();
  await page().locator('.rewindable-inspector [data-action="filter"]').fill('player');
  await page().locator('.rewindable-inspector .rw-list-row').first().click();
  await ticks(page(), 2);
  const shown = await page().evaluate(() => (window as unknown as E2EWindow).__demo.inspector.shownHandles);
  expect(shown.length).toBe(2);
  expect(shown).toContain(handle);
  const a = await page().locator(`.rw-card[data-handle="${shown[0]}"]`).boundingBox();
  const b = await page().locator(`.rw-card[data-handle="${shown[1]}"]`).boundingBox();
  expect(a !== null && b !== null && b.x > a.x + a.width - 1 && Math.abs(b.y - a.y) < 2).toBe(true);
  await page().locator('.rewindable-inspector [data-action="list"]').click();
  await page().locator(`.rw-card[data-handle="${handle}"] [data-action="pin"]`).click();
  await ticks(page(), 1);
  expect(await page().evaluate(() => (window as unknown as E2EWindow).__demo.inspector.shownHandles.length)).toBe(1);
});

test('the panel stays above the timeline, closes with ×, and opens again with the next selection', async () => {
  // A short window: the card is taller than the room above the timeline, so the panel scrolls inside.
  await page().setViewportSize({ width: 900, height: 420 });
  await ticks(page(), 3);
  const box = await page().locator('.rewindable-inspector').boundingBox();
  const geometry = await page().evaluate(() => {
    const root = (window as unknown as E2EWindow).__demo.inspector.root;
    return {
      timelineTop: (window as unknown as E2EWindow).__demo.overlay.timeline.top,
      scrolls: root.scrollHeight > root.clientHeight,
    };
  });
  await page().setViewportSize({ width: 1280, height: 720 });
  await ticks(page(), 3);
  expect(box).not.toBeNull();
  // Clear of the timeline and of its label line (18 pixels above its ruler).
  expect((box?.y ?? 0) + (box?.height ?? 0)).toBeLessThanOrEqual(geometry.timelineTop - 18);
  expect(geometry.scrolls, 'the card does not fit: the panel scrolls').toBe(true);
  await page().locator('.rewindable-inspector [data-action="close-inspector"]').click();
  await ticks(page(), 1);
  expect(await page().locator('.rewindable-inspector').isVisible()).toBe(false);
  expect(await page().evaluate(() => (window as unknown as E2EWindow).__demo.overlay.selected)).toBe(-1);
  await page().evaluate((h) => (window as unknown as E2EWindow).__demo.overlay.select(h), selected().handle);
  await ticks(page(), 1);
  expect(await page().locator('.rewindable-inspector').isVisible()).toBe(true);
});

test('the help (H) names the inspector first', async () => {
  await page().keyboard.press('h');
  await ticks(page(), 1);
  const text = await page().evaluate(() => (window as unknown as E2EWindow).__demo.overlay.help.value);
  await page().keyboard.press('h');
  expect(text.split('\n')[1]).toMatch(/inspector/);
});

test('in the viewer, a replay file: the inspector shows the selected entity as recorded in the file', async () => {
  const base64 = await page().evaluate(demoSaveBase64);
  viewer = await openPage(need(demo, 'the demo page').browser, 'viewer.html', '__viewer');
  const v = viewer.page;
  expect(await v.evaluate(loadBase64, { hook: '__viewer' as const, base64 })).toEqual({
    threw: false,
    name: '',
    code: '',
    message: '',
  });
  const { id } = selected();
  const shown = await v.evaluate(
    ([i, f]) => {
      const w = (window as unknown as E2EWindow).__viewer;
      w.overlay.playback.time.seek(f);
      w.overlay.update(0);
      let handle = -1;
      const lt = w.overlay.playback.lifetimes;
      lt.forEach((h) => {
        if (lt.id(h) === i && lt.presentAt(h, f)) handle = h;
      });
      w.overlay.select(handle);
      return { handle, recorded: w.recordedAt(i, f) };
    },
    [id, viewed] as const,
  );
  await ticks(v, 2);
  expect(shown.handle).toBeGreaterThanOrEqual(0);
  expect(shown.recorded).not.toBeNull();
  const text = async (field: string): Promise<string> =>
    (await v.locator(`.rw-card[data-handle="${shown.handle}"] [data-field="${field}"]`).textContent()) ?? '';
  expect(await v.locator('.rewindable-inspector').isVisible()).toBe(true);
  expect(await text('frame')).toBe(String(viewed));
  expect(Number(await text('x'))).toBeCloseTo(shown.recorded?.x ?? Number.NaN, 2);
  expect(Number(await text('y'))).toBeCloseTo(shown.recorded?.y ?? Number.NaN, 2);
  await viewer.close();
  viewer = undefined;
});
