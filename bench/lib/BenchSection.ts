/**
 * The contract between `bench/run.ts` and its sections (record cost today; sample cost, overlay
 * update and save/load later). Each section measures something, prints its own table through
 * `context.log`, and returns flat figures that `run.ts` merges into the final JSON line.
 */

/** Figures a section contributes to the final JSON object (flat: names to numbers or strings). */
export type BenchFigures = Record<string, number | string | null>;

/** What `run.ts` gives every section. */
export interface BenchContext {
  /** Prints one line of human-readable output (never the final JSON line). */
  log(line: string): void;
  /** Forces a full garbage collection when `--expose-gc` made `globalThis.gc` available. */
  collectGarbage(): void;
  /** True with `--quick`: fewer frames, for a smoke run (figures are less stable). */
  quick: boolean;
  /** Names given with `--peers a,b` (empty: all). Sections that compare peers honour it. */
  peers: readonly string[];
  /** Names given with `--workload a,b` (absent or empty: all). Sections with workloads honour it. */
  workloads?: readonly string[];
  /** Directory for raw results (`bench/out`, git-ignored). */
  outDir: string;
  /**
   * Reads the machine-speed probe (`speedProbeMs`) just before `label` is timed, keeps the reading
   * for the run's summary, and returns it in ms.
   */
  probe(label: string): number;
  /**
   * Like `probe`, but first waits (up to `maxWaitMs`, default 6 s) for the machine's fast state:
   * until a reading is within 1.15× of the fastest of the run (the first call takes a few readings
   * to learn it). Sections call it before every peer's timed loop, so no peer is timed in a slow
   * state that a short wait would have avoided. Returns the last reading.
   */
  settle(label: string, maxWaitMs?: number): Promise<number>;
}

/** What a section returns. */
export interface SectionResult {
  /** Merged, in section order, into the final JSON line. */
  figures: BenchFigures;
  /** Anything worth keeping in `bench/out/<section>.json` (per-peer rows, settings). */
  details: unknown;
}

/**
 * One part of the benchmark.
 *
 * @example
 * export const recordSection: BenchSection = {
 *   name: 'record',
 *   async run(context) {
 *     context.log('record cost ...');
 *     return { figures: { recordNsPerEntity1k: 12.3 }, details: {} };
 *   },
 * };
 */
export interface BenchSection {
  /** Short name, used by `--section` and for `bench/out/<name>.json`. */
  readonly name: string;
  run(context: BenchContext): Promise<SectionResult>;
}
