/**
 * The demo's live stream (issue 18): started by a flag on the demo's URL, it streams the recording
 * to a live viewer with `connectLive` (rewindable/live).
 *
 *  - `?live=ws://127.0.0.1:7070`: to `npx rewindable serve` (viewers open its page);
 *  - `?live=tab`: to viewer tabs of this origin (`viewer.html?live=tab`), no server;
 *  - `&liveCommands=1`: also lets viewers pause the game at a frame and move its paused overlay.
 *    Without it, viewers' commands are refused (their buttons are disabled).
 *
 * Streaming never blocks the game: a slow or absent viewer makes the sender skip frames (and the
 * WebSocket reconnects by itself).
 */
import type { LiveCommandHandler, LiveSender } from 'rewindable/live';
import { connectLive } from 'rewindable/live';
import type { Recorder } from 'rewindable';
import type { RewindOverlay } from 'rewindable/pixi';
import type { Banner } from './Banner';
import { DEMO_BUILD_ID } from './rewind/replayFile';

/** The game name viewers list. */
export const DEMO_GAME_NAME = 'rewindable demo';

/** What the URL asks for: where to stream, and whether viewers may send commands. */
export interface LiveFlags {
  /** `ws://host:port`, `'tab'`, or null (no streaming). */
  readonly target: string | null;
  readonly commands: boolean;
}

/**
 * Reads `?live=` and `?liveCommands=1` from a query string.
 *
 * @example
 * liveFlags('?live=tab&liveCommands=1'); // { target: 'tab', commands: true }
 */
export function liveFlags(search: string): LiveFlags {
  const q = new URLSearchParams(search);
  const live = q.get('live');
  const target = live === null || live.length === 0 ? null : live;
  const c = q.get('liveCommands');
  return { target, commands: c !== null && c !== '0' && c !== 'false' };
}

/**
 * The two-way commands of the demo: `pause` pauses the game and shows `frame` (when its ring still
 * holds it), `seek` moves the paused overlay to `frame`. Each answers why it could not.
 *
 * @example
 * connectLive(recorder, 'tab', { commands: demoLiveCommands(overlay) });
 */
export function demoLiveCommands(overlay: RewindOverlay): { pause: LiveCommandHandler; seek: LiveCommandHandler } {
  const held = (frame: number): true | string => {
    const r = overlay.livePlayback.reader;
    if (r.frameCount === 0) return 'the game has recorded nothing yet';
    if (frame < r.oldestFrame || frame > r.newestFrame)
      return `frame ${frame} is not in the game's ring (it holds ${r.oldestFrame}–${r.newestFrame})`;
    return true;
  };
  return {
    pause: (frame) => {
      if (overlay.source !== 'live') return 'the game shows a replay file';
      overlay.pause();
      if (!overlay.isPaused) return 'the overlay cannot pause now (suspended)';
      if (held(frame) === true) overlay.playback.time.seek(frame);
      return true;
    },
    seek: (frame) => {
      if (!overlay.isPaused || overlay.source !== 'live') return 'the game is running: pause it first';
      const ok = held(frame);
      if (ok !== true) return ok;
      overlay.playback.time.seek(frame);
      return true;
    },
  };
}

/**
 * Starts streaming when the URL asks for it; returns the sender, or null without `?live=`.
 * The banner says where the recording goes and how to open the viewer.
 *
 * @example
 * const live = startLiveFromUrl(rewind.recorder, overlay, banner, window.location.search);
 */
export function startLiveFromUrl(
  recorder: Recorder,
  overlay: RewindOverlay,
  banner: Banner,
  search: string,
): LiveSender | null {
  const flags = liveFlags(search);
  if (flags.target === null) return null;
  if (flags.target !== 'tab' && !/^wss?:\/\//.test(flags.target)) {
    banner.show('error', `?live=${flags.target}: give ws://HOST:PORT (npx rewindable serve) or tab`);
    return null;
  }
  const sender = connectLive(recorder, flags.target, {
    game: DEMO_GAME_NAME,
    buildId: DEMO_BUILD_ID,
    commands: flags.commands ? demoLiveCommands(overlay) : {},
    onWarning: (message) => console.warn(message),
  });
  const where =
    flags.target === 'tab'
      ? 'viewer tabs of this page (open viewer.html?live=tab)'
      : `${flags.target} (open the page npx rewindable serve printed)`;
  banner.show(
    'info',
    `Streaming live to ${where}; viewer commands ${flags.commands ? 'allowed' : 'refused (add &liveCommands=1 to allow them)'}.`,
  );
  return sender;
}
