/**
 * A game's entity state as one array per field (structure of arrays), for
 * `Recorder.entityColumns`. Entity `i` is `ids[i]`, at (`x[i]`, `y[i]`, `z[i]`), rotated by the
 * quaternion (`qx[i]`, `qy[i]`, `qz[i]`, `qw[i]`), with display `flags[i]` (0 when absent).
 * Typed arrays (Float32Array for the floats, Int32Array or Uint32Array for the ids) are the
 * fastest; any array-like works. The object holds references only: build it once.
 *
 * @example
 * const columns: EntityColumns = { ids, x, y, z, qx, qy, qz, qw, flags };
 * recorder.entityColumns(liveCount, columns);
 */
export interface EntityColumns {
  ids: ArrayLike<number>;
  x: ArrayLike<number>;
  y: ArrayLike<number>;
  z: ArrayLike<number>;
  qx: ArrayLike<number>;
  qy: ArrayLike<number>;
  qz: ArrayLike<number>;
  qw: ArrayLike<number>;
  flags?: ArrayLike<number>;
}
