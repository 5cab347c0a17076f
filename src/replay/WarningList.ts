import type { ReplayWarning } from './ReplayError';

/**
 * Collects the warnings of one load. Unknown-field warnings are bounded (a hostile file cannot make
 * the list grow without end); the others are few by construction and always kept.
 *
 * @example
 * const warnings = new WarningList(64, options.onWarning);
 * warnings.add({ code: 'BUILD_MISMATCH', message: '...' });
 * warnings.finish();
 */
export class WarningList {
  public readonly list: ReplayWarning[] = [];
  private dropped = 0;

  public constructor(
    private readonly max: number,
    private readonly listener: ((w: ReplayWarning) => void) | null,
  ) {}

  public add(w: ReplayWarning): void {
    if (w.code === 'UNKNOWN_FIELD' && this.list.length >= this.max) {
      this.dropped++;
      return;
    }
    this.list.push(w);
    if (this.listener !== null) {
      try {
        this.listener(w);
      } catch {
        // A throwing warning listener must not break the load.
      }
    }
  }

  /** Adds one summary warning for what was dropped. */
  public finish(): void {
    if (this.dropped > 0) {
      const n = this.dropped;
      this.dropped = 0;
      this.list.push({ code: 'UNKNOWN_FIELD', message: `${n} more warnings were not listed` });
    }
  }
}
