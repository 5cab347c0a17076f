import { Recorder } from '../Recorder';
import type { RecorderOptions } from '../RecorderOptions';

/** A recorder whose warnings are collected (read them with `warningsOf`) instead of printed. */
export function quiet(o: Partial<RecorderOptions> = {}): Recorder {
  const warnings: string[] = [];
  const r = new Recorder({ onWarning: (m) => warnings.push(m), ...o });
  (r as unknown as { warnings: string[] }).warnings = warnings;
  return r;
}
export function warningsOf(r: Recorder): string[] {
  return (r as unknown as { warnings: string[] }).warnings;
}
/** Every channel. */
export const ALL = 0xffffffff;
