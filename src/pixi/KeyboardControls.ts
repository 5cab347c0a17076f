/**
 * Every command the overlay's keyboard (and panel) can send. See `DEFAULT_KEY_BINDINGS`.
 */
export type OverlayCommand =
  | 'togglePlay'
  | 'stepBack'
  | 'stepForward'
  | 'stepBack10'
  | 'stepForward10'
  | 'slower'
  | 'faster'
  | 'oldest'
  | 'newest'
  | 'cameraMode'
  | 'gameCamera'
  | 'rotateLeft'
  | 'rotateRight'
  | 'bookmark'
  | 'resume'
  | 'help';

/** Keys of each command, as `KeyboardEvent.key` values ('Space' for the space bar), optionally prefixed `Shift+`. */
export type KeyBindings = Record<OverlayCommand, readonly string[]>;

/** The default keys (documented in docs/getting-started.md and shown by the help overlay on H). */
export const DEFAULT_KEY_BINDINGS: Readonly<KeyBindings> = Object.freeze({
  togglePlay: ['Space'],
  stepBack: ['ArrowLeft', ','],
  stepForward: ['ArrowRight', '.'],
  stepBack10: ['Shift+ArrowLeft', 'Shift+<', 'Shift+,'],
  stepForward10: ['Shift+ArrowRight', 'Shift+>', 'Shift+.'],
  slower: ['['],
  faster: [']'],
  oldest: ['Home'],
  newest: ['End'],
  cameraMode: ['c'],
  gameCamera: ['g'],
  rotateLeft: ['q'],
  rotateRight: ['e'],
  bookmark: ['b'],
  resume: ['Escape'],
  help: ['h', '?'],
});

/** What each command does, for the help overlay and the docs. */
export const COMMAND_DESCRIPTIONS: Readonly<Record<OverlayCommand, string>> = Object.freeze({
  togglePlay: 'pause the game / play / pause',
  stepBack: 'step one frame back',
  stepForward: 'step one frame forward',
  stepBack10: 'step 10 frames back',
  stepForward10: 'step 10 frames forward',
  slower: 'slower (down to reverse)',
  faster: 'faster',
  oldest: 'jump to the oldest frame',
  newest: 'jump to the newest frame',
  cameraMode: 'camera mode: game / free / follow',
  gameCamera: 'back to the game camera',
  rotateLeft: 'rotate the camera left',
  rotateRight: 'rotate the camera right',
  bookmark: 'add a bookmark',
  resume: 'resume the game',
  help: 'show / hide this help',
});

/** Normalises a `KeyboardEvent.key`: letters lower-case, ' ' → 'Space'. */
function normKey(key: string): string {
  if (key === ' ' || key === 'Spacebar') return 'Space';
  return key.length === 1 ? key.toLowerCase() : key;
}

/** Normalises a binding string ('Shift+C' → 'Shift+c'). */
function normBinding(b: string): string {
  return b.startsWith('Shift+') ? 'Shift+' + normKey(b.slice(6)) : normKey(b);
}

/** What `KeyboardControls` maps and where its commands go. */
export interface KeyboardControlsOptions {
  /** Keys of each command. */
  bindings: Readonly<KeyBindings>;
  /** Keys used instead while the game runs (e.g. `{ togglePlay: ['p'] }` when the game uses Space), or null for the same keys. */
  liveBindings: Partial<KeyBindings> | null;
  /** Commands handled while the game runs. */
  liveCommands: readonly OverlayCommand[];
  /** Whether the game runs now. */
  isLive: () => boolean;
  /** Runs a command. */
  run: (command: OverlayCommand) => void;
}

/**
 * Turns key presses into overlay commands. Ignores keys typed into form fields and keys with
 * Ctrl/Alt/Meta (browser shortcuts). While the game runs (`isLive()`), only the commands in
 * `liveCommands` are handled, so the game keeps its other keys.
 *
 * @example
 * const keys = new KeyboardControls(window, {
 *   bindings: DEFAULT_KEY_BINDINGS, liveBindings: null, liveCommands: ['togglePlay'],
 *   isLive: () => !overlay.isPaused, run: (cmd) => overlay.runCommand(cmd),
 * });
 * keys.dispose();
 */
export class KeyboardControls {
  private readonly map: Map<string, OverlayCommand>;
  private readonly liveBindings: Partial<KeyBindings>;
  private readonly liveMap: Map<string, OverlayCommand>;
  private readonly live: ReadonlySet<OverlayCommand>;
  private readonly listener: (e: Event) => void;
  private readonly bindings: Readonly<KeyBindings>;
  private readonly isLive: () => boolean;
  private readonly run: (command: OverlayCommand) => void;
  private disposed = false;

  public constructor(private readonly target: EventTarget, options: KeyboardControlsOptions) {
    const { bindings, liveBindings, liveCommands } = options;
    this.bindings = bindings;
    this.isLive = options.isLive;
    this.run = options.run;
    this.map = keyMap(bindings);
    this.liveBindings = liveBindings ?? {};
    this.liveMap = liveBindings === null ? this.map : keyMap({ ...bindings, ...liveBindings });
    this.live = new Set(liveCommands);
    this.listener = (e: Event) => this.onKey(e as KeyboardEvent);
    target.addEventListener('keydown', this.listener);
  }

  /** The command a key press maps to (with the live keys when `live`), or undefined. */
  public commandFor(key: string, shift: boolean, live = false): OverlayCommand | undefined {
    const map = live ? this.liveMap : this.map;
    const k = normKey(key);
    if (shift) {
      const c = map.get('Shift+' + k);
      if (c !== undefined) return c;
    }
    return map.get(k);
  }

  /**
   * Lines "keys — description" for every bound command (the help overlay), plus a line for each
   * command whose keys differ while the game runs (e.g. P instead of Space to pause).
   */
  public describe(): string[] {
    const lines: string[] = [];
    const line = (keys: readonly string[], text: string) =>
      lines.push(`${keys.slice(0, 2).map(prettyKey).join('  ').padEnd(18)} ${text}`);
    for (const command of Object.keys(this.bindings) as OverlayCommand[]) {
      const keys = this.bindings[command];
      const liveKeys = this.liveBindings[command];
      const differs = liveKeys !== undefined && liveKeys.join() !== keys.join();
      if (differs && this.live.has(command) && liveKeys.length > 0) line(liveKeys, `${COMMAND_DESCRIPTIONS[command]} (while the game runs)`);
      if (keys.length > 0) line(keys, differs ? `${COMMAND_DESCRIPTIONS[command]} (in the replay)` : COMMAND_DESCRIPTIONS[command]);
    }
    return lines;
  }

  /** Stops listening. */
  public dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.target.removeEventListener('keydown', this.listener);
  }

  private onKey(e: KeyboardEvent): void {
    if (e.ctrlKey || e.altKey || e.metaKey) return;
    const t = e.target as { tagName?: string; isContentEditable?: boolean } | null;
    if (t !== null && t !== undefined) {
      const tag = t.tagName;
      if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || t.isContentEditable === true) return;
    }
    const live = this.isLive();
    const command = this.commandFor(e.key, e.shiftKey, live);
    if (command === undefined) return;
    if (live && !this.live.has(command)) return;
    e.preventDefault();
    this.run(command);
  }
}

function keyMap(bindings: Readonly<KeyBindings>): Map<string, OverlayCommand> {
  const map = new Map<string, OverlayCommand>();
  for (const command of Object.keys(bindings) as OverlayCommand[]) {
    for (const key of bindings[command]) map.set(normBinding(key), command);
  }
  return map;
}

function prettyKey(k: string): string {
  return k
    .replace('ArrowLeft', '←')
    .replace('ArrowRight', '→')
    .replace('Escape', 'Esc')
    .replace(/^(Shift\+)?([a-z])$/, (_m, s: string | undefined, c: string) => (s ?? '') + c.toUpperCase());
}
