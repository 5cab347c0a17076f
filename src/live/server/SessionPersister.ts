/// <reference types="node" />
import { readdirSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LiveStore } from '../LiveStore';
import type { LiveLimits } from '../protocol';

/** Where and how long the server keeps sessions on disk; see `DEFAULT_PERSIST_OPTIONS`. */
export interface PersistOptions {
  /** The directory the `.rwd` files go to (created by the caller). */
  dir: string;
  /** A file is closed after this many seconds of game time... */
  rollSeconds: number;
  /** ...or this many bytes of frames, whichever comes first. */
  rollBytes: number;
  /** Files of every session together: the oldest are deleted above this many bytes... */
  keepBytes: number;
  /** ...and once older than this many seconds (0: no age limit). */
  keepSeconds: number;
}

export const DEFAULT_PERSIST_OPTIONS: Readonly<Omit<PersistOptions, 'dir'>> = Object.freeze({
  rollSeconds: 60,
  rollBytes: 16 * 1024 * 1024,
  keepBytes: 1024 * 1024 * 1024,
  keepSeconds: 0,
});

/** File names the server writes: `<game>-<session>-<sequence>.rwd`. */
const FILE_PATTERN = /^[A-Za-z0-9_-]+-[A-Za-z0-9_-]+-\d{6}\.rwd$/;

/**
 * One session's rolling `.rwd` files: the session's stream goes through a `LiveStore` (which is
 * also its validator), and every `rollSeconds` or `rollBytes` the frames since the last file are
 * saved, xor-delta compressed, as a file `loadReplay` and `npx rewindable info` read. Retention is
 * by total size and age over the whole directory.
 *
 * @example
 * const p = new SessionPersister({ ...DEFAULT_PERSIST_OPTIONS, dir: 'recordings' }, limits, (line) => console.log(line));
 * p.store.accept(bytes); p.afterFrame();
 */
export class SessionPersister {
  public readonly store: LiveStore;
  /** Files written so far (paths). */
  public readonly files: string[] = [];
  private lastSaved = -1;
  private sequence = 0;

  public constructor(
    private readonly options: PersistOptions,
    limits: Partial<LiveLimits>,
    private readonly log: (line: string) => void,
  ) {
    // The arena holds two rolls, so a roll is always saved before its first frame is evicted.
    this.store = new LiveStore({
      maxBytes: Math.max(1 << 20, options.rollBytes * 2),
      maxFrames: 1 << 20,
      windowSeconds: Math.max(1, options.rollSeconds * 2 + 10),
      limits,
    });
  }

  /** Called after each frame the store accepted: rolls a file when one is due. */
  public afterFrame(): void {
    const r = this.store.reader;
    if (r.frameCount === 0) return;
    const from = Math.max(this.lastSaved + 1, r.oldestFrame);
    const seconds = r.timeOf(r.newestFrame) - r.timeOf(from);
    let bytes = 0;
    if (seconds < this.options.rollSeconds) {
      const ring = this.store.ring;
      for (let f = from; f <= r.newestFrame && bytes < this.options.rollBytes; f++) bytes += ring.wordsOf(f) * 4;
    }
    if (seconds >= this.options.rollSeconds || bytes >= this.options.rollBytes) this.flush();
  }

  /** Saves the frames not saved yet (at the end of a session, and at every roll). */
  public flush(): void {
    const r = this.store.reader;
    const hello = this.store.hello;
    if (r.frameCount === 0 || hello === null) return;
    const from = Math.max(this.lastSaved + 1, r.oldestFrame);
    if (from > r.newestFrame) return;
    const to = r.newestFrame;
    const bytes = this.store.saveRange(from, to, { compression: 'xor-delta' });
    const game = hello.game.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 40) || 'game';
    const name = `${game}-${hello.session}-${String(this.sequence++).padStart(6, '0')}.rwd`;
    const path = join(this.options.dir, name);
    try {
      writeFileSync(`${path}.part`, bytes);
      renameSync(`${path}.part`, path);
      this.files.push(path);
      this.lastSaved = to;
      this.log(`saved ${name}: frames ${from}..${to}, ${bytes.length} bytes`);
    } catch (e) {
      this.log(`could not save ${name}: ${e instanceof Error ? e.message : String(e)}`);
    }
    enforceRetention(this.options, this.log);
  }
}

/** Deletes the oldest server-written files of `dir` above `keepBytes` in total or older than `keepSeconds`. */
export function enforceRetention(options: PersistOptions, log: (line: string) => void): void {
  let entries: Array<{ path: string; size: number; mtime: number }>;
  try {
    entries = readdirSync(options.dir)
      .filter((n) => FILE_PATTERN.test(n))
      .map((n) => {
        const path = join(options.dir, n);
        const s = statSync(path);
        return { path, size: s.size, mtime: s.mtimeMs };
      });
  } catch {
    return;
  }
  entries.sort((a, b) => a.mtime - b.mtime || (a.path < b.path ? -1 : 1));
  let total = entries.reduce((s, e) => s + e.size, 0);
  const now = Date.now();
  for (const e of entries) {
    const old = options.keepSeconds > 0 && now - e.mtime > options.keepSeconds * 1000;
    if (total <= options.keepBytes && !old) continue;
    try {
      unlinkSync(e.path);
      total -= e.size;
      log(`deleted ${e.path} (retention)`);
    } catch {
      // Already gone: nothing to do.
    }
  }
}
