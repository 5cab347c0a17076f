import type { DebugDraw } from '../draw/DebugDraw';
import type { ChannelRegistry } from './ChannelRegistry';
import { DrawRecorder } from './DrawRecorder';
import type { RecorderStats } from './RecorderStats';

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
 * Large static debug geometry (a navmesh, collision outlines) registered once and drawn live by the
 * viewer, never copied into frames. Each primitive still names its channel, so static geometry shows
 * and hides with its channel.
 *
 * @example
 * recorder.staticLayers.set('navgrid', (draw) => {
 *   for (const cell of grid.cells) draw.aabb(Channel.AI, cell.x, cell.y, 0, cell.x + 32, cell.y + 32, 0, 0x335533);
 * });
 */
export class StaticLayers {
  private readonly layers = new Map<string, StaticLayer>();
  private builder: DrawRecorder | null = null;
  private versionCounter = 0;

  public constructor(
    private readonly channels: ChannelRegistry,
    private readonly stats: RecorderStats,
    private readonly warn: (key: string, message: string) => void,
  ) {}

  /** Builds (or rebuilds) a layer by drawing into it once. */
  public set(name: string, build: (draw: DebugDraw) => void): StaticLayer {
    if (this.builder === null) {
      this.builder = new DrawRecorder(this.channels, this.stats, {
        textBudgetBytes: 1 << 16,
        paragraphRadius: 0,
        maxParagraphs: 4096,
        budgeted: false,
      }, this.warn);
    }
    const b = this.builder;
    b.reset();
    b.open = true;
    try {
      build(b);
    } finally {
      b.flushText();
      b.open = false;
    }
    const layer: StaticLayer = {
      name,
      words: b.words.slice(0, b.wordCount),
      primCount: b.primCount,
      version: ++this.versionCounter,
    };
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
