import { Recorder } from '../../record/Recorder';
import type { RecorderOptions } from '../../record/RecorderOptions';

/** A quiet recorder for tests (warnings collected instead of printed). */
export function quietRecorder(options: Partial<RecorderOptions> = {}): Recorder & { warnings: string[] } {
  const warnings: string[] = [];
  const r = new Recorder({ onWarning: (m) => warnings.push(m), ...options }) as Recorder & { warnings: string[] };
  r.warnings = warnings;
  return r;
}
