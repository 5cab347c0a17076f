/**
 * Counters of everything the recorder repaired or refused since it was created. Bad input never
 * throws into the game: it is sanitised or dropped, counted here, and reported once through
 * `RecorderOptions.onWarning`.
 */
export class RecorderStats {
  /** Frames committed to the ring. */
  public framesRecorded = 0;
  /** Frames evicted from the ring ("out of film"). */
  public framesEvicted = 0;
  /** Frames that did not fit in the whole arena; only their header was stored. */
  public framesTruncated = 0;
  /** Entities whose position was NaN or infinite: the last good position was stored instead. */
  public invalidPositions = 0;
  /**
   * Entities whose quaternion could not be encoded (zero, NaN, infinite, or a squared norm outside
   * (1e-20, 1e20) in float32): the identity was stored instead.
   */
  public invalidRotations = 0;
  /** Entities whose flags were not an integer in [0, 127]: the low 7 bits (or 0) were stored. */
  public invalidFlags = 0;
  /** Bone records with a rotation or offset repaired (identity, 0); the entity is flagged `SANITIZED`. */
  public invalidBones = 0;
  /**
   * Frames whose time was not finite or went back (the previous frame's time was stored), or whose
   * dt was not a finite float32 (0 was stored); counted once per frame.
   */
  public invalidTimes = 0;
  /** Camera calls with a value repaired (position 0, rotation the identity, zoom 1). */
  public invalidCameras = 0;
  /** Events with a non-finite position or value (stored as 0). */
  public invalidEvents = 0;
  /** Events dropped: unknown kind, over `maxEventsPerFrame`, or a 65,537th event kind. */
  public eventsDropped = 0;
  /**
   * Kind, label and event kind strings repaired (lone surrogates replaced by U+FFFD, cut to
   * 65,536 UTF-16 units), and descriptions dropped because 65,536 kinds exist.
   */
  public invalidNames = 0;
  /** Entities refused because the id was not an integer in `[0, maxEntityId)`. */
  public idsOutOfRange = 0;
  /** Entities refused because the same id was recorded twice in one frame (the first is kept). */
  public duplicateIds = 0;
  /** Entities refused because the frame already held `maxEntitiesPerFrame`. */
  public entitiesOverCapacity = 0;
  /** Debug-draw calls naming a channel that is not registered. */
  public unknownChannels = 0;
  /** Debug-draw primitives dropped because a coordinate was NaN or infinite. */
  public invalidPrimitives = 0;
  /** Primitives dropped over their channel's budget. */
  public primitivesOverBudget = 0;
  /** Text bytes dropped over the per-frame text budget. */
  public textBytesOverBudget = 0;
  /** Bone records dropped (bones with no entity before them, too many bones, or over capacity). */
  public bonesDropped = 0;
  /** Display records with a non-finite scale, an alpha outside [0, 1] or an unknown texture (repaired). */
  public invalidDisplay = 0;
  /** `display` calls not right after their entity in an open frame (dropped). */
  public displayDropped = 0;
  /**
   * Custom field values invalid for their type (non-finite float, non-integer or out-of-range
   * integer, unknown enum code, entity id outside [-1, maxEntityId)): 0, the clamped value or "none"
   * was stored, and the entity flagged `SANITIZED`.
   */
  public invalidFieldValues = 0;
  /**
   * Field rows dropped: no entity recorded just before (per-entity call) or in the frame (columns),
   * an entity given fields of two kinds in one frame, a schema of another recorder, or a truncated frame.
   */
  public fieldRowsDropped = 0;
  /** Field rows dropped over `fieldBudgetBytes`. */
  public fieldRowsOverBudget = 0;
  /** Calls made outside a `beginFrame`/`endFrame` pair (ignored). */
  public callsOutsideFrame = 0;
  /** `beginFrame` called while a frame was open: the open frame was ended first. */
  public unbalancedFrames = 0;

  /** Sets every counter back to zero. */
  public reset(): void {
    for (const key of Object.keys(this) as Array<keyof RecorderStats>) {
      if (typeof this[key] === 'number') (this as unknown as Record<string, number>)[key] = 0;
    }
  }
}
