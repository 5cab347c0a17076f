import { describe, expect, it } from 'vitest';
import { HANDLE_BITS, HANDLE_MASK } from '../../format/layout';
import { decodeQuatAt } from '../../math/quat';
import { SLERP_SERIES_MIN_COS } from '../../math/slerp';
import { SLERP_SHORT_MIN_COS } from '../sampleRows';
import { Sampler } from '../Sampler';
import { Presence, SampleBuffer } from '../SampleBuffer';
import { unpackQuat } from '../seekRows';
import { rng } from '../../../../tests/helpers/random';
import { axisAngle } from '../../../../tests/helpers/rotations';
import { quietRecorder } from './helpers';

/**
 * `seekRows`'s own pieces: its quaternion unpacking against `decodeQuatAt`, the literals its loops use
 * in place of imported constants, and the output's growth and bone slots when the seek writes A's
 * rows before it knows how many rows there are.
 */

const word = new Uint32Array(1);
const fast = new Float32Array(6);
const ref = new Float32Array(6);
const fastBits = new Uint32Array(fast.buffer);
const refBits = new Uint32Array(ref.buffer);

/** `unpackQuat` and `decodeQuatAt` on one code, into rows 1..4 of arrays filled with 7: whether every bit agrees. */
function agree(code: number): boolean {
  word[0] = code >>> 0;
  fast.fill(7);
  ref.fill(7);
  unpackQuat(word, 0, fast, 1);
  decodeQuatAt(word, 0, ref, 1);
  for (let i = 0; i < 6; i++) if (fastBits[i] !== refBits[i]) return false;
  return true;
}

describe('seekRows', () => {
  it('unpacks every orientation code to the bits decodeQuatAt gives', () => {
    let differ = 0;
    const check = (code: number): void => {
      if (!agree(code)) differ++;
    };
    // Each component through its 1,024 codes, with every largest-component index, the others at
    // the middle, the ends and random codes (the ends make 1 - a² - b² - c² negative: a largest of 0).
    const rand = rng(5);
    for (let idx = 0; idx < 4; idx++) {
      for (let v = 0; v < 1024; v++) {
        for (const other of [0, 511, 1022, 1023, Math.floor(rand() * 1024)]) {
          check((idx << 30) | (v << 20) | (other << 10) | other);
          check((idx << 30) | (other << 20) | (v << 10) | other);
          check((idx << 30) | (other << 20) | (other << 10) | v);
        }
      }
    }
    for (let k = 0; k < 200_000; k++) check(Math.floor(rand() * 2 ** 32));
    expect(differ).toBe(0);
    // The largest component lands at its index, the others in order around it, nothing outside.
    expect(agree((2 << 30) | (600 << 20) | (511 << 10) | 400)).toBe(true);
    const f = fast;
    expect(f[0]).toBe(7);
    expect(f[1]).toBeGreaterThan(0.1);
    expect(f[2]).toBe(0);
    expect(f[3]).toBeGreaterThan(0.97);
    expect(f[4]).toBeLessThan(-0.1);
    expect(f[5]).toBe(7);
  });

  it('uses literals equal to the constants they stand for', () => {
    expect(HANDLE_MASK).toBe(0xffffff);
    expect(HANDLE_BITS).toBe(24);
    expect([Presence.ONLY_A, Presence.ONLY_B, Presence.BOTH]).toEqual([1, 2, 3]);
    expect(SLERP_SHORT_MIN_COS).toBe(0.99);
    expect(SLERP_SERIES_MIN_COS).toBe(0.5);
  });

  it('grows a fresh output past A rows, and leaves no bone slot from an earlier sample', () => {
    // Frame 1 has bones (decoded path); frames 3 and 4 none, and frame 4 holds many newcomers, so a
    // seek to 3.5 has more rows than A has entities.
    const rec = quietRecorder();
    for (let f = 0; f < 5; f++) {
      rec.beginFrame(f, 1);
      const n = f === 4 ? 40 : 6;
      for (let id = 0; id < n; id++) {
        rec.entity(id, id + f, -id, f * 0.5, ...axisAngle(0, 1, 1, 0.2 * f + id), id % 3);
        if (f === 1 && id < 4)
          rec.bones(id, 2, [...axisAngle(1, 0, 0, 0.5), ...axisAngle(0, 1, 0, 0.25)], [1, 2, 3, 4, 5, 6]);
      }
      rec.endFrame();
    }
    const reference = (): SampleBuffer => {
      const s = new Sampler(rec.reader);
      const out = new SampleBuffer();
      s.sample(3.5, out); // a seek
      s.sample(3.5, out); // the same pair again: decoded
      expect(s.decodeCount).toBe(2);
      return out;
    };
    const ref = reference();
    expect(ref.count).toBe(40);
    const same = (out: SampleBuffer): void => {
      expect(out.count).toBe(ref.count);
      for (let k = 0; k < ref.count; k++) {
        expect([out.handles[k], out.ids[k], out.spawnFrames[k], out.presence[k], out.flags[k]], `row ${k}`).toEqual([
          ref.handles[k],
          ref.ids[k],
          ref.spawnFrames[k],
          ref.presence[k],
          ref.flags[k],
        ]);
        expect([out.boneStart[k], out.boneCount[k]], `row ${k}`).toEqual([-1, 0]);
      }
      expect(Array.from(out.positions.subarray(0, ref.count * 3))).toEqual(
        Array.from(ref.positions.subarray(0, ref.count * 3)),
      );
      expect(Array.from(out.rotations.subarray(0, ref.count * 4))).toEqual(
        Array.from(ref.rotations.subarray(0, ref.count * 4)),
      );
    };
    // A fresh output: room for A's 6 rows first, then for all 40.
    const fresh = new SampleBuffer();
    const s1 = new Sampler(rec.reader);
    s1.sample(3.5, fresh);
    expect(s1.decodeCount).toBe(0);
    same(fresh);
    // An output that held bone rows (frames 1 and 2 decoded) and is larger than the seek needs.
    const used = new SampleBuffer(64);
    const s2 = new Sampler(rec.reader);
    s2.sample(1.5, used);
    expect(used.boneTotal).toBeGreaterThan(0);
    expect(used.boneStart[0]).toBeGreaterThanOrEqual(0);
    s2.sample(3.5, used);
    expect(s2.decodeCount).toBe(2);
    same(used);
  });
});
