import { describe, expect, it } from 'vitest';
import { rng } from '../../../../tests/helpers/random';
import { EntityBuffer } from '../../read/buffers';
import type { Recorder } from '../Recorder';
import { quiet, livesOf as lives } from './helpers';

/**
 * The rules of lives, written the plain way: a map from id to its current life, entries and
 * despawns applied in call order. The recorder resolves the same frames with its hash of open lives
 * (the kernel's match: in place on a byte, else one probe) and deaths found from the entries not
 * continued; this model is what they must agree with.
 */
interface Life {
  id: number;
  spawn: number;
  last: number;
  ended: boolean;
}

class LivesModel {
  private readonly current = new Map<number, Life>();
  /** Every life ever started. */
  public readonly all: Life[] = [];

  /** Applies one frame; returns the kept lives as `id@spawn`, in order. */
  public frame(f: number, ops: Array<{ id: number; despawn: boolean }>): string[] {
    const kept: string[] = [];
    for (const op of ops) {
      const life = this.current.get(op.id);
      if (op.despawn) {
        if (life !== undefined) life.ended = true;
        continue;
      }
      if (life !== undefined && !life.ended && life.last === f) continue; // a duplicate: dropped
      if (life !== undefined && !life.ended && life.last === f - 1) {
        life.last = f;
        kept.push(`${op.id}@${life.spawn}`);
        continue;
      }
      const born = { id: op.id, spawn: f, last: f, ended: false };
      this.current.set(op.id, born);
      this.all.push(born);
      kept.push(`${op.id}@${f}`);
    }
    return kept;
  }
}

/** The lives the ring names whose last frame or end differ from the model's, as `id@spawn`. */
function endsOf(r: Recorder, model: LivesModel): string[] {
  const t = r.entities;
  const byLife = new Map(model.all.map((l) => [`${l.id}@${l.spawn}`, l]));
  const seen = new Set<number>();
  const wrong: string[] = [];
  const e = new EntityBuffer();
  for (let f = r.reader.oldestFrame; f <= r.reader.newestFrame; f++) {
    r.reader.readEntities(f, e);
    for (let i = 0; i < e.count; i++) {
      const h = e.handles[i];
      if (seen.has(h)) continue;
      seen.add(h);
      const life = byLife.get(`${t.ids[h]}@${t.spawnFrames[h]}`);
      if (life === undefined || t.lastFrame(h) !== life.last || t.isEnded(h) !== life.ended)
        wrong.push(
          `${t.ids[h]}@${t.spawnFrames[h]}: ${t.lastFrame(h)} ${t.isEnded(h)}, model ${life?.last} ${life?.ended}`,
        );
    }
  }
  return wrong;
}

describe('EntityResolver (through the Recorder)', () => {
  // The WebAssembly match, its JavaScript twin, and a ring that holds more lives than the entity
  // table starts with (60 frames held need more handles than the 800 it starts with).
  it.each([
    { backend: 'wasm', wasm: true, held: 6, grows: false },
    { backend: 'js', wasm: false, held: 6, grows: false },
    { backend: 'wasm, the table growing', wasm: true, held: 60, grows: true },
  ])(
    'agrees with the plain rules of lives over random reorders, gaps, despawns and duplicates, and frees every dead life ($backend)',
    ({ wasm, held, grows }) => {
      const random = rng(20261122);
      const r = quiet({ maxFrames: held, arenaBytes: 1 << 21, maxEntitiesPerFrame: 400, wasm });
      const startCapacity = r.entities.capacity;
      const model = new LivesModel();
      let order: number[] = Array.from({ length: 300 }, (_, i) => i * 3 + 1);
      let nextId = 2000;
      let fullScans = 0;
      for (let f = 0; f < 240; f++) {
        // Change the order the way games do: mostly not at all, sometimes a swap-remove, sometimes a
        // pairwise swap of everything (hundreds of runs: more than the resolver remembers), rarely a shuffle.
        const mode = random();
        if (mode < 0.15) {
          for (let i = 0; i + 1 < order.length; i += 2) [order[i], order[i + 1]] = [order[i + 1], order[i]];
          fullScans++;
        } else if (mode < 0.2) {
          order = order
            .map((id) => ({ id, k: random() }))
            .sort((a, b) => a.k - b.k)
            .map((x) => x.id);
        }
        const ops: Array<{ id: number; despawn: boolean }> = [];
        for (let k = 0; k < 3; k++) {
          // A despawned entity leaves: the last one takes its slot.
          const s = Math.floor(random() * order.length);
          const gone = order[s];
          order[s] = order[order.length - 1];
          order.pop();
          ops.push({ id: gone, despawn: true });
        }
        for (let k = 0; k < 3; k++) order.push(random() < 0.5 ? nextId++ : Math.floor(random() * 900)); // new or reused ids
        for (const id of order) {
          const p = random();
          if (p < 0.02) continue; // not recorded this frame: a gap (its life dies)
          ops.push({ id, despawn: false });
          if (p > 0.995)
            ops.push({ id, despawn: true }); // recorded, then despawned in the same frame
          else if (p > 0.99) ops.push({ id, despawn: false }); // recorded twice: the second is dropped
        }
        // Despawns anywhere in the frame, splitting runs.
        for (let k = 0; k < 2; k++) {
          const at = Math.floor(random() * ops.length);
          ops.splice(at, 0, { id: order[Math.floor(random() * order.length)], despawn: true });
        }
        r.beginFrame(f, 1 / 60);
        ops.forEach((op, i) => {
          if (op.despawn) r.despawn(op.id);
          else r.entity(op.id, i, f, 0, 0, 0, 0, 1);
        });
        r.endFrame();
        expect(lives(r, f)).toEqual(model.frame(f, ops));
        // Every life the ring names reports the model's last frame and end: open lives through the
        // table's one `openFrame`, the dead ones through the frame their death wrote.
        if (f % 16 === 15) expect(endsOf(r, model)).toEqual([]);
      }
      expect(fullScans).toBeGreaterThan(10);
      expect(r.reader.frameCount).toBe(held);
      expect(r.entities.capacity > startCapacity).toBe(grows);
      // A life holds its handle while a frame it appears in is held, or while it may still continue
      // (recorded in the newest frame); every other handle went back to the table.
      const oldest = r.reader.oldestFrame;
      const inUse = model.all.filter((l) => l.last >= oldest).length;
      expect(r.entities.liveCount).toBe(inUse);
      // Lives the ring still names report their last frame.
      const e = new EntityBuffer();
      r.reader.readEntities(r.reader.newestFrame, e);
      for (let i = 0; i < e.count; i++) expect(r.entities.lastFrame(e.handles[i])).toBe(r.reader.newestFrame);
    },
  );
});
