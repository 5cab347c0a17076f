import { describe, expect, it } from 'vitest';
import { Recorder } from '../../core/record/Recorder';
import { FRAME_TRUNCATED, H_FLAGS } from '../../core/format/layout';
import { loadReplay } from '../loadReplay';
import { saveReplay } from '../saveReplay';
import { REPLAY_FORMAT_VERSION } from '../replayFormat';
import { expectSameFrames, makeRecording, recorderFingerprint, splitFile } from './helpers';

const bookmarks = [
  { frame: 130, label: 'guard turns' },
  { frame: 150, label: 'stuck — in the wall' },
];
const info = {
  buildId: 'game-1.4.2+abc',
  platform: 'test-platform',
  note: 'The guard walks through the wall',
  fields: { level: 'castle', seed: '42' },
};

describe('replay round trip', () => {
  for (const compression of ['none', 'xor-delta'] as const) {
    it(`every frame, entity, bookmark and piece of metadata survives save and load (${compression})`, () => {
      const rec = makeRecording({ frames: 160, entities: 24, seed: 7 });
      // The ring wrapped: the oldest frames were evicted.
      expect(rec.ring.oldestFrame).toBeGreaterThan(0);
      const before = recorderFingerprint(rec);
      const bytes = saveReplay(rec, { ...info, bookmarks, compression, savedAt: '2025-01-02T03:04:05.000Z' });
      expect(recorderFingerprint(rec)).toBe(before); // saving only reads

      const replay = loadReplay(bytes, { expectedBuildId: info.buildId });
      expect(replay.warnings).toEqual([]);
      expect(replay.formatVersion).toBe(REPLAY_FORMAT_VERSION);
      expect(replay.compression).toBe(compression);
      expect(replay.buildId).toBe(info.buildId);
      expect(replay.savedAt).toBe('2025-01-02T03:04:05.000Z');
      expect(replay.info.platform).toBe(info.platform);
      expect(replay.info.note).toBe(info.note);
      expect({ ...replay.info.fields }).toEqual(info.fields);
      expect(replay.bookmarks).toEqual(bookmarks);
      expect(replay.fileBytes).toBe(bytes.length);
      expect(replay.frameBytes).toBeLessThanOrEqual(rec.ring.bytesUsed);

      expectSameFrames(rec.reader, replay.reader);

      expect(replay.channels.list()).toEqual(rec.channels.list());
      expect(replay.eventKinds).toEqual(rec.eventKinds);
      expect(replay.entities.kinds).toEqual(rec.entities.kinds);
      expect(replay.entities.skeletons.map((s) => (s ? Array.from(s) : s))).toEqual(
        rec.entities.skeletons.map((s) => (s ? Array.from(s) : s)),
      );
      const layers = (l: ReturnType<typeof rec.staticLayers.list>): unknown =>
        l.map((x) => ({ name: x.name, primCount: x.primCount, words: Array.from(x.words) }));
      expect(layers(replay.staticLayers.list())).toEqual(layers(rec.staticLayers.list()));
      // The id map points at each id's newest life, as in the recorder (ids come back as new lives).
      let reused = 0;
      for (let h = 0; h < replay.entities.highWater; h++) {
        if (replay.entities.used[h] === 0) continue;
        const id = replay.entities.ids[h];
        expect(replay.entities.lookup(id)).toBe(rec.entities.lookup(id));
        if (replay.entities.lookup(id) !== h) reused++;
      }
      expect(reused).toBeGreaterThan(0);
    });
  }

  it('a loaded replay saves back to the same bytes', () => {
    const rec = makeRecording({ frames: 90, entities: 12, seed: 3 });
    for (const compression of ['none', 'xor-delta'] as const) {
      const options = { ...info, bookmarks, compression, savedAt: 'fixed' };
      const bytes = saveReplay(rec, options);
      const again = saveReplay(loadReplay(bytes), options);
      expect(Buffer.from(again).equals(Buffer.from(bytes))).toBe(true);
    }
  });

  it('keeps frames that were truncated to their header', () => {
    const rec = makeRecording({ frames: 40, entities: 6, seed: 11, hugeFrameAt: 37 });
    const at = rec.ring.offsetOf(37);
    expect(rec.ring.u32[at + H_FLAGS] & FRAME_TRUNCATED).toBe(FRAME_TRUNCATED);
    const replay = loadReplay(saveReplay(rec));
    expectSameFrames(rec.reader, replay.reader);
  });

  it('saves an empty recorder, and one with a frame still open (which is not saved)', () => {
    const empty = new Recorder({ maxFrames: 10, arenaBytes: 4096, onWarning: () => {} });
    const replay = loadReplay(saveReplay(empty));
    expect(replay.reader.frameCount).toBe(0);
    expect(replay.entities.highWater).toBe(0);

    const rec = makeRecording({ frames: 20, entities: 5, seed: 5 });
    rec.beginFrame(99, 0.1);
    rec.entity(100000, 1, 2, 3, 0, 0, 0, 1);
    const open = loadReplay(saveReplay(rec));
    expect(open.reader.newestFrame).toBe(rec.reader.newestFrame);
    expectSameFrames(rec.reader, open.reader);
    rec.endFrame();
  });

  it('static layers are optional', () => {
    const rec = makeRecording({ frames: 10, entities: 4, seed: 9 });
    const replay = loadReplay(saveReplay(rec, { includeStaticLayers: false }));
    expect(replay.staticLayers.list()).toEqual([]);
  });

  it('compression makes files of similar frames much smaller', () => {
    const rec = makeRecording({ frames: 200, entities: 40, seed: 1, options: { maxFrames: 200, arenaBytes: 2 << 20 } });
    const plain = saveReplay(rec, { savedAt: 'x' });
    const packed = saveReplay(rec, { savedAt: 'x', compression: 'xor-delta' });
    expect(packed.length).toBeLessThan(plain.length * 0.6);
    // The uncompressed file is the ring's words plus a small header.
    expect(plain.length).toBeLessThan(rec.ring.bytesUsed * 1.05);
  });

  it('loading builds new objects and never touches the recorder', () => {
    const rec = makeRecording({ frames: 50, entities: 10, seed: 2 });
    const bytes = saveReplay(rec);
    const before = recorderFingerprint(rec);
    const replay = loadReplay(bytes);
    expect(replay.ring).not.toBe(rec.ring);
    expect(replay.entities).not.toBe(rec.entities);
    expect(replay.ring.buffer).not.toBe(rec.ring.buffer);
    expect(recorderFingerprint(rec)).toBe(before);
    // Recording on afterwards does not change the loaded replay.
    const oldest = replay.reader.oldestFrame;
    rec.beginFrame(1, 1);
    rec.endFrame();
    expect(replay.reader.oldestFrame).toBe(oldest);
  });

  it('a generic MessagePack decoder reads the header and metadata', () => {
    const rec = makeRecording({ frames: 30, entities: 8, seed: 4 });
    const parts = splitFile(saveReplay(rec, { ...info, bookmarks, savedAt: 'now' }));
    expect(parts.version).toBe(REPLAY_FORMAT_VERSION);
    expect(parts.header.get('buildId')).toBe(info.buildId);
    const frames = parts.header.get('frames') as Map<string, unknown>;
    expect(frames.get('first')).toBe(rec.ring.oldestFrame);
    expect(frames.get('count')).toBe(rec.ring.frameCount);
    expect(parts.frames.length).toBe(rec.ring.frameCount);
    const channels = (parts.header.get('channels') as Array<Map<string, unknown>>).map((c) => c.get('name'));
    expect(channels).toEqual(['ai', 'physics', 'animation', 'network', 'audio']);
  });
});
