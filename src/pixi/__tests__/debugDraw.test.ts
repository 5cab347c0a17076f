import { describe, expect, it } from 'vitest';
import { Rectangle, type Application } from 'pixi.js';
import { Channel } from '../../core/store/ChannelRegistry';
import { Recorder } from '../../core/record/Recorder';
import type { LoadedReplay } from '../../replay/loadReplay';
import { RewindOverlay } from '../RewindOverlay';
import { TestGame, createApp, overlayFixture, run } from './testGame';

const { make, track } = overlayFixture();

/** Renders the stage and counts pixels within 40 of an 0xRRGGBB colour on every channel. */
function countColor(app: Application, color: number): number {
  app.renderer.render(app.stage);
  const { pixels } = app.renderer.extract.pixels({
    target: app.stage,
    frame: new Rectangle(0, 0, app.screen.width, app.screen.height),
  });
  const r = (color >> 16) & 255,
    g = (color >> 8) & 255,
    b = color & 255;
  let n = 0;
  for (let i = 0; i < pixels.length; i += 4) {
    if (Math.abs(pixels[i] - r) < 40 && Math.abs(pixels[i + 1] - g) < 40 && Math.abs(pixels[i + 2] - b) < 40) n++;
  }
  return n;
}

describe('debug draw', () => {
  it('toggling a channel changes what is drawn (pixels and scene graph), live and paused', async () => {
    const { app, game, overlay } = await make(0);
    game.primitives = 30;
    run(game, overlay, 10);
    // Live: the physics spheres (0x00ccff) are drawn from the newest frame.
    const layers = overlay.layers;
    expect(layers.primitivesShown(Channel.PHYSICS)).toBeGreaterThan(0);
    const on = countColor(app, 0x00ccff);
    expect(on).toBeGreaterThan(50);
    overlay.setChannel(Channel.PHYSICS, false);
    overlay.update(0);
    expect(layers.primitivesShown(Channel.PHYSICS)).toBe(0);
    expect(countColor(app, 0x00ccff)).toBe(0);
    // The AI channel is untouched.
    expect(layers.primitivesShown(Channel.AI)).toBeGreaterThan(0);
    // Paused: same.
    overlay.pause();
    overlay.playback.time.seek(4);
    overlay.update(0);
    expect(countColor(app, 0x00ccff)).toBe(0);
    overlay.setChannel(Channel.PHYSICS, true);
    overlay.update(0);
    expect(countColor(app, 0x00ccff)).toBeGreaterThan(50);
    // Redraws only when the viewed frame or the mask changes.
    const redraws = overlay.layers.redrawCount;
    for (let i = 0; i < 5; i++) overlay.update(1 / 60);
    expect(overlay.layers.redrawCount).toBe(redraws);
    overlay.playback.time.seek(4.2); // same nearer frame: entities move, primitives stay
    overlay.update(0);
    expect(overlay.layers.redrawCount).toBe(redraws);
    overlay.playback.time.seek(5);
    overlay.update(0);
    expect(overlay.layers.redrawCount).toBe(redraws + 1);
  });

  it('draws paragraphs as readable text blocks from a pool, re-rendered only when their text changes', async () => {
    const { game, overlay } = await make(0);
    game.texts = 3;
    run(game, overlay, 40);
    overlay.pause();
    overlay.playback.time.seek(5);
    overlay.update(0);
    const pool = overlay.layers.paragraphs;
    expect(pool.count).toBe(3);
    expect(pool.textAt(0)!.text).toBe('state 0');
    const text = pool.textAt(0)!;
    // The test game's text changes every 16 frames.
    overlay.playback.time.seek(20);
    overlay.update(0);
    expect(pool.textAt(0)).toBe(text);
    expect(text.text).toBe('state 1');
    expect(pool.created).toBe(3);
    overlay.setChannel(Channel.AI, false);
    overlay.update(0);
    expect(pool.count).toBe(0);
    expect(text.parent!.visible).toBe(false);
  });

  it('shows a badge naming the channels over budget', async () => {
    const { game, overlay } = await make(0, {}, { primitiveBudget: 10 });
    game.primitives = 5;
    run(game, overlay, 5);
    expect(overlay.badge.root.visible).toBe(false);
    game.primitives = 80;
    run(game, overlay, 5);
    expect(overlay.badge.root.visible).toBe(true);
    expect(overlay.badge.value).toBe('OVER BUDGET: ai, physics, animation');
    overlay.pause();
    overlay.playback.time.seek(2);
    overlay.update(0);
    expect(overlay.badge.root.visible).toBe(false);
    overlay.runCommand('newest');
    overlay.update(0);
    expect(overlay.badge.value).toContain('physics');
  });

  it('draws static layers once per version, shown with their channel', async () => {
    const { game, overlay } = await make(0);
    game.recorder.staticLayers.set('walls', (d) => {
      for (let i = 0; i < 20; i++) d.line(Channel.PHYSICS, i * 10, 0, 0, i * 10, 100, 0, 0x445566);
      d.text(Channel.AI, 50, 50, 0, 'spawn room', 0xffffff);
    });
    run(game, overlay, 3);
    const root = overlay.layers.root.children.find((c) => c.label === 'rewindable:static')!;
    const walls = root.children.find((c) => c.label === `rewindable:static:${Channel.PHYSICS}`)!;
    expect(walls).toBeDefined();
    const ctx = (walls as unknown as { context: { instructions: unknown[] } }).context;
    const instructions = ctx.instructions;
    run(game, overlay, 10);
    // Not rebuilt: the same instruction list.
    expect(ctx.instructions).toBe(instructions);
    expect(walls.visible).toBe(true);
    overlay.setChannel(Channel.PHYSICS, false);
    overlay.update(0);
    expect(walls.visible).toBe(false);
    overlay.setChannel(Channel.PHYSICS, true);
    game.recorder.staticLayers.set('walls', (d) => d.line(Channel.PHYSICS, 0, 0, 0, 5, 5, 0, 0xffffff));
    overlay.update(0);
    expect(walls.visible).toBe(true);
    expect(ctx.instructions.length).toBe(1);
  });

  it('draws bones as stick figures with the animation channel on', async () => {
    const { game, overlay } = await make(0);
    game.spawn(9, 'walker', 100, 100, 1, 0, 5);
    run(game, overlay, 10);
    const bones = overlay.worldOverlay.children.find((c) => c.label === 'rewindable:bones')! as unknown as {
      context: { instructions: unknown[] };
    };
    expect(bones.context.instructions.length).toBe(1);
    overlay.pause();
    overlay.playback.time.seek(5.5);
    overlay.update(0);
    expect(bones.context.instructions.length).toBe(1);
    overlay.setShowBones(false);
    overlay.update(0);
    expect(bones.context.instructions.length).toBe(0);
    overlay.setShowBones(true);
    overlay.setChannel(Channel.ANIMATION, false);
    overlay.update(0);
    expect(bones.context.instructions.length).toBe(0);
  });
});

describe('showReplay', () => {
  it('shows a replay that is not the live recording and returns to live without touching it', async () => {
    const { game, overlay, binding } = await make(3);
    run(game, overlay, 20);
    // Another recording: a "loaded file" with entities of a creatable and a non-creatable kind.
    const other = new Recorder({ maxFrames: 50, onWarning: () => {} });
    other.describe(1, 'bullet', 'b1');
    other.describe(2, 'crate', 'c2');
    for (let f = 0; f < 30; f++) {
      other.beginFrame(f / 30, 1 / 30);
      other.entity(1, 10 + f, 20, 0, 0, 0, 0, 1);
      other.entity(2, 50, 60 + f, 0, 0, 0, 0, 1);
      other.draw.sphere(Channel.PHYSICS, 50, 50, 0, 10, 0x00ccff);
      other.endFrame();
    }
    const liveFrames = game.recorder.reader.newestFrame;
    const before = [...game.sprites.values()].map((s) => [s.x, s.y, s.visible].join()).join(';');
    let paused = 0;
    let resumed = 0;
    overlay.onChange(() => {
      if (overlay.isPaused) paused++;
      else resumed++;
    });
    const pb = overlay.showReplay(other.reader, { bookmarks: [{ frame: 7, label: 'saved' }] });
    expect(pb.bookmarks.list().map((b) => [b.frame, b.label])).toEqual([[7, 'saved']]);
    expect(overlay.isPaused).toBe(true);
    expect(overlay.source).toBe('replay');
    expect(game.world.visible).toBe(false);
    expect(pb.time.position).toBe(29);
    overlay.update(0);
    pb.time.seek(10);
    overlay.update(0);
    const bullet = overlay.presenter.objectOf(other.reader.entities.lookup(1))!;
    expect(bullet.x).toBe(20);
    expect(overlay.presenter.ghostCount).toBe(1);
    // Keys go to the replay.
    overlay.runCommand('stepBack');
    expect(pb.time.position).toBe(9);
    expect(overlay.livePlayback.time.state).toBe('live');
    // The live game did not move.
    expect([...game.sprites.values()].map((s) => [s.x, s.y, s.visible].join()).join(';')).toBe(before);
    overlay.returnToLive();
    expect(overlay.isPaused).toBe(false);
    expect(overlay.source).toBe('live');
    expect(game.world.visible).toBe(true);
    expect(bullet.visible).toBe(false);
    expect(game.recorder.reader.newestFrame).toBe(liveFrames);
    expect(paused).toBeGreaterThan(0);
    expect(resumed).toBeGreaterThan(0);
    expect(binding.created).toBe(1);
    run(game, overlay, 2);
    expect(game.recorder.reader.newestFrame).toBe(liveFrames + 2);
    // From a paused live view too, and Esc returns.
    overlay.pause();
    overlay.showReplay(other.reader);
    overlay.runCommand('resume');
    expect(overlay.isPaused).toBe(false);
    expect([...game.sprites.values()].every((s) => s.visible)).toBe(true);
  });

  it('takes the source saveReplay takes: a loaded file with its static layers and bookmarks, or a Recorder', async () => {
    const { game, overlay } = await make(2);
    run(game, overlay, 5);
    const other = new Recorder({ maxFrames: 50, onWarning: () => {} });
    other.staticLayers.set('walls', (d) => d.line(Channel.PHYSICS, 0, 0, 0, 40, 30, 0, 0x33ff66));
    for (let f = 0; f < 10; f++) {
      other.beginFrame(f / 30, 1 / 30);
      other.entity(1, 10 + f, 20, 0, 0, 0, 0, 1);
      other.endFrame();
    }
    // What a loaded file offers (built here by hand: msgpackr is not bundled for the browser tests).
    const replay: Pick<LoadedReplay, 'reader' | 'staticLayers' | 'bookmarks'> = {
      reader: other.reader,
      staticLayers: other.staticLayers,
      bookmarks: [{ frame: 4, label: 'here' }],
    };
    const wallsDrawn = () => {
      const root = overlay.layers.root.children.find((c) => c.label === 'rewindable:static')!;
      const walls = root.children.find((c) => c.label === `rewindable:static:${Channel.PHYSICS}`);
      return walls === undefined
        ? 0
        : (walls as unknown as { context: { instructions: unknown[] } }).context.instructions.length;
    };
    const pb = overlay.showReplay(replay);
    overlay.update(0);
    expect(pb.reader).toBe(replay.reader);
    expect(pb.bookmarks.list().map((b) => [b.frame, b.label])).toEqual([[4, 'here']]);
    expect(wallsDrawn()).toBe(1);
    // What the options give wins over the source's.
    const bare = overlay.showReplay(replay, { staticLayers: null, bookmarks: [{ frame: 2, label: 'mine' }] });
    overlay.update(0);
    expect(bare.bookmarks.list().map((b) => [b.frame, b.label])).toEqual([[2, 'mine']]);
    expect(wallsDrawn()).toBe(0);
    // A Recorder is a source too: its reader and its static layers.
    const fromRecorder = overlay.showReplay(other);
    overlay.update(0);
    expect(fromRecorder.reader).toBe(other.reader);
    expect(fromRecorder.bookmarks.list()).toEqual([]);
    expect(wallsDrawn()).toBe(1);
    expect(overlay.source).toBe('replay');
    overlay.returnToLive();
    expect(overlay.isPaused).toBe(false);
  });
});

describe('lifecycle', () => {
  it('records through the ticker hook while live only, and destroy restores the game', async () => {
    const app = await createApp();
    const game = new TestGame(app);
    game.spawn(1, 'mover', 10, 10);
    let calls = 0;
    const overlay = new RewindOverlay(app, game.world, game.binding(), game.recorder, {
      onWarning: () => {},
      keyboard: false,
      record: (rec) => {
        calls++;
        rec.entity(1, 10 + calls, 10, 0, 0, 0, 0, 1);
      },
    });
    track(app, overlay);
    await overlay.ready;
    const t0 = performance.now();
    app.ticker.update(t0 + 16);
    app.ticker.update(t0 + 33);
    expect(calls).toBe(2);
    expect(game.recorder.reader.frameCount).toBe(2);
    overlay.pause();
    app.ticker.update(t0 + 50);
    expect(calls).toBe(2);
    overlay.destroy();
    expect(overlay.isPaused).toBe(false);
    expect(game.sprites.get(1)!.x).toBe(10);
    expect(app.stage.children.includes(overlay.ui)).toBe(false);
  });
});
