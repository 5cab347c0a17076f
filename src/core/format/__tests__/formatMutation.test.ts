/**
 * The layout's derived constants and section arithmetic, and the channel scan, over words written
 * here by hand: a frame placed away from word 0, with bones, primitives, events and display words,
 * texts of every length modulo 4, a corrupt type and a truncated frame. Comments name the mutants
 * (Stryker's notation) a case kills.
 */
import { describe, expect, it } from 'vitest';
import { frameChannelMask, primitiveChannelMask } from '../channelMask';
import {
  BONE_INDEX_MASK,
  DISPLAY_INDEX_MASK,
  EVENT_WORDS,
  FRAME_HAS_CAMERA,
  FRAME_TRUNCATED,
  HANDLE_MASK,
  HEADER_WORDS,
  H_BONE_WORDS,
  H_DISPLAY_WORDS,
  H_ENTITY_COUNT,
  H_EVENT_COUNT,
  H_FLAGS,
  H_OVER_BUDGET,
  H_PRIM_WORDS,
  MAX_BONES,
  PRIM_LINE,
  PRIM_POINT,
  PRIM_TEXT,
  fieldSectionAt,
  textRecordWords,
} from '../layout';

const head = (type: number, channel: number) => (type | (channel << 3) | (0xabcdef << 8)) >>> 0;
const point = (channel: number) => [head(PRIM_POINT, channel), 0, 0, 0, 1];
const line = (channel: number) => [head(PRIM_LINE, channel), 0, 0, 0, 1, 1, 1];
const text = (channel: number, len: number) => [
  head(PRIM_TEXT, channel),
  0,
  0,
  0,
  len,
  ...new Array(Math.ceil(len / 4)).fill(0x41414141),
];

describe('layout constants and arithmetic', () => {
  it('the masks and limits derived from bit counts', () => {
    // `(1 << n) - 1` → `+ 1` for each.
    expect(HANDLE_MASK).toBe(0xffffff);
    expect(BONE_INDEX_MASK).toBe(0xfffff);
    expect(DISPLAY_INDEX_MASK).toBe(0xfffff);
    expect(MAX_BONES).toBe(4095);
  });

  it('textRecordWords: 5 words and the bytes rounded up to words', () => {
    expect([0, 1, 3, 4, 5, 8, 9].map(textRecordWords)).toEqual([5, 6, 6, 6, 7, 7, 8]);
  });

  it('fieldSectionAt is after every other section of a frame, wherever the frame starts', () => {
    const u = new Uint32Array(200);
    const at = 30;
    u[at + H_ENTITY_COUNT] = 3;
    u[at + H_BONE_WORDS] = 7;
    u[at + H_PRIM_WORDS] = 11;
    u[at + H_EVENT_COUNT] = 2;
    u[at + H_DISPLAY_WORDS] = 8;
    expect(fieldSectionAt(u, at)).toBe(at + HEADER_WORDS + 3 * 5 + 7 + 11 + 2 * EVENT_WORDS + 8);
    expect(fieldSectionAt(new Uint32Array(HEADER_WORDS), 0)).toBe(HEADER_WORDS);
  });
});

describe('primitiveChannelMask', () => {
  it('collects the channel of every record, texts of each length modulo 4 included', () => {
    // `(u[w + 4] + 3) >>> 2` → `- 3`: a text of 5 bytes would end a word early and misread the next.
    for (const len of [0, 1, 2, 3, 4, 5, 6, 7, 9]) {
      const u = new Uint32Array([...text(2, len), ...line(9), ...point(31)]);
      expect(primitiveChannelMask(u, 0, u.length) >>> 0).toBe(((1 << 2) | (1 << 9) | (1 << 31)) >>> 0);
    }
  });

  it('stops at a record of an unknown type', () => {
    // `type >= PRIM_TYPE_COUNT` → `>` / `false`: type 6 or 7 would be read as a record.
    for (const bad of [6, 7]) {
      const u = new Uint32Array([...point(1), head(bad, 4), ...point(5)]);
      expect(primitiveChannelMask(u, 0, u.length)).toBe(1 << 1);
    }
  });

  it('reads only [start, end)', () => {
    const u = new Uint32Array([...point(3), ...line(4), ...point(6)]);
    expect(primitiveChannelMask(u, 5, 12)).toBe(1 << 4);
    expect(primitiveChannelMask(u, 5, 5)).toBe(0);
  });
});

describe('frameChannelMask', () => {
  /** A frame at word `at`: 2 entities, 3 bone words, the given primitives, 1 event. */
  function frame(at: number, prims: number[], overBudget: number, flags: number): Uint32Array {
    const u = new Uint32Array(at + HEADER_WORDS + 10 + 3 + prims.length + EVENT_WORDS + 4);
    u[at + H_ENTITY_COUNT] = 2;
    u[at + H_BONE_WORDS] = 3;
    u[at + H_PRIM_WORDS] = prims.length;
    u[at + H_EVENT_COUNT] = 1;
    u[at + H_OVER_BUDGET] = overBudget;
    u[at + H_FLAGS] = flags;
    const start = at + HEADER_WORDS + 10 + 3;
    // Words before the section that would read as records of channel 30 (positions, bones).
    u.fill(head(PRIM_POINT, 30), at + HEADER_WORDS, start);
    u.set(prims, start);
    u.fill(head(PRIM_POINT, 29), start + prims.length);
    return u;
  }

  it('is the over-budget bits and the channels drawn on, for a frame anywhere in the arena', () => {
    // `at + HEADER_WORDS + ... + u[at + H_BONE_WORDS]` with any `+` → `-`, `at + H_FLAGS` → `at - H_FLAGS`.
    const prims = [...line(1), ...text(3, 5), ...point(8)];
    for (const at of [0, 24]) {
      expect(frameChannelMask(frame(at, prims, 1 << 12, FRAME_HAS_CAMERA), at)).toBe(
        (1 << 1) | (1 << 3) | (1 << 8) | (1 << 12),
      );
    }
  });

  it('a truncated frame or one without primitives gives the over-budget bits only', () => {
    // `primWords > 0 && (flags & FRAME_TRUNCATED) === 0` → `||` / `true`.
    const prims = [...line(1), ...point(8)];
    expect(frameChannelMask(frame(24, prims, 1 << 5, FRAME_TRUNCATED), 24)).toBe(1 << 5);
    expect(frameChannelMask(frame(24, prims, 0, FRAME_TRUNCATED | FRAME_HAS_CAMERA), 24)).toBe(0);
    expect(frameChannelMask(frame(24, [], 1 << 5, 0), 24)).toBe(1 << 5);
  });
});
