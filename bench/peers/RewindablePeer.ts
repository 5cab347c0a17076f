import { HEADER_WORDS } from '../../src/core/format/layout';
import { EntityBuffer } from '../../src/core/read/buffers';
import type { EntityColumns } from '../../src/core/record/EntityColumns';
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

/** How the peer hands the entities to the recorder. */
export interface RewindablePeerOptions {
  /** `columns`: one `entityColumns` call over the game's arrays; `entity`: one `entity()` call per entity. */
  api: 'columns' | 'entity';
  /** The recorder's `wasm` option: false forces the JavaScript encoder. */
  wasm: boolean;
}

/** The recommended way: columns, WebAssembly kernel. */
export const DEFAULT_REWINDABLE_PEER_OPTIONS: Readonly<RewindablePeerOptions> = { api: 'columns', wasm: true };

/**
 * rewindable's `Recorder`, used as a game uses it: `beginFrame`, the camera, `despawn` for the
 * entities that left, the live entities (straight from the game's typed arrays, through
 * `entityColumns` or one `entity()` call each), `describe` for the ones that just spawned, `endFrame`.
 *
 * @example
 * const peer = new RewindablePeer(900, 1000);
 * world.step(); peer.prepare(world); peer.record(world);
 */
export class RewindablePeer implements RecordPeer {
  public readonly name: string;
  public readonly role: PeerRole;
  public readonly note: string;
  public readonly options: Readonly<RewindablePeerOptions>;
  public readonly recorder: Recorder;
  /** Warnings the recorder reported (the workload is valid input: this should stay empty). */
  public readonly warnings: string[] = [];
  private readonly scratch = new EntityBuffer();

  private columns: EntityColumns | null = null;

  /** `arenaBytes`: the recorder's arena (default: just enough for `maxFrames` frames, `arenaBytesFor`). */
  public constructor(
    maxFrames: number,
    entities: number,
    arenaBytes = arenaBytesFor(maxFrames, entities),
    options: Partial<RewindablePeerOptions> = {},
  ) {
    const o = { ...DEFAULT_REWINDABLE_PEER_OPTIONS, ...options };
    this.options = o;
    const recommended = o.api === 'columns' && o.wasm;
    this.role = recommended ? 'subject' : 'variant';
    this.name = recommended
      ? 'rewindable'
      : `rewindable ${o.api === 'entity' ? 'entity()' : 'columns'}${o.wasm ? '' : ' JS'}`;
    this.recorder = new Recorder({
      maxFrames,
      arenaBytes,
      maxEntitiesPerFrame: Math.max(16384, entities * 2),
      wasm: o.wasm,
      onWarning: (message) => this.warnings.push(message),
    });
    if (o.wasm && this.recorder.backend !== 'wasm-simd') {
      throw new Error(`RewindablePeer: the WebAssembly kernel is unavailable here (${this.warnings.join('; ')})`);
    }
    this.note =
      `Recorder({ maxFrames: ${maxFrames}, arenaBytes: ${(arenaBytes / 1e6).toFixed(1)} MB${o.wasm ? '' : ', wasm: false'} }); ` +
      `beginFrame, camera, despawn, ${o.api === 'columns' ? 'entityColumns over the live entities' : 'entity() per live entity'}, ` +
      `describe per spawn, endFrame (${this.recorder.backend})`;
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
    if (this.options.api === 'columns') {
      // Built once: the workload's arrays never change identity.
      const c = (this.columns ??= {
        ids: world.ids,
        x: world.x,
        y: world.y,
        z: world.z,
        qx: world.qx,
        qy: world.qy,
        qz: world.qz,
        qw: world.qw,
        flags: world.flags,
      });
      r.entityColumns(world.count, c);
    } else {
      const ids = world.ids;
      const x = world.x,
        y = world.y,
        z = world.z;
      const qx = world.qx,
        qy = world.qy,
        qz = world.qz,
        qw = world.qw;
      const flags = world.flags;
      const n = world.count;
      for (let i = 0; i < n; i++) r.entity(ids[i], x[i], y[i], z[i], qx[i], qy[i], qz[i], qw[i], flags[i]);
    }
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

  public externalBytes(): number {
    // The recorder's arena and staging columns live in a WebAssembly.Memory, which Node's
    // memoryUsage().arrayBuffers does not count.
    return this.recorder.backend === 'wasm-simd' ? this.recorder.ring.buffer.byteLength : 0;
  }

  public dispose(): void {
    this.recorder.clear();
  }
}
