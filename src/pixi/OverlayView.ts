import { Container, Graphics, type Application, type StrokeStyle } from 'pixi.js';
import type { Playback } from '../core/playback/Playback';
import { SampleBuffer } from '../core/playback/SampleBuffer';
import { EntityBuffer, PrimitiveBuffer } from '../core/read/buffers';
import { Channel, type ChannelRegistry } from '../core/store/ChannelRegistry';
import type { Recorder } from '../core/record/Recorder';
import type { StaticLayers } from '../core/store/StaticLayers';
import type { EntityBinding } from './binding';
import { addStickFigure } from './bones';
import { CAM_ANGLE, CAM_ZOOM, copyTransform, viewToWorld } from './camera';
import type { CameraController } from './CameraController';
import { DebugLayers } from './DebugLayers';
import { EntityPresenter } from './EntityPresenter';
import { DEFAULT_PARAGRAPH_STYLE } from './ParagraphPool';
import type { OverlayHud } from './OverlayHud';
import type { RewindOverlayOptions } from './RewindOverlayOptions';

const selectionStroke: StrokeStyle = { color: 0xffffff, width: 2, alpha: 1 };
const liveBoneStroke: StrokeStyle = { color: 0xffffff, width: 1, pixelLine: true, alpha: 1 };
const pickScratch = new Float64Array(2);

/**
 * The rewind overlay's world-space drawing, redrawn per tick only where something changed: while
 * live the enabled channels and bones of the newest frame; while paused the sampled frame
 * (entities through the `EntityPresenter`, debug channels, camera, selection ring). Part of
 * `RewindOverlay`, which owns the settings (`mask`, `bonesOn`, `selected`) and marks what is dirty.
 *
 * @example
 * const view = new OverlayView(app, world, binding, recorder, camera, hud, options, warn);
 * view.updateLive(); // per tick while the game runs
 */
export class OverlayView {
  /** World-space layers (re-created entities, debug draw), kept aligned with the world container. */
  public readonly root = new Container();
  public readonly layers: DebugLayers;
  public readonly presenter: EntityPresenter;
  /** The sample shown while paused. */
  public readonly sample = new SampleBuffer();
  /** Enabled channels (bit c = channel c). */
  public mask: number;
  /** Whether bones are drawn (with the animation channel on). */
  public bonesOn: boolean;
  /** Colour of the animation channel, taken at pause. */
  public boneColor = 0xd86bff;
  /** Handle of the selected entity, or -1. */
  public selected = -1;
  /** How many samples were presented. */
  public samples = 0;
  /** The playback position shown (NaN: none yet). */
  public shownPosition = Number.NaN;
  public sampleDirty = true;
  /** Set by the time control's change events: the position is read only then. */
  public timeChanged = true;
  public primsDirty = true;
  public cameraDirty = true;
  private readonly recreatedLayer = new Container();
  private readonly ghosts = new Graphics();
  private readonly bones = new Graphics();
  private readonly selection = new Graphics();
  private readonly prims = new PrimitiveBuffer();
  private readonly liveEntities = new EntityBuffer();
  private shownPrimFrame = -1;
  private shownBudgetBits = -1;
  private shownSelection = -2;
  private viewZoom = Number.NaN;
  private viewAngle = Number.NaN;
  private selectionDrawn = true;
  private liveBonesDrawn = true;

  public constructor(
    app: Application,
    private readonly world: Container,
    binding: EntityBinding,
    private readonly recorder: Recorder,
    private readonly camera: CameraController,
    private readonly hud: OverlayHud,
    private readonly options: Readonly<RewindOverlayOptions>,
    private readonly warn: (key: string, message: string) => void,
  ) {
    const o = options;
    this.mask = o.channels >>> 0;
    this.bonesOn = o.showBones;
    const flat = new Int32Array(o.flagTints.length * 2);
    o.flagTints.forEach(([flag, tint], i) => {
      flat[i * 2] = flag;
      flat[i * 2 + 1] = tint;
    });
    this.layers = new DebugLayers({ ...DEFAULT_PARAGRAPH_STYLE, ...o.paragraph }, o.maxParagraphs);
    this.presenter = new EntityPresenter(binding, this.recreatedLayer, this.ghosts, this.bones, {
      flagTints: flat,
      ghostRadius: o.ghostRadius,
      ghostColor: o.ghostColor,
      warn,
    });

    this.root.label = 'rewindable:world-overlay';
    this.root.eventMode = 'none';
    this.recreatedLayer.label = 'rewindable:recreated';
    this.ghosts.label = 'rewindable:ghosts';
    this.bones.label = 'rewindable:bones';
    this.selection.label = 'rewindable:selection';
    this.root.addChild(this.recreatedLayer, this.ghosts, this.bones, this.layers.root, this.selection);
    const parent = world.parent ?? app.stage;
    if (world.parent === null) parent.addChild(this.root);
    else parent.addChildAt(this.root, parent.getChildIndex(world) + 1);
  }

  /** Whether bones are drawn now: switched on and with the animation channel enabled. */
  public bonesVisible(): boolean {
    return this.bonesOn && (this.mask & (1 << Channel.ANIMATION)) !== 0;
  }

  /** Forces a full redraw on the next update. */
  public invalidate(): void {
    this.sampleDirty = true;
    this.primsDirty = true;
    this.cameraDirty = true;
    this.shownPosition = Number.NaN;
    this.shownPrimFrame = -1;
    this.shownBudgetBits = -1;
  }

  /** Back to live: no selection, and live bones are cleared on the next update. */
  public clearSelection(): void {
    this.selection.clear();
    this.selectionDrawn = false;
    this.liveBonesDrawn = true;
    this.selected = -1;
  }

  /** Per tick while live: follows the world container, draws the newest frame's channels and bones when it changed. */
  public updateLive(): void {
    copyTransform(this.world, this.root);
    this.setView(Math.abs(this.world.scale.x), -this.world.rotation);
    const reader = this.recorder.reader;
    this.layers.syncStatic(this.recorder.staticLayers, this.mask);
    if (!this.options.liveDebugDraw || reader.frameCount === 0) {
      if (this.shownPrimFrame !== -1) {
        this.layers.clearFrame();
        this.bones.clear();
        this.shownPrimFrame = -1;
        this.setBudgetBits(0, reader.channels);
      }
      return;
    }
    const newest = reader.newestFrame;
    if (newest === this.shownPrimFrame && !this.primsDirty) return;
    this.shownPrimFrame = newest;
    this.primsDirty = false;
    reader.readPrimitives(newest, this.mask, this.prims);
    this.layers.drawFrame(this.prims, this.mask);
    this.setBudgetBits(reader.overBudgetOf(newest), reader.channels);
    if (this.liveBonesDrawn) this.bones.clear();
    this.liveBonesDrawn = false;
    if (this.bonesVisible() && reader.readEntities(newest, this.liveEntities, true) && this.liveEntities.boneTotal > 0) {
      const ents = this.liveEntities;
      const table = reader.entities;
      let any = false;
      for (let i = 0; i < ents.count; i++) {
        if (ents.boneStart[i] < 0) continue;
        const k = table.kindOf[ents.handles[i]];
        any = addStickFigure(this.bones, ents, i, k >= 0 ? table.skeletons[k] : undefined) || any;
      }
      if (any) {
        liveBoneStroke.color = this.boneColor;
        this.bones.stroke(liveBoneStroke);
        this.liveBonesDrawn = true;
      }
    }
  }

  /**
   * Per tick while paused: samples `pb` when its position changed (or something is dirty) and
   * redraws the frame, the static layers of `source` (read after sampling), the camera and the selection ring.
   */
  public updateReplay(pb: Playback, source: { readonly staticLayers: StaticLayers | null }): void {
    const reader = pb.reader;
    // The position is read only after a change event: a paused overlay does no work at all.
    let sampled = false;
    if (this.timeChanged || this.sampleDirty) {
      this.timeChanged = false;
      const pos = pb.time.position;
      if (pos !== this.shownPosition || this.sampleDirty) {
        this.sampleDirty = false;
        this.shownPosition = pos;
        this.hud.timeline.setPlayhead(pos);
        sampled = this.showSample(pb, pos);
      }
    }
    this.layers.syncStatic(source.staticLayers, this.mask);
    if (sampled || this.cameraDirty) {
      this.cameraDirty = false;
      this.camera.resolve(reader.frameCount > 0 ? this.sample : null);
      if (this.camera.apply(this.world)) {
        copyTransform(this.world, this.root);
        this.setView(this.camera.current[CAM_ZOOM], this.camera.current[CAM_ANGLE]);
        this.shownSelection = -2;
      }
    }
    if (sampled || this.shownSelection !== this.selected) this.drawSelection();
  }

  /** The handle of the shown entity nearest to the screen point (x, y) within `pickRadius`, or -1. */
  public pick(x: number, y: number): number {
    const s = this.sample;
    viewToWorld(this.camera.current, this.hud.width, this.hud.height, x, y, pickScratch);
    const zoom = this.camera.current[CAM_ZOOM];
    let best = -1;
    let bestD = (this.options.pickRadius / zoom) ** 2;
    for (let i = 0; i < s.count; i++) {
      if (!s.inNearerFrame(i)) continue;
      const dx = s.positions[i * 3] - pickScratch[0];
      const dy = s.positions[i * 3 + 1] - pickScratch[1];
      const d = dx * dx + dy * dy;
      if (d <= bestD) {
        bestD = d;
        best = s.handles[i];
      }
    }
    return best;
  }

  /** Samples the playback at the shown position and presents it: entities, primitives, badge. */
  private showSample(pb: Playback, position: number): boolean {
    const s = this.sample;
    if (!pb.sampler.sample(position, s)) return false;
    this.samples++;
    this.presenter.present(s, this.bonesVisible(), this.boneColor);
    const onPresent = this.options.onPresent;
    if (onPresent !== null) {
      try {
        onPresent(s, pb);
      } catch (err) {
        this.warn('onPresent', `rewindable: onPresent threw: ${String(err)}`);
      }
    }
    const nearer = s.t < 0.5 ? s.frameA : s.frameB;
    if (nearer !== this.shownPrimFrame || this.primsDirty) {
      this.shownPrimFrame = nearer;
      this.primsDirty = false;
      pb.reader.readPrimitives(nearer, this.mask, this.prims);
      this.layers.drawFrame(this.prims, this.mask);
    }
    this.setBudgetBits(s.overBudget, pb.reader.channels);
    return true;
  }

  private setView(zoom: number, angle: number): void {
    if (zoom === this.viewZoom && angle === this.viewAngle) return;
    this.viewZoom = zoom;
    this.viewAngle = angle;
    this.layers.setView(zoom, angle);
    this.shownSelection = -2;
  }

  /** Shows the over-budget badge of `bits` (channel names from `channels`) when the bits changed. */
  private setBudgetBits(bits: number, channels: ChannelRegistry): void {
    if (bits === this.shownBudgetBits) return;
    this.shownBudgetBits = bits;
    this.hud.showBudget(bits, channels);
  }

  private drawSelection(): void {
    this.shownSelection = this.selected;
    const g = this.selection;
    if (this.selectionDrawn) g.clear();
    this.selectionDrawn = false;
    if (this.selected < 0) return;
    const i = this.sample.indexOfHandle(this.selected);
    if (i < 0 || !this.sample.inNearerFrame(i)) return;
    const zoom = this.viewZoom > 0 ? this.viewZoom : 1;
    const p = this.sample.positions;
    g.circle(p[i * 3], p[i * 3 + 1], this.options.pickRadius / zoom);
    selectionStroke.color = this.options.selectionColor;
    selectionStroke.width = 2 / zoom;
    g.stroke(selectionStroke);
    this.selectionDrawn = true;
  }
}
