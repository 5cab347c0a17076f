import { describe, expect, it } from 'vitest';
import { HEADER_WORDS, H_ENTITY_COUNT } from '../../core/format/layout';
import { loadReplay } from '../loadReplay';
import type { LoadReplayOptions } from '../loadReplay';
import { ReplayError } from '../ReplayError';
import type { ReplayErrorCode, ReplayWarning } from '../ReplayError';
import { saveReplay } from '../saveReplay';
import {
  expectSameFrames,
  fixChecksum,
  frameWords,
  joinFile,
  makeRecording,
  putFrameWords,
  splitFile,
  sub,
} from './helpers';
import type { FileParts } from './helpers';

/**
 * What the loader must accept and what it must give back: files without each optional field, the
 * checksum switched off, every piece of the header in the loaded objects; and frames the structural
 * checks must refuse although every size adds up.
 */

const rec = makeRecording({ frames: 40, entities: 10, seed: 4 });
const file = saveReplay(rec, {
  buildId: 'b1',
  note: 'note',
  savedAt: 'when',
  fields: { level: 'l1' },
  bookmarks: [{ frame: 35, label: 'here' }],
});

function edit(fn: (p: FileParts) => void, source = file): Uint8Array {
  const parts = splitFile(source);
  fn(parts);
  return joinFile(parts.version, parts.header, parts.frames);
}

function rejects(
  bytes: Uint8Array,
  code: ReplayErrorCode,
  path?: RegExp,
  options: Partial<LoadReplayOptions> = {},
): ReplayError {
  let caught: unknown = null;
  try {
    loadReplay(bytes, options);
  } catch (e) {
    caught = e;
  }
  expect(caught).toBeInstanceOf(ReplayError);
  const err = caught as ReplayError;
  expect(err.code, err.message).toBe(code);
  if (path) expect(err.path).toMatch(path);
  return err;
}

describe('loadReplay: optional fields, the checksum switch, what comes back', () => {
  it('a file without any optional field loads, with the documented defaults', () => {
    const bare = edit((p) => {
      p.header.delete('savedAt');
      p.header.delete('skeletons');
      p.header.delete('bookmarks');
      p.header.delete('staticLayers');
      sub(p.header, 'info').delete('fields');
      sub(p.header, 'frames').delete('checksum');
    });
    const replay = loadReplay(bare);
    expect(replay.warnings).toEqual([]);
    expect(replay.savedAt).toBe('');
    expect(replay.bookmarks).toEqual([]);
    expect(replay.staticLayers.list()).toEqual([]);
    expect({ ...replay.info.fields }).toEqual({});
    expect(Object.getPrototypeOf(replay.info.fields)).toBe(null);
    expect(replay.entities.skeletons.filter((s) => s !== undefined)).toEqual([]);
    expectSameFrames(rec.reader, replay.reader);
  });

  it('each optional field alone is read: savedAt, fields, bookmarks, skeletons, static layers, checksum', () => {
    const replay = loadReplay(file, { expectedBuildId: 'b1' });
    expect(replay.warnings).toEqual([]);
    expect(replay.buildId).toBe('b1');
    expect(replay.savedAt).toBe('when');
    expect({ ...replay.info.fields }).toEqual({ level: 'l1' });
    expect(replay.info.note).toBe('note');
    expect(replay.bookmarks).toEqual([{ frame: 35, label: 'here' }]);
    expect(replay.entities.skeletons.map((s) => (s ? Array.from(s) : s))).toEqual(
      rec.entities.skeletons.map((s) => (s ? Array.from(s) : s)),
    );
    expect(replay.entities.skeletons.some((s) => s !== undefined)).toBe(true);
    expect(replay.staticLayers.list().map((l) => [l.name, l.primCount, Array.from(l.words)])).toEqual(
      rec.staticLayers.list().map((l) => [l.name, l.primCount, Array.from(l.words)]),
    );
    expect(replay.staticLayers.list().length).toBeGreaterThan(0);
    expect(replay.fileBytes).toBe(file.length);
    let words = 0;
    for (const b of splitFile(file).frames) words += b.length / 4;
    expect(replay.frameBytes).toBe(words * 4);
    // The checksum is checked when present.
    const wrong = edit((p) =>
      sub(p.header, 'frames').set('checksum', ((sub(p.header, 'frames').get('checksum') as number) ^ 1) >>> 0),
    );
    rejects(wrong, 'CHECKSUM', /^frames$/);
  });

  it('verifyChecksum: false loads valid files, and files whose checksum is wrong', () => {
    const wrong = edit((p) =>
      sub(p.header, 'frames').set('checksum', ((sub(p.header, 'frames').get('checksum') as number) ^ 1) >>> 0),
    );
    expect(loadReplay(file, { verifyChecksum: false }).reader.frameCount).toBe(rec.reader.frameCount);
    expectSameFrames(rec.reader, loadReplay(wrong, { verifyChecksum: false }).reader);
    const packed = saveReplay(rec, { compression: 'xor-delta', savedAt: 'x' });
    expectSameFrames(rec.reader, loadReplay(packed, { verifyChecksum: false }).reader);
  });

  it('every entity life comes back: id, spawn and last frame, ended, kind and label', () => {
    const replay = loadReplay(file);
    const lives = (t: typeof rec.entities): string[] => {
      const out: string[] = [];
      for (let h = 0; h < t.highWater; h++) {
        if (t.used[h] === 0 || t.lastFrame(h) < rec.reader.oldestFrame) continue;
        out.push(
          `${t.ids[h]}@${t.spawnFrames[h]}..${t.lastFrame(h)} ended=${t.isEnded(h)} kind=${t.kindOf[h]} label=${t.labels[h]}`,
        );
      }
      return out.sort();
    };
    const held = lives(rec.entities);
    expect(lives(replay.entities)).toEqual(held);
    expect(held.some((l) => l.includes('ended=true'))).toBe(true);
    expect(held.some((l) => !l.includes('label=undefined'))).toBe(true);
    expect(replay.channels.list()).toEqual(rec.channels.list());
    expect(replay.eventKinds).toEqual(rec.eventKinds);
  });

  it('warnings go to onWarning as they are found, and into the list', () => {
    const seen: ReplayWarning[] = [];
    const replay = loadReplay(
      edit((p) => p.header.set('future', 1)),
      { expectedBuildId: 'other', onWarning: (w) => seen.push(w) },
    );
    expect(seen.map((w) => w.code).sort()).toEqual(['BUILD_MISMATCH', 'UNKNOWN_FIELD'].sort());
    expect(replay.warnings).toEqual(seen);
    expect(loadReplay(file, { expectedBuildId: 'b1' }).warnings).toEqual([]);
    expect(loadReplay(file, { expectedBuildId: null }).warnings).toEqual([]);
  });

  it('a frame that lists one handle twice is CORRUPT, though every size adds up', () => {
    const bytes = edit((p) => {
      for (let i = 0; i < p.frames.length; i++) {
        const w = frameWords(p, i);
        if (w[H_ENTITY_COUNT] < 2) continue;
        w[HEADER_WORDS + 1] = w[HEADER_WORDS];
        putFrameWords(p, i, w);
        break;
      }
      fixChecksum(p);
    });
    expect(rejects(bytes, 'CORRUPT', /^frames\[\d+\]\.entities\[1\]$/).message).toMatch(/twice/);
  });
});
