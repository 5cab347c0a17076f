/**
 * While paused, pixi does not hit-test the game's world on pointer moves: the world's
 * `interactiveChildren` is off for the session (a drag over the timeline used to walk every game
 * object on each move) and is restored on resume.
 */
import type { Application } from 'pixi.js';
import { describe, expect, it } from 'vitest';
import { overlayFixture } from './testGame';

const fixture = overlayFixture();

/** A mouse move over the canvas at view coordinates (x, y); pixi hit-tests what it rendered last. */
function move(app: Application, x: number, y: number): void {
  app.renderer.render(app.stage);
  const rect = app.canvas.getBoundingClientRect();
  const init = { clientX: rect.left + x, clientY: rect.top + y, pointerId: 1, pointerType: 'mouse', bubbles: true };
  document.dispatchEvent(new PointerEvent('pointermove', { ...init, isPrimary: true, buttons: 0 }));
}

describe('pointer moves while paused', () => {
  it("do not reach the game's world objects, and do again after resume", async () => {
    const { app, game, overlay } = await fixture.make(1);
    const sprite = game.sprites.get(1)!;
    sprite.eventMode = 'static';
    let moves = 0;
    sprite.on('globalpointermove', () => moves++);
    for (let i = 0; i < 5; i++) {
      game.step();
      overlay.update(1 / 60);
    }
    move(app, 50, 60);
    expect(moves).toBe(1);
    overlay.pause();
    overlay.update(0);
    move(app, 60, 70);
    move(app, 70, 80);
    expect(moves).toBe(1);
    overlay.resume();
    overlay.update(1 / 60);
    expect(game.world.interactiveChildren).toBe(true);
    move(app, 80, 90);
    expect(moves).toBe(2);
  });

  it('leaves a world the game made non-interactive as it was', async () => {
    const { game, overlay } = await fixture.make(1);
    game.world.interactiveChildren = false;
    game.step();
    overlay.update(1 / 60);
    overlay.pause();
    overlay.update(0);
    overlay.resume();
    expect(game.world.interactiveChildren).toBe(false);
  });
});
