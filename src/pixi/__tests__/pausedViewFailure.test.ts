/**
 * A paused view that fails to load (a chunk missing after a deploy, a network error) is reported
 * through `onError` and leaves the game running and recording: a pause under way ends, and no
 * later one can halt the game with nothing to show it.
 */
import { describe, expect, it, vi } from 'vitest';
import { RewindOverlay } from '../RewindOverlay';
import { createApp, overlayFixture, run, TestGame } from './testGame';

// What a dynamic import of a chunk that cannot be fetched does: its promise rejects.
vi.mock('../loadPausedView', () => ({
  loadPausedView: () => Promise.reject(new TypeError('chunk PausedView-1a2b.js could not be fetched')),
}));

const fixture = overlayFixture();

describe('a paused view that fails to load', () => {
  it('is reported through onError, ends a pause under way, and leaves the game running and recording', async () => {
    const app = await createApp();
    const game = new TestGame(app);
    game.spawn(1, 'mover', 20, 20);
    for (let f = 0; f < 5; f++) game.step();
    const errors: Error[] = [];
    const warnings: string[] = [];
    let resumes = 0;
    const overlay = new RewindOverlay(app, game.world, game.binding(), game.recorder, {
      keyboard: false,
      onError: (e) => errors.push(e),
      onWarning: (m) => warnings.push(m),
      onResume: () => resumes++,
    });
    fixture.track(app, overlay);
    overlay.pause();
    expect(overlay.isPaused, 'a pause before the view halts the game').toBe(true);
    await expect(overlay.ready).rejects.toThrow();
    expect(overlay.viewState).toBe('failed');
    expect(errors).toHaveLength(1);
    expect(errors[0].message).toMatch(/paused view failed to load .*could not be fetched.*game keeps running/);
    expect(overlay.isPaused, 'the pause under way ended').toBe(false);
    expect(resumes).toBe(1);
    const reader = game.recorder.reader;
    run(game, overlay, 3);
    expect(reader.frameCount).toBe(8);
    // No later pause can halt the game with nothing to show it.
    overlay.pause();
    overlay.playback.time.seek(2);
    expect(overlay.isPaused).toBe(false);
    expect(overlay.state).toBe('live');
    expect(warnings.some((w) => /paused view failed to load/.test(w))).toBe(true);
    run(game, overlay, 2);
    expect(reader.frameCount).toBe(10);
    expect(() => overlay.showReplay(game.recorder)).toThrow(/paused view failed to load/);
    expect(() => overlay.timeline).toThrow(/overlay\.timeline does not exist: the paused view failed to load/);
    expect(errors, 'reported once').toHaveLength(1);
  });

  it('without onError, reports to the console', async () => {
    const app = await createApp();
    const game = new TestGame(app);
    const logged: unknown[] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation((...args) => {
      logged.push(args[0]);
    });
    try {
      const overlay = new RewindOverlay(app, game.world, game.binding(), game.recorder, {
        keyboard: false,
        onWarning: () => {},
      });
      fixture.track(app, overlay);
      await expect(overlay.ready).rejects.toThrow();
      expect(logged).toHaveLength(1);
      expect(String(logged[0])).toMatch(/paused view failed to load/);
    } finally {
      spy.mockRestore();
    }
  });
});
