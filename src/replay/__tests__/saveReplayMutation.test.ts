/**
 * saveReplay's output byte by byte and field by field, from small recordings built here: every header
 * field against the recorder it came from (entities only of the handles the saved frames use, their
 * lives clamped to the saved range, kinds, skeletons, fields, channels, static layers, the frames'
 * extent and checksum), the frames array and each bin header in its smallest form at the edges of
 * the forms (252, 256, 65,532 and 65,536 bytes, 300 frames), each option's default and each refusal
 * with its path and message at its bound, and a source whose ring or names are inconsistent. The
 * round trips and the loader's tests reach saveReplay through loadReplay, which checks much of this
 * only indirectly; these cases pin it, so that a mutant (a bound moved by one, a message emptied, a
 * column dropped) fails here. Comments name the mutants (Stryker's notation) a case kills. The options'
 * and the sources' cases are in saveReplayMutation.options.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { Channel } from '../../core/store/ChannelRegistry';
import { Recorder } from '../../core/record/Recorder';
import { H_FRAME, H_TOTAL_WORDS } from '../../core/format/layout';
import { CHECKSUM_SEED, checksumWords } from '../checksum';
import { loadReplay } from '../loadReplay';
import { MsgDecoder } from '../MsgDecoder';
import { MAX_FRAME_NUMBER } from '../replayFormat';
import { saveReplay } from '../saveReplay';
import type { ReplaySource } from '../saveReplay';
import { fixChecksum, frameWords, joinFile, putFrameWords, splitFile, sub } from './helpers';
import { badInput, handleOf, parse, ringBytes, scripted } from './saveReplayFixture';

describe('saveReplay: the header', () => {
  const rec = scripted();

  it('holds every field the recorder gives, for the frames the ring holds', () => {
    const bytes = saveReplay(rec, {
      buildId: 'b1',
      platform: 'p',
      note: 'n',
      savedAt: 's',
      fields: { k: 'v', z: '' },
      bookmarks: [{ frame: 3, label: 'here' }],
    });
    const { header, frames } = parse(bytes);
    expect(header.get('buildId')).toBe('b1');
    expect(header.get('savedAt')).toBe('s');
    const info = header.get('info') as Map<string, unknown>;
    expect(info.get('platform')).toBe('p');
    expect(info.get('note')).toBe('n');
    expect(info.get('fields')).toEqual(
      new Map([
        ['k', 'v'],
        ['z', ''],
      ]),
    );
    expect(header.get('bookmarks')).toEqual([
      new Map<string, unknown>([
        ['frame', 3],
        ['label', 'here'],
      ]),
    ]);
    // Channels: name, 24-bit colour, budget (`color & 0xffffff` → `|`).
    const channels = (header.get('channels') as Array<Map<string, unknown>>).map((c) => Object.fromEntries(c));
    expect(channels).toEqual(rec.channels.list().map((c) => ({ name: c.name, color: c.color, budget: c.budget })));
    expect(channels.at(-1)).toEqual({ name: 'net', color: 0x123456, budget: 9 });
    // Kinds in their order, a skeleton for 'b' only (`s === undefined ? null` → always one or never).
    expect(header.get('kinds')).toEqual(['b', 'a']);
    expect(header.get('skeletons')).toEqual([[-1, 0], null]);
    expect(header.get('eventKinds')).toEqual(rec.eventKinds);
    expect(rec.eventKinds).toContain('boom');
    expect(header.get('textures')).toEqual(['hero.png']);
    const schemas = (header.get('fieldSchemas') as Array<Map<string, unknown>>).map((s) => Object.fromEntries(s));
    const schema = rec.reader.fieldSchemas.list()[0];
    expect(schemas).toEqual([
      { kind: 'b', names: ['hp', 'mode'], types: Array.from(schema.types), enumNames: ['idle', 'run'] },
    ]);
    // Static layers: name, primitive count and the words as bytes.
    const layers = (header.get('staticLayers') as Array<Map<string, unknown>>).map((l) => Object.fromEntries(l));
    const layer = rec.staticLayers.list()[0];
    expect(layers.length).toBe(1);
    expect(layers[0].name).toBe('grid');
    expect(layers[0].primCount).toBe(1);
    expect(Array.from(layers[0].words as Uint8Array)).toEqual(
      Array.from(new Uint8Array(layer.words.buffer, layer.words.byteOffset, layer.words.byteLength)),
    );
    // The frames: 2 to 5, their words, the chained checksum of their words.
    expect(rec.ring.oldestFrame).toBe(2);
    let words = 0;
    let checksum = CHECKSUM_SEED;
    for (let f = 2; f <= 5; f++) {
      const at = rec.ring.offsetOf(f);
      const n = rec.ring.u32[at + H_TOTAL_WORDS];
      words += n;
      checksum = checksumWords(rec.ring.u32, at, n, checksum);
    }
    expect(Object.fromEntries(header.get('frames') as Map<string, unknown>)).toEqual({
      first: 2,
      count: 4,
      words,
      codec: 'none',
      checksum,
    });
    expect(frames.map((b) => Array.from(b))).toEqual([2, 3, 4, 5].map((f) => Array.from(ringBytes(rec, f))));
  });

  it('writes maps in their smallest form (the header, fewer than 16 keys, is a fixmap)', () => {
    // variableMapSize: true → false (map16 for every map).
    const bytes = saveReplay(rec, { savedAt: 'x' });
    const d = new MsgDecoder(bytes);
    d.decode(0, 'magic');
    d.decode(d.position, 'version');
    const headerAt = d.position;
    const header = d.decode(headerAt, 'header') as Map<string, unknown>;
    expect(header.size).toBeLessThan(16);
    expect(bytes[headerAt]).toBe(0x80 | header.size);
  });

  it('lists exactly the handles the saved frames use, in handle order, with their lives', () => {
    // `referenced[h] === 0` → false / true, `h >= referenced.length ||` ..., the columns each.
    const { header } = parse(saveReplay(rec, { savedAt: 'x' }));
    const e = Object.fromEntries(header.get('entities') as Map<string, unknown>);
    const h10 = handleOf(rec, 10, 0);
    const h12a = handleOf(rec, 12, 2);
    const h12b = handleOf(rec, 12, 4);
    const h13 = handleOf(rec, 13, 3);
    const lives = [
      { h: h10, id: 10, spawn: 0, last: 5, kind: 1, label: 'ten', ended: false },
      { h: h12a, id: 12, spawn: 2, last: 3, kind: 0, label: 'twelve', ended: true },
      { h: h12b, id: 12, spawn: 4, last: 5, kind: 0, label: 'twelve', ended: false },
      { h: h13, id: 13, spawn: 3, last: 5, kind: -1, label: null, ended: false },
    ].sort((a, b) => a.h - b.h);
    expect(e).toEqual({
      handle: lives.map((l) => l.h),
      id: lives.map((l) => l.id),
      spawnFrame: lives.map((l) => l.spawn),
      lastFrame: lives.map((l) => l.last),
      kind: lives.map((l) => l.kind),
      label: lives.map((l) => l.label),
      ended: lives.map((l) => l.ended),
    });
    // Id 11 lived in frames 0 and 1 only (evicted): not listed.
    expect(e.id).not.toContain(11);
  });

  it('clamps a life still open in an unfinished frame to the newest saved frame', () => {
    // Math.min(lastFrame, newest) → Math.max; newest = first + count - 1 → + 1.
    const r = scripted();
    r.beginFrame(9, 0.5);
    r.entity(10, 0, 0, 0, 0, 0, 0, 1);
    r.entity(13, 0, 0, 0, 0, 0, 0, 1);
    const { header } = parse(saveReplay(r, { savedAt: 'x' }));
    const e = header.get('entities') as Map<string, number[]>;
    expect(e.get('lastFrame')).toEqual(e.get('handle')?.map((h) => (h === handleOf(r, 12, 2) ? 3 : 5)));
    r.endFrame();
  });

  it('an empty recorder: no frames, first 0, nothing listed', () => {
    const empty = new Recorder({ maxFrames: 4, arenaBytes: 4096, onWarning: () => {} });
    const bytes = saveReplay(empty, { savedAt: 'x' });
    const { header, framesAt, frames } = parse(bytes);
    expect(Object.fromEntries(header.get('frames') as Map<string, unknown>)).toEqual({
      first: 0,
      count: 0,
      words: 0,
      codec: 'none',
      checksum: CHECKSUM_SEED,
    });
    expect(frames).toEqual([]);
    expect(Array.from(bytes.subarray(framesAt))).toEqual([0xdd, 0, 0, 0, 0]);
    expect(bytes.length).toBe(framesAt + 5);
    // Emptied by clear(): the ring's oldest frame number has moved on, the file still says first 0
    // (`count > 0 ? ring.oldestFrame : 0` → `true`).
    const cleared = new Recorder({ maxFrames: 4, arenaBytes: 4096, onWarning: () => {} });
    for (let f = 0; f < 3; f++) {
      cleared.beginFrame(f, 1);
      cleared.endFrame();
    }
    cleared.clear();
    expect(cleared.ring.frameCount).toBe(0);
    expect(cleared.ring.oldestFrame).toBe(3);
    const frames0 = parse(saveReplay(cleared, { savedAt: 'x' })).header.get('frames') as Map<string, unknown>;
    expect([frames0.get('first'), frames0.get('count'), frames0.get('words')]).toEqual([0, 0, 0]);
  });

  it('static layers: stored by default, left out on request or without any', () => {
    const layers = (o: Parameters<typeof saveReplay>[1], src: ReplaySource = rec): unknown[] =>
      parse(saveReplay(src, { savedAt: 'x', ...o })).header.get('staticLayers') as unknown[];
    expect(layers({}).length).toBe(1);
    expect(layers({ includeStaticLayers: true }).length).toBe(1);
    expect(layers({ includeStaticLayers: false })).toEqual([]);
    expect(layers({}, { reader: rec.reader, staticLayers: null })).toEqual([]);
    expect(layers({}, { reader: rec.reader })).toEqual([]);
  });
});

describe('saveReplay: the frames array', () => {
  /** One frame of `entities` entities and `lines` lines; returns the recorder. */
  function oneFrame(entities: number, lines: number): Recorder {
    const rec = new Recorder({
      maxFrames: 4,
      arenaBytes: 1 << 20,
      maxEntitiesPerFrame: 4096,
      onWarning: () => {},
    });
    rec.channels.register('many', { color: 1, budget: 64 });
    rec.beginFrame(0, 0.1);
    for (let i = 0; i < entities; i++) rec.entity(i + 1, i, 0, 0, 0, 0, 0, 1);
    for (let i = 0; i < lines; i++) rec.draw.line(Channel.PHYSICS, i, 0, 0, 1, 1, 1, 0xffffff);
    rec.endFrame();
    return rec;
  }

  it('writes each bin header in its smallest form, at the edges of the forms', () => {
    // n < 0x100 → <= / true / false; n < 0x10000 → <=; the header bytes; binHeaderSize likewise.
    const cases: Array<[number, number, number[]]> = [
      [4, 3, [0xc4, 252]], // 22 + 20 + 21 = 63 words: 252 bytes
      [0, 6, [0xc5, 0x01, 0x00]], // 22 + 42 = 64 words: 256 bytes
      [3268, 3, [0xc5, 0xff, 0xfc]], // 22 + 16,340 + 21 = 16,383 words: 65,532 bytes
      [3271, 1, [0xc6, 0x00, 0x01, 0x00, 0x00]], // 22 + 16,355 + 7 = 16,384 words: 65,536 bytes
      [3281, 4, [0xc6, 0x00, 0x01, 0x01, 0x1c]], // 22 + 16,405 + 28 = 16,455 words: 65,820 bytes (bin32's low bytes)
    ];
    for (const [entities, lines, head] of cases) {
      const rec = oneFrame(entities, lines);
      const bytes = saveReplay(rec, { savedAt: 'x' });
      const { framesAt, frames } = parse(bytes);
      const payload = ringBytes(rec, 0);
      expect(Array.from(bytes.subarray(framesAt, framesAt + 5))).toEqual([0xdd, 0, 0, 0, 1]);
      expect(Array.from(bytes.subarray(framesAt + 5, framesAt + 5 + head.length))).toEqual(head);
      expect(bytes.length).toBe(framesAt + 5 + head.length + payload.length);
      expect(Array.from(frames[0])).toEqual(Array.from(payload));
    }
  });

  it('counts 300 frames in the array header, and xor-delta bins are whole too', () => {
    // writeArray32's bytes (`(n >>> 8) & 0xff` → `|`, `n & 0xff` → `|`...).
    const rec = new Recorder({ maxFrames: 300, arenaBytes: 64 * 1024, onWarning: () => {} });
    for (let f = 0; f < 300; f++) {
      rec.beginFrame(f, 1);
      rec.endFrame();
    }
    for (const compression of ['none', 'xor-delta'] as const) {
      const bytes = saveReplay(rec, { savedAt: 'x', compression });
      const { header, framesAt, frames } = parse(bytes);
      expect(Array.from(bytes.subarray(framesAt, framesAt + 5))).toEqual([0xdd, 0, 0, 0x01, 0x2c]);
      expect(frames.length).toBe(300);
      expect((header.get('frames') as Map<string, unknown>).get('codec')).toBe(compression);
      const replay = loadReplay(bytes);
      expect([replay.reader.oldestFrame, replay.reader.newestFrame]).toEqual([0, 299]);
    }
  });

  it('xor-delta: each frame against the one before (the first against nothing), loaded back word for word', () => {
    // prevAt / prevWords of frame 0 → the previous frame's, payloadEnds[i - 1] → [i], the bin sizes.
    const rec = scripted();
    for (const compression of ['none', 'xor-delta'] as const) {
      const bytes = saveReplay(rec, { savedAt: 'x', compression });
      const replay = loadReplay(bytes);
      expect(replay.warnings).toEqual([]);
      for (let f = 2; f <= 5; f++) {
        const at = replay.ring.offsetOf(f);
        const n = replay.ring.u32[at + H_TOTAL_WORDS];
        expect(Array.from(replay.ring.u8.subarray(at * 4, (at + n) * 4))).toEqual(Array.from(ringBytes(rec, f)));
      }
    }
    // The xor-delta file's bins hold the codec's bytes, not the words: smaller than the words here.
    const packed = parse(saveReplay(rec, { savedAt: 'x', compression: 'xor-delta' })).frames;
    const plain = parse(saveReplay(rec, { savedAt: 'x' })).frames;
    expect(packed.length).toBe(4);
    for (let i = 1; i < 4; i++) expect(packed[i].length).toBeLessThan(plain[i].length);
  });

  it('saves a loaded replay whose last frame is the largest frame number, and refuses one past it', () => {
    // first + count - 1 > MAX → >= / true, and - 1 → + 1.
    const rec = new Recorder({ maxFrames: 4, arenaBytes: 4096, onWarning: () => {} });
    rec.beginFrame(0, 1);
    rec.entity(1, 0, 0, 0, 0, 0, 0, 1);
    rec.endFrame();
    const p = splitFile(saveReplay(rec, { savedAt: 'x' }));
    sub(p.header, 'frames').set('first', MAX_FRAME_NUMBER);
    sub(p.header, 'entities').set('spawnFrame', [MAX_FRAME_NUMBER]);
    sub(p.header, 'entities').set('lastFrame', [MAX_FRAME_NUMBER]);
    const w = frameWords(p, 0);
    w[H_FRAME] = MAX_FRAME_NUMBER;
    putFrameWords(p, 0, w);
    fixChecksum(p);
    const replay = loadReplay(joinFile(p.version, p.header, p.frames));
    const again = parse(saveReplay(replay, { savedAt: 'x' })).header.get('frames') as Map<string, unknown>;
    expect([again.get('first'), again.get('count')]).toEqual([MAX_FRAME_NUMBER, 1]);
    // One past: the same ring seen one frame later.
    const ring = new Proxy(replay.ring, {
      get: (t, k) => (k === 'oldestFrame' ? MAX_FRAME_NUMBER + 1 : Reflect.get(t, k)),
    });
    const reader = new Proxy(replay.reader, { get: (t, k) => (k === 'ring' ? ring : Reflect.get(t, k)) });
    expect(badInput(() => saveReplay({ reader }))).toEqual(['source', `frame numbers above ${MAX_FRAME_NUMBER}`]);
  });
});
