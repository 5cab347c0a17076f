import { describe, expect, it } from 'vitest';
import { PRIM_AABB, PRIM_ARROW, PRIM_LINE, PRIM_POINT, PRIM_SPHERE, PRIM_TEXT } from '../../format/layout';
import { FrameHeader, PrimitiveBuffer } from '../../read/buffers';
import { decodePrimitives } from '../../read/FrameReader';
import { Channel } from '../../store/ChannelRegistry';
import type { Recorder } from '../Recorder';
import { rng } from '../../../../tests/helpers/random';
import { ALL, quiet, warningsOf } from './helpers';

/**
 * Debug draw against a model: random calls of every type on every channel, valid and not, under
 * primitive and text budgets; what a frame holds is compared record for record (type, channel,
 * colour, every float, every text byte), and the counters with what the model counted. A refused
 * primitive must leave no trace in the kept ones.
 */

type Kind = 'point' | 'line' | 'arrow' | 'sphere' | 'aabb';
const TYPE: Record<Kind, number> = {
  point: PRIM_POINT,
  line: PRIM_LINE,
  arrow: PRIM_ARROW,
  sphere: PRIM_SPHERE,
  aabb: PRIM_AABB,
};
const FLOATS: Record<Kind, number> = { point: 4, line: 6, arrow: 7, sphere: 4, aabb: 6 };
const KINDS: Kind[] = ['point', 'line', 'arrow', 'sphere', 'aabb'];

interface Kept {
  type: number;
  channel: number;
  color: number;
  floats: number[];
  text?: string;
}

function call(r: Recorder, kind: Kind, channel: number, v: number[], color: number): void {
  const d = r.draw;
  if (kind === 'point') d.point(channel, v[0], v[1], v[2], v[3], color);
  else if (kind === 'line') d.line(channel, v[0], v[1], v[2], v[3], v[4], v[5], color);
  else if (kind === 'arrow') d.arrow(channel, v[0], v[1], v[2], v[3], v[4], v[5], v[6], color);
  else if (kind === 'sphere') d.sphere(channel, v[0], v[1], v[2], v[3], color);
  else d.aabb(channel, v[0], v[1], v[2], v[3], v[4], v[5], color);
}

function readBack(r: Recorder, frame: number): Kept[] {
  const p = new PrimitiveBuffer();
  r.reader.readPrimitives(frame, ALL, p);
  const out: Kept[] = [];
  for (let i = 0; i < p.count; i++) {
    const type = p.types[i];
    const n = type === PRIM_TEXT ? 3 : FLOATS[KINDS.find((k) => TYPE[k] === type)!];
    out.push({
      type,
      channel: p.channels[i],
      color: p.colors[i],
      floats: Array.from(p.data.subarray(i * 7, i * 7 + n)),
      ...(type === PRIM_TEXT ? { text: p.text(i) } : {}),
    });
  }
  return out;
}

describe('DrawRecorder against a model', () => {
  for (const seed of [1, 2, 3]) {
    it(`keeps exactly what the budgets admit, record for record, and counts the rest (seed ${seed})`, () => {
      const rand = rng(seed);
      const budget = 3;
      const r = quiet({ primitiveBudget: budget });
      const net = r.channels.register('network', { budget: 5 });
      const channels = [Channel.AI, Channel.PHYSICS, Channel.ANIMATION, net];
      const budgets = [budget, budget, budget, 5];
      const bad = [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1e39, -1e39];
      for (let frame = 0; frame < 3; frame++) {
        r.beginFrame(frame, 1);
        const kept: Kept[] = [];
        const counts = [0, 0, 0, 0];
        let overBudget = 0;
        let dropped = 0;
        let sanitized = 0;
        for (let i = 0; i < 60; i++) {
          const kind = KINDS[Math.floor(rand() * KINDS.length)];
          const ci = Math.floor(rand() * channels.length);
          const channel = channels[ci];
          const v = Array.from({ length: FLOATS[kind] }, () => Math.fround((rand() - 0.5) * 2000));
          const color = Math.floor(rand() * 0x1000000) | (rand() < 0.2 ? 0x7f000000 : 0); // high bits are not colour
          const roll = rand();
          if (roll < 0.12) {
            v[Math.floor(rand() * v.length)] = bad[Math.floor(rand() * bad.length)];
            sanitized++;
          } else if (roll < 0.18) {
            call(r, kind, [32, 4, -1, 1.5][Math.floor(rand() * 4)], v, color);
            sanitized++;
            continue;
          }
          call(r, kind, channel, v, color);
          if (roll < 0.12) continue;
          if (counts[ci] >= budgets[ci]) {
            overBudget |= 1 << channel;
            dropped++;
            continue;
          }
          counts[ci]++;
          kept.push({ type: TYPE[kind], channel, color: color & 0xffffff, floats: v });
        }
        r.endFrame();
        expect(readBack(r, frame)).toEqual(kept);
        const h = new FrameHeader();
        r.reader.readHeader(frame, h);
        expect([h.overBudget, h.droppedPrimitives, h.sanitized, h.primitiveCount]).toEqual([
          overBudget,
          dropped,
          sanitized,
          kept.length,
        ]);
      }
    });
  }

  it('a primitive refused by the budget writes nothing: the kept records are intact, for every type', () => {
    for (const kind of KINDS) {
      const r = quiet({ primitiveBudget: 1 });
      r.beginFrame(0, 1);
      const first = [1, 2, 3, 4, 5, 6, 7].slice(0, FLOATS[kind]);
      call(r, kind, Channel.AI, first, 0x010203);
      call(
        r,
        kind,
        Channel.AI,
        first.map((x) => -x * 100),
        0x0a0b0c,
      ); // over the budget
      r.endFrame();
      expect(readBack(r, 0)).toEqual([{ type: TYPE[kind], channel: Channel.AI, color: 0x010203, floats: first }]);
    }
  });

  it('texts: paragraphs by channel and radius, the text budget counting merged newlines, the paragraph cap', () => {
    const r = quiet({ textBudgetBytes: 21, paragraphRadius: 10, maxParagraphs: 2 });
    r.beginFrame(0, 1);
    r.draw.text(Channel.AI, 0, 0, 5, 'abc', 0x12345678); // paragraph 0, 3 bytes
    r.draw.text(Channel.AI, 3, 4, 5, 'de', 0xffffff); // merged (distance 5): 3 bytes with the newline
    r.draw.text(Channel.AI, 0, 0, 16, 'far', 0xffffff); // 11 away in z: a new paragraph, 3 bytes
    r.draw.text(Channel.PHYSICS, 0, 0, 5, 'x', 0xffffff); // a third paragraph: over the cap, dropped
    r.draw.text(Channel.AI, 0, 0, 15, '', 0xffffff); // empty: nothing
    r.draw.text(Channel.AI, 1, 0, 16, 'ghijklmnop', 0xffffff); // merged into 'far': 11 bytes, 20 in all
    r.draw.text(Channel.AI, 0, 0, 5, 'z', 0xffffff); // 2 more bytes (with its newline): over the budget of 21
    r.draw.text(Channel.AI, Number.NaN, 0, 0, 'nan', 0xffffff); // invalid
    r.draw.text(7, 0, 0, 0, 'nochannel', 0xffffff); // unknown channel
    r.endFrame();
    expect(readBack(r, 0)).toEqual([
      { type: PRIM_TEXT, channel: Channel.AI, color: 0x345678, floats: [0, 0, 5], text: 'abc\nde' },
      { type: PRIM_TEXT, channel: Channel.AI, color: 0xffffff, floats: [0, 0, 16], text: 'far\nghijklmnop' },
    ]);
    const h = new FrameHeader();
    r.reader.readHeader(0, h);
    expect(h.overBudget).toBe((1 << Channel.PHYSICS) | (1 << Channel.AI));
    expect(h.droppedTextBytes).toBe(1 + 1);
    expect(h.sanitized).toBe(2);
    expect(r.stats.textBytesOverBudget).toBe(2);
    expect(r.stats.invalidPrimitives).toBe(1);
    expect(r.stats.unknownChannels).toBe(1);
  });

  it('calls outside a frame are ignored and counted, with one warning', () => {
    const r = quiet();
    r.draw.point(Channel.AI, 0, 0, 0, 1, 0);
    r.draw.text(Channel.AI, 0, 0, 0, 'early', 0);
    r.beginFrame(0, 1);
    r.draw.point(Channel.AI, 1, 1, 1, 1, 0);
    r.endFrame();
    r.draw.line(Channel.AI, 0, 0, 0, 1, 1, 1, 0);
    expect(r.stats.callsOutsideFrame).toBe(3);
    expect(warningsOf(r).filter((w) => w.includes('outside beginFrame'))).toHaveLength(1);
    expect(readBack(r, 0)).toEqual([{ type: PRIM_POINT, channel: Channel.AI, color: 0, floats: [1, 1, 1, 1] }]);
  });

  it('static layers grow past any budget and keep every record, texts included', () => {
    const r = quiet({ primitiveBudget: 1, textBudgetBytes: 4 });
    const layer = r.staticLayers.set('big', (d) => {
      for (let i = 0; i < 3000; i++) d.line(Channel.AI, i, 0, 0, i, 1, 2, i);
      for (let i = 0; i < 40; i++) d.text(Channel.PHYSICS, i * 100, 0, 0, `label ${i}`, 0xff);
    });
    expect(layer.primCount).toBe(3040);
    const p = new PrimitiveBuffer();
    const w = layer.words;
    decodePrimitives(
      w,
      new Float32Array(w.buffer, w.byteOffset, w.length),
      new Uint8Array(w.buffer, w.byteOffset, w.byteLength),
      0,
      w.length,
      layer.primCount,
      ALL,
      p,
    );
    expect(p.count).toBe(3040);
    expect(Array.from(p.data.subarray(2999 * 7, 2999 * 7 + 6))).toEqual([2999, 0, 0, 2999, 1, 2]);
    expect(p.colors[2999]).toBe(2999);
    for (let i = 0; i < 40; i++)
      expect([p.text(3000 + i), p.data[(3000 + i) * 7], p.channels[3000 + i]]).toEqual([
        `label ${i}`,
        i * 100,
        Channel.PHYSICS,
      ]);
  });

  it('the staging holds every budget filled at once: the largest primitive on every channel, every paragraph, every text byte', () => {
    const r = quiet({ primitiveBudget: 40, textBudgetBytes: 64, maxParagraphs: 4, paragraphRadius: 1 });
    const net = r.channels.register('network', { budget: 30 });
    const capacity = r.draw.capacityWords;
    for (let frame = 0; frame < 2; frame++) {
      r.beginFrame(frame, 1);
      const kept: Kept[] = [];
      for (const [channel, budget] of [
        [Channel.AI, 40],
        [Channel.PHYSICS, 40],
        [Channel.ANIMATION, 40],
        [net, 30],
      ]) {
        for (let i = 0; i < budget; i++) {
          const v = [i, channel, frame, -i, 0.5, 2, 0.25];
          call(r, 'arrow', channel, v, i);
          kept.push({ type: PRIM_ARROW, channel, color: i, floats: v });
        }
      }
      // Four paragraphs of 16 bytes: 'x' * 15 + '\n' + 'y' merged is 17, so lines of 7 + 1 + 8.
      for (let p = 0; p < 4; p++) {
        r.draw.text(Channel.AI, p * 10, 0, 0, 'abcdefg', 0x10 + p);
        r.draw.text(Channel.AI, p * 10, 0, 0, 'hijklmno', 0x20 + p);
      }
      for (let p = 0; p < 4; p++)
        kept.push({
          type: PRIM_TEXT,
          channel: Channel.AI,
          color: 0x10 + p,
          floats: [p * 10, 0, 0],
          text: 'abcdefg\nhijklmno',
        });
      r.endFrame();
      expect(readBack(r, frame)).toEqual(kept);
      const h = new FrameHeader();
      r.reader.readHeader(frame, h);
      expect([h.overBudget, h.droppedPrimitives, h.droppedTextBytes]).toEqual([0, 0, 0]);
    }
    expect(r.draw.capacityWords).toBe(capacity);
  });

  it('texts are Latin-1: code 255 is kept, 256 and above become "?", a surrogate pair is one "?"; a lone surrogate too', () => {
    const r = quiet({ paragraphRadius: 0 });
    r.beginFrame(0, 1);
    r.draw.text(Channel.AI, 0, 0, 0, 'a\u00ff\u0100\ud83d\ude00b\ud83d', 0);
    r.draw.text(Channel.AI, 5, 0, 0, '\ude00\ud83dc', 0);
    r.endFrame();
    expect(readBack(r, 0).map((k) => k.text)).toEqual(['a\u00ff??b?', '??c']);
  });
});
