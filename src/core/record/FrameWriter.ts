import {
  DISPLAY_WORDS,
  EVENT_WORDS,
  FRAME_FIELDS_OVER_BUDGET,
  H_FLAGS,
  HEADER_WORDS,
  H_BONE_WORDS,
  H_DROPPED_ENTITIES,
  H_DROPPED_PRIMS,
  H_DROPPED_TEXT,
  H_DISPLAY_WORDS,
  H_ENTITY_COUNT,
  H_EVENT_COUNT,
  H_FRAME,
  H_OVER_BUDGET,
  H_PRIM_COUNT,
  H_PRIM_WORDS,
  H_SANITIZED,
  H_TOTAL_WORDS,
} from '../format/layout';
import { frameChannelMask } from '../format/channelMask';
import type { WarnOnce } from '../validate/WarnOnce';
import type { ChannelRegistry } from '../store/ChannelRegistry';
import type { EntityTable } from '../store/EntityTable';
import type { FrameRing } from '../store/FrameRing';
import type { FieldStage } from '../fields/FieldStage';
import type { BoneStage } from './BoneStage';
import type { Descriptions } from './Descriptions';
import type { DisplayStage } from './DisplayStage';
import type { DrawRecorder } from './DrawRecorder';
import type { EntityResolver } from './EntityResolver';
import type { EntityStage } from './EntityStage';
import type { EventLog } from './EventLog';
import type { FrameHeader } from './FrameHeader';
import type { FrameRepairs } from './FrameRepairs';
import type { RecorderOptions } from './RecorderOptions';
import type { RecorderStats } from './RecorderStats';

/** The parts of a `Recorder` whose staged frame a `FrameWriter` writes. */
export interface FrameParts {
  readonly options: Readonly<RecorderOptions>;
  readonly ring: FrameRing;
  readonly entities: EntityTable;
  readonly channels: ChannelRegistry;
  readonly stats: RecorderStats;
  readonly warnings: WarnOnce;
  readonly draw: DrawRecorder;
  readonly stage: EntityStage;
  readonly resolver: EntityResolver;
  readonly bones: BoneStage;
  readonly display: DisplayStage;
  readonly fields: FieldStage;
  readonly events: EventLog;
  readonly header: FrameHeader;
  readonly repairs: FrameRepairs;
  readonly descriptions: Descriptions;
}

/**
 * Commits a closed frame to the ring: reserves its upper bound (evicting the oldest frames), lets
 * the resolver write handles, positions and rotations in place, then writes the bones, debug draw,
 * events, display and field sections and the header (docs/replay-format.md, "Frames"). A frame
 * that does not fit the whole arena keeps only its header (counted and warned once).
 *
 * @internal Part of `Recorder`, whose `endFrame` calls `write` once per frame.
 *
 * @example
 * const writer = new FrameWriter(parts);
 * ring.onEvict = (frame) => writer.onEvict(frame);
 * writer.write(frame); // after the stages were filled
 */
export class FrameWriter {
  /** The frame whose positions the resolver keeps should this frame's reservation evict it, and its offset. */
  private evictWatch = -1;
  private evictWatchAt = -1;

  public constructor(private readonly p: FrameParts) {}

  /** Writes the staged frame `frame` into the ring and commits it. */
  public write(frame: number): void {
    const p = this.p;
    const draw = p.draw;
    const n = p.stage.count;
    const bones = p.bones;
    const events = p.events;
    // Reserve for every staged entity; entries dropped while resolving (duplicates) shrink it after.
    const display = p.display;
    const fieldStage = p.fields;
    const fieldBudget = p.options.fieldBudgetBytes >>> 2;
    const fieldUpper = fieldStage.active ? Math.min(fieldStage.upperWords(), fieldBudget) : 0;
    const upper =
      HEADER_WORDS +
      n * 5 +
      bones.count +
      draw.wordCount +
      events.count * EVENT_WORDS +
      display.count * DISPLAY_WORDS +
      fieldUpper;
    const ring = p.ring;
    // Should the reservation evict the previous frame, its positions are kept for the repair of a
    // non-finite position (see onEvict).
    this.evictWatch = frame - 1;
    this.evictWatchAt = ring.offsetOf(frame - 1);
    let at = ring.reserve(upper);
    const truncated = at < 0;
    if (truncated) at = ring.reserve(HEADER_WORDS);
    this.evictWatch = -1;
    // One pass: resolve ids to handles and, unless truncated, write handles, positions and encoded
    // rotations straight into the arena.
    const resolver = p.resolver;
    // Fields read keptIndex only when an entry was dropped (else they take staged = kept).
    const m = resolver.resolve(frame, n, truncated ? -1 : at + HEADER_WORDS, bones.count > 0 || display.count > 0);
    const dropped = p.stage.dropped + resolver.dropped;
    p.descriptions.afterFrame(frame);
    const u = ring.u32;
    let total = HEADER_WORDS;
    let fieldFlags = 0;
    if (truncated) {
      if (fieldStage.active) p.stats.fieldRowsDropped += fieldStage.rowCount;
      p.stats.framesTruncated++;
      if (!p.warnings.has('truncated'))
        p.warnings.warn(
          'truncated',
          `rewindable: frame ${frame} needs ${upper * 4} bytes, more than the whole arena; only its header was kept`,
        );
      u[at + H_ENTITY_COUNT] = 0;
      u[at + H_DROPPED_ENTITIES] = dropped + m;
      u[at + H_PRIM_WORDS] = 0;
      u[at + H_PRIM_COUNT] = 0;
      u[at + H_BONE_WORDS] = 0;
      u[at + H_EVENT_COUNT] = 0;
      u[at + H_DISPLAY_WORDS] = 0;
    } else {
      const bonesAt = at + HEADER_WORDS + m * 5;
      let w = bones.write(u, bonesAt, resolver.keptIndex);
      const boneWords = w - bonesAt;
      const dw = draw.words;
      for (let i = 0; i < draw.wordCount; i++) u[w + i] = dw[i];
      w += draw.wordCount;
      w = events.write(u, w);
      const displayWords = display.count > 0 ? display.write(u, ring.f32, w, resolver.keptIndex) - w : 0;
      total = HEADER_WORDS + m * 5 + boneWords + draw.wordCount + events.count * EVENT_WORDS + displayWords;
      u[at + H_DISPLAY_WORDS] = displayWords;
      if (fieldStage.active) {
        const kept = m === n ? null : resolver.keptIndex;
        total += fieldStage.write(ring, at + total, kept, fieldBudget, p.entities, at + HEADER_WORDS);
        if (fieldStage.overBudget) fieldFlags = FRAME_FIELDS_OVER_BUDGET;
      }
      u[at + H_ENTITY_COUNT] = m;
      u[at + H_DROPPED_ENTITIES] = dropped;
      u[at + H_PRIM_WORDS] = draw.wordCount;
      u[at + H_PRIM_COUNT] = draw.primCount;
      u[at + H_BONE_WORDS] = boneWords;
      u[at + H_EVENT_COUNT] = events.count;
    }
    u[at + H_FRAME] = frame;
    p.header.write(ring, at, frame, truncated, p.repairs);
    u[at + H_FLAGS] |= fieldFlags;
    u[at + H_OVER_BUDGET] = draw.overBudget;
    u[at + H_DROPPED_PRIMS] = draw.droppedPrims;
    u[at + H_DROPPED_TEXT] = draw.droppedTextBytes;
    u[at + H_SANITIZED] = resolver.sanitized + draw.invalidPrims + p.repairs.count + fieldStage.repaired;
    p.repairs.committed();
    events.committed();
    u[at + H_TOTAL_WORDS] = total;
    // The channels this frame drew on, for panels that list only the channels in use.
    if (draw.wordCount > 0 || draw.overBudget !== 0) p.channels.markUsed(frameChannelMask(u, at));
    ring.commit(frame, total);
    p.stats.framesRecorded++;
  }

  /** The ring evicted `frame` (called by the ring while a reservation makes room). */
  public onEvict(frame: number): void {
    const p = this.p;
    p.stats.framesEvicted++;
    if (frame === this.evictWatch && this.evictWatchAt >= 0) p.resolver.keepPrevious(frame, this.evictWatchAt);
    p.resolver.evicted(frame);
  }
}
