import { describe, expect, it } from 'vitest';
import {
  H_BONE_WORDS,
  H_DISPLAY_WORDS,
  H_ENTITY_COUNT,
  H_EVENT_COUNT,
  H_PRIM_COUNT,
  H_PRIM_WORDS,
} from '../../format/layout';
import { EntityBuffer, EventBuffer, FrameHeader, PrimitiveBuffer } from '../../read/buffers';
import { FieldValue } from '../../fields/FieldReader';
import { Playback } from '../../playback/Playback';
import type { Recorder } from '../Recorder';
import { Channel } from '../../store/ChannelRegistry';
import { ALL, quiet, warningsOf } from './helpers';

/**
 * FrameWriter's reservation, word by word: a frame reserves the header, 5 words an entity, its staged
 * bone words, debug-draw words, 6 words an event, 4 words an entity with display state and its field
 * rows (capped by the field budget). A frame that needs exactly the arena is kept whole; one that
 * needs more keeps only its header. Each section is tested alone at that edge, so a reservation that
 * leaves a section out (or counts it too small) is seen as a frame kept that should have been cut.
 * Also: a cut frame's header written over stale arena words, and its counts.
 */

/** 2,048 bytes: an arena of 512 words. */
const ARENA_BYTES = 2048;
const ARENA_WORDS = 512;
const HEADER = 22;

function recorder(): Recorder {
  const r = quiet({ arenaBytes: ARENA_BYTES, maxFrames: 8, maxEntitiesPerFrame: 200, maxEventsPerFrame: 200 });
  r.channels.setBudget(0, 500);
  return r;
}

interface Spec {
  entities: number;
  bones?: number;
  points?: number;
  events?: number;
  /** The first `display` entities get display state. */
  display?: number;
}

/** Records one frame by `spec`; returns the words FrameWriter must reserve for it. */
function frame(r: Recorder, s: Spec): number {
  r.beginFrame(r.currentFrame / 60, 1 / 60);
  for (let i = 0; i < s.entities; i++) {
    r.entity(i, 1 + i, 2 + i, 3 + i, 0, 0, 0, 1);
    if (i < (s.display ?? 0)) r.display(i, 2, 3, 0.5, true, -1);
  }
  const bones = s.bones ?? 0;
  if (bones > 0) {
    const id = s.entities - 1;
    r.bones(id, bones, new Array<number>(bones * 4).fill(0.5), new Array<number>(bones * 3).fill(1));
  }
  for (let p = 0; p < (s.points ?? 0); p++) r.draw.point(0, p, 0, 0, 1, 0xffffff);
  for (let e = 0; e < (s.events ?? 0); e++) r.event('hit', 0, e, 0, 0);
  const upper =
    HEADER +
    5 * s.entities +
    (bones > 0 ? 1 + 4 * bones : 0) +
    r.draw.wordCount +
    6 * (s.events ?? 0) +
    4 * (s.display ?? 0);
  r.endFrame();
  return upper;
}

function header(r: Recorder, f: number): FrameHeader {
  const h = new FrameHeader();
  expect(r.reader.readHeader(f, h)).toBe(true);
  return h;
}

describe('FrameWriter reserves every section of a frame', () => {
  const cases: Array<[string, Spec, Spec]> = [
    // [section, needs exactly the arena (or just under: odd sizes round up), needs more]
    ['entities (5 words each)', { entities: 98 }, { entities: 99 }],
    ['bones (1 + 4 words a bone)', { entities: 1, bones: 121 }, { entities: 1, bones: 122 }],
    ['debug draw (5 words a point)', { entities: 1, points: 97 }, { entities: 1, points: 98 }],
    ['events (6 words each)', { entities: 2, events: 80 }, { entities: 2, events: 81 }],
    ['display (4 words an entity)', { entities: 58, display: 50 }, { entities: 58, display: 51 }],
  ];
  for (const [name, fits, over] of cases) {
    it(`${name}: a frame of the whole arena is kept, one over it keeps only its header`, () => {
      // Kills, per section, `+ section` → `- section` and `count * words` → `count / words` in
      // FrameWriter's `upper` (the over-the-arena frame would be kept and written past the arena), and
      // `n * 5` → `n / 5` or `HEADER_WORDS + ...` → `- ...` for the entities.
      const r = recorder();
      const a = frame(r, fits);
      expect(a).toBeGreaterThan(ARENA_WORDS - 2);
      expect(a).toBeLessThanOrEqual(ARENA_WORDS);
      const ha = header(r, 0);
      expect(ha.truncated).toBe(false);
      expect(ha.entityCount).toBe(fits.entities);
      expect(ha.primitiveCount).toBe(fits.points ?? 0);
      expect(ha.eventCount).toBe(fits.events ?? 0);
      expect(r.reader.bytesOf(0)).toBe(((a + 1) & ~1) * 4);
      const e = new EntityBuffer();
      expect(r.reader.readEntities(0, e, true)).toBe(true);
      const last = fits.entities - 1;
      expect(Array.from(e.positions.subarray(last * 3, last * 3 + 3))).toEqual([1 + last, 2 + last, 3 + last]);
      expect(e.boneTotal).toBe(fits.bones ?? 0);

      const b = frame(r, over);
      expect(b).toBeGreaterThan(ARENA_WORDS);
      const hb = header(r, 1);
      expect(hb.truncated).toBe(true);
      expect(hb.entityCount).toBe(0);
      expect(hb.primitiveCount).toBe(0);
      expect(hb.eventCount).toBe(0);
      expect(hb.droppedEntities).toBe(over.entities);
      expect(r.reader.bytesOf(1)).toBe(HEADER * 4);
      expect(r.stats.framesTruncated).toBe(1);
      expect(warningsOf(r)).toContain(
        `rewindable: frame 1 needs ${b * 4} bytes, more than the whole arena; only its header was kept`,
      );
      // The frame before was evicted to make room for the attempt; the ring still works after.
      frame(r, { entities: 3 });
      expect(header(r, 2).entityCount).toBe(3);
    });
  }
});

describe("a cut frame's header", () => {
  it('zeroes every section count over the stale words of an older frame, and counts every entry as dropped', () => {
    // Kills the truncated branch emptied (the counts would be the stale words), `dropped + m` →
    // `dropped - m`, and the cut frame's `H_DISPLAY_WORDS` / `H_BONE_WORDS` / `H_PRIM_*` left unwritten.
    const r = recorder();
    // Frame 0: 402 words of entities (positions nonzero), at 0. Frame 1: 202 words, wraps to 0.
    frame(r, { entities: 76 });
    frame(r, { entities: 36 });
    expect(r.reader.offsetOf(1)).toBe(0);
    const at = r.reader.bytesOf(1) / 4;
    // The cut frame's header will be written at `at`, over frame 0's stale position words.
    const stale = r.ring.u32;
    for (const w of [H_ENTITY_COUNT, H_PRIM_WORDS, H_PRIM_COUNT, H_BONE_WORDS, H_EVENT_COUNT, H_DISPLAY_WORDS]) {
      expect(stale[at + w]).not.toBe(0);
    }
    // Frame 2: 99 entities (one a duplicate, one refused), bones, draw, events and display: too big.
    r.beginFrame(1, 1 / 60);
    for (let i = 0; i < 99; i++) {
      r.entity(i === 50 ? 49 : i, i, 0, 0, 0, 0, 0, 1);
      if (i === 98) r.display(98, 1, 1, 1, true, -1);
    }
    r.entity(-5, 0, 0, 0, 0, 0, 0, 1); // refused: counted as dropped by the stage
    r.entity(98, 0, 0, 0, 0, 0, 0, 1);
    r.bones(98, 2, [0, 0, 0, 1, 0, 0, 0, 1], [0, 0, 0, 0, 0, 0]);
    r.draw.point(0, 1, 1, 1, 1, 0xffffff);
    r.event('hit', 3, 0, 0, 0);
    r.endFrame();
    expect(r.reader.offsetOf(2)).toBe(at);
    const h = header(r, 2);
    expect(h.truncated).toBe(true);
    expect(h.entityCount).toBe(0);
    expect(h.primitiveCount).toBe(0);
    expect(h.eventCount).toBe(0);
    // 100 valid calls (two of them duplicates) and one refused.
    expect(h.droppedEntities).toBe(101);
    const u = r.ring.u32;
    for (const w of [H_ENTITY_COUNT, H_PRIM_WORDS, H_PRIM_COUNT, H_BONE_WORDS, H_EVENT_COUNT, H_DISPLAY_WORDS]) {
      expect(u[at + w]).toBe(0);
    }
    // Reading the cut frame gives nothing, not the stale words.
    const e = new EntityBuffer();
    expect(r.reader.readEntities(2, e, true)).toBe(true);
    expect(e.count).toBe(0);
    const p = new PrimitiveBuffer();
    expect(r.reader.readPrimitives(2, ALL, p)).toBe(true);
    expect(p.count).toBe(0);
    const ev = new EventBuffer();
    expect(r.reader.readEvents(2, ev)).toBe(true);
    expect(ev.count).toBe(0);
  });
});

describe('FrameWriter and the field rows', () => {
  const SPEC = { a: 'f32', b: 'f32', c: 'f32', d: 'f32', e: 'f32', f: 'f32', g: 'f32', h: 'f32' } as const;

  function fieldFrame(r: Recorder, schema: ReturnType<Recorder['declareFields']>, n: number, dup = -1): void {
    const v = new Float64Array(8);
    r.beginFrame(r.currentFrame / 60, 1 / 60);
    for (let i = 0; i < n; i++) {
      r.entity(i, i, 0, 0, 0, 0, 0, 1);
      for (let k = 0; k < 8; k++) v[k] = 100 * i + k + r.currentFrame;
      r.fields(i, schema, v);
      if (i === dup) r.entity(i, -1, -1, -1, 0, 0, 0, 1); // a duplicate: dropped when resolving
    }
    r.endFrame();
  }

  it('reserves the field rows: 40 entities of 8 fields do not fit 512 words, and their rows count as dropped', () => {
    // Kills `fieldStage.active ? ... : 0` → `false ? ...` (the rows would not be reserved: 222 words
    // of entities fit, and the rows would be written past the arena).
    const r = quiet({ arenaBytes: ARENA_BYTES, maxFrames: 8, maxEntitiesPerFrame: 200 });
    const s = r.declareFields('agent', SPEC);
    fieldFrame(r, s, 40);
    const h = header(r, 0);
    expect(h.truncated).toBe(true);
    expect(h.droppedEntities).toBe(40);
    expect(r.stats.fieldRowsDropped).toBe(40);
    // The same frame without fields fits.
    r.beginFrame(1, 1);
    for (let i = 0; i < 40; i++) r.entity(i, i, 0, 0, 0, 0, 0, 1);
    r.endFrame();
    expect(header(r, 1).truncated).toBe(false);
    expect(r.stats.fieldRowsDropped).toBe(40);
  });

  it('reserves at most the field budget: the same frame with a 64-byte budget fits, flagged over budget', () => {
    // Kills `Math.min(upperWords, budget)` → `Math.max` (the frame would be cut) and
    // `fieldBudgetBytes >>> 2` → `<< 2` (more rows than 16 words would be written), and the
    // over-budget flag left out of the header (`fieldFlags`).
    const r = quiet({ arenaBytes: ARENA_BYTES, maxFrames: 8, maxEntitiesPerFrame: 200, fieldBudgetBytes: 64 });
    const s = r.declareFields('agent', SPEC);
    fieldFrame(r, s, 40);
    const h = header(r, 0);
    expect(h.truncated).toBe(false);
    expect(h.entityCount).toBe(40);
    expect(h.fieldsOverBudget).toBe(true);
    expect(r.reader.bytesOf(0)).toBeLessThanOrEqual((HEADER + 5 * 40 + 16) * 4);
    // A frame within the budget is not flagged.
    fieldFrame(r, s, 1);
    expect(header(r, 1).fieldsOverBudget).toBe(false);
  });

  it('rows follow their entities when an entry is dropped, and again in the next frame when none is', () => {
    // Kills `m === n ? null : keptIndex` → `true` (rows after the dropped duplicate would shift
    // onto the wrong entities) and → `false` (the next frame would read the stale kept index).
    const r = quiet({ arenaBytes: 1 << 20, maxFrames: 8 });
    const s = r.declareFields('agent', SPEC);
    const pb = () => new Playback(r.reader);
    fieldFrame(r, s, 6, 1); // frame 0: entity 1 recorded twice
    fieldFrame(r, s, 4); // frame 1: no drop, fewer entities
    const out = new Float64Array(1);
    const p = pb();
    for (const f of [0, 1]) {
      for (let i = 0; i < (f === 0 ? 6 : 4); i++) {
        const hnd = r.entities.lookup(i);
        for (let k = 0; k < 8; k++) {
          expect(p.fields.valueAt(hnd, k, f, out)).toBe(FieldValue.INTERPOLATED);
          expect([f, i, k, out[0]]).toEqual([f, i, k, 100 * i + k + f]);
        }
      }
    }
  });
});

describe('a frame whose reservation evicts the frame before it', () => {
  for (const [name, options] of [
    ['frames larger than half the arena (the previous frame sits at word 0)', { maxFrames: 8 }],
    ['a ring of one frame', { maxFrames: 1, arenaBytes: 1 << 16 }],
  ] as const) {
    it(`${name}: a NaN position still takes the entity's previous position`, () => {
      // Kills FrameWriter's eviction watch: `evictWatch = frame - 1` → `frame + 1`,
      // `offsetOf(frame - 1)` → `offsetOf(frame + 1)`, `frame === evictWatch` → `false`/`!==`, and
      // `evictWatchAt >= 0` → `> 0` (the evicted frame is at word 0 here).
      const r = quiet({ arenaBytes: ARENA_BYTES, maxEntitiesPerFrame: 200, ...options });
      const n = 60; // 322 words: each frame evicts the one before
      for (let f = 0; f < 4; f++) {
        r.beginFrame(f, 1);
        for (let i = 0; i < n; i++) {
          const bad = f > 0 && i % 7 === f;
          r.entity(
            i,
            bad ? Number.NaN : 10 * i + f,
            bad ? Number.POSITIVE_INFINITY : -i - f,
            bad ? Number.NaN : f * 0.5,
            0,
            0,
            0,
            1,
          );
        }
        r.endFrame();
        expect(r.reader.frameCount).toBe(1);
        expect(r.reader.offsetOf(f)).toBe(0);
        const e = new EntityBuffer();
        expect(r.reader.readEntities(f, e, false)).toBe(true);
        for (let i = 0; i < n; i++) {
          const bad = f > 0 && i % 7 === f;
          // A repaired entry holds the previous frame's (already good) position.
          const want = bad ? [10 * i + f - 1, -i - f + 1, (f - 1) * 0.5] : [10 * i + f, -i - f, f * 0.5];
          expect([f, i, ...e.positions.subarray(i * 3, i * 3 + 3)]).toEqual([f, i, ...want]);
        }
      }
      expect(r.stats.framesEvicted).toBe(3);
    });
  }
});

describe('FrameWriter marks the channels a frame drew on', () => {
  it('a channel drawn within its budget, and one only over its budget (nothing stored), are both marked used', () => {
    // Kills `draw.wordCount > 0 || draw.overBudget !== 0` → `&&` (a frame within budget would mark
    // nothing) and `overBudget !== 0` → `false` (the frame below stores no primitive).
    const r = quiet();
    expect(r.channels.usedMask & 0b111).toBe(0);
    r.beginFrame(0, 1);
    r.draw.point(Channel.PHYSICS, 0, 0, 0, 1, 0xffffff);
    r.endFrame();
    expect(r.channels.usedMask & 0b111).toBe(1 << Channel.PHYSICS);
    r.channels.setBudget(Channel.ANIMATION, 0);
    r.beginFrame(1, 1);
    r.draw.point(Channel.ANIMATION, 0, 0, 0, 1, 0xffffff);
    r.endFrame();
    expect(header(r, 1).primitiveCount).toBe(0);
    expect(header(r, 1).overBudget).toBe(1 << Channel.ANIMATION);
    expect(r.channels.usedMask & 0b111).toBe((1 << Channel.PHYSICS) | (1 << Channel.ANIMATION));
  });
});

describe('bones and display state follow their entity through dropped entries', () => {
  it('each frame, with and without duplicates, with bones only or display only', () => {
    // Kills the resolver's "keep the kept index" argument `bones.count > 0 || display.count > 0` →
    // `false` / `&&` (bones or display state would be placed by a stale kept index).
    const r = quiet({ maxFrames: 16 });
    const tex = r.texture('t');
    const plan: Array<{ dup: number; bones: boolean; display: boolean }> = [
      { dup: 1, bones: true, display: true },
      { dup: -1, bones: true, display: false },
      { dup: 0, bones: false, display: true },
      { dup: -1, bones: false, display: true },
      { dup: 4, bones: true, display: false },
      { dup: -1, bones: true, display: true },
    ];
    plan.forEach((p, f) => {
      r.beginFrame(f, 1);
      for (let i = 0; i < 6; i++) {
        const id = (i + f) % 6;
        r.entity(id, id, f, 0, 0, 0, 0, 1);
        if (p.bones && id % 2 === 1) {
          const c = 1 + ((id + f) % 3);
          r.bones(
            id,
            c,
            new Array<number>(c * 4).fill(0).map((_, j) => (j % 4 === 3 ? 1 : 0)),
            new Array<number>(c * 3).fill(id + 10 * f),
          );
        }
        if (p.display && id % 3 !== 0) r.display(id, id + 1, f + 1, 1, true, tex);
        if (i === p.dup) r.entity(id, -9, -9, -9, 0, 0, 0, 1); // a duplicate of the entry just made: dropped
      }
      r.endFrame();
    });
    const e = new EntityBuffer();
    plan.forEach((p, f) => {
      expect(r.reader.readEntities(f, e, true)).toBe(true);
      expect(e.count).toBe(6);
      for (let i = 0; i < 6; i++) {
        const id = r.entities.ids[e.handles[i]];
        expect([f, id, e.positions[i * 3], e.positions[i * 3 + 1]]).toEqual([f, id, id, f]);
        const c = p.bones && id % 2 === 1 ? 1 + ((id + f) % 3) : 0;
        expect([f, id, e.boneStart[i] >= 0 ? e.boneCount[i] : 0]).toEqual([f, id, c]);
        if (c > 0) expect(e.boneOffsets[e.boneStart[i] * 3]).toBe(id + 10 * f);
        const d = p.display && id % 3 !== 0;
        expect([f, id, e.hasDisplay && e.display[i] !== 0]).toEqual([f, id, d]);
        if (d) expect([e.scales[i * 2], e.scales[i * 2 + 1]]).toEqual([id + 1, f + 1]);
      }
    });
  });
});

describe("a frame header's counters", () => {
  it('sanitized sums the four sources; dropped primitives and text, over-budget bits; the next frame starts clean', () => {
    // Kills each `+` → `-` in `H_SANITIZED = resolver.sanitized + draw.invalidPrims + repairs.count +
    // fieldStage.repaired` (the sources count 1, 2, 4 and 8), the `H_DROPPED_PRIMS`, `H_DROPPED_TEXT`
    // and `H_OVER_BUDGET` words, `repairs.committed()` and `events.committed()` left out (frame 1
    // would count frame 0's repairs and events again), and `framesRecorded++` → `--`.
    const r = quiet({ textBudgetBytes: 8 });
    const schema = r.declareFields('agent', { s: 'u8' });
    r.channels.setBudget(1, 1);
    r.beginFrame(0, 1);
    r.entity(1, Number.NaN, 0, 0, 0, 0, 0, 1); // resolver: 1
    r.draw.point(0, Number.NaN, 0, 0, 1, 0xffffff); // draw: 2
    r.draw.point(0, 0, Number.POSITIVE_INFINITY, 0, 1, 0xffffff);
    r.entity(2, 0, 0, 0, 0, 0, 0, 1, 300); // repairs: 4 (flags twice, an event, the camera)
    r.entity(3, 0, 0, 0, 0, 0, 0, 1, 200);
    r.event('hit', 2, Number.NaN, 0, 0);
    r.camera(Number.NaN, 0, 0, 0, 0, 0, 1, 1);
    for (let i = 0; i < 8; i++) {
      r.entity(10 + i, 0, 0, 0, 0, 0, 0, 1);
      r.fields(10 + i, schema, [Number.NaN]); // fields: 8
    }
    for (let i = 0; i < 3; i++) r.draw.point(1, i, 0, 0, 1, 0xffffff); // 2 over channel 1's budget of 1
    r.draw.text(2, 0, 0, 0, 'twelve bytes', 0xffffff); // over the 8-byte text budget
    r.endFrame();
    expect([r.stats.invalidPrimitives, r.stats.invalidFieldValues]).toEqual([2, 8]);
    const h = header(r, 0);
    expect(h.sanitized).toBe(15);
    expect(h.droppedPrimitives).toBe(2);
    expect(h.droppedTextBytes).toBe(12);
    expect(h.overBudget).toBe((1 << 1) | (1 << 2));
    expect(h.eventCount).toBe(1);
    r.beginFrame(1, 1);
    r.entity(1, 0, 0, 0, 0, 0, 0, 1);
    r.endFrame();
    const h1 = header(r, 1);
    expect([h1.sanitized, h1.droppedPrimitives, h1.droppedTextBytes, h1.overBudget, h1.eventCount]).toEqual([
      0, 0, 0, 0, 0,
    ]);
    expect(r.stats.framesRecorded).toBe(2);
  });
});
