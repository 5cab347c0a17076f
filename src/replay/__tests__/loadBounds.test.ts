import { describe, expect, it } from 'vitest';
import { EntityBuffer } from '../../core/read/buffers';
import { HANDLE_MASK, HEADER_WORDS, H_FRAME, H_TOTAL_WORDS, MAX_TEXTURES } from '../../core/format/layout';
import { Recorder } from '../../core/record/Recorder';
import { loadReplay } from '../loadReplay';
import { ReplayError } from '../ReplayError';
import { MAX_FRAME_NUMBER } from '../replayFormat';
import type { ReplayLimits } from '../replayFormat';
import { saveReplay } from '../saveReplay';
import type { FileParts } from './helpers';
import { fixChecksum, frameWords, joinFile, makeRecording, putFrameWords, splitFile, sub } from './helpers';

/**
 * The loader's choices at their bounds: where handles stop being kept and are renumbered to rows,
 * and the work that choice costs.
 */

/** A one-frame file of two entities (ids 7 and 9) whose second handle is rewritten as `h`. */
function twoLives(h: number): Uint8Array {
  const rec = new Recorder({ onWarning: () => {} });
  rec.beginFrame(0, 0.1);
  rec.entity(7, 1, 2, 3, 0, 0, 0, 1);
  rec.entity(9, 4, 5, 6, 0, 0, 0, 1);
  rec.endFrame();
  const p = splitFile(saveReplay(rec, { buildId: '', savedAt: '' }));
  expect(sub(p.header, 'entities').get('handle')).toEqual([0, 1]);
  sub(p.header, 'entities').set('handle', [0, h]);
  const w = frameWords(p, 0);
  expect(w[HEADER_WORDS + 1] & HANDLE_MASK).toBe(1);
  w[HEADER_WORDS + 1] = (w[HEADER_WORDS + 1] & ~HANDLE_MASK) | h;
  putFrameWords(p, 0, w);
  fixChecksum(p);
  return joinFile(p.version, p.header, p.frames);
}

describe('loadReplay: handles kept while dense, renumbered past 2 × rows + 1,024 slots', () => {
  it('two rows: handle 1,027 (1,028 slots) is kept, handle 1,028 becomes row 1; the work follows the slots', () => {
    const work = (bytes: Uint8Array): number => {
      const counter = { units: 0 };
      loadReplay(bytes, { workCounter: counter });
      return counter.units;
    };
    const kept = loadReplay(twoLives(1027));
    expect([kept.entities.lookup(7), kept.entities.lookup(9)]).toEqual([0, 1027]);
    expect(kept.entities.ids[1027]).toBe(9);
    // The handles between them name no life: their slots are free, and no id maps to a slot.
    expect([kept.entities.used.reduce((a, b) => a + b, 0), kept.entities.used[1], kept.entities.used[1026]]).toEqual([
      2, 0, 0,
    ]);
    expect(kept.entities.lookup(0)).toBe(-1);
    const renumbered = loadReplay(twoLives(1028));
    expect([renumbered.entities.lookup(7), renumbered.entities.lookup(9)]).toEqual([0, 1]);
    expect(renumbered.entities.ids[1]).toBe(9);
    expect(renumbered.entities.used.reduce((a, b) => a + b, 0)).toBe(2);
    // Either way the frame reads the same entities, by id.
    for (const replay of [kept, renumbered]) {
      const e = new EntityBuffer();
      expect(replay.reader.readEntities(0, e)).toBe(true);
      const handles = Array.from(e.handles.subarray(0, e.count));
      expect(handles.map((h) => replay.entities.ids[h])).toEqual([7, 9]);
      expect(Array.from(e.positions.subarray(0, 6))).toEqual([1, 2, 3, 4, 5, 6]);
    }
    // The kept handles cost a table of 1,028 slots to build; the renumbered ones none. Everything
    // else the loader walks is the same in both files.
    expect(work(twoLives(1027)) - work(twoLives(1028))).toBe(1028);
  });

  it('a frame naming a handle between the kept ones is refused', () => {
    const p = splitFile(twoLives(1027));
    const w = frameWords(p, 0);
    w[HEADER_WORDS] = (w[HEADER_WORDS] & ~HANDLE_MASK) | 5;
    putFrameWords(p, 0, w);
    fixChecksum(p);
    expectError(
      joinFile(p.version, p.header, p.frames),
      'frames[0].entities[0]',
      'handle 5 is not in the entity table',
    );
  });
});

function expectError(
  bytes: Uint8Array,
  path: string,
  detail: string,
  code = 'CORRUPT',
  limits: Partial<ReplayLimits> = {},
): void {
  try {
    loadReplay(bytes, { limits });
  } catch (e) {
    expect(e).toBeInstanceOf(ReplayError);
    const r = e as ReplayError;
    expect([r.code, r.path, r.detail]).toEqual([code, path, detail]);
    return;
  }
  throw new Error('loaded');
}

describe('loadReplay: an xor-delta frame of the fewest bytes its word count allows', () => {
  it('passes the size check (it repeats the frame before, which the frame checks then refuse); one byte less does not', () => {
    const rec = new Recorder({ onWarning: () => {} });
    for (let f = 0; f < 2; f++) {
      rec.beginFrame(f, 0.1);
      rec.entity(7, f, 2, 3, 0, 0, 0, 1);
      rec.endFrame();
    }
    const p = splitFile(saveReplay(rec, { buildId: '', savedAt: '', compression: 'xor-delta' }));
    const words = rec.ring.u32[rec.ring.offsetOf(1) + H_TOTAL_WORDS];
    expect(words).toBeLessThan(0x80); // a one-byte varint
    const groups = Math.ceil(words / 4);
    const load = (bin: Uint8Array): ReplayError => {
      p.frames[1] = bin;
      try {
        loadReplay(joinFile(p.version, p.header, p.frames), { verifyChecksum: false });
      } catch (e) {
        expect(e).toBeInstanceOf(ReplayError);
        return e as ReplayError;
      }
      throw new Error('loaded');
    };
    const fewest = new Uint8Array(1 + groups); // the word count, then one zero tag per group
    fewest[0] = words;
    const e = load(fewest);
    expect([e.code, e.path, e.detail]).toEqual(['CORRUPT', 'frames[1].frame', 'holds frame number 0, expected 1']);
    const short = load(fewest.subarray(0, groups));
    expect([short.code, short.path, short.detail]).toEqual([
      'CORRUPT',
      'frames[1]',
      `${words} words cannot fit in ${groups} bytes`,
    ]);
  });
});

describe('loadReplay: the frames array and the ring it fills', () => {
  const rec = makeRecording({ frames: 12, entities: 4, seed: 3 });
  const file = saveReplay(rec, { buildId: '', savedAt: '' });
  const packed = saveReplay(rec, { buildId: '', savedAt: '', compression: 'xor-delta' });

  it('the frames value and its length are checked under "frames"', () => {
    const p = splitFile(file);
    expectError(joinFile(p.version, p.header, true), 'frames', 'expected an array, found boolean');
    expectError(joinFile(p.version, p.header, p.frames.slice(1)), 'frames', '11 frames present, the header says 12');
    // Cut inside the frames array: the decoder names the frames.
    const cut = file.subarray(0, file.length - 1);
    let path: string | undefined = '';
    try {
      loadReplay(cut);
    } catch (e) {
      path = (e as ReplayError).path;
    }
    expect(path).toMatch(/^frames/);
  });

  it('an xor-delta frame of 0 words is refused as shorter than a header, not as a malformed count', () => {
    const p = splitFile(packed);
    p.frames[0] = new Uint8Array([0]);
    expectError(
      joinFile(p.version, p.header, p.frames),
      'frames[0]',
      `frame of 0 words is shorter than its ${HEADER_WORDS}-word header`,
    );
  });

  it('the ring is sized exactly: each frame padded to an even word count', () => {
    const words = splitFile(file).frames.map((b) => b.length / 4);
    expect(words.some((w) => w % 2 === 1)).toBe(true);
    const arena = words.reduce((s, w) => s + w + (w % 2), 0);
    for (const bytes of [file, packed]) {
      const replay = loadReplay(bytes);
      expect(replay.ring.u32.length).toBe(Math.max(256, arena));
      expect(replay.reader.frameCount).toBe(12);
    }
  });

  it('a file whose first frame is 1 loads its field blocks (no schema seen before it)', () => {
    const r = new Recorder({ onWarning: () => {}, maxFrames: 1 });
    const schema = r.declareFields('unit', { hp: 'f32' });
    for (let f = 0; f < 2; f++) {
      r.beginFrame(f, 0.1);
      r.describe(3, 'unit');
      r.entity(3, f, 0, 0, 0, 0, 0, 1);
      r.fields(3, schema, [10 - f]);
      r.endFrame();
    }
    const replay = loadReplay(saveReplay(r, { buildId: '', savedAt: '' }));
    expect([replay.reader.oldestFrame, replay.reader.newestFrame]).toEqual([1, 1]);
  });
});

describe('loadReplay: header bounds', () => {
  const one = (): Recorder => {
    const r = new Recorder({ onWarning: () => {} });
    r.beginFrame(0, 0.1);
    r.endFrame();
    return r;
  };
  const base = saveReplay(one(), { buildId: '', savedAt: '' });
  const edited = (fn: (p: FileParts) => void): Uint8Array => {
    const p = splitFile(base);
    fn(p);
    return joinFile(p.version, p.header, p.frames);
  };

  it('the last frame number a file may hold: one frame at 2^31 - 1', () => {
    const bytes = edited((p) => {
      sub(p.header, 'frames').set('first', MAX_FRAME_NUMBER);
      const w = frameWords(p, 0);
      w[H_FRAME] = MAX_FRAME_NUMBER;
      putFrameWords(p, 0, w);
      fixChecksum(p);
    });
    const replay = loadReplay(bytes);
    expect([replay.reader.oldestFrame, replay.reader.newestFrame]).toEqual([MAX_FRAME_NUMBER, MAX_FRAME_NUMBER]);
  });

  it('texture names: 65,535 load, 65,536 are too many', () => {
    const names = (n: number): string[] => Array.from({ length: n }, (_, i) => `t${i}`);
    expect(loadReplay(edited((p) => p.header.set('textures', names(MAX_TEXTURES)))).textures.length).toBe(MAX_TEXTURES);
    expectError(
      edited((p) => p.header.set('textures', names(MAX_TEXTURES + 1))),
      'header.textures',
      `${MAX_TEXTURES + 1} texture names exceed the limit of ${MAX_TEXTURES}`,
      'TOO_LARGE',
    );
  });

  it('an info field whose key is too long is named by the fields map', () => {
    const bytes = edited((p) => {
      const info = sub(p.header, 'info');
      info.set('platform', '');
      info.set('note', '');
      info.set('fields', new Map([['abcd', 'x']]));
    });
    expectError(bytes, 'header.info.fields', 'string of 4 characters exceeds the limit of 3', 'TOO_LARGE', {
      maxStringLength: 3,
    });
  });

  it('field schemas are at most as many as the kinds limit allows', () => {
    const schema = (kind: string) =>
      new Map<string, unknown>([
        ['kind', kind],
        ['names', ['hp']],
        ['types', [0]],
        ['enumNames', []],
      ]);
    const bytes = edited((p) => {
      p.header.set('kinds', ['a', 'b']);
      p.header.set('fieldSchemas', [schema('a'), schema('b'), schema('a')]);
    });
    expectError(bytes, 'header.fieldSchemas', '3 elements exceed the limit of 2', 'TOO_LARGE', { maxKinds: 2 });
  });

  it('a file refused at its signature cost one unit of work', () => {
    const counter = { units: 0 };
    expect(() => loadReplay(new Uint8Array([1, 2, 3, 4, 5]), { workCounter: counter })).toThrow(ReplayError);
    expect(counter.units).toBe(1);
  });
});
