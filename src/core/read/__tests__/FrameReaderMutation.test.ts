/**
 * FrameReader against frames written word by word here, from the layout (format/layout.ts), not by
 * the recorder: every header field, every section, records the recorder never writes (a bone or
 * display record whose row is past the entity count, a corrupt primitive type, a record running past
 * its section) and the read buffers' growth. The recorder's and sampler's tests reach the reader only
 * through what they record; these cases pin the decoding itself, so that a mutant of it (an offset
 * off by one, a section skipped, a bound moved) fails here. Comments name the mutants (Stryker's
 * notation) a case kills.
 */
import { describe, expect, it } from 'vitest';
import { FieldSchemas } from '../../fields/FieldSchemas';
import {
  BONE_INDEX_BITS,
  DISPLAY_VISIBLE,
  EVENT_WORDS,
  FRAME_FIELDS_OVER_BUDGET,
  FRAME_HAS_CAMERA,
  FRAME_TRUNCATED,
  HANDLE_BITS,
  HEADER_WORDS,
  H_BONE_WORDS,
  H_CAM_ROT,
  H_CAM_X,
  H_CAM_Y,
  H_CAM_Z,
  H_CAM_ZOOM,
  H_DISPLAY_WORDS,
  H_DROPPED_ENTITIES,
  H_DROPPED_PRIMS,
  H_DROPPED_TEXT,
  H_DT,
  H_ENTITY_COUNT,
  H_EVENT_COUNT,
  H_FLAGS,
  H_FRAME,
  H_OVER_BUDGET,
  H_PRIM_COUNT,
  H_PRIM_WORDS,
  H_SANITIZED,
  H_TIME,
  H_TOTAL_WORDS,
  NO_TEXTURE,
  PRIM_ARROW,
  PRIM_FLOATS,
  PRIM_LINE,
  PRIM_TEXT,
} from '../../format/layout';
import { decodeQuat, encodeQuat } from '../../math/quat';
import type { ChannelRegistry } from '../../store/ChannelRegistry';
import type { EntityTable } from '../../store/EntityTable';
import { FrameRing } from '../../store/FrameRing';
import {
  DISPLAY_RECORDED,
  DISPLAY_SHOWN,
  EntityBuffer,
  EventBuffer,
  FrameHeader,
  PrimitiveBuffer,
  growTyped,
} from '../buffers';
import { FrameReader, decodePrimitives } from '../FrameReader';

interface Bone {
  /** Row index the record names (may be past the entity count). */
  row: number;
  rotations: number[][];
  offsets: number[];
}
interface Prim {
  type: number;
  channel: number;
  color: number;
  floats: number[];
  text?: string;
}
interface FrameSpec {
  frame: number;
  time: number;
  dt: number;
  header?: Partial<Record<number, number>>;
  camera?: { x: number; y: number; z: number; q: number[]; zoom: number };
  flags?: number;
  entities?: { handle: number; flags: number; pos: number[]; q: number[] }[];
  bones?: Bone[];
  prims?: Prim[];
  /** Extra words appended to the primitive section (a corrupt record). */
  primTail?: number[];
  events?: { kind: number; subject: number; data: number[] }[];
  display?: { row: number; visible: boolean; sx: number; sy: number; alpha16: number; texture: number }[];
}

/** Writes one frame into `ring` word by word, as format/layout.ts describes it. */
function writeFrame(ring: FrameRing, s: FrameSpec): void {
  const words: number[] = [];
  const f32 = new Float32Array(1);
  const u32 = new Uint32Array(f32.buffer);
  const fl = (v: number) => {
    f32[0] = v;
    return u32[0];
  };
  const ents = s.entities ?? [];
  const n = ents.length;
  for (const e of ents) words.push((e.handle | (e.flags << HANDLE_BITS)) >>> 0);
  for (const e of ents) for (const v of e.pos) words.push(fl(v));
  for (const e of ents) words.push(encodeQuat(e.q[0], e.q[1], e.q[2], e.q[3]));
  const boneStart = words.length;
  for (const b of s.bones ?? []) {
    const c = b.rotations.length;
    words.push((b.row | (c << BONE_INDEX_BITS)) >>> 0);
    for (const q of b.rotations) words.push(encodeQuat(q[0], q[1], q[2], q[3]));
    for (const v of b.offsets) words.push(fl(v));
  }
  const boneWords = words.length - boneStart;
  const primStart = words.length;
  let primCount = 0;
  for (const p of s.prims ?? []) {
    words.push(((p.type | (p.channel << 3) | (p.color << 8)) >>> 0) >>> 0);
    for (const v of p.floats) words.push(fl(v));
    if (p.type === PRIM_TEXT) {
      const bytes = [...(p.text ?? '')].map((ch) => ch.charCodeAt(0));
      words.push(bytes.length);
      for (let i = 0; i < bytes.length; i += 4) {
        words.push(
          (bytes[i] | ((bytes[i + 1] ?? 0) << 8) | ((bytes[i + 2] ?? 0) << 16) | ((bytes[i + 3] ?? 0) << 24)) >>> 0,
        );
      }
    }
    primCount++;
  }
  for (const w of s.primTail ?? []) words.push(w);
  const primWords = words.length - primStart;
  for (const ev of s.events ?? []) {
    words.push(ev.kind, ev.subject);
    for (const v of ev.data) words.push(fl(v));
  }
  const displayStart = words.length;
  for (const d of s.display ?? []) {
    words.push(
      (d.row | (d.visible ? DISPLAY_VISIBLE : 0)) >>> 0,
      fl(d.sx),
      fl(d.sy),
      (d.alpha16 | (d.texture << 16)) >>> 0,
    );
  }
  const displayWords = words.length - displayStart;
  const total = HEADER_WORDS + words.length;
  const at = ring.reserve(total);
  const u = ring.u32;
  u.fill(0xdeadbeef, at, at + HEADER_WORDS); // nothing the reader should read is left at 0 by chance
  u[at + H_FRAME] = s.frame;
  u[at + H_ENTITY_COUNT] = n;
  ring.f64[(at + H_TIME) >>> 1] = s.time;
  ring.f32[at + H_DT] = s.dt;
  u[at + H_OVER_BUDGET] = 0;
  u[at + H_DROPPED_PRIMS] = 0;
  u[at + H_DROPPED_TEXT] = 0;
  u[at + H_DROPPED_ENTITIES] = 0;
  u[at + H_SANITIZED] = 0;
  u[at + H_PRIM_WORDS] = primWords;
  u[at + H_PRIM_COUNT] = primCount;
  u[at + H_BONE_WORDS] = boneWords;
  u[at + H_EVENT_COUNT] = (s.events ?? []).length;
  u[at + H_FLAGS] = s.flags ?? 0;
  const cam = s.camera ?? { x: 0, y: 0, z: 0, q: [0, 0, 0, 1], zoom: 1 };
  ring.f32[at + H_CAM_X] = cam.x;
  ring.f32[at + H_CAM_Y] = cam.y;
  ring.f32[at + H_CAM_Z] = cam.z;
  u[at + H_CAM_ROT] = encodeQuat(cam.q[0], cam.q[1], cam.q[2], cam.q[3]);
  ring.f32[at + H_CAM_ZOOM] = cam.zoom;
  u[at + H_TOTAL_WORDS] = total;
  u[at + H_DISPLAY_WORDS] = displayWords;
  for (const [k, v] of Object.entries(s.header ?? {})) u[at + Number(k)] = v as number;
  for (let i = 0; i < words.length; i++) u[at + HEADER_WORDS + i] = words[i];
  ring.commit(s.frame, total);
}

function readerOf(ring: FrameRing): FrameReader {
  return new FrameReader(ring, {} as EntityTable, {} as ChannelRegistry, ['hit'], ['tex'], new FieldSchemas());
}

/** The quaternion a word decodes to (the reader must give exactly this). */
function q(x: number, y: number, z: number, w: number): number[] {
  const out = new Float32Array(4);
  decodeQuat(encodeQuat(x, y, z, w), out, 0);
  return [...out];
}

const S = Math.SQRT1_2;
const ENTS = [
  { handle: 7, flags: 0x81, pos: [1.5, -2.25, 3], q: [0, 0, S, S] },
  { handle: 0xabcdef, flags: 0x02, pos: [-10, 20.5, -0.125], q: [0.5, 0.5, 0.5, 0.5] },
  { handle: 3, flags: 0, pos: [100, 200, 300], q: [S, 0, 0, S] },
];

/** A frame with every section. */
const FULL: FrameSpec = {
  frame: 5,
  time: 12.345678901234,
  dt: 1 / 60,
  header: {
    [H_OVER_BUDGET]: 0b1010,
    [H_DROPPED_PRIMS]: 11,
    [H_DROPPED_TEXT]: 12,
    [H_DROPPED_ENTITIES]: 13,
    [H_SANITIZED]: 14,
  },
  flags: FRAME_HAS_CAMERA,
  camera: { x: 4, y: -5, z: 6.5, q: [0, S, 0, S], zoom: 2.5 },
  entities: ENTS,
  bones: [
    {
      row: 2,
      rotations: [
        [0, 0, 0, 1],
        [0, 0, S, S],
      ],
      offsets: [1, 2, 3, 4, 5, 6],
    },
    // A record naming the row just past the entity count: its bones are decoded, no row points at them.
    { row: 3, rotations: [[S, 0, 0, S]], offsets: [7, 8, 9] },
    {
      row: 0,
      rotations: [
        [0.5, -0.5, 0.5, -0.5],
        [0, 0, 0, 1],
        [0, S, 0, S],
      ],
      offsets: [10, 11, 12, 13, 14, 15, 16, 17, 18],
    },
  ],
  prims: [
    { type: PRIM_LINE, channel: 1, color: 0x112233, floats: [1, 2, 3, 4, 5, 6] },
    { type: PRIM_TEXT, channel: 2, color: 0xffffff, floats: [7, 8, 9], text: 'hello' },
    { type: PRIM_ARROW, channel: 31, color: 0x445566, floats: [1, 1, 1, 2, 2, 2, 0.5] },
    { type: 0, channel: 1, color: 0x0000ff, floats: [9, 8, 7, 3] },
    { type: PRIM_TEXT, channel: 1, color: 0x010203, floats: [-1, -2, -3], text: 'abcdefgh' },
  ],
  events: [
    { kind: 3, subject: 0xffffffff, data: [1, 2, 3, 4] },
    { kind: 0, subject: 42, data: [-1, -2, -3, 0.5] },
  ],
  display: [
    { row: 1, visible: true, sx: 2, sy: 3, alpha16: 65535, texture: 0 },
    { row: 3, visible: true, sx: 9, sy: 9, alpha16: 1, texture: 1 }, // just past the entity count: skipped
    { row: 0, visible: false, sx: -1, sy: 0.5, alpha16: 32768, texture: NO_TEXTURE },
  ],
};

function ringWith(...frames: FrameSpec[]): FrameRing {
  const ring = new FrameRing(1 << 16, 8);
  for (const s of frames) writeFrame(ring, s);
  return ring;
}

const BARE: FrameSpec = { frame: 6, time: 13, dt: 0.5, entities: [ENTS[2], ENTS[0]] };

describe('FrameReader: the header', () => {
  it('decodes every header field, the flags one by one and the camera', () => {
    const r = readerOf(ringWith(FULL, BARE));
    const h = new FrameHeader();
    expect(r.readHeader(5, h)).toBe(true);
    expect(h.frame).toBe(5);
    expect(h.time).toBe(12.345678901234);
    expect(h.dt).toBe(Math.fround(1 / 60));
    expect(h.overBudget).toBe(0b1010);
    expect(h.droppedPrimitives).toBe(11);
    expect(h.droppedTextBytes).toBe(12);
    expect(h.droppedEntities).toBe(13);
    expect(h.sanitized).toBe(14);
    expect(h.entityCount).toBe(3);
    expect(h.primitiveCount).toBe(5);
    expect(h.eventCount).toBe(2);
    expect([h.truncated, h.hasCamera, h.fieldsOverBudget]).toEqual([false, true, false]);
    expect([...h.camera]).toEqual([4, -5, 6.5, ...q(0, S, 0, S), 2.5]);
    expect(r.readHeader(6, h)).toBe(true);
    expect([h.frame, h.time, h.dt, h.entityCount, h.primitiveCount, h.eventCount]).toEqual([6, 13, 0.5, 2, 0, 0]);
    expect([h.truncated, h.hasCamera, h.fieldsOverBudget]).toEqual([false, false, false]);
  });

  it('reads each flag bit apart (`& FRAME_*` → `|`, `!== 0` → `=== 0`)', () => {
    for (const [flags, expected] of [
      [FRAME_TRUNCATED, [true, false, false]],
      [FRAME_HAS_CAMERA, [false, true, false]],
      [FRAME_FIELDS_OVER_BUDGET, [false, false, true]],
      [FRAME_TRUNCATED | FRAME_FIELDS_OVER_BUDGET, [true, false, true]],
    ] as const) {
      const r = readerOf(ringWith({ frame: 0, time: 0, dt: 0, flags }));
      const h = new FrameHeader();
      expect(r.readHeader(0, h)).toBe(true);
      expect([h.truncated, h.hasCamera, h.fieldsOverBudget]).toEqual(expected);
    }
  });

  it('leaves the header alone and answers "nothing" for frames not held', () => {
    const r = readerOf(ringWith(FULL, BARE));
    const h = new FrameHeader();
    h.frame = 77;
    expect(r.readHeader(4, h)).toBe(false);
    expect(r.readHeader(7, h)).toBe(false);
    expect(h.frame).toBe(77);
    expect(r.timeOf(4)).toBeNaN();
    expect(r.dtOf(7)).toBeNaN();
    expect(r.overBudgetOf(4)).toBe(0);
    expect(r.bytesOf(4)).toBe(0);
    expect(r.entityCountOf(7)).toBe(0);
  });

  it('the per-frame accessors read the same words as readHeader', () => {
    const r = readerOf(ringWith(FULL, BARE));
    expect(r.timeOf(5)).toBe(12.345678901234);
    expect(r.dtOf(5)).toBe(Math.fround(1 / 60));
    expect(r.overBudgetOf(5)).toBe(0b1010);
    expect(r.overBudgetOf(6)).toBe(0);
    expect(r.entityCountOf(5)).toBe(3);
    expect(r.entityCountOf(6)).toBe(2);
    expect(r.bytesOf(6)).toBe((HEADER_WORDS + 2 * 5) * 4);
    expect(r.bytesOf(5)).toBe(r.ring.wordsOf(5) * 4);
    expect([r.frameCount, r.oldestFrame, r.newestFrame, r.has(5), r.has(7)]).toEqual([2, 5, 6, true, false]);
    expect([r.eventKinds, r.textures]).toEqual([['hit'], ['tex']]);
  });
});

describe('FrameReader: entities, bones and display state', () => {
  it('decodes handles, flags, positions and rotations of every row', () => {
    const r = readerOf(ringWith(FULL));
    const e = new EntityBuffer();
    expect(r.readEntities(5, e)).toBe(true);
    expect(e.count).toBe(3);
    expect([...e.handles.subarray(0, 3)]).toEqual([7, 0xabcdef, 3]);
    expect([...e.flags.subarray(0, 3)]).toEqual([0x81, 0x02, 0]);
    expect([...e.positions.subarray(0, 9)]).toEqual([1.5, -2.25, 3, -10, 20.5, -0.125, 100, 200, 300]);
    expect([...e.rotations.subarray(0, 12)]).toEqual([...q(0, 0, S, S), ...q(0.5, 0.5, 0.5, 0.5), ...q(S, 0, 0, S)]);
  });

  it('writes nothing past the rows, the bones and the events in use (`i < n` → `<=` in each loop)', () => {
    const r = readerOf(ringWith(FULL));
    const e = new EntityBuffer(16, 16);
    e.handles.fill(-5);
    e.flags.fill(5);
    e.positions.fill(-5);
    e.rotations.fill(-5);
    e.boneRotations.fill(-5);
    e.boneOffsets.fill(-5);
    e.ensureDisplay(16);
    e.display.fill(5);
    r.readEntities(5, e);
    expect([e.handles[3], e.flags[3], e.positions[9], e.rotations[12]]).toEqual([-5, 5, -5, -5]);
    expect([e.boneRotations[6 * 4], e.boneOffsets[6 * 3]]).toEqual([-5, -5]);
    expect(e.display[3]).toBe(5);
    const ev = new EventBuffer();
    ev.ensure(4);
    ev.kinds.fill(99);
    ev.subjects.fill(99);
    ev.data.fill(-5);
    r.readEvents(5, ev);
    expect([ev.kinds[2], ev.subjects[2], ev.data[8]]).toEqual([99, 99, -5]);
    const p = new PrimitiveBuffer();
    r.readPrimitives(5, 0xffffffff, p);
    expect(p.textBytes[13]).toBe(0); // one byte past the last text (its record is followed by an event)
  });

  it('timing and rows of a frame stored at word 0 of the arena (`at < 0` → `<= 0`, row 0)', () => {
    const r = readerOf(ringWith(FULL));
    expect(r.offsetOf(5)).toBe(0);
    const out = new Float64Array(2);
    expect(r.timingInto(5, out, 0)).toBe(true);
    expect([...out]).toEqual([12.345678901234, Math.fround(1 / 60)]);
    const pos = new Float32Array(3);
    expect(r.positionAt(5, 0, pos, 0)).toBe(true);
    expect([...pos]).toEqual([1.5, -2.25, 3]);
  });

  it('decodes the bones of each record, skipping the row of a record past the entity count', () => {
    const r = readerOf(ringWith(FULL));
    const e = new EntityBuffer(4);
    e.boneStart[3] = 77;
    e.boneCount[3] = 78;
    r.readEntities(5, e);
    expect([e.boneStart[3], e.boneCount[3]]).toEqual([77, 78]);
    // Records in order: row 2 (2 bones) at 0, row 3 (1 bone, no row) at 2, row 0 (3 bones) at 3.
    // Nothing is written for row 3 (`idx < n` → `<=`): the slots past the count keep what they held.
    expect(e.boneTotal).toBe(6);
    expect([...e.boneStart.subarray(0, 3)]).toEqual([3, -1, 0]);
    expect(e.boneCount[0]).toBe(3);
    expect(e.boneCount[2]).toBe(2);
    expect([...e.boneRotations.subarray(0, 24)]).toEqual([
      ...q(0, 0, 0, 1),
      ...q(0, 0, S, S),
      ...q(S, 0, 0, S),
      ...q(0.5, -0.5, 0.5, -0.5),
      ...q(0, 0, 0, 1),
      ...q(0, S, 0, S),
    ]);
    expect([...e.boneOffsets.subarray(0, 18)]).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18]);
  });

  it('without bones, or for a frame with none, every row has boneStart -1 and boneTotal is 0', () => {
    const r = readerOf(ringWith(FULL, BARE));
    const e = new EntityBuffer();
    r.readEntities(5, e);
    expect(r.readEntities(5, e, false)).toBe(true);
    expect(e.boneTotal).toBe(0);
    expect([...e.boneStart.subarray(0, 3)]).toEqual([-1, -1, -1]);
    expect([...e.positions.subarray(0, 3)]).toEqual([1.5, -2.25, 3]);
    r.readEntities(5, e);
    expect(r.readEntities(6, e)).toBe(true);
    expect(e.boneTotal).toBe(0);
    expect([...e.boneStart.subarray(0, 2)]).toEqual([-1, -1]);
    expect([...e.handles.subarray(0, 2)]).toEqual([3, 7]);
    expect([...e.positions.subarray(0, 6)]).toEqual([100, 200, 300, 1.5, -2.25, 3]);
  });

  it('decodes display records: visibility, scales, alpha, texture; rows without one are 0', () => {
    const r = readerOf(ringWith(FULL, BARE));
    const e = new EntityBuffer();
    r.readEntities(5, e);
    expect(e.hasDisplay).toBe(true);
    expect([...e.display.subarray(0, 3)]).toEqual([DISPLAY_RECORDED, DISPLAY_RECORDED | DISPLAY_SHOWN, 0]);
    expect([...e.scales.subarray(0, 4)]).toEqual([-1, 0.5, 2, 3]);
    expect(e.alphas[0]).toBe(Math.fround(32768 / 65535));
    expect(e.alphas[1]).toBe(1);
    expect(e.textures[0]).toBe(-1);
    expect(e.textures[1]).toBe(0);
    // The record for row 3 (past the count; `i >= n` → `>`) wrote nothing: rows 2 and 3 keep zeros.
    expect(e.display[2]).toBe(0);
    expect([e.display[3], e.scales[6], e.scales[7], e.alphas[3], e.textures[3]]).toEqual([0, 0, 0, 0, 0]);
    expect(e.display.length).toBeGreaterThanOrEqual(3);
    // Reading a frame with display state again clears rows that had some in the frame before.
    e.display.fill(0xff);
    r.readEntities(5, e);
    expect(e.display[2]).toBe(0);
    expect(r.readEntities(6, e)).toBe(true);
    expect(e.hasDisplay).toBe(false);
  });

  it('finds the display section after the bones, primitives and events whatever their sizes', () => {
    // A frame with display state but no bones, primitives or events, and one with bones only.
    const plain: FrameSpec = {
      frame: 0,
      time: 0,
      dt: 0,
      entities: ENTS,
      display: [{ row: 2, visible: true, sx: 5, sy: 6, alpha16: 0, texture: 3 }],
    };
    const r = readerOf(ringWith(plain, { ...plain, frame: 1, bones: [FULL.bones?.[0] as Bone] }));
    const e = new EntityBuffer();
    for (const f of [0, 1]) {
      r.readEntities(f, e);
      expect([...e.display.subarray(0, 3)]).toEqual([0, 0, DISPLAY_RECORDED | DISPLAY_SHOWN]);
      expect([e.scales[4], e.scales[5], e.alphas[2], e.textures[2]]).toEqual([5, 6, 0, 3]);
    }
  });

  it('readHandles decodes count, handles and flags only', () => {
    const r = readerOf(ringWith(FULL));
    const e = new EntityBuffer(4);
    e.positions.fill(9);
    expect(r.readHandles(5, e)).toBe(true);
    expect([e.count, ...e.handles.subarray(0, 3), ...e.flags.subarray(0, 3)]).toEqual([3, 7, 0xabcdef, 3, 0x81, 2, 0]);
    expect(e.positions.every((v) => v === 9)).toBe(true);
    expect(r.readHandles(4, e)).toBe(false);
    expect(r.readEntities(4, e)).toBe(false);
  });
});

describe('FrameReader: primitives and events', () => {
  it('decodes every primitive of the channels in the mask, with its floats, colour and text', () => {
    const r = readerOf(ringWith(FULL));
    const p = new PrimitiveBuffer();
    expect(r.readPrimitives(5, 0xffffffff, p)).toBe(true);
    expect(p.count).toBe(5);
    expect([...p.types.subarray(0, 5)]).toEqual([PRIM_LINE, PRIM_TEXT, PRIM_ARROW, 0, PRIM_TEXT]);
    expect([...p.channels.subarray(0, 5)]).toEqual([1, 2, 31, 1, 1]);
    expect([...p.colors.subarray(0, 5)]).toEqual([0x112233, 0xffffff, 0x445566, 0x0000ff, 0x010203]);
    const floats = (i: number, k: number) => [...p.data.subarray(i * PRIM_FLOATS, i * PRIM_FLOATS + k)];
    expect(floats(0, 6)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(floats(1, 3)).toEqual([7, 8, 9]);
    expect(floats(2, 7)).toEqual([1, 1, 1, 2, 2, 2, 0.5]);
    expect(floats(3, 4)).toEqual([9, 8, 7, 3]);
    expect(floats(4, 3)).toEqual([-1, -2, -3]);
    expect(p.text(1)).toBe('hello');
    expect(p.text(4)).toBe('abcdefgh');
    expect([p.textStart[1], p.textLength[1], p.textStart[4], p.textLength[4]]).toEqual([0, 5, 5, 8]);
    expect([p.textStart[0], p.textLength[0], p.textStart[3], p.textLength[3]]).toEqual([0, 0, 0, 0]);
    expect(p.textByteCount).toBe(13);
  });

  it('keeps only the channels of the mask, and writes no floats past a record (the line leaves word 7)', () => {
    const r = readerOf(ringWith(FULL));
    const p = new PrimitiveBuffer(8);
    p.data.fill(-7);
    p.textStart.fill(9);
    p.textLength.fill(9);
    expect(r.readPrimitives(5, 1 << 1, p)).toBe(true);
    expect(p.count).toBe(3);
    expect([...p.types.subarray(0, 3)]).toEqual([PRIM_LINE, 0, PRIM_TEXT]);
    expect([...p.data.subarray(0, 7)]).toEqual([1, 2, 3, 4, 5, 6, -7]);
    expect([...p.data.subarray(7, 14)]).toEqual([9, 8, 7, 3, -7, -7, -7]);
    expect([...p.data.subarray(14, 21)]).toEqual([-1, -2, -3, -7, -7, -7, -7]);
    expect(p.text(2)).toBe('abcdefgh');
    expect([p.textStart[0], p.textLength[0], p.textStart[2], p.textLength[2]]).toEqual([0, 0, 0, 8]);
    expect(p.textByteCount).toBe(8);
    expect(r.readPrimitives(5, 1 << 31, p)).toBe(true);
    expect([p.count, p.types[0], p.channels[0]]).toEqual([1, PRIM_ARROW, 31]);
    expect(r.readPrimitives(5, 0, p)).toBe(true);
    expect([p.count, p.textByteCount]).toEqual([0, 0]);
    expect(r.readPrimitives(4, 0xffffffff, p)).toBe(false);
  });

  it('stops at a record of an unknown type, or one running past the section', () => {
    const line = FULL.prims?.[0] as Prim;
    for (const tail of [
      [6 | (1 << 3), 0, 0, 0, 0], // type 6
      [7 | (1 << 3), 0, 0, 0, 0], // type 7
      [PRIM_LINE | (1 << 3), 0, 0], // a line of 3 words of its 7
      [PRIM_TEXT | (1 << 3), 0, 0, 0, 5, 0], // a text of 5 bytes with 1 word of bytes
      [PRIM_TEXT | (1 << 3), 0, 0, 0, 0xfffffffd], // a length near 2^32
    ]) {
      const r = readerOf(ringWith({ frame: 0, time: 0, dt: 0, entities: ENTS, prims: [line, line], primTail: tail }));
      const p = new PrimitiveBuffer();
      expect(r.readPrimitives(0, 0xffffffff, p)).toBe(true);
      expect(p.count).toBe(2);
      expect([...p.data.subarray(PRIM_FLOATS, PRIM_FLOATS + 6)]).toEqual([1, 2, 3, 4, 5, 6]);
    }
  });

  it('a text of exactly its section fits; the primitive section starts after the bones', () => {
    const text: Prim = { type: PRIM_TEXT, channel: 0, color: 5, floats: [1, 2, 3], text: 'abcd' };
    const r = readerOf(ringWith({ frame: 0, time: 0, dt: 0, entities: ENTS, bones: FULL.bones, prims: [text] }));
    const p = new PrimitiveBuffer();
    r.readPrimitives(0, 1, p);
    expect([p.count, p.text(0), p.colors[0]]).toEqual([1, 'abcd', 5]);
  });

  it('grows the buffer past the count hint', () => {
    // decodePrimitives over a section whose count word says 1 while it holds 40 records, 27 of them
    // kept: past the 16 rows `ensure(1)` gives (`count >= length` → `>` / `<` / `false`, `count + 1` → `- 1`).
    const ring = ringWith({
      frame: 0,
      time: 0,
      dt: 0,
      prims: Array.from({ length: 40 }, (_, i) => ({ type: 0, channel: i % 3, color: i, floats: [i, i, i, 1] })),
    });
    const start = ring.offsetOf(0) + HEADER_WORDS;
    const p = new PrimitiveBuffer();
    decodePrimitives(ring.u32, ring.f32, ring.u8, start, start + 200, 1, 0b101, p);
    const kept = Array.from({ length: 40 }, (_, i) => i).filter((i) => i % 3 !== 1);
    expect(kept.length).toBe(27);
    expect(p.count).toBe(kept.length);
    expect([...p.colors.subarray(0, p.count)]).toEqual(kept);
    expect(kept.map((_, k) => p.data[k * PRIM_FLOATS])).toEqual(kept);
  });

  it('decodes events after the primitives', () => {
    const r = readerOf(ringWith(FULL));
    const ev = new EventBuffer();
    expect(r.readEvents(5, ev)).toBe(true);
    expect(ev.count).toBe(2);
    expect([...ev.kinds.subarray(0, 2)]).toEqual([3, 0]);
    expect([...ev.subjects.subarray(0, 2)]).toEqual([0xffffffff, 42]);
    expect([...ev.data.subarray(0, 8)]).toEqual([1, 2, 3, 4, -1, -2, -3, 0.5]);
    expect(EVENT_WORDS).toBe(6);
    expect(r.readEvents(4, ev)).toBe(false);
    expect(ev.count).toBe(2);
  });
});

describe('FrameReader: lookups by row', () => {
  it('indexOf uses a right hint, ignores a wrong or out-of-range one, and says -1 for absent handles', () => {
    const r = readerOf(ringWith(FULL));
    expect(r.indexOf(5, 0xabcdef)).toBe(1);
    expect(r.indexOf(5, 0xabcdef, 1)).toBe(1);
    expect(r.indexOf(5, 3, 0)).toBe(2);
    expect(r.indexOf(5, 7, 2)).toBe(0);
    expect(r.indexOf(5, 3, 3)).toBe(2); // hint = count: not read
    expect(r.indexOf(5, 7, -1)).toBe(0);
    // The handle is compared without the flag byte: row 0 is handle 7 with flags 0x81.
    expect(r.indexOf(5, 7, 0)).toBe(0);
    expect(r.indexOf(5, 0x81000007)).toBe(-1);
    expect(r.indexOf(5, 8)).toBe(-1);
    expect(r.indexOf(5, 8, 1)).toBe(-1);
    expect(r.indexOf(4, 7)).toBe(-1);
  });

  it('finds handle 0 and ignores a hint whose word is not a row (`hint >= 0` → `< 0`, `base + hint` → `-`)', () => {
    const e = (handle: number) => ({ handle, flags: 0, pos: [0, 0, 0], q: [0, 0, 0, 1] });
    // One display record: the header word just before the rows (display words) reads 4.
    const r = readerOf(
      ringWith({
        frame: 0,
        time: 0,
        dt: 0,
        entities: [e(4), e(0), e(9)],
        display: [{ row: 0, visible: true, sx: 1, sy: 1, alpha16: 0, texture: 0 }],
      }),
    );
    expect(r.indexOf(0, 4, 1)).toBe(0);
    expect(r.indexOf(0, 4)).toBe(0); // the default hint -1 must not read that word either
    expect(r.indexOf(0, 0)).toBe(1);
    expect(r.indexOf(0, 9, 0)).toBe(2);
  });

  it('a hint past the count that names a stale word is not taken', () => {
    // Frame 1 has one row (handle 3); frame 0 before it held three, so the words after frame 1's
    // row are those of another section, not rows.
    const r = readerOf(
      ringWith({
        frame: 0,
        time: 0,
        dt: 0,
        entities: [ENTS[2]],
        prims: [{ type: 0, channel: 0, color: 0, floats: [0, 0, 0, 0] }],
      }),
    );
    // Word base + 1 is a position (100.0 as bits), never a handle of 0x42c80000 & mask.
    const word = r.ring.u32[r.ring.offsetOf(0) + HEADER_WORDS + 1] & 0xffffff;
    expect(r.indexOf(0, word, 1)).toBe(-1);
    expect(r.indexOf(0, 3, 1)).toBe(0);
  });

  it('positionAt and flagsAt answer rows 0 to count − 1 only', () => {
    const r = readerOf(ringWith(FULL));
    const out = new Float64Array(5).fill(-1);
    expect(r.positionAt(5, 1, out, 1)).toBe(true);
    expect([...out]).toEqual([-1, -10, 20.5, -0.125, -1]);
    expect(r.positionAt(5, 2, out, 0)).toBe(true);
    expect([...out.subarray(0, 3)]).toEqual([100, 200, 300]);
    out.fill(-1);
    expect(r.positionAt(5, 3, out, 0)).toBe(false);
    expect(r.positionAt(5, -1, out, 0)).toBe(false);
    expect(r.positionAt(4, 0, out, 0)).toBe(false);
    expect([...out]).toEqual([-1, -1, -1, -1, -1]);
    expect([r.flagsAt(5, 0), r.flagsAt(5, 1), r.flagsAt(5, 2)]).toEqual([0x81, 2, 0]);
    expect([r.flagsAt(5, 3), r.flagsAt(5, -1), r.flagsAt(4, 0)]).toEqual([0, 0, 0]);
    // A frame not held: row 1 would read frame 5's row 0 (flags 0x81) through offset -1.
    expect(r.flagsAt(4, 1)).toBe(0);
  });
});

describe('read buffers', () => {
  it('EntityBuffer keeps its rows when it grows, to at least 16 rows and by doubling', () => {
    const e = new EntityBuffer(2, 1);
    expect(e.handles.length).toBe(16);
    expect(e.boneRotations.length).toBe(64);
    e.handles.set([5, 6]);
    e.flags.set([1, 2]);
    e.positions.set([1, 2, 3, 4, 5, 6]);
    e.rotations.set([0, 0, 0, 1]);
    e.boneStart.set([3, -1]);
    e.boneCount.set([4]);
    e.ensure(16);
    expect(e.handles.length).toBe(16);
    e.ensure(17);
    expect(e.handles.length).toBe(32);
    e.ensure(100);
    expect([e.handles.length, e.flags.length, e.positions.length, e.rotations.length]).toEqual([100, 100, 300, 400]);
    expect([e.boneStart.length, e.boneCount.length]).toEqual([100, 100]);
    expect([...e.handles.subarray(0, 2), ...e.flags.subarray(0, 2)]).toEqual([5, 6, 1, 2]);
    expect([...e.positions.subarray(0, 6), ...e.rotations.subarray(0, 4)]).toEqual([1, 2, 3, 4, 5, 6, 0, 0, 0, 1]);
    expect([...e.boneStart.subarray(0, 2), e.boneCount[0]]).toEqual([3, -1, 4]);
  });

  it('bones and display columns grow the same way and keep their content', () => {
    const e = new EntityBuffer();
    expect([e.handles.length, e.boneRotations.length, e.display.length]).toEqual([0, 0, 0]);
    e.ensureBones(1);
    expect([e.boneRotations.length, e.boneOffsets.length]).toEqual([64, 48]);
    e.boneRotations[3] = 1;
    e.boneOffsets[2] = 9;
    e.ensureBones(16);
    expect(e.boneRotations.length).toBe(64);
    e.ensureBones(17);
    expect([e.boneRotations.length, e.boneOffsets.length, e.boneRotations[3], e.boneOffsets[2]]).toEqual([
      128, 96, 1, 9,
    ]);
    e.ensureBones(200);
    expect(e.boneRotations.length).toBe(800);
    e.ensureDisplay(1);
    expect([e.display.length, e.scales.length, e.alphas.length, e.textures.length]).toEqual([16, 32, 16, 16]);
    e.display[0] = 3;
    e.scales[1] = 2;
    e.alphas[0] = 0.5;
    e.textures[0] = 4;
    e.ensureDisplay(16);
    expect(e.display.length).toBe(16);
    e.ensureDisplay(17);
    expect([e.display.length, e.display[0], e.scales[1], e.alphas[0], e.textures[0]]).toEqual([32, 3, 2, 0.5, 4]);
    e.ensureDisplay(70);
    expect([e.display.length, e.scales.length]).toEqual([70, 140]);
  });

  it('new buffers start empty, with no flags set', () => {
    const h = new FrameHeader();
    expect([h.truncated, h.hasCamera, h.fieldsOverBudget, h.frame, h.camera.length]).toEqual([
      false,
      false,
      false,
      0,
      8,
    ]);
    const e = new EntityBuffer();
    expect([e.hasDisplay, e.count, e.boneTotal]).toEqual([false, 0, 0]);
  });

  it('PrimitiveBuffer and EventBuffer grow keeping their content; text() reads long texts whole', () => {
    const p = new PrimitiveBuffer(1);
    expect(p.types.length).toBe(16);
    p.ensure(16); // `n <= length` → `<` / `false`: no growth at the capacity
    expect(p.types.length).toBe(16);
    p.types[0] = 4;
    p.channels[0] = 3;
    p.colors[0] = 0xabc;
    p.data[6] = 2;
    p.textStart[0] = 1;
    p.textLength[0] = 2;
    p.ensure(17);
    expect([p.types.length, p.data.length, p.types[0], p.channels[0], p.colors[0], p.data[6]]).toEqual([
      32, 224, 4, 3, 0xabc, 2,
    ]);
    expect([p.textStart[0], p.textLength[0], p.textStart.length, p.textLength.length]).toEqual([1, 2, 32, 32]);
    p.ensure(100);
    expect(p.colors.length).toBe(100);
    p.ensureTextBytes(1);
    expect(p.textBytes.length).toBe(256);
    p.textBytes[0] = 65;
    p.ensureTextBytes(256);
    expect(p.textBytes.length).toBe(256);
    p.ensureTextBytes(257);
    expect([p.textBytes.length, p.textBytes[0]]).toEqual([512, 65]);
    const long = 10_000;
    p.ensureTextBytes(long + 3);
    expect(p.textBytes.length).toBe(long + 3);
    for (let i = 0; i < long; i++) p.textBytes[3 + i] = 97 + (i % 26);
    p.textStart[1] = 3;
    p.textLength[1] = long;
    const expected = Array.from({ length: long }, (_, i) => String.fromCharCode(97 + (i % 26))).join('');
    expect(p.text(1)).toBe(expected);
    p.textStart[2] = 3;
    p.textLength[2] = 4096;
    expect(p.text(2)).toBe(expected.slice(0, 4096));
    p.textLength[2] = 4097;
    expect(p.text(2)).toBe(expected.slice(0, 4097));
    p.textLength[2] = 0;
    expect(p.text(2)).toBe('');

    const ev = new EventBuffer();
    ev.ensure(1);
    expect([ev.kinds.length, ev.subjects.length, ev.data.length]).toEqual([16, 16, 64]);
    ev.kinds[0] = 7;
    ev.subjects[0] = 8;
    ev.data[3] = 9;
    ev.ensure(16);
    expect(ev.kinds.length).toBe(16);
    ev.ensure(17);
    expect([ev.kinds.length, ev.kinds[0], ev.subjects[0], ev.data[3], ev.data.length]).toEqual([32, 7, 8, 9, 128]);
    ev.ensure(33);
    expect(ev.subjects.length).toBe(64);
  });

  it('growTyped copies the old elements to the start of the new array', () => {
    const next = growTyped(new Int32Array([1, -2, 3]), new Int32Array(5));
    expect([...next]).toEqual([1, -2, 3, 0, 0]);
  });
});
