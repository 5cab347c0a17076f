/**
 * The entity binding: how the overlay finds, moves, saves and re-creates the game's display objects.
 * Only `find` is required; the defaults suit a 2D game whose entities are containers placed in the
 * world container's coordinates.
 */
import { Cache, type Container, Sprite, Texture } from 'pixi.js';
import { EntityFlags } from '../core/format/layout';
import { quatToAngleZ } from '../core/math/quat';
import { SampleBuffer } from '../core/playback/SampleBuffer';
import { DISPLAY_SHOWN } from '../core/read/buffers';
import { setPointExact, setRotationExact } from './camera';

const EMPTY_SAMPLE = new SampleBuffer();

/**
 * One entity of the viewed sample, handed to `EntityBinding.apply`. The overlay reuses one view
 * object for every call: read it during the call, do not keep it.
 */
export interface EntityView {
  /** The game's numeric id. */
  readonly id: number;
  /** The unique id's dense handle in the reader's entity table. */
  readonly handle: number;
  /** Index of the entity in the sample's arrays. */
  readonly index: number;
  /** Interpolated position. */
  readonly x: number;
  readonly y: number;
  readonly z: number;
  /** Interpolated rotation quaternion. */
  readonly qx: number;
  readonly qy: number;
  readonly qz: number;
  readonly qw: number;
  /** Rotation about z (radians) of the quaternion: what a 2D game displays. */
  readonly angle: number;
  /**
   * `x`, `y` and `angle` in the coordinates of the object's parent: the same numbers when the
   * parent is the world container (or the overlay's layer of re-created objects); converted through
   * the containers in between when the object is nested deeper (a crate on a moving raft). What
   * `applyEntity2D` sets.
   */
  readonly localX: number;
  readonly localY: number;
  readonly localAngle: number;
  /** Display flags of the nearer frame (`EntityFlags`). */
  readonly flags: number;
  /**
   * Whether the entity has 2D display state in the sample (`Recorder.display`); the five fields
   * below hold it only then. Scale and alpha are blended, `visible` and `texture` from the nearer frame.
   */
  readonly hasDisplay: boolean;
  readonly scaleX: number;
  readonly scaleY: number;
  readonly alpha: number;
  readonly visible: boolean;
  /** Texture name (`Recorder.texture`) the entity showed, or undefined for none. */
  readonly texture: string | undefined;
  /** Kind named by `recorder.describe`, if any. */
  readonly kind: string | undefined;
  /** Label named by `recorder.describe`, if any. */
  readonly label: string | undefined;
  /** The object's tint when the overlay took it over (or when it was created). */
  readonly baseTint: number;
  /** Whether the object is the game's live object (false: re-created for a despawned entity). */
  readonly live: boolean;
  /** Tint for the flags (see `RewindOverlayOptions.flagTints`), or `baseTint` when no flag has one. */
  readonly flagTint: number;
  /**
   * The whole sample (row `index` is this entity): bones are `sample.boneStart[index]`,
   * `sample.boneCount[index]` into `sample.boneRotations` / `sample.boneOffsets` (local, see `bones.ts`).
   */
  readonly sample: SampleBuffer;
}

/** The mutable implementation of `EntityView` the overlay fills. @internal */
export class EntityViewState implements EntityView {
  public id = 0;
  public handle = 0;
  public index = 0;
  public x = 0;
  public y = 0;
  public z = 0;
  public qx = 0;
  public qy = 0;
  public qz = 0;
  public qw = 1;
  public angle = 0;
  public localX = 0;
  public localY = 0;
  public localAngle = 0;
  public flags = 0;
  public hasDisplay = false;
  public scaleX = 1;
  public scaleY = 1;
  public alpha = 1;
  public visible = true;
  public texture: string | undefined = undefined;
  public kind: string | undefined = undefined;
  public label: string | undefined = undefined;
  public baseTint = 0xffffff;
  public live = true;
  public flagTint = 0xffffff;
  public sample: SampleBuffer = EMPTY_SAMPLE;

  /** Fills position, rotation and angle from flat arrays (positions stride 3, rotations stride 4). */
  public setTransform(positions: ArrayLike<number>, rotations: ArrayLike<number>, i: number): void {
    this.x = positions[i * 3];
    this.y = positions[i * 3 + 1];
    this.z = positions[i * 3 + 2];
    this.qx = rotations[i * 4];
    this.qy = rotations[i * 4 + 1];
    this.qz = rotations[i * 4 + 2];
    this.qw = rotations[i * 4 + 3];
    this.angle = quatToAngleZ(rotations, i * 4);
  }

  /** Fills the display state of row `i` of `sample` (none when it has none); `textures` names the indices. */
  public setDisplay(sample: SampleBuffer, i: number, textures: readonly string[]): void {
    const d = sample.hasDisplay ? sample.display[i] : 0;
    this.hasDisplay = d !== 0;
    if (d === 0) return;
    this.scaleX = sample.scales[i * 2];
    this.scaleY = sample.scales[i * 2 + 1];
    this.alpha = sample.alphas[i];
    this.visible = (d & DISPLAY_SHOWN) !== 0;
    const t = sample.textures[i];
    this.texture = t >= 0 ? textures[t] : undefined;
  }
}

/**
 * How the overlay talks to the game's display objects.
 *
 * @example
 * const binding: EntityBinding = {
 *   find: (id) => sprites.get(id),
 *   create: (kind) => (kind === 'bullet' ? new Sprite(bulletTexture) : null),
 * };
 */
export interface EntityBinding<S = unknown> {
  /** The live display object of numeric id `id`, or null/undefined when the game shows none. */
  find(id: number): Container | null | undefined;
  /**
   * Shows `obj` as the recorded entity. Default (`applyEntity2D`): x and y from the position,
   * rotation from the quaternion's angle about z, tint from the flags.
   */
  apply?(obj: Container, view: EntityView): void;
  /**
   * Saves what `apply` changes beyond the default save, before the overlay touches a live object.
   * The overlay always saves and restores position, rotation, scale, visibility, tint and alpha
   * itself; `capture` **extends** that save (a child's rotation, a texture frame): on resume the
   * overlay restores its own save first, then calls `restore(obj, state)`.
   *
   * @example
   * capture: (barrel) => barrel.children[0].rotation,
   * restore: (barrel, r) => { barrel.children[0].rotation = r; },
   */
  capture?(obj: Container): S;
  /** Puts back what `capture` saved, after the overlay restored its own save. Required when `capture` is given. */
  restore?(obj: Container, state: S): void;
  /**
   * The kind of a life the game just started, asked once per life from its display object (`obj`,
   * from `find`), so the game never calls `recorder.describe` itself: a despawned entity is then
   * re-created through `create(kind)`. Return undefined for "no kind" (drawn as a debug shape).
   * With per-life ids (an id is never reused), no `despawn` bookkeeping is needed either.
   *
   * @example
   * kindOf: (obj, id) => game.actors.get(id)?.kind,
   */
  kindOf?(obj: Container, id: number): string | null | undefined;
  /**
   * Re-creates an entity that no longer exists in the game (despawned), from its kind. Objects are
   * pooled per kind: `create` is called only when the pool of that kind is empty. Return null when
   * the kind cannot be created; the overlay then draws a debug shape (a circle, or a stick figure
   * when the entity has bones).
   */
  create?(kind: string, id: number, label: string | undefined): Container | null | undefined;
  /**
   * Takes back an object `create` made, when the overlay is destroyed (between pauses the overlay
   * keeps them, hidden, in its pool). Without it they are destroyed.
   */
  release?(obj: Container, kind: string): void;
}

/**
 * The default `apply` for 2D games: x, y from the position, rotation about z (both in the
 * coordinates of the object's parent, see `EntityView.localX`), and the tint for the flags.
 * Allocates nothing.
 *
 * @example
 * apply: (obj, view) => { applyEntity2D(obj, view); obj.children[0].rotation = view.z; },
 */
export function applyEntity2D(obj: Container, view: EntityView): void {
  // One call for x and y: pixi marks the object changed once, not once per coordinate.
  obj.position.set(view.localX, view.localY);
  obj.rotation = view.localAngle;
  // Setting a tint costs a colour conversion in pixi even when unchanged: only on change.
  if (obj.tint !== view.flagTint) obj.tint = view.flagTint;
  if (view.hasDisplay) applyDisplay2D(obj, view);
}

/**
 * Applies recorded 2D display state (`Recorder.display`): scale, alpha, visibility, and the
 * texture of a `Sprite` when its name is in pixi's `Cache` (an `Assets` alias, or `Cache.set(name,
 * texture)`); part of `applyEntity2D`. The overlay restores all of it on resume.
 *
 * @example
 * apply: (obj, view) => { applyEntity2D(obj, view); if (view.texture) label.text = view.texture; },
 */
export function applyDisplay2D(obj: Container, view: EntityView): void {
  if (obj.scale.x !== view.scaleX || obj.scale.y !== view.scaleY) obj.scale.set(view.scaleX, view.scaleY);
  obj.alpha = view.alpha;
  obj.visible = view.visible;
  const name = view.texture;
  if (name !== undefined && obj instanceof Sprite && Cache.has(name)) {
    const t = Cache.get<unknown>(name);
    if (t instanceof Texture && obj.texture !== t) obj.texture = t;
  }
}

/**
 * Flag → tint table, checked in order: the first flag set on the entity gives its tint. Default:
 * sanitized magenta, damaged red, highlighted yellow.
 */
export const DEFAULT_FLAG_TINTS: ReadonlyArray<readonly [flag: number, tint: number]> = [
  [EntityFlags.SANITIZED, 0xff00ff],
  [EntityFlags.DAMAGED, 0xff4a4a],
  [EntityFlags.HIGHLIGHTED, 0xffee55],
];

/** Tint for `flags` from a flattened table `[flag0, tint0, flag1, tint1, ...]`, else `base`. @internal */
export function tintForFlags(flags: number, table: Int32Array, base: number): number {
  for (let i = 0; i < table.length; i += 2) if ((flags & table[i]) !== 0) return table[i + 1];
  return base;
}

/** Values the overlay saves per live object when the binding has no `capture`. @internal */
export const SAVED_WORDS = 8;

/** Saves position, rotation, scale, visibility, tint and alpha into `out[o .. o + 7]`. @internal */
export function saveEntity(obj: Container, out: Float64Array, o: number): void {
  out[o] = obj.position.x;
  out[o + 1] = obj.position.y;
  out[o + 2] = obj.rotation;
  out[o + 3] = obj.scale.x;
  out[o + 4] = obj.scale.y;
  out[o + 5] = obj.visible ? 1 : 0;
  out[o + 6] = obj.tint;
  out[o + 7] = obj.alpha;
}

/** Restores what `saveEntity` saved, exactly (down to the sign of zero). @internal */
export function restoreEntity(obj: Container, from: Float64Array, o: number): void {
  setPointExact(obj.position, from[o], from[o + 1]);
  setRotationExact(obj, from[o + 2]);
  setPointExact(obj.scale, from[o + 3], from[o + 4]);
  obj.visible = from[o + 5] === 1;
  obj.tint = from[o + 6];
  obj.alpha = from[o + 7];
}
