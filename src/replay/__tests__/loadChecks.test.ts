import { describe, expect, it } from 'vitest';
import { HEADER_WORDS } from '../../core/format/layout';
import { loadReplay } from '../loadReplay';
import type { LoadReplayOptions } from '../loadReplay';
import { ReplayError } from '../ReplayError';
import type { ReplayErrorCode } from '../ReplayError';
import { saveReplay } from '../saveReplay';
import { fixChecksum, joinFile, makeRecording, splitFile, sub } from './helpers';
import type { FileParts } from './helpers';

/**
 * Every check of the loader (raw bytes, header blocks, frame sizing) with the error it gives: code,
 * path and the whole message, so that a check that fires on the wrong input, names the wrong place or
 * says the wrong thing shows. Each case edits one thing of a valid file.
 */

const rec = makeRecording({ frames: 30, entities: 6, seed: 5 });
const file = saveReplay(rec, { buildId: 'build-A', note: 'n', savedAt: 't', bookmarks: [{ frame: 20, label: 'b' }] });
const packed = saveReplay(rec, { buildId: 'build-A', savedAt: 't', compression: 'xor-delta' });

function error(bytes: unknown, options: Partial<LoadReplayOptions> = {}): ReplayError {
  try {
    loadReplay(bytes as Uint8Array, options);
  } catch (e) {
    expect(e).toBeInstanceOf(ReplayError);
    return e as ReplayError;
  }
  throw new Error('loaded');
}

function expectError(
  bytes: unknown,
  code: ReplayErrorCode,
  path: string | undefined,
  message: string,
  options: Partial<LoadReplayOptions> = {},
): void {
  const e = error(bytes, options);
  expect({ code: e.code, path: e.path, detail: e.detail }).toEqual({ code, path, detail: message });
}

function edit(fn: (p: FileParts) => void, source = file): Uint8Array {
  const parts = splitFile(source);
  fn(parts);
  return joinFile(parts.version, parts.header, parts.frames);
}

function bytes(...chunks: Array<Uint8Array | number[]>): Uint8Array {
  const out = new Uint8Array(chunks.reduce((s, c) => s + c.length, 0));
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}

const MAGIC = [0xa4, 0x52, 0x57, 0x4e, 0x44]; // 'RWND' as a MessagePack string
/** The file after its magic and version (the fixint 3): header and frames. */
const body = file.subarray(MAGIC.length + 1);

describe('loadReplay: the raw bytes', () => {
  it('input type, size limit, empty and cut signatures', () => {
    expectError('RWND', 'BAD_INPUT', undefined, 'expected a Uint8Array or ArrayBuffer, found string');
    expectError(null, 'BAD_INPUT', undefined, 'expected a Uint8Array or ArrayBuffer, found nil');
    expectError(file, 'TOO_LARGE', 'file', `${file.length} bytes exceed the limit of ${file.length - 1}`, {
      limits: { maxFileBytes: file.length - 1 },
    });
    expect(loadReplay(file, { limits: { maxFileBytes: file.length } }).fileBytes).toBe(file.length);
    expectError(new Uint8Array(0), 'TRUNCATED', 'magic', 'the file is empty');
    expectError(file.subarray(0, 3), 'TRUNCATED', 'magic', 'the file ends after 3 bytes, inside the RWND signature');
    expectError(file.subarray(0, 1), 'TRUNCATED', 'magic', 'the file ends after 1 bytes, inside the RWND signature');
    expectError(
      bytes([0xa4, 0x52, 0x57, 0x4e, 0x45]),
      'BAD_MAGIC',
      'magic',
      'not a rewindable replay (no RWND signature)',
    );
  });

  it('the version: any integer width, negative, cut, too new or too old', () => {
    expectError(bytes(MAGIC), 'TRUNCATED', 'version', 'the file ends before the format version');
    expectError(bytes(MAGIC, [0xcd, 0]), 'TRUNCATED', 'version', 'the file ends inside the format version');
    expectError(bytes(MAGIC, [0xd0, 0xff], body), 'CORRUPT', 'version', 'the format version is negative');
    expectError(bytes(MAGIC, [0xd0, 0x80], body), 'CORRUPT', 'version', 'the format version is negative');
    expect(error(bytes(MAGIC, [0x7f], body)).code).toBe('NEWER_VERSION'); // the largest positive fixint
    expectError(
      bytes(MAGIC, [0xa1, 0x33], body),
      'CORRUPT',
      'version',
      'expected a non-negative integer (MessagePack type byte 0xa1)',
    );
    expectError(
      bytes(MAGIC, [0xff], body),
      'CORRUPT',
      'version',
      'expected a non-negative integer (MessagePack type byte 0xff)',
    );
    // 3 written as uint8, uint16, uint32, uint64, int8, int16, int32 and int64 all load.
    const widths: number[][] = [
      [0xcc, 3],
      [0xcd, 0, 3],
      [0xce, 0, 0, 0, 3],
      [0xcf, 0, 0, 0, 0, 0, 0, 0, 3],
      [0xd0, 3],
      [0xd1, 0, 3],
      [0xd2, 0, 0, 0, 3],
      [0xd3, 0, 0, 0, 0, 0, 0, 0, 3],
    ];
    for (const v of widths) expect(loadReplay(bytes(MAGIC, v, body)).formatVersion).toBe(3);
    expectError(
      bytes(MAGIC, [0xcd, 1, 0], body),
      'NEWER_VERSION',
      'version',
      'the file is format version 256; this reader knows versions up to 3. Update rewindable to open it.',
    );
    expectError(
      bytes(MAGIC, [0], body),
      'UNSUPPORTED_VERSION',
      'version',
      'format version 0 is not supported (1..3 are)',
    );
    expect(loadReplay(bytes(MAGIC, [3], body)).formatVersion).toBe(3);
  });

  it('the header and frames: missing, or bytes after them', () => {
    expectError(bytes(MAGIC, [3]), 'TRUNCATED', 'header', 'the file ends after the format version');
    const parts = splitFile(file);
    const headerOnly = joinFile(parts.version, parts.header, []).subarray(0, -1); // drop the empty frames array
    expectError(headerOnly, 'TRUNCATED', 'frames', 'the file ends after the header');
    expectError(bytes(file, [0xc0, 0xc0]), 'CORRUPT', 'file', '2 unexpected bytes after the frames');
  });

  it('a failure inside the load (here a throwing work counter) reaches the caller as a typed error', () => {
    const throwing = (e: unknown) => ({
      workCounter: {
        get units(): number {
          return 0;
        },
        set units(_: number) {
          throw e;
        },
      },
    });
    expectError(file, 'CORRUPT', undefined, 'unexpected failure: boom', throwing(new Error('boom')));
    expectError(file, 'CORRUPT', undefined, 'unexpected failure: plain', throwing('plain'));
    expectError(
      file,
      'TOO_LARGE',
      undefined,
      'out of memory: Array buffer allocation failed',
      throwing(new RangeError('Array buffer allocation failed')),
    );
    expectError(
      file,
      'TOO_LARGE',
      undefined,
      'out of memory: Invalid typed array length: -1',
      throwing(new RangeError('Invalid typed array length: -1')),
    );
    expectError(
      file,
      'CORRUPT',
      undefined,
      'unexpected failure: out of range',
      throwing(new RangeError('out of range')),
    );
    const own = new ReplayError('CHECKSUM', 'mine', 'x');
    expect(error(file, throwing(own))).toBe(own);
  });

  it('the build check warns with both ids, and only when they differ', () => {
    expect(loadReplay(file, { expectedBuildId: 'build-A' }).warnings).toEqual([]);
    expect(loadReplay(file).warnings).toEqual([]);
    expect(loadReplay(file, { expectedBuildId: 'build-B' }).warnings).toEqual([
      {
        code: 'BUILD_MISMATCH',
        message:
          'the replay was recorded by build "build-A", this is build "build-B"; it may not match the current game',
      },
    ]);
  });
});

describe('loadReplay: the header blocks', () => {
  it('info', () => {
    expectError(
      edit((p) => sub(p.header, 'info').set('fields', [1])),
      'CORRUPT',
      'header.info.fields',
      'expected a map, found array',
    );
    const two = new Map([
      ['a', '1'],
      ['b', '2'],
    ]);
    const withTwo = edit((p) => sub(p.header, 'info').set('fields', two));
    expectError(withTwo, 'TOO_LARGE', 'header.info.fields', '2 fields exceed the limit of 1', {
      limits: { maxInfoFields: 1 },
    });
    expect({ ...loadReplay(withTwo, { limits: { maxInfoFields: 2 } }).info.fields }).toEqual({ a: '1', b: '2' });
    expectError(
      edit((p) => sub(p.header, 'info').set('fields', new Map([['k', 7]]))),
      'CORRUPT',
      'header.info.fields["k"]',
      'expected a string, found number',
    );
  });

  it('channels', () => {
    const channels = (p: FileParts): Array<Map<string, unknown>> =>
      p.header.get('channels') as Array<Map<string, unknown>>;
    expectError(
      edit((p) => p.header.set('channels', channels(p).slice(0, 2))),
      'CORRUPT',
      'header.channels',
      '2 channels, at least 3 expected',
    );
    expectError(
      edit((p) => channels(p)[2].set('name', 'physics')),
      'CORRUPT',
      'header.channels[2].name',
      'built-in channel 2 must be "animation", found "physics"',
    );
    expectError(
      edit((p) => channels(p)[4].set('name', 'network')),
      'CORRUPT',
      'header.channels[4].name',
      'channel "network" is listed twice',
    );
    expectError(
      edit((p) => channels(p)[3].set('color', 0x1000000)),
      'CORRUPT',
      'header.channels[3].color',
      'colour 16777216 is not an integer in [0, 0xFFFFFF]',
    );
    expectError(
      edit((p) => channels(p)[3].set('budget', -1)),
      'CORRUPT',
      'header.channels[3].budget',
      'budget -1 is not an integer in [0, 1048576]',
    );
    expect(loadReplay(file).channels.list()).toEqual(rec.channels.list());
  });

  it('kinds, event kinds and textures: kinds are unique, the others may repeat', () => {
    expectError(
      edit((p) => (p.header.get('kinds') as string[]).push('humanoid')),
      'CORRUPT',
      `header.kinds[${rec.entities.kinds.length}]`,
      '"humanoid" is listed twice',
    );
    const same = rec.eventKinds.map(() => 'a');
    expect(same.length).toBeGreaterThan(1);
    expect(loadReplay(edit((p) => p.header.set('eventKinds', same))).eventKinds).toEqual(same);
    expect(loadReplay(edit((p) => p.header.set('textures', ['t', 't']))).textures).toEqual(['t', 't']);
    expect(loadReplay(edit((p) => p.header.delete('textures'))).textures).toEqual([]);
  });

  it('skeletons', () => {
    const n = rec.entities.kinds.length;
    expectError(
      edit((p) => p.header.set('skeletons', new Array(n + 1).fill(null))),
      'TOO_LARGE',
      'header.skeletons',
      `${n + 1} elements exceed the limit of ${n}`,
    );
    expectError(
      edit((p) => p.header.set('skeletons', ['x'])),
      'CORRUPT',
      'header.skeletons[0]',
      'expected an array or nil, found string',
    );
    expectError(
      edit((p) => p.header.set('skeletons', [null, [1, 0]])),
      'CORRUPT',
      'header.skeletons[1]',
      "the skeleton bone 0's parent chain is a cycle",
    );
    const loaded = loadReplay(edit((p) => p.header.set('skeletons', [null, [-1, 0, 0]])));
    expect([loaded.entities.skeletons[0], [...(loaded.entities.skeletons[1] ?? [])]]).toEqual([undefined, [-1, 0, 0]]);
  });

  it('entity columns', () => {
    const column = (p: FileParts, key: string): unknown[] => sub(p.header, 'entities').get(key) as unknown[];
    const rows = (splitFile(file).header.get('entities') as Map<string, unknown[]>).get('handle')?.length ?? 0;
    expect(rows).toBeGreaterThan(2);
    expectError(
      edit((p) => {
        const h = column(p, 'handle') as number[];
        expect(h[1]).toBeGreaterThan(0);
        h[2] = h[1];
      }),
      'CORRUPT',
      'header.entities.handle[2]',
      'handles must be strictly increasing',
    );
    expectError(
      edit((p) => column(p, 'id').pop()),
      'CORRUPT',
      'header.entities.id',
      `${rows - 1} entries, the handle column has ${rows}`,
    );
    expectError(
      edit((p) => {
        column(p, 'spawnFrame')[1] = 9;
        column(p, 'lastFrame')[1] = 8;
      }),
      'CORRUPT',
      'header.entities.lastFrame[1]',
      '8 is before the spawn frame 9',
    );
    expectError(
      edit((p) => column(p, 'label').pop()),
      'CORRUPT',
      'header.entities.label',
      `${rows - 1} entries, the handle column has ${rows}`,
    );
    expectError(
      edit((p) => column(p, 'ended').pop()),
      'CORRUPT',
      'header.entities.ended',
      `${rows - 1} entries, the handle column has ${rows}`,
    );
    expectError(
      edit((p) => {
        column(p, 'ended')[2] = 1;
      }),
      'CORRUPT',
      'header.entities.ended[2]',
      'expected a boolean, found number',
    );
    expectError(
      edit((p) => {
        column(p, 'kind')[0] = rec.entities.kinds.length;
      }),
      'CORRUPT',
      'header.entities.kind[0]',
      `${rec.entities.kinds.length} is above ${rec.entities.kinds.length - 1}`,
    );
  });

  it('bookmarks', () => {
    expect(loadReplay(file).bookmarks).toEqual([{ frame: 20, label: 'b' }]);
    expectError(
      edit((p) => (p.header.get('bookmarks') as Array<Map<string, unknown>>)[0].set('frame', -1)),
      'CORRUPT',
      'header.bookmarks[0].frame',
      '-1 is below 0',
    );
    expectError(
      edit((p) => (p.header.get('bookmarks') as Array<Map<string, unknown>>)[0].set('label', 5)),
      'CORRUPT',
      'header.bookmarks[0].label',
      'expected a string, found number',
    );
  });

  it('static layers', () => {
    const layers = (p: FileParts): Array<Map<string, unknown>> =>
      p.header.get('staticLayers') as Array<Map<string, unknown>>;
    expectError(
      edit((p) => layers(p)[1].set('name', layers(p)[0].get('name'))),
      'CORRUPT',
      'header.staticLayers[1].name',
      'layer "navgrid" is listed twice',
    );
    expectError(
      edit((p) => layers(p)[0].set('words', new Uint8Array(6))),
      'CORRUPT',
      'header.staticLayers[0].words',
      '6 bytes is not a whole number of words',
    );
    const sizes = splitFile(file).header.get('staticLayers') as Array<Map<string, Uint8Array>>;
    const all = sizes.reduce((s, l) => s + (l.get('words')?.length ?? 0), 0);
    expectError(
      file,
      'TOO_LARGE',
      'header.staticLayers[1].words',
      `static layers exceed the limit of ${all - 1} bytes`,
      {
        limits: { maxStaticBytes: all - 1 },
      },
    );
    const loaded = loadReplay(file, { limits: { maxStaticBytes: all } });
    expect([loaded.staticLayers.get('walls')?.primCount, loaded.staticLayers.get('navgrid')?.primCount]).toEqual([
      1, 13,
    ]);
    expect(loaded.channels.usedMask).toBe(rec.channels.usedMask);
  });

  it('field schemas', () => {
    const schemas = (p: FileParts): Array<Map<string, unknown>> =>
      p.header.get('fieldSchemas') as Array<Map<string, unknown>>;
    expectError(
      edit((p) => schemas(p)[0].set('kind', 'fish')),
      'CORRUPT',
      'header.fieldSchemas[0].kind',
      '"fish" is not among the kinds',
    );
    expectError(
      edit((p) => schemas(p)[1].set('kind', schemas(p)[0].get('kind'))),
      'CORRUPT',
      'header.fieldSchemas[1].kind',
      '"humanoid" has two schemas',
    );
    expectError(
      edit((p) => (schemas(p)[1].get('types') as number[]).pop()),
      'CORRUPT',
      'header.fieldSchemas[1].types',
      '1 types for 2 names',
    );
    expectError(
      edit((p) => {
        (schemas(p)[1].get('names') as string[])[1] = 'alt';
      }),
      'CORRUPT',
      'header.fieldSchemas[1]',
      "declareFields('bird'): field 'alt' declared twice", // the recorder's message without its prefix
    );
    expectError(
      edit((p) => schemas(p)[0].set('enumNames', ['a', 'a'])),
      'CORRUPT',
      'header.fieldSchemas[0].enumNames[1]',
      '"a" is listed twice',
    );
  });

  it('the frames summary', () => {
    expectError(
      edit((p) => sub(p.header, 'frames').set('first', 0x7fffffff - 1)),
      'CORRUPT',
      'header.frames.count',
      'frames past 2147483647',
    );
    expectError(
      edit((p) => sub(p.header, 'frames').set('codec', 'zip')),
      'CORRUPT',
      'header.frames.codec',
      'unknown codec "zip"',
    );
  });
});

describe('loadReplay: the frames', () => {
  it('payload sizes against the header', () => {
    expectError(
      edit((p) => {
        p.frames[1] = p.frames[1].subarray(0, p.frames[1].length - 2);
      }),
      'CORRUPT',
      'frames[1]',
      `${splitFile(file).frames[1].length - 2} bytes is not a whole number of words`,
    );
    expectError(
      edit((p) => {
        p.frames[0] = new Uint8Array(12);
      }),
      'CORRUPT',
      'frames[0]',
      `frame of 3 words is shorter than its ${HEADER_WORDS}-word header`,
    );
    const words = splitFile(file).frames.reduce((s, b) => s + b.length / 4, 0);
    expectError(file, 'TOO_LARGE', 'header.frames.words', `${words} exceeds the limit of ${words - 1}`, {
      limits: { maxFrameBytes: words * 4 - 4 },
    });
    // A header that claims fewer words than the frames hold: the frames' own sizes hit the limit.
    expectError(
      edit((p) => sub(p.header, 'frames').set('words', words - 1)),
      'TOO_LARGE',
      'frames',
      `frame data exceeds the limit of ${words * 4 - 4} bytes`,
      { limits: { maxFrameBytes: words * 4 - 4 } },
    );
    expect(loadReplay(file, { limits: { maxFrameBytes: words * 4 } }).frameBytes).toBe(words * 4);
    expectError(
      edit((p) => sub(p.header, 'frames').set('words', words + 1)),
      'CORRUPT',
      'header.frames.words',
      `says ${words + 1} words, the frames hold ${words}`,
    );
    expectError(
      edit((p) => {
        p.frames[0] = new Uint8Array([0x80, 0x80, 0x80, 0x80, 0x80, 0x80]);
      }, packed),
      'CORRUPT',
      'frames[0]',
      'malformed word count',
    );
    expectError(
      edit((p) => {
        p.frames[0] = new Uint8Array([100, 0, 0]);
      }, packed),
      'CORRUPT',
      'frames[0]',
      '100 words cannot fit in 3 bytes',
    );
    expectError(
      edit((p) => {
        p.frames[2] = p.frames[2].subarray(0, p.frames[2].length - 1);
      }, packed),
      'CORRUPT',
      'frames[2]',
      'compressed data does not decode to the words it claims',
    );
  });

  it('the checksum: checked when present and asked for', () => {
    const parts = splitFile(file);
    const sum = sub(parts.header, 'frames').get('checksum') as number;
    const wrong = edit((p) => sub(p.header, 'frames').set('checksum', (sum ^ 1) >>> 0));
    expectError(
      wrong,
      'CHECKSUM',
      'frames',
      `frame data checksum is 0x${sum.toString(16)}, the header says 0x${((sum ^ 1) >>> 0).toString(16)}`,
    );
    expect(loadReplay(wrong, { verifyChecksum: false }).reader.frameCount).toBe(rec.reader.frameCount);
    const fixed = edit((p) => {
      sub(p.header, 'frames').set('checksum', 0);
      fixChecksum(p);
    });
    expect(loadReplay(fixed).reader.frameCount).toBe(rec.reader.frameCount);
  });
});

describe('loadReplay: every header value names its place', () => {
  it('a value of the wrong type, at each place of the header', () => {
    const at = (keys: string[], key: string | number, value: unknown) => (p: FileParts) => {
      let m: unknown = p.header;
      for (const k of keys) m = m instanceof Map ? m.get(k) : (m as unknown[])[Number(k)];
      if (m instanceof Map) m.set(key, value);
      else (m as unknown[])[Number(key)] = value;
    };
    const cases: Array<[string[], string | number, string]> = [
      [[], 'info', 'header.info'],
      [['info'], 'platform', 'header.info.platform'],
      [['info'], 'note', 'header.info.note'],
      [[], 'channels', 'header.channels'],
      [['channels', '3'], 'name', 'header.channels[3].name'],
      [['kinds'], 0, 'header.kinds[0]'],
      [[], 'entities', 'header.entities'],
      [['entities'], 'handle', 'header.entities.handle'],
      [['entities'], 'label', 'header.entities.label'],
      [['entities', 'label'], 0, 'header.entities.label[0]'],
      [['entities'], 'ended', 'header.entities.ended'],
      [[], 'bookmarks', 'header.bookmarks'],
      [[], 'staticLayers', 'header.staticLayers'],
      [['staticLayers', '0'], 'name', 'header.staticLayers[0].name'],
      [['staticLayers', '0'], 'primCount', 'header.staticLayers[0].primCount'],
      [['staticLayers', '0'], 'words', 'header.staticLayers[0].words'],
      [[], 'fieldSchemas', 'header.fieldSchemas'],
      [['fieldSchemas', '0'], 'kind', 'header.fieldSchemas[0].kind'],
      [['fieldSchemas', '0'], 'names', 'header.fieldSchemas[0].names'],
      [['fieldSchemas', '0'], 'types', 'header.fieldSchemas[0].types'],
      [['fieldSchemas', '0'], 'enumNames', 'header.fieldSchemas[0].enumNames'],
      [[], 'frames', 'header.frames'],
      [['frames'], 'codec', 'header.frames.codec'],
      [['frames'], 'checksum', 'header.frames.checksum'],
      [[], 'buildId', 'header.buildId'],
      [[], 'savedAt', 'header.savedAt'],
      [[], 'eventKinds', 'header.eventKinds'],
      [[], 'textures', 'header.textures'],
    ];
    for (const [keys, key, path] of cases) {
      const e = error(edit(at(keys, key, true)));
      expect([e.code, e.path, e.detail]).toEqual(['CORRUPT', path, expect.stringMatching(/found boolean$/)]);
    }
    const enumName = error(
      edit((p) =>
        ((p.header.get('fieldSchemas') as Array<Map<string, unknown>>)[0].get('enumNames') as unknown[]).push(true),
      ),
    );
    expect([enumName.path, enumName.detail]).toEqual([
      'header.fieldSchemas[0].enumNames[3]',
      'expected a string, found boolean',
    ]);
    // A static layer's primitives are checked under the layer's path.
    const prim = error(
      edit((p) => (p.header.get('staticLayers') as Array<Map<string, unknown>>)[0].set('primCount', 99)),
    );
    expect([prim.code, prim.path?.startsWith('header.staticLayers[0].words')]).toEqual(['CORRUPT', true]);
  });

  it('names in messages are cut to 64 characters', () => {
    const long = 'n'.repeat(70);
    const cut = JSON.stringify(long.slice(0, 64));
    const channels = (p: FileParts): Array<Map<string, unknown>> =>
      p.header.get('channels') as Array<Map<string, unknown>>;
    const schemas = (p: FileParts): Array<Map<string, unknown>> =>
      p.header.get('fieldSchemas') as Array<Map<string, unknown>>;
    const layers = (p: FileParts): Array<Map<string, unknown>> =>
      p.header.get('staticLayers') as Array<Map<string, unknown>>;
    const cases: Array<[(p: FileParts) => void, string, string]> = [
      [
        (p) => channels(p)[0].set('name', long),
        'header.channels[0].name',
        `built-in channel 0 must be "ai", found ${cut}`,
      ],
      [
        (p) => {
          channels(p)[3].set('name', long);
          channels(p)[4].set('name', long);
        },
        'header.channels[4].name',
        `channel ${cut} is listed twice`,
      ],
      [(p) => p.header.set('kinds', [long, long]), 'header.kinds[1]', `${cut} is listed twice`],
      [
        (p) => {
          layers(p)[0].set('name', long);
          layers(p)[1].set('name', long);
        },
        'header.staticLayers[1].name',
        `layer ${cut} is listed twice`,
      ],
      [(p) => schemas(p)[0].set('kind', long), 'header.fieldSchemas[0].kind', `${cut} is not among the kinds`],
      [
        (p) => schemas(p)[0].set('enumNames', [long, long]),
        'header.fieldSchemas[0].enumNames[1]',
        `${cut} is listed twice`,
      ],
      [(p) => sub(p.header, 'frames').set('codec', long), 'header.frames.codec', `unknown codec ${cut}`],
      [
        (p) => {
          (p.header.get('kinds') as string[])[0] = long;
          schemas(p)[0].set('kind', long);
          schemas(p)[1].set('kind', long);
        },
        'header.fieldSchemas[1].kind',
        `${cut} has two schemas`,
      ],
      [
        (p) => sub(p.header, 'info').set('fields', new Map([[long, 5]])),
        `header.info.fields[${cut}]`,
        'expected a string, found number',
      ],
    ];
    for (const [fn, path, detail] of cases) {
      const e = error(edit(fn));
      expect([e.path, e.detail]).toEqual([path, detail]);
    }
  });

  it('a format-3 file without field schemas loads (none declared)', () => {
    const plain = saveReplay(makeRecording({ frames: 5, entities: 3, seed: 2, fields: false }), { buildId: 'b' });
    const without = edit((p) => p.header.delete('fieldSchemas'), plain);
    expect(splitFile(without).version).toBe(3);
    expect(loadReplay(without).reader.frameCount).toBe(loadReplay(plain).reader.frameCount);
  });
});
