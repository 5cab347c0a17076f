import type { Container } from 'pixi.js';
import type { Playback } from '../core/playback/Playback';
import type { SampleBuffer } from '../core/playback/SampleBuffer';
import type { StaticLayers } from '../core/store/StaticLayers';
import { CameraController, type CameraMode } from './CameraController';
import type { DebugLayers } from './DebugLayers';
import type { EntityPresenter } from './EntityPresenter';
import type { OnionSkin } from './OnionSkin';
import type { OverlayContext, ViewContext } from './OverlayContext';
import { OverlayHud, type ShownTime } from './OverlayHud';
import { OverlayView } from './OverlayView';
import type { SessionView } from './ReplaySession';
import type { TextPanel } from './TextPanel';
import { Timeline } from './Timeline';

/**
 * The view settings a game may change before the paused view has loaded (the overlay keeps them
 * until then and hands them over here; the view owns them after).
 */
export interface ViewSettings {
  /** Enabled channels (bit c = channel c). */
  channels: number;
  bones: boolean;
  /** Onion skin on or off; null: as `options.onionSkin` says. */
  onion: boolean | null;
  /** A camera mode set before the view loaded, or null. */
  cameraMode: CameraMode | null;
  helpIntro: string;
  selectionDetail: boolean;
  helpShown: boolean;
}

/** What the paused view calls back on the overlay. */
export interface PausedViewHost {
  /** Seeks the shown playback (a click or drag on the timeline). */
  seek(frame: number): void;
  /** Selects the entity of `handle` (a click on the paused game; -1: none). */
  select(handle: number): void;
}

/**
 * Everything of the rewind overlay that shows a pause, loaded by `RewindOverlay` with a dynamic
 * `import()` right after it is built (a chunk of its own in a game's bundle, docs/performance.md
 * "Bundle size"): the replay camera, the timeline and the screen-space panels (`OverlayHud`), and
 * the world-space drawing (`OverlayView`: debug layers, primitive meshes, glyph text and paragraphs,
 * the entity presenter, the onion skin). It also draws the live debug channels. `RewindOverlay`
 * forwards its commands here once it has loaded, and `ReplaySession` drives the pause through
 * `SessionView`.
 *
 * @internal Built by `RewindOverlay`; not exported from `rewindable/pixi`.
 *
 * @example
 * const { PausedView } = await import('./PausedView');
 * const view = new PausedView(ctx, sample, { seek, select }, settings, keyboard.describe());
 * session.attach(view);
 */
export class PausedView implements SessionView {
  public readonly camera: CameraController;
  public readonly timeline: Timeline;
  public readonly hud: OverlayHud;
  public readonly view: OverlayView;
  private readonly ctx: ViewContext;

  public constructor(
    shell: OverlayContext,
    sample: SampleBuffer,
    host: PausedViewHost,
    settings: Readonly<ViewSettings>,
    helpLines: readonly string[],
  ) {
    const o = shell.options;
    const app = shell.app;
    const camera = new CameraController(o.camera);
    this.camera = camera;
    camera.captureWheel(app.canvas);
    camera.setSharedCamera(o.sharedCamera);
    const ctx: ViewContext = { ...shell, camera };
    this.ctx = ctx;
    this.timeline = new Timeline(o.timeline, (frame) => host.seek(frame));
    this.hud = new OverlayHud(ctx, this.timeline, () => this.view.invalidateCamera());
    this.view = new OverlayView(ctx, this.hud, sample);
    // A render group of its own, as the world layers (see OverlayView): the timeline's changes
    // rebuild this group's draw instructions, not the game's.
    this.hud.root.isRenderGroup = true;
    app.stage.addChild(this.hud.root);
    camera.onChange(() => {
      this.view.invalidateCamera();
      shell.changed();
    });
    camera.onClick((x, y) => host.select(this.view.pick(x, y)));
    this.hud.setHelpLines(helpLines);
    this.view.setChannels(settings.channels);
    this.view.setShowBones(settings.bones);
    if (settings.onion !== null) this.view.setOnionSkin(settings.onion);
    if (settings.cameraMode !== null) camera.setMode(settings.cameraMode);
    this.hud.setHelpIntro(settings.helpIntro);
    this.hud.setInfoDetail(settings.selectionDetail);
    if (settings.helpShown) this.hud.toggleHelp(true);
    this.hud.layout();
  }

  /** Screen-space interface (timeline, badge, help). */
  public get ui(): Container {
    return this.hud.root;
  }

  public get worldOverlay(): Container {
    return this.view.root;
  }

  public get layers(): DebugLayers {
    return this.view.layers;
  }

  public get presenter(): EntityPresenter {
    return this.view.presenter;
  }

  public get onion(): OnionSkin {
    return this.view.onion;
  }

  public get badge(): TextPanel {
    return this.hud.badge;
  }

  public get help(): TextPanel {
    return this.hud.help;
  }

  public get info(): TextPanel {
    return this.hud.info;
  }

  public halt(): void {
    const ctx = this.ctx;
    this.hud.layout();
    ctx.camera.begin(ctx.world);
    this.hud.setTimelineVisible(true);
    this.hud.refreshLabel(false);
    this.view.invalidate();
  }

  public unhalt(): void {
    const ctx = this.ctx;
    this.view.endSession();
    ctx.camera.end(ctx.world);
    this.hud.setTimelineVisible(false);
    this.view.clearSelection();
    this.hud.showInfo(-1, null);
    this.view.invalidate();
  }

  public open(playback: Playback, takeLive: boolean): void {
    this.view.beginSession(playback, takeLive);
  }

  public close(): void {
    this.view.endSession();
  }

  public deselect(): void {
    this.view.select(-1);
    this.hud.showInfo(-1, null);
    this.ctx.camera.follow(-1);
  }

  /** Selects (and follows) the entity of `handle` of `playback`; false when it was selected already. */
  public select(handle: number, playback: Playback): boolean {
    if (!this.view.select(handle)) return false;
    this.camera.follow(handle);
    this.hud.showInfo(handle, playback);
    return true;
  }

  /** Hides (suspended overlay) or shows both layers. */
  public setVisible(on: boolean): void {
    this.view.setVisible(on);
    this.hud.root.visible = on;
  }

  /** Per tick, first: lays the panels out when the screen size changed. */
  public layout(): void {
    this.hud.layout();
  }

  /** Per tick while the game runs: the newest frame's channels and bones. */
  public updateLive(): void {
    this.view.updateLive();
  }

  /** Per tick while paused: the sampled frame of `playback`, the camera, the timeline and its label. */
  public updateReplay(staticLayers: StaticLayers | null, playback: Playback, dt: number, time: ShownTime): void {
    this.view.updateReplay(staticLayers);
    this.hud.update(playback, dt, time);
  }

  /** Per tick, last: the world layers in place, the interface on top of the stage. */
  public place(): void {
    this.view.placeLayers();
    const stage = this.ctx.app.stage;
    const ui = this.hud.root;
    if (stage.children[stage.children.length - 1] !== ui) stage.addChild(ui);
  }

  /** Removes and destroys the layers, the camera's input and the presenter's pools (the overlay is destroyed). */
  public destroy(): void {
    this.camera.dispose();
    this.view.presenter.disposePools();
    const world = this.view.root;
    const ui = this.hud.root;
    world.parent?.removeChild(world);
    ui.parent?.removeChild(ui);
    world.destroy({ children: true });
    ui.destroy({ children: true });
  }
}
