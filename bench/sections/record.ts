import { performance } from 'node:perf_hooks';
import { Recorder } from '../../src/core/record/Recorder';
import type { BenchContext, BenchFigures, BenchSection, SectionResult } from '../lib/BenchSection';
import { GcMonitor, type GcSummary } from '../lib/GcMonitor';
import { machineJitter } from '../lib/machineJitter';
import { median, percentile } from '../lib/stats';
import { fixed, formatTable, grouped, ratio, type Column } from '../lib/table';
import { verifyFrame } from '../lib/verifyFrame';
import { BitecsPeer } from '../peers/BitecsPeer';
import { GeckosVaultPeer } from '../peers/GeckosVaultPeer';
import { JsonPeer } from '../peers/JsonPeer';
import { MsgpackrPeer } from '../peers/MsgpackrPeer';
import { DecodedFrame } from '../peers/DecodedFrame';
import type { PeerRole, RecordPeer } from '../peers/RecordPeer';
import { RewindablePeer } from '../peers/RewindablePeer';
import { StructuredClonePeer } from '../peers/StructuredClonePeer';
import { TypedArrayPeer } from '../peers/TypedArrayPeer';
import { DEFAULT_WORKLOAD_OPTIONS, Workload, type WorkloadOptions } from '../Workload';

/**
 * The record section: the cost of keeping every frame of the workload in a 900-frame ring, for
 * rewindable's `Recorder` and its peers, at N = 1,000 and N = 10,000 entities.
 *
 * For each peer and size, on a fresh workload with the same seed:
 * 1. fill: 900 frames recorded untimed (this is also the JIT warm-up), the newest frame decoded and
 *    checked against the input (every frame for rewindable and the bound, every 50th for the others);
 * 2. warm: more frames, untimed, each one evicting the oldest: the fill never evicts, so the code
 *    that only runs once the ring is full (eviction, recycled ids and handles, freed snapshots) would
 *    otherwise still be warming up, unoptimised, in the first timed frames;
 * 3. timed: more frames, each one evicting the oldest, so the garbage of the evicted snapshots and
 *    its GC pauses land in the timed frames; only `peer.record(world)` is inside the timer;
 * 4. check: the peer still holds exactly 900 frames, and the oldest, middle and newest of them
 *    decode to the input (ids, order, flags and positions exact; rotation error measured);
 * 5. size: stored bytes (the serialised form, or the ring's used bytes), and the heap and buffers
 *    still retained after a forced GC.
 */

/** Frames every peer keeps (30 s at 30 fps). */
export const MAX_FRAMES = 900;
/** Seed shared by every peer's workload. */
const SEED = 0x2e3a1d;
/** Library peers' newest frame is decoded and checked every this many fill frames. */
const LIBRARY_CHECK_EVERY = 50;

/** One size of the run: entities, untimed warm-up frames after the 900 fill frames, then timed frames. */
export interface RecordPlan {
  entities: number;
  warmFrames: number;
  timedFrames: number;
}

/** Full run: ~2 minutes on a 2-core machine; `--quick`: a smoke run. */
export const RECORD_PLANS: readonly RecordPlan[] = [
  { entities: 1000, warmFrames: 900, timedFrames: 1200 },
  { entities: 10000, warmFrames: 250, timedFrames: 250 },
];
export const QUICK_RECORD_PLANS: readonly RecordPlan[] = [
  { entities: 1000, warmFrames: 100, timedFrames: 200 },
  { entities: 10000, warmFrames: 20, timedFrames: 30 },
];

/**
 * Workloads every peer records, on the same frames: the original one, and what real games do to
 * it (issue 17): heavy churn, an order re-sorted every frame, sparse ids, and all three at once.
 */
export interface RecordWorkload {
  /** Short name (`--workload`, the figures' names). */
  name: string;
  /** What it is, for the table's heading. */
  label: string;
  /** The workload's options at `entities` entities (merged over the defaults). */
  options(entities: number): Partial<WorkloadOptions>;
}

/** Entities replaced per frame in the churning workloads: 3% of them. */
export function heavyChurn(entities: number): number {
  return Math.ceil(0.03 * entities);
}

/** The id space of the sparse workloads: ids spread over [0, 10^6). */
export const SPARSE_ID_SPACE = 1_000_000;

export const RECORD_WORKLOADS: readonly RecordWorkload[] = [
  {
    name: 'current',
    label: `${DEFAULT_WORKLOAD_OPTIONS.churnPerFrame} spawn + ${DEFAULT_WORKLOAD_OPTIONS.churnPerFrame} despawn per frame (swap-remove), ids in [0, 8N), storage order`,
    options: () => ({}),
  },
  {
    name: 'churn',
    label: '3% of the entities replaced per frame (swap-remove)',
    options: (n) => ({ churnPerFrame: heavyChurn(n) }),
  },
  { name: 'sorted', label: 'the whole order re-sorted by y every frame', options: () => ({ order: 'sortY' }) },
  { name: 'sparse', label: 'ids spread over [0, 10^6)', options: () => ({ idSpace: SPARSE_ID_SPACE }) },
  {
    name: 'hostile',
    label: '3% replaced per frame, re-sorted by y, ids over [0, 10^6)',
    options: (n) => ({ churnPerFrame: heavyChurn(n), order: 'sortY', idSpace: SPARSE_ID_SPACE }),
  },
];

/**
 * The workloads named by `--workload` (all when `names` is empty), in the order above. Throws on an
 * unknown name.
 *
 * @example
 * selectWorkloads(['hostile']).map((w) => w.name); // ['hostile']
 */
export function selectWorkloads(names: readonly string[]): RecordWorkload[] {
  const wanted = names.map((n) => n.toLowerCase());
  for (const n of wanted) {
    if (!RECORD_WORKLOADS.some((w) => w.name === n)) {
      throw new Error(`unknown workload "${n}" (known: ${RECORD_WORKLOADS.map((w) => w.name).join(', ')})`);
    }
  }
  return RECORD_WORKLOADS.filter((w) => wanted.length === 0 || wanted.includes(w.name));
}

/** Plans of the workloads beyond `current` (fewer frames: five workloads, every peer). */
export const EXTRA_RECORD_PLANS: readonly RecordPlan[] = [
  { entities: 1000, warmFrames: 300, timedFrames: 600 },
  { entities: 10000, warmFrames: 100, timedFrames: 200 },
];

/** How to make each peer for a workload. */
export interface PeerFactory {
  name: string;
  role: PeerRole;
  create(maxFrames: number, world: Workload): RecordPeer;
}

/** Every peer, rewindable first. */
export const RECORD_PEERS: readonly PeerFactory[] = [
  { name: 'rewindable', role: 'subject', create: (m, w) => new RewindablePeer(m, w.options.entities) },
  {
    name: 'rewindable entity()',
    role: 'variant',
    create: (m, w) => new RewindablePeer(m, w.options.entities, undefined, { api: 'entity' }),
  },
  {
    name: 'rewindable columns JS',
    role: 'variant',
    create: (m, w) => new RewindablePeer(m, w.options.entities, undefined, { wasm: false }),
  },
  { name: 'TypedArray.set', role: 'bound', create: (m, w) => new TypedArrayPeer(m, w.capacity) },
  { name: 'JSON.stringify', role: 'library', create: (m) => new JsonPeer(m) },
  { name: 'structuredClone', role: 'library', create: (m) => new StructuredClonePeer(m) },
  { name: 'msgpackr', role: 'library', create: (m) => new MsgpackrPeer(m) },
  { name: 'bitecs SoA', role: 'library', create: (m, w) => new BitecsPeer(m, w.idSpace, w.capacity) },
  { name: 'geckos Vault', role: 'library', create: (m) => new GeckosVaultPeer(m) },
];

/**
 * The peers named by `--peers` (case-insensitive; `none` for rewindable alone), always with
 * rewindable first; all of them when `names` is empty. Throws on an unknown name.
 *
 * @example
 * selectPeers(['msgpackr']).map((p) => p.name); // ['rewindable', 'msgpackr']
 */
export function selectPeers(names: readonly string[]): PeerFactory[] {
  const wanted = names.map((n) => n.toLowerCase());
  const known = RECORD_PEERS.map((p) => p.name.toLowerCase());
  for (const n of wanted) {
    if (n !== 'none' && !known.includes(n)) {
      throw new Error(`unknown peer "${n}" (known: ${RECORD_PEERS.map((p) => p.name).join(', ')}, none)`);
    }
  }
  return RECORD_PEERS.filter(
    (p) => wanted.length === 0 || p.role === 'subject' || wanted.includes(p.name.toLowerCase()),
  );
}

/** What one peer measured at one size. */
export interface PeerResult {
  peer: string;
  /** The workload's name (`RECORD_WORKLOADS`). */
  workload: string;
  role: PeerRole;
  note: string;
  entities: number;
  timedFrames: number;
  /** Median frame, in ns per entity. */
  medianNs: number;
  /** 99th-percentile frame, in ns per entity. */
  p99Ns: number;
  /** Slowest frame, in ns per entity. */
  maxNs: number;
  framesHeld: number;
  /** Bytes of the stored form, or NaN when the peer keeps live objects. */
  storedBytes: number;
  /** Heap plus array buffers still reachable after a forced GC, minus the baseline. */
  retainedBytes: number;
  /** Stored bytes per entity per frame (retained bytes when there is no stored form). */
  bytesPerEntityFrame: number;
  /** Whether `bytesPerEntityFrame` is measured retained heap rather than stored bytes. */
  bytesFromHeap: boolean;
  maxQuatErrorDeg: number;
  /** Entity rotations compared with the input. */
  rotationsChecked: number;
  /** GC pauses that began inside the timed window (which also holds the untimed preparation). */
  gc: GcSummary;
  /** Wall time of the whole peer run (fill, timed, checks), in seconds. */
  wallSeconds: number;
  /** Machine-speed probe read just before the timed frames (`speedProbeMs`). */
  probeMs: number;
}

function heapAndBuffers(): number {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

/**
 * Runs one peer at one size: fill, timed frames, checks, sizes (see the top of this file). Throws
 * when the peer does not keep exactly `maxFrames` frames or gives back anything but its input.
 *
 * @example
 * const r = await runPeer(RECORD_PEERS[0], { entities: 1000, warmFrames: 900, timedFrames: 1200 }, context);
 * r.medianNs; // ns per entity per frame, median frame
 */
export async function runPeer(
  factory: PeerFactory,
  plan: RecordPlan,
  context: BenchContext,
  maxFrames = MAX_FRAMES,
  workload: RecordWorkload = RECORD_WORKLOADS[0],
): Promise<PeerResult> {
  const wall0 = performance.now();
  context.collectGarbage();
  const world = new Workload({ ...workload.options(plan.entities), entities: plan.entities, seed: SEED });
  const want = new DecodedFrame();
  const got = new DecodedFrame();
  const totalFrames = maxFrames + plan.warmFrames + plan.timedFrames;
  const last = totalFrames - 1;
  // The oldest, a middle and the newest frame still held at the end: their input is kept for the check.
  const sampleFrames = [last - maxFrames + 1, last - (maxFrames >> 1), last];
  const sampleInputs = sampleFrames.map(() => new DecodedFrame());
  const samples = new Float64Array(plan.timedFrames);
  context.collectGarbage();
  const base = heapAndBuffers();
  let peer: RecordPeer | null = factory.create(maxFrames, world);
  const checkEvery = factory.role === 'library' ? LIBRARY_CHECK_EVERY : 1;
  let maxDeg = 0;
  let rotationsChecked = 0;

  const captureSample = (): void => {
    const k = sampleFrames.indexOf(world.frame);
    if (k >= 0) sampleInputs[k].copyFrom(world);
  };

  // 1. Fill (and warm up).
  for (let f = 0; f < maxFrames; f++) {
    world.step();
    peer.prepare(world);
    captureSample();
    peer.record(world);
    if (f % checkEvery === 0 || f === maxFrames - 1) {
      want.copyFrom(world);
      if (!peer.decode(world.frame, got))
        throw new Error(`${peer.name}: frame ${world.frame} not held right after recording`);
      maxDeg = Math.max(maxDeg, verifyFrame(peer.name, world.frame, want, got));
      rotationsChecked += want.count;
    }
  }
  if (peer.framesHeld !== maxFrames)
    throw new Error(`${peer.name}: holds ${peer.framesHeld} frames after the fill, not ${maxFrames}`);

  // 2. Warm-up: the ring evicts on every frame (untimed).
  for (let k = 0; k < plan.warmFrames; k++) {
    world.step();
    peer.prepare(world);
    captureSample();
    peer.record(world);
  }

  // 3. Timed: the ring evicts on every frame.
  // Every peer waits for the machine's fast state before its timed frames (see BenchContext.settle).
  const probeMs = await context.settle(`${factory.name} ${workload.name} N=${plan.entities}`);
  const gc = new GcMonitor();
  gc.start();
  const t0 = performance.now();
  for (let k = 0; k < plan.timedFrames; k++) {
    world.step();
    peer.prepare(world);
    captureSample();
    const a = performance.now();
    peer.record(world);
    const b = performance.now();
    samples[k] = ((b - a) * 1e6) / world.count;
  }
  const t1 = performance.now();
  await gc.flush();
  const gcSummary = gc.summary(t0, t1);
  gc.stop();

  // 4. Check retention and content.
  if (peer.framesHeld !== maxFrames) throw new Error(`${peer.name}: holds ${peer.framesHeld} frames, not ${maxFrames}`);
  if (peer.decode(last - maxFrames, got))
    throw new Error(`${peer.name}: frame ${last - maxFrames} should have been evicted`);
  for (let k = 0; k < sampleFrames.length; k++) {
    if (!peer.decode(sampleFrames[k], got)) throw new Error(`${peer.name}: frame ${sampleFrames[k]} is not held`);
    maxDeg = Math.max(maxDeg, verifyFrame(peer.name, sampleFrames[k], sampleInputs[k], got));
    rotationsChecked += sampleInputs[k].count;
  }
  if (peer instanceof RewindablePeer && peer.warnings.length > 0) {
    throw new Error(`rewindable reported warnings on valid input: ${peer.warnings.join('; ')}`);
  }

  // 5. Size.
  const storedBytes = peer.storedBytes();
  context.collectGarbage();
  const retainedBytes = heapAndBuffers() - base + (peer.externalBytes?.() ?? 0);
  const perEntityFrames = maxFrames * plan.entities;
  const bytesFromHeap = !Number.isFinite(storedBytes);
  const result: PeerResult = {
    peer: peer.name,
    workload: workload.name,
    role: peer.role,
    note: peer.note,
    entities: plan.entities,
    timedFrames: plan.timedFrames,
    medianNs: median(samples, samples.length),
    p99Ns: percentile(samples, samples.length, 99),
    maxNs: percentile(samples, samples.length, 100),
    framesHeld: peer.framesHeld,
    storedBytes,
    retainedBytes,
    bytesPerEntityFrame: (bytesFromHeap ? retainedBytes : storedBytes) / perEntityFrames,
    bytesFromHeap,
    maxQuatErrorDeg: maxDeg,
    rotationsChecked,
    gc: gcSummary,
    wallSeconds: 0,
    probeMs,
  };
  peer.dispose();
  peer = null;
  context.collectGarbage();
  result.wallSeconds = (performance.now() - wall0) / 1000;
  return result;
}

/**
 * How many frames a `Recorder` with the default options (16 MiB arena, 900 frames) keeps of this
 * workload: below 900 means the default arena, not `maxFrames`, is the limit at this size.
 *
 * @example
 * defaultArenaFrames(1000); // 835 with 20 bytes an entity and an 88-byte header
 */
export function defaultArenaFrames(entities: number, frames = 1200): number {
  const world = new Workload({ entities, seed: SEED });
  const recorder = new Recorder({ onWarning: () => undefined });
  for (let f = 0; f < frames; f++) {
    world.step();
    recorder.beginFrame(world.time, world.dt);
    for (let i = 0; i < world.count; i++) {
      recorder.entity(
        world.ids[i],
        world.x[i],
        world.y[i],
        world.z[i],
        world.qx[i],
        world.qy[i],
        world.qz[i],
        world.qw[i],
        world.flags[i],
      );
    }
    recorder.endFrame();
  }
  return recorder.reader.frameCount;
}

const COLUMNS: readonly Column[] = [
  { header: 'peer', align: 'left' },
  { header: 'median ns/ent', align: 'right' },
  { header: 'p99 ns/ent', align: 'right' },
  { header: 'vs rewindable', align: 'right' },
  { header: 'B/ent/frame', align: 'right' },
  { header: 'vs rewindable', align: 'right' },
  { header: 'retained MB', align: 'right' },
  { header: 'GC ms (n/major)', align: 'right' },
  { header: 'max err °', align: 'right' },
  { header: 'probe ms', align: 'right' },
];

/**
 * The table of one size, ratios against rewindable (the `subject` row).
 *
 * @example
 * for (const line of tableFor(resultsAt1k)) context.log(line);
 */
export function tableFor(results: readonly PeerResult[]): string[] {
  const subject = results.find((r) => r.role === 'subject');
  const rows = results.map((r) => [
    r.role === 'bound' ? `${r.peer} (bound)` : r.role === 'variant' ? `  ${r.peer}` : r.peer,
    fixed(r.medianNs, 1),
    fixed(r.p99Ns, 1),
    subject ? ratio(r.medianNs / subject.medianNs) : '—',
    `${r.bytesFromHeap ? '~' : ''}${fixed(r.bytesPerEntityFrame, 1)}`,
    subject ? ratio(r.bytesPerEntityFrame / subject.bytesPerEntityFrame) : '—',
    fixed(r.retainedBytes / 1e6, 1),
    `${fixed(r.gc.totalMs, 0)} (${r.gc.count}/${r.gc.major})`,
    fixed(r.maxQuatErrorDeg, 3),
    fixed(r.probeMs, 2),
  ]);
  return formatTable(COLUMNS, rows);
}

function round(value: number, digits: number): number | null {
  if (!Number.isFinite(value)) return null;
  const p = 10 ** digits;
  return Math.round(value * p) / p;
}

/** Entities, and lives replaced per frame, of the spawn-plus-death measurement. */
export const SPAWN_DEATH_PLAN = { entities: 10000, churnPerFrame: 1000 } as const;

/** What `measureSpawnDeath` found. */
export interface SpawnDeathResult {
  /** The recorder on the same frames without churn, and with `churnPerFrame` lives replaced a frame. */
  still: PeerResult;
  churning: PeerResult;
  /** (churning − still) ns per frame / lives replaced per frame. */
  nsPerLife: number;
}

/**
 * Spawn plus death, per life, on its own: rewindable (columns) at 10,000 entities in storage order
 * with no churn, then with 1,000 of them replaced every frame (each one a `despawn`, a new life
 * with `describe`, and later the release of its handle when its last frame is evicted); the
 * difference per frame, divided by the lives replaced.
 *
 * @example
 * const { nsPerLife } = await measureSpawnDeath(context, plan);
 */
export async function measureSpawnDeath(
  context: BenchContext,
  plan: RecordPlan,
  maxFrames = MAX_FRAMES,
): Promise<SpawnDeathResult> {
  const n = plan.entities;
  const churn = Math.min(n, Math.round((SPAWN_DEATH_PLAN.churnPerFrame * n) / SPAWN_DEATH_PLAN.entities));
  const still: RecordWorkload = { name: 'still', label: 'no churn', options: () => ({ churnPerFrame: 0 }) };
  const churning: RecordWorkload = {
    name: 'lives',
    label: `${churn} lives a frame`,
    options: () => ({ churnPerFrame: churn }),
  };
  const a = await runPeer(RECORD_PEERS[0], plan, context, maxFrames, still);
  const b = await runPeer(RECORD_PEERS[0], plan, context, maxFrames, churning);
  return { still: a, churning: b, nsPerLife: churn > 0 ? ((b.medianNs - a.medianNs) * n) / churn : NaN };
}

/** Figure-name form of a workload and size: `Hostile10k`. */
function suffix(workload: string, entities: number): string {
  const size = entities % 1000 === 0 ? `${entities / 1000}k` : String(entities);
  return `${workload[0].toUpperCase()}${workload.slice(1)}${size}`;
}

/**
 * The record section: every peer on every workload at every planned size, the tables, the targets
 * of issues 2 and 17, and the figures `recordNsPerEntity1k`, `recordNsPerEntity10k`,
 * `bytesPerEntity`, `maxQuatErrorDeg`, `bestPeerRecordNsPerEntity1k`, the hostile workload's
 * `recordNsPerEntityHostile1k`/`10k`, `spawnDeathNsPerLife` (plus a few more) for the final JSON line.
 * `--workload a,b` runs only those workloads.
 *
 * @example
 * const { figures } = await recordSection.run(context);
 */
export const recordSection: BenchSection = {
  name: 'record',
  async run(context: BenchContext): Promise<SectionResult> {
    const factories = selectPeers(context.peers);
    const workloads = selectWorkloads(context.workloads ?? []);
    const all: PeerResult[] = [];
    context.log(`## record — a ${MAX_FRAMES}-frame ring, ns per entity per frame (only the record call is timed)`);
    for (const workload of workloads) {
      const current = workload.name === 'current';
      const plans = context.quick ? QUICK_RECORD_PLANS : current ? RECORD_PLANS : EXTRA_RECORD_PLANS;
      for (const plan of plans) {
        const results: PeerResult[] = [];
        for (const factory of factories) {
          const r = await runPeer(factory, plan, context, MAX_FRAMES, workload);
          results.push(r);
          all.push(r);
        }
        context.log('');
        context.log(
          `workload ${workload.name}: N = ${grouped(plan.entities)} entities (~30% asleep), ${workload.label}: ` +
            `${MAX_FRAMES} fill frames, ${plan.warmFrames} warm-up frames, then ${plan.timedFrames} timed frames, each evicting the oldest`,
        );
        for (const line of tableFor(results)) context.log(line);
      }
    }
    const lifePlan = context.quick
      ? { entities: 10000, warmFrames: 20, timedFrames: 40 }
      : { entities: SPAWN_DEATH_PLAN.entities, warmFrames: 100, timedFrames: 200 };
    const lives = workloads.some((w) => w.name === 'hostile') ? await measureSpawnDeath(context, lifePlan) : null;
    context.log('');
    if (lives) {
      context.log(
        `spawn + death per life (rewindable, N = ${grouped(lifePlan.entities)}, storage order): ` +
          `${fixed(lives.still.medianNs, 2)} ns/entity without churn, ${fixed(lives.churning.medianNs, 2)} ns/entity with ` +
          `${grouped(SPAWN_DEATH_PLAN.churnPerFrame)} lives replaced a frame: ${fixed(lives.nsPerLife, 1)} ns per life ` +
          `(probe ${fixed(lives.still.probeMs, 2)} / ${fixed(lives.churning.probeMs, 2)} ms)`,
      );
    }
    context.log('B/ent/frame: stored bytes / 900 frames / N ("~": no byte form, retained heap instead).');
    context.log('retained MB: heap + array buffers still reachable after a forced GC, 900 frames held.');
    context.log('GC: pauses that began in the timed window (n collections / major ones).');
    context.log(
      'probe ms: the machine-speed probe read just before the timed frames (higher: a slower machine state; see bench/lib/speedProbe.ts).',
    );
    for (const f of factories) {
      const r = all.find((x) => x.peer === f.name);
      if (r) context.log(`  ${r.peer}: ${r.note}`);
    }

    const at = (peer: string, n: number, workload = 'current'): PeerResult | undefined =>
      all.find((r) => r.peer === peer && r.entities === n && r.workload === workload);
    const best = (n: number, workload = 'current'): PeerResult | undefined =>
      all
        .filter((r) => r.role === 'library' && r.entities === n && r.workload === workload)
        .sort((a, b) => a.medianNs - b.medianNs)[0];
    const sizesOf = (w: string): number[] => [...new Set(all.filter((r) => r.workload === w).map((r) => r.entities))];
    const currentSizes = sizesOf('current');
    const small = currentSizes[0] ?? 1000;
    const large = currentSizes[currentSizes.length - 1] ?? 10000;
    const rw1 = at('rewindable', small);
    const rw10 = at('rewindable', large);
    const call1 = at('rewindable entity()', small);
    const call10 = at('rewindable entity()', large);
    const js1 = at('rewindable columns JS', small);
    const js10 = at('rewindable columns JS', large);
    const best1 = best(small);
    const best10 = best(large);
    const subjects = all.filter((r) => r.role === 'subject' || r.role === 'variant');
    const maxDeg = subjects.length > 0 ? Math.max(...subjects.map((r) => r.maxQuatErrorDeg)) : NaN;
    const ringMB = rw1 ? rw1.storedBytes / 1e6 : NaN;
    const defaultFrames = defaultArenaFrames(small);

    context.log('');
    context.log('targets (issue 2), this run:');
    const targetRows: string[][] = [];
    const check = (name: string, value: string, ok: boolean | null): void => {
      targetRows.push([name, value, ok === null ? 'n/a' : ok ? 'met' : 'MISSED']);
    };
    if (rw1 && rw10) {
      check(`record ≤ 15 ns/entity/frame median, N=${grouped(small)}`, fixed(rw1.medianNs, 2), rw1.medianNs <= 15);
      check(`record ≤ 15 ns/entity/frame median, N=${grouped(large)}`, fixed(rw10.medianNs, 2), rw10.medianNs <= 15);
      const speedup = best1 ? best1.medianNs / rw1.medianNs : NaN;
      check(
        `≥ 10× faster than the best library peer (${best1?.peer ?? 'none'}), N=${grouped(small)}`,
        ratio(speedup),
        best1 ? speedup >= 10 : null,
      );
      const speedup10 = best10 ? best10.medianNs / rw10.medianNs : NaN;
      check(
        `≥ 10× faster than the best library peer (${best10?.peer ?? 'none'}), N=${grouped(large)}`,
        ratio(speedup10),
        best10 ? speedup10 >= 10 : null,
      );
      check(
        '≤ 21 bytes/entity/frame stored',
        `${fixed(rw1.bytesPerEntityFrame, 2)} / ${fixed(rw10.bytesPerEntityFrame, 2)}`,
        rw1.bytesPerEntityFrame <= 21 && rw10.bytesPerEntityFrame <= 21,
      );
      check('max orientation error ≤ 0.27°', fixed(maxDeg, 4), maxDeg <= 0.27);
      check(`900-frame ring of ${grouped(small)} entities ≤ 19 MB`, `${fixed(ringMB, 2)} MB`, ringMB <= 19);
      // Not a target (the issue sets the 16 MiB default and the 19 MB bound for 900 frames of 1,000
      // entities, which need 18.1 MB): shown so that users see what the default holds.
      check(
        `frames a default Recorder (16 MiB arena) holds at N=${grouped(small)} (information)`,
        `${defaultFrames} frames`,
        null,
      );
    }
    for (const line of formatTable(
      [
        { header: 'target', align: 'left' },
        { header: 'measured', align: 'right' },
        { header: '', align: 'left' },
      ],
      targetRows,
    ))
      context.log(line);

    // Issue 17: every workload, every size.
    const rows17: string[][] = [];
    const check17 = (name: string, value: string, ok: boolean | null): void => {
      rows17.push([name, value, ok === null ? 'n/a' : ok ? 'met' : 'MISSED']);
    };
    const workloadFigures: BenchFigures = {};
    for (const w of workloads) {
      for (const n of sizesOf(w.name)) {
        const cols = at('rewindable', n, w.name);
        const call = at('rewindable entity()', n, w.name);
        const peer = best(n, w.name);
        const tag = `${w.name}, N=${grouped(n)}`;
        if (cols) {
          check17(`entityColumns ≤ 15 ns/entity median, ${tag}`, fixed(cols.medianNs, 2), cols.medianNs <= 15);
          // The machine's own p99 over median for a loop as long as the median frame, beside it.
          const jitter = machineJitter((cols.medianNs * n) / 1e6, cols.timedFrames, cols.bytesPerEntityFrame * n);
          check17(
            `p99 frame ≤ 3× median, ${tag}`,
            `${fixed(cols.p99Ns, 2)} (${ratio(cols.p99Ns / cols.medianNs)}; a fixed loop as long: ${ratio(jitter.ratio)})`,
            cols.p99Ns <= 3 * cols.medianNs,
          );
          if (peer)
            check17(
              `≥ 5× the best library peer (${peer.peer}), ${tag}`,
              ratio(peer.medianNs / cols.medianNs),
              peer.medianNs / cols.medianNs >= 5,
            );
          if (w.name !== 'current') workloadFigures[`recordNsPerEntity${suffix(w.name, n)}`] = round(cols.medianNs, 2);
        }
        if (call) {
          check17(`entity() ≤ 20 ns/entity median, ${tag}`, fixed(call.medianNs, 2), call.medianNs <= 20);
          if (w.name !== 'current')
            workloadFigures[`recordCallNsPerEntity${suffix(w.name, n)}`] = round(call.medianNs, 2);
        }
      }
    }
    if (lives) check17('spawn + death ≤ 150 ns per life', fixed(lives.nsPerLife, 1), lives.nsPerLife <= 150);
    if (rows17.length > 0) {
      context.log('');
      context.log('targets (issue 17), this run:');
      for (const line of formatTable(
        [
          { header: 'target', align: 'left' },
          { header: 'measured', align: 'right' },
          { header: '', align: 'left' },
        ],
        rows17,
      ))
        context.log(line);
    }

    const hostile1 = at('rewindable', 1000, 'hostile');
    const hostile10 = at('rewindable', 10000, 'hostile');
    const figures: BenchFigures = {
      recordNsPerEntity1k: round(rw1?.medianNs ?? NaN, 2),
      recordNsPerEntity10k: round(rw10?.medianNs ?? NaN, 2),
      bytesPerEntity: round(rw1?.bytesPerEntityFrame ?? NaN, 3),
      maxQuatErrorDeg: round(maxDeg, 4),
      bestPeerRecordNsPerEntity1k: round(best1?.medianNs ?? NaN, 2),
      bestPeer1k: best1?.peer ?? null,
      recordApi: 'entityColumns (WebAssembly SIMD kernel)',
      recordNsPerEntityCall1k: round(call1?.medianNs ?? NaN, 2),
      recordNsPerEntityCall10k: round(call10?.medianNs ?? NaN, 2),
      recordNsPerEntityJs1k: round(js1?.medianNs ?? NaN, 2),
      recordNsPerEntityJs10k: round(js10?.medianNs ?? NaN, 2),
      bestPeerRecordNsPerEntity10k: round(best10?.medianNs ?? NaN, 2),
      recordP99NsPerEntity1k: round(rw1?.p99Ns ?? NaN, 2),
      recordP99NsPerEntity10k: round(rw10?.p99Ns ?? NaN, 2),
      bytesPerEntity10k: round(rw10?.bytesPerEntityFrame ?? NaN, 3),
      ringMB900x1k: round(ringMB, 2),
      defaultArenaFrames1k: defaultFrames,
      recordNsPerEntityHostile1k: round(hostile1?.medianNs ?? NaN, 2),
      recordNsPerEntityHostile10k: round(hostile10?.medianNs ?? NaN, 2),
      recordCallNsPerEntityHostile10k: round(at('rewindable entity()', 10000, 'hostile')?.medianNs ?? NaN, 2),
      recordP99NsPerEntityHostile10k: round(hostile10?.p99Ns ?? NaN, 2),
      bestPeerRecordNsPerEntityHostile10k: round(best(10000, 'hostile')?.medianNs ?? NaN, 2),
      spawnDeathNsPerLife: round(lives?.nsPerLife ?? NaN, 1),
      ...workloadFigures,
    };
    return {
      figures,
      details: {
        maxFrames: MAX_FRAMES,
        seed: SEED,
        workloads: workloads.map((w) => ({ name: w.name, label: w.label })),
        results: all,
        spawnDeath: lives,
      },
    };
  },
};
