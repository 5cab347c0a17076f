/**
 * Reading a recording back, for the test hooks (demo.ts, viewer.ts in this folder) and tools:
 * `recordedTransform`, `listLifetimes` and `shownObjectOf` answer "where was entity N in frame F"
 * and "what shows it now"; `displayedTransform` is what the hooks report of a display.
 */
import { DISPLAY_SHOWN, EntityBuffer, quatToAngleZ, type FrameReader, type Playback } from 'rewindable';
import type { RewindOverlay } from 'rewindable/pixi';
import type { Container } from 'pixi.js';
import { GLINT_LABEL } from '../game/pickupLook';

/** An entity as recorded in one frame. */
export interface RecordedTransform {
  x: number;
  y: number;
  /** Rotation about z, radians (from the recorded quaternion). */
  angle: number;
  /** Display flags (`EntityFlags`). */
  flags: number;
  /** The unique id's handle (one per life of the id). */
  handle: number;
  /** Its 2D display state (issue 19), or null when none was recorded for it in that frame. */
  display: RecordedDisplay | null;
}

/** 2D display state as recorded (`Recorder.display`). */
export interface RecordedDisplay {
  scaleX: number;
  scaleY: number;
  alpha: number;
  visible: boolean;
  /** The texture name, or null for none. */
  texture: string | null;
}

const readScratch = new EntityBuffer();

/**
 * Where entity `id` was in `frame` of a recording: the life of `id` present in that frame (ids can
 * be reused: each life has its own handle). Null when the frame is not held or the id is absent.
 *
 * @example
 * recordedTransform(overlay.reader, playerId, 1200); // { x, y, angle, flags, handle } or null
 */
export function recordedTransform(reader: FrameReader, id: number, frame: number): RecordedTransform | null {
  if (!Number.isInteger(frame) || !reader.has(frame)) return null;
  const t = reader.entities;
  for (let h = 0; h < t.highWater; h++) {
    if (t.used[h] !== 1 || t.ids[h] !== id || t.spawnFrames[h] > frame) continue;
    const i = reader.indexOf(frame, h);
    if (i < 0) continue;
    if (!reader.readEntities(frame, readScratch, false)) return null;
    const e = readScratch;
    const shown = e.hasDisplay ? e.display[i] : 0;
    return {
      x: readScratch.positions[i * 3],
      y: readScratch.positions[i * 3 + 1],
      angle: quatToAngleZ(readScratch.rotations, i * 4),
      flags: readScratch.flags[i],
      handle: h,
      display:
        shown === 0
          ? null
          : {
              scaleX: e.scales[i * 2],
              scaleY: e.scales[i * 2 + 1],
              alpha: e.alphas[i],
              visible: (shown & DISPLAY_SHOWN) !== 0,
              texture: e.textures[i] >= 0 ? (reader.textures[e.textures[i]] ?? null) : null,
            },
    };
  }
  return null;
}

/** One life of an entity id in a recording. */
export interface Lifetime {
  handle: number;
  id: number;
  kind: string | null;
  /** First and last frame held in which it is present. */
  first: number;
  last: number;
  /** Whether it is present in the newest frame held. */
  existsAtNewest: boolean;
}

/**
 * Every life (unique id) present in at least one frame a playback holds.
 *
 * @example
 * listLifetimes(overlay.playback).filter((l) => !l.existsAtNewest); // despawned since
 */
export function listLifetimes(playback: Playback): Lifetime[] {
  const lt = playback.lifetimes;
  const out: Lifetime[] = [];
  lt.forEach((h) => {
    out.push({
      handle: h,
      id: lt.id(h),
      kind: lt.kind(h) ?? null,
      first: lt.firstFrame(h),
      last: lt.lastFrame(h),
      existsAtNewest: lt.existsAtNewest(h),
    });
  });
  return out;
}

/**
 * The display object standing for entity `id` in the frame the overlay shows (a live display it
 * took over, or a re-created one); null when the overlay is not paused, the id is not in the shown
 * frame, or it is drawn as a debug shape. Reads the last presented sample (`overlay.update(0)`
 * presents a seek at once).
 *
 * @example
 * overlay.playback.time.seek(120);
 * overlay.update(0);
 * shownObjectOf(overlay, 42)?.position; // where entity 42 is drawn in frame 120
 */
export function shownObjectOf(overlay: RewindOverlay, id: number): Container | null {
  if (!overlay.isPaused) return null;
  const s = overlay.sample;
  for (let i = 0; i < s.count; i++) {
    if (s.ids[i] === id && s.inNearerFrame(i)) return overlay.presenter.objectOf(s.handles[i]);
  }
  return null;
}

/** The displayed transform of an entity: what is on screen for it. */
export interface DisplayedTransform {
  x: number;
  y: number;
  rotation: number;
  /** Visible and on the stage. */
  visible: boolean;
  tint: number;
  scaleX: number;
  scaleY: number;
  alpha: number;
  /** The label of the texture its glint sprite shows (pickups), or null. */
  texture: string | null;
}

/**
 * Where a display object is drawn, as the hooks report it.
 *
 * @example
 * displayedTransform(view.displayOf(id)); // { x, y, rotation, visible, tint, scaleX, scaleY, alpha, texture }
 */
export function displayedTransform(d: Container): DisplayedTransform {
  // Duck-typed: this module loads without pixi (node tools read recordings with it).
  const glint = d.getChildByLabel(GLINT_LABEL) as { texture?: { label?: string } } | null;
  return {
    x: d.x,
    y: d.y,
    rotation: d.rotation,
    visible: d.visible && d.parent !== null,
    tint: d.tint,
    scaleX: d.scale.x,
    scaleY: d.scale.y,
    alpha: d.alpha,
    texture: glint?.texture?.label ?? null,
  };
}
