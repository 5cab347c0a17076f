import { describe, expect, it } from 'vitest';
import { Recorder } from '../Recorder';
import type { DeathQueue } from '../DeathQueue';
import type { EntityTable } from '../../store/EntityTable';

/** The recorder's death queue and handle table (internal: reached for this sizing check only). */
function internals(rec: Recorder): { deaths: DeathQueue; table: EntityTable } {
  const resolver = (rec as unknown as { stage: { resolver: { deaths: DeathQueue } } }).stage.resolver;
  return { deaths: resolver.deaths, table: rec.entities };
}

describe("the recorder's death queue", () => {
  it('is sized by the deaths waiting, not by the handle table (pages first written in a frame fault in it)', () => {
    for (const wasm of [true, false]) {
      const rec = new Recorder({ maxFrames: 60, wasm, onWarning: () => undefined });
      let next = 0;
      const alive: number[] = [];
      for (let f = 0; f < 400; f++) {
        rec.beginFrame(f / 60, 1 / 60);
        // 20 deaths and 20 births a frame, 40 alive: at most 60 frames × 20 deaths wait.
        for (const id of alive.splice(0, alive.length >= 40 ? 20 : 0)) rec.despawn(id);
        while (alive.length < 40) alive.push(next++);
        for (const id of alive) rec.entity(id, id, 0, 0, 0, 0, 0, 1);
        rec.endFrame();
      }
      const { deaths, table } = internals(rec);
      expect(deaths.size).toBeGreaterThan(1000);
      expect(deaths.size).toBeLessThanOrEqual(60 * 20);
      // Grown to what waits (a power of two), far below the table it used to match.
      expect(deaths.capacity).toBe(2048);
      expect(table.capacity).toBeGreaterThan(8 * deaths.capacity);
      // The lives it released are gone from the table; the held frames still name every id.
      expect(rec.reader.frameCount).toBe(60);
      expect(table.liveCount).toBe(40 + deaths.size);
    }
  });
});
