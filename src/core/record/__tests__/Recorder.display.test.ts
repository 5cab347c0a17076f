import { describe, expect, it } from 'vitest';
import { DISPLAY_RECORDED, DISPLAY_SHOWN, EntityBuffer } from '../../read/buffers';
import { SampleBuffer } from '../../playback/SampleBuffer';
import { Sampler } from '../../playback/Sampler';
import { quiet } from './helpers';

describe('Recorder: 2D display state (issue 19)', () => {
  it('entity2D stores the angle as a rotation about z, the same bytes as entity() with that quaternion', () => {
    const a = quiet();
    const b = quiet();
    a.beginFrame(0, 1);
    b.beginFrame(0, 1);
    for (let i = 0; i < 20; i++) {
      const angle = i * 0.7 - 5;
      a.entity2D(i, i * 1.5, -i, angle, i & 3);
      b.entity(i, i * 1.5, -i, 0, 0, 0, Math.sin(angle / 2), Math.cos(angle / 2), i & 3);
    }
    a.entity2D(99, 0, 0, Number.NaN);
    b.entity(99, 0, 0, 0, 0, 0, Number.NaN, Number.NaN);
    a.endFrame();
    b.endFrame();
    const wa = a.ring.u32.subarray(a.ring.offsetOf(0), a.ring.offsetOf(0) + a.ring.wordsOf(0));
    const wb = b.ring.u32.subarray(b.ring.offsetOf(0), b.ring.offsetOf(0) + b.ring.wordsOf(0));
    expect(Array.from(wa)).toEqual(Array.from(wb));
    expect(a.stats.invalidRotations).toBe(1);
  });

  it('costs nothing unused; stores scale, alpha, visibility and texture per entity, 16 bytes each', () => {
    const r = quiet();
    r.beginFrame(0, 1);
    for (let i = 0; i < 10; i++) r.entity2D(i, i, 0, 0);
    r.endFrame();
    const bare = r.ring.wordsOf(0);
    const COIN = r.texture('coin');
    const GEM = r.texture('gem');
    expect(r.texture('coin')).toBe(COIN);
    r.beginFrame(1, 1);
    for (let i = 0; i < 10; i++) {
      r.entity2D(i, i, 0, 0);
      if (i % 3 === 0) r.display(i, 1 + i, 2, i / 10, i !== 3, i === 6 ? GEM : COIN);
    }
    r.endFrame();
    expect(r.ring.wordsOf(1) - bare).toBe(4 * 4);
    const e = new EntityBuffer();
    r.reader.readEntities(0, e);
    expect(e.hasDisplay).toBe(false);
    r.reader.readEntities(1, e);
    expect(e.hasDisplay).toBe(true);
    for (let i = 0; i < 10; i++) {
      if (i % 3 !== 0) {
        expect(e.display[i]).toBe(0);
        continue;
      }
      expect(e.display[i]).toBe(DISPLAY_RECORDED | (i !== 3 ? DISPLAY_SHOWN : 0));
      expect(e.scales[i * 2]).toBe(1 + i);
      expect(e.scales[i * 2 + 1]).toBe(2);
      expect(e.alphas[i]).toBeCloseTo(i / 10, 4);
      expect(r.reader.textures[e.textures[i]]).toBe(i === 6 ? 'gem' : 'coin');
    }
  });

  it('repairs bad values, drops a display not after its entity, and the columns form matches the call form', () => {
    const r = quiet();
    r.beginFrame(0, 1);
    r.entity2D(1, 0, 0, 0);
    r.display(2, 1, 1, 1); // not after entity 2
    r.display(1, Number.NaN, Number.POSITIVE_INFINITY, 7, true, 42);
    r.endFrame();
    expect(r.stats.displayDropped).toBe(1);
    expect(r.stats.invalidDisplay).toBe(1);
    const e = new EntityBuffer();
    r.reader.readEntities(0, e);
    expect([e.scales[0], e.scales[1], e.alphas[0], e.textures[0]]).toEqual([1, 1, 1, -1]);
    const T = r.texture('t');
    const cols = {
      ids: new Int32Array([5, 6, 7]),
      x: new Float32Array(3),
      y: new Float32Array(3),
      z: new Float32Array(3),
      qx: new Float32Array(3),
      qy: new Float32Array(3),
      qz: new Float32Array(3),
      qw: new Float32Array([1, 1, 1]),
    };
    const disp = {
      scaleX: new Float32Array([1, 2, 3]),
      scaleY: new Float32Array([4, 5, 6]),
      alpha: new Float32Array([0, 0.5, 1]),
      visible: new Uint8Array([1, 0, 1]),
      texture: new Int32Array([T, -1, T]),
    };
    r.beginFrame(1, 1);
    r.entityColumns(3, cols);
    r.displayColumns(3, disp);
    r.displayColumns(2, disp); // not the count of the call before: dropped
    r.endFrame();
    expect(r.stats.displayDropped).toBe(2);
    r.reader.readEntities(1, e);
    expect(Array.from(e.scales.subarray(0, 6))).toEqual([1, 4, 2, 5, 3, 6]);
    expect(Array.from(e.display.subarray(0, 3))).toEqual([3, 1, 3]);
    expect(Array.from(e.textures.subarray(0, 3))).toEqual([T, -1, T]);
  });

  it('samples blend scale and alpha, and take visibility and texture from the nearer frame', () => {
    const r = quiet();
    const A = r.texture('a');
    const B = r.texture('b');
    for (let f = 0; f < 2; f++) {
      r.beginFrame(f, 1);
      r.entity2D(1, 0, 0, 0);
      r.display(1, 1 + f, 1 + 2 * f, 1 - f, f === 0, f === 0 ? A : B);
      r.entity2D(2, 0, 0, 0); // no display state
      r.endFrame();
    }
    const s = new Sampler(r.reader);
    const out = new SampleBuffer();
    s.sample(0.25, out);
    expect(out.hasDisplay).toBe(true);
    const k = out.indexOfHandle(r.entities.lookup(1));
    expect(out.scales[k * 2]).toBeCloseTo(1.25, 6);
    expect(out.scales[k * 2 + 1]).toBeCloseTo(1.5, 6);
    expect(out.alphas[k]).toBeCloseTo(0.75, 4);
    expect(out.display[k]).toBe(DISPLAY_RECORDED | DISPLAY_SHOWN);
    expect(out.textures[k]).toBe(A);
    expect(out.display[out.indexOfHandle(r.entities.lookup(2))]).toBe(0);
    s.sample(0.75, out);
    expect(out.display[k]).toBe(DISPLAY_RECORDED);
    expect(out.textures[k]).toBe(B);
    s.sample(1, out);
    expect(out.scales[k * 2]).toBe(2);
  });
});
