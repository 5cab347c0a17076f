import type { DebugDraw } from '../draw/DebugDraw';
import { MAX_STATIC_BYTES, MAX_STATIC_LAYERS, stringProblem } from '../validate/rules';

/** One static layer: primitives encoded once, in the same record format as frames. */
export interface StaticLayer {
  readonly name: string;
  /** Primitive records (see `format/layout.ts`). */
  readonly words: Uint32Array;
  readonly primCount: number;
  /** Bumped on every rebuild, so viewers know to redraw. */
  readonly version: number;
}

/**
 * Encodes debug-draw calls into primitive records, once. The recorder supplies one
 * (`StaticLayerEncoder`, over its `DrawRecorder`); storage itself does not know how to record.
 */
export interface PrimitiveEncoder {
  /** Runs `build` against a `DebugDraw` and returns the records it drew (a copy the caller keeps). */
  encode(build: (draw: DebugDraw) => void): { words: Uint32Array; primCount: number };
}

/**
 * Large static debug geometry (a navmesh, collision outlines) registered once and drawn live by the
 * viewer, never copied into frames. Each primitive still names its channel, so static geometry shows
 * and hides with its channel.
 *
 * @example
 * recorder.staticLayers.set('navgrid', (draw) => {
 *   for (const cell of grid.cells) draw.aabb(Channel.AI, cell.x, cell.y, 0, cell.x + 32, cell.y + 32, 0, 0x335533);
 * });
 *
 * @advanced The `rewindable` entry exports it as a type (a game gets it as `recorder.staticLayers`); `rewindable/format` as a class.
 */
export class StaticLayers {
  private readonly layers = new Map<string, StaticLayer>();
  private versionCounter = 0;

  /**
   * @param encoder Encodes what `set` draws; without one (the layers of a loaded replay file),
   *   layers come only through `setEncoded` and `set` throws.
   */
  public constructor(private readonly encoder: PrimitiveEncoder | null = null) {}

  /**
   * Builds (or rebuilds) a layer by drawing into it once. The primitives follow the per-frame rules
   * (a non-finite coordinate or an unknown channel drops the primitive, counted in the recorder's
   * stats). Configuration: a bad call throws and changes nothing (a layer being rebuilt stays as it was).
   * @throws RangeError when the name is not a string of at most 65,536 well-formed UTF-16 units, a
   *   4,097th layer is added, or all layers together would exceed 256 MiB of records; Error when
   *   these layers have no encoder (they were loaded from a replay file); whatever `build` throws.
   */
  public set(name: string, build: (draw: DebugDraw) => void): StaticLayer {
    if (this.encoder === null) {
      throw new Error(
        `rewindable: cannot draw static layer "${String(name).slice(0, 64)}": these layers were loaded from a replay file; use setEncoded`,
      );
    }
    const problem = stringProblem(name);
    if (problem !== null) throw new RangeError(`rewindable: a static layer name ${problem}`);
    if (!this.layers.has(name) && this.layers.size >= MAX_STATIC_LAYERS) {
      throw new RangeError(
        `rewindable: cannot add static layer "${name.slice(0, 64)}": ${MAX_STATIC_LAYERS} layers exist`,
      );
    }
    const { words, primCount } = this.encoder.encode(build);
    let bytes = words.byteLength;
    for (const l of this.layers.values()) if (l.name !== name) bytes += l.words.byteLength;
    if (bytes > MAX_STATIC_BYTES) {
      throw new RangeError(
        `rewindable: static layer "${name.slice(0, 64)}" would bring the layers to ${bytes} bytes, more than ${MAX_STATIC_BYTES}`,
      );
    }
    const layer: StaticLayer = { name, words, primCount, version: ++this.versionCounter };
    this.layers.set(name, layer);
    return layer;
  }

  /** Adds a layer from already-encoded records (used when loading a replay file). */
  public setEncoded(name: string, words: Uint32Array, primCount: number): StaticLayer {
    const layer: StaticLayer = { name, words, primCount, version: ++this.versionCounter };
    this.layers.set(name, layer);
    return layer;
  }

  /** Removes a layer. */
  public delete(name: string): boolean {
    if (this.layers.delete(name)) {
      this.versionCounter++;
      return true;
    }
    return false;
  }

  /** A layer by name. */
  public get(name: string): StaticLayer | undefined {
    return this.layers.get(name);
  }

  /** Every layer. */
  public list(): StaticLayer[] {
    return [...this.layers.values()];
  }

  /** Changes whenever any layer is set or removed. */
  public get version(): number {
    return this.versionCounter;
  }
}
