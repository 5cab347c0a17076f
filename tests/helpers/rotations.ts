/**
 * Rotation samplers for codec tests: a seeded PRNG, uniform random rotations and perturbations of a
 * given one. Seeded so that a failure reproduces.
 */

/** Seeded PRNG (mulberry32): numbers in [0, 1). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A uniform random rotation (Shoemake) as [x, y, z, w]. */
export function randomQuat(r: () => number): number[] {
  const u1 = r(), u2 = r(), u3 = r();
  const s1 = Math.sqrt(1 - u1), s2 = Math.sqrt(u1);
  return [s1 * Math.sin(2 * Math.PI * u2), s1 * Math.cos(2 * Math.PI * u2), s2 * Math.sin(2 * Math.PI * u3), s2 * Math.cos(2 * Math.PI * u3)];
}

/** `q` plus a uniform perturbation of ±eps/2 per component, normalised. */
export function near(r: () => number, q: number[], eps: number): number[] {
  const p = q.map((v) => v + (r() - 0.5) * eps);
  const n = Math.hypot(p[0], p[1], p[2], p[3]);
  return p.map((v) => v / n);
}
