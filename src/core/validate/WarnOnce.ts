/**
 * Reports each kind of problem once, through a sink that may throw without harm: the recorder's,
 * the overlay's and the resolver's one warning mechanism. Check `has(key)` before building a
 * message that costs something (a template string allocates); `warn` builds nothing itself.
 *
 * @example
 * const warnings = new WarnOnce((message) => console.warn(message));
 * if (!warnings.has('nan')) warnings.warn('nan', `entity ${id} has a NaN position`);
 */
export class WarnOnce {
  private readonly reported = new Set<string>();

  public constructor(private readonly sink: (message: string) => void) {}

  /** Whether `key` was reported already. */
  public has(key: string): boolean {
    return this.reported.has(key);
  }

  /** Reports `message` unless `key` was reported before. A throwing sink is ignored. */
  public warn(key: string, message: string): void {
    if (this.reported.has(key)) return;
    this.reported.add(key);
    try {
      this.sink(message);
    } catch {
      // A throwing warning handler must not take the game down.
    }
  }
}
