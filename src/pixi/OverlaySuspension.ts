/**
 * Whether `RewindOverlay` is suspended: by hand (`setSuspended`) or by `options.suspendWhen`,
 * asked every tick (a throwing `suspendWhen` is reported and counts as false). It owns the two
 * flags; on a change it calls `onChange(on)`, where the overlay resumes a pause and hides or shows
 * its layers.
 *
 * @internal Built by `RewindOverlay`; not exported from `rewindable/pixi`.
 *
 * @example
 * const suspension = new OverlaySuspension(options.suspendWhen, warn, (on) => view.setVisible(!on));
 * if (suspension.refresh()) return; // suspended: nothing recorded or drawn this tick
 */
export class OverlaySuspension {
  private byHand = false;
  private now = false;

  public constructor(
    private readonly when: (() => boolean) | null,
    private readonly warn: (key: string, message: string) => void,
    private readonly onChange: (on: boolean) => void,
  ) {}

  /** Whether the overlay is suspended now (as of the last `refresh`). */
  public get suspended(): boolean {
    return this.now;
  }

  /** Suspends by hand (true) or lifts that (false), then refreshes. */
  public setByHand(on: boolean): void {
    this.byHand = on;
    this.refresh();
  }

  /** Works out whether the overlay is suspended now; calls `onChange` when that changed. Returns it. */
  public refresh(): boolean {
    let on = this.byHand;
    const when = this.when;
    if (!on && when !== null) {
      try {
        on = when() === true;
      } catch (err) {
        this.warn('suspendWhen', `rewindable: suspendWhen threw: ${String(err)}`);
      }
    }
    if (on !== this.now) {
      this.now = on;
      this.onChange(on);
    }
    return on;
  }
}
