import fc from 'fast-check';
import type { DebugDraw } from '../../core/draw/DebugDraw';
import { Recorder } from '../../core/record/Recorder';
import type { RecorderOptions } from '../../core/record/RecorderOptions';
import type { FieldSpec } from '../../core/fields/FieldSchemas';

/**
 * fast-check generators of every public recording call with adversarial values, and the code that
 * applies them to a `Recorder`, for the property test (property.test.ts). A command is plain data
 * (so fast-check prints and shrinks it); `applyCommand` makes the call.
 */

/** Values that broke the recorder or the loader once, or sit on a rule's edge. */
const EDGE_NUMBERS = [
  NaN,
  Infinity,
  -Infinity,
  1e39,
  -1e39,
  1e300,
  -1e300,
  1e-45,
  -1e-45,
  1e-46,
  -0,
  0,
  2 ** 31,
  2 ** 32,
  2 ** 31 - 1,
  -1,
  1,
  0.5,
  1.5,
  1e-10,
  1e-12,
  1e10,
  1e12,
  3.4028234663852886e38,
  3.4028235677973366e38,
  -3.4028235677973366e38,
];
/** A long string (over the 65,536-unit limit), and one whose cut would split a surrogate pair. */
const HUGE = 'x'.repeat(70_000);
const HUGE_PAIR = `${'y'.repeat(65_535)}😀tail`;
const EDGE_STRINGS = [
  '',
  'guard',
  'é',
  '😀',
  '\uD800',
  'a\uDC00b',
  '\uDBFF\uDFFF',
  'line\nbreak',
  HUGE,
  HUGE_PAIR,
  'ai',
  'network',
];

const edge = fc.constantFrom(...EDGE_NUMBERS);
/** Any number: edge values, any double, small integers. */
export const anyNumber = fc.oneof(
  { weight: 3, arbitrary: edge },
  { weight: 2, arbitrary: fc.double() },
  { weight: 2, arbitrary: fc.integer({ min: -5, max: 100 }) },
);
/** Mostly plain coordinates, sometimes anything. */
const coord = fc.oneof(
  { weight: 4, arbitrary: fc.double({ min: -1000, max: 1000, noNaN: true }) },
  { weight: 1, arbitrary: anyNumber },
);
/** Mostly unit-ish quaternion components, sometimes anything. */
const qc = fc.oneof(
  { weight: 4, arbitrary: fc.double({ min: -1, max: 1, noNaN: true }) },
  { weight: 1, arbitrary: anyNumber },
);
const id = fc.oneof(
  { weight: 5, arbitrary: fc.integer({ min: 0, max: 12 }) },
  { weight: 1, arbitrary: fc.constantFrom(-1, 1.5, NaN, 63, 64, 2 ** 31, 2 ** 32, Infinity) },
);
const flags = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 0, max: 127 }) },
  { weight: 1, arbitrary: fc.constantFrom(-1, 128, 129, 255, 256, 1.5, NaN, 2 ** 31) },
);
const text = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(...EDGE_STRINGS) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 6 }) },
  { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom('a', '\uD800', '\uDC00', '😀'), maxLength: 4 }) },
);
const channel = fc.oneof(
  { weight: 5, arbitrary: fc.integer({ min: 0, max: 4 }) },
  { weight: 1, arbitrary: fc.constantFrom(-1, 1.5, 31, 32, NaN) },
);
const color = fc.oneof(fc.integer({ min: 0, max: 0xffffff }), fc.constantFrom(-1, 2 ** 24, 1.5, NaN));
const count = fc.oneof(
  { weight: 5, arbitrary: fc.integer({ min: -1, max: 6 }) },
  { weight: 1, arbitrary: fc.constantFrom(NaN, 1.5, 4095, 4096, 2 ** 31) },
);
const floats = (max: number) => fc.array(coord, { maxLength: max });

export type DrawCommand =
  | ['point', number, number, number, number, number, number]
  | ['line', number, number, number, number, number, number, number, number]
  | ['arrow', number, number, number, number, number, number, number, number, number]
  | ['sphere', number, number, number, number, number, number]
  | ['aabb', number, number, number, number, number, number, number, number]
  | ['text', number, number, number, number, string, number];

const drawCommand: fc.Arbitrary<DrawCommand> = fc.oneof(
  fc.tuple(fc.constant('point' as const), channel, coord, coord, coord, coord, color),
  fc.tuple(fc.constant('line' as const), channel, coord, coord, coord, coord, coord, coord, color),
  fc.tuple(fc.constant('arrow' as const), channel, coord, coord, coord, coord, coord, coord, coord, color),
  fc.tuple(fc.constant('sphere' as const), channel, coord, coord, coord, coord, color),
  fc.tuple(fc.constant('aabb' as const), channel, coord, coord, coord, coord, coord, coord, color),
  fc.tuple(fc.constant('text' as const), channel, coord, coord, coord, text, color),
);

/** Entity columns as plain arrays (converted to typed arrays by `applyCommand` when asked). */
interface Columns {
  ids: number[];
  x: number[];
  y: number[];
  z: number[];
  qx: number[];
  qy: number[];
  qz: number[];
  qw: number[];
  flags: number[] | null;
}
const columns: fc.Arbitrary<Columns> = fc.integer({ min: 0, max: 6 }).chain((n) =>
  fc.record({
    ids: fc.array(id, { minLength: n, maxLength: n }),
    x: fc.array(coord, { minLength: n, maxLength: n }),
    y: fc.array(coord, { minLength: n, maxLength: n }),
    z: fc.array(coord, { minLength: n, maxLength: n }),
    qx: fc.array(qc, { minLength: n, maxLength: n }),
    qy: fc.array(qc, { minLength: n, maxLength: n }),
    qz: fc.array(qc, { minLength: n, maxLength: n }),
    qw: fc.array(qc, { minLength: n, maxLength: n }),
    flags: fc.option(fc.array(flags, { minLength: n, maxLength: n }), { nil: null }),
  }),
);

/** Field declarations: every type, sometimes an unknown one, repeated names, none, too many. */
const fieldSpec: fc.Arbitrary<Array<[string, string]>> = fc.oneof(
  {
    weight: 10,
    arbitrary: fc.array(
      fc.tuple(
        fc.constantFrom('hp', 'state', 'v', 'on', 'n', 'ammo', 'target'),
        fc.constantFrom('f32', 'i32', 'u8', 'bool', 'enum', 'entity', 'vec3'),
      ),
      { minLength: 1, maxLength: 5 },
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom<Array<[string, string]>>([], [['x', 'f64']], [['\uD800', 'f32']]) },
);
/** A field value: small integers (enum codes, entity ids, bools) often, anything sometimes. */
const fieldValue = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: -2, max: 6 }) },
  { weight: 2, arbitrary: anyNumber },
);

/** Parent arrays: random ones (cycles, self-parents, out of range) and the examples. */
const parents = fc.oneof(
  fc.array(fc.integer({ min: -2, max: 5 }), { maxLength: 6 }),
  fc.constantFrom(
    [-1, 0, 1],
    [0],
    [1, 0],
    [-1, 40000],
    new Array<number>(4096).fill(-1),
    new Array<number>(4095).fill(-1),
    [-1, 0.5],
    [-1, NaN],
  ),
);

export type Command =
  | ['beginFrame', number, number]
  | ['endFrame']
  | ['entity', number, number, number, number, number, number, number, number, number]
  | ['entity2D', number, number, number, number, number]
  | ['display', number | null, number, number, number, boolean, number]
  | ['displayColumns', number, number[], boolean]
  | ['texture', string]
  | ['entityBatch', number, Columns]
  | ['entityColumns', number, Columns, boolean]
  | ['bones', number | null, number, number[], number[]]
  | ['describe', number, string, string | undefined]
  | ['describeSkeleton', string, number[]]
  | ['despawn', number]
  | ['draw', DrawCommand]
  | ['camera', number, number, number, number, number, number, number, number]
  | ['event', number | string, number, number, number, number, number]
  | ['staticLayer', string, DrawCommand[]]
  | ['register', string, number | undefined, number | undefined]
  | ['setBudget', number, number]
  | ['bonesEnabled', boolean]
  | ['declareFields', string, Array<[string, string]>]
  | ['fields', number | null, number, number[]]
  | ['fieldColumns', number, number, number[], number[][]]
  | ['enumCode', number, string]
  | ['clear'];

/** One recording call of any kind, weighted towards what games call most. */
export const command: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.tuple(
      fc.constant('beginFrame' as const),
      fc.oneof(fc.double({ min: 0, max: 100, noNaN: true }), anyNumber),
      anyNumber,
    ),
  },
  { weight: 6, arbitrary: fc.constant(['endFrame'] as ['endFrame']) },
  { weight: 10, arbitrary: fc.tuple(fc.constant('entity' as const), id, coord, coord, coord, qc, qc, qc, qc, flags) },
  { weight: 4, arbitrary: fc.tuple(fc.constant('entity2D' as const), id, coord, coord, anyNumber, flags) },
  {
    weight: 4,
    arbitrary: fc.tuple(
      fc.constant('display' as const),
      fc.option(id, { nil: null }),
      anyNumber,
      coord,
      fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), anyNumber),
      fc.boolean(),
      fc.oneof(fc.integer({ min: -1, max: 3 }), fc.constantFrom(1.5, NaN, 65535, 2 ** 31)),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(
      fc.constant('displayColumns' as const),
      count,
      fc.array(anyNumber, { maxLength: 6 }),
      fc.boolean(),
    ),
  },
  { weight: 1, arbitrary: fc.tuple(fc.constant('texture' as const), text) },
  { weight: 2, arbitrary: fc.tuple(fc.constant('entityBatch' as const), count, columns) },
  { weight: 2, arbitrary: fc.tuple(fc.constant('entityColumns' as const), count, columns, fc.boolean()) },
  {
    weight: 3,
    arbitrary: fc.tuple(fc.constant('bones' as const), fc.option(id, { nil: null }), count, floats(20), floats(15)),
  },
  { weight: 2, arbitrary: fc.tuple(fc.constant('describe' as const), id, text, fc.option(text, { nil: undefined })) },
  { weight: 1, arbitrary: fc.tuple(fc.constant('describeSkeleton' as const), text, parents) },
  { weight: 1, arbitrary: fc.tuple(fc.constant('despawn' as const), id) },
  { weight: 6, arbitrary: fc.tuple(fc.constant('draw' as const), drawCommand) },
  {
    weight: 2,
    arbitrary: fc.tuple(
      fc.constant('camera' as const),
      coord,
      coord,
      coord,
      qc,
      qc,
      qc,
      qc,
      fc.oneof(fc.double({ min: 0.1, max: 4, noNaN: true }), anyNumber),
    ),
  },
  {
    weight: 2,
    arbitrary: fc.tuple(
      fc.constant('event' as const),
      fc.oneof(fc.integer({ min: -1, max: 3 }), text, fc.constantFrom(1.5, NaN)),
      fc.oneof(id, fc.constant(-1)),
      coord,
      coord,
      coord,
      anyNumber,
    ),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.constant('staticLayer' as const), text, fc.array(drawCommand, { maxLength: 4 })),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(
      fc.constant('register' as const),
      text,
      fc.option(color, { nil: undefined }),
      fc.option(
        fc.oneof(
          fc.integer({ min: 0, max: 4 }),
          fc.constantFrom(2 ** 20, 2 ** 20 + 1, Infinity, 2 ** 31, 2 ** 32 - 1, 1e10, -1, 1.5, NaN),
        ),
        { nil: undefined },
      ),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(
      fc.constant('setBudget' as const),
      fc.integer({ min: -1, max: 5 }),
      fc.oneof(fc.integer({ min: 0, max: 4 }), fc.constantFrom(Infinity, 2 ** 31, 1e10, -1, 1.5, NaN)),
    ),
  },
  { weight: 1, arbitrary: fc.tuple(fc.constant('bonesEnabled' as const), fc.boolean()) },
  { weight: 2, arbitrary: fc.tuple(fc.constant('declareFields' as const), text, fieldSpec) },
  {
    weight: 6,
    arbitrary: fc.tuple(
      fc.constant('fields' as const),
      fc.option(id, { nil: null }),
      fc.integer({ min: -1, max: 3 }),
      fc.array(fieldValue, { maxLength: 10 }),
    ),
  },
  {
    weight: 2,
    arbitrary: fc.tuple(
      fc.constant('fieldColumns' as const),
      fc.integer({ min: -1, max: 3 }),
      count,
      fc.array(id, { maxLength: 6 }),
      fc.array(fc.array(fieldValue, { maxLength: 18 }), { maxLength: 6 }),
    ),
  },
  { weight: 2, arbitrary: fc.tuple(fc.constant('enumCode' as const), fc.integer({ min: 0, max: 3 }), text) },
  { weight: 1, arbitrary: fc.constant(['clear'] as ['clear']) },
);

/**
 * A call sequence: mostly frames (`beginFrame`, calls, `endFrame`, sometimes left open), with any
 * call anywhere, so calls also land outside frames and frames open inside frames.
 */
export const commands: fc.Arbitrary<Command[]> = fc
  .array(
    fc.tuple(
      fc.tuple(
        fc.constant('beginFrame' as const),
        fc.oneof(
          { weight: 4, arbitrary: fc.double({ min: 0, max: 100, noNaN: true }) },
          { weight: 1, arbitrary: anyNumber },
        ),
        anyNumber,
      ),
      fc.array(command, { maxLength: 8 }),
      fc.oneof({ weight: 6, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
    ),
    { maxLength: 6 },
  )
  .map((frames) =>
    frames.flatMap(([begin, calls, end]): Command[] => (end ? [begin, ...calls, ['endFrame']] : [begin, ...calls])),
  );

/** Recorder options: small (so rings wrap, frames truncate and budgets overflow), sometimes invalid. */
export const recorderOptions: fc.Arbitrary<Partial<RecorderOptions>> = fc.record({
  maxFrames: fc.oneof(
    { weight: 40, arbitrary: fc.integer({ min: 1, max: 6 }) },
    { weight: 1, arbitrary: fc.constantFrom(0, 1.5, NaN, 2 ** 21) },
  ),
  arenaBytes: fc.oneof(
    { weight: 40, arbitrary: fc.integer({ min: 1024, max: 6000 }) },
    { weight: 1, arbitrary: fc.constantFrom(100, Infinity, 2 ** 31) },
  ),
  maxEntitiesPerFrame: fc.integer({ min: 1, max: 8 }),
  maxEntityId: fc.oneof(
    { weight: 20, arbitrary: fc.constantFrom(16, 64) },
    { weight: 1, arbitrary: fc.constant(2 ** 30) },
  ),
  primitiveBudget: fc.oneof(
    { weight: 40, arbitrary: fc.integer({ min: 0, max: 4 }) },
    { weight: 1, arbitrary: fc.constantFrom(Infinity, 2 ** 31, -1) },
  ),
  textBudgetBytes: fc.integer({ min: 0, max: 64 }),
  paragraphRadius: fc.oneof(
    { weight: 40, arbitrary: fc.constantFrom(0, 24) },
    { weight: 1, arbitrary: fc.constantFrom(NaN, -1) },
  ),
  maxParagraphs: fc.integer({ min: 1, max: 4 }),
  maxBoneWordsPerFrame: fc.integer({ min: 0, max: 64 }),
  maxEventsPerFrame: fc.integer({ min: 0, max: 3 }),
  fieldBudgetBytes: fc.oneof(fc.integer({ min: 0, max: 64 }), fc.constant(256 * 1024)),
  recordBones: fc.boolean(),
  // The WebAssembly kernel costs more to set up per recorder; both backends store the same bytes.
  wasm: fc.oneof({ weight: 1, arbitrary: fc.constant(true) }, { weight: 3, arbitrary: fc.constant(false) }),
});

function draw(d: DebugDraw, c: DrawCommand): void {
  switch (c[0]) {
    case 'point':
      return d.point(c[1], c[2], c[3], c[4], c[5], c[6]);
    case 'line':
      return d.line(c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8]);
    case 'arrow':
      return d.arrow(c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9]);
    case 'sphere':
      return d.sphere(c[1], c[2], c[3], c[4], c[5], c[6]);
    case 'aabb':
      return d.aabb(c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8]);
    case 'text':
      return d.text(c[1], c[2], c[3], c[4], c[5], c[6]);
  }
}

/** The recorder's configuration, to prove a refused configuration call changed nothing. */
export function configuration(r: Recorder): string {
  const skeletons = r.entities.skeletons.map((s) => (s === undefined ? '-' : Array.from(s).join(','))).join(';');
  const layers = r.staticLayers
    .list()
    .map((l) => `${l.name}:${l.primCount}:${l.words.join(',')}`)
    .join(';');
  const schemas = r.fieldSchemas.list().map((sc) => [sc.kind, sc.fields, sc.enumNames]);
  return JSON.stringify([r.channels.list(), r.entities.kinds, skeletons, r.eventKinds, layers, r.textures, schemas]);
}

/** The last id `entity` was called with, for `bones` commands that follow it. */
let lastId = 0;

/**
 * Makes the call. Returns an error message when the recorder broke its contract: a per-frame call
 * threw, or a configuration call threw anything but a `RangeError`, or threw and changed something.
 */
export function applyCommand(r: Recorder, c: Command): string | null {
  const config =
    c[0] === 'describeSkeleton' ||
    c[0] === 'staticLayer' ||
    c[0] === 'register' ||
    c[0] === 'setBudget' ||
    c[0] === 'texture' ||
    c[0] === 'declareFields';
  const before = config ? configuration(r) : '';
  try {
    run(r, c);
  } catch (e) {
    if (!config) return `per-frame call ${c[0]} threw ${String(e)}`;
    if (!(e instanceof RangeError)) return `${c[0]} threw ${String(e)}, not a RangeError`;
    if (configuration(r) !== before) return `${c[0]} threw and changed the configuration`;
  }
  return null;
}

function typed(c: Columns, useTyped: boolean) {
  if (!useTyped) return { ...c, flags: c.flags ?? undefined };
  return {
    ids: Int32Array.from(c.ids),
    x: Float32Array.from(c.x),
    y: Float32Array.from(c.y),
    z: Float32Array.from(c.z),
    qx: Float32Array.from(c.qx),
    qy: Float32Array.from(c.qy),
    qz: Float32Array.from(c.qz),
    qw: Float32Array.from(c.qw),
    flags: c.flags === null ? undefined : Uint8Array.from(c.flags),
  };
}

function run(r: Recorder, c: Command): void {
  switch (c[0]) {
    case 'beginFrame':
      return r.beginFrame(c[1], c[2]);
    case 'endFrame':
      return r.endFrame();
    case 'entity':
      lastId = c[1];
      return r.entity(c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9]);
    case 'entity2D':
      lastId = c[1];
      return r.entity2D(c[1], c[2], c[3], c[4], c[5]);
    case 'display':
      return r.display(c[1] ?? lastId, c[2], c[3], c[4], c[5], c[6]);
    case 'displayColumns': {
      // The values serve as scales, alphas and texture indices at once (typed or plain arrays).
      const v = c[2];
      const cols = c[3]
        ? {
            scaleX: Float32Array.from(v),
            scaleY: Float32Array.from(v),
            alpha: Float32Array.from(v),
            visible: Uint8Array.from(v),
            texture: Int32Array.from(v),
          }
        : { scaleX: v, scaleY: v, alpha: v, visible: v, texture: v };
      return r.displayColumns(c[1], cols);
    }
    case 'texture':
      r.texture(c[1]);
      return;
    case 'entityBatch': {
      const k = c[2];
      const pos = k.x.flatMap((x, i) => [x, k.y[i], k.z[i]]);
      const rot = k.qx.flatMap((x, i) => [x, k.qy[i], k.qz[i], k.qw[i]]);
      if (k.ids.length > 0) lastId = k.ids[k.ids.length - 1];
      return r.entityBatch(c[1], k.ids, pos, rot, k.flags ?? undefined);
    }
    case 'entityColumns':
      if (c[2].ids.length > 0) lastId = c[2].ids[c[2].ids.length - 1];
      return r.entityColumns(c[1], typed(c[2], c[3]));
    case 'bones':
      return r.bones(c[1] ?? lastId, c[2], c[3], c[4]);
    case 'describe':
      return r.describe(c[1], c[2], c[3]);
    case 'describeSkeleton':
      return r.describeSkeleton(c[1], c[2]);
    case 'despawn':
      return r.despawn(c[1]);
    case 'draw':
      return draw(r.draw, c[1]);
    case 'camera':
      return r.camera(c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8]);
    case 'event':
      return r.event(c[1], c[2], c[3], c[4], c[5], c[6]);
    case 'staticLayer': {
      r.staticLayers.set(c[1], (d) => {
        for (const p of c[2]) draw(d, p);
      });
      return;
    }
    case 'register': {
      const options: { color?: number; budget?: number } = {};
      if (c[2] !== undefined) options.color = c[2];
      if (c[3] !== undefined) options.budget = c[3];
      r.channels.register(c[1], options);
      return;
    }
    case 'setBudget':
      return r.channels.setBudget(c[1], c[2]);
    case 'bonesEnabled':
      r.bonesEnabled = c[1];
      return;
    case 'declareFields':
      r.declareFields(c[1], Object.fromEntries(c[2]) as FieldSpec);
      return;
    case 'fields': {
      // Schema -1: an object that is not one of this recorder's schemas.
      const schema = c[2] < 0 ? foreign : r.fieldSchemas.at(c[2] % Math.max(1, r.fieldSchemas.count));
      if (schema === undefined) return;
      return r.fields(c[1] ?? lastId, schema, c[3]);
    }
    case 'fieldColumns': {
      const schema = c[1] < 0 ? foreign : r.fieldSchemas.at(c[1] % Math.max(1, r.fieldSchemas.count));
      if (schema === undefined) return;
      return r.fieldColumns(schema, c[2], c[3], c[4]);
    }
    case 'enumCode': {
      const schema = r.fieldSchemas.at(c[1] % Math.max(1, r.fieldSchemas.count));
      schema?.code(c[2]);
      return;
    }
    case 'clear':
      return r.clear();
  }
}

/** A schema of no recorder under test (its calls are refused and counted). */
const foreign = new Recorder({ onWarning: () => {} }).declareFields('foreign', { hp: 'f32' });

/** A recorder for `options`, or null when the options are refused with a `RangeError` (anything else throws). */
export function makeRecorder(options: Partial<RecorderOptions>): Recorder | null {
  try {
    return new Recorder({ ...options, onWarning: () => {} });
  } catch (e) {
    if (e instanceof RangeError) return null;
    throw e;
  }
}
