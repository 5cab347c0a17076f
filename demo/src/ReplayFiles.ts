/**
 * The page side of replay files (shared by the demo and the standalone viewer): download a saved
 * replay, open one from a file picker, by drag and drop or from a URL, show it in the overlay, and
 * report every problem in the banner instead of throwing it at the game. The rewindable calls
 * themselves are in rewind/replayFile.ts.
 */
import type { LoadedReplay, ReplaySource } from 'rewindable';
import type { RewindOverlay } from 'rewindable/pixi';
import type { Banner } from './Banner';
import {
  describeReplay,
  describeReplayError,
  openReplay,
  replayFileName,
  saveDemoReplay,
  showReplayFile,
} from './rewind/replayFile';

/** Settings of `ReplayFiles`. */
export interface ReplayFilesOptions {
  readonly overlay: RewindOverlay;
  readonly banner: Banner;
  /** The live recording saved when no replay is shown (null: the viewer, which has none). */
  readonly live: ReplaySource | null;
  /** Build id a loaded file is checked against (null: no check). */
  readonly expectedBuildId: string | null;
  /** The user's note stored in a saved file. */
  readonly note: () => string;
  /** Extra info fields stored in a saved file. */
  readonly fields: () => Record<string, string>;
  /** Whether the replay bar offers "return to live" (the demo; not the viewer, which has no live game). */
  readonly canReturnToLive: boolean;
  /** Called after a replay is shown. */
  readonly onShown: ((replay: LoadedReplay, name: string) => void) | null;
}

/**
 * @example
 * const files = new ReplayFiles({ overlay, banner, live: rewind.recorder, expectedBuildId: DEMO_BUILD_ID,
 *   note: () => hud.note, fields: () => ({}), canReturnToLive: true, onShown: null });
 * files.installDrop(window);
 * saveButton.onclick = () => files.save();
 */
export class ReplayFiles {
  /** The replay the overlay shows, or null while it shows the live recording. */
  public shown: LoadedReplay | null = null;
  /** Name of the file shown. */
  public shownName = '';
  /** The last replay loaded and its name (kept after returning to live, so a viewer can show it again). */
  public last: LoadedReplay | null = null;
  public lastName = '';
  private readonly input: HTMLInputElement;
  private veil: HTMLDivElement | null = null;
  private dragDepth = 0;

  public constructor(public readonly options: ReplayFilesOptions) {
    this.input = document.createElement('input');
    this.input.type = 'file';
    this.input.accept = '.rwd,application/octet-stream';
    this.input.style.display = 'none';
    this.input.dataset.id = 'replay-file-input';
    this.input.addEventListener('change', () => {
      const file = this.input.files?.[0];
      this.input.value = '';
      if (file !== undefined) void this.openFile(file);
    });
    document.body.append(this.input);
    // Leaving the replay (Esc, the panel, the bar's button) forgets it and hides the bar.
    options.overlay.onChange((o) => {
      if (o.source === 'live' && this.shown !== null) {
        this.shown = null;
        this.shownName = '';
        options.banner.setReplay(null);
      }
    });
  }

  /** The bytes of a `.rwd` file of what the overlay shows (the live recording or the shown replay). Throws a `ReplayError` on bad input. */
  public saveBytes(): Uint8Array {
    const o = this.options;
    const live = o.live ?? this.shown;
    if (live === null) throw new Error('there is no recording to save');
    return saveDemoReplay(o.overlay, live, this.shown, o.note(), o.fields());
  }

  /** Saves and downloads `rewindable-<date>.rwd`; problems go to the banner. */
  public save(): void {
    try {
      const bytes = this.saveBytes();
      const name = replayFileName(new Date());
      downloadBytes(bytes, name);
      this.options.banner.show('info', `Saved ${name} (${(bytes.byteLength / (1024 * 1024)).toFixed(1)} MB).`);
    } catch (err) {
      this.options.banner.show('error', describeReplayError(err));
    }
  }

  /**
   * Opens `.rwd` bytes and shows them (the game pauses). Warnings (another build) go to the banner;
   * a bad file throws its `ReplayError` after the banner says what is wrong, and changes nothing.
   */
  public loadBytes(bytes: Uint8Array | ArrayBuffer, name = 'replay'): LoadedReplay {
    const o = this.options;
    let replay: LoadedReplay;
    try {
      replay = openReplay(bytes, o.expectedBuildId);
    } catch (err) {
      o.banner.show('error', `Could not open ${name}: ${describeReplayError(err)}`);
      throw err;
    }
    // The errors and warnings of earlier files are out of date once a good one is shown.
    o.banner.clear(['error', 'warning']);
    this.show(replay, name);
    for (const w of replay.warnings) o.banner.show('warning', `${name}: ${w.message}`);
    return replay;
  }

  /** Reads and opens a file (picker or drop); never throws. */
  public async openFile(file: File): Promise<void> {
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(await file.arrayBuffer());
    } catch (err) {
      this.options.banner.show(
        'error',
        `Could not read ${file.name}: ${err instanceof Error ? err.message : String(err)}`,
      );
      return;
    }
    try {
      this.loadBytes(bytes, file.name);
    } catch {
      // Already in the banner.
    }
  }

  /** Fetches and opens a replay from a URL; never throws. */
  public async openUrl(url: string): Promise<void> {
    const name =
      url
        .split(/[/?#]/)
        .filter((p) => p.length > 0)
        .pop() ?? url;
    let bytes: Uint8Array;
    try {
      const res = await fetch(url);
      if (!res.ok) throw new Error(`HTTP ${res.status} ${res.statusText}`);
      bytes = new Uint8Array(await res.arrayBuffer());
    } catch (err) {
      this.options.banner.show('error', `Could not fetch ${url}: ${err instanceof Error ? err.message : String(err)}`);
      return;
    }
    try {
      this.loadBytes(bytes, name);
    } catch {
      // Already in the banner.
    }
  }

  /** Opens the file picker. */
  public pick(): void {
    this.input.click();
  }

  /** Shows `replay` again (the viewer, if its overlay ever went back to its empty live view). */
  public reshow(): void {
    if (this.last !== null) this.show(this.last, this.lastName);
  }

  /** Accepts `.rwd` files dropped anywhere on `target`, with a veil while dragging. */
  public installDrop(target: Window | HTMLElement): void {
    const hasFiles = (e: DragEvent): boolean => e.dataTransfer !== null && [...e.dataTransfer.types].includes('Files');
    target.addEventListener('dragenter', (e) => {
      const d = e as DragEvent;
      if (!hasFiles(d)) return;
      d.preventDefault();
      this.dragDepth++;
      this.setVeil(true);
    });
    target.addEventListener('dragover', (e) => {
      const d = e as DragEvent;
      if (!hasFiles(d)) return;
      d.preventDefault();
      if (d.dataTransfer !== null) d.dataTransfer.dropEffect = 'copy';
    });
    target.addEventListener('dragleave', () => {
      this.dragDepth = Math.max(0, this.dragDepth - 1);
      if (this.dragDepth === 0) this.setVeil(false);
    });
    target.addEventListener('drop', (e) => {
      const d = e as DragEvent;
      if (!hasFiles(d)) return;
      d.preventDefault();
      this.dragDepth = 0;
      this.setVeil(false);
      const file = d.dataTransfer?.files[0];
      if (file !== undefined) void this.openFile(file);
    });
  }

  private show(replay: LoadedReplay, name: string): void {
    const o = this.options;
    showReplayFile(o.overlay, replay);
    this.shown = replay;
    this.last = replay;
    this.shownName = name;
    this.lastName = name;
    o.banner.setReplay(
      o.canReturnToLive
        ? `Replay “${name}”: ${describeReplay(replay)}. The game is paused; its live recording is kept.`
        : `“${name}”: ${describeReplay(replay)}`,
      o.canReturnToLive ? { label: 'return to live', run: () => o.overlay.returnToLive() } : null,
    );
    o.onShown?.(replay, name);
  }

  private setVeil(on: boolean): void {
    if (on && this.veil === null) {
      const v = document.createElement('div');
      v.dataset.id = 'drop-veil';
      v.textContent = 'Drop a .rwd replay to open it';
      Object.assign(v.style, {
        position: 'fixed',
        inset: '12px',
        zIndex: '30',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        border: '3px dashed #7df9ff',
        borderRadius: '12px',
        background: 'rgba(8, 20, 28, 0.7)',
        color: '#dff',
        font: '700 22px ui-monospace, Menlo, Consolas, monospace',
        pointerEvents: 'none',
      });
      document.body.append(v);
      this.veil = v;
    } else if (!on && this.veil !== null) {
      this.veil.remove();
      this.veil = null;
    }
  }
}

/**
 * Downloads bytes as a file named `name` (through a temporary object URL).
 *
 * @example
 * downloadBytes(saveDemoReplay(overlay, recorder, null, ''), replayFileName(new Date()));
 */
export function downloadBytes(bytes: Uint8Array, name: string): void {
  const blob = new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'application/octet-stream' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
