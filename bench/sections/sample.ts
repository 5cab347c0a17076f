import { performance } from 'node:perf_hooks';
import type { BenchContext, BenchFigures, BenchSection, SectionResult } from '../lib/BenchSection';
import { GcMonitor } from '../lib/GcMonitor';
import { verifySample, type SampleCheck } from '../lib/referenceSample';
import { SampleRows } from '../lib/SampleRows';
import { median, percentile } from '../lib/stats';
import { fixed, formatTable, grouped, ratio, type Column } from '../lib/table';
import { DecodedFrame } from '../peers/DecodedFrame';
import { GeckosSamplePeer } from '../peers/GeckosSamplePeer';
import type { PeerRole } from '../peers/RecordPeer';
import { RewindableSamplePeer } from '../peers/RewindableSamplePeer';
import type { SamplePeer } from '../peers/SamplePeer';
import { SnapshotSamplePeer } from '../peers/SnapshotSamplePeer';
import { SeededRandom } from '../SeededRandom';
import { DEFAULT_WORKLOAD_OPTIONS, Workload, type WorkloadOptions } from '../Workload';
import { RECORD_PEERS, RECORD_WORKLOADS } from './record';

/**
 * The sample section: the cost of playback, i.e. of turning a fractional frame position into every
 * entity's interpolated transform, for rewindable's `Sampler` and for the peers' stored snapshots
 * (JSON, msgpackr, the geckos vault), at N = 1,000 and N = 10,000 entities, on the workload of the
 * record section.
 *
 * Cases (positions never integer, so every sample blends two frames):
 * - `re-blend`: scrubbing back and forth between the same two frames (`f + 0.05 … f + 0.95`);
 * - `playing`: the position advances by 0.25 frame per sample, so one frame in four samples is new
 *   and must be decoded; timed in groups of 4 samples (one frame crossed), so each figure includes
 *   one decode: the honest per-sample cost of playback;
 * - `seek`: a random position anywhere in the frames held, then another, each needing two new frames;
 * - for rewindable, seeks by exactly 1, 10, 100 and 800 frames (random direction and fraction), to
 *   show that the cost does not grow with distance.
 *
 * Each sample is checked untimed against an independent reference computed from the workload's
 * input (`verifySample`): a cold sample at the first and the middle position of each case before
 * timing, and the last timed sample (with the caches as the timed run left them) after it.
 */

/** Frames rewindable holds (the record section's ring); seeks by 800 frames need at least 801. */
export const SUBJECT_FRAMES = 900;
/** Frames the peers hold: their per-sample cost does not depend on it, their memory does (~2 GB at 900 × 10k). */
export const PEER_FRAMES = 120;
/** Frames recorded beyond the ring, so that it has wrapped when sampling starts. */
const WRAP_FRAMES = 30;
const SEED = 0x5a3b1e;
/** Seek distances, in frames, measured for rewindable. */
export const SEEK_DISTANCES: readonly number[] = [1, 10, 100, 800];

/** One way of moving the position between samples. */
export interface SampleCase {
  /** Name in the tables and `bench/out/sample.json`. */
  name: string;
  /** Samples per timed group (the figure is the group's time / group / N). */
  group: number;
  /** Only for the subject (seeks by a fixed distance). */
  subjectOnly: boolean;
}

export const CASE_REBLEND: SampleCase = { name: 're-blend', group: 1, subjectOnly: false };
export const CASE_PLAYING: SampleCase = { name: 'playing', group: 4, subjectOnly: false };
export const CASE_SEEK: SampleCase = { name: 'seek', group: 1, subjectOnly: false };
export const SEEK_CASES: readonly SampleCase[] = SEEK_DISTANCES.map((d) => ({
  name: `seek ${d}`,
  group: 1,
  subjectOnly: true,
}));
export const SAMPLE_CASES: readonly SampleCase[] = [CASE_REBLEND, CASE_PLAYING, CASE_SEEK, ...SEEK_CASES];

/**
 * `count` positions of a case over the frames `[oldest, newest]`, deterministic for a seed. Never
 * an integer, always below `newest` (every sample blends two held frames).
 *
 * @example
 * casePositions(CASE_PLAYING, 30, 929, 8, 1); // 30.125, 30.375, 30.625, 30.875, 31.125, ...
 */
export function casePositions(
  c: SampleCase,
  oldest: number,
  newest: number,
  count: number,
  seed: number,
): Float64Array {
  const out = new Float64Array(count);
  const rng = new SeededRandom(seed);
  const span = newest - oldest; // frame pairs available: oldest .. newest - 1
  if (span < 1) throw new RangeError(`casePositions: need at least two frames (got ${oldest}..${newest})`);
  const fraction = (): number => 0.05 + 0.9 * rng.next();
  if (c === CASE_REBLEND) {
    const f = oldest + (span >> 1);
    for (let k = 0; k < count; k++) out[k] = f + fraction();
  } else if (c === CASE_PLAYING) {
    // 0.125, 0.375, 0.625, 0.875 past each frame; wraps to the oldest frame after the newest pair.
    const steps = span * 4;
    for (let k = 0; k < count; k++) out[k] = oldest + 0.125 + 0.25 * (k % steps);
  } else if (c === CASE_SEEK) {
    for (let k = 0; k < count; k++) out[k] = oldest + rng.below(span) + fraction();
  } else {
    const d = Number(c.name.slice('seek '.length));
    if (!(d >= 1 && d < span))
      throw new RangeError(`casePositions: seek distance ${d} needs more than ${span + 1} frames`);
    // Start where a step forward is possible; from then on the step back to the previous frame
    // always is, so one of the two directions stays valid.
    let f = oldest + rng.below(span - d);
    for (let k = 0; k < count; k++) {
      out[k] = f + fraction();
      let next = rng.next() < 0.5 ? f - d : f + d;
      if (next < oldest || next > newest - 1) next = next < oldest ? f + d : f - d;
      f = next;
    }
  }
  return out;
}

/** How to make each sample peer, and the record peer it plays back (for `--peers`). */
export interface SamplePeerFactory {
  name: string;
  /** Name of the record section's peer whose storage it plays back. */
  recordPeer: string;
  role: PeerRole;
  frames: number;
  create(frames: number, entities: number): SamplePeer;
}

export const SAMPLE_PEERS: readonly SamplePeerFactory[] = [
  {
    name: 'rewindable',
    recordPeer: 'rewindable',
    role: 'subject',
    frames: SUBJECT_FRAMES,
    create: (f, n) => new RewindableSamplePeer(f, n),
  },
  {
    name: 'JSON',
    recordPeer: 'JSON.stringify',
    role: 'library',
    frames: PEER_FRAMES,
    create: (f) => SnapshotSamplePeer.json(f),
  },
  {
    name: 'msgpackr',
    recordPeer: 'msgpackr',
    role: 'library',
    frames: PEER_FRAMES,
    create: (f) => SnapshotSamplePeer.msgpackr(f),
  },
  {
    name: 'geckos interpolate',
    recordPeer: 'geckos Vault',
    role: 'library',
    frames: PEER_FRAMES,
    create: (f) => new GeckosSamplePeer(f),
  },
];

/**
 * The sample peers named by `--peers` (their own name or their record peer's, case-insensitive;
 * `none` for rewindable alone), rewindable always first; all of them when `names` is empty. Names
 * of record peers without a playback peer (bitecs...) select nothing here; unknown names throw.
 *
 * @example
 * selectSamplePeers(['JSON.stringify']).map((p) => p.name); // ['rewindable', 'JSON']
 */
export function selectSamplePeers(names: readonly string[]): SamplePeerFactory[] {
  const wanted = names.map((n) => n.toLowerCase());
  const known = new Set<string>(['none']);
  for (const p of SAMPLE_PEERS) {
    known.add(p.name.toLowerCase());
    known.add(p.recordPeer.toLowerCase());
  }
  for (const p of RECORD_PEERS) known.add(p.name.toLowerCase());
  for (const n of wanted) if (!known.has(n)) throw new Error(`unknown peer "${n}" (known: ${[...known].join(', ')})`);
  return SAMPLE_PEERS.filter(
    (p) =>
      wanted.length === 0 ||
      p.role === 'subject' ||
      wanted.includes(p.name.toLowerCase()) ||
      wanted.includes(p.recordPeer.toLowerCase()),
  );
}

/** Time budget and sample counts of one case. */
export interface SampleBudget {
  /** Target wall time of the timed loop, in ms. */
  budgetMs: number;
  /** Fewest and most timed groups. */
  minGroups: number;
  maxGroups: number;
  /** Warm-up of each case before timing, in ms (at least 2 groups), so the optimising compiler is done. */
  warmupMs: number;
}

export const SUBJECT_BUDGET: SampleBudget = { budgetMs: 400, minGroups: 200, maxGroups: 4000, warmupMs: 150 };
export const LIBRARY_BUDGET: SampleBudget = { budgetMs: 700, minGroups: 6, maxGroups: 2000, warmupMs: 150 };
export const QUICK_BUDGET: SampleBudget = { budgetMs: 60, minGroups: 6, maxGroups: 400, warmupMs: 30 };

/** What one peer measured in one case at one size. */
export interface CaseResult {
  peer: string;
  role: PeerRole;
  entities: number;
  case: string;
  /** Timed samples (groups × group size). */
  samples: number;
  /** Median group, in ns per entity per sample. */
  medianNs: number;
  /** 90th-percentile group, in ns per entity per sample. */
  p90Ns: number;
  /** Frames decoded per timed sample (NaN when the peer does not say). */
  decodesPerSample: number;
  /** GC pauses that began in the timed loop. */
  gcCount: number;
  gcMs: number;
  /** The checks of this case (cold first and middle samples, last timed sample). */
  checks: SampleCheck[];
  /** Machine-speed probe read just before the timed groups (`speedProbeMs`). */
  probeMs: number;
}

/** Everything one peer measured at one size. */
export interface PeerSampleResult {
  peer: string;
  role: PeerRole;
  note: string;
  entities: number;
  framesHeld: number;
  cases: CaseResult[];
  wallSeconds: number;
}

/**
 * The workload's input at the given frames: a fresh `Workload` with the same options is stepped up
 * to the last of them (stepping alone costs ~0.1 s for 900 frames of 10,000 entities), copying each
 * wanted frame. This is how the reference is built without keeping every frame's input.
 *
 * @example
 * const inputs = workloadFrames(new Set([40, 41]), { entities: 1000, seed: SEED });
 * inputs.get(40)?.count; // 1000
 */
export function workloadFrames(
  frames: ReadonlySet<number>,
  options: Partial<WorkloadOptions>,
): Map<number, DecodedFrame> {
  const out = new Map<number, DecodedFrame>();
  let last = -1;
  for (const f of frames) if (f > last) last = f;
  const world = new Workload(options);
  while (world.frame < last) {
    world.step();
    if (frames.has(world.frame)) {
      const d = new DecodedFrame();
      d.copyFrom(world);
      out.set(world.frame, d);
    }
  }
  return out;
}

/** A sample kept for checking after the run: where it was taken and the rows the peer gave. */
interface KeptSample {
  position: number;
  rows: SampleRows;
  result: CaseResult;
}

/**
 * Records the workload into a fresh peer (untimed), then runs every case: two cold samples (the
 * first and the middle position of the case), a warm-up on the case's own sequence, the timed
 * groups, and the last timed sample as the run left it. The rows of those three samples per case
 * are checked afterwards against the reference (`verifySample`); a difference throws.
 *
 * @example
 * const r = await runSamplePeer(SAMPLE_PEERS[0], 1000, SAMPLE_CASES, SUBJECT_BUDGET, context);
 * r.cases.find((c) => c.case === 'playing')?.medianNs;
 */
export async function runSamplePeer(
  factory: SamplePeerFactory,
  entities: number,
  cases: readonly SampleCase[],
  budget: SampleBudget,
  context: BenchContext,
  frames = factory.frames,
  workload: Partial<WorkloadOptions> = {},
): Promise<PeerSampleResult> {
  const wall0 = performance.now();
  context.collectGarbage();
  const total = frames + WRAP_FRAMES;
  const oldest = total - frames;
  const newest = total - 1;
  const mine = cases.filter((c) => !c.subjectOnly || factory.role === 'subject');

  const world = new Workload({ ...workload, entities, seed: SEED });
  const peer = factory.create(frames, entities);
  for (let f = 0; f < total; f++) {
    world.step();
    peer.record(world);
  }
  if (peer.oldestFrame !== oldest || peer.newestFrame !== newest) {
    throw new Error(`${peer.name}: holds ${peer.oldestFrame}..${peer.newestFrame}, expected ${oldest}..${newest}`);
  }

  const results: CaseResult[] = [];
  const kept: KeptSample[] = [];
  const gc = new GcMonitor();
  for (let ci = 0; ci < mine.length; ci++) {
    const c = mine[ci];
    const positions = casePositions(c, oldest, newest, (2 * budget.maxGroups + 2) * c.group, SEED + ci * 7919);
    const result: CaseResult = {
      peer: peer.name,
      role: factory.role,
      entities,
      case: c.name,
      samples: 0,
      medianNs: NaN,
      p90Ns: NaN,
      decodesPerSample: NaN,
      gcCount: 0,
      gcMs: 0,
      checks: [],
      probeMs: NaN,
    };
    const keepSample = (p: number): void => {
      const rows = new SampleRows();
      peer.read(rows);
      kept.push({ position: p, rows, result });
    };
    // 1. Cold samples (also the first warm-up).
    for (const p of [positions[0], positions[positions.length >> 1]]) {
      peer.sample(p);
      keepSample(p);
    }
    // 2. Warm-up on the case's own sequence, which also estimates the cost of a group.
    // For warmupMs (at least 2 groups); these groups also estimate the cost of a group.
    let k = 0;
    let warmGroups = 0;
    const w0 = performance.now();
    while (warmGroups < 2 || (performance.now() - w0 < budget.warmupMs && warmGroups < budget.maxGroups)) {
      for (let j = 0; j < c.group; j++) peer.sample(positions[k++]);
      warmGroups++;
    }
    const perGroupMs = Math.max(1e-3, (performance.now() - w0) / warmGroups);
    const groups = Math.min(budget.maxGroups, Math.max(budget.minGroups, Math.round(budget.budgetMs / perGroupMs)));
    // 3. Timed groups, starting on a group boundary (for playing: a fresh frame pair to decode).
    const samples = new Float64Array(groups);
    const decodes0 = peer.decodes;
    context.collectGarbage();
    result.probeMs = context.probe(`${factory.name} N=${entities} ${c.name}`);
    gc.start();
    const t0 = performance.now();
    for (let g = 0; g < groups; g++) {
      const a = performance.now();
      for (let j = 0; j < c.group; j++) peer.sample(positions[k++]);
      const b = performance.now();
      samples[g] = ((b - a) * 1e6) / c.group / entities;
    }
    const t1 = performance.now();
    await gc.flush();
    const gcSummary = gc.summary(t0, t1);
    gc.stop();
    // 4. The last timed sample, with the caches as the timed run left them.
    keepSample(positions[k - 1]);
    result.samples = groups * c.group;
    result.medianNs = median(samples, groups);
    result.p90Ns = percentile(samples, groups, 90);
    result.decodesPerSample = (peer.decodes - decodes0) / result.samples;
    result.gcCount = gcSummary.count;
    result.gcMs = gcSummary.totalMs;
    results.push(result);
  }
  const note = peer.note;
  const rules = peer.rules;
  peer.dispose();

  // Check every kept sample against the reference, from the workload's input re-derived.
  const wanted = new Set<number>();
  for (const s of kept) {
    wanted.add(Math.floor(s.position));
    wanted.add(Math.floor(s.position) + 1);
  }
  const inputs = workloadFrames(wanted, { ...workload, entities, seed: SEED });
  for (const s of kept) {
    const f = Math.floor(s.position);
    const a = inputs.get(f);
    const b = inputs.get(f + 1);
    if (a === undefined || b === undefined) throw new Error(`no input for frames ${f}, ${f + 1}`);
    s.result.checks.push(verifySample(factory.name, a, b, s.position - f, s.rows, rules));
  }
  kept.length = 0;
  context.collectGarbage();
  return {
    peer: factory.name,
    role: factory.role,
    note,
    entities,
    framesHeld: frames,
    cases: results,
    wallSeconds: (performance.now() - wall0) / 1000,
  };
}

/** Sizes measured (entities). */
export const SAMPLE_SIZES: readonly number[] = [1000, 10000];

const COLUMNS: readonly Column[] = [
  { header: 'peer', align: 'left' },
  { header: 're-blend', align: 'right' },
  { header: 'playing', align: 'right' },
  { header: 'seek', align: 'right' },
  { header: 'playing vs rewindable', align: 'right' },
  { header: 'decodes/sample', align: 'right' },
  { header: 'GC n (ms)', align: 'right' },
  { header: 'samples', align: 'right' },
  { header: 'max err °', align: 'right' },
  { header: 'probe ms', align: 'right' },
];

function caseOf(r: PeerSampleResult | undefined, name: string): CaseResult | undefined {
  return r?.cases.find((c) => c.case === name);
}

/** `min–max` of probe readings, or the one value when they agree to 0.01 ms. */
function probeRange(ms: readonly number[]): string {
  const lo = Math.min(...ms);
  const hi = Math.max(...ms);
  return hi - lo < 0.005 ? fixed(lo, 2) : `${fixed(lo, 2)}–${fixed(hi, 2)}`;
}

/**
 * The table of one size: median ns per entity per sample in each case, ratios against rewindable.
 *
 * @example
 * for (const line of sampleTable(resultsAt1k)) context.log(line);
 */
export function sampleTable(results: readonly PeerSampleResult[]): string[] {
  const subject = caseOf(
    results.find((r) => r.role === 'subject'),
    CASE_PLAYING.name,
  );
  const rows = results.map((r) => {
    const main = [CASE_REBLEND, CASE_PLAYING, CASE_SEEK].map((c) => caseOf(r, c.name));
    const playing = main[1];
    const all = r.cases.filter((c) => !SEEK_CASES.some((s) => s.name === c.case));
    const gcCount = all.reduce((s, c) => s + c.gcCount, 0);
    const gcMs = all.reduce((s, c) => s + c.gcMs, 0);
    const samples = all.reduce((s, c) => s + c.samples, 0);
    const maxDeg = Math.max(...r.cases.flatMap((c) => c.checks.map((k) => k.maxRotationDeg)));
    const probes = all.map((c) => c.probeMs);
    return [
      r.peer,
      ...main.map((c) => fixed(c?.medianNs ?? NaN, 1)),
      subject && playing ? ratio(playing.medianNs / subject.medianNs) : '—',
      fixed(playing?.decodesPerSample ?? NaN, 2),
      `${gcCount} (${fixed(gcMs, 0)})`,
      grouped(samples),
      fixed(maxDeg, 4),
      probeRange(probes),
    ];
  });
  return formatTable(COLUMNS, rows);
}

/**
 * rewindable's seek cost by distance, one row per size.
 *
 * @example
 * for (const line of seekTable(rewindableResults)) context.log(line);
 */
export function seekTable(results: readonly PeerSampleResult[]): string[] {
  const columns: Column[] = [
    { header: 'N', align: 'right' },
    ...SEEK_CASES.map(
      (c): Column => ({ header: `${c.name.slice(5)} frame${c.name === 'seek 1' ? '' : 's'}`, align: 'right' }),
    ),
    { header: 'random', align: 'right' },
    { header: 'playing (1 decode / 4)', align: 'right' },
    { header: 'probe ms', align: 'right' },
  ];
  const rows = results.map((r) => [
    grouped(r.entities),
    ...SEEK_CASES.map((c) => fixed(caseOf(r, c.name)?.medianNs ?? NaN, 1)),
    fixed(caseOf(r, CASE_SEEK.name)?.medianNs ?? NaN, 1),
    fixed(caseOf(r, CASE_PLAYING.name)?.medianNs ?? NaN, 1),
    probeRange(r.cases.map((c) => c.probeMs)),
  ]);
  return formatTable(columns, rows);
}

function round(value: number | undefined, digits: number): number | null {
  if (value === undefined || !Number.isFinite(value)) return null;
  const p = 10 ** digits;
  return Math.round(value * p) / p;
}

/** Target of issue 3: a blended sample costs at most this many ns per entity. */
export const SAMPLE_TARGET_NS = 50;
/** Target of issue 17: a random seek on the hostile workload at N = 10,000, ns per entity. */
export const SEEK_HOSTILE_TARGET_NS = 50;

/**
 * The sample section: every sample peer at 1,000 and 10,000 entities, the tables, the target of
 * issue 3, and the figures for the final JSON line. `sampleNsPerEntity1k`/`10k` are rewindable's
 * `playing` case (a blended sample with one frame decoded every four samples, decode included);
 * `sampleRebleendNsPerEntity*` re-blends a cached frame pair; `seekNsPerEntity*` a random seek (two
 * frames decoded, matched and blended); `seekD<d>NsPerEntity1k` seeks by exactly d frames.
 *
 * @example
 * const { figures } = await sampleSection.run(context);
 */
export const sampleSection: BenchSection = {
  name: 'sample',
  async run(context: BenchContext): Promise<SectionResult> {
    const factories = selectSamplePeers(context.peers);
    const all: PeerSampleResult[] = [];
    context.log('## sample — playback, ns per entity per sample (median); every sample blends two frames');
    for (const n of SAMPLE_SIZES) {
      const results: PeerSampleResult[] = [];
      for (const factory of factories) {
        const budget = context.quick ? QUICK_BUDGET : factory.role === 'subject' ? SUBJECT_BUDGET : LIBRARY_BUDGET;
        const r = await runSamplePeer(factory, n, SAMPLE_CASES, budget, context);
        results.push(r);
        all.push(r);
      }
      context.log('');
      context.log(
        `N = ${grouped(n)} entities (same workload as record: ~30% asleep, ${DEFAULT_WORKLOAD_OPTIONS.churnPerFrame} spawn + ` +
          `${DEFAULT_WORKLOAD_OPTIONS.churnPerFrame} despawn per frame); rewindable holds ${SUBJECT_FRAMES} frames, the peers ${PEER_FRAMES}`,
      );
      for (const line of sampleTable(results)) context.log(line);
    }
    const subject = all.filter((r) => r.role === 'subject');
    // Issue 17: rewindable's random seek on the record section's hostile workload at N = 10,000
    // (3 % replaced per frame, re-sorted by y, ids over [0, 10^6)), checked like every other sample.
    const subjectFactory = factories.find((f) => f.role === 'subject');
    const hostileWorkload = RECORD_WORKLOADS.find((w) => w.name === 'hostile');
    let hostileSeek: CaseResult | undefined;
    if (subjectFactory !== undefined && hostileWorkload !== undefined) {
      const n = SAMPLE_SIZES[SAMPLE_SIZES.length - 1];
      const budget = context.quick ? QUICK_BUDGET : SUBJECT_BUDGET;
      const r = await runSamplePeer(
        subjectFactory,
        n,
        [CASE_SEEK],
        budget,
        context,
        subjectFactory.frames,
        hostileWorkload.options(n),
      );
      hostileSeek = caseOf(r, CASE_SEEK.name);
      context.log('');
      context.log(
        `rewindable, random seek on the hostile workload (${hostileWorkload.label}), N = ${grouped(n)}: ` +
          `${fixed(hostileSeek?.medianNs ?? NaN, 1)} ns/entity (p90 ${fixed(hostileSeek?.p90Ns ?? NaN, 1)}, ` +
          `probe ${fixed(hostileSeek?.probeMs ?? NaN, 2)} ms; target ≤ ${SEEK_HOSTILE_TARGET_NS})`,
      );
      all.push({ ...r, peer: `${r.peer} (hostile workload)` });
    }
    context.log('');
    context.log('rewindable, seek by a fixed distance (random direction and fraction), ns per entity per sample:');
    for (const line of seekTable(subject)) context.log(line);
    context.log('');
    context.log(
      're-blend: between the same two frames; playing: +0.25 frame per sample, timed in groups of 4 (one new frame decoded per group);',
    );
    context.log(
      'seek: a random position in the frames held. Checked against an independent float64 reference (3 samples per case).',
    );
    context.log(
      'probe ms: machine-speed probe read before each case (min–max over the row); a high reading means a slowed machine.',
    );
    for (const f of factories) {
      const r = all.find((x) => x.peer === f.name);
      if (r) context.log(`  ${r.peer}: ${r.note}`);
    }

    const at = (peer: string, n: number, c: SampleCase): CaseResult | undefined =>
      caseOf(
        all.find((r) => r.peer === peer && r.entities === n),
        c.name,
      );
    const small = SAMPLE_SIZES[0];
    const large = SAMPLE_SIZES[SAMPLE_SIZES.length - 1];
    const play1 = at('rewindable', small, CASE_PLAYING);
    const play10 = at('rewindable', large, CASE_PLAYING);
    const blend1 = at('rewindable', small, CASE_REBLEND);
    const blend10 = at('rewindable', large, CASE_REBLEND);
    const seekFar = at('rewindable', small, SEEK_CASES[SEEK_CASES.length - 1]);
    const seekNear = at('rewindable', small, SEEK_CASES[1]);

    context.log('');
    context.log('targets (issue 3), this run:');
    const targetRows: string[][] = [];
    const check = (name: string, value: number | undefined, ok: boolean): void => {
      targetRows.push([name, fixed(value ?? NaN, 1), value === undefined ? 'n/a' : ok ? 'met' : 'MISSED']);
    };
    for (const [label, r] of [
      [`playing, N=${grouped(small)}`, play1],
      [`playing, N=${grouped(large)}`, play10],
      [`re-blend, N=${grouped(small)}`, blend1],
      [`re-blend, N=${grouped(large)}`, blend10],
    ] as const) {
      check(
        `blended sample ≤ ${SAMPLE_TARGET_NS} ns/entity (${label})`,
        r?.medianNs,
        (r?.medianNs ?? Infinity) <= SAMPLE_TARGET_NS,
      );
    }
    const growth = (seekFar?.medianNs ?? NaN) / (seekNear?.medianNs ?? NaN);
    targetRows.push([
      `seek cost does not grow with distance (800 vs 10 frames, N=${grouped(small)})`,
      ratio(growth),
      Number.isFinite(growth) ? (growth <= 1.25 ? 'met' : 'MISSED') : 'n/a',
    ]);
    for (const line of formatTable(
      [
        { header: 'target', align: 'left' },
        { header: 'measured', align: 'right' },
        { header: '', align: 'left' },
      ],
      targetRows,
    ))
      context.log(line);

    const figures: BenchFigures = {
      sampleNsPerEntity1k: round(play1?.medianNs, 2),
      sampleNsPerEntity10k: round(play10?.medianNs, 2),
      sampleRebleendNsPerEntity1k: round(blend1?.medianNs, 2),
      sampleRebleendNsPerEntity10k: round(blend10?.medianNs, 2),
      seekNsPerEntity1k: round(at('rewindable', small, CASE_SEEK)?.medianNs, 2),
      seekNsPerEntity10k: round(at('rewindable', large, CASE_SEEK)?.medianNs, 2),
      sampleSeekNsPerEntityHostile10k: round(hostileSeek?.medianNs, 2),
    };
    for (const c of SEEK_CASES)
      figures[`seekD${c.name.slice(5)}NsPerEntity1k`] = round(at('rewindable', small, c)?.medianNs, 2);
    const keys: Record<string, string> = { JSON: 'json', msgpackr: 'msgpackr', 'geckos interpolate': 'geckos' };
    for (const f of factories) {
      if (f.role === 'subject') continue;
      figures[`${keys[f.name]}SampleNsPerEntity1k`] = round(at(f.name, small, CASE_PLAYING)?.medianNs, 1);
      figures[`${keys[f.name]}SampleNsPerEntity10k`] = round(at(f.name, large, CASE_PLAYING)?.medianNs, 1);
    }
    return {
      figures,
      details: {
        subjectFrames: SUBJECT_FRAMES,
        peerFrames: PEER_FRAMES,
        wrapFrames: WRAP_FRAMES,
        seed: SEED,
        results: all,
      },
    };
  },
};
