import { describe, expect, it } from 'vitest';
import { DISPLAY_WORDS, H_DISPLAY_WORDS, H_TOTAL_WORDS } from '../../core/format/layout';
import { Recorder } from '../../core/record/Recorder';
import { EntityBuffer } from '../../core/read/buffers';
import { loadReplay } from '../loadReplay';
import { ReplayError } from '../ReplayError';
import { saveReplay } from '../saveReplay';
import { REPLAY_FORMAT_VERSION } from '../replayFormat';
import { fixChecksum, frameWords, joinFile, putFrameWords, splitFile } from './helpers';

/** Two frames of a 2D game: a pickup popping (scale up, fade out) and a sprite changing texture. */
function recording(): Recorder {
  const r = new Recorder({ onWarning: () => {} });
  const IDLE = r.texture('idle');
  const RUN = r.texture('run');
  for (let f = 0; f < 3; f++) {
    r.beginFrame(f, 1);
    r.entity2D(1, 10, 20, f * 0.1);
    r.display(1, 1 + f * 0.5, 1 + f * 0.5, 1 - f * 0.4, f < 2, -1);
    r.entity2D(2, 30, 40, 0);
    r.entity2D(3, 50, 60, 0);
    r.display(3, 1, 1, 1, true, f === 0 ? IDLE : RUN);
    r.endFrame();
  }
  return r;
}

function rejectsAt(bytes: Uint8Array, path: RegExp, message: RegExp): void {
  let caught: unknown = null;
  try {
    loadReplay(bytes);
  } catch (e) {
    caught = e;
  }
  expect(caught).toBeInstanceOf(ReplayError);
  const err = caught as ReplayError;
  expect(err.code, err.message).toBe('CORRUPT');
  expect(err.path).toMatch(path);
  expect(err.message).toMatch(message);
}

describe('replay format 2: the display section (issue 19)', () => {
  it('round-trips display state and texture names, both codecs', () => {
    const r = recording();
    for (const compression of ['none', 'xor-delta'] as const) {
      const loaded = loadReplay(saveReplay(r, { buildId: 'b', savedAt: 't', compression }));
      expect(loaded.formatVersion).toBe(REPLAY_FORMAT_VERSION);
      expect(loaded.textures).toEqual(['idle', 'run']);
      const a = new EntityBuffer();
      const b = new EntityBuffer();
      for (let f = 0; f < 3; f++) {
        r.reader.readEntities(f, a);
        loaded.reader.readEntities(f, b);
        expect(b.hasDisplay).toBe(true);
        expect(Array.from(b.display.subarray(0, 3))).toEqual(Array.from(a.display.subarray(0, 3)));
        expect(Array.from(b.scales.subarray(0, 6))).toEqual(Array.from(a.scales.subarray(0, 6)));
        expect(Array.from(b.alphas.subarray(0, 3))).toEqual(Array.from(a.alphas.subarray(0, 3)));
        expect(loaded.reader.textures[b.textures[2]]).toBe(f === 0 ? 'idle' : 'run');
      }
    }
  });

  it('display calls for earlier entities of the frame keep one record an entity, in entity order, and load', () => {
    // display() after a batch, then displayColumns for the whole batch; displayColumns twice: each
    // later value replaces the earlier one, and the saved file passes the strict loader.
    const r = new Recorder({ onWarning: () => {} });
    const ids = new Int32Array([4, 5, 6]);
    const cols = {
      ids,
      x: new Float32Array(3),
      y: new Float32Array(3),
      z: new Float32Array(3),
      qx: new Float32Array(3),
      qy: new Float32Array(3),
      qz: new Float32Array(3),
      qw: new Float32Array([1, 1, 1]),
    };
    const first = { scaleX: [1, 1, 1], scaleY: [1, 1, 1], alpha: [1, 1, 1] };
    const second = { scaleX: [2, 3, 4], scaleY: [5, 6, 7], alpha: [0.25, 0.5, 0.75] };
    r.beginFrame(0, 1);
    r.entityColumns(3, cols);
    r.display(6, 9, 9, 0, false);
    r.displayColumns(3, first);
    r.displayColumns(3, second);
    r.entity2D(7, 0, 0, 0);
    r.display(7, 8, 8, 1);
    r.endFrame();
    r.beginFrame(1, 1);
    r.entityBatch(3, ids, new Float32Array(9), new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]));
    r.display(6, 9, 9, 0);
    r.displayColumns(3, second);
    r.endFrame();
    expect(r.ring.u32[r.ring.offsetOf(0) + H_DISPLAY_WORDS]).toBe(4 * DISPLAY_WORDS);
    expect(r.ring.u32[r.ring.offsetOf(1) + H_DISPLAY_WORDS]).toBe(3 * DISPLAY_WORDS);
    const loaded = loadReplay(saveReplay(r, { buildId: 'b', savedAt: 't' }));
    const e = new EntityBuffer();
    for (let f = 0; f < 2; f++) {
      loaded.reader.readEntities(f, e);
      expect(Array.from(e.scales.subarray(0, 6))).toEqual([2, 5, 3, 6, 4, 7]);
      for (let i = 0; i < 3; i++) expect(e.alphas[i]).toBeCloseTo(0.25 * (i + 1), 4);
      expect(Array.from(e.display.subarray(0, 3))).toEqual([3, 3, 3]);
    }
    expect(e.count).toBe(3);
  });

  it('a format-1 file (no texture names, word 21 zero) still loads', () => {
    const r = new Recorder({ onWarning: () => {} });
    r.beginFrame(0, 1);
    r.entity(1, 1, 2, 3, 0, 0, 0, 1);
    r.endFrame();
    const p = splitFile(saveReplay(r, { buildId: 'b', savedAt: 't' }));
    p.header.delete('textures');
    const loaded = loadReplay(joinFile(1, p.header, p.frames));
    expect(loaded.formatVersion).toBe(1);
    expect(loaded.textures).toEqual([]);
    const e = new EntityBuffer();
    loaded.reader.readEntities(0, e);
    expect(e.hasDisplay).toBe(false);
  });

  it('the strict loader refuses a bad display section with a typed error naming it', () => {
    const file = saveReplay(recording(), { buildId: 'b', savedAt: 't' });
    const edit = (fn: (w: Uint32Array, d: number) => void): Uint8Array => {
      const p = splitFile(file);
      const w = frameWords(p, 1);
      fn(w, w[H_TOTAL_WORDS] - w[H_DISPLAY_WORDS]);
      putFrameWords(p, 1, w);
      fixChecksum(p);
      return joinFile(p.version, p.header, p.frames);
    };
    rejectsAt(
      edit((w) => {
        w[H_DISPLAY_WORDS] -= 1;
      }),
      /^frames\[1\]\.displayWords$/,
      /multiple/,
    );
    rejectsAt(
      edit((w) => {
        w[H_DISPLAY_WORDS] += DISPLAY_WORDS;
      }),
      /^frames\[1\]$/,
      /display words/,
    );
    rejectsAt(
      edit((w, d) => {
        w[d] = 7;
      }),
      /^frames\[1\]\.display\[0\]$/,
      /not below the entity count/,
    );
    rejectsAt(
      edit((w, d) => {
        w[d + DISPLAY_WORDS] = w[d];
      }),
      /^frames\[1\]\.display\[1\]$/,
      /does not follow/,
    );
    rejectsAt(
      edit((w, d) => {
        w[d] |= 1 << 25;
      }),
      /^frames\[1\]\.display\[0\]$/,
      /unknown bits/,
    );
    rejectsAt(
      edit((w, d) => {
        w[d + 1] = 0x7fc00000;
      }),
      /^frames\[1\]\.display\[0\]$/,
      /scale is not finite/,
    );
    rejectsAt(
      edit((w, d) => {
        w[d + DISPLAY_WORDS + 3] = (w[d + DISPLAY_WORDS + 3] & 0xffff) | (9 << 16);
      }),
      /^frames\[1\]\.display\[1\]$/,
      /texture 9/,
    );
  });
});
