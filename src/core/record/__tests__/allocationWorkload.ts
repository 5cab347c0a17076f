import { Channel } from '../../store/ChannelRegistry';
import { Recorder } from '../Recorder';

/** A recorder and one frame of game calls that exercises every record path, for allocation tests. */
export interface AllocationWorkload {
  recorder: Recorder;
  /** Records one frame: entities five ways, display state, custom fields (per entity and columns), bones, despawn, descriptions, debug draw, an event. */
  frame(): void;
  /** How many frames `frame` recorded. */
  frames(): number;
}

/**
 * The allocation tests' workload, shared by Recorder.alloc.test.ts and the child process it runs
 * (allocationProbe.ts). Arguments are integers or come through arrays: a double passed to a call
 * V8 does not inline is boxed by the *caller*, which is the game's code, not the recorder's.
 *
 * @example
 * const w = allocationWorkload();
 * for (let i = 0; i < 20_000; i++) w.frame(); // warm up
 */
export function allocationWorkload(): AllocationWorkload {
  const r = new Recorder({ maxFrames: 300, arenaBytes: 4 << 20, onWarning: () => {} });
  const rot = new Float32Array(12 * 4);
  const off = new Float32Array(12 * 3);
  for (let b = 0; b < 12; b++) rot[b * 4 + 3] = 1;
  const N = 40;
  const ids = new Int32Array(N);
  const pos = new Float32Array(N * 3);
  const rots = new Float32Array(N * 4);
  const flags = new Uint8Array(N);
  const M = 24;
  const cols = {
    ids: new Int32Array(M),
    x: new Float32Array(M),
    y: new Float32Array(M),
    z: new Float32Array(M),
    qx: new Float32Array(M),
    qy: new Float32Array(M),
    qz: new Float32Array(M),
    qw: new Float32Array(M),
  };
  for (let i = 0; i < M; i++) {
    cols.ids[i] = 6000 + i;
    cols.qw[i] = 1;
  }
  // Plain arrays: entityColumns stages them entry by entry (its slow path), one id out of range.
  const P = 8;
  const plain = {
    ids: Array.from({ length: P }, (_, i) => (i === 3 ? -7 : 6500 + i)),
    x: Array.from({ length: P }, (_, i) => i + 0.5),
    y: new Array<number>(P).fill(0.25),
    z: new Array<number>(P).fill(-1.5),
    qx: new Array<number>(P).fill(0),
    qy: new Array<number>(P).fill(0.6),
    qz: new Array<number>(P).fill(0),
    qw: new Array<number>(P).fill(0.8),
  };
  const TEX = r.texture('coin');
  const disp = {
    scaleX: new Float32Array(M).fill(1),
    scaleY: new Float32Array(M).fill(2),
    alpha: new Float32Array(M).fill(0.5),
  };
  // Custom fields: every type, the columns form (typed and plain columns) and the per-entity call.
  const AGENT = r.declareFields('agent', {
    hp: 'f32',
    ammo: 'i32',
    stamina: 'u8',
    grounded: 'bool',
    state: 'enum',
    target: 'entity',
    velocity: 'vec3',
  });
  const BODY = r.declareFields('body', { velocity: 'vec3', sleeping: 'bool' });
  const states = ['patrol', 'chase', 'attack'];
  for (const s of states) AGENT.code(s);
  const agentCols = [
    new Float32Array(M),
    new Int32Array(M),
    new Uint8Array(M),
    new Uint8Array(M),
    new Uint8Array(M),
    new Int32Array(M).fill(-1),
    new Float32Array(M * 3),
  ];
  const bodyCols = [new Array<number>(N * 3).fill(0.5), new Array<number>(N).fill(1)];
  // The kind's only rows, typed, right after their entities: staged in the field area, one copy at endFrame.
  const UNIT = r.declareFields('unit', {
    hp: 'f32',
    dir: 'vec3',
    on: 'bool',
    mode: 'enum',
    who: 'entity',
    n: 'i32',
    lvl: 'u8',
  });
  UNIT.code('idle');
  const Q = 20;
  const unitCols = {
    ids: new Int32Array(Q),
    x: new Float32Array(Q),
    y: new Float32Array(Q),
    z: new Float32Array(Q),
    qx: new Float32Array(Q),
    qy: new Float32Array(Q),
    qz: new Float32Array(Q),
    qw: new Float32Array(Q).fill(1),
  };
  for (let i = 0; i < Q; i++) unitCols.ids[i] = 8000 + i;
  const unitFields = [
    new Float32Array(Q + 5), // longer than the rows: its copy spills into the next column
    new Float32Array(Q * 3),
    new Uint8Array(Q),
    new Uint8Array(Q),
    new Int32Array(Q).fill(-1),
    new Int32Array(Q),
    new Uint8Array(Q),
  ];
  // Per-entity calls only, in order: converted straight into the frame at endFrame.
  const TAG = r.declareFields('tag', { on: 'bool', n: 'u8', w: 'f32' });
  const tagValues = new Float64Array(TAG.slots);
  const values = new Float64Array(AGENT.slots);
  let f = 0;
  const frame = () => {
    for (let i = 0; i < N; i++) {
      ids[i] = (i * 97 + (f >> 4) * 3) % 4000; // churn: ids come and go
      pos[i * 3] = i + f * 0.1;
      rots[i * 4 + 2] = Math.sin(f * 0.01 + i);
      rots[i * 4 + 3] = Math.cos(f * 0.01 + i);
      flags[i] = f & 1;
    }
    r.beginFrame(f, 1);
    r.camera(f, 0, 0, 0, 0, 0, 1, 1);
    r.entityBatch(N, ids, pos, rots, flags);
    r.fieldColumns(BODY, N, ids, bodyCols);
    cols.x[f % M] = f;
    cols.qx[(f + 1) % M] = f & 1 ? 0 : NaN; // an invalid quaternion every other frame
    r.entityColumns(M, cols);
    r.displayColumns(M, disp);
    const q = Q - (f & 3); // a count that changes
    r.entityColumns(q, unitCols);
    unitFields[0][f % Q] = f & 15 ? f : Number.POSITIVE_INFINITY; // repaired now and then
    unitFields[2][f % Q] = f & 1;
    r.fieldColumns(UNIT, q, unitCols.ids, unitFields);
    for (let i = 0; i < 3; i++) {
      r.entity2D(8100 + i, f, i, 0);
      tagValues[0] = (f + i) & 1;
      tagValues[1] = f & 255;
      tagValues[2] = f & 31 ? i : Number.NaN; // repaired now and then
      r.fields(8100 + i, TAG, tagValues);
    }
    r.entityColumns(P, plain);
    r.entity2D(7000, f, 1, f & 7);
    r.display(7000, 1, 2, f & 1, (f & 2) === 0, TEX); // display state, 2D
    r.entity(5000 + (f & 3), f, 1, 2, 0, 0, 0, 1, 0);
    values[0] = f & 7 ? f * 0.5 : NaN; // a repaired value now and then
    values[1] = f;
    values[4] = AGENT.code(states[f % 3]);
    values[5] = 6000 + (f % M);
    values[6] = f * 0.25;
    r.fields(5000 + (f & 3), AGENT, values);
    agentCols[0][f % M] = f;
    r.fieldColumns(AGENT, M, cols.ids, agentCols); // rows before the per-entity one: sorted at endFrame
    r.describe(5000 + (f & 3), 'prop', 'crate'); // a new life every frame, described
    r.describe(10000 + (f % 5000), 'ghost'); // never recorded: waits; past 4,096 the oldest is forgotten
    r.bones(5000 + (f & 3), 12, rot, off);
    r.despawn(5000 + (f & 3));
    r.draw.sphere(Channel.AI, f, 0, 0, 4, 0xff0000);
    r.draw.text(Channel.AI, 0, 0, 0, 'state', 0xffffff);
    r.draw.text(Channel.AI, 1, 0, 0, 'more', 0xffffff);
    r.draw.line(Channel.PHYSICS, NaN, 0, 0, 1, 1, 1, 0); // bad input is handled without allocating too
    r.event('tick', -1, 0, 0, 0);
    r.endFrame();
    f++;
  };
  return { recorder: r, frame, frames: () => f };
}
