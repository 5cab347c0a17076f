/**
 * saveReplay's options and sources (see saveReplayMutation.test.ts): each option's default (the user
 * agent stubbed) and each refusal with its path and message at its bound, and a source whose ring or
 * names are inconsistent. Comments name the mutants (Stryker's notation) a case kills.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Recorder } from '../../core/record/Recorder';
import { HANDLE_MASK, HEADER_WORDS, H_TOTAL_WORDS } from '../../core/format/layout';
import { MAX_FRAME_NUMBER } from '../replayFormat';
import { DEFAULT_SAVE_REPLAY_OPTIONS, saveReplay } from '../saveReplay';
import { badInput, handleOf, parse, scripted } from './saveReplayFixture';

afterEach(() => {
  vi.unstubAllGlobals();
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
