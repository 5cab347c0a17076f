/**
 * The paused view is a chunk of its own (docs/performance.md, "Bundle size"): `new RewindOverlay`
 * builds the shell and starts loading it. Before it has loaded, a pause halts the game at once and
 * the view shows that pause when it arrives; settings changed meanwhile are handed over.
 */
import { describe, expect, it } from 'vitest';
import { Channel } from '../../core/store/ChannelRegistry';
import { RewindOverlay } from '../RewindOverlay';
import { createApp, overlayFixture, run, TestGame } from './testGame';

const fixture = overlayFixture();

/** An app, a recorded game of `n` movers, and an overlay whose paused view has not loaded yet. */
async function unloaded(n: number, frames: number, options: ConstructorParameters<typeof RewindOverlay>[4] = {}) {
  const app = await createApp();
  const game = new TestGame(app);
  for (let i = 0; i < n; i++) game.spawn(i + 1, 'mover', 20 + i * 30, 40 + i * 20, 1 + i * 0.5, 0.25 * i);
  for (let f = 0; f < frames; f++) game.step();
  const overlay = new RewindOverlay(app, game.world, game.binding(), game.recorder, {
    onWarning: () => {},
    keyboard: false,
    ...options,
  });
  fixture.track(app, overlay);
  return { app, game, overlay };
}

describe('the paused view, loaded after the overlay is built', () => {
  it("the view's parts throw a clear error until `ready`, then exist", async () => {
    const { overlay } = await unloaded(2, 3);
    expect(overlay.viewState).toBe('loading');
    for (const read of [
      () => overlay.timeline,
      () => overlay.camera,
      () => overlay.layers,
      () => overlay.presenter,
      () => overlay.onion,
      () => overlay.worldOverlay,
      () => overlay.ui,
      () => overlay.help,
    ]) {
      expect(read).toThrow(/exists once the paused view has loaded: await overlay\.ready/);
    }
    // What the shell owns works at once.
    expect(overlay.playback.reader.frameCount).toBe(3);
    expect(overlay.state).toBe('live');
    await overlay.ready;
    expect(overlay.viewState).toBe('ready');
    expect(overlay.timeline.root.visible).toBe(false);
    expect(overlay.worldOverlay.parent).not.toBeNull();
    expect(overlay.ui.parent).toBe(overlay.app.stage);
  });

  it('a pause before the view has loaded halts the game at once; the view shows that frame when it arrives', async () => {
    let pauses = 0;
    let resumes = 0;
    const { game, overlay } = await unloaded(3, 20, { onPause: () => pauses++, onResume: () => resumes++ });
    const reader = game.recorder.reader;
    const atPause = [...game.sprites].map(([id, s]) => [id, s.x, s.y] as const);
    overlay.pause();
    expect(overlay.viewState, 'the chunk cannot have arrived synchronously').toBe('loading');
    expect(overlay.isPaused).toBe(true);
    expect(overlay.state).toBe('paused');
    expect(pauses).toBe(1);
    // The game keeps its hands off while halted: nothing is recorded, nothing moves.
    run(game, overlay, 5);
    expect(reader.frameCount).toBe(20);
    await overlay.ready;
    expect(pauses, 'onPause once, not again when the view takes over').toBe(1);
    overlay.update(1 / 60);
    expect(overlay.timeline.root.visible).toBe(true);
    expect(overlay.sample.frameA).toBe(reader.newestFrame);
    // The view took the live objects over: seeking shows the recorded positions on the game's sprites.
    overlay.playback.time.seek(reader.newestFrame - 10);
    overlay.update(1 / 60);
    const recorded = game.history[reader.newestFrame - 10];
    for (const [id, s] of game.sprites) {
      expect(s.x).toBeCloseTo(recorded.get(id)!.x, 4);
      expect(s.y).toBeCloseTo(recorded.get(id)!.y, 4);
    }
    overlay.resume();
    expect(overlay.isPaused).toBe(false);
    expect(resumes).toBe(1);
    expect(
      [...game.sprites].map(([id, s]) => [id, s.x, s.y] as const),
      'restored exactly',
    ).toEqual(atPause);
    expect(overlay.timeline.root.visible).toBe(false);
  });

  it('settings changed before the view has loaded are handed over to it', async () => {
    const { overlay } = await unloaded(1, 2);
    const changes: number[] = [];
    overlay.onChange((o) => changes.push(o.channelMask));
    overlay.setChannelMask(1 << Channel.AI);
    overlay.setChannel(Channel.PHYSICS, true);
    overlay.setShowBones(false);
    overlay.setOnionSkin(true);
    overlay.setCameraMode('free');
    overlay.toggleHelp(true);
    overlay.setHelpIntro('try P');
    expect(overlay.channelMask).toBe((1 << Channel.AI) | (1 << Channel.PHYSICS));
    expect(overlay.showBones).toBe(false);
    expect(overlay.onionSkin).toBe(true);
    expect(overlay.cameraMode).toBe('free');
    expect(overlay.helpShown).toBe(true);
    expect(changes.length).toBeGreaterThanOrEqual(5);
    await overlay.ready;
    expect(overlay.channelMask).toBe((1 << Channel.AI) | (1 << Channel.PHYSICS));
    expect(overlay.showBones).toBe(false);
    expect(overlay.onion.enabled).toBe(true);
    expect(overlay.camera.mode).toBe('free');
    expect(overlay.help.root.visible).toBe(true);
    expect(overlay.help.value.split('\n')[1]).toBe('try P');
  });

  it('a replay shown before the view has loaded is shown when it arrives', async () => {
    const { game, overlay } = await unloaded(2, 10);
    const source = new TestGame(overlay.app);
    source.spawn(7, 'mover', 5, 5);
    for (let f = 0; f < 4; f++) source.step();
    const pb = overlay.showReplay(source.recorder);
    expect(overlay.viewState).toBe('loading');
    expect(overlay.source).toBe('replay');
    expect(overlay.isPaused).toBe(true);
    expect(game.world.visible).toBe(false);
    await overlay.ready;
    overlay.update(1 / 60);
    expect(overlay.timeline.root.visible).toBe(true);
    expect(overlay.sample.count).toBe(1);
    expect(overlay.sample.ids[0]).toBe(7);
    expect(pb).toBe(overlay.playback);
    overlay.returnToLive();
    expect(game.world.visible).toBe(true);
    expect(overlay.isPaused).toBe(false);
  });

  it('destroyed before the view has loaded: `ready` rejects, nothing is added to the stage', async () => {
    const errors: Error[] = [];
    const { app, overlay } = await unloaded(1, 1, { onError: (e) => errors.push(e) });
    const before = app.stage.children.length;
    overlay.destroy();
    await expect(overlay.ready).rejects.toThrow(/destroyed before its paused view loaded/);
    expect(app.stage.children.length).toBe(before);
    expect(errors, 'not a load failure').toEqual([]);
  });
});
