import { describe, expect, it } from 'vitest';
import { OpenLives, SLOT_EMPTY } from '../OpenLives';

/**
 * OpenLives rebuilt while it uses its whole reserved block (issue 20, seventh pass: the survivor of
 * run `ment1` that OpenLivesMutation.test.ts let through). The words past the reserved size are not
 * the table's: a rebuild must read its own slots only.
 */

describe('OpenLives at its reserved size', () => {
  it('shrinks from the reserved size without taking in a word past the block', () => {
    // Kills rebuild's `s < this.size` → `s <= this.size` (127:21): at size = reserved, slot `size` lies
    // past the block (its words read `undefined`, stored as id 0 with index 0 in the scratch), so the
    // shrunk table held a life of id 0 that was never opened.
    const reserved = 128;
    const lives = new OpenLives(new Int32Array(OpenLives.blockWords(reserved)), reserved);
    const ids = Array.from({ length: 65 }, (_, k) => 1000 + k * 31);
    ids.forEach((id, k) => lives.insert(id, k));
    expect(lives.size).toBe(reserved);
    for (const id of ids.slice(15)) lives.remove(lives.find(id));
    lives.compact(); // 15 lives in 128 slots: rebuilt to 64
    expect([lives.size, lives.live]).toEqual([64, 15]);
    const held: Array<[number, number]> = [];
    for (let s = 0; s < lives.size; s++) {
      if (lives.words[2 * s] !== SLOT_EMPTY) held.push([lives.words[2 * s], lives.words[2 * s + 1]]);
    }
    held.sort((a, b) => a[0] - b[0]);
    expect(held).toEqual(ids.slice(0, 15).map((id, k) => [id, k]));
    expect(lives.find(0)).toBe(-1);
    expect(lives.words.subarray(2 * 64).every((w) => w === SLOT_EMPTY)).toBe(true);
  });
});
