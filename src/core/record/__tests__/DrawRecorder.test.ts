import { describe, expect, it } from 'vitest';
import { PRIM_AABB, PRIM_ARROW, PRIM_LINE, PRIM_POINT, PRIM_SPHERE, PRIM_TEXT } from '../../format/layout';
import { FrameHeader, PrimitiveBuffer } from '../../read/buffers';
import { Channel } from '../../store/ChannelRegistry';
import { ALL, quiet } from './helpers';

describe('Recorder: debug draw', () => {
  it('stores each primitive in its minimal form and filters by channel mask on read', () => {
    const r = quiet();
    r.beginFrame(0, 1);
    r.draw.point(Channel.AI, 1, 2, 3, 4, 0x112233);
    r.draw.line(Channel.PHYSICS, 1, 2, 3, 4, 5, 6, 0xff0000);
    r.draw.arrow(Channel.PHYSICS, 0, 0, 0, 10, 0, 0, 3, 0x00ff00);
    r.draw.sphere(Channel.ANIMATION, 5, 5, 0, 12, 0x0000ff);
    r.draw.aabb(Channel.AI, -1, -2, -3, 1, 2, 3, 0xabcdef);
    r.draw.text(Channel.AI, 0, 0, 0, 'hello', 0xffffff);
    r.endFrame();
    const p = new PrimitiveBuffer();
    r.reader.readPrimitives(0, ALL, p);
    expect(Array.from(p.types.subarray(0, p.count))).toEqual([
      PRIM_POINT,
      PRIM_LINE,
      PRIM_ARROW,
      PRIM_SPHERE,
      PRIM_AABB,
      PRIM_TEXT,
    ]);
    expect(p.colors[0]).toBe(0x112233);
    expect(Array.from(p.data.subarray(7 * 3, 7 * 3 + 4))).toEqual([5, 5, 0, 12]);
    expect(p.data[7 * 2 + 6]).toBe(3);
    expect(p.text(5)).toBe('hello');
    r.reader.readPrimitives(0, 1 << Channel.PHYSICS, p);
    expect(p.count).toBe(2);
    expect(Array.from(p.channels.subarray(0, 2))).toEqual([Channel.PHYSICS, Channel.PHYSICS]);
    r.reader.readPrimitives(0, 0, p);
    expect(p.count).toBe(0);
    // A sphere is 5 words, not hundreds of line segments.
    expect(r.ring.wordsOf(0)).toBeLessThan(22 + 5 + 7 + 8 + 5 + 7 + 7 + 2 + 2);
  });

  it('drops primitives over a channel budget, flags the channel and counts the drops, without growing', () => {
    const r = quiet({ primitiveBudget: 10 });
    const before = r.draw.capacityWords;
    r.beginFrame(0, 1);
    for (let i = 0; i < 100_000; i++) r.draw.line(Channel.AI, i, 0, 0, i, 1, 0, 0xffffff);
    r.draw.sphere(Channel.PHYSICS, 0, 0, 0, 1, 0xffffff);
    r.endFrame();
    expect(r.draw.capacityWords).toBe(before);
    const h = new FrameHeader();
    r.reader.readHeader(0, h);
    expect(h.overBudget).toBe(1 << Channel.AI);
    expect(h.droppedPrimitives).toBe(100_000 - 10);
    expect(h.primitiveCount).toBe(11);
    expect(r.reader.overBudgetOf(0)).toBe(1 << Channel.AI);
    // The next frame starts clean.
    r.beginFrame(1, 1);
    r.draw.line(Channel.AI, 0, 0, 0, 1, 1, 0, 0xffffff);
    r.endFrame();
    expect(r.reader.overBudgetOf(1)).toBe(0);
    expect(r.stats.primitivesOverBudget).toBe(100_000 - 10);
  });

  it('applies per-channel budgets from registration', () => {
    const r = quiet({ primitiveBudget: 100 });
    const net = r.channels.register('network', { budget: 2, color: 0x44ccff });
    expect(net).toBe(3);
    expect(r.channels.register('network')).toBe(3);
    r.beginFrame(0, 1);
    for (let i = 0; i < 5; i++) r.draw.point(net, i, 0, 0, 1, 0);
    r.endFrame();
    expect(r.reader.overBudgetOf(0)).toBe(1 << net);
  });

  it('drops primitives on unknown channels and with NaN coordinates, counting them', () => {
    const r = quiet();
    r.beginFrame(0, 1);
    r.draw.line(7, 0, 0, 0, 1, 1, 1, 0);
    r.draw.line(-1, 0, 0, 0, 1, 1, 1, 0);
    r.draw.sphere(Channel.AI, NaN, 0, 0, 1, 0);
    r.draw.text(31, 0, 0, 0, 'x', 0);
    r.draw.point(Channel.AI, 0, 0, 0, 1, 0);
    r.endFrame();
    expect(r.stats.unknownChannels).toBe(3);
    expect(r.stats.invalidPrimitives).toBe(1);
    const h = new FrameHeader();
    r.reader.readHeader(0, h);
    expect(h.primitiveCount).toBe(1);
    expect(h.sanitized).toBe(4);
  });

  it('throws a clear error only at configuration time: a 33rd channel', () => {
    const r = quiet();
    for (let i = 3; i < 32; i++) r.channels.register(`c${i}`);
    expect(() => r.channels.register('one-too-many')).toThrow(/32 channels/);
  });

  it('merges nearby texts of one channel into a paragraph with one anchor', () => {
    const r = quiet({ paragraphRadius: 20 });
    r.beginFrame(0, 1);
    r.draw.text(Channel.AI, 100, 100, 0, 'patrol', 0xffffff);
    r.draw.text(Channel.AI, 110, 105, 0, 'chase', 0xffffff); // within 20 → same paragraph
    r.draw.text(Channel.PHYSICS, 100, 100, 0, 'contact', 0xffffff); // other channel
    r.draw.text(Channel.AI, 300, 100, 0, 'flee', 0xffffff); // far → new paragraph
    r.draw.text(Channel.AI, 95, 90, 0, 'attack', 0xffffff); // near the first anchor
    r.endFrame();
    const p = new PrimitiveBuffer();
    r.reader.readPrimitives(0, ALL, p);
    expect(p.count).toBe(3);
    const texts = Array.from({ length: p.count }, (_, i) => [p.text(i), p.data[i * 7], p.channels[i]]);
    expect(texts).toContainEqual(['patrol\nchase\nattack', 100, Channel.AI]);
    expect(texts).toContainEqual(['contact', 100, Channel.PHYSICS]);
    expect(texts).toContainEqual(['flee', 300, Channel.AI]);
  });

  it('stores text as Latin-1 with other characters as "?" and enforces the text budget', () => {
    const r = quiet({ textBudgetBytes: 16, paragraphRadius: 0 });
    r.beginFrame(0, 1);
    r.draw.text(Channel.AI, 0, 0, 0, 'café→😀', 0xffffff);
    r.draw.text(Channel.AI, 50, 0, 0, 'this one is far too long', 0xffffff);
    r.endFrame();
    const p = new PrimitiveBuffer();
    r.reader.readPrimitives(0, ALL, p);
    expect(p.count).toBe(1);
    expect(p.text(0)).toBe('café??');
    const h = new FrameHeader();
    r.reader.readHeader(0, h);
    expect(h.overBudget).toBe(1 << Channel.AI);
    expect(h.droppedTextBytes).toBe(24);
  });

  it('static layers are recorded once, outside frames, and carry their channels', () => {
    const r = quiet({ primitiveBudget: 1 });
    const layer = r.staticLayers.set('navgrid', (d) => {
      for (let i = 0; i < 500; i++) d.aabb(Channel.AI, i, 0, 0, i + 1, 1, 0, 0x335533); // no budget applies
      d.line(Channel.PHYSICS, 0, 0, 0, 1, 1, 0, 0xffffff);
    });
    expect(layer.primCount).toBe(501);
    r.beginFrame(0, 1);
    r.endFrame();
    expect(r.reader.readHeader(0, new FrameHeader())).toBe(true);
    expect(r.ring.wordsOf(0)).toBeLessThan(30); // not copied into frames
    const v = r.staticLayers.version;
    r.staticLayers.set('navgrid', (d) => d.point(Channel.AI, 0, 0, 0, 1, 0));
    expect(r.staticLayers.version).toBeGreaterThan(v);
    expect(r.staticLayers.get('navgrid')?.primCount).toBe(1);
  });
});
