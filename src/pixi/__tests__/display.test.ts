/** Issue 19: 2D display state (scale, alpha, visibility, texture) replayed and restored by the default binding. */
import { Cache, Sprite, Texture, type Ticker } from 'pixi.js';
import { describe, expect, it } from 'vitest';
import { overlayFixture } from './testGame';

const { make } = overlayFixture();

function tick(app: { ticker: Ticker }, n: number, from: { t: number }): void {
  for (let i = 0; i < n; i++) {
    from.t += 16;
    app.ticker.update(from.t);
  }
}

describe('2D display state through the default binding (issue 19)', () => {
  it('a popping pickup and a sprite changing texture show as recorded, frame by frame, and come back on resume', async () => {
    // Names in pixi's Cache (as an Assets alias would be); kept for the page (removing one unloads it).
    const red = Texture.from(new OffscreenCanvas(2, 2) as unknown as HTMLCanvasElement);
    Cache.set('display-test-red', red);
    Cache.set('display-test-white', Texture.WHITE);
    let f = 0;
    const { app, game, overlay } = await make(0, {
      record: (rec) => {
        const pop = game.sprites.get(1)!;
        const anim = game.sprites.get(2)!;
        rec.entity2D(1, pop.x, pop.y, pop.rotation);
        rec.display(1, pop.scale.x, pop.scale.y, pop.alpha, pop.visible, -1);
        rec.entity2D(2, anim.x, anim.y, anim.rotation);
        rec.display(2, 1, 1, 1, true, rec.texture(anim.texture === red ? 'display-test-red' : 'display-test-white'));
      },
    });
    const pop = new Sprite(Texture.WHITE);
    const anim = new Sprite(Texture.WHITE);
    game.sprites.set(1, pop);
    game.sprites.set(2, anim);
    game.world.addChild(pop, anim);
    const clock = { t: performance.now() };
    const expected: Array<[number, number, boolean, Texture]> = [];
    for (f = 0; f < 10; f++) {
      pop.scale.set(1 + f * 0.25);
      pop.alpha = 1 - f * 0.1;
      pop.visible = f < 9;
      anim.texture = f % 3 === 0 ? red : Texture.WHITE;
      expected.push([pop.scale.x, pop.alpha, pop.visible, anim.texture]);
      tick(app, 1, clock);
    }
    const reader = game.recorder.reader;
    expect(reader.frameCount).toBe(10);
    overlay.pause();
    for (let k = 0; k < 10; k++) {
      overlay.playback.time.seek(reader.oldestFrame + k);
      overlay.update(0);
      const [scale, alpha, visible, texture] = expected[k];
      expect(pop.scale.x, `frame ${k}`).toBe(scale);
      expect(pop.alpha, `frame ${k}`).toBeCloseTo(alpha, 4);
      expect(pop.visible, `frame ${k}`).toBe(visible);
      expect(anim.texture === texture, `frame ${k} texture`).toBe(true);
    }
    // Between frames 2 and 3 scale and alpha blend.
    overlay.playback.time.seek(reader.oldestFrame + 2.5);
    overlay.update(0);
    expect(pop.scale.x).toBeCloseTo(1.625, 5);
    overlay.playback.time.seek(reader.oldestFrame + 4); // the white texture, at pause it was red
    overlay.update(0);
    expect(anim.texture === Texture.WHITE).toBe(true);
    overlay.resume();
    expect(pop.scale.x).toBe(expected[9][0]);
    expect(pop.alpha).toBe(expected[9][1]);
    expect(pop.visible).toBe(false);
    expect(anim.texture === expected[9][3], 'the texture at pause is back').toBe(true);
  });
});
