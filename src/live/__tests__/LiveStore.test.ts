import { describe, expect, it } from 'vitest';
import { FRAME_TRUNCATED, H_FLAGS } from '../../core/format/layout';
import { EntityBuffer } from '../../core/read/buffers';
import { Recorder } from '../../core/record/Recorder';
import { loadReplay } from '../../replay/loadReplay';
import { LiveSender } from '../LiveSender';
import { LiveStore } from '../LiveStore';
import { TestGame, LoopbackTransport, frameFingerprint } from './helpers';

describe('LiveSender → LiveStore', () => {
  it('rebuilds every frame, long after the game ring forgot it and recycled its handles', () => {
    const game = new TestGame(40, 7);
    const store = new LiveStore({ maxBytes: 8 << 20, maxFrames: 4096 });
    const transport = new LoopbackTransport((b) => store.accept(b));
    const sender = new LiveSender(game.recorder, transport, { game: 'test', buildId: 'b1' });
    const expected: string[] = [];
    for (let f = 0; f < 400; f++) {
      game.step();
      expected.push(frameFingerprint(game.recorder.reader, f));
    }
    expect(game.recorder.reader.oldestFrame).toBeGreaterThan(300); // the game's ring holds 32 frames
    expect(store.reader.oldestFrame).toBe(0);
    expect(store.reader.newestFrame).toBe(399);
    for (let f = 0; f < 400; f++) expect(frameFingerprint(store.reader, f)).toBe(expected[f]);
    expect(store.hello?.game).toBe('test');
    expect(store.channels.list().map((c) => c.name)).toEqual(['ai', 'physics', 'animation', 'network']);
    expect(store.staticLayers.list().map((l) => l.name)).toEqual(['grid']);
    expect(Array.from(store.entities.skeletons[0] ?? [])).toEqual([-1, 0, 1]);
    expect(store.eventKinds).toEqual(['spawn']);
    expect(sender.stats.framesSent).toBe(400);
    expect(sender.stats.framesSkipped).toBe(0);

    // Saved and loaded back: the same frames.
    const loaded = loadReplay(store.saveRange(100, 250, { compression: 'xor-delta' }));
    expect(loaded.reader.oldestFrame).toBe(100);
    expect(loaded.reader.newestFrame).toBe(250);
    for (let f = 100; f <= 250; f++) expect(frameFingerprint(loaded.reader, f)).toBe(expected[f]);
    expect(loaded.buildId).toBe('b1');
  });

  it('skips frames while the link is slow, marks the gap, and loses no life or description', () => {
    const game = new TestGame(30, 11);
    const store = new LiveStore({ maxBytes: 8 << 20, maxFrames: 4096 });
    const transport = new LoopbackTransport((b) => store.accept(b));
    const sender = new LiveSender(game.recorder, transport, { game: 'test', maxBufferedBytes: 1000 });
    const expected: string[] = [];
    for (let f = 0; f < 300; f++) {
      transport.bufferedAmount = f >= 50 && f < 120 ? 5000 : 0; // 70 frames over the limit
      game.step();
      expected.push(frameFingerprint(game.recorder.reader, f));
    }
    expect(sender.stats.framesSkipped).toBe(70);
    expect(sender.stats.gaps).toBe(1);
    expect(store.framesSkippedBySender).toBe(70);
    expect(store.gapFrames).toBe(70);
    for (let f = 0; f < 300; f++) {
      const gap = f >= 50 && f < 120;
      if (gap) {
        const at = store.ring.offsetOf(f);
        expect(store.ring.u32[at + H_FLAGS] & FRAME_TRUNCATED).toBe(FRAME_TRUNCATED);
        expect(store.reader.entityCountOf(f)).toBe(0);
        expect(store.reader.timeOf(f)).toBeCloseTo(f / 60, 9);
      } else {
        expect(frameFingerprint(store.reader, f)).toBe(expected[f]);
      }
    }
    // The whole window with its gap still saves and loads.
    const loaded = loadReplay(store.saveRange(0, 299));
    expect(loaded.reader.frameCount).toBe(300);
  });

  it('keeps a bounded window: by game time, and by arena bytes', () => {
    const game = new TestGame(20, 3);
    const store = new LiveStore({ windowSeconds: 2, maxBytes: 8 << 20, maxFrames: 4096 });
    new LiveSender(game.recorder, new LoopbackTransport((b) => store.accept(b)), {});
    for (let f = 0; f < 600; f++) game.step();
    // 60 frames a second of game time: 2 s is 121 frames (both ends included).
    expect(store.reader.frameCount).toBe(121);
    expect(store.reader.newestFrame).toBe(599);
    const small = new LiveStore({ maxBytes: 64 * 1024, maxFrames: 4096 });
    const game2 = new TestGame(20, 3);
    new LiveSender(game2.recorder, new LoopbackTransport((b) => small.accept(b)), {});
    for (let f = 0; f < 600; f++) game2.step();
    expect(small.ring.bytesUsed).toBeLessThanOrEqual(64 * 1024);
    expect(small.reader.frameCount).toBeLessThan(600);
    // Handles of lives whose frames are all gone are given back: the table does not grow without end.
    expect(small.entities.liveCount).toBeLessThan(200);
  });

  it('a second viewer joining late catches up with a resync', () => {
    const game = new TestGame(25, 5);
    const early = new LiveStore();
    const late = new LiveStore();
    let lateOn = false;
    const transport = new LoopbackTransport((b) => {
      early.accept(b);
      // Like the viewer client: nothing before this session's hello.
      if (lateOn && (late.hello !== null || b[0] === 1)) late.accept(b);
    });
    const sender = new LiveSender(game.recorder, transport, {});
    for (let f = 0; f < 100; f++) game.step();
    lateOn = true;
    sender.resync();
    const expected: string[] = [];
    for (let f = 100; f < 200; f++) {
      game.step();
      expected.push(frameFingerprint(game.recorder.reader, f));
    }
    for (let f = 100; f < 200; f++) {
      expect(frameFingerprint(late.reader, f)).toBe(expected[f - 100]);
      expect(frameFingerprint(early.reader, f)).toBe(expected[f - 100]);
    }
    expect(late.reader.oldestFrame).toBe(100);
  });
});

describe('LiveSender → LiveStore: 2D display state', () => {
  it('streams the texture names with the display records, and a saved range loads with them', () => {
    const recorder = new Recorder({ maxFrames: 64, maxEntitiesPerFrame: 16 });
    const store = new LiveStore({ maxBytes: 1 << 20, maxFrames: 256 });
    new LiveSender(recorder, new LoopbackTransport((b) => store.accept(b)), { game: 'test', buildId: 'b1' });
    const coin = recorder.texture('coin');
    for (let f = 0; f < 20; f++) {
      recorder.beginFrame(f / 60, 1 / 60);
      recorder.entity2D(1, f, 0, 0);
      // A texture interned mid-stream reaches the viewer before the first frame that uses it.
      const tex = f < 10 ? coin : recorder.texture('gem');
      recorder.display(1, 1 + f / 10, 1, 1 - f / 40, true, tex);
      recorder.endFrame();
    }
    expect(store.textures).toEqual(['coin', 'gem']);
    const rows = new EntityBuffer();
    expect(store.reader.readEntities(15, rows)).toBe(true);
    expect(store.reader.textures[rows.textures[0]]).toBe('gem');
    const loaded = loadReplay(store.saveRange(5, 15));
    expect(loaded.reader.textures).toEqual(['coin', 'gem']);
    expect(loaded.reader.readEntities(5, rows)).toBe(true);
    expect(loaded.reader.textures[rows.textures[0]]).toBe('coin');
    expect(rows.scales[0]).toBeCloseTo(1.5, 5);
  });
});
