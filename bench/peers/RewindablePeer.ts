import { HEADER_WORDS } from '../../src/core/format/layout';
import { EntityBuffer } from '../../src/core/read/buffers';
import { Recorder } from '../../src/core/record/Recorder';
import type { Workload } from '../Workload';
import type { DecodedFrame } from './DecodedFrame';
import type { PeerRole, RecordPeer } from './RecordPeer';

/** Kind given to every spawned entity through `describe` (metadata written once per life). */
const KIND = 'unit';

/**
 * Arena bytes for `maxFrames` frames of `entities` entities (header and 5 words an entity), with
 * two frames of slack so the ring is never short of room when it wraps.
 *
 * @example
 * new Recorder({ maxFrames: 900, arenaBytes: arenaBytesFor(900, 1000) }); // 18.1 MB
 */
export function arenaBytesFor(maxFrames: number, entities: number): number {
  const frameBytes = (HEADER_WORDS + 5 * entities + 1) * 4;
  return Math.ceil(((maxFrames + 2) * frameBytes) / 8) * 8;
}

/**
 * rewindable's `Recorder`, used as a game uses it: `beginFrame`, the camera, `despawn` for the
 * entities that left, `entity` for every live one (straight from the game's typed arrays),
 * `describe` for the ones that just spawned, `endFrame`.
 *
 * @example
 * const peer = new RewindablePeer(900, 1000);
 * world.step(); peer.prepare(world); peer.record(world);
 */
export class RewindablePeer implements RecordPeer {
  public readonly name = 'rewindable';
  public readonly role: PeerRole = 'subject';
  public readonly note: string;
  public readonly recorder: Recorder;
  /** Warnings the recorder reported (the workload is valid input: this should stay empty). */
  public readonly warnings: string[] = [];
  private readonly scratch = new EntityBuffer();

  /** `arenaBytes`: the recorder's arena (default: just enough for `maxFrames` frames, `arenaBytesFor`). */
  public constructor(maxFrames: number, entities: number, arenaBytes = arenaBytesFor(maxFrames, entities)) {
    this.recorder = new Recorder({
      maxFrames,
      arenaBytes,
      maxEntitiesPerFrame: Math.max(16384, entities * 2),
      onWarning: (message) => this.warnings.push(message),
    });
    this.note = `Recorder({ maxFrames: ${maxFrames}, arenaBytes: ${(arenaBytes / 1e6).toFixed(1)} MB }); ` +
      'beginFrame, camera, despawn, entity per live entity, describe per spawn, endFrame';
  }

  public prepare(_world: Workload): void {
    // The recorder reads the game's own typed arrays: nothing to prepare.
  }

  public record(world: Workload): void {
    const r = this.recorder;
    r.beginFrame(world.time, world.dt);
    r.camera(0, 0, 500, 0, 0, 0, 1, 1);
    const gone = world.despawned;
    for (let i = 0; i < world.despawnedCount; i++) r.despawn(gone[i]);
    const ids = world.ids;
    const x = world.x, y = world.y, z = world.z;
    const qx = world.qx, qy = world.qy, qz = world.qz, qw = world.qw;
    const flags = world.flags;
    const n = world.count;
    for (let i = 0; i < n; i++) r.entity(ids[i], x[i], y[i], z[i], qx[i], qy[i], qz[i], qw[i], flags[i]);
    const born = world.spawned;
    for (let i = 0; i < world.spawnedCount; i++) r.describe(born[i], KIND);
    r.endFrame();
  }

  public get framesHeld(): number {
    return this.recorder.reader.frameCount;
  }

  public storedBytes(): number {
    return this.recorder.ring.bytesUsed;
  }

  public decode(frame: number, out: DecodedFrame): boolean {
    const buf = this.scratch;
    if (!this.recorder.reader.readEntities(frame, buf, false)) return false;
    const n = buf.count;
    out.resize(n);
    const idOf = this.recorder.entities.ids;
    for (let i = 0; i < n; i++) {
      out.ids[i] = idOf[buf.handles[i]];
      out.flags[i] = buf.flags[i];
      out.x[i] = buf.positions[i * 3];
      out.y[i] = buf.positions[i * 3 + 1];
      out.z[i] = buf.positions[i * 3 + 2];
      out.qx[i] = buf.rotations[i * 4];
      out.qy[i] = buf.rotations[i * 4 + 1];
      out.qz[i] = buf.rotations[i * 4 + 2];
      out.qw[i] = buf.rotations[i * 4 + 3];
    }
    return true;
  }

  public dispose(): void {
    this.recorder.clear();
  }
}
