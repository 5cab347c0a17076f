/**
 * Helpers of the field stage's mutation tests: a recorder, the field section of a frame as words,
 * a value read back through `Playback.fields`, the SANITIZED flag, and entities recorded one by
 * one or as a batch.
 */
import { fieldSectionAt, H_TOTAL_WORDS } from '../../format/layout';
import { Playback } from '../../playback/Playback';
import { Recorder } from '../../record/Recorder';

export const SANITIZED = 128;

export function recorder(opts: ConstructorParameters<typeof Recorder>[0] = {}): { r: Recorder; warnings: string[] } {
  const warnings: string[] = [];
  const r = new Recorder({
    maxFrames: 16,
    arenaBytes: 1 << 20,
    maxEntityId: 1 << 16,
    onWarning: (m) => warnings.push(m),
    ...opts,
  });
  return { r, warnings };
}

/** The field section of frame `f`, as words. */
export function section(r: Recorder, f: number): number[] {
  const u = r.ring.u32;
  const at = r.ring.offsetOf(f);
  return Array.from(u.subarray(fieldSectionAt(u, at), at + u[at + H_TOTAL_WORDS]));
}

/** A float32's bits, as the section stores it. */
export const bits = (v: number) => new Uint32Array(Float32Array.of(v).buffer)[0];

/** Field `field` of id's life in frame `f` (components values; null when absent). */
export function read(r: Recorder, id: number, field: number, f: number, c = 1): number[] | null {
  const pb = new Playback(r.reader);
  const out = new Float64Array(3);
  const h = r.entities.lookup(id);
  return pb.fields.valueAt(h, field, f, out) === 0 ? null : Array.from(out.subarray(0, c));
}

/** Flags of the entity at index `e` of frame `f`, SANITIZED bit only. */
export const sanitized = (r: Recorder, f: number, e: number) => (r.reader.flagsAt(f, e) & SANITIZED) !== 0;

export const put = (r: Recorder, id: number) => r.entity(id, id, 0, 0, 0, 0, 0, 1);

export function batch(r: Recorder, ids: number[]): void {
  const rot = new Float32Array(ids.length * 4);
  for (let i = 0; i < ids.length; i++) rot[i * 4 + 3] = 1;
  r.entityBatch(ids.length, Int32Array.from(ids), new Float32Array(ids.length * 3), rot);
}
