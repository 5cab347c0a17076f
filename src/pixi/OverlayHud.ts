import { Container } from 'pixi.js';
import type { Playback } from '../core/playback/Playback';
import type { PlaybackState } from '../core/playback/TimeControl';
import type { ChannelRegistry } from '../core/store/ChannelRegistry';
import type { ViewContext } from './OverlayContext';
import { TextPanel } from './TextPanel';
import type { Timeline } from './Timeline';

/** The time state shown, as of the last change event (kept by `ReplaySession`, read by `OverlayHud.update`). */
export interface ShownTime {
  readonly state: PlaybackState;
  readonly speed: number;
  /** Whether a loaded replay (not the live recording) is shown. */
  readonly replay: boolean;
  /** What the label calls the replay shown (`ShowReplayOptions.name`, default "replay"). */
  readonly name: string;
  /** Shown instead of the time state when set (e.g. "following" for a live stream); null: the state. */
  readonly status: string | null;
  /** Changes with `name` or `status`, so that the label is rebuilt (numbers only in the per-tick check). */
  readonly labelVersion: number;
}

/**
 * The rewind overlay's screen-space interface: the timeline and its label, the over-budget badge,
 * the selected entity's readout and the key help, laid out to the screen size (which it also
 * passes on to the camera). Part of `RewindOverlay`, which puts `root` on the stage; text is built
 * only when what it shows changed.
 *
 * @internal Reached through `RewindOverlay` (`badge`, `help`, `info`, `timeline`).
 *
 * @example
 * const hud = new OverlayHud(ctx, timeline, () => view.invalidateCamera());
 * app.stage.addChild(hud.root);
 * hud.setHelpLines(keyboard.describe());
 * hud.toggleHelp(true);
 */
export class OverlayHud {
  /** The screen-space container (camera input, timeline, badge, readout, help); the owner adds it to the stage. */
  public readonly root = new Container();
  /** Over-budget badge. */
  public readonly badge: TextPanel;
  /** Help overlay (H). */
  public readonly help: TextPanel;
  /** Selected entity readout. */
  public readonly info: TextPanel;
  private widthValue = -1;
  private heightValue = -1;
  private helpText = '';
  private helpLines: readonly string[] = [];
  private helpIntro = '';
  private labelClock = 0;
  private readonly labelKey = new Float64Array(8);
  /** The position read for the label (a typed array: a double passed through a call may be boxed). */
  private readonly position = new Float64Array(1);
  /** What the readout shows: the entity, of which playback, with which camera mode. */
  private infoHandle = -1;
  private infoPlayback: Playback | null = null;
  private infoMode = '';
  /** Whether the readout names the entity and its life (false while an inspector shows them). */
  private infoDetail = true;

  /** `onResize` is called when a layout finds a new screen size (the camera must be re-applied). */
  public constructor(
    private readonly ctx: ViewContext,
    public readonly timeline: Timeline,
    private readonly onResize: () => void,
  ) {
    const panelStyle = ctx.options.panel;
    this.badge = new TextPanel(panelStyle);
    this.badge.setBackground(0x8b0000, 0.85);
    this.help = new TextPanel(panelStyle);
    this.info = new TextPanel(panelStyle);
    this.root.label = 'rewindable:ui';
    timeline.root.visible = false;
    this.root.addChild(ctx.camera.input, timeline.root, this.badge.root, this.info.root, this.help.root);
    // The readout names the camera mode: rebuilt when it changes (G, C, a drag leaving follow).
    ctx.camera.onChange(() => {
      if (this.infoHandle >= 0 && this.ctx.camera.mode !== this.infoMode)
        this.showInfo(this.infoHandle, this.infoPlayback);
    });
  }

  /** Screen size of the last layout, pixels (-1 before the first). */
  public get width(): number {
    return this.widthValue;
  }

  public get height(): number {
    return this.heightValue;
  }

  /** Shows the timeline (a replay is shown) or hides it (the game runs). */
  public setTimelineVisible(on: boolean): void {
    this.timeline.root.visible = on;
  }

  /** Sets the key lines of the help text (shown by `toggleHelp`). */
  public setHelpLines(lines: readonly string[]): void {
    this.helpLines = lines;
    this.helpText = [
      'rewindable — keys',
      ...(this.helpIntro.length > 0 ? [this.helpIntro] : []),
      '',
      ...lines,
      '',
      'drag: pan   wheel: zoom   right-drag: rotate   click: select & follow',
    ].join('\n');
  }

  /** Sets the help's first line under its title (what to try first; '' for none). */
  public setHelpIntro(line: string): void {
    this.helpIntro = line;
    this.setHelpLines(this.helpLines);
    if (this.help.root.visible) this.toggleHelp(true);
  }

  /** Shows or hides the key help. */
  public toggleHelp(show: boolean): void {
    this.help.setText(show ? this.helpText : '');
    this.layout(true);
  }

  /** Shows the names of the over-budget channels in `bits` (0 hides the badge). */
  public showBudget(bits: number, channels: ChannelRegistry): void {
    if (bits === 0) {
      this.badge.setText('');
      return;
    }
    const names: string[] = [];
    for (let c = 0; c < 32; c++) if ((bits & (1 << c)) !== 0) names.push(channels.name(c) ?? `channel ${c}`);
    this.badge.setText(`OVER BUDGET: ${names.join(', ')}`);
    this.layout(true);
  }

  /**
   * Whether the readout names the entity and its frames (true, the default) or only the camera mode
   * (false: an entity inspector shows the rest).
   */
  public setInfoDetail(on: boolean): void {
    if (on === this.infoDetail) return;
    this.infoDetail = on;
    if (this.infoHandle >= 0) this.showInfo(this.infoHandle, this.infoPlayback);
  }

  /** Shows the readout of the entity `handle` of `playback` (-1 or no playback clears it). */
  public showInfo(handle: number, playback: Playback | null): void {
    if (handle < 0 || playback === null) {
      this.infoHandle = -1;
      this.infoPlayback = null;
      this.info.setText('');
      return;
    }
    this.infoHandle = handle;
    this.infoPlayback = playback;
    this.infoMode = this.ctx.camera.mode;
    if (!this.infoDetail) {
      this.info.setText(`camera: ${this.ctx.camera.mode}`);
      this.layout(true);
      return;
    }
    const lt = playback.lifetimes;
    const kind = lt.kind(handle);
    const label = lt.label(handle);
    this.info.setText(
      `id ${lt.id(handle)}${kind !== undefined ? `  ${kind}` : ''}${label !== undefined ? `  "${label}"` : ''}\n` +
        `frames ${lt.firstFrame(handle)}..${lt.lastFrame(handle)}   camera: ${this.ctx.camera.mode}`,
    );
    this.layout(true);
  }

  /** Rebuilds the timeline label on the next update when its inputs changed (`force`: even when not). */
  public refreshLabel(force: boolean): void {
    this.labelClock = 0;
    if (force) this.labelKey[0] = Number.NaN;
  }

  /**
   * Per tick while paused: updates the timeline and, at most every 0.1 s and only when its inputs
   * changed, its label. `time` has the state and speed as of the last change events and whether a
   * loaded replay is shown: an object rather than numbers, so that no fractional number is boxed
   * per tick.
   */
  public update(pb: Playback, dt: number, time: ShownTime): void {
    this.timeline.update(pb);
    this.labelClock -= dt;
    if (this.labelClock <= 0 && this.labelInputsChanged(pb, time)) {
      this.labelClock = 0.1;
      this.timeline.setLabel(this.timelineLabel(pb, time));
      this.timeline.setHeadFrame(pb);
    }
  }

  /** Places the panels; on a new screen size also resizes the camera and the timeline. */
  public layout(force = false): void {
    const w = this.ctx.app.screen.width;
    const h = this.ctx.app.screen.height;
    if (!force && w === this.widthValue && h === this.heightValue) return;
    if (w !== this.widthValue || h !== this.heightValue) {
      this.widthValue = w;
      this.heightValue = h;
      this.ctx.camera.resize(w, h);
      this.timeline.layout(w, h);
      this.onResize();
    }
    this.badge.root.position.set(12, 12);
    this.info.root.position.set(12, this.badge.root.visible ? 16 + this.badge.height : 12);
    // Near the top rather than centred (games keep their HUD along the bottom), above the timeline,
    // and scaled down to fit a small screen: never clipped.
    const help = this.help;
    // The timeline's top, its label above the lanes included (layout runs on resizes and toggles only).
    const t = this.timeline.root;
    const room = t.visible ? Math.min(h, t.getBounds().y) : h;
    const fit = help.width > 0 && help.height > 0 ? Math.min(1, (w - 24) / help.width, (room - 24) / help.height) : 1;
    const k = fit > 0.2 ? fit : 0.2;
    help.root.scale.set(k);
    help.root.position.set(
      Math.max(12, (w - help.width * k) / 2),
      Math.max(12, Math.min((room - help.height * k) / 2, 40)),
    );
  }

  /** Whether anything the timeline label shows changed since it was last built (no string built otherwise). */
  private labelInputsChanged(pb: Playback, time: ShownTime): boolean {
    // State and speed come from the change events, the position from `positionInto`: no getter
    // returns a double here.
    const r = pb.reader;
    const k = this.labelKey;
    pb.time.positionInto(this.position, 0);
    const f = Math.round(this.position[0]);
    const state = time.state;
    const speed = time.speed;
    const oldest = r.frameCount > 0 ? r.oldestFrame : -1;
    const newest = r.frameCount > 0 ? r.newestFrame : -1;
    const st = state === 'playing' ? 1 : state === 'paused' ? 2 : 3;
    const cameraMode = this.ctx.camera.mode;
    const mode = cameraMode === 'game' ? 1 : cameraMode === 'free' ? 2 : 3;
    const src = time.replay ? 1 : 0;
    if (
      k[0] === f &&
      k[1] === oldest &&
      k[2] === newest &&
      k[3] === st &&
      k[4] === speed &&
      k[5] === mode &&
      k[6] === src &&
      k[7] === time.labelVersion
    ) {
      return false;
    }
    k[0] = f;
    k[1] = oldest;
    k[2] = newest;
    k[3] = st;
    k[4] = speed;
    k[5] = mode;
    k[6] = src;
    k[7] = time.labelVersion;
    return true;
  }

  private timelineLabel(pb: Playback, time: ShownTime): string {
    const r = pb.reader;
    if (r.frameCount === 0) return 'nothing recorded';
    const f = Math.round(pb.time.position);
    const t = r.timeOf(f);
    const span = r.timeOf(r.newestFrame) - r.timeOf(r.oldestFrame);
    const src = time.replay ? time.name : 'live rec';
    const state = time.replay && time.status !== null ? time.status : pb.time.state;
    return (
      `${src}  frame ${f}  [${r.oldestFrame}..${r.newestFrame}]  t=${(Number.isFinite(t) ? t : 0).toFixed(2)}s` +
      `  held ${span.toFixed(1)}s  ${state}  ×${pb.time.speed}  cam:${this.ctx.camera.mode}  H: help`
    );
  }
}
