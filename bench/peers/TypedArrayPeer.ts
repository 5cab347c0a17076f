import { HEADER_WORDS } from '../../src/core/format/layout';
import { decodeQuat, encodeQuat } from '../../src/core/math/quat';
import type { Workload } from '../Workload';
import type { DecodedFrame } from './DecodedFrame';
import type { PeerRole, RecordPeer } from './RecordPeer';

const quatScratch = new Float64Array(4);

/**
 * The physical lower bound: the same bytes rewindable stores for a frame (a header of
 * `HEADER_WORDS` words, then id|flags, x, y, z and a 32-bit quaternion per entity) packed
 * beforehand, untimed, so that recording is one `TypedArray.set` into a preallocated ring.
 * No library can keep these bytes for less than this memory copy.
 *
 * @example
 * const peer = new TypedArrayPeer(900, world.capacity);
 * world.step(); peer.prepare(world); peer.record(world);
 */
export class TypedArrayPeer implements RecordPeer {
  public readonly name = 'TypedArray.set';
  public readonly role: PeerRole = 'bound';
  public readonly note = 'the same 20 B/entity + header, packed untimed; timed part is one Uint32Array.set per frame';
  private readonly slotWords: number;
  private arena: Uint32Array;
  private arenaF: Float32Array;
  private readonly stage: Uint32Array;
  private readonly stageF: Float32Array;
  private view: Uint32Array;
  private readonly frames: Int32Array;
  private readonly words: Int32Array;
  private held = 0;
  private usedWords = 0;

  public constructor(
    public readonly maxFrames: number,
    capacity: number,
  ) {
    this.slotWords = HEADER_WORDS + 5 * capacity;
    this.arena = new Uint32Array(maxFrames * this.slotWords);
    this.arenaF = new Float32Array(this.arena.buffer);
    this.stage = new Uint32Array(this.slotWords);
    this.stageF = new Float32Array(this.stage.buffer);
    this.view = this.stage.subarray(0, HEADER_WORDS);
    this.frames = new Int32Array(maxFrames).fill(-1);
    this.words = new Int32Array(maxFrames);
  }

  public prepare(world: Workload): void {
    if (world.idSpace > 1 << 24) throw new RangeError('TypedArrayPeer: ids must fit in 24 bits');
    const n = world.count;
    const s = this.stage;
    const f = this.stageF;
    s[0] = world.frame;
    s[1] = n;
    const base = HEADER_WORDS;
    for (let i = 0; i < n; i++) {
      s[base + i] = (world.ids[i] | (world.flags[i] << 24)) >>> 0;
      const p = base + n + i * 3;
      f[p] = world.x[i];
      f[p + 1] = world.y[i];
      f[p + 2] = world.z[i];
      s[base + 4 * n + i] = encodeQuat(world.qx[i], world.qy[i], world.qz[i], world.qw[i]);
    }
    const words = HEADER_WORDS + 5 * n;
    if (this.view.length !== words) this.view = this.stage.subarray(0, words);
  }

  public record(world: Workload): void {
    const slot = world.frame % this.maxFrames;
    this.arena.set(this.view, slot * this.slotWords);
    if (this.frames[slot] >= 0) {
      this.held--;
      this.usedWords -= this.words[slot];
    }
    this.frames[slot] = world.frame;
    this.words[slot] = this.view.length;
    this.usedWords += this.view.length;
    this.held++;
  }

  public get framesHeld(): number {
    return this.held;
  }

  public storedBytes(): number {
    return this.usedWords * 4;
  }

  public decode(frame: number, out: DecodedFrame): boolean {
    if (!(frame >= 0)) return false;
    const slot = frame % this.maxFrames;
    if (this.frames[slot] !== frame) return false;
    const at = slot * this.slotWords;
    const u = this.arena;
    const f = this.arenaF;
    const n = u[at + 1];
    out.resize(n);
    const base = at + HEADER_WORDS;
    for (let i = 0; i < n; i++) {
      const w = u[base + i];
      out.ids[i] = w & 0xffffff;
      out.flags[i] = w >>> 24;
      const p = base + n + i * 3;
      out.x[i] = f[p];
      out.y[i] = f[p + 1];
      out.z[i] = f[p + 2];
      decodeQuat(u[base + 4 * n + i], quatScratch, 0);
      out.qx[i] = quatScratch[0];
      out.qy[i] = quatScratch[1];
      out.qz[i] = quatScratch[2];
      out.qw[i] = quatScratch[3];
    }
    return true;
  }

  public dispose(): void {
    this.arena = new Uint32Array(0);
    this.arenaF = new Float32Array(0);
    this.frames.fill(-1);
    this.held = 0;
    this.usedWords = 0;
  }
}
