import type { MarkerIndex } from './MarkerIndex';

/**
 * The frame of the nearest marker strictly after (`direction` 1) or before (-1) `position`, among
 * the markers whose kind's bit is set in `kindMask` (bit k = `MarkerKind` k), or NaN when there is
 * none. Reads the index as it is (call `markers.refresh()` first for the newest frames). A user
 * action: a linear scan of the markers held.
 *
 * @example
 * const mask = (1 << MarkerKind.BOOKMARK) | (1 << MarkerKind.EVENT);
 * const f = nearestMarker(playback.markers, playback.time.position, 1, mask);
 * if (!Number.isNaN(f)) playback.time.seek(f);
 */
export function nearestMarker(markers: MarkerIndex, position: number, direction: 1 | -1, kindMask: number): number {
  let best = Number.NaN;
  if (Number.isNaN(position)) return best;
  const n = markers.count;
  for (let i = 0; i < n; i++) {
    if (((kindMask >>> markers.kinds[i]) & 1) === 0) continue;
    const f = markers.frames[i];
    if (direction > 0 ? f > position && !(f >= best) : f < position && !(f <= best)) best = f;
  }
  return best;
}
