/**
 * End-to-end: the demo game in headless Chromium, driven through `window.__demo` (issue 5).
 *
 * One page for the whole file, in order: play → pause → seek back 120 frames → step → reverse →
 * 0.25× → channels → despawned/spawned-later entities → help → resume → keys. Waits are counted in
 * recorded frames and pixi ticks, never in wall-clock time (software rendering runs ~10-20 fps).
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openDemo, ticks, waitForFrames, watchPages, type DemoPage } from './browser';
import type { E2EWindow } from './hooks';
import { demoShownVsRecorded, demoSnapshot, playAndMeasure, type GameSnapshot } from './inPage';

const AI = 0;
const PHYSICS = 1;
/** Frames the demo records before it is paused. */
const LIVE_FRAMES = 150;
/** A smaller crowd renders faster in SwiftShader (the default is 200). */
const CROWD = 100;

let demo: DemoPage | undefined;
/** The game's displays, taken in the same turn as the pause. */
let atPause: GameSnapshot | undefined;
/** The newest frame at the pause, and the frame 120 before it. */
let newestAtPause = -1;
let viewed = -1;

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

function paused(): { newest: number; viewed: number; snapshot: GameSnapshot } {
  if (atPause === undefined || viewed < 0)
    throw new Error('e2e: the game was not paused by the "pauses" test, which must run (and pass) first');
  return { newest: newestAtPause, viewed, snapshot: atPause };
}

/** Where the playhead is and what state the overlay is in. */
async function playhead(): Promise<{
  position: number;
  state: string;
  paused: boolean;
  gamePaused: boolean;
  source: string;
  speed: number;
}> {
  return page().evaluate(() => {
    const d = (window as unknown as E2EWindow).__demo;
    const o = d.overlay;
    return {
      position: o.playback.time.position,
      state: o.state,
      paused: o.isPaused,
      gamePaused: d.hooks.isPaused(),
      source: o.source,
      speed: o.playback.time.speed,
    };
  });
}

async function seek(frame: number): Promise<void> {
  await page().evaluate((f) => (window as unknown as E2EWindow).__demo.overlay.playback.time.seek(f), frame);
  await ticks(page(), 2);
}

async function expectShownAsRecorded(frame: number, minLive: number, what: string): Promise<void> {
  const pos = (await playhead()).position;
  expect(pos, `${what}: the playhead should be on frame ${frame}`).toBe(frame);
  const r = await page().evaluate(demoShownVsRecorded, frame);
  expect(
    r.bad,
    `${what}: displayed vs recorded transforms at frame ${frame} (${r.live} live, ${r.recreated} re-created checked)`,
  ).toEqual([]);
  expect(r.live, `${what}: live entities checked at frame ${frame}`).toBeGreaterThanOrEqual(minLive);
}

test('plays live: the game steps, records every step and shows the newest frame', async () => {
  await waitForFrames(page(), LIVE_FRAMES);
  const before = await page().evaluate(() => (window as unknown as E2EWindow).__demo.stats());
  await ticks(page(), 5);
  const r = await page().evaluate(() => {
    const d = (window as unknown as E2EWindow).__demo;
    const o = d.overlay;
    const s = d.stats();
    // Synchronously between ticks: the newest recorded frame is what the game shows (float32 of it).
    const TAU = Math.PI * 2;
    const gap = (a: number, b: number): number => Math.abs(((((a - b) % TAU) + TAU + Math.PI) % TAU) - Math.PI);
    const bad: string[] = [];
    const viewMismatch: string[] = [];
    let checked = 0;
    for (const kind of d.kinds) {
      const game = [...d.ids(kind)].sort((a, b) => a - b);
      const shown = [...d.displayedIds(kind)].sort((a, b) => a - b);
      if (game.join() !== shown.join())
        viewMismatch.push(`${kind}: game ids [${game.join()}] vs displayed [${shown.join()}]`);
      for (const id of game) {
        const t = d.transform(id);
        const rec = d.recordedAt(id, s.newestFrame);
        if (t === null || rec === null) {
          bad.push(
            `${kind} ${id}: display ${t === null ? 'missing' : 'ok'}, recordedAt(newest) ${rec === null ? 'null' : 'ok'}`,
          );
          continue;
        }
        checked++;
        if (
          Math.fround(t.x) !== rec.x ||
          Math.fround(t.y) !== rec.y ||
          !(gap(t.rotation, rec.angle) <= 5e-3) ||
          !t.visible
        ) {
          bad.push(
            `${kind} ${id}: shown (${t.x}, ${t.y}, ${t.rotation}, visible ${t.visible}) vs recorded (${rec.x}, ${rec.y}, ${rec.angle})`,
          );
        }
      }
    }
    return {
      s,
      state: o.state,
      paused: o.isPaused,
      source: o.source,
      gamePaused: d.hooks.isPaused(),
      bad,
      viewMismatch,
      checked,
    };
  });
  expect({ state: r.state, paused: r.paused, source: r.source, gamePaused: r.gamePaused }).toEqual({
    state: 'live',
    paused: false,
    source: 'live',
    gamePaused: false,
  });
  expect(r.s.steps, 'the game keeps stepping while live').toBeGreaterThan(before.steps);
  expect(r.s.newestFrame, 'one recorded frame per step').toBeGreaterThan(before.newestFrame);
  expect(r.s.newestFrame - before.newestFrame, 'frames recorded vs steps taken').toBe(r.s.steps - before.steps);
  expect(r.viewMismatch, 'the view shows exactly the game entities').toEqual([]);
  expect(r.bad, 'the newest recorded frame equals what the game shows').toEqual([]);
  expect(r.checked, 'entities checked').toBeGreaterThanOrEqual(CROWD);
});

test('pauses, and seeking back 120 frames shows every entity at its recorded transform', async () => {
  atPause = await page().evaluate(demoSnapshot, 'pause' as const);
  const st = await playhead();
  expect({ state: st.state, paused: st.paused, gamePaused: st.gamePaused }, 'right after overlay.pause()').toEqual({
    state: 'paused',
    paused: true,
    gamePaused: true,
  });
  expect(st.position, 'pausing shows the newest frame').toBe(atPause.newestFrame);
  newestAtPause = atPause.newestFrame;

  await ticks(page(), 4);
  const s = await page().evaluate(() => (window as unknown as E2EWindow).__demo.stats());
  expect(
    { steps: s.steps, frames: s.frames, newestFrame: s.newestFrame },
    'a paused game neither steps nor records',
  ).toEqual({
    steps: atPause.steps,
    frames: atPause.frames,
    newestFrame: atPause.newestFrame,
  });

  viewed = newestAtPause - 120;
  await seek(viewed);
  await expectShownAsRecorded(viewed, 20, 'after seeking back 120 frames');
});

test('steps ±1 and ±10 frames (API and keys), showing each frame as recorded', async () => {
  const { viewed: f } = paused();
  await seek(f);
  const apiSteps: Array<[number, number]> = [
    [1, f + 1],
    [-1, f],
    [10, f + 10],
    [-10, f],
  ];
  for (const [n, to] of apiSteps) {
    await page().evaluate((k) => (window as unknown as E2EWindow).__demo.overlay.playback.time.step(k), n);
    await ticks(page(), 2);
    await expectShownAsRecorded(to, 20, `after step(${n})`);
  }
  const keySteps: Array<[string, number]> = [
    ['ArrowRight', f + 1],
    ['ArrowLeft', f],
    ['Shift+ArrowRight', f + 10],
    ['Period', f + 11],
    ['Shift+ArrowLeft', f + 1],
    ['Comma', f],
  ];
  for (const [key, to] of keySteps) {
    await page().keyboard.press(key);
    await ticks(page(), 2);
    const st = await playhead();
    expect({ position: st.position, state: st.state }, `after pressing ${key}`).toEqual({
      position: to,
      state: 'paused',
    });
  }
  await expectShownAsRecorded(f, 20, 'after the key steps');
});

test('plays in reverse: the playhead moves back every tick', async () => {
  const { viewed: f } = paused();
  const run = await page().evaluate(playAndMeasure, { hook: '__demo' as const, from: f + 60, speed: -1, ticks: 6 });
  expect({ state: run.state, speed: run.speed }, 'while playing in reverse').toEqual({ state: 'playing', speed: -1 });
  for (let i = 1; i < run.positions.length; i++) {
    expect(
      run.positions[i],
      `reverse: position after tick ${i} vs tick ${i - 1} (positions ${run.positions.join(', ')})`,
    ).toBeLessThan(run.positions[i - 1]);
  }
  expect(run.positions[run.positions.length - 1], 'reverse play ends before where it started').toBeLessThan(f + 60);
  // Moved back by about the real time the ticks took, in recorded seconds (1×).
  const rate = run.recordedSeconds / run.realSeconds;
  expect(
    rate,
    `reverse 1×: ${run.recordedSeconds.toFixed(3)} recorded s in ${run.realSeconds.toFixed(3)} real s`,
  ).toBeGreaterThan(0.7);
  expect(rate).toBeLessThan(1.3);
  expect((await playhead()).state, 'paused again after the run').toBe('paused');
  await page().evaluate(() => (window as unknown as E2EWindow).__demo.overlay.playback.time.setSpeed(1));
});

test('plays at 0.25×: forward, about a quarter as fast as 1× in recorded time', async () => {
  const { viewed: f } = paused();
  const full = await page().evaluate(playAndMeasure, { hook: '__demo' as const, from: f, speed: 1, ticks: 8 });
  const quarter = await page().evaluate(playAndMeasure, { hook: '__demo' as const, from: f, speed: 0.25, ticks: 8 });
  expect(quarter.speed, 'speed while playing slowly').toBe(0.25);
  for (const run of [full, quarter]) {
    expect(run.state).toBe('playing');
    for (let i = 1; i < run.positions.length; i++) {
      expect(
        run.positions[i],
        `speed ${run.speed}: the playhead moves forward (positions ${run.positions.join(', ')})`,
      ).toBeGreaterThan(run.positions[i - 1]);
    }
  }
  const rateFull = full.recordedSeconds / full.realSeconds;
  const rateQuarter = quarter.recordedSeconds / quarter.realSeconds;
  const detail =
    `1×: ${full.recordedSeconds.toFixed(3)} recorded s in ${full.realSeconds.toFixed(3)} real s; ` +
    `0.25×: ${quarter.recordedSeconds.toFixed(3)} recorded s in ${quarter.realSeconds.toFixed(3)} real s`;
  expect(rateFull, `1× plays recorded time at real time (${detail})`).toBeGreaterThan(0.7);
  expect(rateFull, detail).toBeLessThan(1.3);
  expect(rateQuarter / rateFull, `0.25× / 1× rate (${detail})`).toBeGreaterThan(0.15);
  expect(rateQuarter / rateFull, `0.25× / 1× rate (${detail})`).toBeLessThan(0.35);
  await page().evaluate(() => (window as unknown as E2EWindow).__demo.overlay.playback.time.setSpeed(1));
});

test('toggling a channel off and on changes the pixels and brings them back', async () => {
  const { viewed: f } = paused();
  await seek(f);
  const checksum = async (): Promise<number> => {
    await ticks(page(), 2);
    return page().evaluate(() => (window as unknown as E2EWindow).__demo.canvasChecksum());
  };
  const setChannel = (c: number, on: boolean): Promise<number> =>
    page().evaluate(
      ([ch, v]) => {
        const o = (window as unknown as E2EWindow).__demo.overlay;
        o.setChannel(ch as number, v as boolean);
        return o.channelMask;
      },
      [c, on] as const,
    );
  await setChannel(AI, true);
  await setChannel(PHYSICS, true);
  for (const [c, name] of [
    [AI, 'ai'],
    [PHYSICS, 'physics'],
  ] as const) {
    const on = await checksum();
    const maskOff = await setChannel(c, false);
    expect(maskOff & (1 << c), `${name} bit of the channel mask after setChannel(off)`).toBe(0);
    const off = await checksum();
    expect(off, `turning the ${name} channel off should change the pixels (checksum with it on: ${on})`).not.toBe(on);
    const maskOn = await setChannel(c, true);
    expect(maskOn & (1 << c), `${name} bit after setChannel(on)`).not.toBe(0);
    const back = await checksum();
    expect(back, `turning the ${name} channel back on should restore the pixels (on: ${on}, off: ${off})`).toBe(on);
  }
});

test('a despawned entity is re-created where it was alive; one spawned later is hidden', async () => {
  paused();
  const pick = await page().evaluate(() => {
    const d = (window as unknown as E2EWindow).__demo;
    const r = d.overlay.reader;
    const lts = d.lifetimes();
    const later = lts.filter((l) => l.existsAtNewest);
    const gone = lts
      .filter((l) => !l.existsAtNewest && l.last < r.newestFrame && l.first >= r.oldestFrame)
      .sort(
        (a, b) =>
          (a.kind === 'projectile' ? 0 : 1) - (b.kind === 'projectile' ? 0 : 1) ||
          b.last - b.first - (a.last - a.first),
      );
    // Prefer the middle of its life; its first frame leaves the most room for later spawns.
    for (const g of gone) {
      for (const frame of [Math.floor((g.first + g.last) / 2), g.first]) {
        const l = later.find((x) => x.first > frame);
        if (l !== undefined) return { frame, gone: g, later: l, kinds: [...new Set(lts.map((x) => x.kind))].join() };
      }
    }
    return {
      frame: -1,
      gone: null,
      later: null,
      kinds: `${gone.length} despawned, ${later.length} live; kinds ${[...new Set(lts.map((x) => x.kind))].join()}`,
    };
  });
  expect(
    pick.gone,
    `the recording needs a despawned entity and a later-spawned live one (${pick.kinds})`,
  ).not.toBeNull();
  const { frame, gone, later } = pick as {
    frame: number;
    gone: NonNullable<typeof pick.gone>;
    later: NonNullable<typeof pick.later>;
  };
  await seek(frame);
  const seen = await page().evaluate(
    ([f, g, l]) => {
      const d = (window as unknown as E2EWindow).__demo;
      const obj = d.overlay.presenter.objectOf(g.handle);
      return {
        gone: obj === null ? null : { x: obj.x, y: obj.y, visible: obj.visible && obj.parent !== null },
        goneRecorded: d.recordedAt(g.id, f),
        later: d.transform(l.id),
      };
    },
    [frame, gone, later] as const,
  );
  const goneName = `despawned ${gone.kind} ${gone.id} (alive frames ${gone.first}..${gone.last}) viewed at frame ${frame}`;
  expect(seen.goneRecorded, `${goneName}: recordedAt`).not.toBeNull();
  expect(seen.gone, `${goneName}: expected a re-created display`).not.toBeNull();
  expect(seen.gone, goneName).toEqual({ x: seen.goneRecorded?.x, y: seen.goneRecorded?.y, visible: true });
  const laterName = `${later.kind} ${later.id} spawned at frame ${later.first}, viewed at frame ${frame}`;
  expect(seen.later, `${laterName}: its live display`).not.toBeNull();
  expect(seen.later?.visible, `${laterName}: expected hidden`).toBe(false);
  const r = await page().evaluate(demoShownVsRecorded, frame);
  expect(r.bad, `every entity at frame ${frame}`).toEqual([]);
  expect(r.recreated, 're-created entities checked').toBeGreaterThanOrEqual(1);
  expect(r.hiddenLater, 'later-spawned entities hidden').toBeGreaterThanOrEqual(1);
});

test('H shows the key help and hides it again', async () => {
  paused();
  await seek(viewed + 60);
  const helpShown = (): Promise<boolean> =>
    page().evaluate(() => (window as unknown as E2EWindow).__demo.overlay.help.root.visible);
  expect(await helpShown(), 'help before H').toBe(false);
  await page().keyboard.press('h');
  await ticks(page(), 2);
  expect(await helpShown(), 'help after pressing H').toBe(true);
  await page().keyboard.press('h');
  await ticks(page(), 2);
  expect(await helpShown(), 'help after pressing H again').toBe(false);
});

test('resumes: every display is exactly as at the pause, nothing vanished, and the game steps on', async () => {
  const { snapshot } = paused();
  const after = await page().evaluate(demoSnapshot, 'resume' as const);
  const st = await playhead();
  expect(
    { state: st.state, paused: st.paused, gamePaused: st.gamePaused, source: st.source },
    'after overlay.resume()',
  ).toEqual({
    state: 'live',
    paused: false,
    gamePaused: false,
    source: 'live',
  });
  const vanished = Object.keys(snapshot.displays).filter((id) => !(id in after.displays));
  const appeared = Object.keys(after.displays).filter((id) => !(id in snapshot.displays));
  expect({ vanished, appeared }, 'entity displays right after resume vs at the pause').toEqual({
    vanished: [],
    appeared: [],
  });
  const moved: string[] = [];
  for (const [id, was] of Object.entries(snapshot.displays)) {
    const now = after.displays[id];
    if (
      !Object.is(now.x, was.x) ||
      !Object.is(now.y, was.y) ||
      !Object.is(now.rotation, was.rotation) ||
      now.visible !== was.visible ||
      now.tint !== was.tint
    ) {
      moved.push(`${was.kind} ${id}: at pause ${JSON.stringify(was)}, after resume ${JSON.stringify(now)}`);
    }
  }
  expect(moved, 'entity displays changed between the pause and the resume').toEqual([]);
  expect(after.world, 'the world (camera) transform is restored').toEqual(snapshot.world);
  expect(
    { steps: after.steps, frames: after.frames, newestFrame: after.newestFrame },
    'the game clock at resume',
  ).toEqual({
    steps: snapshot.steps,
    frames: snapshot.frames,
    newestFrame: snapshot.newestFrame,
  });

  await ticks(page(), 6);
  const later = await page().evaluate(demoSnapshot, 'none' as const);
  expect(later.steps, 'the game steps again after resume').toBeGreaterThan(snapshot.steps);
  expect(later.newestFrame, 'and records again').toBeGreaterThan(snapshot.newestFrame);
  const movedSince = Object.keys(snapshot.displays).filter((id) => {
    const a = snapshot.displays[id];
    const b = later.displays[id];
    return b !== undefined && (a.x !== b.x || a.y !== b.y);
  });
  expect(movedSince.length, 'entities moved once the game continued').toBeGreaterThan(0);
});

test('keys: Space stays with the game while live, P pauses, Space plays the replay, Esc resumes', async () => {
  await page().keyboard.press('Space');
  await ticks(page(), 2);
  expect((await playhead()).state, "Space while live is the game's jump, not a pause").toBe('live');

  await page().keyboard.press('p');
  await ticks(page(), 2);
  let st = await playhead();
  expect({ state: st.state, gamePaused: st.gamePaused }, 'after pressing P').toEqual({
    state: 'paused',
    gamePaused: true,
  });
  const steps = (await page().evaluate(() => (window as unknown as E2EWindow).__demo.stats())).steps;

  await page().keyboard.press('Space');
  await ticks(page(), 3);
  st = await playhead();
  expect(st.state, 'after pressing Space while paused').toBe('playing');
  await page().keyboard.press('Space');
  await ticks(page(), 1);
  expect((await playhead()).state, 'after pressing Space again').toBe('paused');
  expect(
    (await page().evaluate(() => (window as unknown as E2EWindow).__demo.stats())).steps,
    'the game does not step while the replay plays',
  ).toBe(steps);

  await page().keyboard.press('Escape');
  await ticks(page(), 4);
  st = await playhead();
  expect({ state: st.state, gamePaused: st.gamePaused }, 'after pressing Esc').toEqual({
    state: 'live',
    gamePaused: false,
  });
  expect(
    (await page().evaluate(() => (window as unknown as E2EWindow).__demo.stats())).steps,
    'the game steps again after Esc',
  ).toBeGreaterThan(steps);
});

test('the crowd is a render group of its own: what the world redraws every frame does not make pixi walk every mover', async () => {
  // pixi rebuilds a render group's draw instructions (a walk over all of it) whenever a batched
  // Graphics in it changes or something in it is shown or hidden. With the movers in the world's
  // group, each such frame walked the whole crowd (30 % of the render at 5,000).
  await page().evaluate(() => {
    type Group = { instructionSet: { reset(): void } };
    const d = (window as unknown as E2EWindow).__demo;
    const counts = { crowd: 0, stage: 0, own: false };
    const count = (g: Group, key: 'crowd' | 'stage'): void => {
      const set = g.instructionSet;
      const reset = set.reset.bind(set);
      set.reset = () => {
        counts[key]++;
        reset();
      };
    };
    const crowd = d.view.layers.get('mover')?.renderGroup ?? null;
    const stage = (d.app.stage as { renderGroup: Group }).renderGroup;
    counts.own = crowd !== null && crowd !== stage;
    if (crowd !== null && crowd !== stage) count(crowd, 'crowd');
    count(stage, 'stage');
    (window as unknown as { __groupRebuilds: typeof counts }).__groupRebuilds = counts;
  });
  await ticks(page(), 12);
  const counts = await page().evaluate(
    () => (window as unknown as { __groupRebuilds: { crowd: number; stage: number; own: boolean } }).__groupRebuilds,
  );
  expect((await playhead()).state, 'the game runs').toBe('live');
  expect(counts.own, "the crowd's layer is a render group of its own").toBe(true);
  // The world's group is rebuilt while the game runs (its explosions' Graphics is redrawn every frame)...
  expect(counts.stage, "rebuilds of the world's group over 12 running ticks").toBeGreaterThan(0);
  // ...the crowd's group is not: the movers only moved.
  expect(counts.crowd, "rebuilds of the crowd's group over 12 running ticks").toBe(0);
});
