import { describe, expect, it } from 'vitest';
import {
  BONE_INDEX_BITS,
  EVENT_WORDS,
  FRAME_HAS_CAMERA,
  HEADER_WORDS,
  H_BONE_WORDS,
  H_CAM_ROT,
  H_CAM_X,
  H_CAM_Y,
  H_CAM_ZOOM,
  H_DT,
  H_ENTITY_COUNT,
  H_EVENT_COUNT,
  H_FLAGS,
  H_FRAME,
  H_OVER_BUDGET,
  H_PRIM_COUNT,
  H_PRIM_WORDS,
  H_TIME,
  H_TOTAL_WORDS,
  PRIM_ARROW,
  PRIM_TEXT,
} from '../../core/format/layout';
import { Recorder } from '../../core/record/Recorder';
import { checkFrame, checkPrimitives, rowOfSorted } from '../checkFrames';
import type { FrameCheckContext } from '../checkFrames';
import { ReplayError } from '../ReplayError';

/**
 * `checkFrame` on one real frame (entities, bones, every primitive type, a text, events, a camera),
 * then with one thing wrong at a time: each must be refused with its code, the path naming the
 * section (and the index inside it) and a message saying what is wrong.
 */

const rec = new Recorder({ onWarning: () => undefined });
const HIT = rec.eventKind('hit');
rec.eventKind('end');
for (let f = 0; f < 3; f++) {
  rec.beginFrame(f * 0.5, 0.5);
  rec.camera(1, 2, 3, 0, 0, 0, 1, 2);
  for (let id = 0; id < 4; id++) {
    rec.entity(id, id + f, 2 * id, 3, 0, 0, 0, 1);
    if (id === 1 || id === 3) rec.bones(id, 2, [0, 0, 0, 1, 0, 0.6, 0, 0.8], [1, 2, 3, 4, 5, 6]);
  }
  rec.draw.point(0, 1, 2, 3, 4, 0xff);
  rec.draw.arrow(1, 0, 0, 0, 1, 1, 1, 0.5, 0xff);
  rec.draw.text(2, 5, 5, 5, 'hello', 0xffffff);
  rec.draw.sphere(0, 1, 1, 1, 3, 0xff);
  rec.event(HIT, 1, 1, 2, 3, 4);
  rec.event('end', -1, 0, 0, 0);
  rec.endFrame();
}
const FRAME = 2;
const at0 = rec.ring.offsetOf(FRAME);
const WORDS = rec.ring.u32[at0 + H_TOTAL_WORDS];
const original = Uint32Array.from(rec.ring.u32.subarray(at0, at0 + WORDS));
const N = original[H_ENTITY_COUNT];
const BONE_WORDS = original[H_BONE_WORDS];
const P_BASE = HEADER_WORDS + N;
const B_BASE = P_BASE + N * 4;
const PRIM_BASE = B_BASE + BONE_WORDS;
const E_BASE = PRIM_BASE + original[H_PRIM_WORDS];

function context(over: Partial<FrameCheckContext> = {}): FrameCheckContext {
  const t = rec.entities;
  const handles: number[] = [];
  for (let h = 0; h < t.highWater; h++) if (t.used[h] === 1) handles.push(h);
  const rowOf = new Int32Array(t.highWater).fill(-1);
  handles.forEach((h, i) => {
    rowOf[h] = i;
  });
  return {
    handles: Int32Array.from(handles),
    rowOfHandle: rowOf,
    spawn: Int32Array.from(handles, (h) => t.spawnFrames[h]),
    last: Int32Array.from(handles, (h) => t.lastFrame(h)),
    stamp: new Int32Array(handles.length).fill(-1),
    previousTime: Number.NEGATIVE_INFINITY,
    channelCount: rec.channels.count,
    eventKindCount: rec.eventKinds.length,
    maxEntitiesPerFrame: 100,
    fieldSchemas: null,
    fieldStamp: new Int32Array(0),
    work: null,
    ...over,
  };
}

/** Checks the frame after `edit` (at word 6 of a larger buffer, as in a ring); returns the error or null. */
function check(
  edit: (u: Uint32Array, f: Float32Array, f64: Float64Array) => void,
  ctx = context(),
  words = WORDS,
): ReplayError | null {
  const buf = new ArrayBuffer((WORDS + (WORDS % 2) + 8) * 4);
  const u = new Uint32Array(buf);
  const f = new Float32Array(buf);
  const f64 = new Float64Array(buf);
  const at = 6; // even: the time is a float64
  u.set(original, at);
  const view = {
    u: u.subarray(at),
    f: f.subarray(at),
    f64: f64.subarray(at / 2),
  };
  edit(view.u, view.f, view.f64);
  try {
    checkFrame(u, f, f64, at, words, FRAME, 4, ctx);
    return null;
  } catch (e) {
    if (!(e instanceof ReplayError)) throw e;
    return e;
  }
}

function refused(e: ReplayError | null, path: string, message: RegExp, code = 'CORRUPT'): void {
  expect(e).toBeInstanceOf(ReplayError);
  expect([e!.code, e!.path]).toEqual([code, path]);
  expect(e!.detail).toMatch(message);
}

describe('checkFrame', () => {
  it('accepts the real frame, counting the words, bone records and primitives walked', () => {
    const work = { units: 0 };
    const ctx = context({ work });
    expect(check(() => undefined, ctx)).toBe(null);
    expect(work.units).toBe(WORDS + 2 + 4);
    expect(ctx.previousTime).toBe(1);
    // The same frame checked twice in one file: its handles appear twice.
    refused(
      check(() => undefined, ctx),
      'frames[4].entities[0]',
      /appears twice/,
    );
    // Sparse handles (looked up by binary search) are accepted as well.
    expect(check(() => undefined, context({ rowOfHandle: null }))).toBe(null);
    // 32 channels: every over-budget bit names one.
    expect(
      check(
        (u) => {
          u[H_OVER_BUDGET] = 0xffffffff;
        },
        context({ channelCount: 32 }),
      ),
    ).toBe(null);
  });

  it('refuses a header that does not match the frame', () => {
    refused(
      check(() => undefined, context(), HEADER_WORDS - 1),
      'frames[4]',
      new RegExp(`frame of ${HEADER_WORDS - 1} words is shorter than its ${HEADER_WORDS}-word header`),
    );
    refused(
      check((u) => {
        u[H_FRAME] = 7;
      }),
      'frames[4].frame',
      /holds frame number 7, expected 2/,
    );
    refused(
      check((u) => {
        u[H_TOTAL_WORDS] = WORDS + 1;
      }),
      'frames[4].totalWords',
      new RegExp(`says ${WORDS + 1} words, the frame has ${WORDS}`),
    );
    refused(
      check((u) => {
        u[H_FLAGS] = FRAME_HAS_CAMERA | 4;
      }),
      'frames[4].flags',
      /unknown flag bits 0x6/,
    );
    refused(
      check((_u, _f, f64) => {
        f64[H_TIME >>> 1] = Number.NaN;
      }),
      'frames[4].time',
      /not a finite number/,
    );
    refused(
      check((_u, _f, f64) => {
        f64[H_TIME >>> 1] = Number.POSITIVE_INFINITY;
      }),
      'frames[4].time',
      /not a finite number/,
    );
    refused(
      check(() => undefined, context({ previousTime: 1.5 })),
      'frames[4].time',
      /1 is before the previous frame's 1.5/,
    );
    expect(check(() => undefined, context({ previousTime: 1 }))).toBe(null); // equal times are fine
    refused(
      check((_u, f) => {
        f[H_DT] = Number.NaN;
      }),
      'frames[4].dt',
      /not a finite number/,
    );
    refused(
      check((u) => {
        u[H_OVER_BUDGET] = 1 << rec.channels.count;
      }),
      'frames[4].overBudget',
      /names a channel that does not exist/,
    );
    expect(
      check((u) => {
        u[H_OVER_BUDGET] = (1 << rec.channels.count) - 1;
      }),
    ).toBe(null);
  });

  it('refuses a camera that is not finite, a zoom that is not positive, a rotation that is not unit', () => {
    refused(
      check((_u, f) => {
        f[H_CAM_X] = Number.NaN;
      }),
      'frames[4].camera',
      /position is not finite or zoom is not positive/,
    );
    refused(
      check((_u, f) => {
        f[H_CAM_Y] = Number.POSITIVE_INFINITY;
      }),
      'frames[4].camera',
      /position is not finite/,
    );
    refused(
      check((_u, f) => {
        f[H_CAM_ZOOM] = 0;
      }),
      'frames[4].camera',
      /zoom is not positive/,
    );
    refused(
      check((u) => {
        u[H_CAM_ROT] = 1023;
      }),
      'frames[4].camera',
      /the rotation word is not a unit quaternion/,
    );
  });

  it('refuses section sizes that do not add up, and too many entities', () => {
    refused(
      check((u) => {
        u[H_EVENT_COUNT] += 1;
      }),
      'frames[4]',
      new RegExp(
        `section sizes \\(entities ${N}, bone words ${BONE_WORDS}, primitive words \\d+, events 3, display words 0\\) need ${WORDS + EVENT_WORDS} words, the frame has ${WORDS}`,
      ),
    );
    refused(
      check(() => undefined, context({ maxEntitiesPerFrame: N - 1 })),
      'frames[4].entityCount',
      new RegExp(`${N} entities exceed the limit of ${N - 1}`),
      'TOO_LARGE',
    );
    expect(check(() => undefined, context({ maxEntitiesPerFrame: N }))).toBe(null);
    // Whatever the limit given, a bone record's 20-bit entity index caps a frame at 2^20 entities.
    const huge = context({ maxEntitiesPerFrame: 2 ** 22 });
    refused(
      check((u) => {
        u[H_ENTITY_COUNT] = 2 ** 20 + 1;
      }, huge),
      'frames[4].entityCount',
      /1048577 entities exceed the limit of 1048576/,
      'TOO_LARGE',
    );
    refused(
      check(
        (u) => {
          u[H_ENTITY_COUNT] = 2 ** 20;
        },
        context({ maxEntitiesPerFrame: 2 ** 22 }),
      ),
      'frames[4]',
      /section sizes/,
    );
  });

  it('refuses entities that do not exist, are not alive then, or appear twice; positions and rotations that are not valid', () => {
    const h0 = original[HEADER_WORDS] & 0xffffff;
    for (const rowOfHandle of [undefined, null]) {
      const ctx = (): FrameCheckContext => (rowOfHandle === null ? context({ rowOfHandle: null }) : context());
      refused(
        check((u) => {
          u[HEADER_WORDS + 2] = (u[HEADER_WORDS + 2] & ~0xffffff) | 5000;
        }, ctx()),
        'frames[4].entities[2]',
        /handle 5000 is not in the entity table/,
      );
      const past = rec.entities.highWater; // one past the handle table
      refused(
        check((u) => {
          u[HEADER_WORDS + 2] = (u[HEADER_WORDS + 2] & ~0xffffff) | past;
        }, ctx()),
        'frames[4].entities[2]',
        new RegExp(`handle ${past} is not in the entity table`),
      );
      refused(
        check((u) => {
          u[HEADER_WORDS + 1] = u[HEADER_WORDS];
        }, ctx()),
        'frames[4].entities[1]',
        new RegExp(`handle ${h0} appears twice`),
      );
    }
    const spawned = context();
    spawned.spawn.fill(FRAME + 1);
    refused(
      check(() => undefined, spawned),
      'frames[4].entities[0]',
      new RegExp(`handle ${h0} lives in frames ${FRAME + 1}\\.\\.\\d+, not ${FRAME}`),
    );
    const ended = context();
    ended.last.fill(FRAME - 1);
    refused(
      check(() => undefined, ended),
      'frames[4].entities[0]',
      /lives in frames 0\.\.1, not 2/,
    );
    refused(
      check((_u, f) => {
        f[P_BASE + 2 * 3 + 1] = Number.NaN;
      }),
      'frames[4].positions[2]',
      /not finite/,
    );
    refused(
      check((_u, f) => {
        f[P_BASE + 3 * 3 + 2] = Number.NEGATIVE_INFINITY;
      }),
      'frames[4].positions[3]',
      /not finite/,
    );
    refused(
      check((u) => {
        u[P_BASE + N * 3 + 3] = 1023 << 10;
      }),
      'frames[4].rotations[3]',
      /not a unit quaternion/,
    );
  });

  it('refuses bone records that are empty, name no entity, overrun, or hold bad values', () => {
    const second = B_BASE + 1 + 2 * 4; // the second record
    refused(
      check((u) => {
        u[second] = 1;
      }),
      'frames[4].bones[1]',
      /bone count is 0/,
    );
    refused(
      check((u) => {
        u[B_BASE] = N | (2 << BONE_INDEX_BITS);
      }),
      'frames[4].bones[0]',
      new RegExp(`entity index ${N} is not below the entity count ${N}`),
    );
    refused(
      check((u) => {
        u[second] = 3 | (3 << BONE_INDEX_BITS);
      }),
      'frames[4].bones[1]',
      /3 bones overrun the bone section/,
    );
    refused(
      check((u) => {
        u[second + 2] = 1023;
      }),
      'frames[4].bones[1]',
      /a bone rotation is not a unit quaternion/,
    );
    refused(
      check((_u, f) => {
        f[second + 1 + 2 + 5] = Number.NaN;
      }),
      'frames[4].bones[1]',
      /a bone offset is not finite/,
    );
  });

  it('refuses primitives of unknown types or channels, overrunning, not finite, or miscounted', () => {
    const arrow = PRIM_BASE + 5; // after the point
    refused(
      check((u) => {
        u[PRIM_BASE] = (u[PRIM_BASE] & ~7) | 6;
      }),
      'frames[4].primitives[0]',
      /unknown primitive type 6/,
    );
    refused(
      check((u) => {
        u[arrow] = (u[arrow] & ~(31 << 3)) | (rec.channels.count << 3);
      }),
      'frames[4].primitives[1]',
      new RegExp(`channel ${rec.channels.count} does not exist`),
    );
    refused(
      check((_u, f) => {
        f[arrow + 7] = Number.NaN;
      }),
      'frames[4].primitives[1]',
      /a coordinate is not finite/,
    );
    refused(
      check((u) => {
        u[H_PRIM_COUNT] += 1;
      }),
      'frames[4].primitives',
      /4 records found, the header says 5/,
    );
    expect(original[arrow] & 7).toBe(PRIM_ARROW);
    // Checked on their own: a text whose bytes run past the section, a record past the end.
    const words = Uint32Array.from([PRIM_TEXT, 0, 0, 0, 5, 0x6c6c6568, 0x6f]);
    const floats = new Float32Array(words.buffer);
    expect(checkPrimitives(words, floats, 0, 7, 1, 3, 'p')).toBe(1);
    expect(() => checkPrimitives(words, floats, 0, 6, 1, 3, 'p')).toThrow(
      /text of 5 bytes overruns the primitive section/,
    );
    expect(() => checkPrimitives(words, floats, 0, 4, 1, 3, 'p')).toThrow(/record overruns the primitive section/);
    words[1] = 0x7fc00000; // a NaN anchor
    expect(() => checkPrimitives(words, floats, 0, 7, 1, 3, 'p')).toThrow(/a coordinate is not finite/);
    words[1] = 0;
    words[4] = 4; // the text's bytes are not floats: any bits are fine
    words[5] = 0x7fc00000;
    expect(checkPrimitives(words, floats, 0, 6, 1, 3, 'p')).toBe(1);
  });

  it('refuses events of unknown kinds or with values that are not finite', () => {
    refused(
      check((u) => {
        u[E_BASE + EVENT_WORDS] = 2;
      }),
      'frames[4].events[1]',
      /kind 2 is not among the 2 event kinds/,
    );
    refused(
      check((_u, f) => {
        f[E_BASE + 5] = Number.NaN;
      }),
      'frames[4].events[0]',
      /a value is not finite/,
    );
    refused(
      check((_u, f) => {
        f[E_BASE + EVENT_WORDS + 2] = Number.POSITIVE_INFINITY;
      }),
      'frames[4].events[1]',
      /a value is not finite/,
    );
    // The subject word is not a float: any bits are fine.
    expect(
      check((u) => {
        u[E_BASE + 1] = 0x7fc00000;
      }),
    ).toBe(null);
  });
});

describe('rowOfSorted', () => {
  it('finds every handle of a sorted column and nothing else', () => {
    const handles = Int32Array.from([2, 3, 7, 40, 41, 1000]);
    for (let i = 0; i < handles.length; i++) expect(rowOfSorted(handles, handles[i])).toBe(i);
    for (const h of [0, 1, 4, 39, 42, 999, 1001]) expect(rowOfSorted(handles, h)).toBe(-1);
    expect(rowOfSorted(new Int32Array(0), 0)).toBe(-1);
  });
});
