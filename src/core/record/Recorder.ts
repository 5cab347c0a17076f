import { EntityFlags } from '../format/layout';
import { MAX_KINDS, USER_FLAGS_MASK } from '../validate/rules';
import { WarnOnce } from '../validate/WarnOnce';
import { EntityKernel } from '../kernel/EntityKernel';
import { FrameReader } from '../read/FrameReader';
import { ChannelRegistry } from '../store/ChannelRegistry';
import { EntityTable } from '../store/EntityTable';
import { FrameRing } from '../store/FrameRing';
import { StaticLayers } from '../store/StaticLayers';
import { DrawRecorder } from './DrawRecorder';
import { Descriptions } from './Descriptions';
import { RecorderStats } from './RecorderStats';
import { StaticLayerEncoder } from './StaticLayerEncoder';
import { EntityResolver } from './EntityResolver';
import { BoneStage } from './BoneStage';
import { DisplayStage } from './DisplayStage';
import type { DisplayColumns } from './DisplayColumns';
import { EntityStage } from './EntityStage';
import { EventLog } from './EventLog';
import { FrameHeader } from './FrameHeader';
import { FrameRepairs } from './FrameRepairs';
import { FrameWriter } from './FrameWriter';
import { DEFAULT_RECORDER_OPTIONS, type RecorderOptions, validateRecorderOptions } from './RecorderOptions';
import type { EntityColumns } from './EntityColumns';
import type { FieldSchema } from '../fields/FieldSchema';
import { FieldSchemas, type FieldSpec } from '../fields/FieldSchemas';
import { FieldArea } from '../fields/FieldArea';
import { FieldRawPool } from '../fields/FieldRawPool';
import { FieldStage } from '../fields/FieldStage';

const SANITIZED = EntityFlags.SANITIZED;
/**
 * Local copy of the shared rule's constant: hot paths read a module local, not an imported binding
 * (which some loaders, e.g. tsx and vitest, turn into a getter call, and which then keeps V8 from
 * inlining `entity()` into the game's loop).
 */
const USER_FLAGS = USER_FLAGS_MASK;

/**
 * Records the game, one frame at a time, into a fixed-size ring. Call `beginFrame`, then `camera`,
 * `entity` (and `bones`) for each relevant entity, debug draw through `recorder.draw`, then
 * `endFrame`. Nothing is allocated per frame in steady state, and bad input never throws: it is
 * repaired or dropped and counted in `stats`.
 *
 * @example
 * const recorder = new Recorder({ maxFrames: 900 });
 * app.ticker.add((t) => {
 *   recorder.beginFrame(performance.now() / 1000, t.deltaMS / 1000);
 *   for (const e of world.entities) recorder.entity(e.id, e.x, e.y, 0, 0, 0, Math.sin(e.angle / 2), Math.cos(e.angle / 2), e.flags);
 *   recorder.draw.sphere(Channel.AI, guard.x, guard.y, 0, 40, 0xffcc00);
 *   recorder.endFrame();
 * });
 *
 * Size: this class is the game-facing API and stays one file; a third of it is the contract and
 * `@example` of each call. The work lives in its parts: `EntityStage`, `BoneStage`, `DisplayStage`,
 * `FieldStage`, `EventLog`, `EntityResolver` and `FrameWriter` (which writes a frame into the ring).
 */
export class Recorder {
  public readonly options: Readonly<RecorderOptions>;
  public readonly ring: FrameRing;
  public readonly entities: EntityTable;
  public readonly channels: ChannelRegistry;
  public readonly stats = new RecorderStats();
  /** The recording `DebugDraw`: draw through this every frame, on any channel. */
  public readonly draw: DrawRecorder;
  /** Large static debug geometry, registered once and drawn live, never stored per frame. */
  public readonly staticLayers: StaticLayers;
  /** The read side of this recorder's ring. */
  public readonly reader: FrameReader;
  /** Event kind names; an event's kind index is its position here. */
  public readonly eventKinds: string[];
  /** Texture names (`texture`); a display record's texture index is its position here. */
  public readonly textures: string[];
  /** The custom field schemas (`declareFields`), one per kind that declared fields. */
  public readonly fieldSchemas = new FieldSchemas();
  /** Whether `bones` stores anything (costs nothing when off). */
  public bonesEnabled: boolean;

  private frameOpen = false;
  private nextFrame = 0;
  /** The frame the open frame's reservation must watch for eviction, and its offset (see `onEvict`). */
  private readonly kernel: EntityKernel;
  /** The open frame's entity entries (`entity()` writes its columns directly). */
  private readonly stage: EntityStage;
  /** Turns the staged entries into lives and writes the entity section at `endFrame`. */
  private readonly resolver: EntityResolver;
  private readonly boneStage: BoneStage;
  /** The open frame's 2D display state (`display`): nothing until a game records some. */
  private readonly displayStage: DisplayStage;
  /** The open frame's custom field rows. */
  private readonly fieldStage: FieldStage;
  private readonly events: EventLog;
  /** Time, dt and camera of the open frame. */
  private readonly header = new FrameHeader();
  /** Repairs in the open frame outside the entity kernel's (flags, bones, camera, time, events). */
  private readonly repairs: FrameRepairs;
  /** Kinds and labels of lives, and the descriptions waiting for theirs (see `describe`). */
  private readonly descriptions: Descriptions;
  /** Each kind of problem is reported once, and its message is only built then. */
  private readonly warnOnce: WarnOnce;
  /** Listeners of `onFrameEnd` (a live stream); empty for most games, so `endFrame` pays one length check. */
  /** Writes each closed frame into the ring. */
  private readonly writer: FrameWriter;
  private readonly frameEndListeners: Array<(frame: number) => void> = [];

  public constructor(options: Partial<RecorderOptions> = {}) {
    const o: RecorderOptions = { ...DEFAULT_RECORDER_OPTIONS, ...options };
    validateRecorderOptions(o);
    this.options = Object.freeze(o);
    this.warnOnce = new WarnOnce(o.onWarning);
    this.repairs = new FrameRepairs(this.stats, this.warnOnce);
    // One buffer for the kernel's staging columns, the resolver's block (staged ids and flags, the
    // lives of this frame and the previous one, the hash of open lives) and the arena, so that the
    // kernel writes frames in place and matches entries to lives.
    // validateRecorderOptions guarantees at least 1,024 bytes.
    const arenaBytes = Math.floor(o.arenaBytes / 8) * 8;
    const handleCapacity = Math.max(16, Math.min(o.maxEntitiesPerFrame * 2, 1 << 16));
    const block = EntityResolver.layout(o.maxEntitiesPerFrame);
    // After the arena: the field area, where columns calls stage blocks that endFrame moves in one copy.
    const fieldAreaBytes = FieldStage.areaBytes(o.fieldBudgetBytes);
    // Then the staging of per-entity field rows, which the kernel converts into the frame.
    const fieldRawBytes = FieldRawPool.bytesFor(o.fieldBudgetBytes);
    const extraBytes = block.bytes + arenaBytes + fieldAreaBytes + fieldRawBytes;
    this.kernel = new EntityKernel(o.maxEntitiesPerFrame, extraBytes, {
      wasm: o.wasm,
    });
    const blockByte = this.kernel.extraOffset;
    this.ring = new FrameRing(o.arenaBytes, o.maxFrames, {
      buffer: this.kernel.buffer,
      byteOffset: blockByte + block.bytes,
    });
    if (o.wasm && this.kernel.fallbackReason !== undefined) {
      this.warnOnce.warn(
        'kernel',
        `rewindable: ${this.kernel.fallbackReason}; recording uses the JavaScript encoder (same bytes, slower)`,
      );
    }
    this.ring.onEvict = (frame) => this.writer.onEvict(frame);
    this.entities = new EntityTable(handleCapacity, o.maxEntityId);
    this.channels = new ChannelRegistry(o.primitiveBudget);
    this.draw = new DrawRecorder(
      this.channels,
      this.stats,
      {
        textBudgetBytes: o.textBudgetBytes,
        paragraphRadius: o.paragraphRadius,
        maxParagraphs: o.maxParagraphs,
        budgeted: true,
      },
      this.warnOnce,
    );
    this.staticLayers = new StaticLayers(new StaticLayerEncoder(this.channels, this.stats, this.warnOnce));
    this.descriptions = new Descriptions(this.entities, o.maxEntityId, this.stats, this.warnOnce);
    this.boneStage = new BoneStage(o.maxBoneWordsPerFrame, this.stats, this.warnOnce, this.repairs);
    this.events = new EventLog(o.maxEventsPerFrame, this.stats, this.warnOnce, this.repairs, (v) =>
      this.descriptions.repairName(v),
    );
    this.eventKinds = this.events.kinds;
    this.displayStage = new DisplayStage(o.maxEntitiesPerFrame, this.stats, this.warnOnce, this.repairs);
    this.textures = this.displayStage.textures;
    this.bonesEnabled = o.recordBones;
    this.reader = new FrameReader(
      this.ring,
      this.entities,
      this.channels,
      this.eventKinds,
      this.textures,
      this.fieldSchemas,
    );
    this.fieldStage = new FieldStage(
      o.maxEntitiesPerFrame,
      o.maxEntityId,
      this.stats,
      this.warnOnce,
      new FieldArea({
        buffer: this.kernel.buffer,
        byteOffset: this.ring.byteOffset + this.ring.arenaWords * 4,
        bytes: fieldAreaBytes,
      }),
      new FieldRawPool(
        {
          buffer: this.kernel.buffer,
          byteOffset: this.ring.byteOffset + this.ring.arenaWords * 4 + fieldAreaBytes,
          bytes: fieldRawBytes,
        },
        this.kernel.field,
      ),
    );
    this.resolver = new EntityResolver({
      capacity: o.maxEntitiesPerFrame,
      kernel: this.kernel,
      blockByte,
      ring: this.ring,
      table: this.entities,
      reader: this.reader,
      stats: this.stats,
      warnings: this.warnOnce,
      onNewLife: (id, h) => this.descriptions.onNewLife(id, h),
    });
    this.stage = new EntityStage(this.kernel, this.resolver, o.maxEntityId, this.stats, this.warnOnce, this.repairs);
    this.writer = new FrameWriter({
      options: this.options,
      ring: this.ring,
      entities: this.entities,
      channels: this.channels,
      stats: this.stats,
      warnings: this.warnOnce,
      draw: this.draw,
      stage: this.stage,
      resolver: this.resolver,
      bones: this.boneStage,
      display: this.displayStage,
      fields: this.fieldStage,
      events: this.events,
      header: this.header,
      repairs: this.repairs,
      descriptions: this.descriptions,
    });
  }

  /**
   * What encodes rotations and packs positions: `'wasm-simd'` (the WebAssembly kernel) or `'js'`
   * (the option `wasm: false`, or a platform without WebAssembly SIMD). Both store the same bytes.
   */
  public get backend(): 'wasm-simd' | 'js' {
    return this.kernel.backend;
  }

  /** Whether a frame is open (between `beginFrame` and `endFrame`). */
  public get inFrame(): boolean {
    return this.frameOpen;
  }

  /** The number the next (or the open) frame gets. */
  public get currentFrame(): number {
    return this.nextFrame;
  }

  /**
   * Opens a frame. `time` is the game time in seconds, `dt` the simulation step that led to it.
   * Frame numbers are assigned by the recorder, contiguous from 0. Calling `beginFrame` while a frame
   * is open ends that frame first (counted in `stats.unbalancedFrames`).
   */
  public beginFrame(time: number, dt: number): void {
    // Kept tiny so V8 inlines it into the game loop and the two doubles are never boxed.
    if (this.frameOpen) this.closeUnbalanced();
    const h = this.header;
    h.time = time;
    h.dt = dt;
    this.open();
  }

  private closeUnbalanced(): void {
    this.stats.unbalancedFrames++;
    this.warnOnce.warn(
      'unbalanced',
      'rewindable: beginFrame called while a frame was open; the open frame was ended first',
    );
    this.endFrame();
  }

  private open(): void {
    this.frameOpen = true;
    this.stage.begin();
    this.boneStage.begin();
    this.displayStage.begin();
    this.fieldStage.begin();
    this.resolver.begin();
    this.header.hasCamera = false;
    this.draw.reset();
    this.draw.open = true;
  }

  /** Records the game camera: position, orientation (quaternion) and zoom. */
  public camera(x: number, y: number, z: number, qx: number, qy: number, qz: number, qw: number, zoom: number): void {
    if (!this.frameOpen) return this.outside();
    const c = this.header.cam;
    c[0] = x;
    c[1] = y;
    c[2] = z;
    c[3] = qx;
    c[4] = qy;
    c[5] = qz;
    c[6] = qw;
    c[7] = zoom;
    this.header.hasCamera = true;
  }

  /**
   * Records one entity this frame. `id` is the game's numeric id; an id absent from the previous
   * frame, or recorded after `despawn(id)`, starts a new life (a new unique id). The quaternion need
   * not be normalised. `flags` is a byte of display flags (`EntityFlags`).
   */
  public entity(
    id: number,
    x: number,
    y: number,
    z: number,
    qx: number,
    qy: number,
    qz: number,
    qw: number,
    flags = 0,
  ): void {
    const s = this.stage;
    const n = s.count;
    // `limit` is 0 outside a frame: one test for an open frame with room (see EntityStage.limit).
    if (!(n < s.limit && id >= 0 && id < s.maxEntityId && (id | 0) === id)) return this.refuse(id);
    // One typed array for the seven float columns (see EntityStage.floats).
    const c = s.floats;
    const S = s.stride;
    c[n] = x;
    c[n + S] = y;
    c[n + 2 * S] = z;
    c[n + 3 * S] = qx;
    c[n + 4 * S] = qy;
    c[n + 5 * S] = qz;
    c[n + 6 * S] = qw;
    s.ids[n] = id;
    s.flags[n] = (flags & USER_FLAGS) === flags ? flags : s.repairFlags(flags);
    s.count = n + 1;
  }

  /**
   * Records one entity of a 2D game: position (`x`, `y`; z is 0) and `angle` in radians about the
   * z axis (pixi's `rotation`), with the same rules, allocation and speed as `entity` (it stages
   * the same columns; no quaternion to build). A non-finite angle is repaired as a bad rotation.
   *
   * @example
   * for (const s of sprites) recorder.entity2D(s.id, s.x, s.y, s.rotation);
   */
  public entity2D(id: number, x: number, y: number, angle: number, flags = 0): void {
    const s = this.stage;
    const n = s.count;
    // `limit` is 0 outside a frame: one test for an open frame with room (see EntityStage.limit).
    if (!(n < s.limit && id >= 0 && id < s.maxEntityId && (id | 0) === id)) return this.refuse(id);
    const h = angle * 0.5;
    const c = s.floats;
    const S = s.stride;
    c[n] = x;
    c[n + S] = y;
    c[n + 2 * S] = 0;
    c[n + 3 * S] = 0;
    c[n + 4 * S] = 0;
    c[n + 5 * S] = Math.sin(h);
    c[n + 6 * S] = Math.cos(h);
    s.ids[n] = id;
    s.flags[n] = (flags & USER_FLAGS) === flags ? flags : s.repairFlags(flags);
    s.count = n + 1;
  }

  /**
   * Records the 2D display state of the entity recorded just before (same `id`, as `bones`):
   * scale, alpha in [0, 1], visibility and a texture (or animation frame) index from `texture`
   * (-1: none). Replayed with scale and alpha blended between frames, visibility and texture from
   * the nearer frame; applied by the default pixi binding. 16 bytes an entity, and nothing at all
   * for a game that never calls it. A second call for the same entity replaces the first. A bad
   * scale is stored as 1, an alpha outside [0, 1] clamped (NaN as 1), an unknown texture as none,
   * counted in `stats.invalidDisplay`; a call not right after its entity is dropped
   * (`stats.displayDropped`).
   *
   * @example
   * const COIN = recorder.texture('coin');
   * recorder.entity2D(p.id, p.x, p.y, p.rotation);
   * recorder.display(p.id, p.scale.x, p.scale.y, p.alpha, p.visible, COIN);
   */
  public display(id: number, scaleX: number, scaleY: number, alpha: number, visible = true, texture = -1): void {
    const s = this.stage;
    const d = this.displayStage;
    if (!this.frameOpen || id !== s.lastId || s.count === 0) return d.drop(id);
    const k = d.slot(s.count - 1);
    d.scaleX[k] = scaleX;
    d.scaleY[k] = scaleY;
    d.alpha[k] = alpha;
    d.check(k, visible, texture);
  }

  /**
   * `display` for every entity of the `entityColumns` or `entityBatch` call made just before, from
   * one array per field (`DisplayColumns`), in the same order; `count` must be that call's count,
   * and every entity of it must have been stored, else nothing is (counted in `stats.displayDropped`).
   *
   * @example
   * recorder.entityColumns(world.count, columns);
   * recorder.displayColumns(world.count, { scaleX: world.sx, scaleY: world.sy, alpha: world.alpha, texture: world.frame });
   */
  public displayColumns(count: number, columns: DisplayColumns): void {
    const s = this.stage;
    const d = this.displayStage;
    const start = s.callStart;
    if (!this.frameOpen || start < 0 || count !== s.callCount || s.count - start !== count) return d.drop(-1);
    const { scaleX, scaleY, alpha, visible, texture } = columns;
    for (let i = 0; i < count; i++) {
      const k = d.slot(start + i);
      d.scaleX[k] = scaleX[i];
      d.scaleY[k] = scaleY[i];
      d.alpha[k] = alpha[i];
      d.check(k, visible === undefined || visible[i] !== 0, texture === undefined ? -1 : texture[i]);
    }
  }

  /**
   * The index of texture (or animation frame) `name` for `display`, registering it on first use.
   * Names are stored once per recording, not per frame.
   *
   * @throws RangeError when `name` is not a string of at most 65,536 well-formed UTF-16 units, or
   *   would be the 65,536th texture name.
   * @example
   * const FRAMES = ['walk0', 'walk1', 'walk2'].map((n) => recorder.texture(n));
   */
  public texture(name: string): number {
    return this.displayStage.texture(name);
  }

  /**
   * Records `count` entities from interleaved flat arrays (an ECS's own storage): `ids[i]`,
   * positions x, y, z at `positions[i * 3]`, rotations x, y, z, w at `rotations[i * 4]`, and
   * optionally `flags[i]`. Same rules as `entity`, in the same order; no argument is a double, so no
   * engine boxes one, whatever it inlines. A `count` beyond `ids.length` is cut there.
   *
   * @example
   * recorder.entityBatch(world.count, world.ids, world.positions, world.rotations, world.flags);
   */
  public entityBatch(
    count: number,
    ids: ArrayLike<number>,
    positions: ArrayLike<number>,
    rotations: ArrayLike<number>,
    flags?: ArrayLike<number>,
  ): void {
    if (!this.frameOpen) return this.outside();
    this.stage.batch(count, ids, positions, rotations, flags);
  }

  /**
   * Records `count` entities from one array per field (structure of arrays, as bitECS and most
   * data-oriented games keep them): `columns.ids[i]`, `columns.x[i]`, ... `columns.qw[i]` and
   * optionally `columns.flags[i]`. Build the `columns` object once and reuse it every frame. Same
   * rules as `entity`, in the same order (a `count` beyond `ids.length` is cut there). The fastest
   * way to record many entities; flags are block-copied when they are a `Uint8Array`.
   *
   * @example
   * const columns = { ids: world.ids, x: world.x, y: world.y, z: world.z,
   *   qx: world.qx, qy: world.qy, qz: world.qz, qw: world.qw, flags: world.flags };
   * recorder.entityColumns(world.count, columns); // every frame
   */
  public entityColumns(count: number, columns: EntityColumns): void {
    if (!this.frameOpen) return this.outside();
    this.stage.columns(count, columns);
  }

  /**
   * Records the bones of the entity recorded just before (same `id`): `rotations` holds x, y, z, w
   * per bone (local rotation), `offsets` x, y, z per bone (local offset). Does nothing while
   * `bonesEnabled` is false.
   */
  public bones(id: number, count: number, rotations: ArrayLike<number>, offsets: ArrayLike<number>): void {
    if (!this.bonesEnabled) return;
    if (!this.frameOpen) return this.outside();
    const s = this.stage;
    if (id !== s.lastId || s.count === 0) {
      this.stats.bonesDropped++;
      if (!this.warnOnce.has('bones'))
        this.warnOnce.warn('bones', `rewindable: bones(${id}) must follow entity(${id}); the bones were dropped`);
      return;
    }
    // A repaired rotation or offset flags its entity SANITIZED.
    if (this.boneStage.add(id, s.count - 1, count, rotations, offsets)) s.flags[s.count - 1] |= SANITIZED;
  }

  /**
   * Declares the custom fields of a kind, once (at start-up): names to types, in order. Types:
   * `f32`, `i32`, `u8`, `bool` (one bit), `enum` (a name interned per kind, one byte: at most 255
   * names), `entity` (another entity's game id, -1 for none) and `vec3` (three f32). Returns the
   * schema to pass to `fields` and `fieldColumns`. An entity recorded with fields and not described
   * takes the schema's kind. Configuration: a bad call throws and changes nothing.
   *
   * @throws RangeError when a name is not a string of at most 65,536 well-formed UTF-16 units, a
   *   type is unknown, a name repeats, there are 0 or more than 64 fields, the kind declared other
   *   fields before, or 65,536 kinds exist.
   * @example
   * const AGENT = recorder.declareFields('agent', {
   *   health: 'f32', stamina: 'u8', state: 'enum', target: 'entity', velocity: 'vec3', grounded: 'bool',
   * });
   */
  public declareFields(kind: string, spec: FieldSpec): FieldSchema {
    const t = this.entities;
    if (typeof kind === 'string' && t.kinds.length >= MAX_KINDS && t.kinds.indexOf(kind) < 0)
      throw new RangeError(`rewindable: declareFields: ${MAX_KINDS} kinds exist`);
    const schema = this.fieldSchemas.declare(kind, spec);
    t.internKind(kind);
    return schema;
  }

  /**
   * Records the custom fields of the entity recorded just before (same `id`): `values` holds one
   * slot per component in declaration order (a vec3 takes three; `schema.slotOf[field]` is where a
   * field starts): numbers, a bool as 0/1 (or true/false), an enum as `schema.code(name)`, an entity
   * reference as its game id or -1. Fill one reusable `Float64Array` per kind: nothing is allocated,
   * and no double is passed to a call, whatever V8 inlines. Invalid values are repaired (see
   * `stats.invalidFieldValues`); fields not following their entity are dropped and counted.
   *
   * @example
   * const v = new Float64Array(AGENT.slots); // once
   * recorder.entity(a.id, a.x, a.y, 0, 0, 0, 0, 1);
   * v[0] = a.health; v[1] = a.stamina; v[2] = AGENT.code(a.state); v[3] = a.target?.id ?? -1;
   * v[4] = a.vx; v[5] = a.vy; v[6] = 0; v[7] = a.grounded ? 1 : 0;
   * recorder.fields(a.id, AGENT, v);
   */
  public fields(id: number, schema: FieldSchema, values: ArrayLike<number>): void {
    if (!this.frameOpen) return this.outside();
    const s = this.stage;
    if (id !== s.lastId || s.count === 0 || !this.ownsSchema(schema)) return this.fieldsRefused(id);
    this.fieldStage.row(s.count - 1, schema, values, id);
  }

  /**
   * Records custom fields from columns (an ECS's storage): `ids[i]` is an entity recorded in this
   * frame (matched in order, typically the same ids given to `entityColumns` just before), and
   * `columns[f][i]` its value of field f (a vec3 column holds x, y, z at `3 * i`; types as in
   * `fields`). Build the `columns` array once. Nothing is allocated and no double is passed to a
   * call; rows whose id was not recorded this frame are dropped and counted.
   *
   * @example
   * const cols = [world.health, world.stamina, world.state, world.target, world.velocity, world.grounded];
   * recorder.entityColumns(world.count, world.columns);
   * recorder.fieldColumns(AGENT, world.count, world.ids, cols); // every frame
   */
  public fieldColumns(
    schema: FieldSchema,
    count: number,
    ids: ArrayLike<number>,
    columns: ArrayLike<ArrayLike<number>>,
  ): void {
    if (!this.frameOpen) return this.outside();
    if (
      !this.ownsSchema(schema) ||
      ids === null ||
      typeof ids !== 'object' ||
      columns === null ||
      typeof columns !== 'object'
    )
      return this.fieldsRefused(-1);
    const s = this.stage;
    this.fieldStage.columns(schema, count, ids, columns, s.ids, s.count, s.flags, SANITIZED);
  }

  private ownsSchema(schema: FieldSchema): boolean {
    // A property load, not `instanceof` and a look-up: it runs once per entity.
    return schema != null && (schema as { owner?: unknown }).owner === this.fieldSchemas;
  }

  private fieldsRefused(id: number): void {
    this.stats.fieldRowsDropped++;
    if (!this.warnOnce.has('fieldsFollow'))
      this.warnOnce.warn(
        'fieldsFollow',
        `rewindable: fields(${String(id)}) must follow entity(${String(id)}) and use a schema of this recorder's declareFields; the fields were dropped`,
      );
  }

  /**
   * Names a life of `id` with a kind (used to re-create it after it despawned) and a label for
   * display; written once, not per frame. Inside a frame it names the life recorded in that frame
   * (or, when `id` is not recorded in it, its next life); outside a frame, the life recorded in the
   * newest frame if it is still alive, else the next one. Descriptions waiting for a life are kept
   * without allocating; at most 4,096 wait at once, and past that the oldest is forgotten. An id
   * that could never be recorded (not an integer in `[0, maxEntityId)`) is ignored and counted in
   * `stats.idsOutOfRange`.
   *
   * @example
   * recorder.describe(enemy.id, 'goblin', 'Gob #3');
   */
  public describe(id: number, kind: string, label?: string): void {
    this.descriptions.describe(id, kind, label, this.frameOpen ? this.nextFrame : -1, this.nextFrame - 1);
  }

  /**
   * Declares the bone hierarchy of a kind: `parents[i]` is bone i's parent, or -1 for a root.
   * Configuration: a bad call throws and changes nothing.
   *
   * @throws RangeError when `kind` is not a string of at most 65,536 well-formed UTF-16 units (or a
   *   65,537th kind), or `parents` does not hold at most 4,095 bones, each parent -1 or the index of
   *   another bone, without cycles.
   * @example
   * recorder.describeSkeleton('humanoid', [-1, 0, 1, 1, 0]); // pelvis, spine, head, arm, leg
   */
  public describeSkeleton(kind: string, parents: ArrayLike<number>): void {
    this.descriptions.skeleton(kind, parents);
  }

  /**
   * Ends the life of `id`: an `entity(id)` recorded after this call (in this frame or later) is a
   * different unique id. Recorded in the same frame before the call, the entity's last frame is this one.
   * An id that could never be recorded is ignored and counted in `stats.idsOutOfRange`. A frame
   * queues up to one despawn per entity handle (2^24); past that (a runaway loop of calls), a despawn
   * ends its life at once, so an entry of it recorded earlier in the frame starts a new life.
   */
  public despawn(id: number): void {
    if (!(id >= 0 && id < this.options.maxEntityId && (id | 0) === id)) {
      // Not an id that could be recorded (an int32 queue would store NaN as id 0).
      this.stats.idsOutOfRange++;
      if (!this.warnOnce.has('despawnId')) {
        this.warnOnce.warn(
          'despawnId',
          `rewindable: despawn(${String(id)}): not an entity id (an integer in [0, ${this.options.maxEntityId})); ignored`,
        );
      }
      return;
    }
    this.resolver.despawn(id, this.frameOpen ? this.stage.count : -1);
  }

  /**
   * The index of an event kind, registering it on first use.
   *
   * @throws RangeError when `name` is not a string of at most 65,536 well-formed UTF-16 units, or
   *   would be the 65,537th event kind (`event` with such a name repairs or drops it instead).
   * @example
   * const HIT = recorder.eventKind('hit'); // then recorder.event(HIT, id, x, y, 0)
   */
  public eventKind(name: string): number {
    return this.events.kind(name);
  }

  /**
   * Records an event (a timeline marker): e.g. a particle effect's start and end, a hit, a state
   * change. `kind` is a name or an index from `eventKind`; `subject` an entity id or -1.
   *
   * Called outside `beginFrame`/`endFrame` (a tween's `onComplete`, a timer), the event waits and
   * is recorded in the next frame. A frame holds `maxEventsPerFrame` events, those waiting
   * included: past that, an event is dropped, counted in `stats.eventsDropped` and warned once.
   *
   * @example
   * gsap.to(piece, { alpha: 0, onComplete: () => recorder.event('cleared', piece.id, piece.x, piece.y, 0) });
   */
  public event(kind: number | string, subject: number, x: number, y: number, z: number, value = 0): void {
    this.events.add(kind, subject, x, y, z, value);
  }

  /** Closes the frame and commits it to the ring, evicting the oldest frames as needed. */
  public endFrame(): void {
    if (!this.frameOpen) return this.outside();
    const draw = this.draw;
    draw.flushText();
    draw.open = false;
    this.frameOpen = false;
    this.stage.close();
    const frame = this.nextFrame++;
    this.writer.write(frame);
    if (this.frameEndListeners.length > 0) this.notifyFrameEnd(frame);
  }

  /**
   * Calls `listener` with each frame's number right after the frame is committed to the ring (a
   * live stream sends it then). A throwing listener is reported once and never reaches the game.
   * Returns the function that removes the listener.
   *
   * @example
   * const stop = recorder.onFrameEnd((frame) => sender.send(frame));
   */
  public onFrameEnd(listener: (frame: number) => void): () => void {
    this.frameEndListeners.push(listener);
    return () => {
      const i = this.frameEndListeners.indexOf(listener);
      if (i >= 0) this.frameEndListeners.splice(i, 1);
    };
  }

  private notifyFrameEnd(frame: number): void {
    const list = this.frameEndListeners;
    for (let i = 0; i < list.length; i++) {
      try {
        list[i](frame);
      } catch (e) {
        this.warnOnce.warn(
          'frameEnd',
          `rewindable: an onFrameEnd listener threw (${e instanceof Error ? e.message : String(e)}); the frame is recorded`,
        );
      }
    }
  }

  /** Drops every recorded frame and every entity life; channels, kinds and options stay. */
  public clear(): void {
    if (this.frameOpen) this.endFrame();
    this.header.clear();
    this.ring.clear();
    this.descriptions.clear();
    this.resolver.clear();
    this.entities.clear();
  }

  /** Counts an entity call that could not be stored (outside a frame, bad id, over capacity). */
  private refuse(id: number): void {
    if (!this.frameOpen) return this.outside();
    this.stage.refuse(id);
  }

  private outside(): void {
    this.stats.callsOutsideFrame++;
    this.warnOnce.warn('outside', 'rewindable: recorder called outside beginFrame/endFrame; the call was ignored');
  }
}
