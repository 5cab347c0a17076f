import { describe, expect, it } from 'vitest';
import { decodePrimitives } from '../../core/read/FrameReader';
import { EntityBuffer, EventBuffer, FrameHeader, PrimitiveBuffer } from '../../core/read/buffers';
import { loadReplay } from '../loadReplay';
import type { LoadedReplay } from '../loadReplay';
import { ReplayError } from '../ReplayError';
import { saveReplay } from '../saveReplay';
import { HEADER_WORDS, H_BONE_WORDS, H_CAM_ROT, H_ENTITY_COUNT, H_TIME } from '../../core/format/layout';
import { Recorder } from '../../core/record/Recorder';
import type { ReplayErrorCode } from '../ReplayError';
import {
  expectSameFrames,
  fixChecksum,
  frameWords,
  joinFile,
  makeRecording,
  putFrameWords,
  recorderFingerprint,
  rng,
  splitFile,
  sub,
} from './helpers';
import type { FileParts } from './helpers';

// RWD_FUZZ_CASES: fewer cases for the mutation run (vitest.mutation.config.ts); 5,200 per file otherwise.
const CASES_PER_FILE = Number(process.env.RWD_FUZZ_CASES ?? 5200);
const MAX_HANDLES = 4096;

const header = new FrameHeader();
const ents = new EntityBuffer();
const prims = new PrimitiveBuffer();
const events = new EventBuffer();

/** Everything a viewer would decode from an accepted file: must not throw, must stay in bounds and finite. */
function decodeEverything(replay: LoadedReplay): void {
  const r = replay.reader;
  const finite = (a: Float32Array, n: number): void => {
    for (let i = 0; i < n; i++) if (!Number.isFinite(a[i])) throw new Error(`non-finite value decoded at ${i}`);
  };
  for (let f = r.oldestFrame; r.frameCount > 0 && f <= r.newestFrame; f++) {
    if (
      !r.readHeader(f, header) ||
      !r.readEntities(f, ents) ||
      !r.readPrimitives(f, 0xffffffff, prims) ||
      !r.readEvents(f, events)
    ) {
      throw new Error(`frame ${f} not readable`);
    }
    finite(header.camera, 8);
    finite(ents.positions, ents.count * 3);
    finite(ents.rotations, ents.count * 4);
    finite(ents.boneRotations, ents.boneTotal * 4);
    finite(ents.boneOffsets, ents.boneTotal * 3);
    for (let i = 0; i < ents.count; i++) {
      const h = ents.handles[i];
      if (h >= replay.entities.highWater || replay.entities.used[h] !== 1)
        throw new Error(`frame ${f}: dangling handle ${h}`);
    }
    finite(prims.data, prims.count * 7);
    if (prims.count !== header.primitiveCount)
      throw new Error(`frame ${f}: ${prims.count} of ${header.primitiveCount} primitives decoded`);
    for (let i = 0; i < prims.count; i++) {
      if (prims.channels[i] >= replay.channels.count) throw new Error('primitive on a missing channel');
      prims.text(i);
    }
    for (let i = 0; i < events.count; i++)
      if (events.kinds[i] >= replay.eventKinds.length) throw new Error('unknown event kind');
    finite(events.data, events.count * 4);
  }
  for (const layer of replay.staticLayers.list()) {
    const w = layer.words;
    decodePrimitives(
      w,
      new Float32Array(w.buffer, w.byteOffset, w.length),
      new Uint8Array(w.buffer, w.byteOffset, w.byteLength),
      0,
      w.length,
      layer.primCount,
      0xffffffff,
      prims,
    );
    if (prims.count !== layer.primCount) throw new Error('static layer decodes short');
  }
}

const INTERESTING_BYTES = [
  0x00, 0xff, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xc4, 0xc6, 0xca, 0xcb, 0xce, 0xcf, 0xd4,
  0xd9, 0xdb, 0xdc, 0xdd, 0xde, 0xdf, 0xe0,
];
const INTERESTING_WORDS = [
  0,
  1,
  0xffffffff,
  0x7fffffff,
  0x80000000,
  0xfffffffd,
  1 << 20,
  1 << 24,
  0x7fc00000 /* NaN */,
  0x7f800000 /* Inf */,
  22,
];

/** One seeded mutation (or a few stacked): bit flips, byte and word overwrites, cuts, deletions, insertions, splices. */
function mutate(src: Uint8Array, headerEnd: number, r: () => number): Uint8Array {
  let b = src.slice();
  const pos = (len: number): number => Math.floor((r() < 0.5 ? Math.min(headerEnd, len) : len) * r());
  const ops = 1 + Math.floor(r() * r() * 3);
  for (let k = 0; k < ops && b.length > 0; k++) {
    const op = Math.floor(r() * 8);
    if (op === 0) {
      for (let i = 1 + Math.floor(r() * 4); i > 0; i--) b[pos(b.length)] ^= 1 << Math.floor(r() * 8);
    } else if (op === 1) {
      for (let i = 1 + Math.floor(r() * 8); i > 0; i--) b[pos(b.length)] = Math.floor(r() * 256);
    } else if (op === 2) {
      b[pos(b.length)] = INTERESTING_BYTES[Math.floor(r() * INTERESTING_BYTES.length)];
    } else if (op === 3) {
      const at = pos(b.length - 4);
      const v = r() < 0.8 ? INTERESTING_WORDS[Math.floor(r() * INTERESTING_WORDS.length)] : Math.floor(r() * 2 ** 32);
      for (let i = 0; i < 4 && at + i < b.length; i++) b[at + i] = (v >>> (8 * i)) & 0xff;
    } else if (op === 4) {
      b = b.slice(0, Math.floor(b.length * r()));
    } else if (op === 5) {
      const at = pos(b.length);
      const n = 1 + Math.floor(r() * 64);
      b = new Uint8Array([...b.subarray(0, at), ...b.subarray(at + n)]);
    } else if (op === 6) {
      const at = pos(b.length);
      const ins = Array.from({ length: 1 + Math.floor(r() * 16) }, () => Math.floor(r() * 256));
      b = new Uint8Array([...b.subarray(0, at), ...ins, ...b.subarray(at)]);
    } else {
      const from = pos(b.length);
      const n = Math.floor(r() * 200);
      const to = pos(b.length);
      b = new Uint8Array([...b.subarray(0, to), ...b.subarray(from, from + n), ...b.subarray(to)]);
    }
  }
  return b;
}

describe('fuzzing loadReplay with real files', () => {
  it(`${2 * CASES_PER_FILE} seeded mutations and truncations: only ReplayError escapes, work is bounded, the live recording is unchanged`, () => {
    const rec = makeRecording({ frames: 40, entities: 8, seed: 99, options: { maxFrames: 24 } });
    const fingerprint = recorderFingerprint(rec);
    const options = {
      buildId: 'fuzz',
      note: 'fuzz me',
      savedAt: 'x',
      bookmarks: [{ frame: 30, label: 'b' }],
      fields: { k: 'v' },
    };
    const files = [saveReplay(rec, options), saveReplay(rec, { ...options, compression: 'xor-delta' })];
    const outcomes = new Map<string, number>();
    const failures: string[] = [];
    let cases = 0;
    for (const [fi, file] of files.entries()) {
      // Where the header ends: mutations aim at it half the time (it is small next to the frames).
      const parts = splitFile(file);
      const headerEnd = joinFile(parts.version, parts.header, []).length;
      const r = rng(1234 + fi);
      for (let c = 0; c < CASES_PER_FILE; c++) {
        const bytes = mutate(file, headerEnd, r);
        const work = { units: 0 };
        cases++;
        try {
          const replay = loadReplay(bytes, {
            verifyChecksum: c % 2 === 0,
            workCounter: work,
            limits: { maxHandles: MAX_HANDLES },
          });
          decodeEverything(replay);
          outcomes.set('loaded', (outcomes.get('loaded') ?? 0) + 1);
        } catch (e) {
          // A ReplayError wrapping an unexpected exception would be a validation gap: count it as a failure.
          if (e instanceof ReplayError && !e.message.includes('unexpected failure'))
            outcomes.set(e.code, (outcomes.get(e.code) ?? 0) + 1);
          else if (failures.length < 10) failures.push(`file ${fi} case ${c}: ${String(e)}`);
          else failures.push('');
        }
        // The loader's work is bounded by the bytes it was given (16 words per compressed byte at most).
        if (work.units > bytes.length * 20 + 2 * MAX_HANDLES + 1000 && failures.length < 10) {
          failures.push(`file ${fi} case ${c}: ${work.units} work units for ${bytes.length} bytes`);
        }
      }
    }
    expect(failures.filter((f) => f !== '')).toEqual([]);
    expect(failures.length).toBe(0);
    expect(cases).toBe(2 * CASES_PER_FILE);
    // The corpus exercised the validators, not just one early exit.
    for (const code of ['TRUNCATED', 'CORRUPT', 'CHECKSUM', 'BAD_MAGIC', 'loaded'])
      expect(outcomes.get(code) ?? 0, code).toBeGreaterThan(0);
    expect(recorderFingerprint(rec)).toBe(fingerprint);
  });
});

/** The encoded bytes of a short marker string (a MessagePack fixstr), to swap for hand-made bytes. */
function fixstr(marker: string): number[] {
  return [0xa0 | marker.length, ...Array.from(marker, (c) => c.charCodeAt(0))];
}

/** `bytes` with the one occurrence of `marker`'s encoding replaced by `by`. */
function swap(bytes: Uint8Array, marker: string, by: number[]): Uint8Array {
  const m = fixstr(marker);
  let at = -1;
  for (let i = 0; i + m.length <= bytes.length && at < 0; i++) if (m.every((b, k) => bytes[i + k] === b)) at = i;
  expect(at).toBeGreaterThanOrEqual(0);
  return new Uint8Array([...bytes.subarray(0, at), ...by, ...bytes.subarray(at + m.length)]);
}

function f64(v: number): number[] {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setFloat64(0, v);
  return [0xcb, ...b];
}

describe('every class of bad file the loader once accepted is refused, typed, with a path', () => {
  const base = makeRecording({ frames: 12, entities: 4, seed: 7 });
  const file = saveReplay(base, { buildId: 'b', savedAt: 't' });
  const edit = (fn: (p: FileParts) => void): Uint8Array => {
    const p = splitFile(file);
    fn(p);
    return joinFile(p.version, p.header, p.frames);
  };
  const refused = (bytes: Uint8Array, code: ReplayErrorCode, path?: RegExp): void => {
    let caught: unknown;
    try {
      decodeEverything(loadReplay(bytes));
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(ReplayError);
    expect((caught as ReplayError).code, String(caught)).toBe(code);
    if (path !== undefined) expect((caught as ReplayError).path).toMatch(path);
  };
  /** Frame `i`'s words edited by `fn`, checksum fixed (codec none). */
  const editWords = (i: number, fn: (w: Uint32Array, p: FileParts) => void): Uint8Array =>
    edit((p) => {
      const w = frameWords(p, i);
      fn(w, p);
      putFrameWords(p, i, w);
      fixChecksum(p);
    });

  it('a rotation word that is not a unit quaternion: a code of 1023, or squares summing above 1 (entity, bone, camera)', () => {
    const n = (w: Uint32Array) => w[H_ENTITY_COUNT];
    refused(
      editWords(3, (w) => {
        w[HEADER_WORDS + 4 * n(w)] = (3 << 30) | 1023;
      }),
      'CORRUPT',
      /^frames\[3\]\.rotations\[0\]$/,
    );
    refused(
      editWords(3, (w) => {
        w[HEADER_WORDS + 4 * n(w) + 1] = 3 << 30;
      }),
      'CORRUPT',
      /^frames\[3\]\.rotations\[1\]$/,
    );
    refused(
      editWords(4, (w) => {
        w[H_CAM_ROT] = (1 << 30) | (1023 << 20);
      }),
      'CORRUPT',
      /^frames\[4\]\.camera$/,
    );
    refused(
      editWords(5, (w) => {
        expect(w[H_BONE_WORDS]).toBeGreaterThan(0);
        w[HEADER_WORDS + 5 * n(w) + 1] = 0; // the first bone's rotation: three codes of 0
      }),
      'CORRUPT',
      /^frames\[5\]\.bones\[0\]$/,
    );
  });

  it('times that go back', () => {
    refused(
      editWords(6, (w) => {
        new Float64Array(w.buffer, 0, w.length >>> 1)[H_TIME / 2] = -5;
      }),
      'CORRUPT',
      /^frames\[6\]\.time$/,
    );
  });

  it('a float where an integer is due, even a whole one', () => {
    refused(
      swap(
        edit((p) => sub(p.header, 'frames').set('first', 'FLOATVAL')),
        'FLOATVAL',
        f64(base.reader.oldestFrame),
      ),
      'CORRUPT',
      /^header\.frames\.first$/,
    );
    refused(
      swap(
        edit((p) => {
          (sub(p.header, 'entities').get('id') as unknown[])[0] = 'FLOATVAL';
        }),
        'FLOATVAL',
        f64(100),
      ),
      'CORRUPT',
      /^header\.entities\.id\[0\]$/,
    );
  });

  it('MessagePack extension types, anywhere (an unknown field too)', () => {
    for (const ext of [
      [0xd4, 1, 0],
      [0xd7, 0xff, 0, 0, 0, 0, 0, 0, 0, 0],
      [0xc7, 1, 5, 0],
    ]) {
      refused(
        swap(
          edit((p) => p.header.set('extra', 'EXTENSION')),
          'EXTENSION',
          ext,
        ),
        'CORRUPT',
        /^header\.extra$/,
      );
      refused(
        swap(
          edit((p) => p.header.set('buildId', 'EXTENSION')),
          'EXTENSION',
          ext,
        ),
        'CORRUPT',
        /^header\.buildId$/,
      );
    }
    refused(
      swap(
        edit((p) => p.header.set('extra', 'NEVERUSED')),
        'NEVERUSED',
        [0xc1],
      ),
      'CORRUPT',
    );
  });

  it('a key twice in one map, and a key that is not a string', () => {
    refused(
      swap(
        edit((p) => sub(p.header, 'info').set('ZZZZ', 'again')),
        'ZZZZ',
        fixstr('note'),
      ),
      'CORRUPT',
      /^header\.info$/,
    );
    refused(
      swap(
        edit((p) => sub(p.header, 'info').set('KEY', 'x')),
        'KEY',
        [0x07],
      ),
      'CORRUPT',
      /^header\.info$/,
    );
  });

  it('strings that are not valid UTF-8 (a lone surrogate written as WTF-8)', () => {
    refused(
      swap(
        edit((p) => sub(p.header, 'info').set('note', 'NOTE')),
        'NOTE',
        [0xa3, 0xed, 0xa0, 0x80],
      ),
      'CORRUPT',
      /^header\.info\.note$/,
    );
  });

  it('the version in any integer width: uint64 4 is NEWER_VERSION, uint64 3 and 1 load, a negative one is CORRUPT', () => {
    const withVersion = (v: number[]) => new Uint8Array([...file.subarray(0, 5), ...v, ...file.subarray(6)]);
    expect(file[5]).toBe(3);
    refused(withVersion([0xcf, 0, 0, 0, 0, 0, 0, 0, 4]), 'NEWER_VERSION', /^version$/);
    decodeEverything(loadReplay(withVersion([0xcf, 0, 0, 0, 0, 0, 0, 0, 3])));
    refused(withVersion([0xcf, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]), 'NEWER_VERSION', /^version$/);
    // Version 1 and 2 frames have no field section: this file's fields are then corrupt.
    refused(withVersion([0xcf, 0, 0, 0, 0, 0, 0, 0, 1]), 'CORRUPT', /^frames\[\d+\]$/);
    refused(withVersion([0xd1, 0, 1]), 'CORRUPT', /^frames\[\d+\]$/);
    refused(withVersion([0xd0, 0xff]), 'CORRUPT', /^version$/);
  });

  it('skeletons and channel options the recorder refuses', () => {
    refused(
      edit((p) => p.header.set('skeletons', [new Array<number>(4096).fill(-1)])),
      'CORRUPT',
      /^header\.skeletons\[0\]$/,
    );
    refused(
      edit((p) => p.header.set('skeletons', [[0]])),
      'CORRUPT',
      /^header\.skeletons\[0\]$/,
    );
    refused(
      edit((p) => {
        (p.header.get('channels') as Array<Map<string, unknown>>)[0].set('budget', 2 ** 31);
      }),
      'CORRUPT',
      /^header\.channels\[0\]\.budget$/,
    );
  });

  it('memory follows what the file holds: one row naming handle 2^20 - 1, or 4,096 ids far apart', () => {
    const one = new Recorder({ onWarning: () => {} });
    one.beginFrame(0, 0.1);
    one.entity(4, 1, 2, 3, 0, 0, 0, 1);
    one.endFrame();
    const small = (() => {
      const p = splitFile(saveReplay(one, { buildId: '', savedAt: '' }));
      sub(p.header, 'entities').set('handle', [2 ** 20 - 1]);
      const w = frameWords(p, 0);
      w[HEADER_WORDS] = (w[HEADER_WORDS] & 0xff000000) | (2 ** 20 - 1);
      putFrameWords(p, 0, w);
      fixChecksum(p);
      return joinFile(p.version, p.header, p.frames);
    })();
    expect(small.length).toBeLessThan(500);
    const a = loadReplay(small);
    decodeEverything(a);
    expect(a.entities.capacity).toBeLessThanOrEqual(1100);
    expect(a.entities.ids[a.entities.lookup(4)]).toBe(4);

    const many = new Recorder({ onWarning: () => {}, maxEntitiesPerFrame: 4096 });
    many.beginFrame(0, 0.1);
    for (let k = 0; k < 4096; k++) many.entity(k * 4096, k, 0, 0, 0, 0, 0, 1);
    many.endFrame();
    const b = loadReplay(saveReplay(many));
    expect(b.entities.pool.byteLength + b.entities.dir.byteLength).toBeLessThan(1 << 20);
    expect(b.entities.lookup(4095 * 4096)).toBeGreaterThanOrEqual(0);
    expectSameFrames(many.reader, b.reader);
  });

  it('a real recording whose few lives hold large handles loads, renumbered, equal life for life', () => {
    const rec = new Recorder({ onWarning: () => {}, maxFrames: 1 });
    rec.beginFrame(0, 0.1);
    for (let i = 0; i < 5000; i++) rec.entity(i, i, 0, 0, 0, 0, 0, 1);
    rec.endFrame();
    for (let f = 1; f < 3; f++) {
      rec.beginFrame(f, 0.1);
      rec.entity(9000 + f, 1, 2, 3, 0, 0, 0, 1);
      rec.endFrame();
    }
    const replay = loadReplay(saveReplay(rec));
    expect(replay.entities.capacity).toBeLessThan(100);
    expectSameFrames(rec.reader, replay.reader);
  });
});
