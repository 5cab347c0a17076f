import { Container, type Application } from 'pixi.js';
import type { Playback } from '../core/playback/Playback';
import type { PlaybackState } from '../core/playback/TimeControl';
import type { ChannelRegistry } from '../core/store/ChannelRegistry';
import type { CameraController } from './CameraController';
import { TextPanel, type TextPanelStyle } from './TextPanel';
import type { Timeline } from './Timeline';

/** What `OverlayHud.update` reads the shown position from (an `OverlayView`). */
export interface ShownPosition {
  readonly shownPosition: number;
}

/** What `OverlayHud.update` reads the time state from (a `ReplaySession`). */
export interface ShownTime {
  readonly lastState: PlaybackState;
  readonly lastSpeed: number;
  readonly replay: Playback | null;
}

/**
 * The rewind overlay's screen-space interface: the timeline and its label, the over-budget badge,
 * the selected entity's readout and the key help, laid out to the screen size (which it also
 * passes on to the camera). Part of `RewindOverlay`, which puts `root` on the stage; text is built
 * only when what it shows changed.
 *
 * @example
 * const hud = new OverlayHud(app, camera, timeline, {}, () => { cameraDirty = true; });
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
  /** Screen size of the last layout, pixels (-1 before the first). */
  public width = -1;
  public height = -1;
  private helpText = '';
  private labelClock = 0;
  private readonly labelKey = new Float64Array(7);

  /** `onResize` is called when a layout finds a new screen size (the camera must be re-applied). */
  public constructor(
    private readonly app: Application,
    private readonly camera: CameraController,
    public readonly timeline: Timeline,
    panelStyle: Partial<TextPanelStyle>,
    private readonly onResize: () => void,
  ) {
    this.badge = new TextPanel(panelStyle);
    this.badge.setBackground(0x8b0000, 0.85);
    this.help = new TextPanel(panelStyle);
    this.info = new TextPanel(panelStyle);
    this.root.label = 'rewindable:ui';
    timeline.root.visible = false;
    this.root.addChild(camera.input, timeline.root, this.badge.root, this.info.root, this.help.root);
  }

  /** Sets the key lines of the help text (shown by `toggleHelp`). */
  public setHelpLines(lines: readonly string[]): void {
    this.helpText = ['rewindable — keys', '', ...lines, '', 'drag: pan   wheel: zoom   right-drag: rotate   click: select & follow'].join('\n');
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

  /** Shows the readout of the entity `handle` of `playback` (-1 clears it). */
  public showInfo(handle: number, playback: Playback): void {
    if (handle < 0) {
      this.info.setText('');
      return;
    }
    const lt = playback.lifetimes;
    const kind = lt.kind(handle);
    const label = lt.label(handle);
    this.info.setText(
      `id ${lt.id(handle)}${kind !== undefined ? `  ${kind}` : ''}${label !== undefined ? `  "${label}"` : ''}\n` +
      `frames ${lt.firstFrame(handle)}..${lt.lastFrame(handle)}   camera: ${this.camera.mode}`,
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
   * changed, its label. `shown` has the shown position, `time` the state and speed as of the last
   * change events and the replay shown (null: the live recording). Objects rather than numbers are
   * passed so that no fractional number is boxed per tick.
   */
  public update(pb: Playback, dt: number, shown: ShownPosition, time: ShownTime): void {
    this.timeline.update(pb);
    this.labelClock -= dt;
    if (this.labelClock <= 0 && this.labelInputsChanged(pb, shown, time)) {
      this.labelClock = 0.1;
      this.timeline.setLabel(this.timelineLabel(pb, time.replay !== null));
    }
  }

  /** Places the panels; on a new screen size also resizes the camera and the timeline. */
  public layout(force = false): void {
    const w = this.app.screen.width;
    const h = this.app.screen.height;
    if (!force && w === this.width && h === this.height) return;
    if (w !== this.width || h !== this.height) {
      this.width = w;
      this.height = h;
      this.camera.resize(w, h);
      this.timeline.layout(w, h);
      this.onResize();
    }
    this.badge.root.position.set(12, 12);
    this.info.root.position.set(12, this.badge.root.visible ? 16 + this.badge.height : 12);
    // Near the top rather than centred: games keep their HUD along the bottom.
    this.help.root.position.set(Math.max(12, (w - this.help.width) / 2), Math.max(12, Math.min((h - this.help.height) / 2, 40)));
  }

  /** Whether anything the timeline label shows changed since it was last built (no string built otherwise). */
  private labelInputsChanged(pb: Playback, shown: ShownPosition, time: ShownTime): boolean {
    // State and speed come from the change events: no getter calls here.
    const r = pb.reader;
    const k = this.labelKey;
    const f = Math.round(shown.shownPosition);
    const state = time.lastState;
    const speed = time.lastSpeed;
    const oldest = r.frameCount > 0 ? r.oldestFrame : -1;
    const newest = r.frameCount > 0 ? r.newestFrame : -1;
    const st = state === 'playing' ? 1 : state === 'paused' ? 2 : 3;
    const mode = this.camera.mode === 'game' ? 1 : this.camera.mode === 'free' ? 2 : 3;
    const src = time.replay !== null ? 1 : 0;
    if (k[0] === f && k[1] === oldest && k[2] === newest && k[3] === st && k[4] === speed && k[5] === mode && k[6] === src) {
      return false;
    }
    k[0] = f;
    k[1] = oldest;
    k[2] = newest;
    k[3] = st;
    k[4] = speed;
    k[5] = mode;
    k[6] = src;
    return true;
  }

  private timelineLabel(pb: Playback, replay: boolean): string {
    const r = pb.reader;
    if (r.frameCount === 0) return 'nothing recorded';
    const f = Math.round(pb.time.position);
    const t = r.timeOf(f);
    const span = r.timeOf(r.newestFrame) - r.timeOf(r.oldestFrame);
    const src = replay ? 'replay' : 'live rec';
    return `${src}  frame ${f}  [${r.oldestFrame}..${r.newestFrame}]  t=${(Number.isFinite(t) ? t : 0).toFixed(2)}s` +
      `  held ${span.toFixed(1)}s  ${pb.time.state}  ×${pb.time.speed}  cam:${this.camera.mode}  H: help`;
  }
}
