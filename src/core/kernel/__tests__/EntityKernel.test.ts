import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QUAT_IDENTITY_BITS, encodeQuat } from '../../math/quat';
import { DEFAULT_ENTITY_KERNEL_OPTIONS, EntityKernel } from '../EntityKernel';
import { ENTITY_KERNEL_WASM, FIELD_KERNEL_WASM } from '../entityKernelWasm';
import { float32Decides, specEncode } from './specEncoder';
import { rng } from '../../../../tests/helpers/random';
import { near, randomQuat } from '../../../../tests/helpers/rotations';

/** The hard inputs: worst regions, ties, signed zeros, denormals, non-finite, zero, unnormalised. */
function hardQuats(r: () => number): number[][] {
  const h = Math.SQRT1_2;
  const t = 1 / Math.sqrt(3);
  const s = (): number => (r() < 0.5 ? -1 : 1);
  const out: number[][] = [];
  for (let i = 0; i < 5000; i++) {
    out.push(near(r, [0.5 * s(), 0.5 * s(), 0.5 * s(), 0.5 * s()], 0.01));
    out.push(near(r, [h * s(), h * s(), 0, 0], 0.004));
    out.push(near(r, [0, h * s(), 0, h * s()], 0.004));
    // Within 2e-6 of ±1/√2: t < 0 or t >= 1022, where alt leaves [0, 1022] (about 3 %).
    out.push(near(r, [h * s(), 0, h * s(), 0], 4e-6));
    out.push(near(r, [t * s(), t * s(), t * s(), 0], 0.01));
    out.push(near(r, [0, t * s(), t * s(), t * s()], 0.01));
    const q = randomQuat(r);
    out.push(q.map((c) => c * 3));
    out.push(q.map((c) => c * 1e-6));
    out.push(q.map((c) => c * (1 + (r() - 0.5) * 0.004))); // either side of the Newton threshold
    const a = r() * 2 * Math.PI;
    out.push([0, 0, Math.sin(a), Math.cos(a)]); // 2D
  }
  // Symmetric rotations: moving a or moving b gives exactly the same error, and often the best one
  // (exact ties between candidates go to the earlier one).
  for (let i = 0; i < 5000; i++) {
    const a = (r() - 0.5) * 0.9;
    const c = (r() - 0.5) * 0.9;
    out.push([a, a, c, Math.sqrt(Math.max(0, 1 - 2 * a * a - c * c)) + 0.3]);
  }
  out.push(...thresholdQuats(r));
  // Near-ties that float32 rounding decides (scoring in doubles would pick another candidate).
  out.push(...float32Decides(r, 2000));
  // Exact ties for the largest component, signed zeros, denormals, non-finite, zero, huge, tiny.
  const den = 1e-40;
  out.push(
    [0.5, 0.5, 0.5, 0.5],
    [-0.5, 0.5, -0.5, 0.5],
    [0.5, -0.5, 0.5, -0.5],
    [h, h, 0, 0],
    [0, 0, -h, h],
    [0, -h, 0, h],
    [t, t, t, 0],
    [0, -t, t, t],
    [1, 0, 0, 0],
    [0, -1, 0, 0],
    [0, 0, 0, -1],
    [-0, -0, -0, 1],
    [0, -0, 1, -0],
    [-0, 0, 0, -1],
    [den, 0, 0, 1],
    [-den, den, -den, 1],
    [den, den, den, den],
    [1, den, -den, 0],
    [NaN, 0, 0, 1],
    [0, NaN, NaN, NaN],
    [Infinity, 0, 0, 1],
    [0, 0, -Infinity, 0],
    [Infinity, -Infinity, 0, 0],
    [0, 0, 0, 0],
    [-0, -0, -0, -0],
    [1e-11, 0, 0, 0],
    [1e-9, 0, 0, 0],
    [2e10, 0, 0, 0],
    [9e9, 0, 0, 0],
    [3.4e38, 0, 0, 1],
    [1e-30, 1e-30, 1e-30, 1e-30],
  );
  return out;
}

/**
 * Rotations whose float32 squared norm lies within a few steps of the Newton thresholds 0.999 and
 * 1.001, chosen where the two normalisations give different codes: a rule that picked the other
 * normalisation there would be caught. (Rare by chance: about one rotation in 50,000.) Found by
 * bisection on one component: between two values whose Newton-normalised codes differ there is a
 * jump, and right at the jump the exact normalisation, a factor 1 + 4e-7 away, is on the other side.
 */
function thresholdQuats(r: () => number): number[][] {
  const scale = Math.fround(1022 / Math.SQRT2);
  const f32 = new Float32Array(1);
  const i32 = new Int32Array(f32.buffer);
  const out: number[][] = [];
  for (let i = 0; i < 200 && out.length < 24; i++) {
    f32[0] = i % 2 === 0 ? 0.999 : 1.001;
    i32[0] += ((i >> 1) % 9) - 4;
    const k = Math.sqrt(f32[0]);
    const b = (r() - 0.5) * 0.6;
    const c = (r() - 0.5) * 0.6;
    const quat = (a: number): number[] => [a, b, c, Math.sqrt(1 - a * a - b * b - c * c)].map((v) => v * k);
    const code = (a: number, normalise: 'newton' | 'exact'): number => {
      const q = quat(a);
      return specEncode(q[0], q[1], q[2], q[3], { normalise });
    };
    const t = 300 + Math.floor(r() * 400); // a over a few codes around t
    let lo = (t - 511) / scale;
    let hi = (t + 3 - 511) / scale;
    const low = code(lo, 'newton');
    if (code(hi, 'newton') === low) continue;
    for (let j = 0; j < 60 && hi - lo > 1e-12; j++) {
      const mid = (lo + hi) / 2;
      if (code(mid, 'newton') === low) lo = mid;
      else hi = mid;
    }
    for (const a of [lo, hi]) {
      if (code(a, 'newton') !== code(a, 'exact')) {
        out.push(quat(a));
        break;
      }
    }
  }
  if (out.length < 24) throw new Error(`only ${out.length} threshold-sensitive rotations found`);
  return out;
}

/** Fills the kernel's rotation columns with `qs[from .. from + n)`. */
function stage(k: EntityKernel, qs: number[][], from: number, n: number): void {
  for (let i = 0; i < n; i++) {
    const q = qs[from + i];
    k.qx[i] = q[0];
    k.qy[i] = q[1];
    k.qz[i] = q[2];
    k.qw[i] = q[3];
  }
}

const SENTINEL = 0x5a5a5a5a;

describe('EntityKernel', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('runs the WebAssembly SIMD kernel by default where WebAssembly SIMD exists (Node 20)', () => {
    expect(DEFAULT_ENTITY_KERNEL_OPTIONS.wasm).toBe(true);
    const k = new EntityKernel(100, 1024);
    expect(k.backend).toBe('wasm-simd');
    expect(k.fallbackReason).toBeUndefined();
    expect(k.capacity).toBe(100);
  });

  it('lays out the staging columns and the caller region in one buffer', () => {
    for (const wasm of [true, false]) {
      const k = new EntityKernel(10, 1000, { wasm });
      expect(k.extraOffset % 16).toBe(0);
      expect(k.buffer.byteLength).toBeGreaterThanOrEqual(k.extraOffset + 1000);
      const cols = [k.x, k.y, k.z, k.qx, k.qy, k.qz, k.qw];
      for (const c of cols) {
        expect(c.buffer).toBe(k.buffer);
        expect(c.length).toBe(10);
        expect(c.byteOffset % 16).toBe(0);
        expect(c.byteOffset + c.byteLength).toBeLessThanOrEqual(k.extraOffset);
      }
      // No two columns overlap.
      const starts = cols.map((c) => c.byteOffset).sort((a, b) => a - b);
      for (let i = 1; i < starts.length; i++) expect(starts[i] - starts[i - 1]).toBeGreaterThanOrEqual(40);
    }
    // Zero capacity still works (and encodes nothing).
    const z = new EntityKernel(0, 0);
    expect(z.encodeRotations(0, z.extraOffset)).toBe(0);
  });

  it('encodes the same bits on both backends, and both are the float32 definition, over 120k random rotations', () => {
    const n = 120_000;
    const w = new EntityKernel(n, n * 4);
    const j = new EntityKernel(n, n * 4, { wasm: false });
    const r = rng(1);
    const qs: number[][] = [];
    for (let i = 0; i < n; i++) qs.push(randomQuat(r));
    stage(w, qs, 0, n);
    stage(j, qs, 0, n);
    expect(w.encodeRotations(n, w.extraOffset)).toBe(0);
    expect(j.encodeRotations(n, j.extraOffset)).toBe(0);
    const cw = new Int32Array(w.buffer, w.extraOffset, n);
    const cj = new Int32Array(j.buffer, j.extraOffset, n);
    let differ = 0;
    let notSpec = 0;
    for (let i = 0; i < n; i++) {
      if (cw[i] !== cj[i]) differ++;
      if (i % 4 === 0 && cw[i] !== specEncode(qs[i][0], qs[i][1], qs[i][2], qs[i][3])) notSpec++;
    }
    expect(differ).toBe(0);
    expect(notSpec).toBe(0);
  });

  it('encodes the same bits on both backends for the hard inputs, and counts the invalid ones', () => {
    const qs = hardQuats(rng(2));
    const n = qs.length;
    const w = new EntityKernel(n, n * 4);
    const j = new EntityKernel(n, n * 4, { wasm: false });
    stage(w, qs, 0, n);
    stage(j, qs, 0, n);
    const f = Math.fround;
    let invalid = 0;
    for (const q of qs) {
      const [x, y, z, ww] = q.map(f);
      const n2 = f(f(f(f(x * x) + f(y * y)) + f(z * z)) + f(ww * ww));
      if (!(n2 > f(1e-20) && n2 < f(1e20))) invalid++;
    }
    const badW = w.encodeRotations(n, w.extraOffset);
    const badJ = j.encodeRotations(n, j.extraOffset);
    expect(badW).toBe(badJ);
    expect(badW).toBe(invalid);
    // NaN ×2, ±Infinity ×3, zero ×2, too small ×3 (1e-11, 1e-30, denormals), too big ×2 (2e10, 3.4e38).
    expect(badW).toBe(12);
    const cw = new Int32Array(w.buffer, w.extraOffset, n);
    const cj = new Int32Array(j.buffer, j.extraOffset, n);
    for (let i = 0; i < n; i++) {
      const want = specEncode(qs[i][0], qs[i][1], qs[i][2], qs[i][3]);
      if (cw[i] !== want || cj[i] !== want) expect([i, qs[i], cw[i], cj[i]]).toEqual([i, qs[i], want, want]);
    }
    // The JS backend is the quat.ts reference on the columns.
    for (let i = 0; i < n; i += 7) expect(cj[i]).toBe(encodeQuat(qs[i][0], qs[i][1], qs[i][2], qs[i][3]));
  });

  it('handles every tail length n = 0..9 at any output position: right codes and counts, nothing written outside', () => {
    const r = rng(3);
    const qs: number[][] = [];
    for (let i = 0; i < 16; i++) qs.push(i % 3 === 1 ? [NaN, 0, 0, 1] : randomQuat(r));
    for (const wasm of [true, false]) {
      const k = new EntityKernel(16, 256, { wasm });
      const words = new Int32Array(k.buffer);
      // Garbage in the lanes past n: they must not be stored or counted.
      for (let i = 0; i < 16; i++) {
        k.qx[i] = NaN;
        k.qy[i] = 0;
        k.qz[i] = 0;
        k.qw[i] = 0;
      }
      for (let n = 0; n <= 9; n++) {
        stage(k, qs, 0, n);
        for (const shift of [0, 4, 8, 12]) {
          const outByte = k.extraOffset + 16 + shift;
          const base = outByte >> 2;
          words.fill(SENTINEL, k.extraOffset >> 2, (k.extraOffset >> 2) + 64);
          const bad = k.encodeRotations(n, outByte);
          let want = 0;
          for (let i = 0; i < n; i++) if (Number.isNaN(qs[i][0])) want++;
          expect(bad, `wasm=${wasm} n=${n}`).toBe(want);
          for (let i = 0; i < n; i++) expect(words[base + i]).toBe(specEncode(qs[i][0], qs[i][1], qs[i][2], qs[i][3]));
          for (let i = k.extraOffset >> 2; i < base; i++) expect(words[i]).toBe(SENTINEL);
          for (let i = base + n; i < (k.extraOffset >> 2) + 64; i++)
            expect(words[i], `wasm=${wasm} n=${n} word ${i - base}`).toBe(SENTINEL);
        }
      }
    }
  });

  it('packs positions as bit-exact xyz triples (NaN payloads, ±Infinity, -0, denormals) and counts non-finite entities', () => {
    const n = 1003;
    const r = rng(4);
    for (const wasm of [true, false]) {
      const k = new EntityKernel(n, n * 12 + 64, { wasm });
      const xi = new Int32Array(k.buffer, k.x.byteOffset, n);
      const yi = new Int32Array(k.buffer, k.y.byteOffset, n);
      const zi = new Int32Array(k.buffer, k.z.byteOffset, n);
      let want = 0;
      for (let i = 0; i < n; i++) {
        xi[i] = (r() * 4294967296) | 0; // any bits: includes NaNs with payloads and infinities
        yi[i] = (r() * 4294967296) | 0;
        zi[i] = (r() * 4294967296) | 0;
        if (i % 50 === 0) xi[i] = 0x7fa00001; // signalling NaN
        if (i % 50 === 1) yi[i] = 0xff800000 | 0; // -Infinity
        if (i % 50 === 2) zi[i] = 0x80000000 | 0; // -0
        if (i % 50 === 3) xi[i] = 1; // smallest denormal
        const bad = [xi[i], yi[i], zi[i]].some((b) => (b & 0x7f800000) === 0x7f800000);
        if (bad) want++;
      }
      const words = new Int32Array(k.buffer);
      const outByte = k.extraOffset + 4;
      words.fill(SENTINEL, k.extraOffset >> 2, (k.extraOffset >> 2) + n * 3 + 16);
      expect(k.packPositions(n, outByte)).toBe(want);
      expect(want).toBeGreaterThan(20);
      const o = outByte >> 2;
      for (let i = 0; i < n; i++) {
        if (words[o + 3 * i] !== xi[i] || words[o + 3 * i + 1] !== yi[i] || words[o + 3 * i + 2] !== zi[i]) {
          expect([i, words[o + 3 * i], words[o + 3 * i + 1], words[o + 3 * i + 2]]).toEqual([i, xi[i], yi[i], zi[i]]);
        }
      }
      expect(words[o - 1]).toBe(SENTINEL);
      for (let i = o + 3 * n; i < o + 3 * n + 8; i++) expect(words[i]).toBe(SENTINEL);
    }
  });

  it('packs every tail length n = 0..9 without writing past 3n words', () => {
    for (const wasm of [true, false]) {
      const k = new EntityKernel(12, 256, { wasm });
      for (let i = 0; i < 12; i++) {
        k.x[i] = i + 0.25;
        k.y[i] = -i;
        k.z[i] = i === 5 ? NaN : i * 1e-3;
      }
      const words = new Int32Array(k.buffer);
      const floats = new Float32Array(k.buffer);
      for (let n = 0; n <= 9; n++) {
        const base = (k.extraOffset >> 2) + 1;
        words.fill(SENTINEL, base - 1, base + 40);
        expect(k.packPositions(n, base * 4)).toBe(n > 5 ? 1 : 0);
        for (let i = 0; i < n; i++) {
          expect(floats[base + 3 * i]).toBe(k.x[i]);
          expect(floats[base + 3 * i + 1]).toBe(k.y[i]);
          if (i !== 5) expect(floats[base + 3 * i + 2]).toBe(k.z[i]);
        }
        expect(words[base - 1]).toBe(SENTINEL);
        for (let i = base + 3 * n; i < base + 40; i++) expect(words[i], `wasm=${wasm} n=${n}`).toBe(SENTINEL);
      }
    }
  });

  it('rejects bad calls with a RangeError before writing anything', () => {
    for (const wasm of [true, false]) {
      const k = new EntityKernel(8, 64, { wasm });
      const end = k.buffer.byteLength;
      const words = new Int32Array(k.buffer, k.extraOffset);
      words.fill(SENTINEL);
      expect(() => k.encodeRotations(9, k.extraOffset)).toThrow(RangeError);
      expect(() => k.encodeRotations(-1, k.extraOffset)).toThrow(RangeError);
      expect(() => k.encodeRotations(1.5, k.extraOffset)).toThrow(RangeError);
      expect(() => k.encodeRotations(NaN, k.extraOffset)).toThrow(RangeError);
      expect(() => k.encodeRotations(1, k.extraOffset + 2)).toThrow(RangeError);
      expect(() => k.encodeRotations(1, -4)).toThrow(RangeError);
      expect(() => k.encodeRotations(2, end - 4)).toThrow(RangeError);
      expect(() => k.packPositions(2, end - 20)).toThrow(RangeError);
      expect(() => k.packPositions(1, NaN)).toThrow(RangeError);
      expect(words.every((v) => v === SENTINEL)).toBe(true);
      // The last words of the buffer are writable.
      k.qw[0] = 1;
      expect(k.encodeRotations(1, end - 4)).toBe(0);
      expect(k.packPositions(2, end - 24)).toBe(0);
    }
    expect(() => new EntityKernel(-1, 0)).toThrow(RangeError);
    expect(() => new EntityKernel(1.5, 0)).toThrow(RangeError);
    expect(() => new EntityKernel(1, -8)).toThrow(RangeError);
  });

  it('falls back to the JavaScript backend when asked, or when WebAssembly, SIMD, compilation or memory is missing', () => {
    const off = new EntityKernel(4, 64, { wasm: false });
    expect(off.backend).toBe('js');
    expect(off.fallbackReason).toMatch(/wasm: false/);
    expect(off.buffer).toBeInstanceOf(ArrayBuffer);

    const real = WebAssembly;
    // The namespace's members are not enumerable: copy the ones the kernel uses.
    const fake = (over: Partial<typeof WebAssembly>): typeof WebAssembly =>
      ({
        Module: real.Module,
        Instance: real.Instance,
        Memory: real.Memory,
        validate: real.validate,
        CompileError: real.CompileError,
        ...over,
      }) as typeof WebAssembly;
    const check = (k: EntityKernel, reason: RegExp): void => {
      expect(k.backend).toBe('js');
      expect(k.fallbackReason).toMatch(reason);
      k.qw[0] = 1;
      k.qx[1] = NaN;
      expect(k.encodeRotations(2, k.extraOffset)).toBe(1);
      expect(new Int32Array(k.buffer, k.extraOffset, 2)[0]).toBe(QUAT_IDENTITY_BITS);
    };
    vi.stubGlobal('WebAssembly', undefined);
    check(new EntityKernel(4, 64), /not available/);
    vi.stubGlobal('WebAssembly', fake({ validate: () => false }));
    check(new EntityKernel(4, 64), /SIMD/);
    // A Content-Security-Policy without 'wasm-unsafe-eval' makes compilation throw.
    const refuse = function Module(): never {
      throw new real.CompileError('Wasm code generation disallowed by embedder');
    };
    vi.stubGlobal('WebAssembly', fake({ Module: refuse as unknown as typeof WebAssembly.Module }));
    check(new EntityKernel(4, 64), /compilation was refused or failed \(CompileError: Wasm code generation disallowed/);
    const noMemory = function Memory(): never {
      throw new RangeError('WebAssembly.Memory(): could not allocate memory');
    };
    vi.stubGlobal('WebAssembly', fake({ Memory: noMemory as unknown as typeof WebAssembly.Memory }));
    check(new EntityKernel(4, 64), /could not allocate \d+ bytes of WebAssembly memory \(RangeError/);
    vi.unstubAllGlobals();
    // And the real thing still works afterwards (the cached module belongs to the real engine).
    expect(new EntityKernel(4, 64).backend).toBe('wasm-simd');
  });

  it('keeps each module under 4 KB, and the generated modules are what scripts/build-kernel.mjs makes of the .wat files', () => {
    for (const bytes of [ENTITY_KERNEL_WASM, FIELD_KERNEL_WASM]) {
      expect(bytes.length).toBeLessThan(4096);
      expect(WebAssembly.validate(bytes)).toBe(true);
    }
    // The field kernel is a module of its own: the entity kernel exports no `field`.
    const names = (bytes: Uint8Array<ArrayBuffer>) =>
      WebAssembly.Module.exports(new WebAssembly.Module(bytes)).map((e) => e.name);
    expect(names(ENTITY_KERNEL_WASM)).toEqual(['encode', 'pack', 'match', 'despawn']);
    expect(names(FIELD_KERNEL_WASM)).toEqual(['field']);
    // ... and the kernel instantiates it on the same memory.
    const k = new EntityKernel(4, 64);
    expect(k.backend).toBe('wasm-simd');
    expect(k.field).toBeTypeOf('function');
    const script = fileURLToPath(new URL('../../../../scripts/build-kernel.mjs', import.meta.url));
    const generated = execFileSync(process.execPath, [script, '--stdout'], { encoding: 'utf8' });
    const current = readFileSync(fileURLToPath(new URL('../entityKernelWasm.ts', import.meta.url)), 'utf8');
    expect(current).toBe(generated);
    expect(generated).toContain(`${ENTITY_KERNEL_WASM.length} bytes`);
    expect(generated).toContain(`${FIELD_KERNEL_WASM.length} bytes`);
  });
});
