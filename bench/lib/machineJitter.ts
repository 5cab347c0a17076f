import { performance } from 'node:perf_hooks';
import { median, percentile } from './stats';

/** The same fixed arithmetic as the speed probe, a chosen number of passes long. */
const work = new Float64Array(1024);
let sink = 0;
/** A ring as large as the record section's (900 frames of 20 bytes an entity), written in order. */
let ring = new Uint32Array(0);
let source = new Uint32Array(0);
let at = 0;

function pass(reps: number, words: number): void {
  if (words > 0) {
    if (at + words > ring.length) at = 0;
    ring.set(source.subarray(0, words), at);
    at += words;
  }
  const a = work;
  let s = 0;
  for (let r = 0; r < reps; r++) {
    for (let i = 0; i < a.length; i++) {
      a[i] = a[i] * 0.999 + i;
      s = (s + i) | 0;
    }
  }
  sink ^= s;
}

/** What a fixed loop as long as a frame shows of the machine itself. */
export interface MachineJitter {
  /** Median and 99th percentile of the loop's timings, in ms. */
  medianMs: number;
  p99Ms: number;
  /** p99 over median. */
  ratio: number;
}

/**
 * The machine's own jitter at a frame length: a fixed loop that writes `frameBytes` in order into a
 * ring of 900 such frames (as a recorder writes its arena) and does fixed arithmetic for the rest
 * of `frameMs`, timed `frames` times with an untimed pass between two timings (as the record
 * section's untimed workload step sits between frames). Nothing is allocated in the loop. A
 * recorder's p99 frame cannot be told from the machine's below this loop's p99 over median.
 *
 * @example
 * machineJitter(0.009, 1200, 20_000).ratio; // e.g. 3–4 on a virtual machine with frequent short stalls
 */
export function machineJitter(frameMs: number, frames: number, frameBytes: number): MachineJitter {
  const words = Math.max(0, Math.floor(frameBytes / 4));
  if (ring.length < words * 900) {
    ring = new Uint32Array(words * 900);
    source = new Uint32Array(words).fill(0x3f800000);
    ring.fill(1);
  }
  // The copy's own time, then passes of arithmetic for the rest.
  const c0 = performance.now();
  for (let i = 0; i < 50; i++) pass(0, words);
  const copyMs = (performance.now() - c0) / 50;
  frameMs = Math.max(frameMs - copyMs, 0.0005);
  // Calibrate: passes per ms of this loop.
  let reps = 1;
  for (;;) {
    const t0 = performance.now();
    pass(reps, 0);
    const ms = performance.now() - t0;
    if (ms > 2) {
      reps = Math.max(1, Math.round((reps * frameMs) / ms));
      break;
    }
    reps *= 2;
  }
  for (let i = 0; i < 200; i++) pass(reps, words);
  const t = new Float64Array(frames);
  for (let k = 0; k < frames; k++) {
    pass(reps, words);
    const a = performance.now();
    pass(reps, words);
    t[k] = performance.now() - a;
  }
  if (sink === 0x7fffffff) t[0] += 1e-9; // keeps the work observable
  const medianMs = median(t, frames);
  const p99Ms = percentile(t, frames, 99);
  return { medianMs, p99Ms, ratio: p99Ms / medianMs };
}
