import { SampleBuffer } from '../../src/core/playback/SampleBuffer';
import { Sampler } from '../../src/core/playback/Sampler';
import type { SampleRules } from '../lib/referenceSample';
import type { SampleRows } from '../lib/SampleRows';
import type { Workload } from '../Workload';
import type { PeerRole } from './RecordPeer';
import { RewindablePeer } from './RewindablePeer';
import type { SamplePeer } from './SamplePeer';

/**
 * rewindable's playback: the frames recorded by `RewindablePeer` (a `Recorder`), sampled by a
 * `Sampler` into one reused `SampleBuffer`. The sampler keeps the two neighbour frames decoded and
 * their id match, so scrubbing between the same two frames only re-blends, and playing decodes one
 * new frame per frame crossed.
 *
 * @example
 * const peer = new RewindableSamplePeer(900, 1000);
 * peer.record(world);
 * peer.sample(0.5);
 */
export class RewindableSamplePeer implements SamplePeer {
  public readonly name = 'rewindable';
  public readonly role: PeerRole = 'subject';
  public readonly note =
    'Sampler.sample(position, sampleBuffer): neighbour frames and their id match cached; blend into a reused SampleBuffer';
  /** Rotations are stored as 32-bit smallest-three quaternions (≤ 0.27° each); positions as float32. */
  public readonly rules: Readonly<SampleRules> = {
    cover: 'union',
    nearerFlags: true,
    positionRelTol: 3e-7,
    rotationTolDeg: 0.3,
  };
  public readonly recorder: RewindablePeer;
  public readonly sampler: Sampler;
  public readonly out = new SampleBuffer();

  public constructor(maxFrames: number, entities: number) {
    this.recorder = new RewindablePeer(maxFrames, entities);
    this.sampler = new Sampler(this.recorder.recorder.reader);
  }

  public record(world: Workload): void {
    this.recorder.prepare(world);
    this.recorder.record(world);
    if (this.recorder.warnings.length > 0)
      throw new Error(`rewindable: recorder warnings: ${this.recorder.warnings.join('; ')}`);
  }

  public get oldestFrame(): number {
    const r = this.recorder.recorder.reader;
    return r.frameCount > 0 ? r.oldestFrame : -1;
  }

  public get newestFrame(): number {
    const r = this.recorder.recorder.reader;
    return r.frameCount > 0 ? r.newestFrame : -1;
  }

  public sample(position: number): void {
    if (!this.sampler.sample(position, this.out)) throw new Error(`rewindable: no sample at ${position}`);
  }

  public read(rows: SampleRows): void {
    const o = this.out;
    const n = o.count;
    rows.resize(n);
    for (let i = 0; i < n; i++) {
      rows.ids[i] = o.ids[i];
      rows.flags[i] = o.flags[i];
    }
    for (let i = 0; i < n * 3; i++) rows.positions[i] = o.positions[i];
    for (let i = 0; i < n * 4; i++) rows.rotations[i] = o.rotations[i];
  }

  public get decodes(): number {
    return this.sampler.decodeCount;
  }

  public dispose(): void {
    this.recorder.dispose();
    this.sampler.invalidate();
  }
}
