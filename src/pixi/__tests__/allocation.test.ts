/**
 * Steady state allocates nothing per frame: the V8 heap is read through the Chrome DevTools
 * protocol around 20,000 synchronous ticks (no GC runs in such a loop); one small object per tick
 * would show as hundreds of kilobytes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cdp } from 'vitest/browser';
import type { Application, Container } from 'pixi.js';
import { Channel } from '../../core/store/ChannelRegistry';
import type { RewindOverlay } from '../RewindOverlay';
import { run, setup, teardown } from './testGame';

let current: { app: Application; overlay: RewindOverlay } | null = null;
afterEach(() => {
  if (current !== null) teardown(current.app, current.overlay);
  current = null;
});

async function heapUsed(): Promise<number> {
  const r = (await cdp().send('Runtime.getHeapUsage')) as { usedSize: number };
  return r.usedSize;
}

/**
 * Bytes by which `ticks` synchronous calls of `tick` grew the JS heap (no GC runs in such a loop).
 * Other code sharing the page's heap (other test files) can only add bytes, and only between the
 * measurements, never inside the loop; so the smallest of several attempts is kept (three, or up to
 * ten until one is under `limit`). An allocation made by `tick` itself is in every attempt.
 */
async function allocatedBy(tick: (i: number) => void, ticks: number, limit: number): Promise<number> {
  let best = Number.POSITIVE_INFINITY;
  for (let attempt = 0; attempt < 10 && (attempt < 3 || best >= limit); attempt++) {
    // What two measurements cost by themselves (the protocol's messages live in the same heap).
    await cdp().send('HeapProfiler.collectGarbage');
    const b0 = await heapUsed();
    const b1 = await heapUsed();
    await cdp().send('HeapProfiler.collectGarbage');
    const before = await heapUsed();
    for (let i = 0; i < ticks; i++) tick(i);
    const after = await heapUsed();
    best = Math.min(best, after - before - (b1 - b0));
  }
  return best;
}

function countNodes(c: Container): number {
  let n = 1;
  for (const child of c.children) n += countNodes(child);
  return n;
}

const TICKS = 20000;
/**
 * Idle steady state (live with no new frame, paused): under 2 bytes per tick. The smallest JS heap
 * object is 12 bytes, so any allocation per tick (or every sixth tick) fails; the margin is for
 * what the measuring itself and the JIT put on the heap.
 */
const LIMIT = 2 * TICKS;
/**
 * Changed frames: under 14 bytes per tick. Depending on what V8 inlines, the fractional position
 * handed to the sampler may be boxed (one 12-byte heap number per frame); anything else (an object,
 * an array, a closure, a string: 16 bytes and more), or anything per entity, fails.
 */
const CHANGED_LIMIT = 14 * TICKS;

describe('steady state allocates nothing', () => {
  it('while live with the newest frame unchanged (debug channels drawn)', async () => {
    const s = await setup(50);
    current = s;
    run(s.game, s.overlay, 30);
    for (let i = 0; i < TICKS; i++) s.overlay.update(1 / 60);
    const bytes = await allocatedBy(() => s.overlay.update(1 / 60), TICKS, LIMIT);
    console.log(`live, unchanged: ${bytes} bytes over ${TICKS} ticks`);
    expect(bytes).toBeLessThan(LIMIT);
  });

  it('while paused on a frame', async () => {
    const s = await setup(50);
    current = s;
    run(s.game, s.overlay, 30);
    s.overlay.pause();
    s.overlay.playback.time.seek(12.5);
    run(s.game, s.overlay, 5);
    for (let i = 0; i < TICKS; i++) s.overlay.update(1 / 60);
    const bytes = await allocatedBy(() => s.overlay.update(1 / 60), TICKS, LIMIT);
    console.log(`paused: ${bytes} bytes over ${TICKS} ticks`);
    expect(bytes).toBeLessThan(LIMIT);
  });

  it('on every changed frame: sampling, 200 entities presented, camera and timeline (channels off)', async () => {
    const s = await setup(200);
    current = s;
    run(s.game, s.overlay, 60);
    s.overlay.setChannelMask(0);
    s.overlay.pause();
    const time = s.overlay.playback.time;
    // The positions the test seeks to, made once. A generic array holds them as heap numbers, so
    // handing one to `seek` does not box a fresh number each tick (the test's own allocation).
    const positions: unknown[] = ['tagged elements'];
    for (let k = 0; k < 50; k++) positions.push(5 + k * 0.37);
    // Warm up: every position visited, every buffer at its final size, the code optimised.
    for (let i = 0; i < TICKS; i++) {
      time.seek(positions[1 + (i % 50)] as number);
      s.overlay.update(0);
    }
    const before = s.overlay.sampleCount;
    const bytes = await allocatedBy(
      (i) => {
        time.seek(positions[1 + (i % 50)] as number);
        s.overlay.update(0);
      },
      TICKS,
      CHANGED_LIMIT,
    );
    expect(s.overlay.sampleCount - before).toBeGreaterThanOrEqual(TICKS - 1);
    console.log(`changed frames, channels off: ${bytes} bytes over ${TICKS} ticks`);
    expect(bytes).toBeLessThan(CHANGED_LIMIT);
  });

  it('on every changed frame with 300 debug primitives redrawn (persistent meshes, no text)', async () => {
    const s = await setup(20);
    current = s;
    s.game.primitives = 300;
    s.game.texts = 0;
    run(s.game, s.overlay, 60);
    s.overlay.pause();
    const time = s.overlay.playback.time;
    const ticks = TICKS / 2;
    // Whole frames, each tick another one: every update redraws the primitives.
    for (let i = 0; i < ticks; i++) {
      time.seek(5 + (i % 50));
      s.overlay.update(0);
    }
    s.app.renderer.render(s.app.stage);
    const redraws = s.overlay.layers.redrawCount;
    const bytes = await allocatedBy(
      (i) => {
        time.seek(5 + (i % 50));
        s.overlay.update(0);
      },
      ticks,
      14 * ticks,
    );
    expect(s.overlay.layers.redrawCount - redraws).toBeGreaterThanOrEqual(ticks);
    expect(s.overlay.layers.primitivesShown(Channel.PHYSICS)).toBeGreaterThan(0);
    console.log(`changed frames, primitives drawn: ${bytes} bytes over ${ticks} ticks`);
    expect(bytes).toBeLessThan(14 * ticks);
  });

  it('creates no display objects in steady state with every channel, text and bones on', async () => {
    const s = await setup(40);
    current = s;
    s.game.spawn(500, 'walker', 100, 100, 1, 0, 5);
    s.game.spawn(501, 'bullet', 50, 50, 2, 1);
    s.game.primitives = 300;
    s.game.texts = 6;
    run(s.game, s.overlay, 40);
    s.game.despawn(501);
    run(s.game, s.overlay, 40);
    s.overlay.pause();
    const time = s.overlay.playback.time;
    for (let i = 0; i < 120; i++) {
      time.seek(2 + (i % 70) + 0.5 * (i & 1));
      s.overlay.update(1 / 60);
    }
    const nodes = countNodes(s.app.stage);
    const paragraphs = s.overlay.layers.paragraphs.created;
    const pooled = s.overlay.presenter.pooledCount;
    const redraws = s.overlay.layers.redrawCount;
    for (let i = 0; i < 500; i++) {
      time.seek(2 + (i % 70));
      s.overlay.update(1 / 60);
    }
    expect(s.overlay.layers.redrawCount - redraws).toBe(500);
    expect(countNodes(s.app.stage)).toBe(nodes);
    expect(s.overlay.layers.paragraphs.created).toBe(paragraphs);
    expect(s.overlay.presenter.pooledCount).toBe(pooled);
    expect(s.overlay.channelMask & (1 << Channel.ANIMATION)).not.toBe(0);
  });
});
