import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { FieldSchema } from '../../src/core/fields/FieldSchema';
import { HANDLE_MASK, HEADER_WORDS } from '../../src/core/format/layout';
import { Playback } from '../../src/core/playback/Playback';
import { Recorder } from '../../src/core/record/Recorder';
import { loadReplay, saveReplay } from '../../src/replay/index';
import type { BenchContext, BenchSection, SectionResult } from '../lib/BenchSection';
import { median } from '../lib/stats';
import { fixed, formatTable, grouped, type Column } from '../lib/table';
import { Workload } from '../Workload';

/**
 * The fields section (issue 15): the cost of recording custom fields, 1,000 entities × 8 fields
 * (f32, i32, u8, bool, enum, entity, vec3, f32), through the columns form (`fieldColumns`) and the
 * per-entity call (`fields`), and a series query over 900 frames.
 *
 * Recording cost is a difference, in steady state (every arena page touched before timing): each
 * frame of the workload is recorded by four recorders, timed
 * one after the other: entities only and entities + fields, through `entityColumns` +
 * `fieldColumns`, and through `entity()` + `fields()` per entity. The cost of fields is the
 * median frame time with fields minus the median without, over 8,000 values (endFrame's writing
 * of the field section included). The columns are the game's own typed arrays (filled before the
 * timed part, as a game's storage already holds them); the per-entity call fills its row of
 * values per entity inside the timed part (the call needs it).
 *
 * The series query reads one f32 field of one life (the entity at index 500) over the 900 held
 * frames into a caller buffer; checked against `valueAt` frame by frame. The recording with fields
 * is saved to `bench/out/bench.rwd` (fields on every entity) and loaded back, its series compared.
 */

const ENTITIES = 1000;
const FIELDS = 8;
const SEED = 0x2e3a1d;
/** Targets of issue 15. */
export const FIELD_COLUMNS_TARGET_NS = 3;
export const FIELD_CALL_TARGET_NS = 10;
export const FIELD_SERIES_TARGET_MS = 0.2;

const SPEC = {
  health: 'f32',
  ammo: 'i32',
  stamina: 'u8',
  grounded: 'bool',
  state: 'enum',
  target: 'entity',
  velocity: 'vec3',
  mass: 'f32',
} as const;

const COLUMNS: Column[] = [
  { header: 'what', align: 'left' },
  { header: 'median ms/frame', align: 'right' },
  { header: 'ns per field per entity', align: 'right' },
  { header: 'target', align: 'right' },
];

/** One recorder of the comparison. */
interface Lane {
  readonly recorder: Recorder;
  readonly schema: FieldSchema;
  readonly times: Float64Array;
}

function lane(frames: number, arenaBytes: number): Lane {
  const recorder = new Recorder({
    maxFrames: frames,
    arenaBytes,
    maxEntitiesPerFrame: 16384,
    onWarning: (m) => {
      throw new Error(`fields bench: recorder warning: ${m}`);
    },
  });
  const schema = recorder.declareFields('unit', SPEC);
  for (const s of ['idle', 'patrol', 'chase']) schema.code(s);
  // Every arena page touched once before timing, as after the first lap of a recording: the
  // operating system maps a fresh page on its first write, and the 1,500 frames here never wrap
  // these arenas, so without this every frame would also pay for mapping its bytes (a once-per-page
  // cost of the first lap, larger for the lanes with fields; see docs/performance.md).
  recorder.ring.u32.fill(0);
  return { recorder, schema, times: new Float64Array(frames) };
}

/** The workload's field columns, refreshed before each frame (the game's own storage). */
class FieldColumns {
  public readonly health = new Float32Array(ENTITIES * 2);
  public readonly ammo = new Int32Array(ENTITIES * 2);
  public readonly stamina = new Uint8Array(ENTITIES * 2);
  public readonly grounded = new Uint8Array(ENTITIES * 2);
  public readonly state = new Uint8Array(ENTITIES * 2);
  public readonly target = new Int32Array(ENTITIES * 2);
  public readonly velocity = new Float32Array(ENTITIES * 6);
  public readonly mass = new Float32Array(ENTITIES * 2);
  public readonly list = [
    this.health,
    this.ammo,
    this.stamina,
    this.grounded,
    this.state,
    this.target,
    this.velocity,
    this.mass,
  ];

  public fill(w: Workload): void {
    const n = w.count;
    for (let i = 0; i < n; i++) {
      const id = w.ids[i];
      this.health[i] = w.x[i] * 0.5;
      this.ammo[i] = (w.frame * 7 + id) | 0;
      this.stamina[i] = (w.frame + id) & 255;
      this.grounded[i] = w.asleep[i];
      this.state[i] = id % 3;
      this.target[i] = w.ids[(i + 1) % n];
      this.velocity[i * 3] = w.x[i];
      this.velocity[i * 3 + 1] = w.y[i];
      this.velocity[i * 3 + 2] = w.z[i];
      this.mass[i] = w.y[i];
    }
  }
}

function begin(r: Recorder, w: Workload): void {
  r.beginFrame(w.time, w.dt);
  for (let i = 0; i < w.despawnedCount; i++) r.despawn(w.despawned[i]);
}

function finish(r: Recorder, w: Workload): void {
  for (let i = 0; i < w.spawnedCount; i++) r.describe(w.spawned[i], 'unit');
  r.endFrame();
}

function entitiesOneByOne(r: Recorder, w: Workload): void {
  const n = w.count;
  for (let i = 0; i < n; i++)
    r.entity(w.ids[i], w.x[i], w.y[i], w.z[i], w.qx[i], w.qy[i], w.qz[i], w.qw[i], w.flags[i]);
}

/**
 * Records `frames` frames into the four lanes (after `warmup` untimed ones); returns them and the
 * columns recorder (fields through `fieldColumns`), whose ring holds the last `frames` frames.
 */
function recordLanes(frames: number, warmup: number) {
  const world = new Workload({ entities: ENTITIES, seed: SEED });
  const cols = new FieldColumns();
  const base = lane(frames, 40 << 20);
  const withCols = lane(frames, 80 << 20);
  const baseCall = lane(frames, 40 << 20);
  const withCall = lane(frames, 80 << 20);
  const entityCols = {
    ids: world.ids,
    x: world.x,
    y: world.y,
    z: world.z,
    qx: world.qx,
    qy: world.qy,
    qz: world.qz,
    qw: world.qw,
    flags: world.flags,
  };
  const values = new Float64Array(withCall.schema.slots);
  for (let f = 0; f < warmup + frames; f++) {
    world.step();
    cols.fill(world);
    const q = f - warmup;
    let t = performance.now();
    begin(base.recorder, world);
    base.recorder.entityColumns(world.count, entityCols);
    finish(base.recorder, world);
    let t2 = performance.now();
    if (q >= 0) base.times[q] = t2 - t;

    t = performance.now();
    begin(withCols.recorder, world);
    withCols.recorder.entityColumns(world.count, entityCols);
    withCols.recorder.fieldColumns(withCols.schema, world.count, world.ids, cols.list);
    finish(withCols.recorder, world);
    t2 = performance.now();
    if (q >= 0) withCols.times[q] = t2 - t;

    t = performance.now();
    begin(baseCall.recorder, world);
    entitiesOneByOne(baseCall.recorder, world);
    finish(baseCall.recorder, world);
    t2 = performance.now();
    if (q >= 0) baseCall.times[q] = t2 - t;

    t = performance.now();
    const r = withCall.recorder;
    const schema = withCall.schema;
    begin(r, world);
    const n = world.count;
    for (let i = 0; i < n; i++) {
      const id = world.ids[i];
      r.entity(
        id,
        world.x[i],
        world.y[i],
        world.z[i],
        world.qx[i],
        world.qy[i],
        world.qz[i],
        world.qw[i],
        world.flags[i],
      );
      values[0] = cols.health[i];
      values[1] = cols.ammo[i];
      values[2] = cols.stamina[i];
      values[3] = cols.grounded[i];
      values[4] = cols.state[i];
      values[5] = cols.target[i];
      values[6] = cols.velocity[i * 3];
      values[7] = cols.velocity[i * 3 + 1];
      values[8] = cols.velocity[i * 3 + 2];
      values[9] = cols.mass[i];
      r.fields(id, schema, values);
    }
    finish(r, world);
    t2 = performance.now();
    if (q >= 0) withCall.times[q] = t2 - t;
  }
  return { base, withCols, baseCall, withCall };
}

/** The handle of the life at entity index `index` of the newest frame. */
function lifeAt(r: Recorder, index: number): number {
  const u = r.ring.u32;
  const at = r.ring.offsetOf(r.reader.newestFrame);
  return u[at + HEADER_WORDS + index] & HANDLE_MASK;
}

/** Median ms of `runs` series queries of field 0 of `handle` over the held frames; checks the result. */
function measureSeries(r: Recorder['reader'], handle: number, runs: number): { ms: number; frames: number } {
  const pb = new Playback(r);
  const from = r.oldestFrame;
  const to = r.newestFrame;
  const out = new Float64Array(to - from + 1);
  const one = new Float64Array(3);
  const n = pb.fields.series(handle, 0, from, to, out);
  for (let q = 0; q < n; q++) {
    const how = pb.fields.valueAt(handle, 0, from + q, one);
    const expected = how === 0 ? Number.NaN : one[0];
    if (!Object.is(out[q], expected)) throw new Error(`fields bench: series differs from valueAt at frame ${from + q}`);
  }
  const times = new Float64Array(runs);
  for (let k = 0; k < runs; k++) {
    const t = performance.now();
    pb.fields.series(handle, 0, from, to, out);
    times[k] = performance.now() - t;
  }
  return { ms: median(times, runs), frames: n };
}

/**
 * The fields section: `fieldRecordNsPerField1k` (columns form), `fieldRecordCallNsPerField1k`
 * (per-entity call) and `fieldSeriesMs900`. Writes `bench/out/bench.rwd`.
 *
 * @example
 * const { figures } = await fieldsSection.run(context);
 */
export const fieldsSection: BenchSection = {
  name: 'fields',
  async run(context: BenchContext): Promise<SectionResult> {
    const frames = 900;
    const warmup = context.quick ? 100 : 600;
    context.log(
      `## fields — recording ${FIELDS} custom fields on ${grouped(ENTITIES)} entities, and a series query over ${frames} frames`,
    );
    await context.settle('fields record');
    const { base, withCols, baseCall, withCall } = recordLanes(frames, warmup);
    const m = (l: Lane) => median(l.times, frames);
    const perValue = ENTITIES * FIELDS;
    const colsNs = ((m(withCols) - m(base)) * 1e6) / perValue;
    const callNs = ((m(withCall) - m(baseCall)) * 1e6) / perValue;
    const rows = [
      ['entityColumns', fixed(m(base), 4), '', ''],
      ['entityColumns + fieldColumns', fixed(m(withCols), 4), fixed(colsNs, 2), `≤ ${FIELD_COLUMNS_TARGET_NS}`],
      ['entity() per entity', fixed(m(baseCall), 4), '', ''],
      ['entity() + fields() per entity', fixed(m(withCall), 4), fixed(callNs, 2), `≤ ${FIELD_CALL_TARGET_NS}`],
    ];
    for (const line of formatTable(COLUMNS, rows)) context.log(line);

    await context.settle('fields series');
    const reader = withCols.recorder.reader;
    const handle = lifeAt(withCols.recorder, 500);
    const series = measureSeries(reader, handle, context.quick ? 50 : 400);
    context.log('');
    context.log(
      `series: field 0 of the life at entity index 500 over ${series.frames} frames: ${fixed(series.ms, 4)} ms (target ≤ ${FIELD_SERIES_TARGET_MS}); equal to valueAt frame by frame`,
    );

    // The file: every entity carries its 8 fields.
    const bytes = saveReplay(withCols.recorder, { buildId: 'bench', note: 'rewindable bench: 900 frames, fields' });
    writeFileSync(join(context.outDir, 'bench.rwd'), bytes);
    const loaded = loadReplay(bytes);
    const fromFile = measureSeries(loaded.reader, handle, 3);
    const a = new Float64Array(frames);
    const b = new Float64Array(frames);
    new Playback(reader).fields.series(handle, 0, reader.oldestFrame, reader.newestFrame, a);
    new Playback(loaded.reader).fields.series(handle, 0, reader.oldestFrame, reader.newestFrame, b);
    for (let q = 0; q < frames; q++)
      if (!Object.is(a[q], b[q])) throw new Error('fields bench: the saved file differs');
    const ringBytes = withCols.recorder.ring.bytesUsed;
    const baseBytes = base.recorder.ring.bytesUsed;
    const fieldBytesPerEntity = (ringBytes - baseBytes) / frames / ENTITIES;
    context.log(
      `stored: ${fixed(fieldBytesPerEntity, 2)} bytes of fields per entity per frame (the values take 30.125 at their types' sizes); ` +
        `file bench/out/bench.rwd: ${grouped(bytes.length)} bytes, fields on every entity (series from the file: ${fromFile.frames} frames, equal)`,
    );
    for (const l of [base, withCols, baseCall, withCall]) l.recorder.clear();
    context.log('');
    return {
      figures: {
        fieldRecordNsPerField1k: Number(fixed(colsNs, 2)),
        fieldRecordCallNsPerField1k: Number(fixed(callNs, 2)),
        fieldSeriesMs900: Number(fixed(series.ms, 4)),
        fieldBytesPerEntityFrame: Number(fixed(fieldBytesPerEntity, 2)),
      },
      details: {
        medianMs: { base: m(base), withColumns: m(withCols), baseCall: m(baseCall), withCall: m(withCall) },
        seriesMs: series.ms,
        fileBytes: bytes.length,
      },
    };
  },
};
