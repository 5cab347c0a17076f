import { describe, expect, it } from 'vitest';
import { fieldSectionAt } from '../../format/layout';
import { Playback } from '../../playback/Playback';
import { Recorder } from '../../record/Recorder';
import { BLOCK_HEADER_WORDS } from '../fieldLayout';

/**
 * The word-at-a-time copy of staged columns into the frame (`writeBlockInOrder`): bools packed
 * from staged bytes (any nonzero byte true), byte columns four to a word, padding bits and bytes 0
 * whatever the staging columns held from earlier, larger frames.
 */
describe('field blocks: word copies', () => {
  it('packs bools given as any nonzero byte, and zeroes padding after frames of more rows', () => {
    const r = new Recorder({ maxFrames: 16, arenaBytes: 1 << 20, onWarning: () => {} });
    const S = r.declareFields('unit', { on: 'bool', level: 'u8', mode: 'enum', hp: 'f32' });
    const modes = ['a', 'b', 'c'].map((n) => S.code(n));
    const cap = 80;
    const ids = new Int32Array(cap);
    const on = new Uint8Array(cap);
    const level = new Uint8Array(cap);
    const mode = new Uint8Array(cap);
    const hp = new Float32Array(cap);
    const zero = new Float32Array(cap);
    const columns = [on, level, mode, hp];
    const counts = [70, 37, 33, 5, 64, 1];
    const value = (f: number, i: number) => ({
      on: (f * 3 + i) % 4 === 0 ? 0 : [1, 2, 128, 255][(i + f) % 4],
      level: (i * 11 + f * 17 + 200) & 255,
      mode: modes[(i + f) % 3],
      hp: i - f / 8,
    });
    counts.forEach((n, f) => {
      r.beginFrame(f, 1);
      for (let i = 0; i < cap; i++) {
        const v = value(f, i);
        ids[i] = i;
        on[i] = v.on;
        level[i] = v.level;
        mode[i] = v.mode;
        hp[i] = v.hp;
      }
      r.entityColumns(n, { ids, x: zero, y: zero, z: zero, qx: zero, qy: zero, qz: zero, qw: zero });
      r.fieldColumns(S, n, ids, columns);
      r.endFrame();
    });
    const pb = new Playback(r.reader);
    const out = new Float64Array(3);
    const u = r.ring.u32;
    const b8 = r.ring.u8;
    counts.forEach((n, f) => {
      const handleOf = new Map<number, number>();
      pb.lifetimes.forEach((h) => {
        if (pb.lifetimes.presentAt(h, f)) handleOf.set(pb.lifetimes.id(h), h);
      });
      for (let i = 0; i < n; i++) {
        const h = handleOf.get(i) ?? -1; // a life ends in a frame without its entity: the one present at f
        const v = value(f, i);
        const read = [0, 1, 2, 3].map((k) => (pb.fields.valueAt(h, k, f, out) === 0 ? Number.NaN : out[0]));
        expect(read, `frame ${f}, row ${i}`).toEqual([v.on === 0 ? 0 : 1, v.level, v.mode, Math.fround(v.hp)]);
      }
      // The block: header, bools (padding bits 0), level and mode bytes (padding bytes 0).
      const at = r.ring.offsetOf(f);
      let w = fieldSectionAt(u, at) + BLOCK_HEADER_WORDS;
      const boolWords = (n + 31) >>> 5;
      const last = u[w + boolWords - 1];
      const used = n - (boolWords - 1) * 32;
      if (used < 32) expect(last >>> used, `frame ${f}: bits past row ${n}`).toBe(0);
      w += boolWords;
      for (let col = 0; col < 2; col++) {
        const words = (n + 3) >>> 2;
        for (let b = n; b < words * 4; b++) expect(b8[w * 4 + b], `frame ${f}: padding byte ${b}`).toBe(0);
        w += words;
      }
    });
  });
});
