/**
 * The store's small classes at their edges: ChannelRegistry (built-ins, limits, messages, rollback
 * when a listener fails), ChannelMask, StaticLayers with an encoder (limits and versions) and the
 * FrameRing's bookkeeping (storage views, slot wrap-around, exact fits, shortened and padded frames,
 * eviction at the edge of a reservation). The recorder's tests reach most of this only through what
 * they record; these cases pin it, so that a mutant (a bound moved by one, a message emptied, a
 * rollback dropped) fails here. Comments name the mutants (Stryker's notation) a case kills.
 */
import { describe, expect, it } from 'vitest';
import type { DebugDraw } from '../../draw/DebugDraw';
import { MAX_CHANNEL_BUDGET, MAX_STATIC_BYTES, MAX_STATIC_LAYERS } from '../../validate/rules';
import { ChannelMask } from '../ChannelMask';
import { Channel, ChannelRegistry, MAX_CHANNELS } from '../ChannelRegistry';
import { FrameRing } from '../FrameRing';
import { type PrimitiveEncoder, StaticLayers } from '../StaticLayers';

describe('ChannelRegistry', () => {
  it('starts with the three built-in channels, their colours and the default budget, none used', () => {
    const r = new ChannelRegistry(50);
    expect(r.list()).toEqual([
      { index: Channel.AI, name: 'ai', color: 0xffc83d, budget: 50 },
      { index: Channel.PHYSICS, name: 'physics', color: 0x4dd2ff, budget: 50 },
      { index: Channel.ANIMATION, name: 'animation', color: 0xd86bff, budget: 50 },
    ]);
    expect([r.count, r.usedMask, r.totalBudget()]).toEqual([3, 0, 150]);
    expect([r.indexOf('physics'), r.indexOf('nope'), r.name(2), r.name(3)]).toEqual([1, -1, 'animation', undefined]);
    expect([...r.budgets.subarray(0, 4)]).toEqual([50, 50, 50, 0]);
  });

  it('refuses a bad default budget with its reason', () => {
    expect(() => new ChannelRegistry(-1)).toThrow(
      `rewindable: the default channel budget -1 is not an integer in [0, ${MAX_CHANNEL_BUDGET}]`,
    );
    expect(() => new ChannelRegistry(0)).not.toThrow();
  });

  it('registers a channel with its options or the defaults, and marks registered channels used', () => {
    const r = new ChannelRegistry(10);
    expect(r.register('nav')).toBe(3);
    expect(r.register('audio', { color: 0x123456, budget: 0 })).toBe(4);
    expect(r.list().slice(3)).toEqual([
      { index: 3, name: 'nav', color: 0xffffff, budget: 10 },
      { index: 4, name: 'audio', color: 0x123456, budget: 0 },
    ]);
    expect(r.usedMask).toBe((1 << 3) | (1 << 4));
    // Registering an existing name returns its index (options ignored) and marks it used.
    expect(r.register('physics', { color: 1, budget: 99 })).toBe(1);
    expect(r.register('ai')).toBe(0); // index 0 is found too (`existing >= 0` → `> 0`)
    expect(r.count).toBe(5);
    expect(r.register('nav', { budget: 3 })).toBe(3);
    expect(r.usedMask).toBe((1 << 0) | (1 << 1) | (1 << 3) | (1 << 4));
    expect(r.list()[1]).toEqual({ index: 1, name: 'physics', color: 0x4dd2ff, budget: 10 });
    expect(r.budgets[3]).toBe(10);
    r.markUsed(1 << 7);
    r.markUsed(1 << 0);
    expect(r.usedMask).toBe((1 << 0) | (1 << 1) | (1 << 3) | (1 << 4) | (1 << 7));
    expect(r.totalBudget()).toBe(40);
  });

  it('refuses bad names, colours and budgets, naming the channel, and registers nothing', () => {
    const r = new ChannelRegistry(10);
    expect(() => r.register(5 as unknown as string)).toThrow(
      'rewindable: cannot register a channel whose name is not a string (number)',
    );
    expect(() => r.register('x', { color: 0x1000000 })).toThrow(
      'rewindable: cannot register channel "x": colour 16777216 is not an integer in [0, 0xFFFFFF]',
    );
    expect(() => r.register('y', { budget: 1.5 })).toThrow(
      `rewindable: cannot register channel "y": budget 1.5 is not an integer in [0, ${MAX_CHANNEL_BUDGET}]`,
    );
    const long = 'n'.repeat(100);
    expect(() => r.register(long, { budget: -1 })).toThrow(`cannot register channel "${'n'.repeat(64)}": budget -1`);
    expect([r.count, r.usedMask]).toEqual([3, 0]);
  });

  it('holds exactly MAX_CHANNELS channels', () => {
    const r = new ChannelRegistry(1);
    for (let i = 3; i < MAX_CHANNELS; i++) expect(r.register(`c${i}`)).toBe(i);
    expect(r.count).toBe(32);
    expect(r.usedMask >>> 0).toBe(0xfffffff8);
    expect(() => r.register('one more')).toThrow(
      'rewindable: cannot register channel "one more": all 32 channels are in use',
    );
    expect(r.register('c31')).toBe(31); // an existing name still answers
    const long = 'L'.repeat(70);
    expect(() => r.register(long)).toThrow(
      `rewindable: cannot register channel "${'L'.repeat(64)}": all 32 channels are in use`,
    );
    expect(r.totalBudget()).toBe(32);
  });

  it('tells listeners of every change, and undoes a change a listener refuses', () => {
    const r = new ChannelRegistry(10);
    const seen: number[] = [];
    let refuse = false;
    r.onChange(() => seen.push(r.count));
    r.onChange(() => {
      if (refuse) throw new Error('no room');
    });
    r.register('a');
    r.setBudget(3, 7);
    expect(seen).toEqual([4, 4]);
    refuse = true;
    expect(() => r.register('b', { budget: 5 })).toThrow(
      'rewindable: cannot register channel "b" with budget 5: no room',
    );
    expect([r.count, r.indexOf('b'), r.budgets[4], r.usedMask]).toEqual([4, -1, 0, 1 << 3]);
    expect(() => r.setBudget(3, 9)).toThrow('rewindable: channel 3 cannot take budget 9: no room');
    expect(r.budgets[3]).toBe(7);
    const long = 'q'.repeat(65);
    expect(() => r.register(long)).toThrow(
      `rewindable: cannot register channel "${'q'.repeat(64)}" with budget 10: no room`,
    );
    refuse = false;
    expect(r.register('b')).toBe(4);
    expect(r.list()[4]).toEqual({ index: 4, name: 'b', color: 0xffffff, budget: 10 });
  });

  it('reports a listener that throws a non-Error as it is', () => {
    const r = new ChannelRegistry(10);
    r.onChange(() => {
      throw 'plain';
    });
    expect(() => r.register('a')).toThrow('rewindable: cannot register channel "a" with budget 10: plain');
    expect(() => r.setBudget(0, 1)).toThrow('rewindable: channel 0 cannot take budget 1: plain');
  });

  it('setBudget takes an existing integer index and a valid budget', () => {
    const r = new ChannelRegistry(10);
    r.setBudget(0, 0);
    r.setBudget(2, MAX_CHANNEL_BUDGET);
    expect([...r.budgets.subarray(0, 3)]).toEqual([0, 10, MAX_CHANNEL_BUDGET]);
    expect(() => r.setBudget(3, 1)).toThrow('rewindable: no channel 3');
    expect(() => r.setBudget(-1, 1)).toThrow('rewindable: no channel -1');
    expect(() => r.setBudget(0.5, 1)).toThrow('rewindable: no channel 0.5');
    expect(() => r.setBudget(1, -2)).toThrow(
      `rewindable: channel 1: budget -2 is not an integer in [0, ${MAX_CHANNEL_BUDGET}]`,
    );
    expect(r.totalBudget()).toBe(10 + MAX_CHANNEL_BUDGET);
  });
});

describe('ChannelMask', () => {
  it('sets, clears, toggles and tests single channels, bit 31 included', () => {
    const m = new ChannelMask(0b101);
    expect([m.test(0), m.test(1), m.test(2)]).toEqual([true, false, true]);
    expect(m.enable(1).bits).toBe(0b111);
    expect(m.disable(0).bits).toBe(0b110);
    expect(m.disable(0).bits).toBe(0b110);
    expect(m.toggle(2).bits).toBe(0b010);
    expect(m.toggle(2).bits).toBe(0b110);
    expect(m.set(31, true).bits).toBe(0x80000006);
    expect(m.test(31)).toBe(true);
    expect(m.set(1, false).bits).toBe(0x80000004);
    expect(m.disableAll().bits).toBe(0);
    expect(m.test(31)).toBe(false);
    expect(m.enableAll().bits).toBe(0xffffffff);
    expect(new ChannelMask(-1).bits).toBe(0xffffffff);
    expect(new ChannelMask().bits).toBe(0);
  });
});

describe('StaticLayers with an encoder', () => {
  /** An encoder that records nothing but a given byte length (words is only measured). */
  function encoder(bytes: () => number): PrimitiveEncoder {
    return {
      encode(build: (draw: DebugDraw) => void) {
        build({} as DebugDraw);
        const byteLength = bytes();
        return { words: { byteLength } as Uint32Array, primCount: byteLength / 4 };
      },
    };
  }

  it('keeps each layer with a new version; replacing, deleting and setEncoded bump it', () => {
    let size = 8;
    const layers = new StaticLayers(encoder(() => size));
    const a = layers.set('a', () => {});
    expect([a.name, a.primCount, a.version, layers.version]).toEqual(['a', 2, 1, 1]);
    size = 12;
    const b = layers.set('b', () => {});
    expect([b.version, layers.list().map((l) => l.name)]).toEqual([2, ['a', 'b']]);
    const a2 = layers.set('a', () => {});
    expect([a2.version, a2.primCount, layers.get('a')]).toEqual([3, 3, a2]);
    expect(layers.delete('b')).toBe(true);
    expect(layers.version).toBe(4);
    expect(layers.delete('b')).toBe(false);
    expect(layers.version).toBe(4);
    expect(layers.get('b')).toBeUndefined();
    const c = layers.setEncoded('c', new Uint32Array(2), 1);
    expect([c.version, layers.list().map((l) => l.name)]).toEqual([5, ['a', 'c']]);
  });

  it('names the layer, cut to 64 characters, in its errors', () => {
    const long = 'w'.repeat(70);
    expect(() => new StaticLayers().set(long, () => {})).toThrow(
      `rewindable: cannot draw static layer "${'w'.repeat(64)}": these layers were loaded from a replay file; use setEncoded`,
    );
    expect(() => new StaticLayers(encoder(() => MAX_STATIC_BYTES + 4)).set(long, () => {})).toThrow(
      `rewindable: static layer "${'w'.repeat(64)}" would bring the layers to ${MAX_STATIC_BYTES + 4} bytes`,
    );
  });

  it('refuses a bad name', () => {
    const layers = new StaticLayers(encoder(() => 4));
    expect(() => layers.set('\uD800', () => {})).toThrow('rewindable: a static layer name contains a lone surrogate');
    expect(layers.version).toBe(0);
  });

  it('holds MAX_STATIC_LAYERS layers; a new name past them is refused, an existing one replaced', () => {
    const layers = new StaticLayers(encoder(() => 4));
    for (let i = 0; i < MAX_STATIC_LAYERS; i++) layers.set(`l${i}`, () => {});
    const name = `x${'y'.repeat(80)}`;
    expect(() => layers.set(name, () => {})).toThrow(
      `rewindable: cannot add static layer "${name.slice(0, 64)}": ${MAX_STATIC_LAYERS} layers exist`,
    );
    expect(layers.set('l7', () => {}).version).toBe(MAX_STATIC_LAYERS + 1);
    expect(layers.list()).toHaveLength(MAX_STATIC_LAYERS);
  });

  it('holds MAX_STATIC_BYTES over all layers, counting a replaced layer once', () => {
    let size = MAX_STATIC_BYTES - 100;
    const layers = new StaticLayers(encoder(() => size));
    layers.set('big', () => {});
    size = 100;
    layers.set('small', () => {}); // exactly the limit
    size = 104;
    expect(() => layers.set('small', () => {})).toThrow(
      `rewindable: static layer "small" would bring the layers to ${MAX_STATIC_BYTES + 4} bytes, more than ${MAX_STATIC_BYTES}`,
    );
    expect(layers.get('small')?.primCount).toBe(25);
    size = 4;
    expect(() => layers.set('third', () => {})).toThrow(/would bring the layers to/);
    size = MAX_STATIC_BYTES - 100;
    expect(layers.set('big', () => {}).version).toBe(3); // its own bytes are not counted twice
  });
});

describe('FrameRing bookkeeping', () => {
  /** Writes `words` words of value `v` as frame `frame`. */
  function put(ring: FrameRing, frame: number, words: number, v = frame + 1, commitWords = words): number {
    const at = ring.reserve(words);
    ring.u32.fill(v, at, at + words);
    ring.commit(frame, commitWords);
    return at;
  }

  it('states what is wrong with its construction', () => {
    expect(() => new FrameRing(1000, 4)).toThrow('rewindable: arenaBytes must be at least 1024 (got 1000)');
    expect(() => new FrameRing(1024, 0)).toThrow('rewindable: maxFrames must be a positive integer (got 0)');
    expect(() => new FrameRing(1024, 2.5)).toThrow('rewindable: maxFrames must be a positive integer (got 2.5)');
    const one = new FrameRing(1024, 1);
    put(one, 0, 4);
    put(one, 1, 4);
    expect([one.frameCount, one.oldestFrame]).toEqual([1, 1]);
  });

  it('uses given storage at its offset, and refuses storage that is misaligned or too small', () => {
    const buffer = new ArrayBuffer(1024 + 16);
    const ring = new FrameRing(1024, 4, { buffer, byteOffset: 16 });
    expect([ring.buffer === buffer, ring.byteOffset, ring.u32.byteOffset, ring.u8.length]).toEqual([
      true,
      16,
      16,
      1024,
    ]);
    put(ring, 0, 2, 0xabcdef);
    expect(new Uint32Array(buffer, 16, 2)[1]).toBe(0xabcdef);
    expect(new Uint32Array(buffer, 0, 4)[0]).toBe(0);
    expect(() => new FrameRing(1024, 4, { buffer, byteOffset: 12 })).toThrow(
      'rewindable: arena storage at 12 cannot hold 1024 bytes',
    );
    expect(() => new FrameRing(1024, 4, { buffer, byteOffset: 24 })).toThrow(
      'rewindable: arena storage at 24 cannot hold 1024 bytes',
    );
    expect(() => new FrameRing(1024, 4, { buffer, byteOffset: -8 })).toThrow(
      'rewindable: arena storage at -8 cannot hold 1024 bytes',
    );
    expect(new FrameRing(1024, 4, { buffer, byteOffset: 0 }).byteOffset).toBe(0);
    const plain = new FrameRing(1024, 4);
    expect([plain.byteOffset, plain.buffer.byteLength]).toEqual([0, 1024]);
  });

  it('finds frames after the slots wrap round, and answers 0 words for frames not held', () => {
    const ring = new FrameRing(1 << 16, 3);
    const at: number[] = [];
    for (let f = 0; f < 8; f++) at.push(put(ring, f, 4 + f * 2));
    expect([ring.oldestFrame, ring.newestFrame]).toEqual([5, 7]);
    for (const f of [5, 6, 7]) {
      expect(ring.offsetOf(f)).toBe(at[f]);
      expect(ring.wordsOf(f)).toBe(4 + f * 2);
      expect(ring.u32[ring.offsetOf(f)]).toBe(f + 1);
    }
    for (const f of [4, 8, -1]) {
      expect(ring.wordsOf(f)).toBe(0);
      expect(ring.offsetOf(f)).toBe(-1);
    }
    expect(ring.bytesUsed).toBe((14 + 16 + 18) * 4);
  });

  it('commit needs a reserve first, once, and frames that follow on', () => {
    const ring = new FrameRing(1024, 4);
    expect(() => ring.commit(0)).toThrow('rewindable: FrameRing.commit without reserve');
    put(ring, 3, 2);
    expect(() => ring.commit(4)).toThrow('rewindable: FrameRing.commit without reserve');
    ring.reserve(2);
    expect(() => ring.commit(5)).toThrow('rewindable: frame 5 does not follow 3');
  });

  it('takes a frame of the whole arena, and one that fits exactly at its end without wrapping', () => {
    const ring = new FrameRing(1024, 8); // 256 words
    expect(ring.reserve(256)).toBe(0);
    ring.commit(0);
    expect(ring.bytesUsed).toBe(1024);
    const r2 = new FrameRing(1024, 8);
    put(r2, 0, 100);
    put(r2, 1, 100);
    expect(put(r2, 2, 56)).toBe(200); // 200 + 56 = 256: no wrap
    expect([r2.frameCount, r2.oldestFrame, r2.bytesUsed]).toEqual([3, 0, 1024]);
  });

  it('evicts only the frames a wrapped reservation overlaps, not the one right after it', () => {
    const ring = new FrameRing(1024, 8);
    const evicted: number[] = [];
    ring.onEvict = (f) => evicted.push(f);
    put(ring, 0, 128, 0x11);
    put(ring, 1, 128, 0x22);
    // Wraps to 0, overlapping frame 0 only; frame 1 starts exactly where the new frame ends.
    expect(put(ring, 2, 128, 0x33)).toBe(0);
    expect(evicted).toEqual([0]);
    expect([ring.frameCount, ring.oldestFrame, ring.offsetOf(1)]).toEqual([2, 1, 128]);
    // An even-sized frame has no padding word: frame 1's first word is untouched.
    expect(ring.u32[128]).toBe(0x22);
  });

  it('a frame shorter than reserved gives its words back; an odd one is padded with a zeroed word', () => {
    const ring = new FrameRing(1024, 8);
    ring.u32.fill(0xffffffff);
    expect(put(ring, 0, 10, 5, 4)).toBe(0);
    expect([ring.wordsOf(0), ring.bytesUsed]).toEqual([4, 16]);
    expect(put(ring, 1, 10, 6, 2)).toBe(4);
    expect([ring.wordsOf(1), ring.bytesUsed]).toEqual([2, 24]);
    expect(put(ring, 2, 1, 7)).toBe(6);
    expect([ring.wordsOf(2), ring.u32[6], ring.u32[7], ring.bytesUsed]).toEqual([2, 7, 0, 32]);
    expect(put(ring, 3, 3, 8)).toBe(8);
    expect([ring.u32[10], ring.u32[11]]).toEqual([8, 0]);
    // A commit of 0 words keeps the reservation.
    ring.reserve(6);
    ring.commit(4, 0);
    expect([ring.wordsOf(4), ring.bytesUsed, ring.reserve(2)]).toEqual([6, 72, 18]);
  });

  it('evictOldest on an empty ring does nothing; evicting everything starts the next frame at 0', () => {
    const ring = new FrameRing(1024, 4);
    const evicted: number[] = [];
    ring.onEvict = (f) => evicted.push(f);
    ring.evictOldest();
    expect([ring.frameCount, evicted]).toEqual([0, []]);
    put(ring, 0, 6);
    put(ring, 1, 6);
    ring.evictOldest();
    ring.evictOldest();
    ring.evictOldest();
    expect([ring.frameCount, ring.bytesUsed, evicted]).toEqual([0, 0, [0, 1]]);
    expect(ring.reserve(4)).toBe(0);
    ring.commit(9);
    expect([ring.oldestFrame, ring.newestFrame, ring.has(9), ring.has(8)]).toEqual([9, 9, true, false]);
  });
});
