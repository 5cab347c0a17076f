import GUI, { type Controller } from 'lil-gui';
import type { Bookmark } from '../core/playback/Bookmarks';
import { CAMERA_MODES, type CameraMode } from '../pixi/CameraController';
import type { RewindOverlay } from '../pixi/RewindOverlay';

/** Settings of `RewindPanel`; see `DEFAULT_REWIND_PANEL_OPTIONS`. */
export interface RewindPanelOptions {
  title: string;
  /** Where the panel goes; null: lil-gui's default place (fixed, top right of the page). */
  container: HTMLElement | null;
  /** Width in pixels. */
  width: number;
  /** Start folded. */
  closed: boolean;
  /** Called by the "save replay" button (shown only when given). */
  onSave: (() => void) | null;
  /** Called by the "load replay" button (shown only when given). */
  onLoad: (() => void) | null;
  /** How often (ms) the frame readout is refreshed while a replay is shown. */
  readoutIntervalMs: number;
}

/** The defaults merged under the options given to `new RewindPanel(...)`. */
export const DEFAULT_REWIND_PANEL_OPTIONS: Readonly<RewindPanelOptions> = Object.freeze<RewindPanelOptions>({
  title: 'rewindable',
  container: null,
  width: 260,
  closed: false,
  onSave: null,
  onLoad: null,
  readoutIntervalMs: 200,
});

/**
 * A lil-gui panel for the overlay: play/pause, speed (reverse to fast, slow motion included),
 * step, interpolation, one checkbox per registered channel, bones, camera mode, bookmarks, and
 * save/load buttons that call the given callbacks. The panel holds no playback state of its own:
 * every control sends a command to the overlay, and the panel redraws from the overlay's state
 * when it changes (`overlay.onChange`).
 *
 * @example
 * const panel = new RewindPanel(overlay, { onSave: () => download(saveReplay(recorder)) });
 * // later
 * panel.destroy();
 */
export class RewindPanel {
  public readonly options: Readonly<RewindPanelOptions>;
  public readonly gui: GUI;
  /** What the controllers show; written from the overlay's state, read by lil-gui. */
  private readonly view = {
    status: '',
    speed: 1,
    loop: false,
    interpolate: true,
    bones: true,
    camera: 'game' as CameraMode,
    bookmarkLabel: '',
  };
  private readonly channelFolder: GUI;
  private readonly bookmarkFolder: GUI;
  private readonly channelState: Record<string, boolean> = {};
  private channelControllers: Controller[] = [];
  private bookmarkButtons: Controller[] = [];
  private shownBookmarks: ReadonlyArray<Bookmark> | null = null;
  private readonly playButton: Controller;
  private readonly statusController: Controller;
  private readonly returnButton: Controller | null;
  private readonly unsubscribe: () => void;
  private readonly timer: ReturnType<typeof setInterval> | null;
  private destroyed = false;

  public constructor(public readonly overlay: RewindOverlay, options: Partial<RewindPanelOptions> = {}) {
    const o: RewindPanelOptions = { ...DEFAULT_REWIND_PANEL_OPTIONS, ...options };
    this.options = Object.freeze(o);
    this.gui = new GUI({ title: o.title, width: o.width, ...(o.container !== null ? { container: o.container } : {}) });
    this.gui.domElement.classList.add('rewindable-panel');
    const v = this.view;
    const commands = {
      playPause: () => overlay.togglePlay(),
      stepBack: () => overlay.runCommand('stepBack'),
      stepForward: () => overlay.runCommand('stepForward'),
      oldest: () => overlay.runCommand('oldest'),
      newest: () => overlay.runCommand('newest'),
      resume: () => overlay.resume(),
      gameCamera: () => overlay.setCameraMode('game'),
      addBookmark: () => {
        overlay.addBookmark(v.bookmarkLabel.trim().length > 0 ? v.bookmarkLabel.trim() : undefined);
        v.bookmarkLabel = '';
        this.refresh();
      },
      save: () => o.onSave?.(),
      load: () => o.onLoad?.(),
      returnToLive: () => overlay.returnToLive(),
    };

    const play = this.gui.addFolder('Playback');
    this.statusController = play.add(v, 'status').name('state').disable();
    this.playButton = play.add(commands, 'playPause').name('pause game');
    play.add(commands, 'stepBack').name('step −1 (←)');
    play.add(commands, 'stepForward').name('step +1 (→)');
    play.add(commands, 'oldest').name('oldest (Home)');
    play.add(commands, 'newest').name('newest (End)');
    play.add(v, 'speed', -8, 8, 0.05).name('speed').onChange((s: number) => {
      // 0 is not a speed (pause is a state): keep the direction, slowest speed.
      overlay.playback.time.setSpeed(s === 0 ? Math.sign(overlay.playback.time.speed) * 0.05 : s);
    });
    play.add(v, 'loop').name('loop').onChange((on: boolean) => overlay.playback.time.setLoop(on));
    play.add(v, 'interpolate').name('interpolate').onChange((on: boolean) => overlay.setInterpolate(on));
    play.add(commands, 'resume').name('resume game (Esc)');

    this.channelFolder = this.gui.addFolder('Channels');
    this.channelFolder.add(v, 'bones').name('bones (stick figures)').onChange((on: boolean) => overlay.setShowBones(on));

    const cam = this.gui.addFolder('Camera');
    cam.add(v, 'camera', CAMERA_MODES as CameraMode[]).name('mode (C)').onChange((m: CameraMode) => overlay.setCameraMode(m));
    cam.add(commands, 'gameCamera').name('back to game camera (G)');

    this.bookmarkFolder = this.gui.addFolder('Bookmarks');
    this.bookmarkFolder.add(v, 'bookmarkLabel').name('label');
    this.bookmarkFolder.add(commands, 'addBookmark').name('add bookmark (B)');

    let returnButton: Controller | null = null;
    if (o.onSave !== null || o.onLoad !== null) {
      const file = this.gui.addFolder('Replay file');
      if (o.onSave !== null) file.add(commands, 'save').name('save replay');
      if (o.onLoad !== null) file.add(commands, 'load').name('load replay');
      returnButton = file.add(commands, 'returnToLive').name('return to live');
    }
    this.returnButton = returnButton;
    if (o.closed) this.gui.close();

    this.unsubscribe = overlay.onChange(() => this.refresh());
    this.timer = o.readoutIntervalMs > 0
      ? setInterval(() => this.refreshStatus(), o.readoutIntervalMs) // live too: the frames held grow
      : null;
    this.refresh();
  }

  /** Redraws every control from the overlay's state. */
  public refresh(): void {
    if (this.destroyed) return;
    const o = this.overlay;
    const v = this.view;
    const time = o.playback.time;
    v.speed = time.speed;
    v.loop = time.loop;
    v.interpolate = o.interpolate;
    v.bones = o.showBones;
    v.camera = o.camera.mode;
    this.playButton.name(o.state === 'live' ? 'pause game (Space)' : o.state === 'playing' ? 'pause (Space)' : 'play (Space)');
    this.returnButton?.show(o.source === 'replay');
    this.syncChannels();
    this.syncBookmarks();
    this.refreshStatus();
    for (const c of this.gui.controllersRecursive()) c.updateDisplay();
  }

  /** Removes the panel and stops listening to the overlay. */
  public destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.unsubscribe();
    if (this.timer !== null) clearInterval(this.timer);
    this.gui.destroy();
  }

  private refreshStatus(): void {
    const o = this.overlay;
    const r = o.reader;
    let status: string;
    if (o.state === 'live') status = `live · ${r.frameCount} frames held`;
    else {
      const f = Math.round(o.playback.time.position);
      status = `${o.source === 'replay' ? 'replay' : o.state} · frame ${f} · ×${o.playback.time.speed}`;
    }
    if (status !== this.view.status) {
      this.view.status = status;
      this.statusController.updateDisplay();
    }
  }

  /** One checkbox per registered channel (rebuilt when channels are registered or the source changes). */
  private syncChannels(): void {
    const channels = this.overlay.reader.channels;
    const mask = this.overlay.channelMask;
    if (this.channelControllers.length !== channels.count ||
        this.channelControllers.some((c, i) => c.property !== channels.name(i))) {
      for (const c of this.channelControllers) c.destroy();
      this.channelControllers = [];
      for (const info of channels.list()) {
        this.channelState[info.name] = (mask & (1 << info.index)) !== 0;
        const c = this.channelFolder.add(this.channelState, info.name).onChange((on: boolean) => {
          this.overlay.setChannel(info.index, on);
        });
        c.domElement.style.borderLeft = `4px solid #${info.color.toString(16).padStart(6, '0')}`;
        this.channelControllers.push(c);
      }
    }
    for (let i = 0; i < this.channelControllers.length; i++) {
      this.channelState[channels.name(i)!] = (mask & (1 << i)) !== 0;
    }
  }

  /** One "jump" button per bookmark, rebuilt when the list changes. */
  private syncBookmarks(): void {
    const list = this.overlay.playback.bookmarks.list();
    if (list === this.shownBookmarks) return;
    this.shownBookmarks = list;
    for (const b of this.bookmarkButtons) b.destroy();
    this.bookmarkButtons = list.map((b) => {
      const jump = { go: () => this.overlay.jumpToBookmark(b.id) };
      return this.bookmarkFolder.add(jump, 'go').name(`⤷ ${b.label} @${b.frame}`);
    });
  }
}
