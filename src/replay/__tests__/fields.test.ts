import { describe, expect, it } from 'vitest';
import { fieldSectionAt, H_TOTAL_WORDS } from '../../core/format/layout';
import { Playback } from '../../core/playback/Playback';
import type { Recorder } from '../../core/record/Recorder';
import { loadReplay } from '../loadReplay';
import { ReplayError, type ReplayErrorCode } from '../ReplayError';
import type { ReplayCompression } from '../replayFormat';
import { saveReplay } from '../saveReplay';
import { blockWords } from '../../core/fields/fieldLayout';
import {
  type FileParts,
  fixChecksum,
  frameWords,
  joinFile,
  makeRecording,
  putFrameWords,
  splitFile,
  sub,
} from './helpers';

const rec = makeRecording({ frames: 50, entities: 9, seed: 5, options: { maxFrames: 40 } });
const file = saveReplay(rec, { buildId: 'b', savedAt: 't' });

function edit(fn: (p: FileParts) => void, source = file, version?: number): Uint8Array {
  const p = splitFile(source);
  fn(p);
  return joinFile(version ?? p.version, p.header, p.frames);
}

function rejects(bytes: Uint8Array, code: ReplayErrorCode, path: RegExp): ReplayError {
  let caught: unknown;
  try {
    loadReplay(bytes);
  } catch (e) {
    caught = e;
  }
  expect(caught).toBeInstanceOf(ReplayError);
  const err = caught as ReplayError;
  expect(err.code, err.message).toBe(code);
  expect(err.path).toMatch(path);
  return err;
}

/** Every field value of every life in every frame, through the read API, as text. */
function allFields(reader: Recorder['reader']): string[] {
  const pb = new Playback(reader);
  const out: string[] = [];
  const v = new Float64Array(3);
  const t = reader.entities;
  for (let h = 0; h < t.highWater; h++) {
    if (t.used[h] !== 1) continue;
    const schema = pb.fields.schemaOf(h);
    for (const info of schema) {
      const series = new Float64Array(reader.frameCount * info.components);
      pb.fields.series(h, info.index, reader.oldestFrame, reader.newestFrame, series);
      out.push(`${t.ids[h]}@${t.spawnFrames[h]} ${info.name} ${Array.from(series).join(',')}`);
      const how = pb.fields.valueAt(h, info.index, reader.oldestFrame + 3.25, v);
      out.push(`${how} ${Array.from(v.subarray(0, info.components)).join(',')}`);
      if (info.type === 'enum') out.push(String(pb.fields.enumName(h, info.index, 1)));
    }
  }
  return out;
}

/** The field section of frame `i` of the file: its start and end in `frameWords(p, i)`. */
function section(p: FileParts, i: number): [Uint32Array, number, number] {
  const w = frameWords(p, i);
  return [w, fieldSectionAt(w, 0), w[H_TOTAL_WORDS]];
}

/** Word of the block of schema `schema` in the section at `s` of `w`, and its index among the blocks. */
function blockOf(w: Uint32Array, s: number, e: number, schema: number): [number, number] {
  for (let b = 0; s < e; b++) {
    const listed = (w[s] & 0x80000000) !== 0;
    const sc = rec.fieldSchemas.at(w[s] & 0xffff);
    if (sc === undefined) throw new Error('unknown schema');
    if (sc.index === schema) return [s, b];
    s += blockWords(sc.types, w[s + 1], listed);
  }
  throw new Error(`no block of schema ${schema}`);
}

/** Frame `i` grown by `words` (copied by `fill`), its size fields fixed. */
function grown(p: FileParts, i: number, extra: (w: Uint32Array, s: number, e: number) => Uint32Array): void {
  const [w, s, e] = section(p, i);
  const add = extra(w, s, e);
  const longer = new Uint32Array(e + add.length);
  longer.set(w);
  longer.set(add, e);
  longer[H_TOTAL_WORDS] = longer.length;
  putFrameWords(p, i, longer);
  const frames = sub(p.header, 'frames');
  frames.set('words', (frames.get('words') as number) + add.length);
  fixChecksum(p);
}

describe('custom fields in replay files', () => {
  for (const compression of ['none', 'xor-delta'] as ReplayCompression[]) {
    it(`a saved recording's fields read back the same, value for value (${compression})`, () => {
      const replay = loadReplay(saveReplay(rec, { compression }));
      expect(replay.formatVersion).toBe(3);
      const recorded = allFields(rec.reader);
      expect(recorded.length).toBeGreaterThan(40);
      expect(recorded.some((l) => /hp [\d.]+,/.test(l))).toBe(true);
      expect(allFields(replay.reader)).toEqual(recorded);
    });
  }

  it('loads format 1 files (no field schemas, no field sections), and refuses field words in them', () => {
    const plain = saveReplay(makeRecording({ frames: 20, entities: 5, seed: 3, fields: false }));
    const v1 = edit((p) => p.header.delete('fieldSchemas'), plain, 1);
    const old = loadReplay(v1);
    expect(old.formatVersion).toBe(1);
    expect(old.warnings).toEqual([]);
    expect(old.reader.fieldSchemas.count).toBe(0);
    expect(loadReplay(edit(() => {}, plain, 2)).formatVersion).toBe(2);
    // A version-1 file whose frames carry words past the other sections is corrupt.
    rejects(
      edit((p) => p.header.delete('fieldSchemas'), file, 1),
      'CORRUPT',
      /^frames\[\d+\]$/,
    );
  });

  it('refuses bad field schemas in the header', () => {
    const schemaEdit = (fn: (s: Map<string, unknown>) => void) =>
      edit((p) => fn((p.header.get('fieldSchemas') as Array<Map<string, unknown>>)[0]));
    rejects(
      schemaEdit((s) => s.set('kind', 'nobody')),
      'CORRUPT',
      /^header\.fieldSchemas\[0\]\.kind$/,
    );
    rejects(
      schemaEdit((s) => s.set('types', [0, 9, 0, 0, 0, 0, 0])),
      'CORRUPT',
      /^header\.fieldSchemas\[0\]\.types\[1\]$/,
    );
    rejects(
      schemaEdit((s) => s.set('types', [0])),
      'CORRUPT',
      /^header\.fieldSchemas\[0\]\.types$/,
    );
    rejects(
      schemaEdit((s) => s.set('enumNames', ['a', 'a'])),
      'CORRUPT',
      /^header\.fieldSchemas\[0\]\.enumNames\[1\]$/,
    );
    rejects(
      schemaEdit((s) => s.set('names', ['hp', 'hp', 'a', 'b', 'c', 'd', 'e'])),
      'CORRUPT',
      /^header\.fieldSchemas\[0\]$/,
    );
  });

  it('refuses corrupt field sections with a typed error naming the block', () => {
    const frame = (fn: (w: Uint32Array, start: number, end: number) => void): Uint8Array =>
      edit((p) => {
        const [w, start, end] = section(p, 3);
        expect(end).toBeGreaterThan(start);
        fn(w, start, end);
        putFrameWords(p, 3, w);
        fixChecksum(p);
      });
    const block = /^frames\[3\]\.fields\[0\]$/;
    rejects(
      frame((w, s) => {
        w[s] = (w[s] & 0x80000000) | 7;
      }),
      'CORRUPT',
      block,
    );
    rejects(
      frame((w, s) => {
        w[s + 1] = 1000;
      }),
      'CORRUPT',
      block,
    );
    rejects(
      frame((w, s) => {
        w[s] |= 0x40000000;
      }),
      'CORRUPT',
      block,
    );
    // A non-finite hp (the first column of the humanoid block).
    const err = rejects(
      frame((w, s0, e) => {
        const [s] = blockOf(w, s0, e, 0);
        const listed = (w[s] & 0x80000000) !== 0;
        w[s + 3 + (listed ? w[s + 1] : 0)] = 0x7fc00000;
      }),
      'CORRUPT',
      /^frames\[3\]\.fields\[\d\]$/,
    );
    expect(err.message).toContain('non-finite');
    // A second block of the same schemas, and a word the blocks do not fill.
    const twice = rejects(
      edit((p) => grown(p, 3, (w, s, e) => w.slice(s, e))),
      'CORRUPT',
      /^frames\[3\]\.fields\[\d+\]$/,
    );
    expect(twice.message).toContain('two blocks');
    rejects(
      edit((p) => grown(p, 3, () => new Uint32Array(1))),
      'CORRUPT',
      /^frames\[3\]\.fields\[\d+\]$/,
    );
  });

  it('refuses an enum code the kind never interned', () => {
    let index = -1;
    const bytes = edit((p) => {
      const [w, s0, e] = section(p, 3);
      // The humanoid block's enum column: field 1, after the f32 column.
      const [s, b] = blockOf(w, s0, e, 0);
      index = b;
      const listed = (w[s] & 0x80000000) !== 0;
      const rows = w[s + 1];
      const enumAt = s + 3 + (listed ? rows : 0) + rows;
      new Uint8Array(w.buffer, w.byteOffset)[enumAt * 4] = 200;
      putFrameWords(p, 3, w);
      fixChecksum(p);
    });
    const err = rejects(bytes, 'CORRUPT', /^frames\[3\]\.fields\[\d\]$/);
    expect(err.path).toBe(`frames[3].fields[${index}]`);
    expect(err.message).toContain('enum code 200');
  });
});
