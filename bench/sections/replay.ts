import { performance } from 'node:perf_hooks';
import { H_TOTAL_WORDS } from '../../src/core/format/layout';
import type { FrameReader } from '../../src/core/read/FrameReader';
import { loadReplay, saveReplay, type LoadedReplay, type ReplayCompression } from '../../src/replay/index';
import type { BenchContext, BenchFigures, BenchSection, SectionResult } from '../lib/BenchSection';
import { median } from '../lib/stats';
import { fixed, formatTable, grouped, ratio, type Column } from '../lib/table';
import { RewindablePeer } from '../peers/RewindablePeer';
import { Workload } from '../Workload';

/**
 * The replay section: saving the whole ring to a `.rwd` file (`saveReplay`) and loading it back
 * (`loadReplay`), for 900 frames of the record workload at 1,000 entities, with the default codec
 * (`none`: the ring's words copied as binary blocks) and the optional `xor-delta` codec.
 *
 * The recorder gets a 32 MiB arena, so all 900 frames are held (the default 16 MiB holds 835 at
 * this size). Each operation runs twice untimed (warm-up), then `runs` times, each after a forced
 * GC; the figure is the median. Every file is loaded and checked against the recording: the same
 * frames, each frame's words identical, the same id and spawn frame for every handle.
 */

/** Frames and entities of the replay (issue 6: 900 frames × 1,000 entities). */
export const REPLAY_FRAMES = 900;
export const REPLAY_ENTITIES = 1000;
/** Arena of the recorder: larger than the 18 MB the frames need, so none is evicted. */
export const REPLAY_ARENA_BYTES = 32 * 1024 * 1024;
const SEED = 0x2e3a1d;
/** Targets of issue 6. */
export const SAVE_TARGET_MS = 100;
export const LOAD_TARGET_MS = 100;
export const FILE_RATIO_TARGET = 1.05;

/** What one codec measured. */
export interface CodecResult {
  codec: ReplayCompression;
  fileBytes: number;
  /** File bytes / ring bytes used. */
  fileToRing: number;
  /** File bytes / 900 / 1,000. */
  fileBytesPerEntityFrame: number;
  saveMs: number;
  loadMs: number;
  saveRunsMs: number[];
  loadRunsMs: number[];
  /** Frames checked word for word after loading. */
  framesChecked: number;
  /** Machine-speed probe read just before the timed runs (`speedProbeMs`). */
  probeMs: number;
}

/**
 * Records `frames` frames of `entities` workload entities into a `Recorder` whose arena holds them
 * all. Returns the peer (its `recorder` is the source to save).
 *
 * @example
 * const peer = recordReplaySource(900, 1000);
 * saveReplay(peer.recorder, { buildId: 'bench' });
 */
export function recordReplaySource(frames: number, entities: number, arenaBytes = REPLAY_ARENA_BYTES): RewindablePeer {
  const world = new Workload({ entities, seed: SEED });
  const peer = new RewindablePeer(frames, entities, arenaBytes);
  for (let f = 0; f < frames; f++) {
    world.step();
    peer.record(world);
  }
  if (peer.framesHeld !== frames) throw new Error(`replay source: holds ${peer.framesHeld} frames, expected ${frames}`);
  if (peer.warnings.length > 0) throw new Error(`replay source: recorder warnings: ${peer.warnings.join('; ')}`);
  return peer;
}

/**
 * Checks that a loaded replay holds exactly the source's frames: the same frame numbers, every
 * frame's words identical (handles included, which the loader keeps), and the same id and spawn
 * frame for every handle the frames use. Throws naming the first difference; returns the frames
 * checked.
 *
 * @example
 * checkRoundTrip(recorder.reader, loadReplay(bytes).reader);
 */
export function checkRoundTrip(source: FrameReader, loaded: FrameReader): number {
  if (loaded.frameCount !== source.frameCount || loaded.oldestFrame !== source.oldestFrame) {
    throw new Error(
      `replay: loaded ${loaded.frameCount} frames from ${loaded.oldestFrame}, saved ${source.frameCount} from ${source.oldestFrame}`,
    );
  }
  const a = source.ring;
  const b = loaded.ring;
  for (let f = source.oldestFrame; f <= source.newestFrame; f++) {
    const oa = a.offsetOf(f);
    const ob = b.offsetOf(f);
    const words = a.u32[oa + H_TOTAL_WORDS];
    if (b.u32[ob + H_TOTAL_WORDS] !== words)
      throw new Error(`replay: frame ${f} has ${b.u32[ob + H_TOTAL_WORDS]} words, saved ${words}`);
    for (let i = 0; i < words; i++) {
      if (a.u32[oa + i] !== b.u32[ob + i]) throw new Error(`replay: frame ${f} differs at word ${i}`);
    }
  }
  const ea = source.entities;
  const eb = loaded.entities;
  for (let h = 0; h < ea.highWater; h++) {
    if (ea.used[h] !== 1 || ea.spawnFrames[h] > source.newestFrame || ea.lastFrame(h) < source.oldestFrame) continue;
    if (eb.ids[h] !== ea.ids[h] || eb.spawnFrames[h] !== ea.spawnFrames[h]) {
      throw new Error(
        `replay: handle ${h} is id ${eb.ids[h]} spawned at ${eb.spawnFrames[h]}, saved ${ea.ids[h]} at ${ea.spawnFrames[h]}`,
      );
    }
  }
  return source.frameCount;
}

function timeRuns<T>(runs: number, context: BenchContext, body: () => T): { ms: number[]; last: T } {
  let last = body();
  last = body();
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    context.collectGarbage();
    const t0 = performance.now();
    last = body();
    ms.push(performance.now() - t0);
  }
  return { ms, last };
}

/**
 * Saves and loads `source` with one codec, `runs` timed runs each (after two warm-up runs), and
 * checks the loaded replay. Returns the measurements and the last file written.
 *
 * @example
 * const { result, bytes } = measureCodec(peer, 'none', 9, context);
 */
export function measureCodec(
  source: RewindablePeer,
  codec: ReplayCompression,
  runs: number,
  context: BenchContext,
): { result: CodecResult; bytes: Uint8Array } {
  const recorder = source.recorder;
  const probeMs = context.probe(`save/load ${codec}`);
  const save = timeRuns(runs, context, () =>
    saveReplay(recorder, { buildId: 'bench', compression: codec, platform: 'bench' }),
  );
  const bytes = save.last;
  const load = timeRuns(runs, context, (): LoadedReplay => loadReplay(bytes, { expectedBuildId: 'bench' }));
  const loaded = load.last;
  if (loaded.warnings.length > 0)
    throw new Error(`replay: warnings on load: ${loaded.warnings.map((w) => w.message).join('; ')}`);
  if (loaded.compression !== codec || loaded.fileBytes !== bytes.length)
    throw new Error('replay: loaded codec or size differs');
  const framesChecked = checkRoundTrip(recorder.reader, loaded.reader);
  const ringBytes = recorder.ring.bytesUsed;
  const entityFrames = recorder.reader.frameCount * REPLAY_ENTITIES;
  return {
    bytes,
    result: {
      codec,
      fileBytes: bytes.length,
      fileToRing: bytes.length / ringBytes,
      fileBytesPerEntityFrame: bytes.length / entityFrames,
      saveMs: median(save.ms, save.ms.length),
      loadMs: median(load.ms, load.ms.length),
      saveRunsMs: save.ms,
      loadRunsMs: load.ms,
      framesChecked,
      probeMs,
    },
  };
}

function round(value: number, digits: number): number | null {
  if (!Number.isFinite(value)) return null;
  const p = 10 ** digits;
  return Math.round(value * p) / p;
}

const COLUMNS: readonly Column[] = [
  { header: 'codec', align: 'left' },
  { header: 'save ms', align: 'right' },
  { header: 'load ms', align: 'right' },
  { header: 'file MB', align: 'right' },
  { header: 'file / ring', align: 'right' },
  { header: 'B/ent/frame', align: 'right' },
  { header: 'save runs ms (min–max)', align: 'right' },
  { header: 'load runs ms (min–max)', align: 'right' },
  { header: 'probe ms', align: 'right' },
];

/**
 * The replay section: the figures `saveMs`, `loadMs`, `fileBytesPerEntityFrame`, `fileToRingRatio`
 * (default codec), and `xorDeltaRatio` (xor-delta file / default file), `xorDeltaSaveMs`,
 * `xorDeltaLoadMs`. (`bench/out/bench.rwd`, the same workload with custom fields, is written by the fields section.)
 *
 * @example
 * const { figures } = await replaySection.run(context);
 */
export const replaySection: BenchSection = {
  name: 'replay',
  async run(context: BenchContext): Promise<SectionResult> {
    const runs = context.quick ? 3 : 9;
    context.log(
      `## replay — save and load of ${REPLAY_FRAMES} frames × ${grouped(REPLAY_ENTITIES)} entities (median of ${runs} warm runs)`,
    );
    const source = recordReplaySource(REPLAY_FRAMES, REPLAY_ENTITIES);
    const ringBytes = source.recorder.ring.bytesUsed;
    const plain = measureCodec(source, 'none', runs, context);
    const xor = measureCodec(source, 'xor-delta', runs, context);
    source.dispose();
    const results = [plain.result, xor.result];
    context.log('');
    context.log(`ring: ${grouped(ringBytes)} bytes used (${fixed(ringBytes / 1e6, 2)} MB)`);
    const rows = results.map((r) => [
      r.codec,
      fixed(r.saveMs, 1),
      fixed(r.loadMs, 1),
      fixed(r.fileBytes / 1e6, 2),
      fixed(r.fileToRing, 4),
      fixed(r.fileBytesPerEntityFrame, 2),
      `${fixed(Math.min(...r.saveRunsMs), 1)}–${fixed(Math.max(...r.saveRunsMs), 1)}`,
      `${fixed(Math.min(...r.loadRunsMs), 1)}–${fixed(Math.max(...r.loadRunsMs), 1)}`,
      fixed(r.probeMs, 2),
    ]);
    for (const line of formatTable(COLUMNS, rows)) context.log(line);
    const xorRatio = xor.result.fileBytes / plain.result.fileBytes;
    context.log('');
    context.log(
      `xor-delta: ${ratio(xorRatio)} the size of the default file (${fixed((1 - xorRatio) * 100, 1)}% smaller), ` +
        `save ${ratio(xor.result.saveMs / plain.result.saveMs)} and load ${ratio(xor.result.loadMs / plain.result.loadMs)} the default's time.`,
    );
    context.log(
      "Every loaded file was checked: same frames, every frame's words identical, same id and spawn frame per handle.",
    );
    context.log('');
    context.log('targets (issue 6), this run:');
    const p = plain.result;
    const targetRows = [
      [`save ≤ ${SAVE_TARGET_MS} ms`, fixed(p.saveMs, 1), p.saveMs <= SAVE_TARGET_MS ? 'met' : 'MISSED'],
      [`load ≤ ${LOAD_TARGET_MS} ms`, fixed(p.loadMs, 1), p.loadMs <= LOAD_TARGET_MS ? 'met' : 'MISSED'],
      [
        `file ≤ ${FILE_RATIO_TARGET}× the ring's bytes`,
        `${fixed(p.fileToRing, 4)}×`,
        p.fileToRing <= FILE_RATIO_TARGET ? 'met' : 'MISSED',
      ],
    ];
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
      saveMs: round(p.saveMs, 2),
      loadMs: round(p.loadMs, 2),
      fileBytesPerEntityFrame: round(p.fileBytesPerEntityFrame, 3),
      fileToRingRatio: round(p.fileToRing, 4),
      xorDeltaRatio: round(xorRatio, 4),
      xorDeltaSaveMs: round(xor.result.saveMs, 2),
      xorDeltaLoadMs: round(xor.result.loadMs, 2),
    };
    return {
      figures,
      details: {
        frames: REPLAY_FRAMES,
        entities: REPLAY_ENTITIES,
        arenaBytes: REPLAY_ARENA_BYTES,
        ringBytes,
        runs,
        results,
      },
    };
  },
};
