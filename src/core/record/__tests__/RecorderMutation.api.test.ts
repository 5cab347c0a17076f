import { afterEach, describe, expect, it, vi } from 'vitest';
import { EntityBuffer } from '../../read/buffers';
import { MAX_KINDS } from '../../validate/rules';
import { quiet, warningsOf } from './helpers';

/**
 * Recorder's construction and configuration edges that the other recorder tests pass over: the
 * entity table sized from `maxEntitiesPerFrame`, arenas of odd sizes, the warning when WebAssembly
 * is missing, and `declareFields` at the kinds limit. Each case names the mutant of Recorder.ts it
 * kills.
 */

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('Recorder construction', () => {
  it('sizes the entity table to two frames of entities, at least 16 and at most 65,536 handles', () => {
    // Kills `Math.max(16, ...)` → `Math.min` (always 16), `Math.min(n * 2, 1 << 16)` → `Math.max`
    // (always 65,536 or more) and `n * 2` → `n / 2`.
    expect(quiet({ maxEntitiesPerFrame: 4 }).entities.capacity).toBe(16);
    expect(quiet({ maxEntitiesPerFrame: 100 }).entities.capacity).toBe(200);
    expect(quiet({ maxEntitiesPerFrame: 40_000 }).entities.capacity).toBe(65_536);
  });

  for (const arenaBytes of [1024, 1031, 4100]) {
    it(`an arena of ${arenaBytes} bytes holds ${Math.floor(arenaBytes / 8) * 2} words and records into all of them`, () => {
      // Kills `Math.floor(arenaBytes / 8) * 8` → `/ 8` in the kernel's buffer size (too small for the ring).
      const r = quiet({ arenaBytes, maxEntitiesPerFrame: 2000 });
      const words = Math.floor(arenaBytes / 8) * 2;
      expect(r.ring.arenaWords).toBe(words);
      // The largest frame that fits: the header and 5 words an entity.
      const n = Math.floor((words - 22) / 5);
      r.beginFrame(0, 1);
      for (let i = 0; i < n; i++) r.entity(i, i + 0.5, -i, 2 * i, 0, 0, 0, 1);
      r.endFrame();
      const e = new EntityBuffer();
      expect(r.reader.readEntities(0, e, false)).toBe(true);
      expect(e.count).toBe(n);
      expect(Array.from(e.positions.subarray((n - 1) * 3, n * 3))).toEqual([n - 0.5, 1 - n, 2 * (n - 1)]);
      expect(r.stats.framesTruncated).toBe(0);
    });
  }

  it('warns once when WebAssembly is missing and records with the JavaScript encoder; not when wasm is off', () => {
    // Kills `o.wasm && fallbackReason !== undefined` → `true` / `false` / `||`, and the message emptied.
    vi.stubGlobal('WebAssembly', undefined);
    const r = quiet();
    expect(r.backend).toBe('js');
    expect(warningsOf(r)).toHaveLength(1);
    expect(warningsOf(r)[0]).toMatch(/^rewindable: .+; recording uses the JavaScript encoder \(same bytes, slower\)$/);
    r.beginFrame(0, 1);
    r.entity(3, 1, 2, 3, 0, 0, 0, 1);
    r.endFrame();
    const e = new EntityBuffer();
    expect(r.reader.readEntities(0, e, false)).toBe(true);
    expect(Array.from(e.positions.subarray(0, 3))).toEqual([1, 2, 3]);
    vi.unstubAllGlobals();
    const off = quiet({ wasm: false });
    expect(off.backend).toBe('js');
    expect(warningsOf(off)).toEqual([]);
    expect(warningsOf(quiet())).toEqual([]);
  });
});

describe('declareFields at the kinds limit', () => {
  it('refuses a new kind once 65,536 exist, but still declares fields of a kind that exists', () => {
    // Kills `kinds.length >= MAX_KINDS` → `>` / `true`, `indexOf(kind) < 0` → `<= 0` / `true`, and
    // `typeof kind === 'string' &&` → `true` (a non-string then fails in the schemas, with their message).
    const r = quiet();
    for (let k = 0; k < MAX_KINDS - 1; k++) r.entities.internKind(`k${k}`);
    // The 65,536th kind is allowed.
    const last = r.declareFields('last', { hp: 'f32' });
    expect(r.entities.kinds.length).toBe(MAX_KINDS);
    expect(last.slots).toBe(1);
    expect(() => r.declareFields('new', { hp: 'f32' })).toThrow(
      new RangeError(`rewindable: declareFields: ${MAX_KINDS} kinds exist`),
    );
    // k0 is at index 0 of the kinds: found, so allowed.
    expect(r.declareFields('k0', { hp: 'f32', mp: 'u8' }).slots).toBe(2);
    expect(r.declareFields('k7', { hp: 'f32' }).slots).toBe(1);
    expect(r.entities.kinds.length).toBe(MAX_KINDS);
    // Not a string: refused by the schemas, not counted as a kind.
    expect(() => r.declareFields(5 as unknown as string, { hp: 'f32' })).toThrow(RangeError);
    expect(() => r.declareFields(5 as unknown as string, { hp: 'f32' })).not.toThrow(/kinds exist/);
  });
});

describe('describe and despawn pass the open frame to their stage', () => {
  /** The kind and label of each life of `id` recorded in the ring, oldest first: "spawnFrame:kind:label". */
  function lives(r: ReturnType<typeof quiet>, id: number): string[] {
    const seen = new Map<number, string>();
    const e = new EntityBuffer();
    for (let f = r.reader.oldestFrame; f <= r.reader.newestFrame; f++) {
      r.reader.readEntities(f, e, false);
      for (let i = 0; i < e.count; i++) {
        const h = e.handles[i];
        if (r.entities.ids[h] !== id) continue;
        const k = r.entities.kindOf[h];
        seen.set(
          h,
          `${r.entities.spawnFrames[h]}:${k >= 0 ? r.entities.kinds[k] : '-'}:${r.entities.labels[h] ?? '-'}`,
        );
      }
    }
    return [...seen.values()];
  }

  it('inside a frame, an id not recorded in it names its next life, not the life of the frame before', () => {
    // Kills `frameOpen ? nextFrame : -1` → `-1` in `describe` (the call would name frame 0's life,
    // still open when it is made).
    const r = quiet();
    r.beginFrame(0, 1);
    r.entity(5, 0, 0, 0, 0, 0, 0, 1);
    r.endFrame();
    r.beginFrame(1, 1);
    r.describe(5, 'ghost', 'next'); // 5 is not recorded in frame 1: its life ends, the next is named
    r.endFrame();
    r.beginFrame(2, 1);
    r.entity(5, 0, 0, 0, 0, 0, 0, 1);
    r.endFrame();
    expect(lives(r, 5)).toEqual(['0:-:-', '2:ghost:next']);
  });

  it("outside a frame, names the newest frame's life while it is open", () => {
    // Kills `frameOpen ? nextFrame : -1` → `nextFrame` (the call would act as inside frame 1, where 7
    // is not recorded, and name the next life) and `nextFrame - 1` → `nextFrame + 1`.
    const r = quiet();
    r.beginFrame(0, 1);
    r.entity(7, 0, 0, 0, 0, 0, 0, 1);
    r.endFrame();
    r.describe(7, 'crate', 'first');
    r.beginFrame(1, 1);
    r.endFrame();
    r.beginFrame(2, 1);
    r.entity(7, 0, 0, 0, 0, 0, 0, 1);
    r.endFrame();
    expect(lives(r, 7)).toEqual(['0:crate:first', '2:-:-']);
  });

  it('despawn inside a frame ends the life after the entries already staged; outside, after the newest frame', () => {
    // Kills `frameOpen ? stage.count : -1` → `-1` / `stage.count` in `despawn`.
    const r = quiet();
    r.beginFrame(0, 1);
    r.entity(3, 0, 0, 0, 0, 0, 0, 1);
    r.entity(4, 0, 0, 0, 0, 0, 0, 1);
    r.despawn(3); // after its entry: frame 0 is its last
    r.entity(4, 1, 1, 1, 0, 0, 0, 1); // a duplicate, dropped
    r.endFrame();
    r.beginFrame(1, 1);
    r.entity(3, 0, 0, 0, 0, 0, 0, 1); // a new life
    r.entity(4, 0, 0, 0, 0, 0, 0, 1); // the same life
    r.despawn(4); // after its entry
    r.entity(4, 2, 2, 2, 0, 0, 0, 1); // after the despawn: a new life in the same frame, a duplicate id
    r.endFrame();
    r.despawn(3); // outside: frame 1's life of 3 ends
    r.beginFrame(2, 1);
    r.entity(3, 0, 0, 0, 0, 0, 0, 1);
    r.entity(4, 0, 0, 0, 0, 0, 0, 1);
    r.endFrame();
    expect(lives(r, 3)).toEqual(['0:-:-', '1:-:-', '2:-:-']);
    const e = new EntityBuffer();
    r.reader.readEntities(1, e, false);
    expect(e.count).toBe(3);
    // 4: one life over frames 0 and 1, and one from its entry after the despawn in frame 1 (continued in 2).
    expect(lives(r, 4)).toEqual(['0:-:-', '1:-:-']);
  });
});

describe('bones, display and fields before any entity of the frame', () => {
  it('id -1 (the stage\'s "no entity yet") is refused and counted, and stores nothing', () => {
    // Kills `s.count === 0` → `false` in `bones`, `display` and `fields` (-1 equals the stage's
    // lastId before the frame's first entity: the call would attach to entry -1).
    const r = quiet();
    const schema = r.declareFields('agent', { hp: 'f32' });
    r.beginFrame(0, 1);
    r.bones(-1, 1, [0, 0, 0, 1], [1, 2, 3]);
    r.display(-1, 2, 2, 0.5, true, -1);
    r.fields(-1, schema, [42]);
    r.entity(0, 1, 2, 3, 0, 0, 0, 1);
    r.endFrame();
    expect([r.stats.bonesDropped, r.stats.displayDropped, r.stats.fieldRowsDropped]).toEqual([1, 1, 1]);
    const e = new EntityBuffer();
    expect(r.reader.readEntities(0, e, true)).toBe(true);
    expect([e.count, e.boneTotal, e.hasDisplay, e.flags[0]]).toEqual([1, 0, false, 0]);
    expect(r.entities.kindOf[e.handles[0]]).toBe(-1);
    expect(warningsOf(r)).toEqual([
      'rewindable: bones(-1) must follow entity(-1); the bones were dropped',
      'rewindable: display(-1) must follow entity(-1) in an open frame; dropped',
      "rewindable: fields(-1) must follow entity(-1) and use a schema of this recorder's declareFields; the fields were dropped",
    ]);
  });
});

describe('entity2D over staging that held 3D entries', () => {
  it('writes z = 0 and a rotation about z only, whatever the slot held before, with the flags repaired as entity() does', () => {
    // Kills, in entity2D, each staged column's index mutated (`n + 2 * S` → `n - 2 * S`, `2 * S` →
    // `2 / S`, ...) and the z/qx/qy zeroes left out (the previous frame's values would stay), and the
    // flags check → `true` (bit 7 and out-of-byte flags stored as given).
    const a = quiet();
    const b = quiet();
    for (const r of [a, b]) {
      r.beginFrame(0, 1);
      for (let i = 0; i < 12; i++) r.entity(i, 9, 8, 7 + i, 0.5, -0.5, 0.5, 0.5, 1);
      r.endFrame();
    }
    a.beginFrame(1, 1);
    b.beginFrame(1, 1);
    const flags = [0, 1, 127, 128, 200, 255, 300, -1, 0.5, 3, 64, 5];
    for (let i = 0; i < 12; i++) {
      const angle = 0.4 * i - 2;
      a.entity2D(i, i * 2, -3 * i, angle, flags[i]);
      b.entity(i, i * 2, -3 * i, 0, 0, 0, Math.sin(angle / 2), Math.cos(angle / 2), flags[i]);
    }
    a.endFrame();
    b.endFrame();
    const words = (r: typeof a): number[] =>
      Array.from(r.ring.u32.subarray(r.ring.offsetOf(1), r.ring.offsetOf(1) + r.ring.wordsOf(1)));
    expect(words(a)).toEqual(words(b));
    const e = new EntityBuffer();
    a.reader.readEntities(1, e, false);
    for (let i = 0; i < 12; i++) {
      expect([e.positions[i * 3 + 2], e.rotations[i * 4], e.rotations[i * 4 + 1]]).toEqual([0, 0, 0]);
    }
    expect(a.stats.invalidFlags).toBe(b.stats.invalidFlags);
    expect(a.stats.invalidFlags).toBe(6);
  });
});
