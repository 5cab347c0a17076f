/**
 * The `xor-delta` frame codec: each word is XOR-ed with the word at the same index of the previous
 * frame (0 past its end, and for the first frame), then stored in as few low bytes as its value
 * needs. Recorded frames change little from one to the next (same entities in the same order,
 * floats that move by small amounts), so most XOR-ed words are zero or small.
 *
 * An encoded frame is: the frame's word count as an unsigned LEB128 varint, then groups of up to
 * four words, each group a tag byte (2 bits per word, word k of the group in bits 2k..2k+1) followed
 * by the words' low bytes, little-endian: tag 0 → the word is 0 (no bytes), 1 → 1 byte, 2 → 2 bytes,
 * 3 → 4 bytes. Unused tag bits of a last, partial group are 0.
 *
 * Decoding is bounded: every group costs at least its tag byte, so a frame of `n` words needs at
 * least `ceil(n / 4)` bytes after its varint, which the reader checks before allocating anything.
 */

/**
 * Most bytes one encoded frame of `words` words can take.
 *
 * @example
 * const out = new Uint8Array(xorDeltaBound(words));
 */
export function xorDeltaBound(words: number): number {
  return 5 + Math.ceil(words / 4) + words * 4;
}

/**
 * Encodes `words` words of `cur` at `curAt`, against `prevWords` words of `prev` at `prevAt`, into
 * `out` at `o` (which must have `xorDeltaBound(words)` bytes free). Returns the end position in `out`.
 *
 * @example
 * const out = new Uint8Array(xorDeltaBound(words));
 * const end = xorDeltaEncode(ring.u32, at, words, ring.u32, prevAt, prevWords, out, 0);
 */
export function xorDeltaEncode(
  cur: Uint32Array,
  curAt: number,
  words: number,
  prev: Uint32Array,
  prevAt: number,
  prevWords: number,
  out: Uint8Array,
  o: number,
): number {
  let v = words;
  while (v >= 0x80) {
    out[o++] = (v & 0x7f) | 0x80;
    v = Math.floor(v / 128);
  }
  out[o++] = v;
  const shared = Math.min(words, prevWords);
  for (let g = 0; g < words; g += 4) {
    const tagAt = o++;
    let tag = 0;
    const end = Math.min(words, g + 4);
    for (let i = g; i < end; i++) {
      const x = (i < shared ? cur[curAt + i] ^ prev[prevAt + i] : cur[curAt + i]) >>> 0;
      if (x === 0) continue;
      const k = (i - g) << 1;
      if (x < 0x100) {
        tag |= 1 << k;
        out[o++] = x;
      } else if (x < 0x10000) {
        tag |= 2 << k;
        out[o++] = x & 0xff;
        out[o++] = x >>> 8;
      } else {
        tag |= 3 << k;
        out[o++] = x & 0xff;
        out[o++] = (x >>> 8) & 0xff;
        out[o++] = (x >>> 16) & 0xff;
        out[o++] = x >>> 24;
      }
    }
    out[tagAt] = tag;
  }
  return o;
}

/** Result of `xorDeltaHeader`: the frame's word count and where its groups start, or -1s. */
export interface XorDeltaHeader {
  words: number;
  dataAt: number;
}

/**
 * Reads the word count of an encoded frame in `src[start, end)`. Sets `out.words = -1` when the
 * varint is malformed, longer than 5 bytes or runs past `end`.
 *
 * @example
 * const h: XorDeltaHeader = { words: 0, dataAt: 0 };
 * xorDeltaHeader(bin, 0, bin.length, h);
 * if (h.words < 0 || Math.ceil(h.words / 4) > bin.length - h.dataAt) throw new Error('corrupt');
 */
export function xorDeltaHeader(src: Uint8Array, start: number, end: number, out: XorDeltaHeader): void {
  let words = 0;
  let scale = 1;
  let p = start;
  out.words = -1;
  out.dataAt = -1;
  for (let i = 0; i < 5; i++) {
    if (p >= end) return;
    const b = src[p++];
    words += (b & 0x7f) * scale;
    if ((b & 0x80) === 0) {
      out.words = words;
      out.dataAt = p;
      return;
    }
    scale *= 128;
  }
}

/**
 * Decodes the groups of an encoded frame (`src[dataAt, end)`, `words` words) into `dst` at `dstAt`,
 * XOR-ing with `prevWords` words of `prev` at `prevAt`. Returns false when the data runs out early
 * or has bytes left over. Work is bounded by `words`, and every group consumes a byte.
 *
 * @example
 * const dst = new Uint32Array(h.words);
 * if (!xorDeltaDecode(bin, h.dataAt, bin.length, h.words, prevWords, 0, prevWords.length, dst, 0)) throw new Error('corrupt');
 */
export function xorDeltaDecode(
  src: Uint8Array,
  dataAt: number,
  end: number,
  words: number,
  prev: Uint32Array,
  prevAt: number,
  prevWords: number,
  dst: Uint32Array,
  dstAt: number,
): boolean {
  let p = dataAt;
  const shared = Math.min(words, prevWords);
  for (let g = 0; g < words; g += 4) {
    if (p >= end) return false;
    const tag = src[p++];
    const n = words - g < 4 ? words - g : 4;
    if (tag === 0 && g + n <= shared) {
      // Four unchanged words: the common case for handles and still entities.
      for (let k = 0; k < n; k++) dst[dstAt + g + k] = prev[prevAt + g + k];
      continue;
    }
    // A group of n words needs at most 4n bytes; check once per group, not per byte.
    if (p + 4 * n > end) {
      let need = 0;
      for (let k = 0; k < n; k++) {
        const t = (tag >>> (k << 1)) & 3;
        need += t === 3 ? 4 : t;
      }
      if (p + need > end) return false;
    }
    for (let k = 0; k < n; k++) {
      const t = (tag >>> (k << 1)) & 3;
      let x = 0;
      if (t === 1) {
        x = src[p++];
      } else if (t === 2) {
        x = src[p] | (src[p + 1] << 8);
        p += 2;
      } else if (t === 3) {
        x = src[p] | (src[p + 1] << 8) | (src[p + 2] << 16) | (src[p + 3] << 24);
        p += 4;
      }
      const i = g + k;
      dst[dstAt + i] = i < shared ? x ^ prev[prevAt + i] : x;
    }
    // Tag bits past the last word must be 0 (a canonical encoding).
    if (n < 4 && tag >>> (n << 1) !== 0) return false;
  }
  return p === end;
}
