import { describe, expect, it } from 'vitest';
import { loadReplay } from '../../../replay/loadReplay';
import { saveReplay } from '../../../replay/saveReplay';
import { Recorder } from '../../record/Recorder';
import { Channel } from '../../store/ChannelRegistry';
import { frameChannelMask } from '../channelMask';

describe('channels in use (issue 19: the panel lists only these)', () => {
  it('are the channels registered by the game, drawn on (texts included, over budget too) or in a static layer; a replay keeps them', () => {
    const r = new Recorder({ onWarning: () => {}, primitiveBudget: 2 });
    expect(r.channels.usedMask).toBe(0);
    const net = r.channels.register('network');
    const idle = r.channels.register('idle');
    expect(r.channels.usedMask).toBe((1 << net) | (1 << idle));
    r.beginFrame(0, 1);
    r.entity(1, 0, 0, 0, 0, 0, 0, 1);
    r.draw.text(Channel.AI, 0, 0, 0, 'a label long enough to take words', 0xffffff);
    r.draw.line(net, 0, 0, 0, 1, 1, 0, 0xffffff);
    r.endFrame();
    expect(frameChannelMask(r.ring.u32, r.ring.offsetOf(0))).toBe((1 << Channel.AI) | (1 << net));
    r.beginFrame(1, 1);
    for (let i = 0; i < 3; i++) r.draw.point(Channel.ANIMATION, i, 0, 0, 1, 0xffffff); // one over budget
    r.endFrame();
    r.staticLayers.set('walls', (d) => d.aabb(Channel.PHYSICS, 0, 0, 0, 1, 1, 0, 0xffffff));
    const all = (1 << Channel.AI) | (1 << Channel.PHYSICS) | (1 << Channel.ANIMATION) | (1 << net) | (1 << idle);
    expect(r.channels.usedMask).toBe(all);
    const loaded = loadReplay(saveReplay(r, { buildId: 'b', savedAt: 't' }));
    expect(loaded.channels.usedMask).toBe(all);
  });

  it('leaves out the built-in channels a game never uses', () => {
    const r = new Recorder({ onWarning: () => {} });
    r.beginFrame(0, 1);
    r.entity(1, 0, 0, 0, 0, 0, 0, 1);
    r.draw.sphere(Channel.PHYSICS, 0, 0, 0, 1, 0xffffff);
    r.endFrame();
    expect(r.channels.usedMask).toBe(1 << Channel.PHYSICS);
    expect(loadReplay(saveReplay(r, { buildId: 'b', savedAt: 't' })).channels.usedMask).toBe(1 << Channel.PHYSICS);
  });
});
