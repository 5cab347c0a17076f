import { Container, Graphics, RendererType, type StrokeStyle } from 'pixi.js';
import type { Playback } from '../core/playback/Playback';
import type { SampleBuffer } from '../core/playback/SampleBuffer';
import { EntityBuffer, PrimitiveBuffer } from '../core/read/buffers';
import { ChannelMask } from '../core/store/ChannelMask';
import { Channel, type ChannelRegistry } from '../core/store/ChannelRegistry';
import type { StaticLayers } from '../core/store/StaticLayers';
import { addStickFigure } from './bones';
import { CAM_ANGLE, CAM_ZOOM, copyTransform, viewToWorld } from './camera';
import { DebugLayers } from './DebugLayers';
import { EntityPresenter } from './EntityPresenter';
import type { ViewContext } from './OverlayContext';
import type { OverlayHud } from './OverlayHud';
import { OnionSkin } from './OnionSkin';
import { DEFAULT_PARAGRAPH_STYLE } from './ParagraphPool';

const selectionStroke: StrokeStyle = { color: 0xffffff, width: 2, alpha: 1 };
const liveBoneStroke: StrokeStyle = { color: 0xffffff, width: 1, pixelLine: true, alpha: 1 };
const pickScratch = new Float64Array(2);

/**
 * The rewind overlay's world-space drawing, redrawn per tick only where something changed: while
 * live the enabled channels and bones of the newest frame; while a session is open (paused) the
 * sampled frame of its playback (entities through the `EntityPresenter`, debug channels, camera,
 * selection ring). It owns what it shows (channels, bones, selection) and what is dirty; others
 * change them through its methods. While a session is open it follows the session's time control
 * itself: a change event marks the position to be read on the next update.
 *
 * @internal Part of `RewindOverlay`, which forwards its commands here.
 *
 * @example
 * const view = new OverlayView(ctx, hud, new SampleBuffer());
 * view.updateLive();                       // per tick while the game runs
 * view.beginSession(playback, true);       // paused: take over the live objects
 * view.updateReplay(recorder.staticLayers); // per tick while paused
 * view.endSession();
 */
export class OverlayView {
  /** World-space layers (re-created entities, debug draw), kept aligned with the world container. */
  public readonly root = new Container();
  public readonly layers: DebugLayers;
  public readonly presenter: EntityPresenter;
  /** Ghosts and trail of the selected entity (off until enabled). */
  public readonly onion: OnionSkin;
  private readonly channels: ChannelMask;
  private bonesOn: boolean;
  /** Colour of the animation channel of the session's recording, taken when the session begins. */
  private boneColor = 0xd86bff;
  private selectedHandle = -1;
  private samplesShown = 0;
  /** The playback of the open session, and how to stop following its time control. */
  private session: Playback | null = null;
  private unsubscribeTime: (() => void) | null = null;
  /** The playback position shown (NaN: none yet). */
  private shownPosition = Number.NaN;
  private sampleDirty = true;
  /** Set by the session's time change events: the position is read only then. */
  private timeChanged = true;
  private primsDirty = true;
  private cameraDirty = true;
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
  /** The world's `interactiveChildren` when the open session began (null: no session). */
  private savedInteractive: boolean | null = null;

  public constructor(
    private readonly ctx: ViewContext,
    private readonly hud: OverlayHud,
    /** The sample shown while paused (the overlay's, which exists before this view loads). */
    public readonly sample: SampleBuffer,
  ) {
    const o = ctx.options;
    this.channels = new ChannelMask(o.channels);
    this.bonesOn = o.showBones;
    const flat = new Int32Array(o.flagTints.length * 2);
    o.flagTints.forEach(([flag, tint], i) => {
      flat[i * 2] = flag;
      flat[i * 2 + 1] = tint;
    });
    this.layers = new DebugLayers(
      { ...DEFAULT_PARAGRAPH_STYLE, ...o.paragraph },
      o.maxParagraphs,
      ctx.app.renderer.type === RendererType.WEBGL,
    );
    this.presenter = new EntityPresenter(ctx.binding, this.recreatedLayer, this.ghosts, this.bones, {
      flagTints: flat,
      ghostRadius: o.ghostRadius,
      ghostColor: o.ghostColor,
      warn: ctx.warn,
      world: ctx.world,
    });

    this.onion = new OnionSkin(o.onionSkin);
    this.root.label = 'rewindable:world-overlay';
    this.root.eventMode = 'none';
    // A render group of its own: pixi rebuilds a group's draw instructions (a walk over all of it)
    // when something in it is shown, hidden or re-batched, which the layers do on changed frames;
    // in the game's group that walk would cover every game sprite (~1 ms a frame at 10,000).
    this.root.isRenderGroup = true;
    this.recreatedLayer.label = 'rewindable:recreated';
    this.ghosts.label = 'rewindable:ghosts';
    this.bones.label = 'rewindable:bones';
    this.selection.label = 'rewindable:selection';
    this.root.addChild(this.onion.root, this.recreatedLayer, this.ghosts, this.bones, this.layers.root, this.selection);
    if (ctx.world.parent === null) ctx.app.stage.addChild(this.root);
    this.placeLayers();
  }

  /**
   * Keeps the world-space layers directly above `options.layersAbove`, or else above the topmost of
   * the world container and the shared-camera containers in the world's parent (the game may add,
   * remove and reorder them: screens). Moves the layers only when they are out of place.
   */
  public placeLayers(): void {
    const o = this.ctx.options;
    const anchor = o.layersAbove ?? this.ctx.world;
    const parent = anchor.parent;
    if (parent === null) return;
    const kids = parent.children;
    let top = kids.indexOf(anchor);
    if (o.layersAbove === null) {
      const shared = o.sharedCamera;
      for (let i = 0; i < shared.length; i++) {
        if (shared[i].parent !== parent) continue;
        const k = kids.indexOf(shared[i]);
        if (k > top) top = k;
      }
    }
    const root = this.root;
    if (root.parent === parent && kids[top + 1] === root) return;
    if (root.parent === parent && kids.indexOf(root) < top) top--;
    root.removeFromParent();
    parent.addChildAt(root, top + 1);
  }

  /** Hides (suspended overlay) or shows the world-space layers. */
  public setVisible(on: boolean): void {
    this.root.visible = on;
  }

  /** Enabled channels as a bit mask (bit c = channel c). */
  public get channelMask(): number {
    return this.channels.bits;
  }

  /** Whether bones are drawn (with the animation channel on). */
  public get showBones(): boolean {
    return this.bonesOn;
  }

  /** Handle of the selected entity, or -1. */
  public get selected(): number {
    return this.selectedHandle;
  }

  /** How many samples were presented. */
  public get samples(): number {
    return this.samplesShown;
  }

  /** Enables or disables one channel. Returns whether anything changed. */
  public setChannel(channel: number, on: boolean): boolean {
    const before = this.channels.bits;
    this.channels.set(channel, on);
    if (this.channels.bits === before) return false;
    this.channelsChanged();
    return true;
  }

  /** Sets every channel at once (bit c = channel c). Returns whether anything changed. */
  public setChannels(mask: number): boolean {
    const m = mask >>> 0;
    if (m === this.channels.bits) return false;
    this.channels.bits = m;
    this.channelsChanged();
    return true;
  }

  /** Shows or hides bones (stick figures, with the animation channel on). Returns whether it changed. */
  public setShowBones(on: boolean): boolean {
    if (on === this.bonesOn) return false;
    this.bonesOn = on;
    this.sampleDirty = true;
    this.primsDirty = true;
    return true;
  }

  /** Shows or hides the onion skin and trail of the selected entity. Returns whether it changed. */
  public setOnionSkin(on: boolean): boolean {
    return this.onion.setEnabled(on);
  }

  /** Selects the entity of `handle` (-1: none). Returns whether the selection changed. */
  public select(handle: number): boolean {
    if (handle === this.selectedHandle) return false;
    this.selectedHandle = handle;
    return true;
  }

  /** Whether bones are drawn now: switched on and with the animation channel enabled. */
  public bonesVisible(): boolean {
    return this.bonesOn && this.channels.test(Channel.ANIMATION);
  }

  /** The sample must be taken again on the next update (e.g. interpolation was switched). */
  public invalidateSample(): void {
    this.sampleDirty = true;
  }

  /** The camera must be resolved and applied again on the next update (it moved, or the screen was resized). */
  public invalidateCamera(): void {
    this.cameraDirty = true;
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

  /**
   * Opens a session on `playback` (ending any open one): its entities are presented from now on
   * (with `takeLive`, the game's live objects are taken over), and its time control is followed.
   */
  public beginSession(playback: Playback, takeLive: boolean): void {
    this.endSession();
    this.session = playback;
    this.unsubscribeTime = playback.time.onChange(() => {
      this.timeChanged = true;
    });
    const anim = playback.reader.channels.list()[Channel.ANIMATION];
    this.boneColor = anim !== undefined ? anim.color : 0xd86bff;
    this.presenter.begin(playback, takeLive);
    // pixi hit-tests every object under the world on each pointer move (for pointer-over and
    // `globalpointermove`): 5,000 sprites a move in the demo, while the timeline is dragged. Nothing
    // of a paused game may react to the pointer (the camera's input covers the screen anyway).
    const world = this.ctx.world;
    this.savedInteractive = world.interactiveChildren !== false;
    world.interactiveChildren = false;
    this.invalidate();
  }

  /** Closes the open session, if any: live objects are restored, its time control is no longer followed. */
  public endSession(): void {
    this.presenter.end();
    if (this.savedInteractive !== null) this.ctx.world.interactiveChildren = this.savedInteractive;
    this.savedInteractive = null;
    this.onion.clear();
    this.unsubscribeTime?.();
    this.unsubscribeTime = null;
    this.session = null;
  }

  /** Back to live: no selection, and live bones are cleared on the next update. */
  public clearSelection(): void {
    this.selection.clear();
    this.selectionDrawn = false;
    this.liveBonesDrawn = true;
    this.selectedHandle = -1;
  }

  /** Per tick while live: follows the world container, draws the newest frame's channels and bones when it changed. */
  public updateLive(): void {
    const world = this.ctx.world;
    copyTransform(world, this.root);
    this.setView(Math.abs(world.scale.x), -world.rotation);
    const recorder = this.ctx.recorder;
    const reader = recorder.reader;
    const mask = this.channels.bits;
    this.layers.syncStatic(recorder.staticLayers, mask);
    if (!this.ctx.options.liveDebugDraw || reader.frameCount === 0) {
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
    reader.readPrimitives(newest, mask, this.prims);
    this.layers.drawFrame(this.prims, mask);
    this.setBudgetBits(reader.overBudgetOf(newest), reader.channels);
    if (this.liveBonesDrawn) this.bones.clear();
    this.liveBonesDrawn = false;
    if (
      this.bonesVisible() &&
      reader.readEntities(newest, this.liveEntities, true) &&
      this.liveEntities.boneTotal > 0
    ) {
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
   * Per tick while a session is open: samples its playback when the position changed (or something
   * is dirty) and redraws the frame, `staticLayers`, the camera and the selection ring.
   */
  public updateReplay(staticLayers: StaticLayers | null): void {
    const pb = this.session;
    if (pb === null) return;
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
    this.layers.syncStatic(staticLayers, this.channels.bits);
    if (sampled || this.cameraDirty) {
      this.cameraDirty = false;
      const camera = this.ctx.camera;
      camera.resolve(reader.frameCount > 0 ? this.sample : null);
      if (camera.apply(this.ctx.world)) {
        copyTransform(this.ctx.world, this.root);
        this.setView(camera.current[CAM_ZOOM], camera.current[CAM_ANGLE]);
        this.shownSelection = -2;
      }
    }
    if (sampled || this.shownSelection !== this.selectedHandle) this.drawSelection();
    this.onion.update(pb, this.sample, this.selectedHandle);
  }

  /** The handle of the shown entity nearest to the screen point (x, y) within `pickRadius`, or -1. */
  public pick(x: number, y: number): number {
    const s = this.sample;
    const current = this.ctx.camera.current;
    viewToWorld(current, this.hud.width, this.hud.height, x, y, pickScratch);
    const zoom = current[CAM_ZOOM];
    let best = -1;
    let bestD = (this.ctx.options.pickRadius / zoom) ** 2;
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
    this.samplesShown++;
    this.presenter.present(s, this.bonesVisible(), this.boneColor);
    const onPresent = this.ctx.options.onPresent;
    if (onPresent !== null) {
      try {
        onPresent(s, pb);
      } catch (err) {
        this.ctx.warn('onPresent', `rewindable: onPresent threw: ${String(err)}`);
      }
    }
    const nearer = s.t < 0.5 ? s.frameA : s.frameB;
    if (nearer !== this.shownPrimFrame || this.primsDirty) {
      this.shownPrimFrame = nearer;
      this.primsDirty = false;
      const mask = this.channels.bits;
      pb.reader.readPrimitives(nearer, mask, this.prims);
      this.layers.drawFrame(this.prims, mask);
    }
    this.setBudgetBits(s.overBudget, pb.reader.channels);
    return true;
  }

  private setView(zoom: number, angle: number): void {
    if (zoom === this.viewZoom && angle === this.viewAngle) return;
    this.viewZoom = zoom;
    this.viewAngle = angle;
    this.layers.setView(zoom, angle);
    this.onion.setZoom(zoom);
    this.shownSelection = -2;
  }

  /** Shows the over-budget badge of `bits` (channel names from `channels`) when the bits changed. */
  private setBudgetBits(bits: number, channels: ChannelRegistry): void {
    if (bits === this.shownBudgetBits) return;
    this.shownBudgetBits = bits;
    this.hud.showBudget(bits, channels);
  }

  private channelsChanged(): void {
    this.primsDirty = true;
    this.sampleDirty = true;
  }

  private drawSelection(): void {
    const handle = this.selectedHandle;
    this.shownSelection = handle;
    const g = this.selection;
    if (this.selectionDrawn) g.clear();
    this.selectionDrawn = false;
    if (handle < 0) return;
    const i = this.sample.indexOfHandle(handle);
    if (i < 0 || !this.sample.inNearerFrame(i)) return;
    const zoom = this.viewZoom > 0 ? this.viewZoom : 1;
    const p = this.sample.positions;
    const o = this.ctx.options;
    g.circle(p[i * 3], p[i * 3 + 1], o.pickRadius / zoom);
    selectionStroke.color = o.selectionColor;
    selectionStroke.width = 2 / zoom;
    g.stroke(selectionStroke);
    this.selectionDrawn = true;
  }
}
