import { EntityFlags } from '../../core/format/layout';
import { quatToAngleZ } from '../../core/math/quat';
import type { Playback } from '../../core/playback/Playback';
import { DISPLAY_RECORDED, DISPLAY_SHOWN, EntityBuffer } from '../../core/read/buffers';
import type { FrameReader } from '../../core/read/FrameReader';
import type { InspectorFieldSource } from './fieldSource';

/** The names of the display flag bits (`EntityFlags`), lowest bit first. */
export const FLAG_NAMES: ReadonlyArray<readonly [bit: number, name: string]> = [
  [EntityFlags.DAMAGED, 'damaged'],
  [EntityFlags.HIGHLIGHTED, 'highlighted'],
  [EntityFlags.USER0, 'user0'],
  [EntityFlags.USER1, 'user1'],
  [EntityFlags.USER2, 'user2'],
  [EntityFlags.USER3, 'user3'],
  [EntityFlags.USER4, 'user4'],
  [EntityFlags.SANITIZED, 'repaired'],
];

/**
 * The names of the flag bits set in `flags` (see `FLAG_NAMES`).
 *
 * @example
 * flagNames(EntityFlags.DAMAGED | EntityFlags.USER1); // ['damaged', 'user1']
 */
export function flagNames(flags: number): string[] {
  const out: string[] = [];
  for (const [bit, name] of FLAG_NAMES) if ((flags & bit) !== 0) out.push(name);
  return out;
}

const positionScratch = new Float64Array(3);

/**
 * The recorded positions of one life (`handle`) in the whole frames `from..to`, x, y, z per frame
 * into `out` (NaN where it is absent or the frame is not held). Writes at most `out.length / 3`
 * frames; returns the frames written. O(1) a frame while the entity keeps its index from frame to
 * frame; allocates nothing.
 *
 * @example
 * const n = positionSeries(playback.reader, handle, 100, 999, xyz); // xyz[k * 3] is x at frame 100 + k
 */
export function positionSeries(
  reader: FrameReader,
  handle: number,
  from: number,
  to: number,
  out: Float64Array,
): number {
  const n = Math.min(Math.max(0, to - from + 1), Math.floor(out.length / 3));
  let hint = -1;
  for (let k = 0; k < n; k++) {
    const f = from + k;
    const i = reader.indexOf(f, handle, hint);
    if (i >= 0 && reader.positionAt(f, i, positionScratch, 0)) {
      out[k * 3] = positionScratch[0];
      out[k * 3 + 1] = positionScratch[1];
      out[k * 3 + 2] = positionScratch[2];
      hint = i;
    } else {
      out[k * 3] = Number.NaN;
      out[k * 3 + 1] = Number.NaN;
      out[k * 3 + 2] = Number.NaN;
    }
  }
  return n;
}

/** A custom field's value in `InspectedState`: a number, a vector, an enum's string, or null (absent). */
export type InspectedValue = number | boolean | string | readonly number[] | null;

/** The whole recorded state of one entity at one frame: what "copy as JSON" gives. */
export interface InspectedState {
  /** The recorded frame read (the viewed position, rounded). */
  frame: number;
  /** Recorded game time of that frame, seconds. */
  time: number;
  id: number;
  handle: number;
  kind: string | null;
  label: string | null;
  life: {
    /** Frame the life began (may be older than the oldest frame held). */
    spawnFrame: number;
    /** First and last frames held in which it is present. */
    firstFrame: number;
    lastFrame: number;
    /** Whether it still exists in the newest frame held. */
    existsAtNewest: boolean;
  };
  /** Whether it is present in `frame` (the values below are null when not). */
  present: boolean;
  position: { x: number; y: number; z: number } | null;
  rotation: { angleDeg: number; quaternion: [number, number, number, number] } | null;
  flags: { bits: number; names: string[] } | null;
  bones: number | null;
  /** 2D display state (`Recorder.display`), null when none was recorded for it in this frame. */
  display: { scaleX: number; scaleY: number; alpha: number; visible: boolean; texture: string | null } | null;
  /** Custom fields by name. */
  fields: Record<string, InspectedValue>;
}

const stateScratch = new EntityBuffer();
const fieldScratch = new Float64Array(16);

/**
 * The whole recorded state of the life `handle` at the frame `playback` shows (rounded to a whole
 * recorded frame, so the numbers are exactly those recorded), with its custom fields from `fields`.
 * Null when the handle names no life held. Allocates (it is what a click on "copy as JSON" reads).
 *
 * @example
 * JSON.stringify(inspectState(overlay.playback, overlay.selected, fieldSourceOf(overlay.playback)), null, 2);
 */
export function inspectState(
  playback: Playback,
  handle: number,
  fields: InspectorFieldSource | null,
): InspectedState | null {
  const lt = playback.lifetimes;
  const r = playback.reader;
  if (!lt.isHeld(handle)) return null;
  const frame = Math.round(playback.time.position);
  const state: InspectedState = {
    frame,
    time: r.timeOf(frame),
    id: lt.id(handle),
    handle,
    kind: lt.kind(handle) ?? null,
    label: lt.label(handle) ?? null,
    life: {
      spawnFrame: lt.spawnFrame(handle),
      firstFrame: lt.firstFrame(handle),
      lastFrame: lt.lastFrame(handle),
      existsAtNewest: lt.existsAtNewest(handle),
    },
    present: false,
    position: null,
    rotation: null,
    flags: null,
    bones: null,
    display: null,
    fields: {},
  };
  const i = r.indexOf(frame, handle);
  if (i >= 0 && r.readEntities(frame, stateScratch, true)) {
    const e = stateScratch;
    state.present = true;
    state.position = { x: e.positions[i * 3], y: e.positions[i * 3 + 1], z: e.positions[i * 3 + 2] };
    state.rotation = {
      angleDeg: (quatToAngleZ(e.rotations, i * 4) * 180) / Math.PI,
      quaternion: [e.rotations[i * 4], e.rotations[i * 4 + 1], e.rotations[i * 4 + 2], e.rotations[i * 4 + 3]],
    };
    state.flags = { bits: e.flags[i], names: flagNames(e.flags[i]) };
    state.bones = e.boneStart[i] >= 0 ? e.boneCount[i] : 0;
    if (e.hasDisplay && (e.display[i] & DISPLAY_RECORDED) !== 0) {
      const t = e.textures[i];
      state.display = {
        scaleX: e.scales[i * 2],
        scaleY: e.scales[i * 2 + 1],
        alpha: e.alphas[i],
        visible: (e.display[i] & DISPLAY_SHOWN) !== 0,
        texture: t >= 0 ? (r.textures[t] ?? null) : null,
      };
    }
  }
  if (fields !== null) {
    for (const f of fields.schemaOf(handle)) state.fields[f.name] = fieldValue(fields, handle, f.index, f, frame);
  }
  return state;
}

/** One custom field's value at a whole frame, as JSON wants it. */
function fieldValue(
  fields: InspectorFieldSource,
  handle: number,
  index: number,
  info: { type: string; components: number },
  frame: number,
): InspectedValue {
  if (fields.valueAt(handle, index, frame, fieldScratch) === 0) return null;
  const v = fieldScratch[0];
  switch (info.type) {
    case 'bool':
      return v !== 0;
    case 'enum':
      return fields.enumName(handle, index, v) ?? v;
    case 'entity':
      return Number.isNaN(v) ? null : v;
    case 'vec3':
      return Array.from(fieldScratch.subarray(0, info.components));
    default:
      return v;
  }
}
