import { PerformanceObserver, constants } from 'node:perf_hooks';

/** GC pauses that began inside a time window. */
export interface GcSummary {
  /** Collections of any kind. */
  count: number;
  /** Mark-compact (major) collections. */
  major: number;
  /** Total pause, in milliseconds. */
  totalMs: number;
  /** Longest single pause, in milliseconds. */
  maxMs: number;
}

/** `detail.kind` of a major (mark-sweep-compact) collection in Node's `gc` performance entries. */
const GC_MAJOR = constants.NODE_PERFORMANCE_GC_MAJOR;

/**
 * Records V8 garbage-collection pauses (Node's `gc` performance entries), so a benchmark can say
 * how much of a timed window went to GC. Node delivers the entries asynchronously: `flush()` must
 * be awaited after the synchronous timed loop and before `summary()`.
 *
 * @example
 * const gc = new GcMonitor();
 * gc.start();
 * const t0 = performance.now(); work(); const t1 = performance.now();
 * await gc.flush();
 * console.log(gc.summary(t0, t1).totalMs);
 * gc.stop();
 */
export class GcMonitor {
  private starts: number[] = [];
  private durations: number[] = [];
  private kinds: number[] = [];
  private readonly observer: PerformanceObserver;
  private observing = false;

  public constructor() {
    this.observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        this.starts.push(e.startTime);
        this.durations.push(e.duration);
        const detail = (e as unknown as { detail?: { kind?: number } | null }).detail;
        this.kinds.push(detail?.kind ?? 0);
      }
    });
  }

  /** Starts observing (and forgets earlier entries). */
  public start(): void {
    this.starts = [];
    this.durations = [];
    this.kinds = [];
    if (!this.observing) this.observer.observe({ entryTypes: ['gc'] });
    this.observing = true;
  }

  /** Lets Node deliver the pending entries (a few turns of the event loop). */
  public async flush(): Promise<void> {
    for (let i = 0; i < 4; i++) await new Promise<void>((resolve) => setTimeout(resolve, 5));
  }

  /** Pauses that began within `[t0, t1]` (`performance.now()` milliseconds). */
  public summary(t0: number, t1: number): GcSummary {
    const out: GcSummary = { count: 0, major: 0, totalMs: 0, maxMs: 0 };
    for (let i = 0; i < this.starts.length; i++) {
      const s = this.starts[i];
      if (s < t0 || s > t1) continue;
      out.count++;
      if (this.kinds[i] === GC_MAJOR) out.major++;
      out.totalMs += this.durations[i];
      if (this.durations[i] > out.maxMs) out.maxMs = this.durations[i];
    }
    return out;
  }

  /** Stops observing. */
  public stop(): void {
    if (this.observing) this.observer.disconnect();
    this.observing = false;
  }
}
