/**
 * Messages for the user at the top of the page (plain DOM over the canvas, left of the rewind
 * panel, so that their close buttons stay clickable): errors and warnings from replay files in a
 * readable form, never thrown into the game, each with a close button, and a sticky bar saying
 * which replay is shown (with an optional action, e.g. "return to live"). Text is always set as text,
 * never parsed as HTML (file names and notes come from files).
 */

/** How a message looks, and whether it goes away by itself (`info` only). */
export type BannerLevel = 'error' | 'warning' | 'info';

/** Settings of `Banner`; see `DEFAULT_BANNER_OPTIONS`. */
export interface BannerOptions {
  /** Where the banner goes. */
  parent: HTMLElement;
  /** How long an `info` message stays, ms. */
  infoMs: number;
  /** Most messages shown at once (the oldest go first). */
  maxMessages: number;
}

/** The defaults merged under the options given to `new Banner(...)`. */
export const DEFAULT_BANNER_OPTIONS: Readonly<Omit<BannerOptions, 'parent'>> = Object.freeze({
  infoMs: 6000,
  maxMessages: 4,
});

const STYLE = `
#banner { position: fixed; left: 12px; right: 272px; top: 10px; max-width: 720px; margin: 0 auto; z-index: 20; display: flex;
  flex-direction: column; gap: 6px;
  font: 13px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; pointer-events: none; }
#banner .msg, #banner .replay { pointer-events: auto; display: flex; gap: 10px; align-items: flex-start;
  padding: 8px 12px; border-radius: 6px; color: #fff; box-shadow: 0 2px 12px rgba(0,0,0,.45); word-break: break-word; }
#banner .msg.error { background: #9d1c17; border: 1px solid #ff6b5f; }
#banner .msg.warning { background: #7a5400; border: 1px solid #ffc247; }
#banner .msg.info { background: #17446b; border: 1px solid #5fb4ff; }
#banner .replay { background: rgba(10, 60, 90, .92); border: 1px solid #7df9ff; color: #dff; }
#banner .text { flex: 1; white-space: pre-wrap; }
#banner button { font: inherit; cursor: pointer; border-radius: 4px; border: 1px solid rgba(255,255,255,.5);
  background: rgba(0,0,0,.25); color: #fff; padding: 1px 8px; }
#banner button.primary { background: #7df9ff; color: #06232b; border-color: #7df9ff; font-weight: 700; }
`;

/**
 * @example
 * const banner = new Banner();
 * banner.show('error', describeReplayError(err));
 * banner.setReplay('Replay “bug.rwd” · 900 frames', { label: 'return to live', run: () => overlay.returnToLive() });
 */
export class Banner {
  public readonly options: Readonly<BannerOptions>;
  public readonly root: HTMLDivElement;
  private readonly replayBar: HTMLDivElement;
  private readonly replayText: HTMLSpanElement;
  private readonly replayButton: HTMLButtonElement;
  private replayAction: (() => void) | null = null;

  public constructor(options: Partial<BannerOptions> = {}) {
    this.options = Object.freeze({ ...DEFAULT_BANNER_OPTIONS, parent: document.body, ...options });
    if (document.getElementById('banner-style') === null) {
      const style = document.createElement('style');
      style.id = 'banner-style';
      style.textContent = STYLE;
      document.head.append(style);
    }
    this.root = document.createElement('div');
    this.root.id = 'banner';
    this.root.setAttribute('role', 'status');
    this.replayBar = document.createElement('div');
    this.replayBar.className = 'replay';
    this.replayBar.dataset.id = 'replay-bar';
    this.replayBar.style.display = 'none';
    this.replayText = document.createElement('span');
    this.replayText.className = 'text';
    this.replayButton = document.createElement('button');
    this.replayButton.className = 'primary';
    this.replayButton.dataset.id = 'return-to-live';
    this.replayButton.addEventListener('click', () => this.replayAction?.());
    this.replayBar.append(this.replayText, this.replayButton);
    this.root.append(this.replayBar);
    this.options.parent.append(this.root);
  }

  /** Shows a message (errors and warnings stay until closed; info goes after `infoMs`). Returns its element. */
  public show(level: BannerLevel, text: string): HTMLElement {
    const msg = document.createElement('div');
    msg.className = `msg ${level}`;
    msg.dataset.level = level;
    const body = document.createElement('span');
    body.className = 'text';
    body.textContent = text;
    const close = document.createElement('button');
    close.textContent = '×';
    close.title = 'dismiss';
    close.addEventListener('click', () => msg.remove());
    msg.append(body, close);
    this.root.append(msg);
    const messages = this.root.querySelectorAll('.msg');
    for (let i = 0; i < messages.length - this.options.maxMessages; i++) messages[i].remove();
    if (level === 'info') setTimeout(() => msg.remove(), this.options.infoMs);
    return msg;
  }

  /** Removes every message of the given levels (default: all; never the replay bar). */
  public clear(levels: readonly BannerLevel[] = ['error', 'warning', 'info']): void {
    for (const m of this.root.querySelectorAll<HTMLElement>('.msg'))
      if (levels.includes(m.dataset.level as BannerLevel)) m.remove();
  }

  /** The messages shown now, as text (for tests and the debug hooks). */
  public messages(): Array<{ level: BannerLevel; text: string }> {
    return [...this.root.querySelectorAll<HTMLElement>('.msg')].map((m) => ({
      level: m.dataset.level as BannerLevel,
      text: m.querySelector('.text')?.textContent ?? '',
    }));
  }

  /** Shows (text) or hides (null) the replay bar, with an optional button. */
  public setReplay(text: string | null, action: { label: string; run: () => void } | null = null): void {
    if (text === null) {
      this.replayBar.style.display = 'none';
      this.replayAction = null;
      return;
    }
    this.replayText.textContent = text;
    this.replayAction = action?.run ?? null;
    this.replayButton.style.display = action !== null ? '' : 'none';
    this.replayButton.textContent = action?.label ?? '';
    this.replayBar.style.display = 'flex';
  }
}
