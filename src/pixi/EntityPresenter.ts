import { type Container, type Graphics, Sprite, type StrokeStyle, type Texture } from 'pixi.js';
import type { Playback } from '../core/playback/Playback';
import type { SampleBuffer } from '../core/playback/SampleBuffer';
import { EntityBuffer, growTyped } from '../core/read/buffers';
import {
  EntityViewState,
  SAVED_WORDS,
  applyEntity2D,
  restoreEntity,
  saveEntity,
  tintForFlags,
  type EntityBinding,
} from './binding';
import { addStickFigure } from './bones';
import { worldToSpace } from './worldSpace';

/** How a handle is shown in the current session (0, the arrays' initial value: not shown). */
const LIVE = 1;
const RECREATED = 2;
const GHOST = 3;

const ghostStroke: StrokeStyle = { color: 0xffffff, width: 1.5, alpha: 0.9 };
const boneStroke: StrokeStyle = { color: 0xffffff, width: 1, pixelLine: true, alpha: 1 };

/** Settings of `EntityPresenter`, given by the overlay. */
export interface EntityPresenterOptions {
  /** Flattened flag → tint table: `[flag0, tint0, flag1, tint1, ...]`. */
  flagTints: Int32Array;
  /** Radius (world units) of the circle drawn for an entity that cannot be re-created. */
  ghostRadius: number;
  /** Colour of those circles. */
  ghostColor: number;
  /** Called once per kind of problem (a binding hook threw). */
  warn: (key: string, message: string) => void;
  /**
   * The world container: recorded positions are in its space; an object nested deeper gets them
   * converted into its parent's coordinates (`EntityView.localX`). Null: every parent is world space.
   */
  world?: Container | null;
}

const localScratch = new Float64Array(3);

/**
 * Shows a sample with the game's own display objects. At `begin` (pause) it takes over every live
 * object recorded in the newest frame and saves its state; `present` puts each sampled entity at its
 * recorded transform and flags, hides live objects absent from the viewed frame, re-creates
 * despawned entities through `binding.create` (pooled per kind) or draws them as debug shapes, and
 * draws bones as stick figures (ghost entities with bones are always drawn as stick figures). `end` (resume) restores every live object exactly and returns
 * re-created ones to their pools.
 *
 * `present` allocates nothing in steady state: the view passed to `apply` is one reused object and
 * every per-entity table is a typed array indexed by handle.
 *
 * Exported from `rewindable/pixi` as a type only (`overlay.presenter`): the overlay builds it and
 * opens and closes its sessions.
 *
 * @example
 * presenter.begin(playback, true);
 * playback.sampler.sample(120.5, sample);
 * presenter.present(sample, true);
 * presenter.end();
 */
export class EntityPresenter {
  private readonly view = new EntityViewState();
  private readonly newest = new EntityBuffer();
  private playback: Playback | null = null;
  private epoch = 0;
  private stamp = 0;
  // Handle-indexed: the session that resolved the handle, how it is shown, its slot.
  private handleEpoch = new Int32Array(0);
  private handleMode = new Uint8Array(0);
  private handleSlot = new Int32Array(0);
  // Live slots.
  private liveObjs: Container[] = [];
  private liveStates: unknown[] = [];
  /** Each live sprite's texture at takeover (the default apply may change it), null for other objects. */
  private liveTextures: Array<Texture | null> = [];
  private liveHandles = new Int32Array(16);
  private liveSeen = new Int32Array(16);
  private liveSaved = new Float64Array(16 * SAVED_WORDS);
  private liveCountValue = 0;
  // Re-created objects (all that were ever made; `recInUse` marks those taken this session).
  private readonly recObjs: Container[] = [];
  private readonly recKinds: string[] = [];
  private recBaseTint = new Int32Array(16);
  private recInUse = new Uint8Array(16);
  private recSeen = new Int32Array(16);
  private readonly freeByKind = new Map<string, number[]>();
  private readonly inUse: number[] = [];
  private ghostCountValue = 0;
  private ghostsDrawn = true;
  private bonesDrawn = true;

  public constructor(
    private readonly binding: EntityBinding,
    /** Where re-created objects are added (in world coordinates). */
    private readonly recreatedLayer: Container,
    /** Debug shapes of entities that cannot be re-created. */
    private readonly ghosts: Graphics,
    /** Stick figures of bones. */
    private readonly bones: Graphics,
    private readonly options: EntityPresenterOptions,
  ) {}

  /** Whether a session is open (between `begin` and `end`). */
  public get active(): boolean {
    return this.playback !== null;
  }

  /** Live objects taken over in this session. */
  public get liveCount(): number {
    return this.liveCountValue;
  }

  /** Re-created objects in use in this session. */
  public get recreatedCount(): number {
    return this.inUse.length;
  }

  /** Re-created objects ever made (the pools' total size). */
  public get pooledCount(): number {
    return this.recObjs.length;
  }

  /** Entities drawn as debug shapes by the last `present`. */
  public get ghostCount(): number {
    return this.ghostCountValue;
  }

  /**
   * The display object showing `handle` in this session (live or re-created), or null (not yet
   * seen, or drawn as a debug shape).
   */
  public objectOf(handle: number): Container | null {
    if (!(handle >= 0 && handle < this.handleEpoch.length) || this.handleEpoch[handle] !== this.epoch) return null;
    const mode = this.handleMode[handle];
    if (mode === LIVE) return this.liveObjs[this.handleSlot[handle]];
    if (mode === RECREATED) return this.recObjs[this.handleSlot[handle]];
    return null;
  }

  /**
   * Opens a session on `playback`. With `takeLive`, every object the binding finds for an entity
   * of the newest frame is saved and taken over (the game is paused); without it (a loaded replay),
   * every entity is re-created or drawn as a shape.
   */
  public begin(playback: Playback, takeLive: boolean): void {
    if (this.playback !== null) this.end();
    this.playback = playback;
    if (++this.epoch >= 0x7ffffff0) {
      this.handleEpoch.fill(0);
      this.epoch = 1;
    }
    this.ensureHandles(playback.reader.entities.capacity);
    this.liveCountValue = 0;
    // The Graphics may hold what the live view drew: the first present clears them.
    this.ghostsDrawn = true;
    this.bonesDrawn = true;
    const reader = playback.reader;
    if (!takeLive || reader.frameCount === 0) return;
    const ents = this.newest;
    if (!reader.readEntities(reader.newestFrame, ents, false)) return;
    const table = reader.entities;
    for (let i = 0; i < ents.count; i++) {
      const h = ents.handles[i];
      const id = table.ids[h];
      if (table.lookup(id) !== h) continue;
      let obj: Container | null | undefined;
      try {
        obj = this.binding.find(id);
      } catch (err) {
        this.options.warn('find', `rewindable: binding.find(${id}) threw: ${String(err)}`);
        obj = null;
      }
      if (obj === null || obj === undefined) continue;
      this.takeLive(h, obj);
    }
  }

  /**
   * Shows `sample`. Entities outside the sample's nearer frame are hidden; bones are drawn as
   * stick figures in `boneColor` when `showBones`.
   */
  public present(sample: SampleBuffer, showBones: boolean, boneColor: number): void {
    const pb = this.playback;
    if (pb === null) return;
    const table = pb.reader.entities;
    if (table.capacity > this.handleEpoch.length) this.ensureHandles(table.capacity);
    const stamp = ++this.stamp;
    const g = this.ghosts;
    const bg = this.bones;
    // Clearing an empty Graphics still costs pixi an update event: only when something was drawn.
    if (this.ghostsDrawn) g.clear();
    if (this.bonesDrawn) bg.clear();
    const view = this.view;
    const tints = this.options.flagTints;
    const epoch = this.epoch;
    let ghosts = 0;
    let ghostPath = false;
    let bonePath = false;
    for (let i = 0; i < sample.count; i++) {
      if (!sample.inNearerFrame(i)) continue;
      const h = sample.handles[i];
      if (!(h >= 0 && h < this.handleEpoch.length)) continue;
      if (this.handleEpoch[h] !== epoch) this.resolve(h, table.ids[h]);
      const mode = this.handleMode[h];
      const slot = this.handleSlot[h];
      const hasBones = sample.boneStart[i] >= 0 && sample.boneCount[i] > 0;
      if (mode === GHOST) {
        ghosts++;
        if (hasBones) bonePath = this.stickFigure(bg, sample, i, h) || bonePath;
        else {
          g.circle(sample.positions[i * 3], sample.positions[i * 3 + 1], this.options.ghostRadius);
          ghostPath = true;
        }
        continue;
      }
      let obj: Container;
      if (mode === LIVE) {
        obj = this.liveObjs[slot];
        this.liveSeen[slot] = stamp;
        view.baseTint = this.liveSaved[slot * SAVED_WORDS + 6];
        view.live = true;
      } else {
        obj = this.recObjs[slot];
        this.recSeen[slot] = stamp;
        view.baseTint = this.recBaseTint[slot];
        view.live = false;
      }
      view.sample = sample;
      view.id = sample.ids[i];
      view.handle = h;
      view.index = i;
      view.setTransform(sample.positions, sample.rotations, i);
      this.toLocal(obj, view);
      view.flags = sample.flags[i];
      view.setDisplay(sample, i, pb.reader.textures);
      // Visibility: a seen object as it was (live) or shown (re-created); recorded display state may change it.
      obj.visible = mode === LIVE ? this.liveSaved[slot * SAVED_WORDS + 5] === 1 : true;
      const k = table.kindOf[h];
      view.kind = k >= 0 ? table.kinds[k] : undefined;
      view.label = table.labels[h];
      view.flagTint = tintForFlags(view.flags, tints, view.baseTint);
      try {
        if (this.binding.apply !== undefined) this.binding.apply(obj, view);
        else applyEntity2D(obj, view);
      } catch (err) {
        this.options.warn('apply', `rewindable: binding.apply threw for entity ${view.id}: ${String(err)}`);
      }
      if (showBones && hasBones) bonePath = this.stickFigure(bg, sample, i, h) || bonePath;
    }
    // Visibility: the objects not seen are hidden (the seen ones were set above).
    for (let s = 0; s < this.liveCountValue; s++) {
      if (this.liveSeen[s] !== stamp) this.liveObjs[s].visible = false;
    }
    for (let k = 0; k < this.inUse.length; k++) {
      const r = this.inUse[k];
      if (this.recSeen[r] !== stamp) this.recObjs[r].visible = false;
    }
    if (ghostPath) {
      ghostStroke.color = this.options.ghostColor;
      g.stroke(ghostStroke);
    }
    if (bonePath) {
      boneStroke.color = boneColor;
      bg.stroke(boneStroke);
    }
    this.ghostsDrawn = ghostPath;
    this.bonesDrawn = bonePath;
    this.ghostCountValue = ghosts;
  }

  /** Closes the session: restores every live object exactly and returns re-created ones to their pools. */
  public end(): void {
    if (this.playback === null) return;
    const custom = this.binding.capture !== undefined && this.binding.restore !== undefined;
    for (let s = 0; s < this.liveCountValue; s++) {
      const obj = this.liveObjs[s];
      // The overlay's own save first (it also changed visibility), then what the binding captured.
      restoreEntity(obj, this.liveSaved, s * SAVED_WORDS);
      const texture = this.liveTextures[s];
      if (texture !== null && texture !== undefined && (obj as Sprite).texture !== texture)
        (obj as Sprite).texture = texture;
      this.liveTextures[s] = null;
      if (custom) {
        try {
          this.binding.restore!(obj, this.liveStates[s]);
        } catch (err) {
          this.options.warn('restore', `rewindable: binding.restore threw: ${String(err)}`);
        }
      }
      this.liveStates[s] = undefined;
    }
    this.liveCountValue = 0;
    for (let k = 0; k < this.inUse.length; k++) {
      const r = this.inUse[k];
      this.recObjs[r].visible = false;
      this.recInUse[r] = 0;
      this.freeByKind.get(this.recKinds[r])!.push(r);
    }
    this.inUse.length = 0;
    this.ghosts.clear();
    this.bones.clear();
    this.ghostsDrawn = false;
    this.bonesDrawn = false;
    this.ghostCountValue = 0;
    this.playback = null;
  }

  /** Fills the view's parent-space transform: the recorded one, converted when `obj` is nested below the world. */
  private toLocal(obj: Container, view: EntityViewState): void {
    const parent = obj.parent;
    const world = this.options.world ?? null;
    if (world === null || parent === null || parent === world || parent === this.recreatedLayer) {
      view.localX = view.x;
      view.localY = view.y;
      view.localAngle = view.angle;
      return;
    }
    worldToSpace(parent, world, view.x, view.y, view.angle, localScratch);
    view.localX = localScratch[0];
    view.localY = localScratch[1];
    view.localAngle = localScratch[2];
  }

  private takeLive(h: number, obj: Container): void {
    const s = this.liveCountValue;
    if (s >= this.liveHandles.length) this.growLive(s + 1);
    this.liveObjs[s] = obj;
    this.liveHandles[s] = h;
    this.liveSeen[s] = 0;
    // Always saved: visibility and tint are read from here even with a custom capture.
    saveEntity(obj, this.liveSaved, s * SAVED_WORDS);
    this.liveTextures[s] = obj instanceof Sprite ? obj.texture : null;
    if (this.binding.capture !== undefined) {
      try {
        this.liveStates[s] = this.binding.capture(obj);
      } catch (err) {
        this.options.warn('capture', `rewindable: binding.capture threw: ${String(err)}`);
      }
    }
    this.handleEpoch[h] = this.epoch;
    this.handleMode[h] = LIVE;
    this.handleSlot[h] = s;
    this.liveCountValue = s + 1;
  }

  /** First sight of a handle in this session that is not a live object: re-create or draw a shape. */
  private resolve(h: number, id: number): void {
    this.handleEpoch[h] = this.epoch;
    this.handleMode[h] = GHOST;
    this.handleSlot[h] = -1;
    const table = this.playback!.reader.entities;
    const k = table.kindOf[h];
    if (k < 0 || this.binding.create === undefined) return;
    const kind = table.kinds[k];
    const r = this.acquire(kind, id, table.labels[h]);
    if (r < 0) return;
    this.handleMode[h] = RECREATED;
    this.handleSlot[h] = r;
  }

  /** A pooled object of `kind`, created through the binding when the pool is empty; -1 when impossible. */
  private acquire(kind: string, id: number, label: string | undefined): number {
    let free = this.freeByKind.get(kind);
    if (free === undefined) {
      free = [];
      this.freeByKind.set(kind, free);
    }
    let r: number;
    if (free.length > 0) {
      r = free.pop()!;
    } else {
      let obj: Container | null | undefined;
      try {
        obj = this.binding.create!(kind, id, label);
      } catch (err) {
        this.options.warn('create', `rewindable: binding.create("${kind}") threw: ${String(err)}`);
        obj = null;
      }
      if (obj === null || obj === undefined) return -1;
      r = this.recObjs.length;
      if (r >= this.recInUse.length) this.growRec(r + 1);
      this.recObjs.push(obj);
      this.recKinds.push(kind);
      this.recBaseTint[r] = obj.tint;
      this.recreatedLayer.addChild(obj);
    }
    this.recInUse[r] = 1;
    this.recSeen[r] = 0;
    this.inUse.push(r);
    return r;
  }

  /** Adds the stick figure of sample row `i` to the current path of `g`. */
  private stickFigure(g: Graphics, s: SampleBuffer, i: number, h: number): boolean {
    const table = this.playback!.reader.entities;
    const k = table.kindOf[h];
    return addStickFigure(g, s, i, k >= 0 ? table.skeletons[k] : undefined);
  }

  private ensureHandles(n: number): void {
    if (n <= this.handleEpoch.length) return;
    const cap = Math.max(n, this.handleEpoch.length * 2, 64);
    this.handleEpoch = growTyped(this.handleEpoch, new Int32Array(cap));
    this.handleMode = growTyped(this.handleMode, new Uint8Array(cap));
    this.handleSlot = growTyped(this.handleSlot, new Int32Array(cap));
  }

  /**
   * Gives every re-created object back: to `binding.release` when there is one, else destroyed.
   * Ends the session first. The presenter can be used again afterwards (its pools start empty).
   */
  public disposePools(): void {
    this.end();
    for (let r = 0; r < this.recObjs.length; r++) {
      const obj = this.recObjs[r];
      obj.parent?.removeChild(obj);
      try {
        if (this.binding.release !== undefined) this.binding.release(obj, this.recKinds[r]);
        else obj.destroy({ children: true });
      } catch (err) {
        this.options.warn('release', `rewindable: binding.release threw: ${String(err)}`);
      }
    }
    this.recObjs.length = 0;
    this.recKinds.length = 0;
    this.freeByKind.clear();
  }

  private growLive(n: number): void {
    const cap = Math.max(n, this.liveHandles.length * 2);
    this.liveHandles = growTyped(this.liveHandles, new Int32Array(cap));
    this.liveSeen = growTyped(this.liveSeen, new Int32Array(cap));
    const saved = new Float64Array(cap * SAVED_WORDS);
    saved.set(this.liveSaved);
    this.liveSaved = saved;
  }

  private growRec(n: number): void {
    const cap = Math.max(n, this.recInUse.length * 2);
    this.recBaseTint = growTyped(this.recBaseTint, new Int32Array(cap));
    this.recInUse = growTyped(this.recInUse, new Uint8Array(cap));
    this.recSeen = growTyped(this.recSeen, new Int32Array(cap));
  }
}
