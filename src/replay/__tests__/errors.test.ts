import { Packr } from 'msgpackr';
import { describe, expect, it } from 'vitest';
import {
  HEADER_WORDS,
  H_BONE_WORDS,
  H_ENTITY_COUNT,
  H_EVENT_COUNT,
  H_FRAME,
  H_PRIM_COUNT,
  H_PRIM_WORDS,
  PRIM_TEXT,
  PRIM_WORDS,
} from '../../core/format/layout';
import { loadReplay } from '../loadReplay';
import type { LoadReplayOptions } from '../loadReplay';
import { ReplayError } from '../ReplayError';
import type { ReplayErrorCode, ReplayWarning } from '../ReplayError';
import { saveReplay } from '../saveReplay';
import {
  fixChecksum,
  frameWords,
  joinFile,
  makeRecording,
  putFrameWords,
  recorderFingerprint,
  splitFile,
  sub,
} from './helpers';
import type { FileParts } from './helpers';

const rec = makeRecording({ frames: 80, entities: 10, seed: 21 });
const file = saveReplay(rec, { buildId: 'build-A', note: 'n', savedAt: 't', bookmarks: [{ frame: 70, label: 'x' }] });
const packedFile = saveReplay(rec, { buildId: 'build-A', savedAt: 't', compression: 'xor-delta' });

/** Loads, expecting a ReplayError of `code`; returns it (and the work done). */
function rejects(
  bytes: Uint8Array,
  code: ReplayErrorCode,
  options: Partial<LoadReplayOptions> = {},
): ReplayError & { work: number } {
  const work = { units: 0 };
  let caught: unknown = null;
  try {
    loadReplay(bytes, { ...options, workCounter: work });
  } catch (e) {
    caught = e;
  }
  expect(caught).toBeInstanceOf(ReplayError);
  const err = caught as ReplayError;
  expect(err.code, err.message).toBe(code);
  // No claimed count drives the work: it stays proportional to the bytes present.
  expect(work.units).toBeLessThanOrEqual(bytes.length * 4 + 64);
  return Object.assign(err, { work: work.units });
}

function edit(fn: (p: FileParts) => void, source = file): Uint8Array {
  const parts = splitFile(source);
  fn(parts);
  return joinFile(parts.version, parts.header, parts.frames);
}

/** Offset (in words) of the first text record of a frame's primitive section, or -1. */
function firstText(words: Uint32Array): number {
  const n = words[H_ENTITY_COUNT];
  let w = HEADER_WORDS + n * 5 + words[H_BONE_WORDS];
  const end = w + words[H_PRIM_WORDS];
  while (w < end) {
    const type = words[w] & 7;
    if (type === PRIM_TEXT) return w;
    w += PRIM_WORDS[type];
  }
  return -1;
}

describe('loadReplay rejects bad files with a typed error', () => {
  it('accepts the unmodified file (the baseline of every case below)', () => {
    expect(loadReplay(file).reader.frameCount).toBe(rec.ring.frameCount);
    expect(loadReplay(packedFile).reader.frameCount).toBe(rec.ring.frameCount);
    expect(loadReplay(new Uint8Array(file).buffer).reader.frameCount).toBe(rec.ring.frameCount);
  });

  it('BAD_MAGIC: not a replay', () => {
    rejects(new TextEncoder().encode('{"json": true}'), 'BAD_MAGIC');
    rejects(Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a), 'BAD_MAGIC');
    const wrong = file.slice();
    wrong[4] = 0x45; // RWNE
    expect(rejects(wrong, 'BAD_MAGIC').path).toBe('magic');
    expect(rejects(joinFile(1, new Map(), [], 'RWNDX'), 'BAD_MAGIC').message).toContain('RWND');
  });

  it('NEWER_VERSION: a clear error, even when the rest is not readable by this version', () => {
    const newer = file.slice();
    newer[5] = 4;
    const err = rejects(newer, 'NEWER_VERSION');
    expect(err.message).toMatch(/version 4.*up to 3.*Update/);
    const future = new Uint8Array([...file.subarray(0, 5), 0xce, 0, 1, 0, 0, 0xc1, 0xc1]);
    expect(rejects(future, 'NEWER_VERSION').message).toContain('65536');
  });

  it('UNSUPPORTED_VERSION and a version that is not an integer', () => {
    const zero = file.slice();
    zero[5] = 0;
    rejects(zero, 'UNSUPPORTED_VERSION');
    rejects(joinFile('1', new Map(), []), 'CORRUPT');
    rejects(joinFile(-1, new Map(), []), 'CORRUPT');
  });

  it('TRUNCATED: every cut of the file', () => {
    const cuts = new Set<number>();
    for (let i = 0; i < 400; i++) cuts.add(i);
    for (let i = 400; i < file.length; i += 97) cuts.add(i);
    for (let i = Math.max(0, file.length - 300); i < file.length; i++) cuts.add(i);
    for (const cut of cuts) rejects(file.subarray(0, cut), 'TRUNCATED');
    for (let i = 0; i < packedFile.length; i += 211) rejects(packedFile.subarray(0, i), 'TRUNCATED');
  });

  it('CORRUPT: bytes after the frames', () => {
    const longer = new Uint8Array(file.length + 3);
    longer.set(file);
    expect(rejects(longer, 'CORRUPT').path).toBe('file');
  });

  it('BUILD_MISMATCH is a warning: the file still loads', () => {
    const seen: ReplayWarning[] = [];
    const replay = loadReplay(file, { expectedBuildId: 'build-B', onWarning: (w) => seen.push(w) });
    expect(replay.reader.frameCount).toBe(rec.ring.frameCount);
    expect(replay.warnings.map((w) => w.code)).toEqual(['BUILD_MISMATCH']);
    expect(replay.warnings[0].message).toContain('build-A');
    expect(seen).toEqual(replay.warnings);
    // A throwing listener does not break the load.
    expect(
      loadReplay(file, {
        expectedBuildId: 'x',
        onWarning: () => {
          throw new Error('boom');
        },
      }).warnings.length,
    ).toBe(1);
    expect(loadReplay(file, { expectedBuildId: 'build-A' }).warnings).toEqual([]);
  });

  it('unknown fields (from a newer writer of the same version) are ignored with a warning', () => {
    const bytes = edit((p) => {
      p.header.set('futureField', [1, 2, 3]);
      sub(p.header, 'info').set('extra', 'x');
    });
    const replay = loadReplay(bytes);
    expect(replay.warnings.map((w) => w.code)).toEqual(['UNKNOWN_FIELD', 'UNKNOWN_FIELD']);
    expect(replay.warnings.map((w) => w.message).join()).toMatch(/futureField.*extra|extra.*futureField/);
  });

  it('unknown-field warnings are capped, and the build mismatch is always reported', () => {
    const bytes = edit((p) => {
      for (let i = 0; i < 200; i++) p.header.set(`extra${i}`, i);
    });
    const replay = loadReplay(bytes, { expectedBuildId: 'other' });
    expect(replay.warnings.length).toBeLessThan(70);
    expect(replay.warnings.filter((w) => w.code === 'BUILD_MISMATCH').length).toBe(1);
    expect(replay.warnings[replay.warnings.length - 1].message).toMatch(/more warnings/);
  });

  it('oversized counts claimed in the header are refused before anything is allocated', () => {
    expect(
      rejects(
        edit((p) => sub(p.header, 'frames').set('count', 2 ** 31)),
        'TOO_LARGE',
      ).path,
    ).toBe('header.frames.count');
    expect(
      rejects(
        edit((p) => sub(p.header, 'frames').set('count', p.frames.length + 1)),
        'CORRUPT',
      ).path,
    ).toBe('frames');
    expect(
      rejects(
        edit((p) => sub(p.header, 'frames').set('count', 5000)),
        'CORRUPT',
      ).path,
    ).toBe('header.frames.words');
    expect(
      rejects(
        edit((p) => sub(p.header, 'frames').set('words', 2n ** 40n)),
        'TOO_LARGE',
      ).path,
    ).toBe('header.frames.words');
    expect(
      rejects(
        edit((p) => sub(p.header, 'frames').set('words', 123456)),
        'CORRUPT',
      ).path,
    ).toBe('header.frames.words');
    const handles = (p: FileParts): number[] => sub(p.header, 'entities').get('handle') as number[];
    // A handle has 24 bits: 2^24 is not one (the format, not a limit).
    expect(
      rejects(
        edit((p) => {
          const h = handles(p);
          h[h.length - 1] = 2 ** 24;
        }),
        'CORRUPT',
      ).path,
    ).toMatch(/^header\.entities\.handle\[\d+\]$/);
    expect(
      rejects(
        edit((p) => {
          (sub(p.header, 'entities').get('id') as number[])[0] = 2 ** 30;
        }),
        'TOO_LARGE',
      ).path,
    ).toBe('header.entities.id[0]');
    expect(
      rejects(
        edit((p) => {
          (sub(p.header, 'entities').get('id') as number[])[0] = 2 ** 29;
        }),
        'TOO_LARGE',
        { limits: { maxEntityId: 2 ** 24 } },
      ).path,
    ).toBe('header.entities.id[0]');
    rejects(
      edit((p) => sub(p.header, 'info').set('note', 'x'.repeat(200))),
      'TOO_LARGE',
      { limits: { maxStringLength: 100 } },
    );
    rejects(file, 'TOO_LARGE', { limits: { maxFileBytes: 1000 } });
    rejects(file, 'TOO_LARGE', { limits: { maxFrameBytes: 1000 } });
    rejects(
      edit((p) =>
        p.header.set(
          'bookmarks',
          Array.from(
            { length: 20 },
            () =>
              new Map<string, unknown>([
                ['frame', 1],
                ['label', ''],
              ]),
          ),
        ),
      ),
      'TOO_LARGE',
      { limits: { maxBookmarks: 10 } },
    );
    const channels = (p: FileParts): unknown[] => p.header.get('channels') as unknown[];
    rejects(
      edit((p) => {
        const c = channels(p);
        while (c.length < 33)
          c.push(
            new Map<string, unknown>([
              ['name', `c${c.length}`],
              ['color', 0],
              ['budget', 1],
            ]),
          );
      }),
      'TOO_LARGE',
    );
  });

  it('oversized counts claimed in frame headers are refused', () => {
    const frame = (fn: (w: Uint32Array) => void, code: ReplayErrorCode, fix = true): ReplayError =>
      rejects(
        edit((p) => {
          const w = frameWords(p, 3);
          fn(w);
          putFrameWords(p, 3, w);
          if (fix) fixChecksum(p);
        }),
        code,
      );
    expect(
      frame((w) => {
        w[H_ENTITY_COUNT] = 0xffffffff;
      }, 'TOO_LARGE').path,
    ).toBe('frames[3].entityCount');
    // One entity more: the sections overrun the frame, or (with a field section) its words read as entities.
    expect(
      frame((w) => {
        w[H_ENTITY_COUNT] += 1;
      }, 'CORRUPT').path,
    ).toMatch(/^frames\[3\]/);
    expect(
      frame((w) => {
        w[H_PRIM_WORDS] = 0xfffffff0;
      }, 'CORRUPT').message,
    ).toContain('section sizes');
    expect(
      frame((w) => {
        w[H_EVENT_COUNT] = 0x40000000;
      }, 'CORRUPT').message,
    ).toContain('section sizes');
    expect(
      frame((w) => {
        w[H_PRIM_COUNT] += 1;
      }, 'CORRUPT').path,
    ).toBe('frames[3].primitives');
    expect(
      frame((w) => {
        w[H_FRAME] += 1;
      }, 'CORRUPT').path,
    ).toBe('frames[3].frame');
    // A text length near 2^32 must not wrap around to a small record.
    expect(
      frame((w) => {
        w[firstText(w) + 4] = 0xfffffffd;
      }, 'CORRUPT').message,
    ).toContain('overruns');
    // A bone record claiming 4095 bones overruns its section.
    expect(
      frame((w) => {
        const n = w[H_ENTITY_COUNT];
        expect(w[H_BONE_WORDS]).toBeGreaterThan(0);
        const b = HEADER_WORDS + n * 5;
        w[b] = (w[b] & 0xfffff) | (4095 << 20);
      }, 'CORRUPT').message,
    ).toContain('overrun');
    // A handle that is not in the entity table.
    expect(
      frame((w) => {
        w[HEADER_WORDS] = (w[HEADER_WORDS] & 0xff000000) | 0xfffff;
      }, 'CORRUPT').message,
    ).toContain('not in the entity table');
    // Without fixing the checksum, the same edits are caught by it (when the structure is still valid).
    expect(
      frame(
        (w) => {
          w[HEADER_WORDS + w[H_ENTITY_COUNT]] ^= 1;
        },
        'CHECKSUM',
        false,
      ).path,
    ).toBe('frames');
  });

  it('a compressed frame cannot claim more words than its bytes hold', () => {
    const bytes = edit((p) => {
      // varint of 2^34 words, then two bytes.
      p.frames[2] = Uint8Array.of(0x80, 0x80, 0x80, 0x80, 0x40, 0, 0);
    }, packedFile);
    expect(rejects(bytes, 'CORRUPT').message).toContain('cannot fit');
    const inconsistent = edit((p) => {
      const b = p.frames[2];
      p.frames[2] = b.subarray(0, b.length - 1);
    }, packedFile);
    rejects(inconsistent, 'CORRUPT');
  });

  it('MessagePack-level lies (huge array, map and bin lengths) are refused quickly', () => {
    const parts = splitFile(file);
    const head = joinFile(parts.version, parts.header, []).subarray(0, -1); // without the empty frames array
    const withFrames = (tail: number[]): Uint8Array => new Uint8Array([...head, ...tail]);
    rejects(withFrames([0xdd, 0xff, 0xff, 0xff, 0xff, 0xc4, 0x00]), 'TRUNCATED');
    rejects(withFrames([0x91, 0xc6, 0xff, 0xff, 0xff, 0xf0, 1, 2, 3]), 'TRUNCATED');
    const prefix = file.subarray(0, 6);
    rejects(new Uint8Array([...prefix, 0xdf, 0xff, 0xff, 0xff, 0xff, 0xa1, 0x61]), 'TRUNCATED');
    // Nesting deep enough to overflow a recursive decoder's stack: refused at 64 levels.
    rejects(new Uint8Array([...prefix, ...new Array<number>(200000).fill(0x91), 0xc0, 0x90]), 'TOO_LARGE');
  });

  it('never applies __proto__ or constructor keys to objects', () => {
    const pollute = new Map<string, unknown>([['polluted', true]]);
    const bytes = edit((p) => {
      p.header.set('__proto__', pollute);
      p.header.set('constructor', new Map([['prototype', pollute]]));
      const fields = new Map<string, unknown>([
        ['__proto__', 'proto value'],
        ['constructor', 'ctor value'],
        ['toString', 'str'],
      ]);
      sub(p.header, 'info').set('fields', fields);
      (p.header.get('channels') as Array<Map<string, unknown>>)[0].set('__proto__', pollute);
    });
    const replay = loadReplay(bytes);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    const fields = replay.info.fields;
    expect(Object.getPrototypeOf(fields)).toBeNull();
    expect(Object.getOwnPropertyDescriptor(fields, '__proto__')?.value).toBe('proto value');
    expect(fields.constructor).toBe('ctor value');
    expect(fields.toString).toBe('str');
    expect(replay.warnings.map((w) => w.message).join('\n')).toContain('"__proto__"');
    expect(JSON.parse(JSON.stringify(fields))).toEqual({
      constructor: 'ctor value',
      toString: 'str',
      ['__proto__']: 'proto value',
    });
  });

  it('values of the wrong MessagePack type are CORRUPT with a path (records, extensions, strings for numbers)', () => {
    // msgpackr's record extension instead of plain maps.
    const records = new Packr({ useRecords: true });
    const parts = splitFile(file);
    const obj = Object.fromEntries(
      [...parts.header].map(([k, v]) => [k, v instanceof Map ? Object.fromEntries(v) : v]),
    );
    const recBytes = new Uint8Array([...file.subarray(0, 6), ...records.pack(obj), ...records.pack(parts.frames)]);
    expect(rejects(recBytes, 'CORRUPT').path).toMatch(/^header/);
    expect(
      rejects(
        edit((p) => p.header.set('buildId', new Date(0))),
        'CORRUPT',
      ).path,
    ).toBe('header.buildId');
    expect(
      rejects(
        edit((p) => p.header.set('buildId', new Error('x'))),
        'CORRUPT',
      ).path,
    ).toMatch(/^header\.buildId/);
    expect(
      rejects(
        edit((p) => sub(p.header, 'frames').set('first', '12')),
        'CORRUPT',
      ).path,
    ).toBe('header.frames.first');
    expect(
      rejects(
        edit((p) => sub(p.header, 'frames').set('first', 1.5)),
        'CORRUPT',
      ).path,
    ).toBe('header.frames.first');
    expect(
      rejects(
        edit((p) => sub(p.header, 'frames').set('codec', 'zstd')),
        'CORRUPT',
      ).path,
    ).toBe('header.frames.codec');
    expect(
      rejects(
        edit((p) => p.header.delete('entities')),
        'CORRUPT',
      ).path,
    ).toBe('header.entities');
    expect(
      rejects(
        edit((p) => {
          p.frames[0] = p.frames[0].subarray(0, 10);
        }),
        'CORRUPT',
      ).path,
    ).toBe('frames[0]');
    expect(
      rejects(
        joinFile(
          1,
          parts.header,
          parts.frames.map(() => 'x'),
        ),
        'CORRUPT',
      ).path,
    ).toBe('frames[0]');
  });

  it('inconsistent metadata is CORRUPT', () => {
    const ents = (p: FileParts, k: string): unknown[] => sub(p.header, 'entities').get(k) as unknown[];
    rejects(
      edit((p) => {
        ents(p, 'label').pop();
      }),
      'CORRUPT',
    );
    rejects(
      edit((p) => {
        const h = ents(p, 'handle');
        [h[0], h[1]] = [h[1], h[0]];
      }),
      'CORRUPT',
    );
    rejects(
      edit((p) => {
        ents(p, 'kind')[0] = 99;
      }),
      'CORRUPT',
    );
    rejects(
      edit((p) => {
        const s = ents(p, 'spawnFrame') as number[];
        s[0] = 1e6;
      }),
      'CORRUPT',
    );
    rejects(
      edit((p) => {
        const l = ents(p, 'lastFrame') as number[];
        l[l.length - 1] = 0;
      }),
      'CORRUPT',
    );
    rejects(
      edit((p) => {
        sub(p.header, 'frames').set('first', (sub(p.header, 'frames').get('first') as number) + 1);
      }),
      'CORRUPT',
    );
    expect(
      rejects(
        edit((p) => {
          (p.header.get('skeletons') as number[][])[0] = [1, 2, 0];
        }),
        'CORRUPT',
      ).message,
    ).toContain('cycle');
    rejects(
      edit((p) => {
        (p.header.get('skeletons') as number[][])[0] = [-1, 7];
      }),
      'CORRUPT',
    );
    rejects(
      edit((p) => {
        (p.header.get('channels') as Array<Map<string, unknown>>)[1].set('name', 'phys');
      }),
      'CORRUPT',
    );
    rejects(
      edit((p) => {
        (p.header.get('channels') as Array<Map<string, unknown>>)[4].set('name', 'network');
      }),
      'CORRUPT',
    );
    rejects(
      edit((p) => {
        (p.header.get('kinds') as string[]).push('bird');
      }),
      'CORRUPT',
    );
    rejects(
      edit((p) => {
        (p.header.get('staticLayers') as Array<Map<string, unknown>>)[0].set('primCount', 3);
      }),
      'CORRUPT',
    );
    rejects(
      edit((p) => {
        p.header.set('eventKinds', []);
      }),
      'CORRUPT',
    );
  });

  it('none of this touched the recording', () => {
    const before = recorderFingerprint(rec);
    rejects(file.subarray(0, 100), 'TRUNCATED');
    loadReplay(file);
    expect(recorderFingerprint(rec)).toBe(before);
  });
});

describe('saveReplay refuses bad input with a typed error', () => {
  it('BAD_INPUT', () => {
    const bad = (options: Parameters<typeof saveReplay>[1], path: string): void => {
      let caught: unknown = null;
      try {
        saveReplay(rec, options);
      } catch (e) {
        caught = e;
      }
      expect(caught).toBeInstanceOf(ReplayError);
      expect((caught as ReplayError).code).toBe('BAD_INPUT');
      expect((caught as ReplayError).path).toBe(path);
    };
    bad({ bookmarks: [{ frame: 1.5, label: 'x' }] }, 'options.bookmarks[0].frame');
    bad({ bookmarks: [{ frame: 1, label: 7 as unknown as string }] }, 'options.bookmarks[0].label');
    bad({ note: null as unknown as string }, 'options.note');
    bad({ compression: 'zip' as unknown as 'none' }, 'options.compression');
    bad({ fields: { a: 1 as unknown as string } }, 'options.fields.a');
    bad({ buildId: 'x'.repeat(70000) }, 'options.buildId');
  });
});
