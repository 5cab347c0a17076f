import { describe, expect, it } from 'vitest';
import { PRIM_ARROW, PRIM_LINE, PRIM_TEXT } from '../../format/layout';
import { FrameHeader, PrimitiveBuffer } from '../../read/buffers';
import { decodePrimitives } from '../../read/FrameReader';
import type { StaticLayer } from '../../store/StaticLayers';
import { Channel } from '../../store/ChannelRegistry';
import type { Recorder } from '../Recorder';
import { ALL, quiet, warningsOf } from './helpers';

/**
 * Debug draw at its edges, each case built so that a near miss shows: surrogate ranges at their
 * bounds, the paragraph radius along y alone and at exactly the radius, the text budget and the
 * paragraph and fragment caps at their limits, the staging sized exactly for the worst frame (odd
 * text lengths), a budget lowered mid-frame, unknown channels and non-string texts on the text path,
 * the warnings' wording, padding bytes, and static layers that outgrow their first buffer (in the
 * primitives and while writing the texts) or their text bytes.
 */

function frameTexts(r: Recorder, frame: number): string[] {
  const p = new PrimitiveBuffer();
  r.reader.readPrimitives(frame, ALL, p);
  const out: string[] = [];
  for (let i = 0; i < p.count; i++) if (p.types[i] === PRIM_TEXT) out.push(p.text(i));
  return out;
}

function header(r: Recorder, frame: number): FrameHeader {
  const h = new FrameHeader();
  r.reader.readHeader(frame, h);
  return h;
}

function layerPrimitives(layer: StaticLayer): PrimitiveBuffer {
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
  return p;
}

describe('DrawRecorder edges', () => {
  it('surrogates: only a high surrogate (D800..DBFF) followed by a low one (DC00..DFFF) is one character', () => {
    const r = quiet({ paragraphRadius: 0 });
    r.beginFrame(0, 1);
    const cases: [string, string][] = [
      ['x\ude00', 'x?'], // a low surrogate after an ordinary character
      ['\ud800\udc00', '?'], // the lowest pair
      ['\udbff\udfff', '?'], // the highest pair
      ['\ud7ff\ue000', '??'], // just outside both ranges
      ['\ud83d\ue000', '??'], // high, then past the low range
      ['\ud83d\udbff', '??'], // high, then below the low range
      ['\udc00\udc00', '??'], // two low surrogates
    ];
    cases.forEach(([text], i) => {
      r.draw.text(Channel.AI, i * 10, 0, 0, text, 0);
    });
    r.endFrame();
    expect(frameTexts(r, 0)).toEqual(cases.map(([, want]) => want));
  });

  it('paragraphs: a line 11 away along y alone is apart, one exactly the radius away joins', () => {
    const r = quiet({ paragraphRadius: 10 });
    r.beginFrame(0, 1);
    r.draw.text(Channel.AI, 0, 0, 0, 'a', 0);
    r.draw.text(Channel.AI, 0, 11, 0, 'b', 0);
    r.draw.text(Channel.AI, 6, 8, 0, 'c', 0); // distance exactly 10
    r.draw.text(Channel.AI, 0, 0, 11, 'd', 0);
    r.endFrame();
    expect(frameTexts(r, 0)).toEqual(['a\nc', 'b', 'd']);
  });

  it('the text budget: a new paragraph costs its bytes only, a merged line one more; the paragraph cap lets merges in', () => {
    const r = quiet({ textBudgetBytes: 8, paragraphRadius: 1, maxParagraphs: 2 });
    r.beginFrame(0, 1);
    r.draw.text(Channel.AI, 0, 0, 0, 'abc', 0); // 3
    r.draw.text(Channel.AI, 50, 0, 0, 'def', 0); // 6: the second (and last) paragraph
    r.draw.text(Channel.AI, 0, 0, 0, 'g', 0); // merged into the first although the cap is reached: 8
    r.draw.text(Channel.AI, 50, 0, 0, '', 0); // empty: nothing
    r.endFrame();
    expect(frameTexts(r, 0)).toEqual(['abc\ng', 'def']);
    expect([header(r, 0).overBudget, header(r, 0).droppedTextBytes]).toEqual([0, 0]);
  });

  it('the fragment cap: at most 65536 lines per frame, the next one is dropped and counted', () => {
    const r = quiet({ textBudgetBytes: 140_000, maxParagraphs: 1 });
    r.beginFrame(0, 1);
    for (let i = 0; i <= 65536; i++) r.draw.text(Channel.PHYSICS, 0, 0, 0, 'a', 0);
    r.endFrame();
    const texts = frameTexts(r, 0);
    expect(texts).toHaveLength(1);
    expect(texts[0].length).toBe(65536 * 2 - 1);
    expect([header(r, 0).overBudget, header(r, 0).droppedTextBytes]).toEqual([1 << Channel.PHYSICS, 1]);
  });

  for (const [textBudgetBytes, maxParagraphs, lengths] of [
    [5, 1, [5]],
    [64, 4, [13, 17, 17, 17]],
    [63, 3, [21, 21, 21]],
  ] as const) {
    it(`the staging holds the worst frame: every budget full and texts of ${lengths.join(', ')} bytes`, () => {
      const r = quiet({ primitiveBudget: 3, textBudgetBytes, maxParagraphs, paragraphRadius: 0 });
      const capacity = r.draw.capacityWords;
      r.beginFrame(0, 1);
      for (const ch of [Channel.AI, Channel.PHYSICS, Channel.ANIMATION])
        for (let i = 0; i < 3; i++) r.draw.arrow(ch, i, 0, 0, 1, 1, 1, 0.5, 0);
      const want = lengths.map((n, p) => String.fromCharCode(97 + p).repeat(n));
      want.forEach((t, p) => {
        r.draw.text(Channel.AI, p, 0, 0, t, 0);
      });
      r.endFrame();
      expect(frameTexts(r, 0)).toEqual(want);
      expect([header(r, 0).overBudget, header(r, 0).droppedTextBytes, header(r, 0).primitiveCount]).toEqual([
        0,
        0,
        9 + lengths.length,
      ]);
      expect(r.draw.wordCount).toBeGreaterThan(9 * 8);
      expect(capacity).toBeGreaterThanOrEqual(r.draw.wordCount);
      expect(r.draw.capacityWords).toBe(capacity);
    });
  }

  it('a budget lowered mid-frame: what is staged stays, the staging never shrinks, further primitives are refused', () => {
    const r = quiet({ primitiveBudget: 20, textBudgetBytes: 4, maxParagraphs: 1 });
    const capacity = r.draw.capacityWords;
    r.beginFrame(0, 1);
    for (const ch of [Channel.AI, Channel.PHYSICS, Channel.ANIMATION])
      for (let i = 0; i < 20; i++) r.draw.arrow(ch, i, ch, 0, 1, 1, 1, 0.5, 0);
    r.channels.setBudget(Channel.AI, 1);
    r.draw.arrow(Channel.AI, 99, 0, 0, 1, 1, 1, 0.5, 0);
    r.endFrame();
    expect(r.draw.capacityWords).toBe(capacity);
    const p = new PrimitiveBuffer();
    r.reader.readPrimitives(0, ALL, p);
    expect(p.count).toBe(60);
    expect([p.types[59], p.channels[59], p.data[59 * 7], p.data[59 * 7 + 1]]).toEqual([
      PRIM_ARROW,
      Channel.ANIMATION,
      19,
      Channel.ANIMATION,
    ]);
    expect(header(r, 0).overBudget).toBe(1 << Channel.AI);
  });

  it('texts on unknown channels (the count, -1, 1.5) or that are not strings are dropped and counted', () => {
    const r = quiet();
    r.beginFrame(0, 1);
    r.draw.text(r.channels.count, 0, 0, 0, 'count', 0);
    r.draw.text(-1, 0, 0, 0, 'minus', 0);
    r.draw.text(1.5, 0, 0, 0, 'half', 0);
    r.draw.text(Channel.AI, 0, 0, 0, 42 as unknown as string, 0);
    r.draw.text(Channel.AI, 0, 0, 0, 'kept', 0);
    r.endFrame();
    expect(frameTexts(r, 0)).toEqual(['kept']);
    expect([r.stats.unknownChannels, r.stats.invalidPrimitives, header(r, 0).sanitized]).toEqual([3, 1, 4]);
  });

  it('warnings say what was dropped and why, once per kind', () => {
    const prim = quiet();
    prim.beginFrame(0, 1);
    prim.draw.point(7, 0, 0, 0, 1, 0);
    prim.draw.text(9, 0, 0, 0, 'x', 0);
    prim.endFrame();
    expect(warningsOf(prim)).toEqual(['rewindable: debug draw on unknown channel 7; the primitive was dropped']);
    const text = quiet();
    text.draw.text(Channel.AI, 0, 0, 0, 'early', 0);
    text.beginFrame(0, 1);
    text.draw.text(5, 0, 0, 0, 'x', 0);
    text.draw.point(6, 0, 0, 0, 1, 0);
    text.endFrame();
    expect(warningsOf(text)).toEqual([
      'rewindable: debug draw called outside beginFrame/endFrame; the call was ignored',
      'rewindable: debug draw on unknown channel 5; the text was dropped',
    ]);
  });

  it('a text record is padded with zero bytes, whatever a longer text left in the staging before', () => {
    const r = quiet();
    for (const [frame, text] of [
      [0, 'abcdefgh'],
      [1, 'abcde'],
    ] as const) {
      r.beginFrame(frame, 1);
      r.draw.text(Channel.AI, 0, 0, 0, text, 0);
      r.endFrame();
    }
    // The record: head, anchor (3), length, then the bytes.
    expect([r.draw.words[4], r.draw.words[5], r.draw.words[6]]).toEqual([5, 0x64636261, 0x65]);
    expect(frameTexts(r, 1)).toEqual(['abcde']);
  });

  it('static layers outgrow their first buffer in the primitives and while writing texts, and keep all', () => {
    const r = quiet();
    const big = r.staticLayers.set('lines', (d) => {
      for (let i = 0; i < 10_000; i++) d.line(Channel.AI, i, 1, 2, i, 3, 4, i);
    });
    const p = layerPrimitives(big);
    expect(p.count).toBe(10_000);
    for (const i of [0, 9362, 9363, 9999]) {
      expect([p.types[i], p.colors[i], ...p.data.subarray(i * 7, i * 7 + 6)]).toEqual([PRIM_LINE, i, i, 1, 2, i, 3, 4]);
    }
    // 9,300 lines fill most of the first 65,536 words; the labels' records cross that while being written.
    const fresh = quiet(); // a recorder whose static-layer buffer has not grown yet
    const mixed = fresh.staticLayers.set('mixed', (d) => {
      for (let i = 0; i < 9300; i++) d.line(Channel.AI, i, 0, 0, i, 1, 0, 0);
      for (let i = 0; i < 300; i++) d.text(Channel.PHYSICS, i, 0, 0, `label number ${i}`, 0xff);
    });
    const q = layerPrimitives(mixed);
    expect(q.count).toBe(9600);
    for (let i = 0; i < 300; i++) expect([q.text(9300 + i), q.data[(9300 + i) * 7]]).toEqual([`label number ${i}`, i]);
    expect([...warningsOf(r), ...warningsOf(fresh)]).toEqual([]);
  });

  it('a static layer past its 64 KiB of text keeps the lines that fit and warns', () => {
    const r = quiet();
    const layer = r.staticLayers.set('labels', (d) => {
      for (let i = 0; i < 70; i++) d.text(Channel.AI, 0, 0, 0, 'z'.repeat(1000), 0); // one paragraph
    });
    const p = layerPrimitives(layer);
    expect(p.count).toBe(1);
    expect(p.text(0)).toBe(Array(65).fill('z'.repeat(1000)).join('\n')); // 65 lines: 65,064 bytes
    expect(r.stats.textBytesOverBudget).toBe(5 * 1000);
    expect(warningsOf(r)).toEqual(['rewindable: text capacity reached; text dropped']);
  });

  it('a static layer past 4,096 paragraphs keeps the first 4,096, counts the dropped bytes and warns once', () => {
    const r = quiet();
    const layer = r.staticLayers.set('labels', (d) => {
      for (let i = 0; i < 4100; i++) d.text(Channel.AI, i, 0, 0, `#${i}`, 0); // one paragraph each
    });
    const p = layerPrimitives(layer);
    expect(p.count).toBe(4096);
    for (const i of [0, 4095]) expect([p.text(i), p.data[i * 7]]).toEqual([`#${i}`, i]);
    expect(r.stats.textBytesOverBudget).toBe('#4096#4097#4098#4099'.length);
    expect(warningsOf(r)).toEqual(['rewindable: text capacity reached; text dropped']);
  });
});
