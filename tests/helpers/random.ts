import { SeededRandom } from '../../bench/SeededRandom';

/**
 * A seeded source of floats in [0, 1) for tests, over the project's one generator
 * (`SeededRandom`, mulberry32): the same seed gives the same recording, the same rotations and the
 * same mutations on every run, so a failure reproduces.
 *
 * @example
 * const rand = rng(42);
 * const x = rand() * 100;
 */
export function rng(seed: number): () => number {
  const r = new SeededRandom(seed);
  return () => r.next();
}
