/**
 * A small, fast, seeded 32-bit generator (xorshift with a multiplicative output mix). Not for
 * cryptography; good enough to make a varied, reproducible world.
 *
 * @example
 * const rng = new SeededRandom(42);
 * rng.next(); // a float in [0, 1)
 */
export class SeededRandom {
  private state: number;

  public constructor(seed: number) {
    // Spread the seed over the 32 bits and avoid the all-zero state xorshift cannot leave.
    let s = Math.imul((seed | 0) ^ 0x9e3779b9, 0x85ebca6b) ^ 0x2545f491;
    s ^= s >>> 13;
    this.state = s === 0 ? 0x6d2b79f5 : s;
  }

  /** Next 32 random bits as an unsigned integer. */
  public nextUint32(): number {
    let s = this.state;
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    this.state = s;
    let r = Math.imul(s ^ (s >>> 15), 0x2c1b3c6d);
    r ^= r >>> 12;
    return r >>> 0;
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
