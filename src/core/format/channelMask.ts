import {
  FRAME_TRUNCATED,
  HEADER_WORDS,
  H_BONE_WORDS,
  H_ENTITY_COUNT,
  H_FLAGS,
  H_OVER_BUDGET,
  H_PRIM_WORDS,
  PRIM_TEXT,
  PRIM_TYPE_COUNT,
  PRIM_WORDS,
} from './layout';

/**
 * The channels (one bit each) of the primitive records in `u[start, end)`: which channels hold
 * something there. Stops at a record it cannot size (an unknown type), never reads past `end`.
 *
 * @example
 * const mask = primitiveChannelMask(layer.words, 0, layer.words.length);
 */
export function primitiveChannelMask(u: Uint32Array, start: number, end: number): number {
  let mask = 0;
  let w = start;
  while (w < end) {
    const head = u[w];
    const type = head & 7;
    if (type >= PRIM_TYPE_COUNT) break;
    mask |= 1 << ((head >>> 3) & 31);
    w += type === PRIM_TEXT && w + 4 < end ? PRIM_WORDS[PRIM_TEXT] + ((u[w + 4] + 3) >>> 2) : PRIM_WORDS[type];
  }
  return mask;
}

/**
 * The channels a stored frame at word `at` drew on: those of its primitive records and those that
 * went over budget (their primitives were dropped, but the game drew on them).
 *
 * @example
 * registry.markUsed(frameChannelMask(ring.u32, ring.offsetOf(frame)));
 */
export function frameChannelMask(u: Uint32Array, at: number): number {
  let mask = u[at + H_OVER_BUDGET];
  const primWords = u[at + H_PRIM_WORDS];
  if (primWords > 0 && (u[at + H_FLAGS] & FRAME_TRUNCATED) === 0) {
    const start = at + HEADER_WORDS + u[at + H_ENTITY_COUNT] * 5 + u[at + H_BONE_WORDS];
    mask |= primitiveChannelMask(u, start, start + primWords);
  }
  return mask;
}
