import type { FieldType } from '../core/fields/fieldLayout';
import { EventBuffer, FrameHeader } from '../core/read/buffers';
import { loadReplay } from '../replay/loadReplay';
import { ReplayError } from '../replay/ReplayError';

/** How many over-budget frame numbers `replayInfo` lists (the count is always complete). */
export const MAX_LISTED_FRAMES = 100;

/** The JSON summary `rewindable info` prints. */
export interface ReplaySummary {
  file?: string;
  formatVersion: number;
  buildId: string;
  savedAt: string;
  platform: string;
  note: string;
  fields: Record<string, string>;
  compression: string;
  fileBytes: number;
  frameBytes: number;
  frames: {
    count: number;
    first: number | null;
    last: number | null;
    /** Recorded game time of the first and last frame, and the span between them, in seconds. */
    timeStart: number | null;
    timeEnd: number | null;
    duration: number;
  };
  entities: {
    /** Unique ids (lives) in the file. */
    unique: number;
    maxPerFrame: number;
    /** Unique ids per kind (`""` for entities without one). */
    kinds: Record<string, number>;
  };
  channels: Array<{ index: number; name: string; color: string; budget: number; overBudgetFrames: number }>;
  overBudget: { frameCount: number; frames: number[]; more: number };
  bookmarks: Array<{ frame: number; label: string }>;
  events: Record<string, number>;
  staticLayers: Array<{ name: string; primitives: number }>;
  /** Custom fields per kind (format 3): names and types in order, and the kind's interned enum names. */
  fieldsByKind: Record<string, { fields: Array<{ name: string; type: FieldType }>; enumNames: string[] }>;
  /** Frames whose field rows went over the recorder's field budget. */
  fieldsOverBudgetFrames: number;
  warnings: string[];
}

/** Options of `replayInfo`. */
export interface ReplayInfoOptions {
  /** Warn when the file's build id differs from this one. */
  expectedBuildId: string | null;
}

/** Defaults of `replayInfo`. */
export const DEFAULT_REPLAY_INFO_OPTIONS: Readonly<ReplayInfoOptions> = { expectedBuildId: null };

/**
 * Loads (and so fully validates) a replay file and summarises it: format version, build id, frame
 * count and time span, entities, channels, bookmarks, events and over-budget frames.
 *
 * @throws ReplayError when the file is not a valid replay.
 * @example
 * const summary = replayInfo(readFileSync('bug-1234.rwd'));
 * console.log(summary.frames.count, summary.overBudget.frameCount);
 */
export function replayInfo(bytes: Uint8Array, options: Partial<ReplayInfoOptions> = {}): ReplaySummary {
  const o: ReplayInfoOptions = { ...DEFAULT_REPLAY_INFO_OPTIONS, ...options };
  const replay = loadReplay(bytes, { expectedBuildId: o.expectedBuildId });
  const r = replay.reader;
  const count = r.frameCount;
  const first = count > 0 ? r.oldestFrame : null;
  const last = count > 0 ? r.newestFrame : null;
  const timeStart = first === null ? null : r.timeOf(first);
  const timeEnd = last === null ? null : r.timeOf(last);

  const channelList = replay.channels.list();
  const perChannel = new Array<number>(channelList.length).fill(0);
  const overFrames: number[] = [];
  let overCount = 0;
  let maxPerFrame = 0;
  const eventCounts = new Array<number>(replay.eventKinds.length).fill(0);
  const events = new EventBuffer();
  const header = new FrameHeader();
  let fieldsOver = 0;
  for (let f = first ?? 0; last !== null && f <= last; f++) {
    r.readHeader(f, header);
    if (header.fieldsOverBudget) fieldsOver++;
    const bits = r.overBudgetOf(f);
    if (bits !== 0) {
      overCount++;
      if (overFrames.length < MAX_LISTED_FRAMES) overFrames.push(f);
      for (let c = 0; c < channelList.length; c++) if ((bits >>> c) & 1) perChannel[c]++;
    }
    maxPerFrame = Math.max(maxPerFrame, r.entityCountOf(f));
    r.readEvents(f, events);
    for (let i = 0; i < events.count; i++) eventCounts[events.kinds[i]]++;
  }

  const table = replay.entities;
  const kinds: Record<string, number> = Object.create(null) as Record<string, number>;
  let unique = 0;
  for (let h = 0; h < table.highWater; h++) {
    if (table.used[h] === 0) continue;
    unique++;
    const k = table.kindOf[h];
    const name = k >= 0 ? table.kinds[k] : '';
    kinds[name] = (kinds[name] ?? 0) + 1;
  }
  const eventsByKind: Record<string, number> = Object.create(null) as Record<string, number>;
  replay.eventKinds.forEach((name, i) => {
    eventsByKind[name] = (eventsByKind[name] ?? 0) + eventCounts[i];
  });

  return {
    formatVersion: replay.formatVersion,
    buildId: replay.buildId,
    savedAt: replay.savedAt,
    platform: replay.info.platform,
    note: replay.info.note,
    fields: replay.info.fields,
    compression: replay.compression,
    fileBytes: replay.fileBytes,
    frameBytes: replay.frameBytes,
    frames: {
      count,
      first,
      last,
      timeStart,
      timeEnd,
      duration: timeStart === null || timeEnd === null ? 0 : timeEnd - timeStart,
    },
    entities: { unique, maxPerFrame, kinds },
    channels: channelList.map((c, i) => ({
      index: c.index,
      name: c.name,
      color: `#${c.color.toString(16).padStart(6, '0')}`,
      budget: c.budget,
      overBudgetFrames: perChannel[i],
    })),
    overBudget: { frameCount: overCount, frames: overFrames, more: overCount - overFrames.length },
    bookmarks: replay.bookmarks.map((b) => ({ frame: b.frame, label: b.label })),
    events: eventsByKind,
    staticLayers: replay.staticLayers.list().map((l) => ({ name: l.name, primitives: l.primCount })),
    fieldsByKind: Object.fromEntries(
      r.fieldSchemas
        .list()
        .map((sc) => [
          sc.kind,
          { fields: sc.fields.map((fi) => ({ name: fi.name, type: fi.type })), enumNames: [...sc.enumNames] },
        ]),
    ),
    fieldsOverBudgetFrames: fieldsOver,
    warnings: replay.warnings.map((w) => w.message),
  };
}

/** What the command line touches, so it can run against a fake in tests. */
export interface CliIo {
  /** Reads a whole file (throws on failure). */
  readFile(path: string): Uint8Array;
  /** Standard output. */
  out(text: string): void;
  /** Standard error. */
  err(text: string): void;
}

/** Exit codes of `runCli`. */
export const CliExit = { OK: 0, BAD_FILE: 1, USAGE: 2 } as const;

const USAGE = `Usage: rewindable info FILE.rwd [--build BUILD_ID]
       rewindable serve [--port N] [--host ADDR --allow-remote] [--token T] [--persist DIR]   (see rewindable serve --help)

Prints a JSON summary of a replay file: format version, build id, frame count and time span,
entities, channels, bookmarks, events, custom fields per kind and over-budget frames. With --build, warns when the file
was recorded by another build. Exits 1 (with the reason) when the file is not a valid replay.
`;

/**
 * The `rewindable` command line. Returns the exit code.
 *
 * @example
 * process.exitCode = runCli(process.argv.slice(2), { readFile: (p) => readFileSync(p), out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) });
 */
export function runCli(argv: readonly string[], io: CliIo): number {
  const args = [...argv];
  if (args.includes('--help') || args.includes('-h')) {
    io.out(USAGE);
    return CliExit.OK;
  }
  const command = args.shift();
  if (command !== 'info') {
    io.err(command === undefined ? USAGE : `rewindable: unknown command ${JSON.stringify(command)}\n\n${USAGE}`);
    return CliExit.USAGE;
  }
  let expectedBuildId: string | null = null;
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--build') {
      const value = args[++i];
      if (value === undefined) {
        io.err(`rewindable: --build needs a value\n\n${USAGE}`);
        return CliExit.USAGE;
      }
      expectedBuildId = value;
    } else if (args[i].startsWith('--')) {
      io.err(`rewindable: unknown option ${args[i]}\n\n${USAGE}`);
      return CliExit.USAGE;
    } else {
      files.push(args[i]);
    }
  }
  if (files.length !== 1) {
    io.err(`rewindable: info takes exactly one file\n\n${USAGE}`);
    return CliExit.USAGE;
  }
  const path = files[0];
  let bytes: Uint8Array;
  try {
    bytes = io.readFile(path);
  } catch (e) {
    io.err(`rewindable: cannot read ${path}: ${e instanceof Error ? e.message : String(e)}\n`);
    return CliExit.BAD_FILE;
  }
  try {
    const summary = replayInfo(bytes, { expectedBuildId });
    io.out(`${JSON.stringify({ file: path, ...summary }, null, 2)}\n`);
    return CliExit.OK;
  } catch (e) {
    if (e instanceof ReplayError) {
      io.err(`rewindable: ${path}: ${e.message}\n`);
      return CliExit.BAD_FILE;
    }
    io.err(`rewindable: ${path}: unexpected failure: ${e instanceof Error ? e.message : String(e)}\n`);
    return CliExit.BAD_FILE;
  }
}
