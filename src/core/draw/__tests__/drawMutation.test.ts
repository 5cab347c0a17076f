/**
 * The composites and `TeeDraw` against a recording `DebugDraw`: every call, in order, with every
 * argument, computed here independently. The recorder's tests draw through these only in passing;
 * these cases pin the geometry, so that a mutant (a sign flipped, a line dropped, a loop bound moved)
 * fails here. Comments name the mutants (Stryker's notation) a case kills.
 */
import { describe, expect, it } from 'vitest';
import { cone, cross, stickFigure, wireAabb, wireBox } from '../composites';
import { type DebugDraw, TeeDraw } from '../DebugDraw';

type Call = [string, ...unknown[]];

/** A `DebugDraw` that keeps every call as [method, ...arguments]. */
class Log implements DebugDraw {
  public readonly calls: Call[] = [];
  public point(...a: [number, number, number, number, number, number]): void {
    this.calls.push(['point', ...a]);
  }
  public line(...a: [number, number, number, number, number, number, number, number]): void {
    this.calls.push(['line', ...a]);
  }
  public arrow(...a: [number, number, number, number, number, number, number, number, number]): void {
    this.calls.push(['arrow', ...a]);
  }
  public sphere(...a: [number, number, number, number, number, number]): void {
    this.calls.push(['sphere', ...a]);
  }
  public aabb(...a: [number, number, number, number, number, number, number, number]): void {
    this.calls.push(['aabb', ...a]);
  }
  public text(...a: [number, number, number, number, string, number]): void {
    this.calls.push(['text', ...a]);
  }
}

/** The line calls' segments, rounded so that float noise does not matter: [x1, y1, z1, x2, y2, z2]. */
function segments(log: Log, digits = 9): number[][] {
  return log.calls.map((c) => {
    expect(c[0]).toBe('line');
    return (c.slice(2, 8) as number[]).map((v) => Number(v.toFixed(digits)) + 0);
  });
}

describe('TeeDraw', () => {
  it('forwards every primitive, with every argument, to each target in order', () => {
    // Each method's loop (`i < length` → `<=` throws on the missing target, `false` forwards nothing)
    // and each argument position.
    const a = new Log(),
      b = new Log();
    const tee = new TeeDraw([a, b]);
    tee.point(1, 2, 3, 4, 5, 0x10);
    tee.line(2, 1, 2, 3, 4, 5, 6, 0x20);
    tee.arrow(3, 1, 2, 3, 4, 5, 6, 7, 0x30);
    tee.sphere(4, 1, 2, 3, 9, 0x40);
    tee.aabb(5, -1, -2, -3, 1, 2, 3, 0x50);
    tee.text(6, 7, 8, 9, 'hi', 0x60);
    const expected: Call[] = [
      ['point', 1, 2, 3, 4, 5, 0x10],
      ['line', 2, 1, 2, 3, 4, 5, 6, 0x20],
      ['arrow', 3, 1, 2, 3, 4, 5, 6, 7, 0x30],
      ['sphere', 4, 1, 2, 3, 9, 0x40],
      ['aabb', 5, -1, -2, -3, 1, 2, 3, 0x50],
      ['text', 6, 7, 8, 9, 'hi', 0x60],
    ];
    expect(a.calls).toEqual(expected);
    expect(b.calls).toEqual(expected);
  });

  it('with no targets does nothing and does not throw', () => {
    const tee = new TeeDraw([]);
    expect(() => {
      tee.point(0, 0, 0, 0, 1, 0);
      tee.text(0, 0, 0, 0, 'x', 0);
    }).not.toThrow();
  });
});

describe('wireBox', () => {
  it('draws the four edges of the rotated rectangle, corner to corner, at height z', () => {
    const log = new Log();
    wireBox(log, 7, 10, 20, 3, 4, 2, 0, 0xabcdef);
    // Unrotated: corners (6, 18), (14, 18), (14, 22), (6, 22).
    expect(segments(log)).toEqual([
      [6, 18, 3, 14, 18, 3],
      [14, 18, 3, 14, 22, 3],
      [14, 22, 3, 6, 22, 3],
      [6, 22, 3, 6, 18, 3],
    ]);
    for (const c of log.calls) {
      expect(c[1]).toBe(7);
      expect(c[8]).toBe(0xabcdef);
    }
  });

  it('rotates the half extents by the angle (cos and sin in the right places)', () => {
    const log = new Log();
    const angle = 0.3,
      c = Math.cos(angle),
      s = Math.sin(angle);
    wireBox(log, 0, 1, 2, 0, 5, 2, angle, 1);
    // A corner is the centre plus ±(c, s)·halfW plus ±(−s, c)·halfH.
    const corner = (i: number, j: number) => [1 + i * c * 5 - j * s * 2, 2 + i * s * 5 + j * c * 2];
    const [a, b, d, e] = [corner(-1, -1), corner(1, -1), corner(1, 1), corner(-1, 1)];
    const round = (v: number[]) => v.map((x) => Number(x.toFixed(9)) + 0);
    expect(segments(log)).toEqual(
      [
        [...a, 0, ...b, 0],
        [...b, 0, ...d, 0],
        [...d, 0, ...e, 0],
        [...e, 0, ...a, 0],
      ].map(round),
    );
  });
});

describe('wireAabb', () => {
  it('draws the twelve edges of the box between its two corners', () => {
    const log = new Log();
    wireAabb(log, 3, 0, 1, 2, 10, 11, 12, 0x123456);
    expect(segments(log)).toEqual([
      [0, 1, 2, 10, 1, 2],
      [10, 1, 2, 10, 11, 2],
      [10, 11, 2, 0, 11, 2],
      [0, 11, 2, 0, 1, 2],
      [0, 1, 12, 10, 1, 12],
      [10, 1, 12, 10, 11, 12],
      [10, 11, 12, 0, 11, 12],
      [0, 11, 12, 0, 1, 12],
      [0, 1, 2, 0, 1, 12],
      [10, 1, 2, 10, 1, 12],
      [10, 11, 2, 10, 11, 12],
      [0, 11, 2, 0, 11, 12],
    ]);
    for (const c of log.calls) {
      expect(c[1]).toBe(3);
      expect(c[8]).toBe(0x123456);
    }
  });
});

describe('cone', () => {
  /** The cone computed plainly: edge, `n` arc segments, edge. */
  function expected(x: number, y: number, z: number, angle: number, half: number, range: number, n: number) {
    const at = (a: number) => [x + Math.cos(a) * range, y + Math.sin(a) * range];
    const out: number[][] = [];
    const first = at(angle - half);
    out.push([x, y, z, ...first, z]);
    let p = first;
    for (let i = 1; i <= n; i++) {
      const q = at(angle - half + (2 * half * i) / n);
      out.push([...p, z, ...q, z]);
      p = q;
    }
    out.push([x, y, z, ...p, z]);
    return out.map((v) => v.map((w) => Number(w.toFixed(9)) + 0));
  }

  it('draws both edges and an arc of 8 segments by default, from angle − half to angle + half', () => {
    const log = new Log();
    cone(log, 2, 5, -3, 1, 0.4, Math.PI / 5, 100, 0xffff00);
    expect(segments(log)).toEqual(expected(5, -3, 1, 0.4, Math.PI / 5, 100, 8));
    expect(log.calls).toHaveLength(10);
    // The closing edge ends at angle + half: `a0 + 2·half·i/n` with the last i = n.
    const last = log.calls[9] as number[];
    expect(last[5]).toBeCloseTo(5 + Math.cos(0.4 + Math.PI / 5) * 100, 9);
    expect(last[6]).toBeCloseTo(-3 + Math.sin(0.4 + Math.PI / 5) * 100, 9);
    for (const c of log.calls) {
      expect(c[1]).toBe(2);
      expect(c[8]).toBe(0xffff00);
    }
  });

  it('takes the segment count, truncated, and at least one', () => {
    // `Math.max(1, segments | 0)` → `Math.min` / `segments & 0`, `i <= n` → `<`.
    for (const [given, n] of [
      [3, 3],
      [2.9, 2],
      [1, 1],
      [0, 1],
      [-4, 1],
    ]) {
      const log = new Log();
      cone(log, 0, 0, 0, 0, 0, 0.5, 10, 1, given);
      expect(segments(log)).toEqual(expected(0, 0, 0, 0, 0.5, 10, n));
    }
  });
});

describe('cross', () => {
  it('draws x and y axes in the plane, and the z axis only off it', () => {
    const flat = new Log();
    cross(flat, 4, 1, 2, 0, 3, 0x0f0f0f);
    expect(segments(flat)).toEqual([
      [-2, 2, 0, 4, 2, 0],
      [1, -1, 0, 1, 5, 0],
    ]);
    const raised = new Log();
    cross(raised, 4, 1, 2, -5, 3, 0x0f0f0f);
    expect(segments(raised)).toEqual([
      [-2, 2, -5, 4, 2, -5],
      [1, -1, -5, 1, 5, -5],
      [1, 2, -8, 1, 2, -2],
    ]);
    for (const c of raised.calls) {
      expect(c[1]).toBe(4);
      expect(c[8]).toBe(0x0f0f0f);
    }
  });
});

describe('stickFigure', () => {
  it('draws a line from each bone to its parent and a point per joint, roots without a line', () => {
    const log = new Log();
    const positions = [0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
    stickFigure(log, 9, positions, [-1, 0, 1, 0], 4, 0x777777);
    expect(log.calls).toEqual([
      ['point', 9, 0, 0, 0, 3, 0x777777],
      ['line', 9, 0, 0, 0, 1, 2, 3, 0x777777],
      ['point', 9, 1, 2, 3, 3, 0x777777],
      ['line', 9, 1, 2, 3, 4, 5, 6, 0x777777],
      ['point', 9, 4, 5, 6, 3, 0x777777],
      ['line', 9, 0, 0, 0, 7, 8, 9, 0x777777],
      ['point', 9, 7, 8, 9, 3, 0x777777],
    ]);
  });

  it('draws only boneCount bones and skips parents outside [0, boneCount)', () => {
    // `p >= 0` → `> 0` (a parent 0 loses its line), `p < boneCount` → `<=`, `&&` → `||`,
    // `i < boneCount` → `<=`.
    const log = new Log();
    const positions = [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3];
    stickFigure(log, 1, positions, [-1, 0, 2, 1], 3, 5);
    expect(log.calls).toEqual([
      ['point', 1, 0, 0, 0, 3, 5],
      ['line', 1, 0, 0, 0, 1, 1, 1, 5],
      ['point', 1, 1, 1, 1, 3, 5],
      // Bone 2 names itself: a line from itself to itself would be drawn; it is a valid index here.
      ['line', 1, 2, 2, 2, 2, 2, 2, 5],
      ['point', 1, 2, 2, 2, 3, 5],
    ]);
    const outside = new Log();
    stickFigure(outside, 1, positions, [-1, 3, -2], 3, 5);
    expect(outside.calls.map((c) => c[0])).toEqual(['point', 'point', 'point']);
  });
});
