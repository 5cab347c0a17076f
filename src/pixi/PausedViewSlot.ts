import { CAMERA_MODES, type CameraMode } from './camera';
import type { PausedView, ViewSettings } from './PausedView';
import type { RewindOverlayOptions } from './RewindOverlayOptions';

/** Whether the paused view is still loading, has loaded, or failed to load. */
export type PausedViewState = 'loading' | 'ready' | 'failed';

/**
 * Where `RewindOverlay` keeps its paused view (`PausedView`, a chunk loaded after the overlay is
 * built): whether it has loaded, and the view settings until it has. Before, it owns the settings a
 * game may change (channels, bones, onion skin, camera mode, help) and hands them to the view when
 * it is built (`settings`); after, it forwards every change to the view, which owns them. Each
 * setter says whether anything changed, so that the overlay tells its listeners.
 *
 * @internal Part of `RewindOverlay`.
 *
 * @example
 * const slot = new PausedViewSlot(options);
 * slot.setChannelMask(1);                            // kept until the view loads
 * slot.loaded(new PausedView(ctx, sample, host, slot.settings, lines));
 * slot.require('timeline').timeline;                 // throws before `loaded`
 */
export class PausedViewSlot {
  private viewValue: PausedView | null = null;
  private stateValue: PausedViewState = 'loading';
  private readonly pending: ViewSettings;

  public constructor(private readonly options: Readonly<RewindOverlayOptions>) {
    this.pending = {
      channels: options.channels >>> 0,
      bones: options.showBones,
      onion: null,
      cameraMode: null,
      helpIntro: '',
      selectionDetail: true,
      helpShown: false,
    };
  }

  /** The paused view, or null before it has loaded (or when it failed to). */
  public get view(): PausedView | null {
    return this.viewValue;
  }

  public get state(): PausedViewState {
    return this.stateValue;
  }

  /** The settings to build the view with: the options', with the changes made since. */
  public get settings(): Readonly<ViewSettings> {
    return this.pending;
  }

  /** The view has been built: from now on it owns the settings. */
  public loaded(view: PausedView): void {
    this.viewValue = view;
    this.stateValue = 'ready';
  }

  /** The view failed to load: it never will. */
  public failed(): void {
    this.stateValue = 'failed';
  }

  /** The paused view, or an error that names `member` (of the overlay) and says why it is not there. */
  public require(member: string): PausedView {
    if (this.viewValue !== null) return this.viewValue;
    throw new Error(
      this.stateValue === 'failed'
        ? `rewindable: overlay.${member} does not exist: the paused view failed to load (see options.onError)`
        : `rewindable: overlay.${member} exists once the paused view has loaded: await overlay.ready first`,
    );
  }

  public get channelMask(): number {
    return this.viewValue !== null ? this.viewValue.view.channelMask : this.pending.channels;
  }

  public get showBones(): boolean {
    return this.viewValue !== null ? this.viewValue.view.showBones : this.pending.bones;
  }

  public get onionSkin(): boolean {
    if (this.viewValue !== null) return this.viewValue.view.onion.enabled;
    return this.pending.onion ?? this.options.onionSkin.enabled ?? false;
  }

  public get cameraMode(): CameraMode {
    return this.viewValue !== null ? this.viewValue.camera.mode : (this.pending.cameraMode ?? 'game');
  }

  public get helpShown(): boolean {
    return this.viewValue !== null ? this.viewValue.help.root.visible : this.pending.helpShown;
  }

  /** Enables or disables one channel; whether the mask changed. */
  public setChannel(channel: number, on: boolean): boolean {
    if (this.viewValue !== null) return this.viewValue.view.setChannel(channel, on);
    const bit = 1 << channel;
    return this.setChannelMask(on ? this.pending.channels | bit : this.pending.channels & ~bit);
  }

  /** Sets every channel (bit c = channel c); whether the mask changed. */
  public setChannelMask(mask: number): boolean {
    if (this.viewValue !== null) return this.viewValue.view.setChannels(mask);
    if (this.pending.channels === mask >>> 0) return false;
    this.pending.channels = mask >>> 0;
    return true;
  }

  public setShowBones(on: boolean): boolean {
    if (this.viewValue !== null) return this.viewValue.view.setShowBones(on);
    if (this.pending.bones === on) return false;
    this.pending.bones = on;
    return true;
  }

  public setOnionSkin(on: boolean): boolean {
    if (this.viewValue !== null) return this.viewValue.view.setOnionSkin(on);
    if (this.onionSkin === on) return false;
    this.pending.onion = on;
    return true;
  }

  /**
   * Sets the camera mode (before the view has loaded, the mode it starts in). Returns whether the
   * overlay must tell its listeners: once loaded, the camera tells them itself.
   */
  public setCameraMode(mode: CameraMode): boolean {
    if (this.viewValue !== null) {
      // The camera tells the overlay's listeners itself.
      this.viewValue.camera.setMode(mode);
      return false;
    }
    if (mode === this.cameraMode || !CAMERA_MODES.includes(mode)) return false;
    this.pending.cameraMode = mode;
    return true;
  }

  public setHelpIntro(line: string): void {
    if (this.viewValue !== null) this.viewValue.hud.setHelpIntro(line);
    else this.pending.helpIntro = line;
  }

  public setSelectionDetail(on: boolean): void {
    if (this.viewValue !== null) this.viewValue.hud.setInfoDetail(on);
    else this.pending.selectionDetail = on;
  }

  public toggleHelp(show: boolean): void {
    if (this.viewValue !== null) this.viewValue.hud.toggleHelp(show);
    else this.pending.helpShown = show;
  }
}
