import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EntityBuffer } from '../../core/read/buffers';
import type { FrameReader } from '../../core/read/FrameReader';
import type { Recorder } from '../../core/record/Recorder';
import { loadReplay } from '../loadReplay';
import type { LoadedReplay } from '../loadReplay';
import type { ReplayCompression } from '../replayFormat';
import { saveReplay } from '../saveReplay';
import { frameWordsByLife } from './helpers';
import { applyCommand, commands, makeRecorder, recorderOptions } from './recordingCommands';
import type { Command } from './recordingCommands';

/**
 * The invariant of the recorder and the loader: whatever the recorder accepts, the saved file
 * loads, and every loaded frame equals the recorder's frame word for word (handles compared by the
 * life they name: a loader may renumber sparse handles). Random sequences of every public
 * recording call with adversarial values; fast-check shrinks a failure to a minimal sequence.
 *
 * `RWD_PROPERTY_RUNS` sets the number of sequences (`npm run test:property:long` runs a million);
 * `RWD_PROPERTY_SEED` replays a reported seed.
 */
const RUNS = Number(process.env.RWD_PROPERTY_RUNS ?? 10_000);
const SEED = process.env.RWD_PROPERTY_SEED === undefined ? undefined : Number(process.env.RWD_PROPERTY_SEED);

const ea = new EntityBuffer();
const eb = new EntityBuffer();

/** What differs between the recorder's frames and metadata and the loaded replay's, or null. */
function difference(rec: Recorder, replay: LoadedReplay): string | null {
  const a: FrameReader = rec.reader;
  const b = replay.reader;
  if (a.frameCount !== b.frameCount) return `${b.frameCount} frames loaded, ${a.frameCount} recorded`;
  if (a.frameCount > 0 && (a.oldestFrame !== b.oldestFrame || a.newestFrame !== b.newestFrame))
    return 'frame range differs';
  for (let f = a.oldestFrame; a.frameCount > 0 && f <= a.newestFrame; f++) {
    const wa = frameWordsByLife(a, f);
    const wb = frameWordsByLife(b, f);
    if (wa.length !== wb.length) return `frame ${f}: ${wb.length} words loaded, ${wa.length} recorded`;
    for (let i = 0; i < wa.length; i++)
      if (wa[i] !== wb[i]) return `frame ${f} word ${i}: loaded ${wb[i]}, recorded ${wa[i]}`;
    a.readEntities(f, ea, false);
    b.readEntities(f, eb, false);
    for (let i = 0; i < ea.count; i++) {
      const ha = ea.handles[i],
        hb = eb.handles[i];
      const ka = rec.entities.kindOf[ha],
        kb = replay.entities.kindOf[hb];
      const kindA = ka < 0 ? null : rec.entities.kinds[ka],
        kindB = kb < 0 ? null : replay.entities.kinds[kb];
      if (kindA !== kindB) return `frame ${f} entity ${i}: kind ${kindB} loaded, ${kindA} recorded`;
      if (rec.entities.labels[ha] !== replay.entities.labels[hb]) return `frame ${f} entity ${i}: label differs`;
      if (rec.entities.isEnded(ha) !== replay.entities.isEnded(hb)) return `frame ${f} entity ${i}: ended differs`;
    }
  }
  const same = (x: unknown, y: unknown): boolean => JSON.stringify(x) === JSON.stringify(y);
  if (!same(rec.entities.kinds, replay.entities.kinds)) return 'kinds differ';
  const skeletons = (s: Array<Int16Array | undefined>) =>
    rec.entities.kinds.map((_, k) => (s[k] === undefined ? null : Array.from(s[k])));
  if (!same(skeletons(rec.entities.skeletons), skeletons(replay.entities.skeletons))) return 'skeletons differ';
  if (!same(rec.eventKinds, replay.eventKinds)) return 'event kinds differ';
  if (!same(rec.textures, replay.textures)) return 'texture names differ';
  const schemas = (r: FrameReader) => r.fieldSchemas.list().map((sc) => [sc.kind, sc.fields, sc.enumNames]);
  if (!same(schemas(a), schemas(b))) return 'field schemas differ';
  if (!same(rec.channels.list(), replay.channels.list())) return 'channels differ';
  const layers = (l: ReturnType<Recorder['staticLayers']['list']>) =>
    l.map((x) => [x.name, x.primCount, Array.from(x.words)]);
  if (!same(layers(rec.staticLayers.list()), layers(replay.staticLayers.list()))) return 'static layers differ';
  return null;
}

/** Records the commands, saves, loads and compares; throws on the first broken promise. */
function check(options: Parameters<typeof makeRecorder>[0], commands: Command[], compression: ReplayCompression): void {
  const rec = makeRecorder(options);
  if (rec === null) return; // refused options: a RangeError at construction, nothing else to record
  for (const c of commands) {
    const problem = applyCommand(rec, c);
    if (problem !== null) throw new Error(problem);
  }
  const bytes = saveReplay(rec, { buildId: 'property', compression, savedAt: 'now' });
  const replay = loadReplay(bytes);
  const diff = difference(rec, replay);
  if (diff !== null) throw new Error(diff);
}

describe('whatever the recorder accepts, the saved file loads, frame for frame', () => {
  it(
    `${RUNS} random call sequences with adversarial values: no per-frame call throws, save and load succeed, every frame equal`,
    () => {
      let recorded = 0;
      fc.assert(
        fc.property(
          recorderOptions,
          commands,
          fc.constantFrom<ReplayCompression>('none', 'xor-delta'),
          (options, commands, compression) => {
            check(options, commands, compression);
            recorded++;
          },
        ),
        { numRuns: RUNS, seed: SEED },
      );
      expect(recorded).toBeGreaterThanOrEqual(RUNS);
    },
    Math.max(120_000, RUNS * 20),
  );
});
