import { describe, expect, it } from 'vitest';
import { EntityFlags } from '../../core/format/layout';
import { EntityBuffer, EventBuffer, FrameHeader, PrimitiveBuffer } from '../../core/read/buffers';
import { Channel } from '../../core/store/ChannelRegistry';
import { Recorder } from '../../core/record/Recorder';
import type { RecorderOptions } from '../../core/record/RecorderOptions';
import { loadReplay } from '../loadReplay';
import type { LoadedReplay } from '../loadReplay';
import { saveReplay } from '../saveReplay';
import { expectSameFrames } from './helpers';

/**
 * The examples of issue 12, each recorded, saved and loaded: before the rules were shared, each
 * of these recordings saved to a file that `loadReplay` refused (or stored a wrong value live).
 */

function recorder(o: Partial<RecorderOptions> = {}): Recorder & { warnings: string[] } {
  const warnings: string[] = [];
  const r = new Recorder({ onWarning: (m) => warnings.push(m), ...o });
  return Object.assign(r, { warnings });
}

/** Saves and loads `rec` (both codecs), and checks that the loaded frames equal the recorder's. */
function roundTrip(rec: Recorder): LoadedReplay {
  let replay: LoadedReplay | undefined;
  for (const compression of ['none', 'xor-delta'] as const) {
    replay = loadReplay(saveReplay(rec, { compression }));
    expectSameFrames(rec.reader, replay.reader);
  }
  return replay as LoadedReplay;
}

const BEYOND = [1e39, -1e39, -1e300, Infinity, NaN];

describe('finite values beyond float32 range are repaired like NaN, and the file loads', () => {
  it('dt: stored as 0 and counted', () => {
    for (const dt of BEYOND) {
      const r = recorder();
      r.beginFrame(1, dt);
      r.endFrame();
      const h = new FrameHeader();
      r.reader.readHeader(0, h);
      expect(h.dt).toBe(0);
      expect(r.stats.invalidTimes).toBe(1);
      expect(h.sanitized).toBe(1);
      roundTrip(r);
    }
  });

  it('the camera: position 0, zoom 1 (a zoom below float32 range too), counted', () => {
    for (const [v, zoom] of [
      [1e39, 1],
      [-1e300, 2],
      [0, 1e-46],
      [0, 1e39],
      [0, -1],
    ]) {
      const r = recorder();
      r.beginFrame(0, 0.1);
      r.camera(v, 2, v, 0, 0, 0, 1, zoom);
      r.endFrame();
      const h = new FrameHeader();
      r.reader.readHeader(0, h);
      expect(Array.from(h.camera)).toEqual([v === 0 ? 0 : 0, 2, 0, 0, 0, 0, 1, zoom === 2 ? 2 : 1]);
      expect(r.stats.invalidCameras).toBe(1);
      roundTrip(r);
    }
  });

  it('primitive coordinates and sizes, text anchors: the primitive is dropped and counted', () => {
    for (const v of [1e39, -1e300]) {
      const r = recorder();
      r.beginFrame(0, 0.1);
      r.draw.point(Channel.AI, 0, 0, 0, v, 0xffffff);
      r.draw.line(Channel.AI, v, 0, 0, 1, 1, 1, 0xffffff);
      r.draw.arrow(Channel.AI, 0, 0, 0, 1, 1, 1, v, 0xffffff);
      r.draw.sphere(Channel.AI, 0, 0, 0, v, 0xffffff);
      r.draw.aabb(Channel.AI, 0, 0, 0, 1, v, 1, 0xffffff);
      r.draw.text(Channel.AI, v, 0, 0, 'far away', 0xffffff);
      r.draw.point(Channel.AI, 1, 2, 3, 4, 0xffffff); // the one valid primitive
      r.endFrame();
      const p = new PrimitiveBuffer();
      r.reader.readPrimitives(0, 0xffffffff, p);
      expect(p.count).toBe(1);
      expect(r.stats.invalidPrimitives).toBe(6);
      roundTrip(r);
    }
  });

  it('event positions and values: 0 stored, counted', () => {
    const r = recorder();
    r.beginFrame(0, 0.1);
    r.event('hit', 3, 1e39, 1, -1e300, 1e39);
    r.endFrame();
    const ev = new EventBuffer();
    r.reader.readEvents(0, ev);
    expect(Array.from(ev.data.subarray(0, 4))).toEqual([0, 1, 0, 0]);
    expect(r.stats.invalidEvents).toBe(1);
    roundTrip(r);
  });

  it('bone offsets (and NaN ones, once silently 0): 0 stored, the bones counted, the entity flagged SANITIZED', () => {
    for (const v of [1e39, NaN]) {
      const r = recorder();
      r.beginFrame(0, 0.1);
      r.entity(1, 0, 0, 0, 0, 0, 0, 1, 4);
      r.bones(1, 2, [0, 0, 0, 1, 0, 0, 0, 1], [1, v, 3, 4, 5, 6]);
      r.endFrame();
      const e = new EntityBuffer();
      r.reader.readEntities(0, e);
      expect(Array.from(e.boneOffsets.subarray(0, 6))).toEqual([1, 0, 3, 4, 5, 6]);
      expect(e.flags[0]).toBe(4 | EntityFlags.SANITIZED);
      expect(r.stats.invalidBones).toBe(1);
      roundTrip(r);
    }
  });

  it('zero and NaN bone rotations: the identity stored, counted and flagged', () => {
    const r = recorder();
    r.beginFrame(0, 0.1);
    r.entity(1, 0, 0, 0, 0, 0, 0, 1);
    r.bones(1, 2, [0, 0, 0, 0, NaN, 0, 0, 1], [0, 0, 0, 0, 0, 0]);
    r.endFrame();
    const e = new EntityBuffer();
    r.reader.readEntities(0, e);
    expect(Array.from(e.boneRotations.subarray(0, 8))).toEqual([0, 0, 0, 1, 0, 0, 0, 1]);
    expect(e.flags[0]).toBe(EntityFlags.SANITIZED);
    expect(r.stats.invalidBones).toBe(1);
    roundTrip(r);
  });

  it('static layers: a primitive beyond float32 range is dropped, and the layer loads', () => {
    const r = recorder();
    r.staticLayers.set('walls', (d) => {
      d.line(Channel.AI, 0, 0, 0, 1e39, 0, 0, 0xffffff);
      d.text(Channel.AI, -1e300, 0, 0, 'label', 0xffffff);
      d.aabb(Channel.AI, 0, 0, 0, 1, 1, 1, 0xffffff);
    });
    expect(r.staticLayers.get('walls')?.primCount).toBe(1);
    r.beginFrame(0, 0.1);
    r.endFrame();
    expect(roundTrip(r).staticLayers.get('walls')?.primCount).toBe(1);
  });
});

describe('entries dropped at endFrame leave no empty bone record', () => {
  it('a duplicate id with bones: the first keeps its bones, the file loads', () => {
    const r = recorder();
    r.beginFrame(0, 0.1);
    r.entity(7, 0, 0, 0, 0, 0, 0, 1);
    r.bones(7, 1, [0, 0, 0, 1], [1, 2, 3]);
    r.entity(8, 0, 0, 0, 0, 0, 0, 1);
    r.entity(8, 0, 0, 0, 0, 0, 0, 1); // duplicate: dropped when the frame resolves
    r.bones(8, 1, [0, 0, 0, 1], [4, 5, 6]);
    r.endFrame();
    const e = new EntityBuffer();
    r.reader.readEntities(0, e);
    expect(e.count).toBe(2);
    expect([e.boneStart[0], e.boneCount[0]]).toEqual([0, 1]);
    expect(Array.from(e.boneOffsets.subarray(0, 3))).toEqual([1, 2, 3]);
    roundTrip(r);
  });

  it('a bad id through entityColumns with an Int32Array, its bones following', () => {
    const r = recorder({ maxEntityId: 100 });
    const cols = {
      ids: Int32Array.of(5, 500),
      x: new Float32Array(2),
      y: new Float32Array(2),
      z: new Float32Array(2),
      qx: new Float32Array(2),
      qy: new Float32Array(2),
      qz: new Float32Array(2),
      qw: Float32Array.of(1, 1),
    };
    r.beginFrame(0, 0.1);
    r.entity(3, 0, 0, 0, 0, 0, 0, 1);
    r.bones(3, 1, [0, 0, 0, 1], [7, 8, 9]);
    r.entityColumns(2, cols);
    r.bones(500, 1, [0, 0, 0, 1], [1, 1, 1]);
    r.endFrame();
    const e = new EntityBuffer();
    r.reader.readEntities(0, e);
    expect(e.count).toBe(2);
    expect(e.boneStart[0]).toBe(0);
    expect(Array.from(e.boneOffsets.subarray(0, 3))).toEqual([7, 8, 9]);
    roundTrip(r);
  });
});

describe('configuration calls throw a RangeError and change nothing', () => {
  it('describeSkeleton: cycles, self-parents, out-of-range parents, 4,096 bones', () => {
    const r = recorder();
    for (const parents of [[1, 0], [-1, 1], [-1, 40000], [-1, -2], [-1, 0.5], new Array<number>(4096).fill(-1)]) {
      expect(() => r.describeSkeleton('bad', parents)).toThrow(RangeError);
    }
    expect(r.entities.kinds).toEqual([]);
    r.describeSkeleton('ok', new Array<number>(4095).fill(-1));
    expect(r.entities.skeletons[0]?.length).toBe(4095);
  });

  it('channel budgets: Infinity, 2^31 .. 2^32 and 1e10 are refused, the channel not registered', () => {
    const r = recorder();
    for (const budget of [Infinity, 2 ** 31, 2 ** 32 - 1, 1e10, -1, 1.5, NaN]) {
      expect(() => r.channels.register('net', { budget })).toThrow(RangeError);
      expect(r.channels.indexOf('net')).toBe(-1);
      expect(() => r.channels.setBudget(0, budget)).toThrow(RangeError);
    }
    expect(r.channels.count).toBe(3);
    expect(r.channels.list()[0].budget).toBe(1024);
    expect(() => r.channels.register('net', { color: 2 ** 24 })).toThrow(RangeError);
    expect(() => r.channels.register('\uD800')).toThrow(RangeError);
    expect(r.channels.register('net', { budget: 5 })).toBe(3);
  });

  it('options out of range are refused at construction', () => {
    for (const o of [
      { maxFrames: 2 ** 21 },
      { maxFrames: 1.5 },
      { arenaBytes: Infinity },
      { primitiveBudget: Infinity },
      { primitiveBudget: 2 ** 31 },
      { maxEventsPerFrame: -1 },
      { paragraphRadius: NaN },
      { maxBoneWordsPerFrame: 0.5 },
    ]) {
      expect(() => new Recorder(o)).toThrow(RangeError);
    }
  });
});

describe('strings the file cannot hold are repaired when recorded', () => {
  it('a kind or a label longer than 65,536 characters: cut, counted, and the file saves and loads', () => {
    const r = recorder();
    r.beginFrame(0, 0.1);
    r.entity(1, 0, 0, 0, 0, 0, 0, 1);
    r.describe(1, 'k'.repeat(70_000), 'l'.repeat(70_000));
    r.endFrame();
    const replay = roundTrip(r);
    expect(replay.entities.kinds[0].length).toBe(65_536);
    expect(replay.entities.labels[0]?.length).toBe(65_536);
    expect(r.stats.invalidNames).toBe(2);
  });

  it('lone surrogates in kinds, labels and event kinds: replaced by U+FFFD, the same live and loaded', () => {
    const r = recorder();
    r.beginFrame(0, 0.1);
    r.entity(1, 0, 0, 0, 0, 0, 0, 1);
    r.describe(1, 'a\uD800', 'b\uDC00c😀');
    r.event('\uDBFFhit', -1, 0, 0, 0);
    r.endFrame();
    expect(r.entities.kinds).toEqual(['a\uFFFD']);
    const replay = roundTrip(r);
    expect(replay.entities.labels[0]).toBe('b\uFFFDc😀');
    expect(replay.eventKinds).toEqual(['\uFFFDhit']);
  });
});

describe('lives the property test found wrong', () => {
  it('recorded, despawned and recorded again in frame 0: two lives, not one handle twice', () => {
    for (const wasm of [true, false]) {
      const r = recorder({ wasm });
      r.beginFrame(0, 0.1);
      r.entity(5, 1, 0, 0, 0, 0, 0, 1);
      r.despawn(5);
      r.entity(5, 2, 0, 0, 0, 0, 0, 1);
      r.endFrame();
      const e = new EntityBuffer();
      r.reader.readEntities(0, e);
      expect(e.count).toBe(2);
      expect(e.handles[0]).not.toBe(e.handles[1]);
      roundTrip(r);
    }
  });

  it('a camera rotation whose word reads as a float NaN loads (the loader once checked it as a float)', () => {
    const r = recorder();
    r.beginFrame(0, 0.1);
    r.camera(0, 0, 0, 79, 80, 0, 0, 2);
    r.endFrame();
    const at = r.ring.offsetOf(0);
    expect(Number.isNaN(r.ring.f32[at + 18])).toBe(true);
    roundTrip(r);
  });

  it('despawn(NaN) is ignored and counted (an int32 queue once made it despawn id 0)', () => {
    const r = recorder();
    r.beginFrame(0, 0.1);
    r.entity(0, 1, 0, 0, 0, 0, 0, 1);
    r.endFrame();
    r.beginFrame(1, 0.1);
    r.despawn(NaN);
    r.despawn(1.5);
    r.entity(0, 2, 0, 0, 0, 0, 0, 1);
    r.endFrame();
    const e = new EntityBuffer();
    r.reader.readEntities(1, e);
    expect(r.entities.spawnFrames[e.handles[0]]).toBe(0);
    expect(r.stats.idsOutOfRange).toBe(2);
    roundTrip(r);
  });
});

describe('per-frame values the recorder stored wrongly', () => {
  it('a NaN position keeps the last position when this frame evicted the previous one', () => {
    for (const wasm of [true, false]) {
      const r = recorder({ maxFrames: 1, wasm });
      r.beginFrame(0, 0.1);
      r.entity(1, 5, 6, 7, 0, 0, 0, 1);
      r.endFrame();
      r.beginFrame(1, 0.1);
      r.entity(1, NaN, 0, 0, 0, 0, 0, 1);
      r.endFrame();
      const e = new EntityBuffer();
      r.reader.readEntities(1, e);
      expect(Array.from(e.positions.subarray(0, 3))).toEqual([5, 6, 7]);
      expect(e.flags[0]).toBe(EntityFlags.SANITIZED);
    }
  });

  it('beginFrame(NaN) and a time that goes back store the previous time: times never decrease', () => {
    const r = recorder();
    for (const t of [5, NaN, 3, Infinity, 6]) {
      r.beginFrame(t, 0.1);
      r.endFrame();
    }
    expect([0, 1, 2, 3, 4].map((f) => r.reader.timeOf(f))).toEqual([5, 5, 5, 5, 6]);
    expect(r.stats.invalidTimes).toBe(3);
    roundTrip(r);
  });

  it('flags outside 0..127: -1 no longer sets SANITIZED, other bytes keep their low bits, anything else is 0', () => {
    const r = recorder();
    const given = [-1, 128 | 5, 256, 1.5, NaN, 2 ** 31, 127];
    const stored = [0, 5, 0, 0, 0, 0, 127];
    r.beginFrame(0, 0.1);
    given.forEach((f, i) => r.entity(i, 0, 0, 0, 0, 0, 0, 1, f));
    r.entityBatch(1, [20], [0, 0, 0], [0, 0, 0, 1], [-1]);
    r.entityColumns(1, {
      ids: Int32Array.of(21),
      x: new Float32Array(1),
      y: new Float32Array(1),
      z: new Float32Array(1),
      qx: new Float32Array(1),
      qy: new Float32Array(1),
      qz: new Float32Array(1),
      qw: Float32Array.of(1),
      flags: Uint8Array.of(0xff),
    });
    r.endFrame();
    const e = new EntityBuffer();
    r.reader.readEntities(0, e);
    expect(Array.from(e.flags.subarray(0, e.count))).toEqual([...stored, 0, 0x7f]);
    expect(r.stats.invalidFlags).toBe(8);
    roundTrip(r);
  });

  it('tiny and huge finite quaternions: the identity, under a warning that says why', () => {
    const r = recorder();
    r.beginFrame(0, 0.1);
    r.entity(1, 0, 0, 0, 0, 0, 1e-12, 1e-12);
    r.entity(2, 0, 0, 0, 1e12, 0, 0, 0);
    r.endFrame();
    expect(r.stats.invalidRotations).toBe(2);
    expect(r.warnings.join('\n')).toMatch(/norm below about 1e-10 or above about 1e10/);
  });
});
