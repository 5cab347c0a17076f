import { describe, expect, it } from 'vitest';
import { FRAME_FIELDS_OVER_BUDGET, H_FLAGS } from '../../format/layout';
import { Playback } from '../../playback/Playback';
import { Recorder } from '../../record/Recorder';
import { FieldValue } from '../FieldReader';

const fr = Math.fround;

function recorder(opts: ConstructorParameters<typeof Recorder>[0] = {}): Recorder {
  return new Recorder({ maxFrames: 64, arenaBytes: 1 << 20, onWarning: () => {}, ...opts });
}

const SPEC = {
  health: 'f32',
  ammo: 'i32',
  stamina: 'u8',
  grounded: 'bool',
  state: 'enum',
  target: 'entity',
  velocity: 'vec3',
} as const;

/** The values entity `id` records in frame `f` (slots: health, ammo, stamina, grounded, state, target, vx, vy, vz). */
function valuesOf(id: number, f: number, codes: number[]): number[] {
  return [
    100 - f * 0.37 + id / 7,
    (f * 1_000_003 + id) | 0,
    (f * 7 + id) & 255,
    (f + id) % 3 === 0 ? 1 : 0,
    codes[(f + id) % codes.length],
    f % 4 === 0 ? -1 : (id + 1) % 5,
    Math.sin(f + id),
    -f * 1e-3,
    1e30 * (id - 2),
  ];
}

describe('custom fields', () => {
  it('round-trips every type bit-exactly through the ring, per-entity calls', () => {
    const r = recorder();
    const S = r.declareFields('agent', SPEC);
    const codes = ['patrol', 'chase', 'attack'].map((n) => S.code(n));
    const v = new Float64Array(S.slots);
    for (let f = 0; f < 10; f++) {
      r.beginFrame(f / 60, 1 / 60);
      for (let id = 0; id < 5; id++) {
        r.entity(id, id, 0, 0, 0, 0, 0, 1);
        v.set(valuesOf(id, f, codes));
        r.fields(id, S, v);
      }
      r.endFrame();
    }
    const pb = new Playback(r.reader);
    const out = new Float64Array(3);
    for (let id = 0; id < 5; id++) {
      const h = r.entities.lookup(id);
      expect(pb.fields.schemaOf(h).map((i) => [i.name, i.type, i.index, i.components])).toEqual([
        ['health', 'f32', 0, 1],
        ['ammo', 'i32', 1, 1],
        ['stamina', 'u8', 2, 1],
        ['grounded', 'bool', 3, 1],
        ['state', 'enum', 4, 1],
        ['target', 'entity', 5, 1],
        ['velocity', 'vec3', 6, 3],
      ]);
      expect(r.entities.kinds[r.entities.kindOf[h]]).toBe('agent');
      for (let f = 0; f < 10; f++) {
        const e = valuesOf(id, f, codes);
        const got: number[] = [];
        for (let k = 0; k < 7; k++) {
          const how = pb.fields.valueAt(h, k, f, out);
          expect(how).toBe(k >= 3 && k <= 5 ? FieldValue.NEAREST : FieldValue.INTERPOLATED);
          got.push(...out.subarray(0, k === 6 ? 3 : 1));
        }
        expect(got).toEqual([
          fr(e[0]),
          e[1],
          e[2],
          e[3],
          e[4],
          e[5] === -1 ? Number.NaN : e[5],
          fr(e[6]),
          fr(e[7]),
          fr(e[8]),
        ]);
      }
      expect(pb.fields.enumName(h, 4, codes[1])).toBe('chase');
    }
    expect(r.stats.invalidFieldValues).toBe(0);
  });

  it('columns form stores the same bytes as per-entity calls', () => {
    const a = recorder();
    const b = recorder();
    const SA = a.declareFields('agent', SPEC);
    const SB = b.declareFields('agent', SPEC);
    const codes = ['idle', 'run'].map((n) => SA.code(n));
    for (const n of ['idle', 'run']) SB.code(n);
    const N = 6;
    const ids = Int32Array.from({ length: N }, (_, i) => 10 + i);
    const pos = new Float32Array(N * 3);
    const rot = new Float32Array(N * 4);
    for (let i = 0; i < N; i++) rot[i * 4 + 3] = 1;
    const cols = [
      new Float32Array(N),
      new Int32Array(N),
      new Uint8Array(N),
      new Uint8Array(N),
      new Uint8Array(N),
      new Int32Array(N),
      new Float32Array(N * 3),
    ];
    const v = new Float64Array(SA.slots);
    for (let f = 0; f < 5; f++) {
      a.beginFrame(f, 1);
      b.beginFrame(f, 1);
      b.entityBatch(N, ids, pos, rot);
      for (let i = 0; i < N; i++) {
        const e = valuesOf(ids[i], f, codes);
        v.set(e);
        a.entity(ids[i], 0, 0, 0, 0, 0, 0, 1);
        a.fields(ids[i], SA, v);
        cols[0][i] = e[0];
        cols[1][i] = e[1];
        cols[2][i] = e[2];
        cols[3][i] = e[3];
        cols[4][i] = e[4];
        cols[5][i] = e[5];
        cols[6].set([e[6], e[7], e[8]], i * 3);
      }
      b.fieldColumns(SB, N, ids, cols);
      a.endFrame();
      b.endFrame();
      const ua = a.ring.u32;
      const ub = b.ring.u32;
      const wa = a.reader.bytesOf(f) / 4;
      const at = a.ring.offsetOf(f);
      const bt = b.ring.offsetOf(f);
      expect(Array.from(ub.subarray(bt + 22, bt + wa))).toEqual(Array.from(ua.subarray(at + 22, at + wa)));
    }
  });

  it('series equals a reference decode through valueAt, NaN outside the life', () => {
    const r = recorder();
    const S = r.declareFields('agent', { hp: 'f32', vel: 'vec3', on: 'bool' });
    const O = r.declareFields('crate', { mass: 'f32' });
    const v = new Float64Array(5);
    const m = new Float64Array(1);
    for (let f = 0; f < 40; f++) {
      r.beginFrame(f, 1);
      // Interleaved kinds (a listed block), one agent spawning late and one without fields some frames.
      for (let id = 0; id < 6; id++) {
        if (id === 3 && f < 10) continue;
        r.entity(id, 0, 0, 0, 0, 0, 0, 1);
        if (id % 2 === 0) {
          if (id === 4 && f % 5 === 0) continue;
          v[0] = f * 10 + id;
          v[1] = f;
          v[2] = -f;
          v[3] = id;
          v[4] = f & 1;
          r.fields(id, S, v);
        } else {
          m[0] = id * 1.5;
          r.fields(id, O, m);
        }
      }
      r.endFrame();
    }
    const pb = new Playback(r.reader);
    const one = new Float64Array(3);
    for (const id of [0, 2, 4]) {
      const h = r.entities.lookup(id);
      for (const [field, c] of [
        [0, 1],
        [1, 3],
        [2, 1],
      ]) {
        const out = new Float64Array(50 * c);
        expect(pb.fields.series(h, field, -5, 44, out)).toBe(50);
        for (let q = 0; q < 50; q++) {
          const ok = pb.fields.valueAt(h, field, q - 5, one);
          for (let k = 0; k < c; k++) expect(out[q * c + k]).toBe(ok === 0 ? Number.NaN : one[k]);
        }
      }
      expect(pb.fields.series(h, 0, 0, 39, new Float64Array(10))).toBe(10);
    }
    const h3 = r.entities.lookup(3);
    const out = new Float64Array(40);
    pb.fields.series(h3, 0, 0, 39, out);
    expect(Array.from(out.subarray(8, 12))).toEqual([Number.NaN, Number.NaN, 4.5, 4.5]);
    const h4 = r.entities.lookup(4);
    pb.fields.series(h4, 0, 0, 6, out);
    expect(Array.from(out.subarray(0, 7))).toEqual([Number.NaN, 14, 24, 34, 44, Number.NaN, 64]);
  });

  it('interpolates numbers and takes the nearer frame for the rest', () => {
    const r = recorder();
    const S = r.declareFields('a', { hp: 'f32', on: 'bool', st: 'enum', tgt: 'entity', v: 'vec3', n: 'i32' });
    const c0 = S.code('x');
    const c1 = S.code('y');
    for (let f = 0; f < 2; f++) {
      r.beginFrame(f, 1);
      r.entity(1, 0, 0, 0, 0, 0, 0, 1);
      r.fields(1, S, f === 0 ? [10, 0, c0, 5, 0, 0, 0, 0] : [20, 1, c1, 6, 2, 4, 8, 10]);
      r.endFrame();
    }
    const pb = new Playback(r.reader);
    const h = r.entities.lookup(1);
    const out = new Float64Array(3);
    expect(pb.fields.valueAt(h, 0, 0.25, out)).toBe(FieldValue.INTERPOLATED);
    expect(out[0]).toBe(12.5);
    expect(pb.fields.valueAt(h, 4, 0.25, out)).toBe(FieldValue.INTERPOLATED);
    expect(Array.from(out)).toEqual([0.5, 1, 2]);
    expect(pb.fields.valueAt(h, 5, 0.5, out)).toBe(FieldValue.INTERPOLATED);
    expect(out[0]).toBe(5);
    for (const [field, lo, hi] of [
      [1, 0, 1],
      [2, c0, c1],
      [3, 5, 6],
    ]) {
      expect(pb.fields.valueAt(h, field, 0.4, out)).toBe(FieldValue.NEAREST);
      expect(out[0]).toBe(lo);
      expect(pb.fields.valueAt(h, field, 0.6, out)).toBe(FieldValue.NEAREST);
      expect(out[0]).toBe(hi);
    }
    // Past the last frame: the only frame with a value.
    expect(pb.fields.valueAt(h, 0, 1.5, out)).toBe(FieldValue.NEAREST);
    expect(out[0]).toBe(20);
    expect(pb.fields.valueAt(h, 0, 3, out)).toBe(FieldValue.ABSENT);
    expect(pb.fields.valueAt(h, 9, 0, out)).toBe(FieldValue.ABSENT);
    expect(pb.fields.valueAt(12345, 0, 0, out)).toBe(FieldValue.ABSENT);
    expect(pb.fields.schemaOf(12345)).toEqual([]);
  });

  it('keeps enum codes across the ring eviction', () => {
    const r = recorder({ maxFrames: 4 });
    const S = r.declareFields('a', { st: 'enum' });
    const names = Array.from({ length: 20 }, (_, i) => `state${i}`);
    for (let f = 0; f < 20; f++) {
      r.beginFrame(f, 1);
      r.entity(1, 0, 0, 0, 0, 0, 0, 1);
      r.fields(1, S, [S.code(names[f])]);
      r.endFrame();
    }
    expect(r.reader.oldestFrame).toBe(16);
    const pb = new Playback(r.reader);
    const h = r.entities.lookup(1);
    const out = new Float64Array(1);
    for (let f = 16; f < 20; f++) {
      pb.fields.valueAt(h, 0, f, out);
      expect(pb.fields.enumName(h, 0, out[0])).toBe(names[f]);
    }
    expect(S.code('state3')).toBe(3);
  });

  it('follows entities the resolver drops (duplicates) and repairs bad values, flagging SANITIZED', () => {
    const warnings: string[] = [];
    const r = recorder({ onWarning: (m) => warnings.push(m) });
    const S = r.declareFields('a', { hp: 'f32', n: 'u8', st: 'enum', t: 'entity', i: 'i32' });
    S.code('ok');
    r.beginFrame(0, 1);
    r.entity(1, 0, 0, 0, 0, 0, 0, 1);
    r.fields(1, S, [1, 1, 0, -1, 1]);
    r.entity(1, 0, 0, 0, 0, 0, 0, 1); // duplicate: dropped by the resolver, with its fields
    r.fields(1, S, [2, 2, 0, -1, 2]);
    r.entity(2, 0, 0, 0, 0, 0, 0, 1);
    r.fields(2, S, [Number.NaN, 300, 7, 0.5, 2 ** 40]);
    r.fields(99, S, [1, 1, 0, -1, 1]); // does not follow entity(99)
    r.endFrame();
    const pb = new Playback(r.reader);
    const out = new Float64Array(1);
    const h1 = r.entities.lookup(1);
    const h2 = r.entities.lookup(2);
    pb.fields.valueAt(h1, 0, 0, out);
    expect(out[0]).toBe(1);
    const got = [0, 1, 2, 3, 4].map((k) => {
      pb.fields.valueAt(h2, k, 0, out);
      return out[0];
    });
    expect(got).toEqual([0, 255, Number.NaN, Number.NaN, 2147483647]);
    expect(r.stats.invalidFieldValues).toBe(5);
    expect(r.stats.fieldRowsDropped).toBe(1);
    expect(r.reader.flagsAt(0, 1) & 128).toBe(128);
    expect(r.reader.flagsAt(0, 0) & 128).toBe(0);
    expect(warnings.filter((w) => w.includes('field value')).length).toBe(1);
  });

  it('repairs bad values of block-copied typed columns, and orders rows recorded out of entity order', () => {
    const r = recorder();
    const S = r.declareFields('a', { hp: 'f32', st: 'enum', t: 'entity', on: 'bool', v: 'vec3' });
    S.code('only');
    const ids = Int32Array.from([1, 2, 3, 4]);
    const pos = new Float32Array(12);
    const rot = Float32Array.from([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]);
    r.beginFrame(0, 1);
    r.entityBatch(4, ids, pos, rot);
    r.entity(9, 0, 0, 0, 0, 0, 0, 1);
    r.fields(9, S, [7, 0, 1, 1, 1, 2, 3]); // the last entity's row comes first
    r.fieldColumns(S, 4, ids, [
      Float32Array.from([1, Number.NaN, 3, Number.POSITIVE_INFINITY]),
      Uint8Array.from([0, 5, 0, 0]),
      Int32Array.from([-1, 2, -5, 4]),
      Uint8Array.from([0, 1, 2, 0]),
      Float32Array.from([1, 2, 3, 4, 5, 6, 7, 8, 9, Number.NaN, 11, 12]),
    ]);
    r.endFrame();
    const pb = new Playback(r.reader);
    const out = new Float64Array(3);
    const read = (id: number, field: number): number[] => {
      pb.fields.valueAt(r.entities.lookup(id), field, 0, out);
      return Array.from(out.subarray(0, field === 4 ? 3 : 1));
    };
    expect([1, 2, 3, 4, 9].map((id) => read(id, 0))).toEqual([[1], [0], [3], [0], [7]]);
    expect([1, 2, 3, 4, 9].map((id) => read(id, 1))).toEqual([[0], [Number.NaN], [0], [0], [0]]);
    expect([1, 2, 3, 4, 9].map((id) => read(id, 2))).toEqual([[Number.NaN], [2], [Number.NaN], [4], [1]]);
    expect([1, 2, 3, 4, 9].map((id) => read(id, 3))).toEqual([[0], [1], [1], [0], [1]]);
    expect(read(4, 4)).toEqual([0, 11, 12]);
    expect(read(9, 4)).toEqual([1, 2, 3]);
    expect(r.stats.invalidFieldValues).toBe(5);
    expect([0, 1, 2, 3, 4].map((i) => r.reader.flagsAt(0, i) >> 7)).toEqual([0, 1, 1, 1, 0]);
  });

  it('drops rows over the field budget and flags the frame', () => {
    const r = recorder({ fieldBudgetBytes: 64 });
    const S = r.declareFields('a', { hp: 'f32' });
    r.beginFrame(0, 1);
    for (let id = 0; id < 100; id++) {
      r.entity(id, 0, 0, 0, 0, 0, 0, 1);
      r.fields(id, S, [id]);
    }
    r.endFrame();
    const at = r.ring.offsetOf(0);
    expect(r.ring.u32[at + H_FLAGS] & FRAME_FIELDS_OVER_BUDGET).toBe(FRAME_FIELDS_OVER_BUDGET);
    expect(r.stats.fieldRowsOverBudget).toBe(100 - 13);
    const pb = new Playback(r.reader);
    const out = new Float64Array(1);
    expect(pb.fields.valueAt(r.entities.lookup(12), 0, 0, out)).toBe(FieldValue.INTERPOLATED);
    expect(pb.fields.valueAt(r.entities.lookup(13), 0, 0, out)).toBe(FieldValue.ABSENT);
  });

  it('rejects bad declarations and keeps a kind to one set of fields', () => {
    const r = recorder();
    expect(() => r.declareFields('a', {})).toThrow(RangeError);
    expect(() => r.declareFields('a', { x: 'f64' as never })).toThrow(RangeError);
    const a = r.declareFields('a', { x: 'f32' });
    expect(r.declareFields('a', { x: 'f32' })).toBe(a);
    expect(() => r.declareFields('a', { x: 'i32' })).toThrow(RangeError);
    expect(r.fieldSchemas.count).toBe(1);
  });
});
