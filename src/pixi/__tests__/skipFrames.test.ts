/** Issue 19, frames not worth keeping: `skipWhen` leaves ticks out of the recording. */
import type { Ticker } from 'pixi.js';
import { describe, expect, it } from 'vitest';
import { EventBuffer } from '../../core/read/buffers';
import { overlayFixture } from './testGame';

const { make } = overlayFixture();

function tick(app: { ticker: Ticker }, n: number, from: { t: number }): void {
  for (let i = 0; i < n; i++) {
    from.t += 16;
    app.ticker.update(from.t);
  }
}

describe('skipWhen (issue 19)', () => {
  it('a paused menu records no frame, keeps gameplay in the ring, and its events wait for the next recorded frame', async () => {
    let menu = false;
    let hookCalls = 0;
    const { app, game, overlay } = await make(2, {
      skipWhen: () => menu,
      record: (rec) => {
        hookCalls++;
        for (const [id, s] of game.sprites) rec.entity(id, s.x, s.y, 0, 0, 0, 0, 1);
      },
    });
    const clock = { t: performance.now() };
    const reader = game.recorder.reader;
    tick(app, 5, clock);
    expect(reader.frameCount).toBe(5);
    const timeBefore = reader.timeOf(reader.newestFrame);
    menu = true;
    tick(app, 40, clock);
    game.recorder.event('menu-closed', -1, 0, 0, 0); // e.g. a tween callback while the menu shows
    expect(reader.frameCount, 'no frame while the menu shows').toBe(5);
    expect(hookCalls).toBe(5);
    expect(overlay.suspended, 'skipping is not suspending').toBe(false);
    menu = false;
    tick(app, 1, clock);
    expect(reader.frameCount).toBe(6);
    // The overlay's own clock did not run during the menu: one tick's step later.
    expect(reader.timeOf(reader.newestFrame) - timeBefore).toBeCloseTo(0.016, 6);
    const ev = new EventBuffer();
    reader.readEvents(reader.newestFrame, ev);
    expect(ev.count).toBe(1);
    expect(reader.eventKinds[ev.kinds[0]]).toBe('menu-closed');
  });

  it('a throwing skipWhen records the frame and warns', async () => {
    const warnings: string[] = [];
    const { app, game } = await make(1, {
      skipWhen: () => {
        throw new Error('boom');
      },
      onWarning: (m) => warnings.push(m),
      record: (rec) => {
        for (const [id, s] of game.sprites) rec.entity(id, s.x, s.y, 0, 0, 0, 0, 1);
      },
    });
    tick(app, 2, { t: performance.now() });
    expect(game.recorder.reader.frameCount).toBe(2);
    expect(warnings.some((m) => m.includes('skipWhen threw'))).toBe(true);
  });
});
