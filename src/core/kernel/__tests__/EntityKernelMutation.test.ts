import { afterEach, describe, expect, it, vi } from 'vitest';
import { QUAT_IDENTITY_BITS } from '../../math/quat';
import { EntityKernel } from '../EntityKernel';

/**
 * EntityKernel's TypeScript (issue 20, sixth pass): the buffer's layout to the byte on both
 * backends, every refusal with its message, and each way the WebAssembly kernel can be missing with
 * its reason. The WebAssembly module itself (entityKernel.wat) is not mutated by StrykerJS; the
 * bit-exact agreement of the two backends is EntityKernel.test.ts's.
 */

const PAGE = 65536;

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('EntityKernel, mutation pass', () => {
  it('lays out seven columns of whole 4-entity vectors, then the caller region, on both backends', () => {
    // Kills `Math.max(16, ceil(capacity / 4) * 16)` → `Math.min`/`capacity * 4`/`floor`, `COLUMNS * columnBytes`,
    // `stride = columnBytes >>> 2` → `<<`, the columns view's length, the wasm memory's pages
    // (`Math.max(1, ceil(total / PAGE))` → `Math.min`/`floor`), and the JavaScript buffer's size.
    for (const [capacity, columnBytes] of [
      [0, 16],
      [1, 16],
      [4, 16],
      [5, 32],
      [10, 48],
      [4097, 16400],
    ]) {
      for (const wasm of [true, false]) {
        const k = new EntityKernel(capacity, 1000, { wasm });
        expect([k.extraOffset, k.stride, k.columns.length]).toEqual([
          7 * columnBytes,
          columnBytes / 4,
          (7 * columnBytes) / 4,
        ]);
        const cols = [k.x, k.y, k.z, k.qx, k.qy, k.qz, k.qw];
        expect(cols.map((c) => [c.byteOffset, c.length])).toEqual(cols.map((_, j) => [j * columnBytes, capacity]));
        const total = 7 * columnBytes + 1000;
        expect(k.buffer.byteLength).toBe(wasm ? Math.max(1, Math.ceil(total / PAGE)) * PAGE : total);
        // The columns view sees the seven columns (stage through it, read through each).
        if (capacity > 0) {
          k.columns[6 * k.stride + capacity - 1] = 0.25;
          expect(k.qw[capacity - 1]).toBe(0.25);
        }
      }
    }
    expect(new EntityKernel(0, 0, { wasm: true }).buffer.byteLength).toBe(PAGE);
    expect(new EntityKernel(0, 3 * PAGE, { wasm: true }).buffer.byteLength).toBe(4 * PAGE);
  });

  it('refuses bad arguments with messages that name the value and the bounds', () => {
    // Kills the constructor's and checkCall's message strings, `capacity < 0` → `<= 0`, `extraBytes < 0`
    // → `<= 0`, `n > capacity` → `>=`, `(outByte & 3) !== 0` → `false`, `outByte < 0` → `<= 0`, and the
    // bounds' `n * bytesPerEntity`.
    expect(() => new EntityKernel(-1, 0)).toThrow('EntityKernel: capacity must be a non-negative integer, got -1');
    expect(() => new EntityKernel(2 ** 53, 0)).toThrow('EntityKernel: capacity must be a non-negative integer');
    expect(() => new EntityKernel(1, -8)).toThrow('EntityKernel: extraBytes must be a non-negative integer, got -8');
    expect(() => new EntityKernel(1, 0.5)).toThrow('EntityKernel: extraBytes must be a non-negative integer, got 0.5');
    expect(new EntityKernel(0, 0, { wasm: false }).buffer.byteLength).toBe(112);
    for (const wasm of [true, false]) {
      const k = new EntityKernel(8, 96, { wasm });
      const end = k.buffer.byteLength;
      expect(() => k.encodeRotations(9, k.extraOffset)).toThrow('EntityKernel: n must be an integer in [0, 8], got 9');
      expect(() => k.packPositions(0.5, k.extraOffset)).toThrow(
        'EntityKernel: n must be an integer in [0, 8], got 0.5',
      );
      expect(() => k.packPositions(1, k.extraOffset + 1)).toThrow(
        `EntityKernel: output at byte ${k.extraOffset + 1} (12 bytes) must be 4-aligned and inside the ${end}-byte buffer`,
      );
      expect(() => k.encodeRotations(8, end - 28)).toThrow(
        `EntityKernel: output at byte ${end - 28} (32 bytes) must be 4-aligned and inside the ${end}-byte buffer`,
      );
      expect(() => k.encodeRotations(1, 2 ** 53)).toThrow(RangeError);
      expect(() => k.encodeRotations(1, -4)).toThrow(
        `EntityKernel: output at byte -4 (4 bytes) must be 4-aligned and inside the ${end}-byte buffer`,
      );
      // n = capacity, output at byte 0 and ending at the buffer's last byte: allowed.
      for (let i = 0; i < 8; i++) {
        k.qw[i] = 1;
        k.x[i] = i;
      }
      expect(k.encodeRotations(8, end - 32)).toBe(0);
      expect(Array.from(new Int32Array(k.buffer, end - 32, 8))).toEqual(new Array(8).fill(QUAT_IDENTITY_BITS));
      expect(k.packPositions(8, end - 96)).toBe(0);
      expect(Array.from(new Float32Array(k.buffer, end - 96, 24)).filter((_, j) => j % 3 === 0)).toEqual([
        0, 1, 2, 3, 4, 5, 6, 7,
      ]);
      expect(k.encodeRotations(0, end)).toBe(0);
      // Run mkern's survivors 261:26 (`n < 0` → `false`) and 266:7 (`outByte < 0` → `<= 0`): n = -1 is
      // refused, byte 0 (the staging columns themselves) is inside the buffer.
      expect(() => k.packPositions(-1, k.extraOffset + 12)).toThrow(
        'EntityKernel: n must be an integer in [0, 8], got -1',
      );
      expect(k.packPositions(0, 0)).toBe(0);
    }
  });

  it('packs and encodes at a 4-aligned output inside the caller region, on both backends', () => {
    // Kills the JavaScript pack's `outByte >>> 2` → `<< 2`, its column offsets (`stride + i`, `2 * stride + i`),
    // `o += 3` → `-=`, and encode's `outByte >>> 2`.
    for (const wasm of [true, false]) {
      const k = new EntityKernel(5, 256, { wasm });
      for (let i = 0; i < 5; i++) {
        k.x[i] = i + 0.5;
        k.y[i] = 1 - i;
        k.z[i] = 10 * i;
        k.qw[i] = 1;
      }
      k.z[3] = Number.POSITIVE_INFINITY;
      const at = k.extraOffset + 20;
      // Run mkern's survivor 246:21 (`i < n` → `<=` in the JavaScript pack): nothing past 3n words.
      new Int32Array(k.buffer, at, 20).fill(0x5a5a5a5a);
      expect(k.packPositions(5, at)).toBe(1);
      expect(Array.from(new Int32Array(k.buffer, at + 60, 3))).toEqual([0x5a5a5a5a, 0x5a5a5a5a, 0x5a5a5a5a]);
      const out = Array.from(new Float32Array(k.buffer, at, 15));
      expect(out).toEqual([0.5, 1, 0, 1.5, 0, 10, 2.5, -1, 20, 3.5, -2, Number.POSITIVE_INFINITY, 4.5, -3, 40]);
      expect(k.encodeRotations(5, at + 60)).toBe(0);
      expect(Array.from(new Int32Array(k.buffer, at + 60, 6))).toEqual([...new Array(5).fill(QUAT_IDENTITY_BITS), 0]);
    }
  });

  it('exposes the WebAssembly match only with the WebAssembly backend', () => {
    // Kills `typeof exports.match === 'function' ? … : null` → `null`/always, `matchFn = null` on fallback
    // dropped, and `backend` → always one of the two.
    const w = new EntityKernel(4, 64, { wasm: true });
    expect([w.backend, typeof w.match, w.fallbackReason]).toEqual(['wasm-simd', 'function', undefined]);
    const j = new EntityKernel(4, 64, { wasm: false });
    expect([j.backend, j.match, j.fallbackReason]).toEqual([
      'js',
      null,
      'the WebAssembly kernel is disabled (option wasm: false)',
    ]);
  });

  it('gives each reason the WebAssembly kernel is not used, and still works in JavaScript', () => {
    // Kills the namespace checks (`typeof wa !== 'object'`, `wa === null`, `typeof wa.Module`, `typeof
    // wa.validate`: each → `false`, `||` → `&&`), safeValidate's catch (`return false` → `true`), the
    // instantiation's catch and message, `describe` of a thrown non-Error (`String(e)`), and the module
    // cache (`cachedFor !== wa` → `false`: another namespace compiles its own module).
    const real = WebAssembly;
    const fake = (over: Record<string, unknown>): typeof WebAssembly =>
      ({
        Module: real.Module,
        Instance: real.Instance,
        Memory: real.Memory,
        validate: real.validate,
        ...over,
      }) as unknown as typeof WebAssembly;
    const reasonOf = (): string | undefined => {
      const k = new EntityKernel(4, 64);
      if (k.fallbackReason !== undefined) {
        expect([k.backend, k.match]).toEqual(['js', null]);
        k.qw[0] = 1;
        expect(k.encodeRotations(1, k.extraOffset)).toBe(0);
        expect(new Int32Array(k.buffer, k.extraOffset, 1)[0]).toBe(QUAT_IDENTITY_BITS);
      }
      return k.fallbackReason;
    };
    // Run mkern's survivor 140:9 (`typeof wa !== 'object'` → `false`): undefined has no `Module` to ask for.
    vi.stubGlobal('WebAssembly', undefined);
    expect(reasonOf()).toBe('WebAssembly is not available');
    vi.stubGlobal('WebAssembly', null);
    expect(reasonOf()).toBe('WebAssembly is not available');
    vi.stubGlobal('WebAssembly', 'wasm');
    expect(reasonOf()).toBe('WebAssembly is not available');
    vi.stubGlobal('WebAssembly', fake({ Module: undefined }));
    expect(reasonOf()).toBe('WebAssembly is not available');
    vi.stubGlobal('WebAssembly', fake({ validate: {} }));
    expect(reasonOf()).toBe('WebAssembly is not available');
    vi.stubGlobal(
      'WebAssembly',
      fake({
        validate: () => {
          throw new TypeError('no SIMD');
        },
      }),
    );
    expect(reasonOf()).toBe('WebAssembly SIMD is not supported');
    let compiled = 0;
    const counting = function Module(bytes: BufferSource): WebAssembly.Module {
      compiled++;
      return new real.Module(bytes);
    };
    vi.stubGlobal('WebAssembly', fake({ Module: counting }));
    expect(reasonOf()).toBeUndefined();
    expect(compiled).toBe(2); // the entity kernel and the field kernel
    expect(reasonOf()).toBeUndefined();
    expect(compiled).toBe(2); // compiled once per namespace
    const throwsString = function Module(): never {
      throw 'blocked by policy';
    };
    vi.stubGlobal('WebAssembly', fake({ Module: throwsString }));
    expect(reasonOf()).toBe('WebAssembly compilation was refused or failed (blocked by policy)');
    const noInstance = function Instance(): never {
      throw new Error('link error');
    };
    vi.stubGlobal('WebAssembly', fake({ Instance: noInstance }));
    expect(reasonOf()).toBe('WebAssembly instantiation failed (Error: link error)');
    const noMemory = function Memory(): never {
      throw new RangeError('out of memory');
    };
    vi.stubGlobal('WebAssembly', fake({ Memory: noMemory }));
    expect(reasonOf()).toBe(
      `could not allocate ${7 * 16 + 64} bytes of WebAssembly memory (RangeError: out of memory)`,
    );
  });
});
