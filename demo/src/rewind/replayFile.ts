/**
 * Replay files for bug reports (step 7). `saveReplay(recorder, { buildId, platform, note, bookmarks })`
 * gives the bytes of a `.rwd` file (`saveDemoReplay`); `loadReplay(bytes, { expectedBuildId })`
 * checks and opens one (`openReplay`: a typed `ReplayError` on a bad file, a warning for a file from
 * another build); `overlay.showReplay(replay)` shows it (`showReplayFile`) and
 * `overlay.returnToLive()` drops it.
 *
 * Nothing of a loaded replay is matched to the live game: its ids and handles belong to another run.
 * `showReplay` never calls `find`; it hides the world container (every live display with it) and
 * shows each entity of the file through `create(kind, id, label)`, i.e. re-created from its recorded
 * kind with the same display factory the game uses (a ball looks like a ball, a mover keeps its
 * colour), pooled per kind; kinds the demo does not know are drawn as debug shapes by the overlay.
 * The live game and its recording are never touched, so "return to live" resumes exactly where the
 * game was. Replay files are the one place errors are thrown: `loadReplay` throws a typed
 * `ReplayError`, which the pages turn into a readable banner (`describeReplayError`).
 */
import {
  REPLAY_FILE_EXTENSION,
  ReplayError,
  loadReplay,
  saveReplay,
  type LoadedReplay,
  type ReplaySource,
} from 'rewindable';
import type { RewindOverlay } from 'rewindable/pixi';

/**
 * The demo's build id, stored in every replay it saves and checked when one is loaded (another
 * build loads with a warning). A real game would use its CI build number or commit.
 */
export const DEMO_BUILD_ID = 'rewindable-demo/0.1.0';

/**
 * Where the replay was recorded: the browser, and the view size.
 *
 * @example
 * describePlatform(); // 'Mozilla/5.0 (X11; Linux x86_64) … · view 1280×720 @1x'
 */
export function describePlatform(): string {
  const nav = (globalThis as { navigator?: { userAgent?: string } }).navigator;
  const win = globalThis as { innerWidth?: number; innerHeight?: number; devicePixelRatio?: number };
  const agent = nav?.userAgent ?? 'unknown browser';
  return win.innerWidth !== undefined
    ? `${agent} · view ${win.innerWidth}×${win.innerHeight} @${win.devicePixelRatio ?? 1}x`
    : agent;
}

/**
 * Step 7a: the bytes of a `.rwd` file of what the overlay shows: the live recording (every frame
 * the ring holds, with kinds, channels, static layers and the bookmarks), or, while a loaded
 * replay is shown, that replay again (its build id and platform kept, the note replaced when one is
 * given). Throws a `ReplayError` only for invalid input (e.g. a note over 65,536 characters).
 *
 * @example
 * const bytes = saveDemoReplay(overlay, rewind.recorder, null, 'agent walks through the wall');
 */
export function saveDemoReplay(
  overlay: RewindOverlay,
  live: ReplaySource,
  shown: LoadedReplay | null,
  note: string,
  fields: Readonly<Record<string, string>> = {},
): Uint8Array {
  const bookmarks = overlay.playback.bookmarks.list().map((b) => ({ frame: b.frame, label: b.label }));
  if (overlay.source === 'replay' && shown !== null) {
    return saveReplay(shown, {
      buildId: shown.buildId,
      platform: shown.info.platform,
      note: note.length > 0 ? note : shown.info.note,
      fields: { ...shown.info.fields, ...fields },
      bookmarks,
    });
  }
  return saveReplay(live, { buildId: DEMO_BUILD_ID, platform: describePlatform(), note, fields, bookmarks });
}

/**
 * The download name of a replay saved at `date`: `rewindable-YYYY-MM-DD_HH-MM-SS.rwd` in local time
 * (sorts by date, no characters a file system rejects).
 *
 * @example
 * replayFileName(new Date(2025, 0, 31, 14, 5, 9)); // 'rewindable-2025-01-31_14-05-09.rwd'
 */
export function replayFileName(date: Date): string {
  const two = (n: number): string => String(n).padStart(2, '0');
  const stamp = Number.isNaN(date.getTime())
    ? 'undated'
    : `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}_${two(date.getHours())}-${two(date.getMinutes())}-${two(date.getSeconds())}`;
  return `rewindable-${stamp}${REPLAY_FILE_EXTENSION}`;
}

/**
 * Step 7b: checks and opens a `.rwd` file. Throws a `ReplayError` (typed, with what is wrong and
 * where) on a file that is not a replay, is truncated, corrupt, too large or from a newer format;
 * a file from another build loads with a `BUILD_MISMATCH` warning in `replay.warnings`. Never
 * touches the live recording.
 *
 * @example
 * const replay = openReplay(new Uint8Array(await file.arrayBuffer()));
 * for (const w of replay.warnings) banner.warn(w.message);
 */
export function openReplay(
  bytes: Uint8Array | ArrayBuffer,
  expectedBuildId: string | null = DEMO_BUILD_ID,
): LoadedReplay {
  return loadReplay(bytes, { expectedBuildId });
}

/**
 * Step 7c: shows a loaded replay in the overlay (the game pauses; every entity of the file is
 * re-created by kind, see the header). `overlay.returnToLive()` (or Esc) drops it and resumes.
 *
 * @example
 * showReplayFile(overlay, openReplay(bytes));
 * // later: overlay.returnToLive();
 */
export function showReplayFile(overlay: RewindOverlay, replay: LoadedReplay): void {
  overlay.showReplay(replay);
}

/** A sentence per `ReplayError` code, for people rather than logs. */
const REPLAY_ERROR_TEXT: Readonly<Record<string, string>> = {
  BAD_MAGIC: 'This is not a rewindable replay file.',
  NEWER_VERSION: 'This replay was saved by a newer version of rewindable: update this page to open it.',
  UNSUPPORTED_VERSION: 'This replay uses a format version this page cannot read.',
  TRUNCATED: 'The file is incomplete: it ends early (an interrupted download or copy?).',
  CORRUPT: 'The file is damaged and cannot be read.',
  CHECKSUM: 'The file is damaged: its frame data does not match its checksum.',
  TOO_LARGE: 'The file is larger than this page accepts.',
  BAD_INPUT: 'The replay could not be saved.',
  UNSUPPORTED_PLATFORM: 'Replay files need a little-endian machine.',
};

/**
 * A readable message for a failure to open or save a replay: a sentence for the kind of problem,
 * then the details (the error's code, where in the file, and what). Anything that is not a
 * `ReplayError` (a failed download, a file that could not be read) gets its own message.
 *
 * @example
 * describeReplayError(new ReplayError('TRUNCATED', 'the file ends inside frame 40', 'frames'));
 * // 'The file is incomplete: it ends early (an interrupted download or copy?) [TRUNCATED at frames: the file ends inside frame 40]'
 */
export function describeReplayError(error: unknown): string {
  if (error instanceof ReplayError) {
    const text = REPLAY_ERROR_TEXT[error.code] ?? 'The replay file could not be read.';
    const where = error.path !== undefined ? ` at ${error.path}` : '';
    return `${text.replace(/\.$/, '')} [${error.code}${where}: ${error.detail}]`;
  }
  const message = error instanceof Error ? error.message : String(error);
  return `The replay could not be opened: ${message}`;
}

/**
 * One line about a loaded replay: frames and seconds held, entities, when and by which build it was
 * saved, the note.
 *
 * @example
 * describeReplay(replay); // '900 frames (15.0 s) · 1203 entities · 21.4 MB · build rewindable-demo/0.1.0 · saved …'
 */
export function describeReplay(replay: LoadedReplay): string {
  const r = replay.reader;
  const frames = r.frameCount;
  const seconds = frames > 1 ? r.timeOf(r.newestFrame) - r.timeOf(r.oldestFrame) : 0;
  let entities = 0;
  const t = r.entities;
  for (let h = 0; h < t.highWater; h++) if (t.used[h] === 1) entities++;
  const mib = (replay.fileBytes / (1024 * 1024)).toFixed(1);
  const parts = [
    `${frames} frames (${seconds.toFixed(1)} s)`,
    `${entities} entities`,
    `${mib} MB`,
    `build ${replay.buildId.length > 0 ? replay.buildId : '(none)'}`,
    `saved ${replay.savedAt}`,
  ];
  if (replay.info.note.length > 0) parts.push(`note: “${replay.info.note}”`);
  return parts.join(' · ');
}
