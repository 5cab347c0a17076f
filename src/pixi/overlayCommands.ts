import { nearestMarker } from '../core/playback/nearestMarker';
import type { Playback } from '../core/playback/Playback';
import { channelOfCommand, type OverlayCommand } from './KeyboardControls';
import type { RewindOverlay } from './RewindOverlay';

/**
 * The keyboard/panel command dispatch of `RewindOverlay.runCommand`, kept apart from the overlay
 * class: it maps each `OverlayCommand` to one call on the overlay's public API (its `TimeControl`,
 * camera, bookmarks, channels) and owns no state. While the game runs with nothing recorded yet
 * (an empty viewer), only `help` does something: there is no frame to pause on.
 *
 * @internal Called by `RewindOverlay.runCommand`; not exported from `rewindable/pixi`.
 *
 * @example
 * runOverlayCommand(overlay, 'stepBack'); // same as overlay.runCommand('stepBack')
 */
export function runOverlayCommand(overlay: RewindOverlay, command: OverlayCommand): void {
  if (!overlay.isPaused && overlay.livePlayback.reader.frameCount === 0 && command !== 'help') return;
  const t = overlay.playback.time;
  // The camera exists once the paused view has loaded; before, camera keys do nothing.
  const camera = overlay.viewState === 'ready' ? overlay.camera : null;
  switch (command) {
    case 'togglePlay':
      t.togglePlay();
      break;
    case 'stepBack':
      t.step(-1);
      break;
    case 'stepForward':
      t.step(1);
      break;
    case 'stepBack10':
      t.step(-10);
      break;
    case 'stepForward10':
      t.step(10);
      break;
    case 'slower':
      t.setSpeed(nextSpeed(overlay.options.speedSteps, t.speed, -1));
      break;
    case 'faster':
      t.setSpeed(nextSpeed(overlay.options.speedSteps, t.speed, 1));
      break;
    case 'oldest':
      t.toOldest();
      break;
    case 'newest':
      t.toNewest();
      break;
    case 'cameraMode':
      camera?.cycleMode();
      break;
    case 'gameCamera':
      camera?.toGameCamera();
      break;
    case 'rotateLeft':
      camera?.rotateBy(-overlay.options.rotateStep);
      break;
    case 'rotateRight':
      camera?.rotateBy(overlay.options.rotateStep);
      break;
    case 'bookmark':
      overlay.addBookmark();
      break;
    case 'resume':
      overlay.resume();
      break;
    case 'help':
      overlay.toggleHelp();
      break;
    case 'shuttleBack':
      t.shuttle(-1);
      break;
    case 'shuttleStop':
      t.pause();
      break;
    case 'shuttleForward':
      t.shuttle(1);
      break;
    case 'previousMarker':
      overlay.jumpToMarker(-1);
      break;
    case 'nextMarker':
      overlay.jumpToMarker(1);
      break;
    case 'markIn':
      t.markIn();
      break;
    case 'markOut':
      t.markOut();
      break;
    case 'clearRange':
      t.clearRange();
      break;
    case 'playRange':
      t.playRange();
      break;
    case 'onionSkin':
      overlay.setOnionSkin(!overlay.onionSkin);
      break;
    default: {
      const c = channelOfCommand(command);
      if (c >= 0 && c < overlay.reader.channels.count) overlay.setChannel(c, ((overlay.channelMask >>> c) & 1) === 0);
      break;
    }
  }
}

/**
 * The next speed of `steps` (ascending) above (`direction` 1) or below (-1) `speed`; the fastest
 * or slowest step when there is none, `speed` itself when `steps` is empty.
 *
 * @internal
 *
 * @example
 * nextSpeed([0.25, 0.5, 1, 2], 1, 1); // 2
 */
export function nextSpeed(steps: readonly number[], speed: number, direction: 1 | -1): number {
  if (direction > 0) {
    for (let i = 0; i < steps.length; i++) if (steps[i] > speed + 1e-9) return steps[i];
    return steps[steps.length - 1] ?? speed;
  }
  for (let i = steps.length - 1; i >= 0; i--) if (steps[i] < speed - 1e-9) return steps[i];
  return steps[0] ?? speed;
}

/**
 * Seeks `playback` to the nearest marker after (`direction` 1) or before (-1) the viewed frame,
 * among the marker kinds `kinds`. False (and no seek) when there is none.
 *
 * @internal Called by `RewindOverlay.jumpToMarker`.
 *
 * @example
 * seekNearestMarker(overlay.playback, overlay.options.markerJumpKinds, 1);
 */
export function seekNearestMarker(playback: Playback, kinds: readonly number[], direction: 1 | -1): boolean {
  playback.markers.refresh();
  let mask = 0;
  for (const k of kinds) mask |= 1 << k;
  const f = nearestMarker(playback.markers, playback.time.position, direction, mask);
  if (Number.isNaN(f)) return false;
  playback.time.seek(f);
  return true;
}

/**
 * Adds a bookmark labelled `label` at the frame `playback` shows (the newest while live). Returns its id.
 *
 * @internal Called by `RewindOverlay.addBookmark`.
 *
 * @example
 * addBookmarkAtViewed(overlay.playback, 'boss fight');
 */
export function addBookmarkAtViewed(playback: Playback, label: string): number {
  return playback.bookmarks.add(Math.round(playback.time.position), label);
}

/**
 * Seeks `playback` to the bookmark `id`. False (and no seek) when the id is unknown.
 *
 * @internal Called by `RewindOverlay.jumpToBookmark`.
 *
 * @example
 * seekBookmark(overlay.playback, id);
 */
export function seekBookmark(playback: Playback, id: number): boolean {
  const b = playback.bookmarks.get(id);
  if (b === undefined) return false;
  playback.time.seek(b.frame);
  return true;
}
