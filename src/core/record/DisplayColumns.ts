/**
 * The 2D display state of the entities of the last `entityColumns`/`entityBatch` call, one array
 * per field, for `Recorder.displayColumns`: entity `i` has scale (`scaleX[i]`, `scaleY[i]`),
 * `alpha[i]`, is visible unless `visible[i]` is 0, and shows texture `texture[i]` (an index from
 * `Recorder.texture`; -1 or absent: none). Build the object once and reuse it.
 *
 * @example
 * const display: DisplayColumns = { scaleX, scaleY, alpha, visible, texture };
 * recorder.entityColumns(n, columns);
 * recorder.displayColumns(n, display);
 */
export interface DisplayColumns {
  scaleX: ArrayLike<number>;
  scaleY: ArrayLike<number>;
  alpha: ArrayLike<number>;
  visible?: ArrayLike<number>;
  texture?: ArrayLike<number>;
}
