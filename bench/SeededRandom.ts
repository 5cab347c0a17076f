/**
 * The project's one seeded pseudo-random generator (mulberry32: a 32-bit counter with a
 * multiplicative output mix): the bench's workloads, and every test through `rng` in
 * tests/helpers/random.ts. Not for cryptography; small, fast, and the same sequence for a seed on
 * every run, so a failure reproduces.
 *
 * @example
 * const rng = new SeededRandom(42);
 * rng.next(); // a float in [0, 1)
 */
export class SeededRandom {
  private state: number;

  public constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Next 32 random bits as an unsigned integer. */
  public nextUint32(): number {
    const s = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** A float in [0, 1). */
  public next(): number {
    return this.nextUint32() / 4294967296;
  }

  /** An integer in [0, n). */
  public below(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** A float in [lo, hi). */
  public range(lo: number, hi: number): number {
    return lo + (hi - lo) * this.next();
  }
}
