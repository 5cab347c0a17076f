/**
 * A fixed amount of CPU work, timed: tells in which state the machine was when a figure was taken.
 *
 * On the virtual machine the benchmark was developed on, the same process flips every few seconds
 * between a fast state and one ~1.6× slower (host contention the guest cannot see: its steal
 * counter stays flat and the load average can be 1). Every figure of a case moves with it. The
 * probe moves with it too (1.65 ms fast, 2.6 ms slow there), so sections read it just before their
 * timed loops and the run reports the readings next to the figures.
 */

const work = new Float64Array(4096);

function once(): number {
  const a = work;
  const t0 = performance.now();
  let s = 0;
  for (let r = 0; r < 300; r++) {
    for (let i = 0; i < a.length; i++) {
      a[i] = a[i] * 0.999 + i;
      s = (s + i) | 0;
    }
  }
  const ms = performance.now() - t0;
  // Keeps the loop observable, so it cannot be optimised away.
  return s === 0x7fffffff ? ms + 1 : ms;
}

/**
 * The median of three timings of the fixed work, in ms (~1.7 ms on the reference machine's fast
 * state, ~5 ms in all).
 *
 * @example
 * const ms = speedProbeMs(); // compare with the fastest reading of the run
 */
export function speedProbeMs(): number {
  const a = once();
  const b = once();
  const c = once();
  return Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
}

/** One reading: which section, what was about to be timed, the probe's ms. */
export interface ProbeReading {
  section: string;
  label: string;
  ms: number;
}
