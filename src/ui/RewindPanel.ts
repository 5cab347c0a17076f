import GUI, { type Controller } from 'lil-gui';
import type { Bookmark } from '../core/playback/Bookmarks';
import { CAMERA_MODES, type CameraMode } from '../pixi/camera';
import { CHANNEL_COMMANDS, type OverlayCommand } from '../pixi/KeyboardControls';
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
  /** Show the panel only while the game is paused (a replay is shown); hidden while it runs. */
  onlyWhilePaused: boolean;
}

/** The defaults merged under the options given to `new RewindPanel(...)`. */
export const DEFAULT_REWIND_PANEL_OPTIONS: Readonly<RewindPanelOptions> = Object.freeze<RewindPanelOptions>({
  title: 'rewindable',
  container: null,
  width: 240,
  closed: false,
  onSave: null,
  onLoad: null,
  readoutIntervalMs: 200,
  onlyWhilePaused: false,
});

/** The transport row: one small button per command, in the order of a video player. */
const TRANSPORT: ReadonlyArray<readonly [command: OverlayCommand, glyph: string, label: string]> = [
  ['oldest', '⇤', 'oldest'],
  ['previousMarker', '◂◆', 'previous marker'],
  ['stepBack', '◂', 'step −1'],
  ['stepForward', '▸', 'step +1'],
  ['nextMarker', '◆▸', 'next marker'],
  ['newest', '⇥', 'newest'],
];

/**
 * A lil-gui panel for the overlay: play/pause, a transport row (oldest, previous marker, step,
 * next marker, newest), speed (reverse to fast, slow motion included), loop, interpolation, one
 * checkbox per channel in use (`ChannelRegistry.usedMask`), bones (when a skeleton is described),
 * camera mode, bookmarks (add, and per bookmark: jump, rename, delete), and save/load buttons that call the given callbacks. Key names in the labels
 * come from the overlay's key bindings. The panel holds no playback state of its own: every
 * control sends a command to the overlay, and the panel redraws from the overlay's state when it
 * changes (`overlay.onChange`).
 *
 * @example
 * const panel = new RewindPanel(overlay, { onSave: () => download(saveReplay(recorder)), onlyWhilePaused: true });
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
    onion: false,
    camera: 'game' as CameraMode,
    bookmarkLabel: '',
    transport: '',
  };
  private readonly channelFolder: GUI;
  private readonly bookmarkFolder: GUI;
  private readonly channelState: Record<string, boolean> = {};
  private channelControllers: Controller[] = [];
  /** The channel index of each of `channelControllers`. */
  private channelIndices: number[] = [];
  private readonly bonesController: Controller;
  private bookmarkRows: Controller[] = [];
  private shownBookmarks: ReadonlyArray<Bookmark> | null = null;
  private readonly playButton: Controller;
  private readonly resumeButton: Controller;
  private readonly statusController: Controller;
  private readonly returnButton: Controller | null;
  private readonly unsubscribe: () => void;
  private readonly timer: ReturnType<typeof setInterval> | null;
  private destroyed = false;
  /** The channels in use and whether bones were shown at the last `syncChannels`. */
  private shownUsed = -1;
  private shownBones = true;

  public constructor(
    public readonly overlay: RewindOverlay,
    options: Partial<RewindPanelOptions> = {},
  ) {
    const o: RewindPanelOptions = { ...DEFAULT_REWIND_PANEL_OPTIONS, ...options };
    this.options = Object.freeze(o);
    this.gui = new GUI({ title: o.title, width: o.width, ...(o.container !== null ? { container: o.container } : {}) });
    this.gui.domElement.classList.add('rewindable-panel');
    const v = this.view;
    const commands = {
      playPause: () => overlay.runCommand('togglePlay'),
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
    this.transportRow(play);
    play
      .add(v, 'speed', -8, 8, 0.05)
      .name('speed')
      .onChange((s: number) => {
        // 0 is not a speed (pause is a state): keep the direction, slowest speed.
        overlay.playback.time.setSpeed(s === 0 ? Math.sign(overlay.playback.time.speed) * 0.05 : s);
      });
    play
      .add(v, 'loop')
      .name('loop')
      .onChange((on: boolean) => overlay.playback.time.setLoop(on));
    play
      .add(v, 'interpolate')
      .name('interpolate')
      .onChange((on: boolean) => overlay.setInterpolate(on));
    this.resumeButton = play.add(commands, 'resume').name(this.withKey('resume game', 'resume'));

    this.channelFolder = this.gui.addFolder('Channels');
    this.bonesController = this.channelFolder
      .add(v, 'bones')
      .name('bones (stick figures)')
      .onChange((on: boolean) => overlay.setShowBones(on));
    this.channelFolder
      .add(v, 'onion')
      .name('onion skin & trail (T)')
      .onChange((on: boolean) => overlay.setOnionSkin(on));

    const cam = this.gui.addFolder('Camera');
    cam
      .add(v, 'camera', CAMERA_MODES as CameraMode[])
      .name(this.withKey('mode', 'cameraMode'))
      .onChange((m: CameraMode) => overlay.setCameraMode(m));
    cam.add(commands, 'gameCamera').name(this.withKey('back to game camera', 'gameCamera'));

    this.bookmarkFolder = this.gui.addFolder('Bookmarks');
    this.bookmarkFolder.add(v, 'bookmarkLabel').name('label');
    this.bookmarkFolder.add(commands, 'addBookmark').name(this.withKey('add bookmark', 'bookmark'));

    let returnButton: Controller | null = null;
    if (o.onSave !== null || o.onLoad !== null) {
      const file = this.gui.addFolder('Replay file');
      if (o.onSave !== null) file.add(commands, 'save').name('save replay');
      if (o.onLoad !== null) file.add(commands, 'load').name('load replay');
      returnButton = file.add(commands, 'returnToLive').name('return to live');
    }
    this.returnButton = returnButton;
    if (o.closed) this.gui.close();
    for (const c of this.gui.controllersRecursive()) titleButton(c);

    this.unsubscribe = overlay.onChange(() => this.refresh());
    this.timer =
      o.readoutIntervalMs > 0
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
    v.onion = o.onionSkin;
    v.camera = o.cameraMode;
    const live = o.state === 'live';
    const empty = live && o.reader.frameCount === 0;
    this.playButton.name(
      empty
        ? 'nothing recorded yet'
        : live
          ? this.withKey('pause game', 'togglePlay', true)
          : this.withKey(o.state === 'playing' ? 'pause' : 'play', 'togglePlay'),
    );
    titleButton(this.playButton);
    this.playButton.enable(!empty);
    this.resumeButton.enable(!live);
    this.returnButton?.show(o.source === 'replay');
    // The key help (H) is drawn in the canvas: the panel steps aside while it is shown.
    const shown = (!this.options.onlyWhilePaused || !live) && !o.helpShown;
    if (shown !== !this.gui._hidden) this.gui.show(shown);
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

  /** `text (key)` with the first key of `command` (the live keys when `live`), or `text` when it has none. */
  private withKey(text: string, command: OverlayCommand, live = false): string {
    const key = this.overlay.keyboard?.keyLabel(command, live) ?? '';
    return key.length > 0 ? `${text} (${key})` : text;
  }

  /** One row of small buttons (oldest, previous marker, step −1, step +1, next marker, newest). */
  private transportRow(folder: GUI): void {
    const row = folder.add(this.view, 'transport').name('');
    row.domElement.classList.add('rewindable-transport');
    const widget = row.domElement.querySelector('.lil-widget') as HTMLElement;
    widget.replaceChildren();
    widget.style.display = 'flex';
    widget.style.gap = '2px';
    row.domElement.querySelector('.lil-name')?.remove();
    for (const [command, glyph, label] of TRANSPORT) {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = glyph;
      b.title = this.withKey(label, command);
      b.setAttribute('aria-label', b.title);
      b.dataset.command = command;
      b.style.flex = '1';
      b.style.minWidth = '0';
      b.addEventListener('click', () => this.overlay.runCommand(command));
      widget.append(b);
    }
  }

  private refreshStatus(): void {
    const o = this.overlay;
    const r = o.reader;
    // The first frame recorded changes what the play button offers, and a channel first drawn on or
    // a skeleton described what the channel folder lists (no change event says so).
    if (
      this.playButton._disabled !== (o.state === 'live' && r.frameCount === 0) ||
      r.channels.usedMask !== this.shownUsed ||
      this.hasSkeletons() !== this.shownBones
    ) {
      this.refresh();
      return;
    }
    let status: string;
    if (o.state === 'live') status = `live · ${r.frameCount} frames held`;
    else {
      const f = Math.round(o.playback.time.position);
      // A replay says its name (and status, e.g. "live following"), as the timeline label does.
      const label = o.replayLabel;
      const what =
        o.source === 'replay' ? (label.status !== null ? `${label.name} ${label.status}` : label.name) : o.state;
      status = `${what} · frame ${f} · ×${o.playback.time.speed}`;
    }
    if (status !== this.view.status) {
      this.view.status = status;
      this.statusController.updateDisplay();
    }
  }

  /**
   * One checkbox per channel in use (`ChannelRegistry.usedMask`: registered by the game, or drawn
   * on), rebuilt when that set or the source changes; the bones row only when a skeleton is described.
   */
  private syncChannels(): void {
    const channels = this.overlay.reader.channels;
    const mask = this.overlay.channelMask;
    const used = channels.usedMask;
    const listed = channels.list().filter((info) => (used & (1 << info.index)) !== 0);
    if (
      this.channelControllers.length !== listed.length ||
      listed.some(
        (info, k) => this.channelIndices[k] !== info.index || this.channelControllers[k].property !== info.name,
      )
    ) {
      for (const c of this.channelControllers) c.destroy();
      this.channelControllers = [];
      this.channelIndices = [];
      for (const info of listed) {
        this.channelState[info.name] = (mask & (1 << info.index)) !== 0;
        const command = CHANNEL_COMMANDS[info.index];
        const c = this.channelFolder.add(this.channelState, info.name).onChange((on: boolean) => {
          this.overlay.setChannel(info.index, on);
        });
        if (command !== undefined) c.name(this.withKey(info.name, command));
        c.domElement.style.borderLeft = `4px solid #${info.color.toString(16).padStart(6, '0')}`;
        this.channelControllers.push(c);
        this.channelIndices.push(info.index);
      }
    }
    for (let k = 0; k < this.channelControllers.length; k++) {
      const i = this.channelIndices[k];
      this.channelState[channels.name(i)!] = (mask & (1 << i)) !== 0;
    }
    this.shownUsed = used;
    this.shownBones = this.hasSkeletons();
    this.bonesController.show(this.shownBones);
  }

  /** Whether the recording shown describes a skeleton (bones can be drawn). */
  private hasSkeletons(): boolean {
    const skeletons = this.overlay.reader.entities.skeletons;
    for (let k = 0; k < skeletons.length; k++) if (skeletons[k] !== undefined) return true;
    return false;
  }

  /**
   * One row per bookmark, rebuilt when the list changes: "frame N", its label (edit it to rename
   * the bookmark; an empty label is allowed), a jump button and a delete button.
   */
  private syncBookmarks(): void {
    const bookmarks = this.overlay.playback.bookmarks;
    const list = bookmarks.list();
    if (list === this.shownBookmarks) return;
    this.shownBookmarks = list;
    for (const b of this.bookmarkRows) b.destroy();
    this.bookmarkRows = list.map((b) => {
      const row = this.bookmarkFolder
        .add({ label: b.label }, 'label')
        .name(`frame ${b.frame}`)
        .onFinishChange((label: string) => bookmarks.rename(b.id, label.trim()));
      row.domElement.dataset.bookmark = String(b.id);
      const widget = row.domElement.querySelector('.lil-widget') as HTMLElement;
      widget.style.display = 'flex';
      widget.style.gap = '2px';
      const input = widget.querySelector('input');
      if (input !== null) {
        input.placeholder = 'label';
        input.style.minWidth = '0';
      }
      const button = (text: string, action: string, title: string, run: () => void): void => {
        const el = document.createElement('button');
        el.type = 'button';
        el.textContent = text;
        el.title = title;
        el.dataset.action = action;
        el.addEventListener('click', run);
        widget.append(el);
      };
      button('⤷', 'jump', `jump to frame ${b.frame}`, () => this.overlay.jumpToBookmark(b.id));
      button('×', 'delete', 'delete this bookmark', () => bookmarks.remove(b.id));
      return row;
    });
  }
}

/** Gives a lil-gui button a title equal to its label (the transport buttons have one too). */
function titleButton(c: Controller): void {
  const b = c.domElement.querySelector(':scope.lil-function button, :scope.function button') as HTMLElement | null;
  if (b !== null) b.title = c._name;
}
