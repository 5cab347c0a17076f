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
  | 'help'
  | 'shuttleBack'
  | 'shuttleStop'
  | 'shuttleForward'
  | 'previousMarker'
  | 'nextMarker'
  | 'channel1'
  | 'channel2'
  | 'channel3'
  | 'channel4'
  | 'channel5'
  | 'channel6'
  | 'channel7'
  | 'channel8'
  | 'channel9'
  | 'markIn'
  | 'markOut'
  | 'clearRange'
  | 'playRange'
  | 'onionSkin';

/** The commands that toggle channels 0..8 (keys 1..9), in channel order. */
export const CHANNEL_COMMANDS: readonly OverlayCommand[] = Object.freeze([
  'channel1',
  'channel2',
  'channel3',
  'channel4',
  'channel5',
  'channel6',
  'channel7',
  'channel8',
  'channel9',
] as const);

/** The channel a `channelN` command toggles (N - 1), or -1 for any other command. */
export function channelOfCommand(command: OverlayCommand): number {
  return CHANNEL_COMMANDS.indexOf(command);
}

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
  shuttleBack: ['j'],
  shuttleStop: ['k'],
  shuttleForward: ['l'],
  previousMarker: ['ArrowUp'],
  nextMarker: ['ArrowDown'],
  channel1: ['1'],
  channel2: ['2'],
  channel3: ['3'],
  channel4: ['4'],
  channel5: ['5'],
  channel6: ['6'],
  channel7: ['7'],
  channel8: ['8'],
  channel9: ['9'],
  markIn: ['i'],
  markOut: ['o'],
  clearRange: ['x'],
  playRange: ['Shift+Space'],
  onionSkin: ['t'],
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
  shuttleBack: 'play backwards; again: twice as fast',
  shuttleStop: 'stop (pause)',
  shuttleForward: 'play forwards; again: twice as fast',
  previousMarker: 'jump to the previous marker',
  nextMarker: 'jump to the next marker',
  channel1: 'toggle channel 1',
  channel2: 'toggle channel 2',
  channel3: 'toggle channel 3',
  channel4: 'toggle channel 4',
  channel5: 'toggle channel 5',
  channel6: 'toggle channel 6',
  channel7: 'toggle channel 7',
  channel8: 'toggle channel 8',
  channel9: 'toggle channel 9',
  markIn: 'set the in point of the range here',
  markOut: 'set the out point of the range here',
  clearRange: 'clear the in/out range',
  playRange: 'play the in/out range in a loop',
  onionSkin: 'onion skin and trail of the selected entity',
});

/** Normalises a `KeyboardEvent.key`: letters lower-case, ' ' → 'Space'. */
function normKey(key: string): string {
  if (key === ' ' || key === 'Spacebar') return 'Space';
  return key.length === 1 ? key.toLowerCase() : key;
}

/** Normalises a binding string ('Shift+C' → 'Shift+c'). */
function normBinding(b: string): string {
  return b.startsWith('Shift+') ? `Shift+${normKey(b.slice(6))}` : normKey(b);
}

/**
 * How a binding is written for people: arrows as ←→↑↓, Escape as Esc, letters upper-case
 * ('Shift+ArrowLeft' → 'Shift+←', 'c' → 'C').
 *
 * @example
 * keyName('Shift+ArrowLeft'); // 'Shift+←'
 */
export function keyName(binding: string): string {
  return binding
    .replace('ArrowLeft', '←')
    .replace('ArrowRight', '→')
    .replace('ArrowUp', '↑')
    .replace('ArrowDown', '↓')
    .replace('Escape', 'Esc')
    .replace(/^(Shift\+)?([a-z])$/, (_m, s: string | undefined, c: string) => (s ?? '') + c.toUpperCase());
}

/** One line of the key list: the keys (as `keyName` writes them) and what they do. */
export interface KeyLine {
  readonly keys: readonly string[];
  readonly text: string;
}

/**
 * The key list of `bindings` (the help overlay and the key table of docs/getting-started.md come
 * from it): one line per bound command, in command order, with a line for each command whose keys
 * differ while the game runs (`liveBindings`, handled when in `liveCommands`). The channel commands
 * bound to one key each make a single line ("1 … 9").
 *
 * @example
 * for (const l of describeKeys(DEFAULT_KEY_BINDINGS)) console.log(l.keys.join(' '), l.text);
 */
export function describeKeys(
  bindings: Readonly<KeyBindings>,
  liveBindings: Partial<KeyBindings> = {},
  liveCommands: readonly OverlayCommand[] = [],
): KeyLine[] {
  const lines: KeyLine[] = [];
  const live = new Set(liveCommands);
  const channelKeys = CHANNEL_COMMANDS.map((c) => bindings[c] ?? []);
  const channelsInOneLine = channelKeys.every((k) => k.length === 1);
  for (const command of Object.keys(bindings) as OverlayCommand[]) {
    const keys = bindings[command];
    if (channelOfCommand(command) >= 0 && channelsInOneLine) {
      if (command === CHANNEL_COMMANDS[0]) {
        const n = CHANNEL_COMMANDS.length;
        lines.push({
          keys: [`${keyName(channelKeys[0][0])} … ${keyName(channelKeys[n - 1][0])}`],
          text: `toggle channels 1–${n} (in the order registered)`,
        });
      }
      continue;
    }
    const liveKeys = liveBindings[command];
    const differs = liveKeys !== undefined && liveKeys.join() !== keys.join();
    const text = COMMAND_DESCRIPTIONS[command];
    if (differs && live.has(command) && liveKeys.length > 0)
      lines.push({ keys: liveKeys.map(keyName), text: `${text} (while the game runs)` });
    if (keys.length > 0) lines.push({ keys: keys.map(keyName), text: differs ? `${text} (in the replay)` : text });
  }
  return lines;
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
  /** Whether keys are handled at all (false: every key is left to the game, e.g. the overlay is suspended). Default: always. */
  isEnabled?: () => boolean;
  /** Runs a command. */
  run: (command: OverlayCommand) => void;
}

/** `<input>` types that are not typed into: keys pressed on them are commands. */
const NOT_TYPED_INTO = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file', 'image']);

/** Focusable controls that act on Space or arrow keys themselves. */
const CLICKED_BY_KEYS = new Set(['BUTTON', 'INPUT', 'SELECT']);

/**
 * Whether `target` is a text field being typed into: a text-like `<input>` (a lil-gui number or
 * text field too), a `<textarea>` or contenteditable element. Keys pressed there are not commands.
 */
export function isTypingTarget(target: EventTarget | null): boolean {
  const t = target as { tagName?: unknown; type?: unknown; isContentEditable?: unknown; readOnly?: unknown } | null;
  if (t === null || typeof t !== 'object') return false;
  if (t.isContentEditable === true) return true;
  if (t.tagName === 'TEXTAREA') return t.readOnly !== true;
  if (t.tagName === 'INPUT') return !NOT_TYPED_INTO.has(String(t.type).toLowerCase()) && t.readOnly !== true;
  return false;
}

/**
 * Turns key presses into overlay commands, whatever has the focus: it listens in the capture
 * phase (before a panel such as lil-gui can stop the event), and a key it handles on a focused
 * button, checkbox or select takes the focus off that control, so that Space plays instead of
 * clicking it again. Keys typed into a text field (`isTypingTarget`) and keys with Ctrl/Alt/Meta
 * (browser shortcuts) are left alone. While the game runs (`isLive()`), only the commands in
 * `liveCommands` are handled, so the game keeps its other keys.
 *
 * @example
 * const keys = new KeyboardControls(window, {
 *   bindings: DEFAULT_KEY_BINDINGS, liveBindings: null, liveCommands: ['togglePlay'],
 *   isLive: () => !overlay.isPaused, run: (cmd) => overlay.runCommand(cmd),
 * });
 * keys.keyLabel('togglePlay'); // 'Space'
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
  private readonly isEnabled: (() => boolean) | undefined;
  private readonly run: (command: OverlayCommand) => void;
  private disposed = false;

  public constructor(
    private readonly target: EventTarget,
    options: KeyboardControlsOptions,
  ) {
    const { bindings, liveBindings, liveCommands } = options;
    this.bindings = bindings;
    this.isLive = options.isLive;
    this.isEnabled = options.isEnabled;
    this.run = options.run;
    this.map = keyMap(bindings);
    this.liveBindings = liveBindings ?? {};
    this.liveMap = liveBindings === null ? this.map : keyMap({ ...bindings, ...liveBindings });
    this.live = new Set(liveCommands);
    this.listener = (e: Event) => this.onKey(e as KeyboardEvent);
    target.addEventListener('keydown', this.listener, { capture: true });
  }

  /** The command a key press maps to (with the live keys when `live`), or undefined. */
  public commandFor(key: string, shift: boolean, live = false): OverlayCommand | undefined {
    const map = live ? this.liveMap : this.map;
    const k = normKey(key);
    if (shift) {
      const c = map.get(`Shift+${k}`);
      if (c !== undefined) return c;
    }
    return map.get(k);
  }

  /** The keys of `command` (those used while the game runs when `live`; none when it is not handled then). */
  public keysFor(command: OverlayCommand, live = false): readonly string[] {
    if (!live) return this.bindings[command] ?? [];
    if (!this.live.has(command)) return [];
    return this.liveBindings[command] ?? this.bindings[command] ?? [];
  }

  /** The first key of `command` as people write it ('Space', 'P', '←'), or '' when it has none. */
  public keyLabel(command: OverlayCommand, live = false): string {
    const keys = this.keysFor(command, live);
    return keys.length > 0 ? keyName(keys[0]) : '';
  }

  /**
   * Lines "keys — description" for every bound command (the help overlay), plus a line for each
   * command whose keys differ while the game runs (e.g. P instead of Space to pause).
   */
  public describe(): string[] {
    return describeKeys(this.bindings, this.liveBindings, [...this.live]).map(
      (l) => `${l.keys.slice(0, 2).join('  ').padEnd(18)} ${l.text}`,
    );
  }

  /** Stops listening. */
  public dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.target.removeEventListener('keydown', this.listener, { capture: true });
  }

  private onKey(e: KeyboardEvent): void {
    if (e.ctrlKey || e.altKey || e.metaKey) return;
    if (this.isEnabled !== undefined && !this.isEnabled()) return;
    if (isTypingTarget(e.target)) return;
    const live = this.isLive();
    const command = this.commandFor(e.key, e.shiftKey, live);
    if (command === undefined) return;
    if (live && !this.live.has(command)) return;
    e.preventDefault();
    // A focused button, checkbox or select would act on the key too (Space clicks it on key up).
    // (Only form controls: a focused game canvas keeps its focus.)
    const focused = e.target as { blur?: unknown; tagName?: unknown } | null;
    if (focused !== null && typeof focused.blur === 'function' && CLICKED_BY_KEYS.has(String(focused.tagName))) {
      (focused as { blur(): void }).blur();
    }
    this.run(command);
  }
}

function keyMap(bindings: Readonly<KeyBindings>): Map<string, OverlayCommand> {
  const map = new Map<string, OverlayCommand>();
  for (const command of Object.keys(bindings) as OverlayCommand[]) {
    for (const key of bindings[command] ?? []) map.set(normBinding(key), command);
  }
  return map;
}
