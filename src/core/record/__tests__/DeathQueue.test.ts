import { describe, expect, it } from 'vitest';
import { EntityTable } from '../../store/EntityTable';
import { DeathQueue } from '../DeathQueue';

describe('DeathQueue', () => {
  it('releases in frame order through wrap-arounds and growth, whatever capacity it was given', () => {
    for (const capacity of [1, 20, 100]) {
      const table = new EntityTable(16, 1 << 20);
      const deaths = new DeathQueue(capacity);
      // The model: handles still waiting, with their last frames.
      const waiting: Array<[number, number]> = [];
      const wrong: string[] = [];
      let id = 0;
      for (let frame = 0; frame < 300; frame++) {
        // 0 to 60 deaths a frame (the queue's room is passed more than once, and it grows).
        const n = (frame * 37) % 61;
        for (let k = 0; k < n; k++) {
          const h = table.allocate(id++, frame);
          table.end(h);
          deaths.push(h, frame);
          waiting.push([h, frame]);
        }
        const evicted = frame - 7;
        deaths.releaseThrough(evicted, table);
        while (waiting.length > 0 && waiting[0][1] <= evicted) {
          const [h] = waiting.shift() as [number, number];
          if (table.used[h] !== 0) wrong.push(`frame ${frame}: handle ${h} not released`);
        }
        if (deaths.size !== waiting.length) wrong.push(`frame ${frame}: ${deaths.size} waiting`);
        for (const [h] of waiting) if (table.used[h] !== 1) wrong.push(`frame ${frame}: handle ${h} released early`);
      }
      expect(wrong.slice(0, 5)).toEqual([]);
      deaths.releaseThrough(1000, table);
      expect(deaths.size).toBe(0);
      expect(table.liveCount).toBe(0);
    }
  });
});
