import { EVENT_WORDS, NO_SUBJECT } from '../format/layout';
import { MAX_KINDS, stringProblem } from '../validate/rules';
import type { WarnOnce } from '../validate/WarnOnce';
import type { FrameRepairs } from './FrameRepairs';
import type { RecorderStats } from './RecorderStats';

/**
 * The event kinds of a recorder (interned names: a kind's index is its position in `kinds`) and
 * the events of the next frame to be committed, copied into it at `endFrame`. Events added between
 * frames (a tween's callback, a timer) wait here for the next frame; the buffer holds
 * `maxEvents` (the recorder's `maxEventsPerFrame`), and an event past that is dropped and counted,
 * whether the frame is open or not.
 *
 * @example
 * const log = new EventLog(256, stats, warnOnce, repairs, repairName);
 * const HIT = log.kind('hit');
 * log.add(HIT, 7, 1, 2, 0, 0);
 */
export class EventLog {
  /** Event kind names; an event's kind index is its position here. */
  public readonly kinds: string[] = [];
  /** Events staged for the next frame committed (the open frame's, and those added before it). */
  public count = 0;
  /** The staged events, `EVENT_WORDS` words each. */
  public readonly words: Uint32Array;
  private readonly floats: Float32Array;
  private readonly index = new Map<string, number>();

  public constructor(
    maxEvents: number,
    private readonly stats: RecorderStats,
    private readonly warnOnce: WarnOnce,
    private readonly repairs: FrameRepairs,
    /** Makes a bad name storable and counts it (`Recorder`'s one repair of names). */
    private readonly repairName: (name: unknown) => string,
  ) {
    this.words = new Uint32Array(maxEvents * EVENT_WORDS);
    this.floats = new Float32Array(this.words.buffer);
  }

  /** Forgets the staged events (they were written into a frame). */
  public committed(): void {
    this.count = 0;
  }

  /** `Recorder.eventKind`: the index of `name`, registering it on first use; throws on a bad name. */
  public kind(name: string): number {
    const k = this.index.get(name);
    if (k !== undefined) return k;
    const problem = stringProblem(name);
    if (problem !== null) throw new RangeError(`rewindable: an event kind name ${problem}`);
    if (this.kinds.length >= MAX_KINDS) throw new RangeError(`rewindable: ${MAX_KINDS} event kinds exist`);
    return this.addKind(name);
  }

  private addKind(name: string): number {
    const k = this.kinds.length;
    this.kinds.push(name);
    this.index.set(name, k);
    return k;
  }

  /** `kind` for a name given in `event`: repaired when invalid, -1 past 65,536 kinds. */
  private kindOf(kind: unknown): number {
    const name = typeof kind === 'string' && stringProblem(kind) === null ? kind : this.repairName(kind);
    const k = this.index.get(name);
    if (k !== undefined) return k;
    return this.kinds.length < MAX_KINDS ? this.addKind(name) : -1;
  }

  /** `Recorder.event`: stages the event for the next frame committed, or drops and counts it. */
  public add(kind: number | string, subject: number, x: number, y: number, z: number, value: number): void {
    const k = typeof kind === 'number' ? kind : (this.index.get(kind) ?? this.kindOf(kind));
    if (!(k >= 0 && k < this.kinds.length && (k | 0) === k) || this.count * EVENT_WORDS >= this.words.length) {
      this.stats.eventsDropped++;
      if (!this.warnOnce.has('event'))
        this.warnOnce.warn(
          'event',
          `rewindable: event dropped (unknown kind ${String(kind)}, over maxEventsPerFrame, or ${MAX_KINDS} event kinds exist)`,
        );
      return;
    }
    const at = this.count * EVENT_WORDS;
    this.words[at] = k;
    this.words[at + 1] = subject >= 0 && (subject | 0) === subject ? subject : NO_SUBJECT;
    const f = this.floats;
    f[at + 2] = x;
    f[at + 3] = y;
    f[at + 4] = z;
    f[at + 5] = value;
    if (f[at + 2] - f[at + 2] + f[at + 3] - f[at + 3] + f[at + 4] - f[at + 4] + f[at + 5] - f[at + 5] !== 0) {
      this.repairs.event(f, at + 2, at + EVENT_WORDS);
    }
    this.count++;
  }

  /** Copies the staged events into `u` from word `w`; returns the word after them. */
  public write(u: Uint32Array, w: number): number {
    const ev = this.words;
    const n = this.count * EVENT_WORDS;
    for (let i = 0; i < n; i++) u[w + i] = ev[i];
    return w + n;
  }
}
