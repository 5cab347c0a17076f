import { channelBudgetProblem, colorProblem, stringProblem } from '../validate/rules';

/** The built-in channels; users register more, up to `MAX_CHANNELS`. */
export const Channel = {
  AI: 0,
  PHYSICS: 1,
  ANIMATION: 2,
} as const;

/** Most channels: one bit each in a 32-bit mask. */
export const MAX_CHANNELS = 32;

/** How a channel is described when registered. */
export interface ChannelOptions {
  /** Display colour (0xRRGGBB) for panels and badges. */
  color?: number;
  /** Primitives this channel may store per frame; more are dropped and the frame is flagged. */
  budget?: number;
}

/** One registered channel. */
export interface ChannelInfo {
  readonly index: number;
  readonly name: string;
  readonly color: number;
  readonly budget: number;
}

/**
 * The named debug-draw channels. `ai`, `physics` and `animation` exist from the start; every channel
 * is always recorded, and only display is filtered.
 *
 * @example
 * const net = recorder.channels.register('network', { color: 0x44ccff, budget: 256 });
 * recorder.draw.line(net, 0, 0, 0, 10, 0, 0, 0xffffff);
 *
 * @advanced The `rewindable` entry exports it as a type (a game gets it as `recorder.channels`); `rewindable/format` as a class.
 */
export class ChannelRegistry {
  private readonly names: string[] = [];
  private readonly colors: number[] = [];
  /** Per-channel primitive budgets, indexed by channel. */
  public readonly budgets = new Int32Array(MAX_CHANNELS);
  private readonly defaultBudget: number;
  private readonly listeners: Array<() => void> = [];
  /** Channels registered by the game or drawn on (see `usedMask`). */
  private used = 0;
  /** Whether the built-in channels are registered (a `register` after that is the game's). */
  private builtInsDone = false;

  public constructor(defaultBudget: number) {
    const problem = channelBudgetProblem(defaultBudget);
    if (problem !== null) throw new RangeError(`rewindable: the default channel ${problem}`);
    this.defaultBudget = defaultBudget;
    this.register('ai', { color: 0xffc83d });
    this.register('physics', { color: 0x4dd2ff });
    this.register('animation', { color: 0xd86bff });
    this.builtInsDone = true;
  }

  /**
   * The channels in use, one bit each: those the game registered (`register`, a built-in's name
   * included) and those recorded frames or static layers drew on (`markUsed`). A panel lists only
   * these: the built-in `ai`, `physics` and `animation` stay out of sight in a game that never
   * uses them.
   */
  public get usedMask(): number {
    return this.used;
  }

  /** Adds the channels of `mask` (one bit each) to `usedMask`. */
  public markUsed(mask: number): void {
    this.used |= mask;
  }

  /**
   * Registers a channel, or returns the index of one already registered under that name.
   * Configuration, not game input: a bad argument throws and changes nothing.
   * @throws RangeError when 32 channels already exist, the name is not a string of at most 65,536
   *   well-formed UTF-16 units, the colour not an integer in [0, 0xFFFFFF], the budget not an
   *   integer in [0, 2^20], or the recorder cannot allocate the staging the budget needs.
   */
  public register(name: string, options: ChannelOptions = {}): number {
    const nameProblem = stringProblem(name);
    if (nameProblem !== null) throw new RangeError(`rewindable: cannot register a channel whose name ${nameProblem}`);
    const existing = this.names.indexOf(name);
    if (existing >= 0) {
      if (this.builtInsDone) this.used |= 1 << existing;
      return existing;
    }
    if (this.names.length >= MAX_CHANNELS) {
      throw new RangeError(
        `rewindable: cannot register channel "${name.slice(0, 64)}": all ${MAX_CHANNELS} channels are in use`,
      );
    }
    const color = options.color ?? 0xffffff;
    const budget = options.budget ?? this.defaultBudget;
    const problem = colorProblem(color) ?? channelBudgetProblem(budget);
    if (problem !== null)
      throw new RangeError(`rewindable: cannot register channel "${name.slice(0, 64)}": ${problem}`);
    const index = this.names.length;
    this.names.push(name);
    this.colors.push(color);
    this.budgets[index] = budget;
    try {
      this.changed();
    } catch (e) {
      // Nothing changes when the listeners cannot follow (the staging could not be allocated).
      this.names.pop();
      this.colors.pop();
      this.budgets[index] = 0;
      throw new RangeError(
        `rewindable: cannot register channel "${name.slice(0, 64)}" with budget ${budget}: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
    if (this.builtInsDone) this.used |= 1 << index;
    return index;
  }

  private changed(): void {
    for (const l of this.listeners) l();
  }

  /** The index of a channel by name, or -1. */
  public indexOf(name: string): number {
    return this.names.indexOf(name);
  }

  /** How many channels are registered. */
  public get count(): number {
    return this.names.length;
  }

  /** The channel's name, or `undefined` when none is registered at that index. */
  public name(index: number): string | undefined {
    return this.names[index];
  }

  /** Every registered channel, in index order. */
  public list(): ChannelInfo[] {
    return this.names.map((name, index) => ({ index, name, color: this.colors[index], budget: this.budgets[index] }));
  }

  /**
   * Changes a channel's per-frame primitive budget.
   * @throws RangeError when there is no such channel, the budget is not an integer in [0, 2^20], or
   *   the recorder cannot allocate the staging it needs (the budget is then unchanged).
   */
  public setBudget(index: number, budget: number): void {
    if (!(index >= 0 && index < this.names.length && (index | 0) === index))
      throw new RangeError(`rewindable: no channel ${index}`);
    const problem = channelBudgetProblem(budget);
    if (problem !== null) throw new RangeError(`rewindable: channel ${index}: ${problem}`);
    const before = this.budgets[index];
    this.budgets[index] = budget;
    try {
      this.changed();
    } catch (e) {
      this.budgets[index] = before;
      throw new RangeError(
        `rewindable: channel ${index} cannot take budget ${budget}: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
  }

  /** Sum of every registered channel's budget. */
  public totalBudget(): number {
    let sum = 0;
    for (let i = 0; i < this.names.length; i++) sum += this.budgets[i];
    return sum;
  }

  /** @internal Called when channels or budgets change (the recorder resizes its staging). */
  public onChange(listener: () => void): void {
    this.listeners.push(listener);
  }
}
