/**
 * The entity inspector benchmark of issue 15, run inside headless Chromium with the overlay benchmark
 * (see `overlayBench.ts`): `EntityInspector.update` on a changed frame for one selected entity with
 * 10 custom fields (5 of them numeric, each with its graph; 2 enum and 2 boolean state strips; one
 * entity reference), the built-in state and its x and y graphs, over 900 recorded frames. The frame
 * is presented by the overlay first (untimed), as on a tick; the timed part is the inspector's update
 * followed by a forced style and layout of the panel (what the browser would otherwise do before
 * painting), so the DOM's cost is counted too.
 *
 * The custom fields are recorded with the recorder (`declareFields`, `fields`) and read through
 * `playback.fields`, as in a game.
 */
import { Container, type Application } from 'pixi.js';
import { Recorder } from '../../src/core/record/Recorder';
import { RewindOverlay } from '../../src/pixi/RewindOverlay';
import { EntityInspector } from '../../src/ui/inspector/EntityInspector';
import type { InspectorFieldInfo } from '../../src/ui/inspector/fieldSource';

/** What `runInspectorBench` measured (ms per changed frame; median and 95th percentile). */
export interface InspectorBenchResult {
  update: { median: number; p95: number };
  frames: number;
  fields: number;
  graphs: number;
  /** Updates that redrew something (every timed one must). */
  redraws: number;
}

const FIELDS: InspectorFieldInfo[] = [
  { name: 'health', type: 'f32', index: 0, components: 1 },
  { name: 'stamina', type: 'u8', index: 1, components: 1 },
  { name: 'ammo', type: 'i32', index: 2, components: 1 },
  { name: 'speed', type: 'f32', index: 3, components: 1 },
  { name: 'velocity', type: 'vec3', index: 4, components: 3 },
  { name: 'state', type: 'enum', index: 5, components: 1 },
  { name: 'mood', type: 'enum', index: 6, components: 1 },
  { name: 'grounded', type: 'bool', index: 7, components: 1 },
  { name: 'alert', type: 'bool', index: 8, components: 1 },
  { name: 'target', type: 'entity', index: 9, components: 1 },
];
const STATES = ['patrol', 'chase', 'attack', 'flee'];
/** Values per entity per frame: the fields' components (velocity has 3). */
const STRIDE = FIELDS.reduce((n, f) => n + f.components, 0);

function stats(xs: number[]): { median: number; p95: number } {
  const s = [...xs].sort((a, b) => a - b);
  const at = (p: number): number => s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))];
  return { median: at(0.5), p95: at(0.95) };
}

/**
 * Records 900 frames of 50 entities with 10 custom fields each, shows them in a paused overlay with
 * an inspector on entity 1, and times `inspector.update()` (plus a forced layout) on changed frames.
 */
export async function runInspectorBench(
  app: Application,
  iterations: number,
  warmup: number,
): Promise<InspectorBenchResult> {
  const frames = 900;
  const entities = 50;
  const world = new Container();
  app.stage.addChild(world);
  const rec = new Recorder({ maxFrames: frames, onWarning: () => undefined });
  for (let i = 1; i <= entities; i++) rec.describe(i, 'agent', `agent ${i}`);
  const schema = rec.declareFields('agent', {
    health: 'f32',
    stamina: 'u8',
    ammo: 'i32',
    speed: 'f32',
    velocity: 'vec3',
    state: 'enum',
    mood: 'enum',
    grounded: 'bool',
    alert: 'bool',
    target: 'entity',
  });
  const stateCodes = STATES.map((name) => schema.code(name));
  const values = new Float64Array(STRIDE);
  for (let f = 0; f < frames; f++) {
    rec.beginFrame(f / 60, 1 / 60);
    for (let i = 1; i <= entities; i++) {
      const a = f * 0.02 + i;
      rec.entity(i, 400 + Math.cos(a) * 100, 300 + Math.sin(a) * 80, 0, 0, 0, Math.sin(a / 2), Math.cos(a / 2), 0);
      const v = 0;
      values[v] = 100 - ((f * 0.1 + i) % 100); // health
      values[v + 1] = (f + i * 7) % 256; // stamina
      values[v + 2] = 30 - (Math.floor(f / 20) % 30); // ammo
      values[v + 3] = Math.abs(Math.sin(a)) * 5; // speed
      values[v + 4] = -Math.sin(a) * 100; // velocity
      values[v + 5] = Math.cos(a) * 80;
      values[v + 6] = 0;
      values[v + 7] = stateCodes[Math.floor((f + i * 13) / 60) % 4]; // state
      values[v + 8] = stateCodes[Math.floor((f + i) / 90) % 3]; // mood
      values[v + 9] = (f >> 3) & 1; // grounded
      values[v + 10] = (f + i) % 200 < 50 ? 1 : 0; // alert
      values[v + 11] = ((i + Math.floor(f / 100)) % entities) + 1; // target
      rec.fields(i, schema, values);
    }
    rec.endFrame();
  }
  const overlay = new RewindOverlay(app, world, { find: () => null }, rec, {
    keyboard: false,
    onWarning: () => undefined,
  });
  // The inspector opens over the paused view, a chunk loaded after the overlay is built.
  await overlay.ready;
  const inspector = new EntityInspector(overlay, { helpLine: '' });
  overlay.pause();
  const pb = overlay.playback;
  let handle = -1;
  pb.lifetimes.forEach((h) => {
    if (pb.lifetimes.id(h) === 1) handle = h;
  });
  pb.time.seek(100);
  overlay.update(0);
  overlay.select(handle);
  overlay.update(0);
  inspector.update();
  const graphs = inspector.root.querySelectorAll('.rw-card .rw-graph-row:not([hidden]) [data-graph]').length;
  const times: number[] = [];
  const before = inspector.updateCount;
  for (let k = -warmup; k < iterations; k++) {
    // A changed frame: every value and playhead moves (frames 101..612, never the one before).
    pb.time.seek(101 + ((k + warmup) % 512));
    overlay.update(0);
    const t0 = performance.now();
    inspector.update();
    inspector.root.getBoundingClientRect(); // style and layout now, inside the timing
    const t1 = performance.now();
    if (k >= 0) times.push(t1 - t0);
  }
  const redraws = inspector.updateCount - before;
  inspector.destroy();
  overlay.destroy();
  world.destroy({ children: true });
  return { update: stats(times), frames: rec.reader.frameCount, fields: FIELDS.length, graphs, redraws };
}
