/**
 * `npm run bench`: runs the benchmark sections in order, prints their tables, and ends with one
 * line holding a single JSON object: every section's figures merged.
 *
 * Options (after `npm run bench --`):
 * - `--quick`               fewer frames: a smoke run, figures less stable;
 * - `--section a,b`         only these sections (by name);
 * - `--peers a,b`           only these peers besides rewindable (names as in the table);
 * - `--workload a,b`        only these record workloads (current, churn, sorted, sparse, hostile).
 *
 * Raw results go to `bench/out/<section>.json` (git-ignored).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import type { BenchContext, BenchFigures, BenchSection } from './lib/BenchSection';
import { speedProbeMs, type ProbeReading } from './lib/speedProbe';
import { fieldsSection } from './sections/fields';
import { liveSection } from './sections/live';
import { overlaySection } from './sections/overlay';
import { repoRoot } from './lib/repoRoot';
import { recordSection } from './sections/record';
import { replaySection } from './sections/replay';
import { sampleSection } from './sections/sample';

/** Every section, in the order they run. */
const SECTIONS: readonly BenchSection[] = [
  recordSection,
  sampleSection,
  replaySection,
  fieldsSection,
  overlaySection,
  liveSection,
];

function optionList(args: readonly string[], name: string): string[] {
  const i = args.indexOf(name);
  if (i < 0) return [];
  const value = args[i + 1];
  if (value === undefined || value.startsWith('--')) throw new Error(`${name} needs a comma-separated list`);
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

function cpuModel(): string {
  try {
    const line = readFileSync('/proc/cpuinfo', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('model name'));
    if (line) return line.split(':')[1].trim();
  } catch {
    // Not Linux: fall back to what Node reports.
  }
  return cpus()[0]?.model ?? 'unknown';
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const known = new Set(['--quick', '--section', '--peers', '--workload']);
  for (let i = 0; i < args.length; i++) {
    if (!args[i].startsWith('--')) continue;
    if (!known.has(args[i])) throw new Error(`unknown option ${args[i]} (known: ${[...known].join(', ')})`);
  }
  const wanted = optionList(args, '--section');
  for (const name of wanted) {
    if (!SECTIONS.some((s) => s.name === name)) throw new Error(`unknown section ${name}`);
  }
  const gc = (globalThis as { gc?: () => void }).gc;
  const outDir = join(repoRoot(), 'bench/out');
  mkdirSync(outDir, { recursive: true });
  const readings: ProbeReading[] = [];
  /** The fastest probe reading of the run so far (what `settle` waits for). */
  let fastestSeen = Number.POSITIVE_INFINITY;
  let current = '';
  const context: BenchContext = {
    log: (line) => console.log(line),
    probe: (label) => {
      const ms = speedProbeMs();
      fastestSeen = Math.min(fastestSeen, ms);
      readings.push({ section: current, label, ms });
      return ms;
    },
    settle: async (label, maxWaitMs = 6000) => {
      const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));
      if (!Number.isFinite(fastestSeen)) {
        for (let i = 0; i < 6; i++) {
          fastestSeen = Math.min(fastestSeen, speedProbeMs());
          await sleep(100);
        }
      }
      const deadline = performance.now() + maxWaitMs;
      let ms = speedProbeMs();
      fastestSeen = Math.min(fastestSeen, ms);
      while (ms > fastestSeen * 1.15 && performance.now() < deadline) {
        await sleep(250);
        ms = speedProbeMs();
        fastestSeen = Math.min(fastestSeen, ms);
      }
      readings.push({ section: current, label, ms });
      return ms;
    },
    collectGarbage: () => {
      if (gc) gc();
    },
    quick: args.includes('--quick'),
    peers: optionList(args, '--peers'),
    workloads: optionList(args, '--workload'),
    outDir,
  };

  const machine = {
    cpu: cpuModel(),
    cores: cpus().length,
    memoryGB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    v8: process.versions.v8,
    loadAverage: loadavg().map((l) => Math.round(l * 100) / 100),
    gcExposed: gc !== undefined,
    date: new Date().toISOString(),
  };
  console.log('# rewindable benchmark');
  console.log(
    `machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGB} GiB; node ${machine.node} (V8 ${machine.v8})`,
  );
  console.log(
    `load average at start: ${machine.loadAverage.join(' ')}${machine.gcExposed ? '' : '; WARNING: run with --expose-gc'}${context.quick ? '; QUICK run' : ''}`,
  );
  console.log('');

  const figures: BenchFigures = {};
  const started = performance.now();
  for (const section of SECTIONS) {
    if (wanted.length > 0 && !wanted.includes(section.name)) continue;
    context.collectGarbage();
    current = section.name;
    const result = await section.run(context);
    const mine = readings.filter((r) => r.section === section.name).map((r) => r.ms);
    if (mine.length > 0) {
      console.log(
        `speed probe during ${section.name}: ${Math.min(...mine).toFixed(2)}–${Math.max(...mine).toFixed(2)} ms over ${mine.length} readings (see the end of the run)`,
      );
    }
    Object.assign(figures, result.figures);
    const probes = readings.filter((r) => r.section === section.name);
    writeFileSync(
      join(outDir, `${section.name}.json`),
      `${JSON.stringify({ machine, quick: context.quick, figures: result.figures, probes, details: result.details }, null, 2)}\n`,
    );
    context.collectGarbage();
    console.log('');
  }
  if (readings.length > 0) {
    const fastest = Math.min(...readings.map((r) => r.ms));
    const slow = readings.filter((r) => r.ms > fastest * 1.25);
    const bySection = SECTIONS.map(
      (sec) => [sec.name, slow.filter((r) => r.section === sec.name).length] as const,
    ).filter(([, n]) => n > 0);
    console.log(
      `speed probe (fixed CPU work, read before each timed loop): fastest ${fastest.toFixed(2)} ms, slowest ` +
        `${Math.max(...readings.map((r) => r.ms)).toFixed(2)} ms; ${slow.length} of ${readings.length} readings over 1.25× the fastest` +
        `${bySection.length > 0 ? ` (${bySection.map(([name, n]) => `${name}: ${n}`).join(', ')}; figures taken then are slowed by the machine; see "probes" in bench/out/<section>.json)` : ''}`,
    );
    figures.speedProbeMsMin = Math.round(fastest * 1000) / 1000;
    figures.speedProbeMsMax = Math.round(Math.max(...readings.map((r) => r.ms)) * 1000) / 1000;
  }
  const endLoad = loadavg()
    .map((l) => Math.round(l * 100) / 100)
    .join(' ');
  console.log(
    `(bench took ${((performance.now() - started) / 1000).toFixed(1)} s; load average at end: ${endLoad}; raw results in bench/out/)`,
  );
  console.log(JSON.stringify(figures));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exitCode = 1;
});
