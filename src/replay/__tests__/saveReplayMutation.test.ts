/**
 * saveReplay's output byte by byte and field by field, from small recordings built here: every header
 * field against the recorder it came from (entities only of the handles the saved frames use, their
 * lives clamped to the saved range, kinds, skeletons, fields, channels, static layers, the frames'
 * extent and checksum), the frames array and each bin header in its smallest form at the edges of
 * the forms (252, 256, 65,532 and 65,536 bytes, 300 frames), each option's default and each refusal
 * with its path and message at its bound, and a source whose ring or names are inconsistent. The
 * round trips and the loader's tests reach saveReplay through loadReplay, which checks much of this
 * only indirectly; these cases pin it, so that a mutant (a bound moved by one, a message emptied, a
 * column dropped) fails here. Comments name the mutants (Stryker's notation) a case kills.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Channel } from '../../core/store/ChannelRegistry';
import { Recorder } from '../../core/record/Recorder';
import { HANDLE_MASK, HEADER_WORDS, H_FRAME, H_TOTAL_WORDS } from '../../core/format/layout';
import { CHECKSUM_SEED, checksumWords } from '../checksum';
import { loadReplay } from '../loadReplay';
import { MsgDecoder } from '../MsgDecoder';
import { ReplayError } from '../ReplayError';
import { MAX_FRAME_NUMBER } from '../replayFormat';
import { DEFAULT_SAVE_REPLAY_OPTIONS, saveReplay } from '../saveReplay';
import type { ReplaySource } from '../saveReplay';
import { fixChecksum, frameWords, joinFile, putFrameWords, splitFile, sub } from './helpers';

afterEach(() => {
  vi.unstubAllGlobals();
});

/** The BAD_INPUT error of `fn`, as [path, detail]. */
function badInput(fn: () => unknown): [string | undefined, string] {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ReplayError);
    const r = e as ReplayError;
    expect(r.code).toBe('BAD_INPUT');
    return [r.path, r.detail];
  }
  throw new Error('did not throw');
}

/**
 * Six frames in a ring of four (frames 2 to 5 are saved): id 10 in every frame (kind 'a', labelled),
 * id 11 in frames 0 and 1 only (not saved), id 12 in frames 2 and 3 then despawned, and again as a
 * new life in 4 and 5, id 13 (never described) from frame 3, with flags in the high bits.
 */
function scripted(): Recorder {
  const rec = new Recorder({ maxFrames: 4, arenaBytes: 64 * 1024, onWarning: () => {} });
  rec.channels.register('net', { color: 0x123456, budget: 9 });
  rec.describeSkeleton('b', [-1, 0]);
  rec.eventKind('boom');
  const schema = rec.declareFields('b', { hp: 'f32', mode: 'enum' });
  const values = new Float64Array(2);
  rec.texture('hero.png');
  rec.staticLayers.set('grid', (d) => d.line(Channel.AI, 0, 0, 0, 5, 5, 0, 0x00ff00));
  for (let f = 0; f < 6; f++) {
    rec.beginFrame(f * 0.5, 0.5);
    rec.describe(10, 'a', 'ten');
    rec.entity(10, f, 0, 0, 0, 0, 0, 1);
    if (f < 2) {
      rec.describe(11, 'b');
      rec.entity(11, 0, f, 0, 0, 0, 0, 1);
      if (f === 1) rec.despawn(11);
    }
    if (f >= 2) {
      rec.describe(12, 'b', 'twelve');
      rec.entity(12, 1, 1, f, 0, 0, 0, 1);
      values[0] = f;
      values[1] = schema.code(f < 4 ? 'idle' : 'run');
      rec.fields(12, schema, values);
      if (f === 3) rec.despawn(12);
    }
    if (f >= 3) rec.entity(13, 2, 2, 2, 0, 0, 0, 1, 0x7f);
    if (f === 4) rec.event('boom', 10, 1, 2, 3);
    rec.endFrame();
  }
  return rec;
}

/** The file's parts as the strict decoder reads them, with where the frames array starts. */
function parse(bytes: Uint8Array): { header: Map<string, unknown>; framesAt: number; frames: Uint8Array[] } {
  const d = new MsgDecoder(bytes);
  expect(d.decode(0, 'magic')).toBe('RWND');
  d.decode(d.position, 'version');
  const header = d.decode(d.position, 'header') as Map<string, unknown>;
  const framesAt = d.position;
  const frames = d.decode(framesAt, 'frames') as Uint8Array[];
  expect(d.position).toBe(bytes.length);
  return { header, framesAt, frames };
}

/** The ring's words of `frame` as bytes. */
function ringBytes(rec: Recorder, frame: number): Uint8Array {
  const at = rec.ring.offsetOf(frame);
  const words = rec.ring.u32[at + H_TOTAL_WORDS];
  return rec.ring.u8.slice(at * 4, (at + words) * 4);
}

/** The handle of `id`'s life that spawned in `spawn`. */
function handleOf(rec: Recorder, id: number, spawn: number): number {
  const t = rec.entities;
  for (let h = 0; h < t.highWater; h++) if (t.used[h] === 1 && t.ids[h] === id && t.spawnFrames[h] === spawn) return h;
  throw new Error(`no life of ${id} spawned in ${spawn}`);
}

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

describe('saveReplay: options', () => {
  const rec = scripted();
  const info = (o: Parameters<typeof saveReplay>[1]): Map<string, unknown> =>
    parse(saveReplay(rec, o)).header.get('info') as Map<string, unknown>;

  it('defaults: empty strings, no fields or bookmarks, no compression, the time now, the user agent', () => {
    expect(DEFAULT_SAVE_REPLAY_OPTIONS).toEqual({
      buildId: '',
      platform: null,
      note: '',
      fields: {},
      bookmarks: [],
      includeStaticLayers: true,
      compression: 'none',
      savedAt: null,
    });
    vi.stubGlobal('navigator', { userAgent: 'TestAgent/1.0' });
    const { header } = parse(saveReplay(rec));
    expect(header.get('buildId')).toBe('');
    expect(header.get('savedAt')).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Object.fromEntries(header.get('info') as Map<string, unknown>)).toEqual({
      platform: 'TestAgent/1.0',
      note: '',
      fields: new Map(),
    });
    expect(header.get('bookmarks')).toEqual([]);
    expect((header.get('frames') as Map<string, unknown>).get('codec')).toBe('none');
    // A platform given wins over the user agent; without a navigator, or a user agent that is not a string, ''.
    expect(info({ platform: 'given' }).get('platform')).toBe('given');
    vi.stubGlobal('navigator', { userAgent: 42 });
    expect(info({}).get('platform')).toBe('');
    vi.stubGlobal('navigator', undefined);
    expect(info({}).get('platform')).toBe('');
  });

  it('refuses an unknown codec, and options that are not strings or are too long, by path', () => {
    expect(badInput(() => saveReplay(rec, { compression: 'zip' as unknown as 'none' }))).toEqual([
      'options.compression',
      'unknown codec zip',
    ]);
    const long = 'x'.repeat(65537);
    for (const key of ['buildId', 'platform', 'note', 'savedAt'] as const) {
      const [path, detail] = badInput(() => saveReplay(rec, { [key]: long }));
      expect(path).toBe(`options.${key}`);
      expect(detail).toMatch(/^the string /);
    }
    expect(badInput(() => saveReplay(rec, { note: '\ud800' }))[0]).toBe('options.note');
  });

  it('fields: an object of strings, keys checked, at most 1,024', () => {
    const fieldsError = ['options.fields', 'expected an object of strings'];
    expect(badInput(() => saveReplay(rec, { fields: null as unknown as Record<string, string> }))).toEqual(fieldsError);
    expect(badInput(() => saveReplay(rec, { fields: 'ab' as unknown as Record<string, string> }))).toEqual(fieldsError);
    const [keyPath, keyDetail] = badInput(() => saveReplay(rec, { fields: { ['k'.repeat(65537)]: 'v' } }));
    expect(keyPath).toBe('options.fields');
    expect(keyDetail).toMatch(/^the string /);
    expect(badInput(() => saveReplay(rec, { fields: { a: 'ok', b: 7 as unknown as string } }))[0]).toBe(
      'options.fields.b',
    );
    const many = (n: number): Record<string, string> =>
      Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}`, `${i}`]));
    // fields.size > max → >= (1,024 refused).
    expect((info({ fields: many(1024), savedAt: 'x' }).get('fields') as Map<string, string>).size).toBe(1024);
    expect(badInput(() => saveReplay(rec, { fields: many(1025) }))).toEqual([
      'options.fields',
      'more than 1024 fields',
    ]);
  });

  it('bookmarks: an array of at most 65,536, frames integers in [0, 2^31 - 1], labels strings', () => {
    expect(badInput(() => saveReplay(rec, { bookmarks: {} as unknown as [] }))).toEqual([
      'options.bookmarks',
      'expected an array of { frame, label }',
    ]);
    const marks = (n: number): Array<{ frame: number; label: string }> =>
      Array.from({ length: n }, (_, i) => ({ frame: i, label: '' }));
    expect(
      (parse(saveReplay(rec, { bookmarks: marks(65536), savedAt: 'x' })).header.get('bookmarks') as []).length,
    ).toBe(65536);
    expect(badInput(() => saveReplay(rec, { bookmarks: marks(65537) }))).toEqual([
      'options.bookmarks',
      'more than 65536 bookmarks',
    ]);
    // The frame's range at both ends (>= 0 → > 0, <= MAX → <, each → true).
    const edges = parse(
      saveReplay(rec, {
        savedAt: 'x',
        bookmarks: [
          { frame: 0, label: 'first' },
          { frame: MAX_FRAME_NUMBER, label: 'last' },
        ],
      }),
    ).header.get('bookmarks') as Array<Map<string, unknown>>;
    expect(edges.map((b) => [b.get('frame'), b.get('label')])).toEqual([
      [0, 'first'],
      [MAX_FRAME_NUMBER, 'last'],
    ]);
    const cases: Array<[unknown, string]> = [
      [-1, '-1'],
      [MAX_FRAME_NUMBER + 1, `${MAX_FRAME_NUMBER + 1}`],
      [1.5, '1.5'],
      ['3', '3'],
      [Number.NaN, 'NaN'],
    ];
    for (const [frame, shown] of cases) {
      const bookmarks = [
        { frame: 1, label: 'ok' },
        { frame, label: 'x' },
      ] as Array<{ frame: number; label: string }>;
      expect(badInput(() => saveReplay(rec, { bookmarks }))).toEqual([
        'options.bookmarks[1].frame',
        `expected an integer frame number, found ${shown}`,
      ]);
    }
    // A hole in the array (b?.frame): no frame.
    expect(
      badInput(() => saveReplay(rec, { bookmarks: [null as unknown as { frame: number; label: string }] })),
    ).toEqual(['options.bookmarks[0].frame', 'expected an integer frame number, found undefined']);
    expect(badInput(() => saveReplay(rec, { bookmarks: [{ frame: 2, label: 5 as unknown as string }] }))[0]).toBe(
      'options.bookmarks[0].label',
    );
  });
});

describe('saveReplay: an inconsistent source', () => {
  it('refuses a frame whose size is below a header or past its ring slot, and keeps one that fills its slot', () => {
    // words < HEADER_WORDS → <= (a header-only frame refused) / false; words > wordsOf → >= / false.
    const rec = new Recorder({ maxFrames: 4, arenaBytes: 4096, onWarning: () => {} });
    for (let f = 0; f < 3; f++) {
      rec.beginFrame(f, 1);
      if (f === 1) rec.entity(1, 0, 0, 0, 0, 0, 0, 1);
      rec.endFrame();
    }
    const u32 = rec.ring.u32;
    expect(u32[rec.ring.offsetOf(0) + H_TOTAL_WORDS]).toBe(HEADER_WORDS);
    const at = rec.ring.offsetOf(1) + H_TOTAL_WORDS;
    const words = u32[at];
    expect(words).toBe(HEADER_WORDS + 5);
    expect(rec.ring.wordsOf(1)).toBe(HEADER_WORDS + 6);
    saveReplay(rec, { savedAt: 'x' });
    for (const bad of [HEADER_WORDS - 1, HEADER_WORDS + 7]) {
      u32[at] = bad;
      expect(badInput(() => saveReplay(rec, { savedAt: 'x' }))).toEqual([
        'source.ring[1]',
        'frame size is inconsistent',
      ]);
    }
    u32[at] = HEADER_WORDS + 6; // the slot's padding word included: consistent
    expect(parse(saveReplay(rec, { savedAt: 'x' })).frames[1].length).toBe((HEADER_WORDS + 6) * 4);
    u32[at] = words;
  });

  it('refuses a frame naming a handle past the table or not in use, and masks the flag bits', () => {
    const rec = new Recorder({ maxFrames: 4, arenaBytes: 4096, onWarning: () => {} });
    rec.beginFrame(0, 1);
    rec.entity(7, 0, 0, 0, 0, 0, 0, 1, 0x7f);
    rec.entity(8, 0, 0, 0, 0, 0, 0, 1);
    rec.endFrame();
    const at = rec.ring.offsetOf(0) + HEADER_WORDS;
    const u32 = rec.ring.u32;
    const word = u32[at];
    expect(word & ~HANDLE_MASK).not.toBe(0); // flags above the handle
    const h = word & HANDLE_MASK;
    expect((parse(saveReplay(rec, { savedAt: 'x' })).header.get('entities') as Map<string, unknown>).get('id')).toEqual(
      [7, 8],
    );
    const table = rec.entities;
    u32[at] = (word & ~HANDLE_MASK) | table.highWater;
    expect(badInput(() => saveReplay(rec, { savedAt: 'x' }))).toEqual([
      'source.ring[0]',
      `handle ${table.highWater} is not in the entity table`,
    ]);
    // Past the table's storage too (`h >= referenced.length` dropped: `used[h]` is then undefined).
    expect(table.used.length).toBeLessThan(HANDLE_MASK);
    u32[at] = (word & ~HANDLE_MASK) | HANDLE_MASK;
    expect(badInput(() => saveReplay(rec, { savedAt: 'x' }))).toEqual([
      'source.ring[0]',
      `handle ${HANDLE_MASK} is not in the entity table`,
    ]);
    u32[at] = word;
    table.used[h] = 0;
    expect(badInput(() => saveReplay(rec, { savedAt: 'x' }))).toEqual([
      'source.ring[0]',
      `handle ${h} is not in the entity table`,
    ]);
    table.used[h] = 1;
  });

  it('names a game string the file cannot hold by where it comes from', () => {
    // Each path of gameString / checkString in the source's names.
    const lone = '\ud800';
    const cases: Array<[string, (r: Recorder) => void]> = [
      ['source.entities.kinds[1]', (r) => (r.entities.kinds[1] = lone)],
      ['source.eventKinds[', (r) => ((r.eventKinds as string[])[0] = lone)],
      ['source.textures[0]', (r) => (r.textures[0] = lone)],
      ['source.fieldSchemas[0].kind', (r) => Object.assign(r.reader.fieldSchemas.list()[0], { kind: lone })],
      [
        'source.fieldSchemas[0].names',
        (r) => {
          const sc = r.reader.fieldSchemas.list()[0];
          Object.assign(sc, { fields: [sc.fields[0], { ...sc.fields[1], name: lone }] });
        },
      ],
      ['source.fieldSchemas[0].enumNames', (r) => (r.reader.fieldSchemas.list()[0].enumNames[0] = lone)],
      ['source.staticLayers.name', (r) => Object.assign(r.staticLayers.list()[0], { name: lone })],
      ['source.channels[0].name', (r) => ((r.channels as unknown as { names: string[] }).names[0] = lone)],
    ];
    for (const [path, spoil] of cases) {
      const r = scripted();
      spoil(r);
      const [p, detail] = badInput(() => saveReplay(r, { savedAt: 'x' }));
      expect(p?.startsWith(path), `${p} for ${path}`).toBe(true);
      expect(detail).toMatch(/^the string /);
    }
    const r = scripted();
    const h = handleOf(r, 10, 0);
    r.entities.labels[h] = lone;
    expect(badInput(() => saveReplay(r, { savedAt: 'x' }))[0]).toBe(`source.entities.label[${h}]`);
    // Numbers where names belong (JavaScript callers) are written as strings.
    const n = scripted();
    (n.entities.kinds as unknown[])[1] = 7;
    n.entities.labels[handleOf(n, 10, 0)] = 12 as unknown as string;
    const { header } = parse(saveReplay(n, { savedAt: 'x' }));
    expect(header.get('kinds')).toEqual(['b', '7']);
    expect((header.get('entities') as Map<string, unknown[]>).get('label')).toContain('12');
  });
});
