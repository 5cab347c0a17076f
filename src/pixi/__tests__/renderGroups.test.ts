import { describe, expect, it } from 'vitest';
import type { RenderGroup } from 'pixi.js';
import { Channel } from '../../core/store/ChannelRegistry';
import { overlayFixture, run } from './testGame';

const { make } = overlayFixture();

/** Counts how often pixi rebuilds the draw instructions of `group` (each rebuild starts with a reset). */
function countRebuilds(group: RenderGroup): { count: number } {
  const counter = { count: 0 };
  const set = group.instructionSet;
  const reset = set.reset.bind(set);
  set.reset = () => {
    counter.count++;
    reset();
  };
  return counter;
}

describe('render groups (issue 17)', () => {
  it("what the overlay shows or hides on a changed frame does not make pixi rebuild the game's render group", async () => {
    // pixi rebuilds a render group's draw instructions (a walk over everything in it) whenever
    // something in it is shown or hidden, or a batched Graphics changes: paragraphs' leader lines,
    // a channel's meshes emptied or filled, ghosts. With 10,000 sprites in the game's group that
    // walk cost ~1 ms a frame. The overlay's world layers and its interface are render groups of
    // their own, so such a frame rebuilds those small groups only.
    const { app, game, overlay } = await make(40);
    game.primitives = 20;
    game.texts = 3;
    run(game, overlay, 30);
    overlay.pause();
    overlay.update(0);
    app.renderer.render(app.stage);
    const gameGroup = countRebuilds(app.stage.renderGroup);
    const overlayGroup = countRebuilds(overlay.worldOverlay.renderGroup ?? app.stage.renderGroup);
    for (let f = 3; f < 25; f += 2) {
      overlay.setChannel(Channel.PHYSICS, f % 4 === 1);
      overlay.playback.time.seek(f + 0.5);
      overlay.update(0);
      app.renderer.render(app.stage);
    }
    // The overlay's layers changed structure (the physics meshes shown and hidden) and were rebuilt...
    expect(overlayGroup.count).toBeGreaterThan(0);
    // ...in a group of their own: the game's group was not.
    expect(gameGroup.count).toBe(0);
    expect(overlay.worldOverlay.renderGroup).not.toBeNull();
    expect(overlay.ui.renderGroup).not.toBeNull();
  });
});
