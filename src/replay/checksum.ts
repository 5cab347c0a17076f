/**
 * The frame checksum of a replay file: FNV-1a applied to 32-bit words instead of bytes, over every
 * frame's words in order (not the padding the ring adds). Every step is a bijection of the running
 * value, so changing any single word always changes the result.
 *
 * `h = 0x811c9dc5; for each word w: h = (h XOR w) * 0x01000193 mod 2^32`
 */

/** Starting value (the FNV-1a 32-bit offset basis). */
export const CHECKSUM_SEED = 0x811c9dc5;
const PRIME = 0x01000193;

/**
 * Continues checksum `h` over `words` words of `u32` from `start`.
 *
 * @example
 * let h = CHECKSUM_SEED;
 * h = checksumWords(ring.u32, at, words, h);
 */
export function checksumWords(u32: Uint32Array, start: number, words: number, h: number): number {
  let x = h | 0;
  const end = start + words;
  for (let i = start; i < end; i++) x = Math.imul(x ^ u32[i], PRIME);
  return x >>> 0;
}
