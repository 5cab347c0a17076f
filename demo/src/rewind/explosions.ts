/**
 * Explosions replayed from their start/end markers alone: the game records an explosion only as two
 * timeline events, and any recorded position (live recording or loaded replay, forwards or
 * backwards, in any order) shows the explosions burning there, drawn by a stateless function of
 * their age. This is how particles are replayed without re-simulation.
 */
import { EventBuffer, type FrameReader } from 'rewindable';
import type { Container } from 'pixi.js';
import { EXPLOSION_DURATION } from '../game/types';

/** Explosions visible at a recorded position; flat arrays, owned by the caller and reused. */
export class ExplosionSample {
  public count = 0;
  public readonly ids = new Int32Array(64);
  /** x, y, size per explosion. */
  public readonly data = new Float32Array(64 * 3);
  /** Age in seconds at the sampled position. */
  public readonly ages = new Float32Array(64);
}

const evScratch = new EventBuffer();
const seenScratch = new Int32Array(256);

/**
 * The explosions to show at a recorded (fractional) frame position of a recording (the live
 * recorder's, a loaded replay's, or any `FrameReader`), from their start/end markers alone. Walks
 * back from the frame over at most `EXPLOSION_DURATION` seconds of recorded time; every start
 * marker whose end marker is not between it and the frame is active, and its age is the recorded
 * time from its start marker to the position, i.e. the effect played forward by |dt| from
 * its start whichever way the playhead moves. An explosion whose start marker was already evicted
 * from the ring is found from its end marker ahead instead (its age is then known to within a
 * frame). Pass each to the stateless `drawExplosion(g, x, y, size, id, age)`; any frame can be
 * shown, in any order. Returns the count (also `out.count`).
 *
 * @example
 * const n = explosionsAt(rewind.recorder, 1234.5, sample); // or a loaded replay, or playback.reader
 * for (let i = 0; i < n; i++) drawExplosion(fx, sample.data[i * 3], sample.data[i * 3 + 1], sample.data[i * 3 + 2], sample.ids[i], sample.ages[i]);
 */
export function explosionsAt(
  source: FrameReader | { readonly reader: FrameReader },
  position: number,
  out: ExplosionSample,
): number {
  out.count = 0;
  const reader = 'reader' in source ? source.reader : source;
  // Event kinds by name: a loaded replay numbers them as its recorder did, maybe not as ours does.
  const startKind = reader.eventKinds.indexOf('explosion-start');
  const endKind = reader.eventKinds.indexOf('explosion-end');
  if (reader.frameCount === 0 || startKind < 0) return 0;
  const oldest = reader.oldestFrame,
    newest = reader.newestFrame;
  const pos = Math.min(newest, Math.max(oldest, position));
  const f0 = Math.floor(pos);
  const frac = pos - f0;
  const t0 = reader.timeOf(f0);
  const now = frac > 0 && f0 < newest ? t0 + (reader.timeOf(f0 + 1) - t0) * frac : t0;
  // Backwards: starts not yet ended at the position. `seen` collects the ends met on the way.
  let seen = 0;
  for (let f = f0; f >= oldest; f--) {
    const tf = reader.timeOf(f);
    if (now - tf > EXPLOSION_DURATION + 0.1) break;
    if (!reader.readEvents(f, evScratch)) break;
    for (let i = 0; i < evScratch.count; i++) {
      const kind = evScratch.kinds[i];
      const id = evScratch.subjects[i] | 0;
      if (kind === endKind) {
        if (seen < seenScratch.length) seenScratch[seen++] = id;
      } else if (kind === startKind && !contains(seenScratch, seen, id)) {
        push(out, id, evScratch.data, i, now - tf);
      }
    }
  }
  // Forwards, only when starts may have been evicted: ends ahead whose start is neither behind
  // (found above) nor ahead (started later) belong to explosions already burning at the position.
  const oldestTime = reader.timeOf(oldest);
  if (now - oldestTime < EXPLOSION_DURATION + 0.1) {
    seen = 0;
    for (let i = 0; i < out.count; i++) if (seen < seenScratch.length) seenScratch[seen++] = out.ids[i];
    for (let f = f0 + 1; f <= newest; f++) {
      const tf = reader.timeOf(f);
      if (tf - now > EXPLOSION_DURATION + 0.1) break;
      if (!reader.readEvents(f, evScratch)) break;
      for (let i = 0; i < evScratch.count; i++) {
        const id = evScratch.subjects[i] | 0;
        if (contains(seenScratch, seen, id)) continue;
        if (seen < seenScratch.length) seenScratch[seen++] = id;
        if (evScratch.kinds[i] === endKind)
          push(out, id, evScratch.data, i, Math.max(0, EXPLOSION_DURATION - (tf - now)));
      }
    }
  }
  return out.count;
}

function contains(list: Int32Array, n: number, id: number): boolean {
  for (let k = 0; k < n; k++) if (list[k] === id) return true;
  return false;
}

function push(out: ExplosionSample, id: number, data: Float32Array, i: number, age: number): void {
  if (out.count >= out.ids.length) return;
  const n = out.count++;
  out.ids[n] = id;
  out.data[n * 3] = data[i * 4];
  out.data[n * 3 + 1] = data[i * 4 + 1];
  out.data[n * 3 + 2] = data[i * 4 + 3];
  out.ages[n] = Math.max(0, age);
}

/** Where recorded explosions are drawn while a recording is shown (see `view/ReplayEffects.ts`). */
export interface ExplosionLayer {
  /** Added to the overlay's world layer, above the entities. */
  readonly layer: Container;
  /** Redraws the layer with the explosions of a sample. */
  draw(sample: ExplosionSample): void;
  clear(): void;
}

/**
 * The overlay's `onPresent` for explosions: after each sample shown, redraws `effects` with the
 * explosions burning at its position in the recording shown (live or a loaded replay). Reuses one
 * `ExplosionSample`; allocates nothing per call.
 *
 * @example
 * new RewindOverlay(app, world, binding, recorder, { onPresent: presentExplosions(effects) });
 */
export function presentExplosions(
  effects: ExplosionLayer,
): (sample: { readonly position: number }, playback: { readonly reader: FrameReader }) => void {
  const explosions = new ExplosionSample();
  return (sample, playback) => {
    explosionsAt(playback.reader, sample.position, explosions);
    effects.draw(explosions);
  };
}
