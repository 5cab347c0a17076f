import { describe, expect, it } from 'vitest';
import { EntityBuffer } from '../../core/read/buffers';
import { HANDLE_MASK, HEADER_WORDS, H_TOTAL_WORDS } from '../../core/format/layout';
import { Recorder } from '../../core/record/Recorder';
import { loadReplay } from '../loadReplay';
import { ReplayError } from '../ReplayError';
import { saveReplay } from '../saveReplay';
import { fixChecksum, frameWords, joinFile, putFrameWords, splitFile, sub } from './helpers';

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
    const renumbered = loadReplay(twoLives(1028));
    expect([renumbered.entities.lookup(7), renumbered.entities.lookup(9)]).toEqual([0, 1]);
    expect(renumbered.entities.ids[1]).toBe(9);
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
});

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
