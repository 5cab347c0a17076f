import { describe, expect, it } from 'vitest';
import {
  EVENT_WORDS,
  FRAME_HAS_CAMERA,
  FRAME_TRUNCATED,
  H_CAM_ROT,
  H_CAM_X,
  H_CAM_Y,
  H_CAM_Z,
  H_CAM_ZOOM,
  H_DT,
  H_FLAGS,
  H_TIME,
  NO_SUBJECT,
} from '../../format/layout';
import { QUAT_IDENTITY_BITS, encodeQuat, quatStatus } from '../../math/quat';
import { FrameRing } from '../../store/FrameRing';
import { MAX_KINDS } from '../../validate/rules';
import { WarnOnce } from '../../validate/WarnOnce';
import { EventLog } from '../EventLog';
import { FrameHeader } from '../FrameHeader';
import { FrameRepairs } from '../FrameRepairs';
import { DEFAULT_RECORDER_OPTIONS, arenaBytesFor, validateRecorderOptions } from '../RecorderOptions';
import { RecorderStats } from '../RecorderStats';

/**
 * The small record stages called directly (issue 20, fifth pass): FrameHeader (time, dt, flags and
 * camera words with their repairs), FrameRepairs (counts, warnings, the repaired values), EventLog
 * (kinds, staging, the drop rules, the copy), RecorderOptions (each numeric option at its bounds,
 * the messages, `arenaBytesFor`) and RecorderStats.reset. Each case names the mutants it kills.
 */

interface Bench {
  ring: FrameRing;
  stats: RecorderStats;
  warnings: string[];
  repairs: FrameRepairs;
  header: FrameHeader;
}

function bench(): Bench {
  const ring = new FrameRing(4096, 4);
  const stats = new RecorderStats();
  const warnings: string[] = [];
  const repairs = new FrameRepairs(stats, new WarnOnce((m) => warnings.push(m)));
  return { ring, stats, warnings, repairs, header: new FrameHeader() };
}

/** Fills the header words of the frame at `at` with stale bits, as an arena reused by the ring holds. */
function stale(ring: FrameRing, at: number): void {
  for (let i = 0; i < 24; i++) ring.u32[at + i] = 0x7fc00001 + i;
}

function time(b: Bench, at: number): number {
  return b.ring.f64[(at + H_TIME) >>> 1];
}

describe('FrameHeader.write: time and dt', () => {
  // Kills: timeOk's `time - time === 0` (→ true, !==, +), `!(time < lastTime)` (→ <=, true, false),
  // the stored time's choice (lastTime finite → 0), `this.lastTime = storedTime` removed, the dt
  // repair's condition and FrameRepairs.time's dt rule.
  it('stores finite, non-decreasing times; repairs the others from the previous time, or 0', () => {
    const b = bench();
    const h = b.header;
    const at = 2;
    const cases: Array<[number, number, number, number, boolean]> = [
      // time, dt, stored time, stored dt, repaired
      [Number.NaN, 0.5, 0, 0.5, true], // before any frame: 0
      [1.5, 0.25, 1.5, 0.25, false],
      [1.5, 0.25, 1.5, 0.25, false], // the same time again is fine
      [1.25, 0.25, 1.5, 0.25, true], // went back: the previous one
      [Number.POSITIVE_INFINITY, 0.25, 1.5, 0.25, true],
      [Number.NEGATIVE_INFINITY, 0.25, 1.5, 0.25, true],
      [2, Number.NaN, 2, 0, true], // dt alone repaired, the time kept
      [3, 1e40, 3, 0, true], // dt beyond float32: Infinity once stored
      [4, -0.5, 4, -0.5, false], // a negative dt is a finite float32
    ];
    let frame = 0;
    let repairs = 0;
    for (const [t, dt, storedT, storedDt, repaired] of cases) {
      stale(b.ring, at);
      h.time = t;
      h.dt = dt;
      h.write(b.ring, at, frame, false, b.repairs);
      expect(time(b, at), `frame ${frame}`).toBe(storedT);
      expect(b.ring.f32[at + H_DT], `frame ${frame}`).toBe(storedDt);
      if (repaired) repairs++;
      expect(b.stats.invalidTimes, `frame ${frame}`).toBe(repairs);
      expect(b.repairs.count, `frame ${frame}`).toBe(repairs);
      frame++;
    }
    // One warning, naming the first repaired frame (FrameRepairs.time's message and its WarnOnce key).
    expect(b.warnings).toEqual([
      "rewindable: frame 0: the time was not finite or went back (the previous frame's was stored), or dt was not a finite float32 (0 was stored)",
    ]);
  });

  // Kills: the time stored after a repair must become the next frame's floor (`this.lastTime =
  // storedTime`), and `clear` forgetting it (`lastTime = NaN` removed).
  it('after a repaired first frame the floor is 0; clear() forgets the floor', () => {
    const b = bench();
    const h = b.header;
    h.time = Number.NaN;
    h.write(b.ring, 0, 0, false, b.repairs);
    h.time = -1; // below the stored 0: went back
    h.write(b.ring, 0, 1, false, b.repairs);
    expect(time(b, 0)).toBe(0);
    expect(b.stats.invalidTimes).toBe(2);
    h.time = 5;
    h.write(b.ring, 0, 2, false, b.repairs);
    h.clear();
    h.time = 1; // earlier than 5, but the ring was cleared
    h.write(b.ring, 0, 3, false, b.repairs);
    expect(time(b, 0)).toBe(1);
    expect(b.stats.invalidTimes).toBe(2);
    h.clear();
    h.time = Number.NaN; // no floor again: 0, not 1
    h.write(b.ring, 0, 4, false, b.repairs);
    expect(time(b, 0)).toBe(0);
  });
});

describe('FrameHeader.write: flags and camera', () => {
  // Kills: the flags' conditionals and bits (`truncated ? FRAME_TRUNCATED : 0`, `|` → `&`), the
  // no-camera block emptied or any of its five words left stale.
  it('writes the truncated and camera flags, and a neutral camera over stale words', () => {
    const b = bench();
    const h = b.header;
    const combos: Array<[boolean, boolean, number]> = [
      [false, false, 0],
      [true, false, FRAME_TRUNCATED],
      [false, true, FRAME_HAS_CAMERA],
      [true, true, FRAME_TRUNCATED | FRAME_HAS_CAMERA],
    ];
    h.cam.set([1, 2, 3, 0, 0, 0, 1, 2]);
    for (const [truncated, hasCamera, flags] of combos) {
      stale(b.ring, 6);
      h.time = 1;
      h.hasCamera = hasCamera;
      h.write(b.ring, 6, 0, truncated, b.repairs);
      expect(b.ring.u32[6 + H_FLAGS]).toBe(flags);
      const f = b.ring.f32;
      if (hasCamera) {
        expect([f[6 + H_CAM_X], f[6 + H_CAM_Y], f[6 + H_CAM_Z], f[6 + H_CAM_ZOOM]]).toEqual([1, 2, 3, 2]);
      } else {
        expect([f[6 + H_CAM_X], f[6 + H_CAM_Y], f[6 + H_CAM_Z], f[6 + H_CAM_ZOOM]]).toEqual([0, 0, 0, 1]);
      }
      expect(b.ring.u32[6 + H_CAM_ROT]).toBe(QUAT_IDENTITY_BITS >>> 0);
    }
    expect(b.stats.invalidCameras).toBe(0);
  });

  // Kills: each term of the camera's validity test (`quatStatus.sanitized ||`, `!(zoom > 0)` → `>=`,
  // the x, y, z and zoom finiteness sums, `+` → `-`), FrameRepairs.camera's loop bounds (`<=` → `<`,
  // the start), its zoom rule, and `quatStatus.sanitized` left set after the repair.
  it('repairs each invalid camera value alone and keeps the valid ones', () => {
    const cases: Array<[string, number[], number[], boolean]> = [
      // name, x y z qx qy qz qw zoom, stored x y z zoom, rotation repaired
      ['valid', [1, -2, 3, 0, 0, 0.6, 0.8, 0.5], [1, -2, 3, 0.5], false],
      ['x NaN', [Number.NaN, -2, 3, 0, 0, 0.6, 0.8, 0.5], [0, -2, 3, 0.5], false],
      ['y +Inf', [1, Number.POSITIVE_INFINITY, 3, 0, 0, 0.6, 0.8, 0.5], [1, 0, 3, 0.5], false],
      ['z beyond float32', [1, -2, -1e39, 0, 0, 0.6, 0.8, 0.5], [1, -2, 0, 0.5], false],
      ['zoom 0', [1, -2, 3, 0, 0, 0.6, 0.8, 0], [1, -2, 3, 1], false],
      ['zoom negative', [1, -2, 3, 0, 0, 0.6, 0.8, -2], [1, -2, 3, 1], false],
      ['zoom NaN', [1, -2, 3, 0, 0, 0.6, 0.8, Number.NaN], [1, -2, 3, 1], false],
      ['zoom +Inf', [1, -2, 3, 0, 0, 0.6, 0.8, Number.POSITIVE_INFINITY], [1, -2, 3, 1], false],
      ['zoom beyond float32', [1, -2, 3, 0, 0, 0.6, 0.8, 1e39], [1, -2, 3, 1], false],
      ['tiny zoom', [1, -2, 3, 0, 0, 0.6, 0.8, 1e-30], [1, -2, 3, Math.fround(1e-30)], false],
      ['zero rotation', [1, -2, 3, 0, 0, 0, 0, 0.5], [1, -2, 3, 0.5], true],
      ['NaN rotation', [1, -2, 3, Number.NaN, 0, 0, 1, 0.5], [1, -2, 3, 0.5], true],
    ];
    for (const [name, cam, stored, rotationRepaired] of cases) {
      const b = bench();
      const h = b.header;
      h.time = 1;
      h.hasCamera = true;
      h.cam.set(cam);
      stale(b.ring, 4);
      h.write(b.ring, 4, 7, false, b.repairs);
      const f = b.ring.f32;
      expect([f[4 + H_CAM_X], f[4 + H_CAM_Y], f[4 + H_CAM_Z], f[4 + H_CAM_ZOOM]], name).toEqual(stored);
      const bits = rotationRepaired ? QUAT_IDENTITY_BITS : encodeQuat(cam[3], cam[4], cam[5], cam[6]);
      expect(b.ring.u32[4 + H_CAM_ROT], name).toBe(bits >>> 0);
      const repaired = name === 'valid' || name === 'tiny zoom' ? 0 : 1;
      expect(b.stats.invalidCameras, name).toBe(repaired);
      expect(b.repairs.count, name).toBe(repaired);
      expect(quatStatus.sanitized, name).toBe(false);
      // The words around the camera are the header's own (time at H_TIME, flags), not overwritten.
      expect(b.ring.u32[4 + H_FLAGS], name).toBe(FRAME_HAS_CAMERA);
      expect(b.ring.u32[4 + H_CAM_ZOOM + 1], name).toBe(0x7fc00001 + H_CAM_ZOOM + 1);
      expect(b.warnings, name).toEqual(
        repaired === 0
          ? []
          : [
              'rewindable: the camera had a non-finite position, a rotation that cannot be encoded, or a zoom that is not a positive finite float32; 0, the identity and 1 were stored instead',
            ],
      );
    }
  });
});

describe('FrameRepairs', () => {
  // Kills: each method's counter (`++` → `--`), `count++` removed, `committed` emptied, each
  // warning's `!has(...)` → `false` and its message emptied.
  it('counts each repair in its counter and in the frame, warns once per kind, forgets at commit', () => {
    const stats = new RecorderStats();
    const warnings: string[] = [];
    const r = new FrameRepairs(stats, new WarnOnce((m) => warnings.push(m)));
    r.flags();
    r.flags();
    r.bones(17);
    r.bones(18);
    const f = new Float32Array([
      Number.NaN,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      -2,
      Number.NEGATIVE_INFINITY,
      Number.NaN,
    ]);
    r.event(f, 1, 5); // repairs [1, 5) only: `i < to` → `<=` would zero the NaN at 5
    r.event(new Float32Array(4), 0, 4);
    expect(Array.from(f)).toEqual([Number.NaN, 0, 0, -2, 0, Number.NaN]);
    const t = new Float32Array(30);
    t[3 + H_DT] = Number.NaN;
    r.time(t, 3, 12);
    expect(t[3 + H_DT]).toBe(0);
    t[3 + H_DT] = 0.5;
    r.time(t, 3, 13); // the time was repaired, not dt: dt kept
    expect(t[3 + H_DT]).toBe(0.5);
    expect([stats.invalidFlags, stats.invalidBones, stats.invalidEvents, stats.invalidTimes]).toEqual([2, 2, 2, 2]);
    expect(r.count).toBe(8);
    expect(warnings).toEqual([
      "rewindable: entity flags must be an integer in [0, 127] (bit 7 is the recorder's SANITIZED); the low 7 bits of an integer in [0, 255] were kept, anything else stored as 0",
      'rewindable: bones of entity 17 had a rotation that cannot be encoded (stored as the identity) or a non-finite offset (stored as 0)',
      'rewindable: an event had a non-finite position or value (or one beyond float32 range); 0 was stored',
      "rewindable: frame 12: the time was not finite or went back (the previous frame's was stored), or dt was not a finite float32 (0 was stored)",
    ]);
    r.committed();
    expect(r.count).toBe(0);
    r.flags();
    expect(r.count).toBe(1);
  });

  // Kills: camera()'s `if (quatStatus.sanitized)` block emptied (the flag stays set), the zoom test's
  // `&&` → `||` (a finite zoom ≤ 0 kept, an infinite one kept).
  it('camera(): position words past z and the rotation word are left alone; the status is cleared', () => {
    const stats = new RecorderStats();
    const r = new FrameRepairs(stats, new WarnOnce(() => {}));
    const f = new Float32Array(40);
    const u = new Uint32Array(f.buffer);
    f[H_CAM_X] = Number.NaN;
    f[H_CAM_Y] = 4;
    f[H_CAM_Z] = Number.NaN;
    u[H_CAM_ROT] = 0xffc00000; // a NaN pattern in the rotation word: not a position, not touched
    f[H_CAM_ZOOM] = -0;
    f[H_CAM_X - 1] = Number.NaN; // the word before x
    quatStatus.sanitized = true;
    r.camera(f, 0);
    expect([f[H_CAM_X], f[H_CAM_Y], f[H_CAM_Z], f[H_CAM_ZOOM]]).toEqual([0, 4, 0, 1]);
    expect(u[H_CAM_ROT]).toBe(0xffc00000);
    expect(f[H_CAM_X - 1]).toBeNaN();
    expect(quatStatus.sanitized).toBe(false);
    f[H_CAM_ZOOM] = Number.POSITIVE_INFINITY;
    r.camera(f, 0);
    expect(f[H_CAM_ZOOM]).toBe(1);
    f[H_CAM_ZOOM] = 3;
    r.camera(f, 0);
    expect(f[H_CAM_ZOOM]).toBe(3);
    expect(stats.invalidCameras).toBe(3);
  });
});

function eventLog(max: number) {
  const stats = new RecorderStats();
  const warnings: string[] = [];
  const warnOnce = new WarnOnce((m) => warnings.push(m));
  const repairs = new FrameRepairs(stats, warnOnce);
  const repaired: unknown[] = [];
  const log = new EventLog(max, stats, warnOnce, repairs, (name) => {
    repaired.push(name);
    return typeof name === 'string' ? name.replace(/[\ud800-\udfff]/g, '\ufffd') : String(name);
  });
  return { log, stats, warnings, repairs, repaired };
}

/** The staged events, as [kind, subject, x, y, z, value]. */
function staged(log: EventLog): number[][] {
  const out = new Uint32Array(log.count * EVENT_WORDS + 2).fill(0xdead);
  const end = log.write(out, 1);
  expect(end).toBe(1 + log.count * EVENT_WORDS);
  expect(out[0]).toBe(0xdead);
  expect(out[end]).toBe(0xdead);
  const f = new Float32Array(out.buffer);
  const rows: number[][] = [];
  for (let e = 0; e < log.count; e++) {
    const a = 1 + e * EVENT_WORDS;
    rows.push([out[a], out[a + 1], f[a + 2], f[a + 3], f[a + 4], f[a + 5]]);
  }
  return rows;
}

describe('EventLog', () => {
  // Kills: kind()'s cache (`k !== undefined` → true/false), its refusals (bad name, MAX_KINDS with
  // `>=` → `>`), the messages, addKind's index.
  it('kind(): interns names, refuses bad ones with a clear message', () => {
    const { log } = eventLog(4);
    expect(log.kind('hit')).toBe(0);
    expect(log.kind('heal')).toBe(1);
    expect(log.kind('hit')).toBe(0);
    expect(log.kinds).toEqual(['hit', 'heal']);
    expect(() => log.kind('\ud800')).toThrow('rewindable: an event kind name contains a lone surrogate');
    expect(() => log.kind(3 as unknown as string)).toThrow('rewindable: an event kind name is not a string (number)');
    expect(log.kinds).toEqual(['hit', 'heal']);
  });

  it('kind(): the 65,536th kind is the last; add() by name then drops', () => {
    const { log, stats, warnings } = eventLog(4);
    for (let i = 0; i < MAX_KINDS; i++) log.kinds.push(`k${i}`);
    expect(() => log.kind('one more')).toThrow(`rewindable: ${MAX_KINDS} event kinds exist`);
    // add() with a new name past the cap: kindOf gives -1, dropped and counted.
    log.add('another', 1, 0, 0, 0, 0);
    expect(log.count).toBe(0);
    expect(stats.eventsDropped).toBe(1);
    expect(warnings).toEqual([
      `rewindable: event dropped (unknown kind another, over maxEventsPerFrame, or ${MAX_KINDS} event kinds exist)`,
    ]);
    // At one below the cap a new name is registered: `<` → `<=` in kindOf would accept past it.
    const second = eventLog(4);
    for (let i = 0; i < MAX_KINDS - 1; i++) second.log.kinds.push(`k${i}`);
    second.log.add('last', 1, 0, 0, 0, 0);
    expect(second.log.count).toBe(1);
    expect(second.log.kinds.length).toBe(MAX_KINDS);
    expect(staged(second.log)[0][0]).toBe(MAX_KINDS - 1);
  });

  // Kills: add()'s kind checks (`k >= 0` → `>`, `k < kinds.length` → `<=`, the integer test), the
  // capacity test (`>=` → `>`), the subject rule (`>= 0` → `>`, the integer test, NO_SUBJECT), the
  // values' repair condition and range, `count++` removed, write()'s loop (`<` → `<=`) and its return.
  it('add(): stages events with their subject and values, drops unknown kinds and past capacity', () => {
    const { log, stats, warnings, repairs, repaired } = eventLog(5);
    const hit = log.kind('hit');
    const heal = log.kind('heal');
    log.add(hit, 0, 1, 2, 3, 4); // subject 0 kept
    log.add('heal', -1, -1, 0.5, 0, 0); // by name; subject -1: none
    log.add(heal, 2.5, 0, 0, 0, 0); // a fractional subject: none
    log.add('new kind', 2 ** 31, Number.NaN, 1, Number.POSITIVE_INFINITY, 1e39); // registered; subject past int32: none
    // Unknown kinds, dropped while there is room (3 is one past the last kind).
    for (const bad of [-1, 3, 0.5, Number.NaN]) log.add(bad, 1, 0, 0, 0, 0);
    log.add(2, 7, 0, 0, 0, 0); // kind 2 exists: the fifth event fills the log
    log.add(hit, 9, 0, 0, 0, 0); // a sixth event: over capacity
    expect(repaired).toEqual([]); // valid names never go through the repair
    expect(staged(log)).toEqual([
      [0, 0, 1, 2, 3, 4],
      [1, NO_SUBJECT, -1, 0.5, 0, 0],
      [1, NO_SUBJECT, 0, 0, 0, 0],
      [2, NO_SUBJECT, 0, 1, 0, 0],
      [2, 7, 0, 0, 0, 0],
    ]);
    expect(log.kinds).toEqual(['hit', 'heal', 'new kind']);
    expect(stats.eventsDropped).toBe(5);
    expect(stats.invalidEvents).toBe(1);
    expect(repairs.count).toBe(1);
    expect(warnings).toEqual([
      'rewindable: an event had a non-finite position or value (or one beyond float32 range); 0 was stored',
      `rewindable: event dropped (unknown kind -1, over maxEventsPerFrame, or ${MAX_KINDS} event kinds exist)`,
    ]);
    log.committed();
    expect(log.count).toBe(0);
    expect(staged(log)).toEqual([]);
    log.add(hit, 3, 0, 0, 0, 0);
    expect(staged(log)).toEqual([[0, 3, 0, 0, 0, 0]]);
  });

  // Kills: kindOf's name check (`typeof kind === 'string' && ...` → true/false, `&&` → `||`): a bad
  // name goes through repairName once, a good one never; the repaired name is interned.
  // Kills also kindOf's `k !== undefined` → false: the same bad name again finds its repaired kind.
  it('add() by a bad name repairs it through repairName and interns the repaired name', () => {
    const { log, repaired } = eventLog(5);
    log.add('ok', 1, 0, 0, 0, 0);
    log.add('bad\ud800', 1, 0, 0, 0, 0);
    log.add(null as unknown as string, 1, 0, 0, 0, 0);
    log.add('bad\ud800', 1, 0, 0, 0, 0);
    expect(repaired).toEqual(['bad\ud800', null, 'bad\ud800']);
    expect(log.kinds).toEqual(['ok', 'bad\ufffd', 'null']);
    expect(staged(log).map((e) => e[0])).toEqual([0, 1, 2, 1]);
  });

  it('a log of capacity 0 drops every event', () => {
    const { log, stats } = eventLog(0);
    log.add(log.kind('a'), 1, 0, 0, 0, 0);
    expect(log.count).toBe(0);
    expect(stats.eventsDropped).toBe(1);
  });
});

describe('RecorderOptions', () => {
  const rules: Array<[string, number, number, boolean]> = [
    ['maxFrames', 1, 1 << 20, false],
    ['arenaBytes', 1024, 1 << 30, false],
    ['maxEntitiesPerFrame', 1, 1 << 20, false],
    ['maxEntityId', 1, 1 << 30, false],
    ['primitiveBudget', 0, 1 << 20, false],
    ['textBudgetBytes', 0, 1 << 24, false],
    ['paragraphRadius', 0, Number.MAX_VALUE, true],
    ['maxParagraphs', 1, 1 << 16, false],
    ['maxBoneWordsPerFrame', 0, 1 << 24, false],
    ['maxEventsPerFrame', 0, 1 << 20, false],
    ['fieldBudgetBytes', 0, 1 << 26, false],
  ];

  // Kills: every bound of NUMERIC_RULES (each number and each key), the real/integer branch
  // (`real === true` → true/false), `v >= min` → `>`, `v <= max` → `<`, the message's parts.
  it.each(rules)('%s accepts [%d, %d] and refuses just outside, naming the option', (key, min, max, real) => {
    const ok = (v: unknown) => () => validateRecorderOptions({ ...DEFAULT_RECORDER_OPTIONS, [key]: v });
    expect(ok(min)).not.toThrow();
    expect(ok(max)).not.toThrow();
    const kind = real ? 'a number' : 'an integer';
    const below = real ? -Number.MIN_VALUE : min - 1;
    expect(ok(below)).toThrow(new RangeError(`rewindable: ${key} must be ${kind} in [${min}, ${max}] (got ${below})`));
    const above = real ? Number.POSITIVE_INFINITY : max + 1;
    expect(ok(above)).toThrow(new RangeError(`rewindable: ${key} must be ${kind} in [${min}, ${max}] (got ${above})`));
    expect(ok(String(min))).toThrow(`rewindable: ${key} must be`);
    expect(ok(Number.NaN)).toThrow(`rewindable: ${key} must be`);
    if (real) expect(ok(0.5)).not.toThrow();
    else expect(ok(min + 0.5)).toThrow(`rewindable: ${key} must be an integer`);
  });

  // Kills: the booleans' loop (each key, `!==` → `===`), onWarning's check and the messages.
  it('refuses non-boolean recordBones and wasm, and an onWarning that is not a function', () => {
    const o = DEFAULT_RECORDER_OPTIONS;
    expect(() => validateRecorderOptions({ ...o })).not.toThrow();
    expect(() => validateRecorderOptions({ ...o, recordBones: false, wasm: false })).not.toThrow();
    expect(() => validateRecorderOptions({ ...o, recordBones: 1 as unknown as boolean })).toThrow(
      new RangeError('rewindable: recordBones must be a boolean (got 1)'),
    );
    expect(() => validateRecorderOptions({ ...o, wasm: 'yes' as unknown as boolean })).toThrow(
      new RangeError('rewindable: wasm must be a boolean (got yes)'),
    );
    expect(() => validateRecorderOptions({ ...o, onWarning: null as unknown as () => void })).toThrow(
      new RangeError('rewindable: onWarning must be a function'),
    );
  });

  it('the defaults are the documented ones', () => {
    const { onWarning, ...rest } = DEFAULT_RECORDER_OPTIONS;
    expect(rest).toEqual({
      maxFrames: 900,
      arenaBytes: 16 * 1024 * 1024,
      maxEntitiesPerFrame: 16384,
      maxEntityId: 1 << 24,
      primitiveBudget: 1024,
      textBudgetBytes: 8192,
      paragraphRadius: 24,
      maxParagraphs: 256,
      maxBoneWordsPerFrame: 1 << 16,
      maxEventsPerFrame: 256,
      fieldBudgetBytes: 256 * 1024,
      recordBones: true,
      wasm: true,
    });
    const seen: unknown[] = [];
    const warn = console.warn;
    console.warn = (m: unknown) => seen.push(m);
    try {
      onWarning('hello');
    } finally {
      console.warn = warn;
    }
    expect(seen).toEqual(['hello']);
  });

  // Kills: arenaBytesFor's arithmetic (each operator, the 20 bytes, the 4, the rounding to 8) and the
  // default of extraBytesPerFrame.
  it('arenaBytesFor: 88 + 20 per entity + extra + 4 bytes a frame, rounded up to 8', () => {
    expect(arenaBytesFor(1000, 900, 4096)).toBe(Math.ceil((900 * (88 + 20000 + 4096 + 4)) / 8) * 8);
    expect(arenaBytesFor(1, 1)).toBe(112); // 88 + 20 + 4 = 112
    expect(arenaBytesFor(1, 1, 1)).toBe(120); // 113 rounded up
    expect(arenaBytesFor(2, 3, 0)).toBe(400); // 3 · 132 = 396, rounded up
    expect(arenaBytesFor(0, 5, 8)).toBe(504); // 5 · 100 = 500, rounded up
  });
});

describe('RecorderStats.reset', () => {
  // Kills: reset's loop emptied, its `typeof === 'number'` test (→ false), the assigned value.
  it('sets every counter to 0', () => {
    const s = new RecorderStats();
    const keys = Object.keys(s) as Array<keyof RecorderStats>;
    expect(keys.length).toBe(27);
    keys.forEach((k, i) => {
      (s as unknown as Record<string, number>)[k] = i + 1;
    });
    s.reset();
    for (const k of keys) expect(s[k], k).toBe(0);
  });
});
