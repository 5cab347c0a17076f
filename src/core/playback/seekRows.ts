import { H_ENTITY_COUNT, HEADER_WORDS } from '../format/layout';
import type { EntityTable } from '../store/EntityTable';
import { BLEND_T, seriesCoef } from './sampleRows';
import type { SampleBuffer } from './SampleBuffer';

/**
 * A seek's sample straight from the ring: when neither neighbour frame is cached, the sampler
 * blends from the two frames' words instead of decoding both into buffers, matching and laying the
 * rows out in passes of their own. Four passes, two of them over handle words only:
 *
 * 1. B's handles are stamped into the sampler's per-handle table (its index in B beside the stamp);
 * 2. each of A's handles finds its partner in B (kept by A's row, and B's row marked as claimed,
 *    which counts the rows: the output then grows to what the decoding path would give it), and its
 *    id and spawn frame are read from the same entry of the table, where the sampler keeps them
 *    from one seek to the next (from the entity table when not kept, or when the life's spawn frame
 *    has left the ring: its handle may then name a newer life). This is the one pass that reads by
 *    handle (random reads over every life the ring holds, one cache line each): a short loop keeps
 *    many of those misses in flight, where the row pass would wait for each. It writes the layout
 *    of A's rows as it goes (handle, id, spawn frame, presence: A's row i is the sample's row i),
 *    so the row pass neither reads nor writes them again; the bone slots are filled once for all
 *    rows (none: these frames have no bones);
 * 3. each of A's entities, in A's order, gets flags, position and rotation (each orientation code
 *    unpacked here, once), blended when the entity is in both frames;
 * 4. B's entities that A did not claim follow, in B's order, written whole.
 *
 * The rows, and every bit of them, are those of the decode-match-blend path (the same arithmetic
 * on the same float32 values, in the same order; the tests compare the two). Frames with bones or
 * display state take that path: this one has no bone or display rows. Internal to the sampler.
 *
 * The loops use literals where they would read an imported constant (the engine reloads and checks
 * an imported binding at every use in optimised code; a literal is embedded): 0xffffff is
 * `HANDLE_MASK` and 24 `HANDLE_BITS` (format/layout.ts), 1, 2 and 3 are `Presence.ONLY_A`,
 * `ONLY_B` and `BOTH`, 0.99 is `SLERP_SHORT_MIN_COS` (sampleRows.ts) and 0.5 `SLERP_SERIES_MIN_COS`
 * (math/slerp.ts); `unpackQuat` repeats `decodeQuatAt`'s constants. A test checks each against its
 * source.
 */

/** Unpacked orientations of the pair being blended: A's at 0..3, B's at 4..7 (float32, as decoded). */
const quats = new Float32Array(8);
/** `seekRows`'s squared teleport distance at index 0 (a double passed in an array is never boxed). */
export const seekThreshold = new Float64Array(1);

/**
 * Per row of A: its partner's index in B (-1: none) (pass 2). Per row of B: 1 once a row of A
 * claimed it, swept back to 0 by pass 4. Grown to the largest frame seen.
 */
let partnerOf = new Int32Array(0);
let claimed = new Uint8Array(0);

function growScratch(na: number, nb: number): void {
  if (partnerOf.length < na) {
    const cap = Math.max(na, partnerOf.length * 2, 64);
    partnerOf = new Int32Array(cap);
  }
  if (claimed.length < nb) claimed = new Uint8Array(Math.max(nb, claimed.length * 2, 64));
}

/**
 * Writes the rows of the sample between frames A (words from `atA`) and B (from `atB`) of the ring
 * words `u` / `f` into `out` (grown to the rows when needed), with the blend in `seriesCoef` and
 * the squared teleport distance in `seekThreshold[0]`. `lives` is the sampler's table, four words
 * per handle (stamp, index in B, id, spawn frame), `g` a stamp not yet in it, and `oldest` the
 * oldest frame held (a kept life whose spawn frame is older is read again). Returns the rows
 * written, or -1 when a handle of B lies beyond the table (nothing useful was written; the caller
 * takes the decoding path).
 */
export function seekRows(
  u: Uint32Array,
  f: Float32Array,
  atA: number,
  atB: number,
  lives: Int32Array,
  g: number,
  oldest: number,
  entities: EntityTable,
  out: SampleBuffer,
): number {
  const na = u[atA + H_ENTITY_COUNT];
  const nb = u[atB + H_ENTITY_COUNT];
  const hA = atA + HEADER_WORDS;
  const hB = atB + HEADER_WORDS;
  const pA = hA + na;
  const pB = hB + nb;
  const rA = pA + na * 3;
  const rB = pB + nb * 3;
  const len = lives.length;
  // 1. Stamp B: the generation and B's index beside it, in the handle's entry.
  for (let i = 0; i < nb; i++) {
    const h4 = (u[hB + i] & 0xffffff) << 2;
    if (h4 >= len) return -1;
    lives[h4] = g;
    lives[h4 + 1] = i;
  }
  // 2. A's partners in B, and the layout of A's rows (handle, id, spawn frame, presence); the claimed
  // rows of B counted. The output holds A's rows now, and all of them once the count is known.
  growScratch(na, nb);
  const pi = partnerOf;
  const cl = claimed;
  const ids = entities.ids;
  const spawns = entities.spawnFrames;
  out.ensure(na);
  let oh = out.handles;
  let oi = out.ids;
  let os = out.spawnFrames;
  let opr = out.presence;
  let matched = 0;
  for (let i = 0; i < na; i++) {
    const h = u[hA + i] & 0xffffff;
    const h4 = h << 2;
    oh[i] = h;
    let ib = -1;
    if (h4 < len) {
      if (lives[h4 + 3] < oldest) {
        // Not kept, or kept for a life whose first frame is no longer held: from the entity table.
        lives[h4 + 2] = ids[h];
        lives[h4 + 3] = spawns[h];
      }
      oi[i] = lives[h4 + 2];
      os[i] = lives[h4 + 3];
      if (lives[h4] === g) {
        ib = lives[h4 + 1];
        cl[ib] = 1;
        matched++;
      }
    } else {
      oi[i] = ids[h];
      os[i] = spawns[h];
    }
    opr[i] = ib < 0 ? 1 : 3; // Presence.ONLY_A : Presence.BOTH
    pi[i] = ib;
  }
  const rows = na + nb - matched;
  out.ensure(rows); // keeps A's rows when it grows
  oh = out.handles;
  oi = out.ids;
  os = out.spawnFrames;
  opr = out.presence;
  out.boneStart.fill(-1, 0, rows);
  out.boneCount.fill(0, 0, rows);
  const c = seriesCoef;
  const t = c[BLEND_T];
  const thr2 = seekThreshold[0];
  const nearB = t >= 0.5;
  const u1t = 1 - t;
  const t0 = c[0],
    t1 = c[1],
    t2 = c[2],
    t3 = c[3],
    t4 = c[4],
    t5 = c[5],
    t6 = c[6],
    t7 = c[7],
    t8 = c[8],
    t9 = c[9];
  const u0 = c[10],
    u1 = c[11],
    u2 = c[12],
    u3 = c[13],
    u4 = c[14],
    u5 = c[15],
    u6 = c[16],
    u7 = c[17],
    u8 = c[18],
    u9 = c[19];
  const of = out.flags;
  const op = out.positions;
  const or = out.rotations;
  const q = quats;
  // 3. A's entities: flags, position, rotation.
  for (let i = 0; i < na; i++) {
    const w = u[hA + i];
    const o3 = i * 3;
    const o4 = i * 4;
    const pa = pA + i * 3;
    const ib = pi[i];
    if (ib < 0) {
      of[i] = w >>> 24;
      op[o3] = f[pa];
      op[o3 + 1] = f[pa + 1];
      op[o3 + 2] = f[pa + 2];
      unpackQuat(u, rA + i, or, o4);
      continue;
    }
    const pb = pB + ib * 3;
    const ax = f[pa],
      ay = f[pa + 1],
      az = f[pa + 2];
    const dx = f[pb] - ax,
      dy = f[pb + 1] - ay,
      dz = f[pb + 2] - az;
    if (dx * dx + dy * dy + dz * dz > thr2) {
      // Teleport: the nearer frame's transform, unblended.
      if (nearB) {
        of[i] = u[hB + ib] >>> 24;
        op[o3] = f[pb];
        op[o3 + 1] = f[pb + 1];
        op[o3 + 2] = f[pb + 2];
        unpackQuat(u, rB + ib, or, o4);
      } else {
        of[i] = w >>> 24;
        op[o3] = ax;
        op[o3 + 1] = ay;
        op[o3 + 2] = az;
        unpackQuat(u, rA + i, or, o4);
      }
      continue;
    }
    of[i] = nearB ? u[hB + ib] >>> 24 : w >>> 24;
    op[o3] = ax + dx * t;
    op[o3 + 1] = ay + dy * t;
    op[o3 + 2] = az + dz * t;
    // The shortest-path slerp of `Sampler`'s blend loop, in the same steps: equal rotations kept,
    // the series' first terms for a small angle (`SLERP_SHORT_MIN_COS`), all of them up to 120°,
    // trigonometry beyond.
    if (u[rA + i] === u[rB + ib]) {
      // The same code in both frames (a still entity: about a third of the workload's): A's rotation,
      // as the decoding path gives it (equal rotations are not blended), without unpacking B's.
      unpackQuat(u, rA + i, or, o4);
      continue;
    }
    unpackQuat(u, rA + i, q, 0);
    unpackQuat(u, rB + ib, q, 4);
    const x0 = q[0],
      y0 = q[1],
      z0 = q[2],
      w0 = q[3];
    let x1 = q[4],
      y1 = q[5],
      z1 = q[6],
      w1 = q[7];
    if (x0 === x1 && y0 === y1 && z0 === z1 && w0 === w1) {
      or[o4] = x0;
      or[o4 + 1] = y0;
      or[o4 + 2] = z0;
      or[o4 + 3] = w0;
      continue;
    }
    let cos = x0 * x1 + y0 * y1 + z0 * z1 + w0 * w1;
    if (cos < 0) {
      cos = -cos;
      x1 = -x1;
      y1 = -y1;
      z1 = -z1;
      w1 = -w1;
    }
    let s0: number;
    let s1: number;
    if (cos >= 0.99) {
      const y = cos - 1;
      const y2 = y * y;
      s1 = t0 + t1 * y + (t2 + t3 * y) * y2;
      s0 = u0 + u1 * y + (u2 + u3 * y) * y2;
    } else if (cos >= 0.5) {
      const y = cos - 1;
      const y2 = y * y;
      const y4 = y2 * y2;
      s1 = t0 + t1 * y + (t2 + t3 * y) * y2 + (t4 + t5 * y + (t6 + t7 * y) * y2) * y4 + (t8 + t9 * y) * (y4 * y4);
      s0 = u0 + u1 * y + (u2 + u3 * y) * y2 + (u4 + u5 * y + (u6 + u7 * y) * y2) * y4 + (u8 + u9 * y) * (y4 * y4);
    } else {
      const theta = Math.acos(cos > 1 ? 1 : cos);
      const inv = 1 / Math.sin(theta);
      s0 = Math.sin(u1t * theta) * inv;
      s1 = Math.sin(t * theta) * inv;
    }
    or[o4] = s0 * x0 + s1 * x1;
    or[o4 + 1] = s0 * y0 + s1 * y1;
    or[o4 + 2] = s0 * z0 + s1 * z1;
    or[o4 + 3] = s0 * w0 + s1 * w1;
  }
  // 4. B's entities absent from A, in B's order.
  let k = na;
  for (let i = 0; i < nb; i++) {
    const w = u[hB + i];
    const h = w & 0xffffff;
    if (cl[i] !== 0) {
      cl[i] = 0;
      continue;
    }
    oh[k] = h;
    const h4 = h << 2;
    if (lives[h4 + 3] < oldest) {
      lives[h4 + 2] = ids[h];
      lives[h4 + 3] = spawns[h];
    }
    oi[k] = lives[h4 + 2];
    os[k] = lives[h4 + 3];
    opr[k] = 2;
    of[k] = w >>> 24;
    const pb = pB + i * 3;
    op[k * 3] = f[pb];
    op[k * 3 + 1] = f[pb + 1];
    op[k * 3 + 2] = f[pb + 2];
    unpackQuat(u, rB + i, or, k * 4);
    k++;
  }
  return k;
}

/**
 * `decodeQuatAt` (math/quat.ts) into a float32 row, in the same steps (the same bits), with its
 * constants as literals (0.0013837706089756313 is its `INV_SCALE`, (2 / √2) / 1022, and 511 its
 * `MID`), the other three components' places computed rather than read from its `OTHERS` table (the
 * j-th of them is j, plus 1 from the largest component's index on), and the square root of a
 * clamped argument instead of a branch (√0 is the 0 it gives). Exported for its test.
 */
export function unpackQuat(words: Uint32Array, at: number, out: Float32Array, offset: number): void {
  const bits = words[at];
  const idx = bits >>> 30;
  const a = (((bits >>> 20) & 1023) - 511) * 0.0013837706089756313;
  const b = (((bits >>> 10) & 1023) - 511) * 0.0013837706089756313;
  const c = ((bits & 1023) - 511) * 0.0013837706089756313;
  const r = 1 - a * a - b * b - c * c;
  out[offset + idx] = Math.sqrt(Math.max(r, 0));
  // (idx - j - 1) >>> 31 is 1 when idx <= j: the j-th other component sits one place further on.
  out[offset + ((idx - 1) >>> 31)] = a;
  out[offset + 1 + ((idx - 2) >>> 31)] = b;
  out[offset + 2 + ((idx - 3) >>> 31)] = c;
}
