import { H_BONE_WORDS, H_DISPLAY_WORDS } from '../format/layout';
import { slerpCoefficients, slerpWithCoefficients } from '../math/slerp';
import { EntityBuffer, FrameHeader } from '../read/buffers';
import type { FrameReader } from '../read/FrameReader';
import { blendLimit, blendRows } from './blendRows';
import { BLEND_T, copyFrame, sampleDisplay, seriesCoef, writeLayout } from './sampleRows';
import type { SampleBuffer } from './SampleBuffer';
import { seekRows, seekThreshold } from './seekRows';
import type { TimeControl } from './TimeControl';

/** Sampler settings; see `DEFAULT_SAMPLER_OPTIONS`. */
export interface SamplerOptions {
  /** Show recorded frames as they are: no blending; the nearest frame is sampled. */
  concrete: boolean;
  /**
   * An entity (or the camera) that moved farther than this between the two frames is not blended:
   * it shows the nearer frame's values, so a teleport is not smeared across the frame. `Infinity`
   * turns the check off.
   */
  teleportThreshold: number;
}

/** The defaults merged under the options given to `new Sampler(...)`. */
export const DEFAULT_SAMPLER_OPTIONS: Readonly<SamplerOptions> = Object.freeze({
  concrete: false,
  teleportThreshold: Number.POSITIVE_INFINITY,
});

/** The least int32 (`1 << 31`). */
const INT32_MIN = 1 << 31;

/** A decoded frame kept for reuse, with what identifies its content in the ring; empty while `time` is NaN. */
class FrameSlot {
  public frame = 0;
  public offset = 0;
  public time = Number.NaN;
  public readonly entities = new EntityBuffer();
  public readonly header = new FrameHeader();
}

/**
 * Samples the recording at a fractional frame position: decodes the two neighbouring frames (and
 * keeps them, so scrubbing by small steps or playing decodes at most one new frame per frame
 * crossed), matches their entities by unique id in O(n) through a handle-indexed table, and blends
 * them into a caller-owned `SampleBuffer`: positions lerped, rotations and bones slerped along the
 * shortest path, flags from the nearer frame, camera interpolated. The match itself is kept too:
 * while the position stays between the same two frames, a sample only re-blends. A seek (neither
 * frame cached) blends straight from the ring's words instead (`seekRows`: the same rows, bit for
 * bit, in fewer passes); the pair is decoded and kept if the next sample stays between its frames.
 *
 * Nothing is allocated per call in steady state (arrays grow when a sample is larger than any
 * before).
 *
 * Size: just over 450 lines, kept in one class: finding, decoding and matching share the two cached
 * frames and the match, and a seek keeps its table of lives between calls. What needs none of that
 * state is elsewhere: the entity blend loop in `blendRows.ts` (inlined by hand, no call passing a
 * double per entity); in `sampleRows.ts` the layout rows of a match, the whole-frame copy, the
 * per-row copies and the bone blends.
 *
 * @example
 * const sampler = new Sampler(recorder.reader, { teleportThreshold: 200 });
 * const out = new SampleBuffer();
 * sampler.sample(120.25, out);      // a quarter of the way from frame 120 to 121
 * sampler.sampleTime(time, out);     // wherever the TimeControl is
 */
export class Sampler {
  /** Skip blending: sample the nearest recorded frame. */
  public concrete: boolean;
  private threshold: number;

  private readonly slot0 = new FrameSlot();
  private readonly slot1 = new FrameSlot();
  private recent: FrameSlot = this.slot1;
  // The current match: rows of the output and where each comes from in A and in B (-1: absent).
  // Null once either slot is decoded again (`decode`) or dropped (`invalidate`).
  private matchA: FrameSlot | null = null;
  private matchB: FrameSlot | null = null;
  private matchVersion = 0;
  private rows = 0;
  private fromA = new Int32Array(0);
  private fromB = new Int32Array(0);
  /**
   * Per handle h: `table[2h]` a generation stamp, `table[2h + 1]` the handle's index in frame B.
   * Interleaved so that matching a handle touches one cache line, not two: handles run over every
   * life the ring holds (hundreds of thousands with heavy churn) and are visited in random order.
   */
  private table = new Int32Array(0);
  private gen = 0;
  /**
   * The seek's table (`seekRows`), per handle h: `lives[4h]` a generation stamp, `lives[4h + 1]` the
   * handle's index in frame B, `lives[4h + 2]` and `lives[4h + 3]` the id and spawn frame of its
   * life, kept from one seek to the next: one cache line per handle instead of three (this table,
   * the entity table's ids, its spawn frames). A kept life is trusted while its spawn frame is
   * held: a handle is recycled only once every frame that mentions it has left the ring, and frame
   * numbers only grow (after a refill with reused numbers, `invalidate` drops what is kept).
   */
  private lives = new Int32Array(0);
  private livesGen = 0;
  private decodes = 0;
  /** The last pair sampled from the ring's words (`sampleFromRing`), by A's content; none while `ringTime` is NaN. */
  private ringFrame = 0;
  private ringAtA = 0;
  private ringAtB = 0;
  private ringTime = Number.NaN;
  private readonly ringHeaderA = new FrameHeader();
  private readonly ringHeaderB = new FrameHeader();
  private readonly request = new Float64Array(1);
  /** `timingInto` scratch (time, dt). */
  private readonly timing = new Float64Array(2);

  public constructor(
    public readonly reader: FrameReader,
    options: Partial<SamplerOptions> = {},
  ) {
    const o: SamplerOptions = { ...DEFAULT_SAMPLER_OPTIONS, ...options };
    this.concrete = o.concrete;
    this.threshold = Sampler.checkThreshold(o.teleportThreshold);
  }

  /**
   * Distance beyond which an entity is not blended (see `SamplerOptions.teleportThreshold`): a
   * number ≥ 0, or Infinity.
   * @throws RangeError when set to anything else (the threshold is then unchanged).
   */
  public get teleportThreshold(): number {
    return this.threshold;
  }

  public set teleportThreshold(value: number) {
    this.threshold = Sampler.checkThreshold(value);
  }

  private static checkThreshold(value: unknown): number {
    if (typeof value !== 'number' || !(value >= 0)) {
      throw new RangeError(`rewindable: teleportThreshold must be >= 0 or Infinity (got ${String(value)})`);
    }
    return value;
  }

  /**
   * Samples at `position` (a fractional frame number; clamped to the frames held) into `out`.
   * Returns false, with `out.count = 0`, when no frame is held or `position` is NaN.
   */
  public sample(position: number, out: SampleBuffer): boolean {
    this.request[0] = position;
    return this.run(out);
  }

  /**
   * Samples at the position of a `TimeControl` into `out`. Unlike `sample(time.position, out)`, no
   * double crosses a call boundary, so not even the engine's boxing of a fractional number allocates.
   */
  public sampleTime(time: TimeControl, out: SampleBuffer): boolean {
    time.positionInto(this.request, 0);
    return this.run(out);
  }

  private run(out: SampleBuffer): boolean {
    const position = this.request[0];
    const r = this.reader;
    if (r.frameCount === 0 || Number.isNaN(position)) return this.fail(out);
    // int32 frame numbers (`| 0`), so that no double is boxed here whether or not V8 inlines the
    // getters and the calls that take `fa` and `fb`.
    const oldest = r.oldestFrame | 0;
    const newest = r.newestFrame | 0;
    const p = position < oldest ? oldest : position > newest ? newest : position;
    let fa: number;
    let fb: number;
    let t: number;
    if (this.concrete) {
      fa = Math.round(p) | 0;
      fb = fa;
      t = 0;
    } else {
      fa = Math.floor(p) | 0;
      t = p - fa;
      // p is clamped to the newest frame, so fa is the newest only with t = 0.
      if (t === 0) {
        fb = fa;
        t = 0;
      } else {
        fb = fa + 1;
      }
    }

    // Find the two frames among the cached ones; decode what is missing into a slot the pair does not use.
    let sa = this.find(fa);
    let sb = sa;
    if (fb !== fa) {
      sb = this.find(fb);
      if (sa === null && sb === null) {
        // A seek: neither frame is cached. Blend straight from the ring (see `seekRows`), unless the
        // previous sample already did so at this pair: then the pair is being scrubbed, and is decoded.
        out.position = p;
        out.t = t;
        seriesCoef[BLEND_T] = t;
        if (this.sampleFromRing(fa, fb, out)) return true;
      }
    }
    if (sa === null) {
      sa =
        sb === this.slot0
          ? this.slot1
          : sb === this.slot1
            ? this.slot0
            : this.recent === this.slot0
              ? this.slot1
              : this.slot0;
      if (!this.decode(sa, fa)) return this.fail(out);
    }
    if (fb === fa) {
      sb = sa;
    } else if (sb === null) {
      sb = sa === this.slot0 ? this.slot1 : this.slot0;
      if (!this.decode(sb, fb)) return this.fail(out);
    }
    this.recent = sb;

    // A slot decoded since the match cleared it (`decode`), so the same two slots are the same match.
    if (sa !== this.matchA || sb !== this.matchB) this.match(sa, sb);
    const n = this.rows;
    out.ensure(n);
    out.count = n;
    const single = sa === sb;
    if (!out.claimLayout(this, this.matchVersion))
      writeLayout(sa.entities, sb.entities, single, this.fromA, this.fromB, n, this.reader.entities, out);

    const ha = sa.header;
    const hb = sb.header;
    const nearB = t >= 0.5;
    out.position = p;
    out.frameA = fa;
    out.frameB = fb;
    out.t = t;
    out.time = ha.time + (hb.time - ha.time) * t;
    out.overBudget = nearB ? hb.overBudget : ha.overBudget;
    seriesCoef[BLEND_T] = t;
    if (single) {
      copyFrame(sa.entities, out);
    } else {
      blendLimit[0] = this.threshold * this.threshold;
      blendRows(sa.entities, sb.entities, this.fromA, this.fromB, n, out);
    }
    this.blendCamera(ha, hb, out);
    if (sa.entities.hasDisplay || sb.entities.hasDisplay) {
      sampleDisplay(sa.entities, sb.entities, this.fromA, single ? null : this.fromB, n, out);
    } else {
      out.hasDisplay = false;
    }
    return true;
  }

  /**
   * A seek's sample from the ring's words (`seekRows`), when neither frame has bones or display
   * state and this pair was not the previous seek's; `out.position`, `out.t` and the blend factor
   * are set. False when it does not apply (nothing was changed but the handle table's stamps).
   */
  private sampleFromRing(fa: number, fb: number, out: SampleBuffer): boolean {
    const r = this.reader;
    const u = r.ring.u32;
    // `run` clamped both frames between the oldest and the newest, and the ring holds every frame
    // between them: neither offset is -1, and neither header read fails.
    const atA = r.offsetOf(fa);
    const atB = r.offsetOf(fb);
    if (u[atA + H_BONE_WORDS] !== 0 || u[atB + H_BONE_WORDS] !== 0) return false;
    if (u[atA + H_DISPLAY_WORDS] !== 0 || u[atB + H_DISPLAY_WORDS] !== 0) return false;
    const ha = this.ringHeaderA;
    const hb = this.ringHeaderB;
    r.readHeader(fa, ha);
    r.readHeader(fb, hb);
    if (fa === this.ringFrame && atA === this.ringAtA && atB === this.ringAtB && ha.time === this.ringTime) {
      this.ringTime = Number.NaN;
      return false;
    }
    const cap = r.entities.capacity;
    if (this.lives.length < cap * 4) {
      this.lives = new Int32Array(cap * 4);
      this.forgetLives();
    }
    if (this.livesGen >= 0x7ffffff0) {
      this.forgetLives();
      this.livesGen = 0;
    }
    const g = ++this.livesGen;
    slerpCoefficients(seriesCoef);
    seekThreshold[0] = this.threshold * this.threshold;
    const n = seekRows(u, r.ring.f32, atA, atB, this.lives, g, r.oldestFrame | 0, r.entities, out);
    if (n < 0) return false;
    this.ringFrame = fa;
    this.ringAtA = atA;
    this.ringAtB = atB;
    this.ringTime = ha.time;
    const t = seriesCoef[BLEND_T];
    out.count = n;
    out.invalidateLayout();
    out.ensureBones(0);
    out.boneTotal = 0;
    out.hasDisplay = false;
    out.frameA = fa;
    out.frameB = fb;
    out.time = ha.time + (hb.time - ha.time) * t;
    out.overBudget = t >= 0.5 ? hb.overBudget : ha.overBudget;
    this.blendCamera(ha, hb, out);
    return true;
  }

  /** Drops the cached frames and match (needed only if the ring was refilled with reused frame numbers). */
  public invalidate(): void {
    this.ringTime = Number.NaN;
    this.forgetLives();
    this.slot0.time = Number.NaN;
    this.slot1.time = Number.NaN;
    this.matchA = null;
    this.matchB = null;
  }

  /**
   * Forgets the lives kept in the seek's table: every word the int32 minimum, so spawn frames lie
   * below any frame number (each life is read again) and stamps below any generation (1 and up).
   */
  private forgetLives(): void {
    this.lives.fill(INT32_MIN);
  }

  /** Frames decoded since construction (diagnostics: shows the neighbour cache at work). */
  public get decodeCount(): number {
    return this.decodes;
  }

  private fail(out: SampleBuffer): boolean {
    out.count = 0;
    out.hasCamera = false;
    out.invalidateLayout();
    return false;
  }

  private find(frame: number): FrameSlot | null {
    const r = this.reader;
    const s0 = this.slot0;
    const s1 = this.slot1;
    // `run` asks only for frames between the oldest and the newest, all held: `at` is never -1 and
    // `timingInto` never fails (a slot's offset is never -1 with its frame number, so a frame not
    // held would not match either). The time comes through `timingInto` (a call returning a double
    // could box it when not inlined).
    const at = r.offsetOf(frame);
    r.timingInto(frame, this.timing, 0);
    const time = this.timing[0];
    if (s0.frame === frame && at === s0.offset && time === s0.time) return s0;
    if (s1.frame === frame && at === s1.offset && time === s1.time) return s1;
    return null;
  }

  private decode(slot: FrameSlot, frame: number): boolean {
    const r = this.reader;
    slot.time = Number.NaN;
    this.matchA = null;
    this.decodes++;
    if (!r.readHeader(frame, slot.header) || !r.readEntities(frame, slot.entities, true)) return false;
    slot.frame = frame;
    slot.offset = r.offsetOf(frame);
    slot.time = slot.header.time;
    return true;
  }

  /** Builds the rows: A's entities in A's order (matched in B or not), then B's entities absent from A. */
  private match(sa: FrameSlot, sb: FrameSlot): void {
    const a = sa.entities;
    const b = sb.entities;
    const na = a.count;
    // One frame (sa === sb) needs na rows only; the arrays are sized for two all the same.
    const nb = b.count;
    const max = na + nb;
    if (this.fromA.length < max) {
      const cap = Math.max(max, this.fromA.length * 2, 64);
      this.fromA = new Int32Array(cap);
      this.fromB = new Int32Array(cap);
    }
    const fromA = this.fromA;
    const fromB = this.fromB;
    let k = 0;
    if (sa === sb) {
      for (let i = 0; i < na; i++) {
        fromA[i] = i;
        fromB[i] = i;
      }
      k = na;
    } else {
      this.ensureTable(b);
      if (this.gen >= 0x7ffffff0) {
        this.table.fill(0);
        this.gen = 0;
      }
      // g marks "in B, not yet matched"; 0 (never a generation) "matched", or not in B.
      const g = ++this.gen;
      const table = this.table;
      const hb = b.handles;
      const ha = a.handles;
      for (let i = 0; i < nb; i++) {
        const h2 = hb[i] << 1;
        table[h2] = g;
        table[h2 + 1] = i;
      }
      for (let i = 0; i < na; i++) {
        const h2 = ha[i] << 1;
        fromA[k] = i;
        if (table[h2] === g) {
          fromB[k] = table[h2 + 1];
          table[h2] = 0;
        } else {
          fromB[k] = -1;
        }
        k++;
      }
      for (let i = 0; i < nb; i++) {
        if (table[hb[i] << 1] === g) {
          fromA[k] = -1;
          fromB[k] = i;
          k++;
        }
      }
    }
    this.rows = k;
    this.matchA = sa;
    this.matchB = sb;
    this.matchVersion++;
  }

  private ensureTable(b: EntityBuffer): void {
    let need = this.reader.entities.capacity;
    // Handles come from the entity table, but a foreign reader could hold larger ones: every handle of
    // B must index the table. A's need not: a handle of A past its end reads undefined, "not in B".
    for (let i = 0; i < b.count; i++) if (b.handles[i] >= need) need = b.handles[i] + 1;
    if (need * 2 <= this.table.length) return;
    const cap = Math.max(need, this.table.length);
    this.table = new Int32Array(cap * 2);
    this.gen = 0;
  }

  private blendCamera(ha: FrameHeader, hb: FrameHeader, out: SampleBuffer): void {
    const t = seriesCoef[BLEND_T];
    const c = out.camera;
    out.hasCamera = ha.hasCamera || hb.hasCamera;
    if (!out.hasCamera) return;
    if (ha.hasCamera !== hb.hasCamera || ha === hb) {
      c.set(ha.hasCamera ? ha.camera : hb.camera);
      return;
    }
    const ca = ha.camera;
    const cb = hb.camera;
    const dx = cb[0] - ca[0],
      dy = cb[1] - ca[1],
      dz = cb[2] - ca[2];
    const thr = this.threshold;
    if (dx * dx + dy * dy + dz * dz > thr * thr) {
      c.set(t >= 0.5 ? cb : ca);
      return;
    }
    c[0] = ca[0] + dx * t;
    c[1] = ca[1] + dy * t;
    c[2] = ca[2] + dz * t;
    slerpWithCoefficients(seriesCoef, ca, 3, cb, 3, c, 3);
    c[7] = ca[7] + (cb[7] - ca[7]) * t;
  }
}
