import { Container, Rectangle, type FederatedPointerEvent, type FederatedWheelEvent } from 'pixi.js';
import type { SampleBuffer } from '../core/playback/SampleBuffer';
import { quatToAngleZ } from '../core/math/quat';
import {
  CAM_ANGLE,
  CAM_X,
  CAM_Y,
  CAM_ZOOM,
  TRANSFORM_WORDS,
  applyCamera,
  copyTransform,
  createCamera,
  readCamera,
  restoreTransform,
  saveTransform,
  viewToWorld,
  CAMERA_MODES,
  type CameraMode,
} from './camera';

// The modes live with the camera convention: the overlay and its panel name them before the
// controller (part of the lazily loaded paused view) exists.
export { CAMERA_MODES, type CameraMode } from './camera';

/** Limits and input of the manual camera. */
export interface CameraControllerOptions {
  minZoom: number;
  maxZoom: number;
  /** Zoom factor per wheel notch (100 px of deltaY). */
  wheelZoom: number;
  /** A press that moves less than this many pixels is a click (selects an entity). */
  clickSlop: number;
}

/** The defaults merged under the options given to `new CameraController(...)`. */
export const DEFAULT_CAMERA_CONTROLLER_OPTIONS: Readonly<CameraControllerOptions> = Object.freeze({
  minZoom: 0.02,
  maxZoom: 50,
  wheelZoom: 1.15,
  clickSlop: 4,
});

const scratchWorld = new Float64Array(2);

/**
 * The replay camera: applies the recorded game camera or a manual one to the world container, and
 * turns pointer input into manual camera moves: drag to pan, the wheel zooms around the cursor,
 * right-drag (or `rotateBy`) rotates, a click selects an entity to follow. Saves the world
 * container's transform at `begin` and restores it exactly at `end`.
 *
 * See `camera.ts` for the convention (the world container's transform is the camera).
 *
 * @example
 * camera.resize(800, 600);
 * camera.begin(world);
 * camera.resolve(sample);  // game/free/follow → camera.current
 * camera.apply(world);     // only when it changed
 * camera.end(world);
 */
export class CameraController {
  /** The camera now shown (x, y, angle, zoom). */
  public readonly current = createCamera();
  /** The manual camera (free and follow modes). */
  public readonly manual = createCamera();
  /** Interaction surface (covers the view while a replay is shown). */
  public readonly input = new Container();

  private modeValue: CameraMode = 'game';
  private followed = -1;
  private changeListeners: Array<() => void> = [];
  private clickListeners: Array<(x: number, y: number) => void> = [];

  private readonly saved = new Float64Array(TRANSFORM_WORDS);
  /** What the overlay last wrote on the world container, and a scratch read of it. */
  private readonly written = new Float64Array(TRANSFORM_WORDS);
  private readonly seen = new Float64Array(TRANSFORM_WORDS);
  /** Containers that share the camera (their transform follows the world's while paused), and their saves. */
  private shared: readonly Container[] = [];
  private sharedSaved = new Float64Array(0);
  private readonly atPause = createCamera();
  private readonly applied = createCamera(Number.NaN);
  private active = false;
  private viewWidth = 1;
  private viewHeight = 1;
  private dragButton = -1;
  private downX = 0;
  private downY = 0;
  private lastX = 0;
  private lastY = 0;
  private dragged = false;
  private readonly hit = new Rectangle(0, 0, 1, 1);
  private wheelTarget: EventTarget | null = null;
  private readonly onNativeWheel = (e: Event): void => {
    // Over the paused game the wheel zooms the camera: the page must not scroll.
    if (this.active && e.cancelable) e.preventDefault();
  };

  private readonly options: Readonly<CameraControllerOptions>;

  public constructor(options: Partial<CameraControllerOptions> = {}) {
    this.options = Object.freeze({ ...DEFAULT_CAMERA_CONTROLLER_OPTIONS, ...options });
    this.input.label = 'rewindable:camera-input';
    this.input.hitArea = this.hit;
    this.input.eventMode = 'none';
    this.input.on('pointerdown', this.onDown, this);
    this.input.on('globalpointermove', this.onMove, this);
    this.input.on('pointerup', this.onUp, this);
    this.input.on('pointerupoutside', this.onUp, this);
    this.input.on('wheel', this.onWheel, this);
  }

  /**
   * Keeps the wheel over `canvas` from scrolling the page while a session is open. pixi listens to
   * the wheel passively (a pixi wheel event cannot prevent the page from scrolling, and trying
   * logs an error in Chrome), so this adds one native, non-passive listener. Replaces the canvas
   * of an earlier call.
   */
  public captureWheel(canvas: EventTarget): void {
    this.dispose();
    this.wheelTarget = canvas;
    canvas.addEventListener('wheel', this.onNativeWheel, { passive: false });
  }

  /** Removes the listener of `captureWheel`. */
  public dispose(): void {
    this.wheelTarget?.removeEventListener('wheel', this.onNativeWheel);
    this.wheelTarget = null;
  }

  /** Whether a session is open. */
  public get isActive(): boolean {
    return this.active;
  }

  /** Current mode; change it with `setMode`. */
  public get mode(): CameraMode {
    return this.modeValue;
  }

  /** Handle of the followed entity, or -1; change it with `follow`. */
  public get followHandle(): number {
    return this.followed;
  }

  /** Calls `listener` whenever the manual camera moved or the mode changed. Returns the unsubscribe. */
  public onChange(listener: () => void): () => void {
    this.changeListeners = [...this.changeListeners, listener];
    return () => {
      this.changeListeners = this.changeListeners.filter((l) => l !== listener);
    };
  }

  /** Calls `listener` on a click (not a drag) with the view coordinates. Returns the unsubscribe. */
  public onClick(listener: (x: number, y: number) => void): () => void {
    this.clickListeners = [...this.clickListeners, listener];
    return () => {
      this.clickListeners = this.clickListeners.filter((l) => l !== listener);
    };
  }

  /** Sets the size of the view (the world container's parent space, normally `app.screen`). */
  public resize(width: number, height: number): void {
    this.viewWidth = width;
    this.viewHeight = height;
    this.hit.width = width;
    this.hit.height = height;
    this.applied[CAM_X] = Number.NaN;
  }

  /**
   * Containers beside the world container that share its camera (a HUD of health bars in world
   * coordinates): while paused they get the world container's transform whenever the camera is
   * applied, and on `end` their own transform back, exactly.
   */
  public setSharedCamera(containers: readonly Container[]): void {
    if (this.active) throw new Error('rewindable: the shared-camera containers cannot change while paused');
    this.shared = containers.slice();
    this.sharedSaved = new Float64Array(this.shared.length * TRANSFORM_WORDS);
  }

  /** Saves the world container's transform and starts the manual camera from the current view. */
  public begin(world: Container): void {
    if (this.active) return;
    this.active = true;
    saveTransform(world, this.saved, 0);
    this.written.set(this.saved);
    for (let i = 0; i < this.shared.length; i++) saveTransform(this.shared[i], this.sharedSaved, i * TRANSFORM_WORDS);
    readCamera(world, this.viewWidth, this.viewHeight, this.atPause);
    this.manual.set(this.atPause);
    this.current.set(this.atPause);
    this.applied[CAM_X] = Number.NaN;
    this.input.eventMode = 'static';
  }

  /**
   * Restores the world container's transform exactly as it was at `begin`; the next session starts
   * in `game` mode following nothing (no change event: the overlay announces the resume itself).
   */
  public end(world: Container): void {
    if (!this.active) return;
    this.active = false;
    this.adoptGameChanges(world);
    restoreTransform(world, this.saved, 0);
    for (let i = 0; i < this.shared.length; i++)
      restoreTransform(this.shared[i], this.sharedSaved, i * TRANSFORM_WORDS);
    this.input.eventMode = 'none';
    this.dragButton = -1;
    this.followed = -1;
    this.modeValue = 'game';
  }

  /** Switches mode (an unknown mode is ignored). `follow` without a followed entity stays where the camera is. */
  public setMode(mode: CameraMode): void {
    if (mode === this.modeValue || !CAMERA_MODES.includes(mode)) return;
    if (mode !== 'game' && this.modeValue === 'game') this.manual.set(this.current);
    this.modeValue = mode;
    this.changed();
  }

  /** Cycles game → free → follow (follow only when an entity is selected). */
  public cycleMode(): void {
    if (this.modeValue === 'game') this.setMode('free');
    else if (this.modeValue === 'free' && this.followed >= 0) this.setMode('follow');
    else this.setMode('game');
  }

  /** Follows the entity of `handle` (or stops following with -1). */
  public follow(handle: number): void {
    this.followed = handle;
    if (handle >= 0) this.setMode('follow');
    else if (this.modeValue === 'follow') this.setMode('free');
    this.changed();
  }

  /** Pans the manual camera by a drag of (dx, dy) view pixels. */
  public panBy(dx: number, dy: number): void {
    this.takeManual();
    const m = this.manual;
    const c = Math.cos(m[CAM_ANGLE]);
    const s = Math.sin(m[CAM_ANGLE]);
    const ox = dx / m[CAM_ZOOM];
    const oy = dy / m[CAM_ZOOM];
    m[CAM_X] -= c * ox - s * oy;
    m[CAM_Y] -= s * ox + c * oy;
    if (this.modeValue === 'follow') this.setMode('free');
    this.changed();
  }

  /** Zooms the manual camera by `factor`, keeping the world point under view point (sx, sy) in place. */
  public zoomAt(factor: number, sx: number, sy: number): void {
    if (!(factor > 0) || !Number.isFinite(factor)) return;
    this.takeManual();
    const m = this.manual;
    viewToWorld(m, this.viewWidth, this.viewHeight, sx, sy, scratchWorld);
    const wx = scratchWorld[0];
    const wy = scratchWorld[1];
    const z = m[CAM_ZOOM] * factor;
    m[CAM_ZOOM] = z < this.options.minZoom ? this.options.minZoom : z > this.options.maxZoom ? this.options.maxZoom : z;
    if (this.modeValue !== 'follow') {
      // Put (wx, wy) back under the cursor.
      viewToWorld(m, this.viewWidth, this.viewHeight, sx, sy, scratchWorld);
      m[CAM_X] += wx - scratchWorld[0];
      m[CAM_Y] += wy - scratchWorld[1];
    }
    this.changed();
  }

  /** Rotates the manual camera by `radians` about the view's centre. */
  public rotateBy(radians: number): void {
    if (!Number.isFinite(radians)) return;
    this.takeManual();
    this.manual[CAM_ANGLE] += radians;
    this.changed();
  }

  /** Back to the recorded game camera. */
  public toGameCamera(): void {
    this.setMode('game');
  }

  /**
   * Computes the camera to show for `sample` into `current`: the recorded one (game mode, when the
   * sample has one), the view at pause (game mode, none recorded), or the manual one, centred on
   * the followed entity in follow mode.
   */
  public resolve(sample: SampleBuffer | null): void {
    const cur = this.current;
    if (this.modeValue === 'game') {
      if (sample?.hasCamera) {
        const c = sample.camera;
        cur[CAM_X] = c[0];
        cur[CAM_Y] = c[1];
        cur[CAM_ANGLE] = quatToAngleZ(c, 3);
        cur[CAM_ZOOM] = c[7] > 0 ? c[7] : 1;
      } else {
        cur.set(this.atPause);
      }
      return;
    }
    if (this.modeValue === 'follow' && sample !== null && this.followed >= 0) {
      const i = sample.indexOfHandle(this.followed);
      if (i >= 0) {
        this.manual[CAM_X] = sample.positions[i * 3];
        this.manual[CAM_Y] = sample.positions[i * 3 + 1];
      }
    }
    cur.set(this.manual);
  }

  /**
   * Applies `current` to the world container (and the shared-camera containers) when it differs
   * from what was applied last. Returns true when it did. A transform field the game changed since
   * the overlay last wrote it (a resize handler while paused) becomes the one restored at `end`.
   */
  public apply(world: Container): boolean {
    if (this.active) this.adoptGameChanges(world);
    const c = this.current;
    const a = this.applied;
    if (c[0] === a[0] && c[1] === a[1] && c[2] === a[2] && c[3] === a[3]) return false;
    a.set(c);
    applyCamera(world, c, this.viewWidth, this.viewHeight);
    if (this.active) saveTransform(world, this.written, 0);
    for (let i = 0; i < this.shared.length; i++) copyTransform(world, this.shared[i]);
    return true;
  }

  /** Keeps, for `end`, every field of the world container's transform the game wrote since the overlay did. */
  private adoptGameChanges(world: Container): void {
    const seen = this.seen;
    const written = this.written;
    saveTransform(world, seen, 0);
    for (let i = 0; i < TRANSFORM_WORDS; i++) {
      if (!Object.is(seen[i], written[i])) {
        this.saved[i] = seen[i];
        written[i] = seen[i];
      }
    }
  }

  /** Forces the next `apply` to write the transform. */
  public invalidate(): void {
    this.applied[CAM_X] = Number.NaN;
  }

  private takeManual(): void {
    if (this.modeValue === 'game') {
      this.manual.set(this.current);
      this.modeValue = 'free';
    }
  }

  private changed(): void {
    const ls = this.changeListeners;
    for (let i = 0; i < ls.length; i++) ls[i]();
  }

  private onDown(e: FederatedPointerEvent): void {
    // The pointer belongs to the overlay while paused: the game's stage listeners do not hear it.
    e.stopPropagation();
    if (this.dragButton >= 0) return;
    this.dragButton = e.button;
    this.downX = this.lastX = e.global.x;
    this.downY = this.lastY = e.global.y;
    this.dragged = false;
  }

  private onMove(e: FederatedPointerEvent): void {
    if (this.dragButton < 0) return;
    const x = e.global.x;
    const y = e.global.y;
    if (!this.dragged) {
      const dx = x - this.downX;
      const dy = y - this.downY;
      if (dx * dx + dy * dy < this.options.clickSlop * this.options.clickSlop) return;
      this.dragged = true;
    }
    if (this.dragButton === 2) {
      const cx = this.viewWidth * 0.5;
      const cy = this.viewHeight * 0.5;
      const a0 = Math.atan2(this.lastY - cy, this.lastX - cx);
      const a1 = Math.atan2(y - cy, x - cx);
      let d = a1 - a0;
      if (d > Math.PI) d -= 2 * Math.PI;
      else if (d < -Math.PI) d += 2 * Math.PI;
      // Dragging the view clockwise turns the world clockwise: the camera turns the other way.
      this.rotateBy(-d);
    } else {
      this.panBy(x - this.lastX, y - this.lastY);
    }
    this.lastX = x;
    this.lastY = y;
  }

  private onUp(e: FederatedPointerEvent): void {
    if (e.target === this.input) e.stopPropagation();
    if (this.dragButton < 0) return;
    const wasClick = !this.dragged && this.dragButton === 0;
    this.dragButton = -1;
    if (!wasClick) return;
    const ls = this.clickListeners;
    for (let i = 0; i < ls.length; i++) ls[i](e.global.x, e.global.y);
  }

  private onWheel(e: FederatedWheelEvent): void {
    e.stopPropagation();
    const notches = e.deltaMode === 1 ? e.deltaY / 3 : e.deltaY / 100;
    // No e.preventDefault(): pixi's wheel listener is passive; see captureWheel.
    this.zoomAt(this.options.wheelZoom ** -notches, e.global.x, e.global.y);
  }
}
