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
  /** Entities whose quaternion was zero, NaN or infinite: the identity was stored instead. */
  public invalidRotations = 0;
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
