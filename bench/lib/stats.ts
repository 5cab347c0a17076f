/**
 * Order statistics of benchmark samples.
 */

/**
 * The `p`-th percentile (0..100) of the first `n` values of `samples`, by the nearest-rank method
 * (the value at rank `ceil(p/100 · n)`). Sorts a copy; the input is left untouched. NaN when `n` is 0.
 *
 * @example
 * percentile(new Float64Array([5, 1, 3]), 3, 50); // 3
 */
export function percentile(samples: ArrayLike<number>, n: number, p: number): number {
  if (n <= 0) return NaN;
  const sorted = Float64Array.from({ length: n }, (_, i) => samples[i]).sort();
  const rank = Math.min(n, Math.max(1, Math.ceil((p / 100) * n)));
  return sorted[rank - 1];
}

/**
 * The median (50th percentile, nearest rank) of the first `n` samples.
 *
 * @example
 * median(new Float64Array([4, 1, 9]), 3); // 4
 */
export function median(samples: ArrayLike<number>, n: number): number {
  return percentile(samples, n, 50);
}
