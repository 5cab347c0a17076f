import { FieldReader, type FieldQuery } from '../fields/FieldReader';
import type { PrimitiveBuffer } from '../read/buffers';
import type { FrameReader } from '../read/FrameReader';
import { Bookmarks } from './Bookmarks';
import { Lifetimes } from './Lifetimes';
import { MarkerIndex } from './MarkerIndex';
import type { SampleBuffer } from './SampleBuffer';
import { Sampler, type SamplerOptions } from './Sampler';
import { TimeControl } from './TimeControl';
import type { TimeControlOptions } from './TimeControlOptions';

/** Playback settings: those of its time control and of its sampler. */
export interface PlaybackOptions {
  time: Partial<TimeControlOptions>;
  sampler: Partial<SamplerOptions>;
}

/** The defaults merged under the options given to `new Playback(...)` (each part then gets its own defaults). */
export const DEFAULT_PLAYBACK_OPTIONS: Readonly<PlaybackOptions> = Object.freeze({ time: {}, sampler: {} });

/**
 * The read half of rewindable behind one small surface: time control, sampling, bookmarks, timeline
 * markers, lifetimes and range queries over one `FrameReader`. Renderer-agnostic.
 *
 * @example
 * const playback = new Playback(recorder.reader, { sampler: { teleportThreshold: 256 } });
 * const view = new SampleBuffer();
 * app.ticker.add((tk) => {
 *   playback.update(tk.deltaMS / 1000);            // markers + time
 *   if (playback.time.state === 'live') return;     // the game runs and records
 *   playback.sample(view);                          // entities at the viewed (fractional) frame
 *   const n = playback.trail(selected, playback.time.position - 60, playback.time.position, trailXYZ);
 * });
 */
export class Playback {
  public readonly time: TimeControl;
  public readonly sampler: Sampler;
  public readonly bookmarks: Bookmarks;
  public readonly markers: MarkerIndex;
  public readonly lifetimes: Lifetimes;
  /** Recorded custom fields: a life's schema, a value at a position, a series over frames. */
  public readonly fields: FieldQuery;

  public constructor(
    public readonly reader: FrameReader,
    options: Partial<PlaybackOptions> = {},
  ) {
    const o: PlaybackOptions = { ...DEFAULT_PLAYBACK_OPTIONS, ...options };
    this.time = new TimeControl(reader, o.time);
    this.sampler = new Sampler(reader, o.sampler);
    this.bookmarks = new Bookmarks();
    this.markers = new MarkerIndex(reader, this.bookmarks);
    this.lifetimes = new Lifetimes(reader);
    this.fields = new FieldReader(reader.ring, reader.entities, reader.fieldSchemas);
  }

  /** Per tick: refreshes the markers (incrementally), then advances the time control. */
  public update(realDtSeconds: number): void {
    this.markers.refresh();
    this.time.update(realDtSeconds);
  }

  /** Samples the current position of the time control into `out` (see `Sampler.sampleTime`). Allocates nothing. */
  public sample(out: SampleBuffer): boolean {
    return this.sampler.sampleTime(this.time, out);
  }

  /**
   * Positions x, y, z of one unique id (`handle`) in each frame of [from, to] (whole frames; the
   * range is clamped to the frames held and to the entity's life), in frame order, into `out`.
   * Frames where it is absent are skipped. Writes at most `out.length / 3` points (and at most
   * `frames.length` when `frames` is given, which receives each point's frame). Returns the points
   * written. O(1) per frame while the entity keeps its index from frame to frame.
   */
  public trail(handle: number, from: number, to: number, out: Float32Array, frames?: Int32Array): number {
    const r = this.reader;
    if (r.frameCount === 0 || Number.isNaN(from) || Number.isNaN(to)) return 0;
    const t = r.entities;
    if (!(handle >= 0 && handle < t.highWater) || t.used[handle] !== 1) return 0;
    let lo = Math.ceil(Math.min(from, to));
    let hi = Math.floor(Math.max(from, to));
    const first = Math.max(r.oldestFrame, t.spawnFrames[handle]);
    const last = Math.min(r.newestFrame, t.lastFrame(handle));
    if (lo < first) lo = first;
    if (hi > last) hi = last;
    let cap = Math.floor(out.length / 3);
    if (frames !== undefined && frames.length < cap) cap = frames.length;
    let k = 0;
    let hint = -1;
    for (let f = lo; f <= hi && k < cap; f++) {
      const i = r.indexOf(f, handle, hint);
      if (i < 0) continue;
      r.positionAt(f, i, out, k * 3);
      if (frames !== undefined) frames[k] = f;
      hint = i;
      k++;
    }
    return k;
  }

  /** Debug primitives of one frame whose channel bit is set in `mask`; false when the frame is not held. */
  public primitivesAt(frame: number, mask: number, out: PrimitiveBuffer): boolean {
    if (!Number.isFinite(frame)) return false;
    return this.reader.readPrimitives(Math.round(frame), mask, out);
  }

  /** Stops the marker index listening to the bookmarks. */
  public dispose(): void {
    this.markers.dispose();
  }
}
