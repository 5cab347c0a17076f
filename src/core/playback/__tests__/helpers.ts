import { H_TOTAL_WORDS } from '../../format/layout';
import { FrameReader } from '../../read/FrameReader';
import { Recorder } from '../../record/Recorder';
import { FrameRing } from '../../store/FrameRing';
import type { RecorderOptions } from '../../record/RecorderOptions';
import type { SampleBuffer } from '../SampleBuffer';

/** A quiet recorder for tests (warnings collected instead of printed). */
export function quietRecorder(options: Partial<RecorderOptions> = {}): Recorder & { warnings: string[] } {
  const warnings: string[] = [];
  const r = new Recorder({ onWarning: (m) => warnings.push(m), ...options }) as Recorder & { warnings: string[] };
  r.warnings = warnings;
  return r;
}

/**
 * A reader over a copy of frames `from..to` of `rec` (held there) with the recorder's own entity
 * table, as `LiveStore.saveRange` builds one: the table then names lives that began after the
 * newest frame of the copy or ended before its oldest.
 */
export function windowReader(rec: Recorder, from: number, to: number): FrameReader {
  const ring = rec.reader.ring;
  let words = 0;
  for (let f = from; f <= to; f++) words += ring.wordsOf(f);
  const copy = new FrameRing(Math.max(1024, words * 4 + 8), to - from + 1);
  for (let f = from; f <= to; f++) {
    const at = ring.offsetOf(f);
    const n = ring.u32[at + H_TOTAL_WORDS];
    copy.u32.set(ring.u32.subarray(at, at + n), copy.reserve(n));
    copy.commit(f, n);
  }
  return new FrameReader(copy, rec.entities, rec.channels, rec.eventKinds, rec.textures, rec.fieldSchemas);
}

/**
 * Every field of a sample's rows, floats by their bits, for comparing two samples exactly (a seek's
 * rows against the decoding path's).
 */
export function rowBits(out: SampleBuffer): unknown[] {
  const bits = (a: Float32Array, from: number, n: number): number[] =>
    Array.from(new Uint32Array(a.buffer, a.byteOffset + from * 4, n));
  const r: unknown[] = [out.count, out.frameA, out.frameB, out.t];
  for (let k = 0; k < out.count; k++) {
    r.push([
      out.handles[k],
      out.ids[k],
      out.spawnFrames[k],
      out.presence[k],
      out.flags[k],
      out.boneStart[k],
      bits(out.positions, k * 3, 3),
      bits(out.rotations, k * 4, 4),
    ]);
  }
  return r;
}
