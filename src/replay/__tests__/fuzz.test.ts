import { describe, expect, it } from 'vitest';
import { decodePrimitives } from '../../core/read/FrameReader';
import { EntityBuffer, EventBuffer, FrameHeader, PrimitiveBuffer } from '../../core/read/buffers';
import { loadReplay } from '../loadReplay';
import type { LoadedReplay } from '../loadReplay';
import { ReplayError } from '../ReplayError';
import { saveReplay } from '../saveReplay';
import { makeRecording, recorderFingerprint, rng, splitFile, joinFile } from './helpers';

const CASES_PER_FILE = 5200;
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
    if (!r.readHeader(f, header) || !r.readEntities(f, ents) || !r.readPrimitives(f, 0xffffffff, prims) || !r.readEvents(f, events)) {
      throw new Error(`frame ${f} not readable`);
    }
    finite(header.camera, 8);
    finite(ents.positions, ents.count * 3);
    finite(ents.rotations, ents.count * 4);
    finite(ents.boneRotations, ents.boneTotal * 4);
    finite(ents.boneOffsets, ents.boneTotal * 3);
    for (let i = 0; i < ents.count; i++) {
      const h = ents.handles[i];
      if (h >= replay.entities.highWater || replay.entities.used[h] !== 1) throw new Error(`frame ${f}: dangling handle ${h}`);
    }
    finite(prims.data, prims.count * 7);
    if (prims.count !== header.primitiveCount) throw new Error(`frame ${f}: ${prims.count} of ${header.primitiveCount} primitives decoded`);
    for (let i = 0; i < prims.count; i++) {
      if (prims.channels[i] >= replay.channels.count) throw new Error('primitive on a missing channel');
      prims.text(i);
    }
    for (let i = 0; i < events.count; i++) if (events.kinds[i] >= replay.eventKinds.length) throw new Error('unknown event kind');
    finite(events.data, events.count * 4);
  }
  for (const layer of replay.staticLayers.list()) {
    const w = layer.words;
    decodePrimitives(w, new Float32Array(w.buffer, w.byteOffset, w.length), new Uint8Array(w.buffer, w.byteOffset, w.byteLength), 0, w.length, layer.primCount, 0xffffffff, prims);
    if (prims.count !== layer.primCount) throw new Error('static layer decodes short');
  }
}

const INTERESTING_BYTES = [0x00, 0xff, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xc4, 0xc6, 0xca, 0xcb, 0xce, 0xcf, 0xd4, 0xd9, 0xdb, 0xdc, 0xdd, 0xde, 0xdf, 0xe0];
const INTERESTING_WORDS = [0, 1, 0xffffffff, 0x7fffffff, 0x80000000, 0xfffffffd, 1 << 20, 1 << 24, 0x7fc00000 /* NaN */, 0x7f800000 /* Inf */, 22];

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
    const options = { buildId: 'fuzz', note: 'fuzz me', savedAt: 'x', bookmarks: [{ frame: 30, label: 'b' }], fields: { k: 'v' } };
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
          const replay = loadReplay(bytes, { verifyChecksum: c % 2 === 0, workCounter: work, limits: { maxHandles: MAX_HANDLES } });
          decodeEverything(replay);
          outcomes.set('loaded', (outcomes.get('loaded') ?? 0) + 1);
        } catch (e) {
          // A ReplayError wrapping an unexpected exception would be a validation gap: count it as a failure.
          if (e instanceof ReplayError && !e.message.includes('unexpected failure')) outcomes.set(e.code, (outcomes.get(e.code) ?? 0) + 1);
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
    expect(cases).toBeGreaterThanOrEqual(10000);
    // The corpus exercised the validators, not just one early exit.
    for (const code of ['TRUNCATED', 'CORRUPT', 'CHECKSUM', 'BAD_MAGIC', 'loaded']) expect(outcomes.get(code) ?? 0, code).toBeGreaterThan(0);
    expect(recorderFingerprint(rec)).toBe(fingerprint);
  });
});
