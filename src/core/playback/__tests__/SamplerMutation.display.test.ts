import { describe, expect, it } from 'vitest';
import { DISPLAY_RECORDED, DISPLAY_SHOWN } from '../../read/buffers';
import { Sampler } from '../Sampler';
import { Presence, SampleBuffer } from '../SampleBuffer';
import { quietRecorder } from './helpers';
import type { Recorder } from '../../record/Recorder';

/**
 * The sampler's 2D display state (`sampleDisplay` in sampleRows.ts) against what the game recorded,
 * row by row: scale and alpha blended only when both frames hold display state for the row,
 * visibility and texture from the nearer frame that holds the row (B from t = 0.5 exactly), a row
 * without display state in that frame has none, rows present in one frame only, frames without any
 * display state, whole positions and concrete mode. Every field is checked at every row, so each
 * condition of `sampleDisplay` has a row where its mutant gives a different answer.
 */

const N = 14;
const FRAMES = 9;
const fr = Math.fround;

/** Whether entity i exists in frame f (absent ones come back as a new life). */
const present = (i: number, f: number): boolean => (i + 2 * f) % 5 !== 0;
/** Whether entity i records display state in frame f; frame 4 records none at all. */
const hasDisplay = (i: number, f: number): boolean => f !== 4 && (i * 3 + f) % 4 !== 0;
const scaleX = (i: number, f: number): number => 1 + 0.1 * i + 0.25 * f;
const scaleY = (i: number, f: number): number => 3 - 0.2 * i * (f % 3);
const alpha = (i: number, f: number): number => ((i * 7 + f * 3) % 11) / 10;
/** The alpha as stored: 16 bits. */
const storedAlpha = (i: number, f: number): number => Math.round(fr(alpha(i, f)) * 65535) / 65535;
const visible = (i: number, f: number): boolean => (i + f) % 3 !== 0;
/** Texture index (of three registered), or -1 for none. */
const texture = (i: number, f: number): number => ((i + 2 * f) % 4) - 1;

function record(rec: Recorder): void {
  const tex = ['a', 'b', 'c'].map((n) => rec.texture(n));
  expect(tex).toEqual([0, 1, 2]);
  for (let f = 0; f < FRAMES; f++) {
    rec.beginFrame(f / 30, 1 / 30);
    for (let i = 0; i < N; i++) {
      if (!present(i, f)) continue;
      rec.entity2D(i, i + f, 2 * i - f, 0.1 * i);
      if (hasDisplay(i, f)) rec.display(i, scaleX(i, f), scaleY(i, f), alpha(i, f), visible(i, f), texture(i, f));
    }
    rec.endFrame();
  }
  expect(rec.stats.invalidDisplay).toBe(0);
}

interface Want {
  display: number;
  texture?: number;
  scale?: [number, number];
  alpha?: number;
}

/** What the row of entity `i` must show at frames fa, fb (fb = fa when whole) and blend t. */
function want(i: number, presence: number, fa: number, fb: number, t: number): Want {
  const inA = (presence & Presence.ONLY_A) !== 0;
  const inB = (presence & Presence.ONLY_B) !== 0;
  const useB = fb !== fa && inB && (!inA || t >= 0.5);
  const f = useB ? fb : fa;
  if (!hasDisplay(i, f)) return { display: 0 };
  const display = DISPLAY_RECORDED | (visible(i, f) ? DISPLAY_SHOWN : 0);
  const both = fb !== fa && inA && inB && hasDisplay(i, fa) && hasDisplay(i, fb);
  if (!both)
    return {
      display,
      texture: texture(i, f),
      scale: [fr(scaleX(i, f)), fr(scaleY(i, f))],
      alpha: fr(storedAlpha(i, f)),
    };
  const lerp = (a: number, b: number): number => fr(fr(a) + (fr(b) - fr(a)) * t);
  return {
    display,
    texture: texture(i, f),
    scale: [lerp(scaleX(i, fa), scaleX(i, fb)), lerp(scaleY(i, fa), scaleY(i, fb))],
    alpha: lerp(storedAlpha(i, fa), storedAlpha(i, fb)),
  };
}

function got(out: SampleBuffer, k: number, w: Want): Want {
  const d = out.display[k];
  if (d === 0) return { display: 0 };
  const g: Want = { display: d, texture: out.textures[k] };
  if (w.scale !== undefined) {
    // Blends are compared to float32 precision; copies exactly.
    const close = (x: number, y: number): number => (Math.abs(x - y) <= 1e-6 * Math.max(1, Math.abs(y)) ? y : x);
    g.scale = [close(out.scales[k * 2], w.scale[0]), close(out.scales[k * 2 + 1], w.scale[1])];
    g.alpha = close(out.alphas[k], w.alpha ?? Number.NaN);
  }
  return g;
}

function check(out: SampleBuffer, p: number, concrete: boolean): void {
  const fa = out.frameA;
  const fb = out.frameB;
  const t = out.t;
  const anyDisplay = Array.from({ length: N }, (_, i) => i).some(
    (i) => (present(i, fa) && hasDisplay(i, fa)) || (present(i, fb) && hasDisplay(i, fb)),
  );
  expect(out.hasDisplay, `hasDisplay at ${p}`).toBe(anyDisplay);
  if (!anyDisplay) return;
  for (let k = 0; k < out.count; k++) {
    const i = out.ids[k];
    const w = want(i, out.presence[k], fa, fb, concrete ? 0 : t);
    expect(got(out, k, w), `id ${i} at ${p}${concrete ? ' (concrete)' : ''}`).toEqual(w);
  }
}

describe('sampled display state against what was recorded', () => {
  const positions: number[] = [];
  for (let f = 0; f < FRAMES - 1; f++) for (const t of [0, 0.25, 0.5, 0.75]) positions.push(f + t);
  positions.push(FRAMES - 1);

  for (const order of ['forwards', 'backwards', 'seeking'] as const) {
    it(`blended, ${order}`, () => {
      // Kills in sampleDisplay: `nearB = t >= 0.5` → `> 0.5` (rows at t = 0.5 take A's texture and
      // visibility), `ib >= 0 && (ia < 0 || nearB)` → `||` / `&&` / `ia <= 0`, `da !== 0 && db !== 0` →
      // `||` (a row with display state on one side only would blend with zeros), `d === 0` → `false`
      // (stale values left in a row without display state are compared through `display`), the
      // `hasDisplay` checks of `da` and `db` → `true` (frame 4 has no display columns), and each
      // blend's `+`/`-`/`*`.
      const rec = quietRecorder({ maxFrames: 64 });
      record(rec);
      const s = new Sampler(rec.reader);
      const out = new SampleBuffer();
      const list =
        order === 'forwards'
          ? positions
          : order === 'backwards'
            ? [...positions].reverse()
            : positions.map((_, j) => positions[(j * 7) % positions.length]);
      for (const p of list) {
        expect(s.sample(p, out)).toBe(true);
        check(out, p, false);
      }
    });
  }

  it('concrete: the nearest frame as recorded', () => {
    // Kills `fromB === null ? k : fromA[k]` and `fromB === null ? -1 : fromB[k]` → the other arm on
    // the whole-frame path (rows of one frame, as decoded).
    const rec = quietRecorder({ maxFrames: 64 });
    record(rec);
    const s = new Sampler(rec.reader, { concrete: true });
    const out = new SampleBuffer();
    for (const p of positions) {
      expect(s.sample(p, out)).toBe(true);
      expect(out.frameA).toBe(Math.round(p));
      check(out, p, true);
    }
  });
});
