/**
 * What a real game needs from the overlay (issue 16; issue 19's capture/restore defect): clocks
 * paused with the game, capture/restore that extend the default save, nested objects in
 * world-container space, containers sharing the camera, the overlay's layer placement, a resize
 * while paused, suspension, kinds of new lives and the game's own clock.
 */
import { Container, Sprite, Texture, Ticker } from 'pixi.js';
import { describe, expect, it } from 'vitest';
import { Recorder } from '../../core/record/Recorder';
import { Pausables } from '../Pausables';
import { RewindOverlay } from '../RewindOverlay';
import { recordDisplay, toWorldSpace } from '../worldSpace';
import { createApp, overlayFixture, run } from './testGame';

const { make, track } = overlayFixture();

/** Drives the application's ticker `n` times, 16 ms apart (the overlay's record hook runs on it). */
function tick(app: { ticker: Ticker }, n: number, from: { t: number }): void {
  for (let i = 0; i < n; i++) {
    from.t += 16;
    app.ticker.update(from.t);
  }
}

describe('capture/restore extend the default save (issue 19)', () => {
  it('restores visibility and transform itself, then hands the captured extra state back', async () => {
    const { game, overlay, binding } = await make(0);
    // Entity 1 lives throughout; 2 spawns later (hidden in early frames); each has a child whose alpha apply changes.
    const child = new Map<number, Sprite>();
    const add = (id: number): void => {
      const s = game.spawn(id, 'mover', 30 * id, 40, 1, 0.5);
      const c = new Sprite(Texture.WHITE);
      s.addChild(c);
      child.set(id, c);
    };
    add(1);
    run(game, overlay, 20);
    add(2);
    run(game, overlay, 20);
    binding.apply = (obj, view) => {
      obj.x = view.x;
      obj.y = view.y;
      (obj.children[0] as Sprite).alpha = 0.25;
    };
    binding.capture = (obj) => ({ a: (obj.children[0] as Sprite).alpha });
    binding.restore = (obj, state) => {
      (obj.children[0] as Sprite).alpha = (state as { a: number }).a;
    };
    const before = [...game.sprites.values()].map((s) => [s.x, s.y, s.visible, s.alpha, s.children[0].alpha]);
    overlay.pause();
    overlay.update(0);
    overlay.playback.time.toOldest();
    overlay.update(0);
    expect(game.sprites.get(2)!.visible, 'entity 2 is hidden before it spawned').toBe(false);
    expect(child.get(1)!.alpha).toBe(0.25);
    overlay.resume();
    const after = [...game.sprites.values()].map((s) => [s.x, s.y, s.visible, s.alpha, s.children[0].alpha]);
    expect(after).toEqual(before);
  });
});

describe('pausables', () => {
  it('stops a Ticker (kept stopped when a listener is added), a timeline and a custom clock, and resumes only what ran', () => {
    const ticker = new Ticker();
    ticker.autoStart = true;
    ticker.start();
    const timeline = {
      isPaused: false,
      pause() {
        this.isPaused = true;
      },
      resume() {
        this.isPaused = false;
      },
      paused() {
        return this.isPaused;
      },
    };
    const already = {
      isPaused: true,
      pause() {
        this.isPaused = true;
      },
      resume() {
        this.isPaused = false;
      },
      paused() {
        return this.isPaused;
      },
    };
    const custom = {
      calls: [] as string[],
      pause() {
        this.calls.push('pause');
      },
      resume() {
        this.calls.push('resume');
      },
    };
    const warnings: string[] = [];
    const app = new Ticker();
    const clocks = new Pausables([ticker, timeline, already, custom, app], app, (_k, m) => warnings.push(m));
    expect(clocks.count).toBe(4);
    expect(warnings.length, 'the application ticker is refused with a warning').toBe(1);
    clocks.pause();
    expect(ticker.started).toBe(false);
    ticker.add(() => {});
    expect(ticker.started, 'adding a listener does not restart a paused ticker').toBe(false);
    expect(timeline.isPaused).toBe(true);
    clocks.resume();
    expect(ticker.started).toBe(true);
    expect(ticker.autoStart).toBe(true);
    expect(timeline.isPaused).toBe(false);
    expect(already.isPaused, 'a clock paused before stays paused').toBe(true);
    expect(custom.calls).toEqual(['pause', 'resume']);
    ticker.destroy();
    app.destroy();
  });

  it('refuses what is not a clock, with a clear error', () => {
    expect(() => new Pausables([{} as never], null, () => {})).toThrow(/pausables\[0\]/);
  });

  it('the overlay pauses them with the game and resumes them after', async () => {
    const clock = {
      isPaused: false,
      pause() {
        this.isPaused = true;
      },
      resume() {
        this.isPaused = false;
      },
      paused() {
        return this.isPaused;
      },
    };
    const { game, overlay } = await make(2, { pausables: [clock] });
    run(game, overlay, 5);
    overlay.pause();
    expect(clock.isPaused).toBe(true);
    overlay.resume();
    expect(clock.isPaused).toBe(false);
  });
});

describe('world-container space', () => {
  it('records a nested object where it is seen and shows it there after its parent moved', async () => {
    const app = await createApp();
    const world = new Container();
    app.stage.addChild(world);
    world.position.set(100, 50);
    const raft = new Container();
    raft.position.set(40, 30);
    raft.rotation = 0.5;
    raft.scale.set(2);
    world.addChild(raft);
    const crate = new Sprite(Texture.WHITE);
    crate.position.set(10, -5);
    crate.rotation = 0.25;
    raft.addChild(crate);
    const recorder = new Recorder({ maxFrames: 60, onWarning: () => {} });
    const overlay = new RewindOverlay(app, world, { find: (id) => (id === 1 ? crate : null) }, recorder, {
      onWarning: () => {},
      keyboard: false,
      record: (rec) => recordDisplay(rec, world, 1, crate),
    });
    track(app, overlay);
    await overlay.ready;
    const seen = new Float64Array(3);
    toWorldSpace(crate, world, seen);
    const c = Math.cos(0.5) * 2;
    const s = Math.sin(0.5) * 2;
    expect(seen[0]).toBeCloseTo(40 + c * 10 - s * -5, 9);
    expect(seen[1]).toBeCloseTo(30 + s * 10 + c * -5, 9);
    expect(seen[2]).toBeCloseTo(0.75, 12);
    const clock = { t: performance.now() };
    tick(app, 1, clock);
    const recorded = [...seen];
    // The raft moves on; the crate stays put on it.
    raft.position.set(-60, 10);
    raft.rotation = -0.3;
    tick(app, 3, clock);
    overlay.pause();
    overlay.playback.time.seek(recorder.reader.oldestFrame);
    overlay.update(0);
    toWorldSpace(crate, world, seen);
    expect(seen[0]).toBeCloseTo(recorded[0], 3);
    expect(seen[1]).toBeCloseTo(recorded[1], 3);
    expect(seen[2]).toBeCloseTo(recorded[2], 2); // rotations are stored as compressed quaternions
    overlay.resume();
    expect([crate.x, crate.y, crate.rotation]).toEqual([10, -5, 0.25]);
  });
});

describe('containers, layers, resize', () => {
  it('shared-camera containers follow the replay camera and get their transform back; the layers sit above them', async () => {
    const hud = new Container();
    const { app, game, overlay } = await make(3, { sharedCamera: [hud] });
    app.stage.addChild(hud);
    hud.position.set(3, 4);
    overlay.update(0);
    const kids = app.stage.children;
    expect(kids.indexOf(overlay.worldOverlay)).toBe(kids.indexOf(hud) + 1);
    run(game, overlay, 10);
    overlay.pause();
    overlay.setCameraMode('free');
    overlay.camera.panBy(50, 20);
    overlay.update(0);
    const w = game.world;
    expect([hud.x, hud.y, hud.pivot.x, hud.pivot.y, hud.scale.x, hud.rotation]).toEqual([
      w.x,
      w.y,
      w.pivot.x,
      w.pivot.y,
      w.scale.x,
      w.rotation,
    ]);
    overlay.resume();
    expect([hud.x, hud.y, hud.pivot.x, hud.pivot.y]).toEqual([3, 4, 0, 0]);
  });

  it('follows the world container when the game re-adds it', async () => {
    const { app, game, overlay } = await make(1);
    game.world.removeFromParent();
    app.stage.addChild(new Container(), game.world, new Container());
    overlay.update(0);
    const kids = app.stage.children;
    expect(kids.indexOf(overlay.worldOverlay)).toBe(kids.indexOf(game.world) + 1);
  });

  it('layersAbove places the layers above another container', async () => {
    const top = new Container();
    const { app, overlay } = await make(1, { layersAbove: top });
    app.stage.addChild(top, new Container());
    overlay.update(0);
    const kids = app.stage.children;
    expect(kids.indexOf(overlay.worldOverlay)).toBe(kids.indexOf(top) + 1);
  });

  it('keeps what the game set on the world container while paused (a resize), restores the rest', async () => {
    const { game, overlay } = await make(3);
    game.world.pivot.set(7, 9);
    run(game, overlay, 10);
    overlay.pause();
    overlay.setCameraMode('free');
    overlay.camera.panBy(30, 10);
    overlay.update(0);
    // The game's resize handler, while paused.
    game.world.position.set(321, 123);
    game.world.scale.set(0.75);
    overlay.camera.panBy(5, 5);
    overlay.update(0);
    overlay.resume();
    const w = game.world;
    expect([w.x, w.y, w.scale.x, w.scale.y]).toEqual([321, 123, 0.75, 0.75]);
    expect([w.pivot.x, w.pivot.y, w.rotation]).toEqual([7, 9, 0]);
  });
});

describe('suspension, kinds of new lives, the game clock', () => {
  it('a suspended overlay records nothing, ignores keys and pause(), and resumes a pause first', async () => {
    let screen = 'title';
    const { app, game, overlay } = await make(2, {
      suspendWhen: () => screen !== 'play',
      record: (rec) => {
        for (const [id, s] of game.sprites) rec.entity(id, s.x, s.y, 0, 0, 0, 0, 1);
      },
    });
    const clock = { t: performance.now() };
    tick(app, 3, clock);
    expect(overlay.suspended).toBe(true);
    expect(game.recorder.reader.frameCount).toBe(0);
    overlay.pause();
    window.dispatchEvent(new KeyboardEvent('keydown', { key: ' ' }));
    expect(overlay.isPaused).toBe(false);
    screen = 'play';
    tick(app, 3, clock);
    expect(game.recorder.reader.frameCount).toBe(3);
    window.dispatchEvent(new KeyboardEvent('keydown', { key: ' ' }));
    expect(overlay.isPaused).toBe(true);
    screen = 'over';
    tick(app, 1, clock);
    expect(overlay.isPaused, 'suspending resumed the pause').toBe(false);
    expect(game.recorder.reader.frameCount).toBe(3);
  });

  it('asks the binding for the kind of each new life once, and records the game clock', async () => {
    const asked: number[] = [];
    const game0 = { time: 10, dt: 0.5 };
    const { app, game, binding } = await make(0, {
      clock: game0,
      record: (rec) => {
        for (const [id, s] of game.sprites) rec.entity(id, s.x, s.y, 0, 0, 0, 0, 1);
      },
    });
    binding.kindOf = (_obj, id) => {
      asked.push(id);
      return id === 7 ? 'bullet' : undefined;
    };
    game.sprites.set(7, new Sprite(Texture.WHITE));
    game.sprites.set(8, new Sprite(Texture.WHITE));
    const clock = { t: performance.now() };
    tick(app, 1, clock);
    game0.time = 10.5;
    game0.dt = 0.25;
    tick(app, 2, clock);
    expect(asked).toEqual([7, 8]);
    const reader = game.recorder.reader;
    const t = reader.entities;
    const h = t.lookup(7);
    expect(t.kinds[t.kindOf[h]]).toBe('bullet');
    expect(t.kindOf[t.lookup(8)]).toBe(-1);
    expect(reader.timeOf(reader.oldestFrame)).toBe(10);
    expect(reader.timeOf(reader.newestFrame)).toBe(10.5);
    expect(reader.dtOf(reader.newestFrame)).toBe(0.25);
  });
});
