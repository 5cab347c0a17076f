import { Channel, EntityBuffer, FrameHeader, Playback, PrimitiveBuffer, PrimitiveType, quatToAngleZ } from 'rewindable';
import { describe, expect, it } from 'vitest';
import { Game } from '../game/Game';
import { BONE_COUNT, RIG_PARENTS } from '../game/rig';
import { ExplosionSample, explosionsAt } from '../rewind/explosions';
import { createRewind, recordFrame, type Rewind } from '../rewind/recording';

// The overlay is tested in the browser (src/pixi, src/ui, tests/e2e); these modules load no pixi.

const DT = 1 / 60;

function run(game: Game, rw: Rewind, steps: number, each?: () => void): void {
  for (let i = 0; i < steps; i++) {
    game.update(DT);
    recordFrame(rw, game, DT);
    each?.();
    game.flushNotes();
  }
}

describe('demo recording (rewind/recording.ts, rewind/explosions.ts)', () => {
  it('records every entity at its simulated transform, with kinds and bones', () => {
    const game = new Game({ crowd: 50 });
    const rw = createRewind(game);
    run(game, rw, 120);
    const reader = rw.recorder.reader;
    const ents = new EntityBuffer();
    expect(reader.readEntities(reader.newestFrame, ents)).toBe(true);
    const live = [game.player, ...game.agents, ...game.bodies, ...game.projectiles, ...game.pickups];
    expect(ents.count).toBe(live.length + game.crowd.count);
    const table = rw.recorder.entities;
    for (let i = 0; i < live.length; i++) {
      const e = live[i];
      const h = ents.handles[i];
      expect(table.ids[h]).toBe(e.id);
      expect(table.kinds[table.kindOf[h]]).toBe(e.kind);
      expect(ents.positions[i * 3]).toBeCloseTo(e.x, 3);
      expect(ents.positions[i * 3 + 1]).toBeCloseTo(e.y, 3);
      expect(ents.positions[i * 3 + 2]).toBeCloseTo(e.z, 3);
      const angle = quatToAngleZ(ents.rotations, i * 4);
      expect(Math.cos(angle - e.angle)).toBeGreaterThan(0.9999);
      const skeletal = e.kind === 'player' || e.kind === 'agent';
      expect(ents.boneStart[i] >= 0).toBe(skeletal);
      if (skeletal) expect(ents.boneCount[i]).toBe(BONE_COUNT);
    }
    for (let i = 0; i < game.crowd.count; i++) {
      const k = live.length + i;
      expect(table.ids[ents.handles[k]]).toBe(game.crowd.ids[i]);
      expect(ents.positions[k * 3]).toBeCloseTo(game.crowd.x[i], 3);
    }
    expect(Array.from(table.skeletons[table.kinds.indexOf('agent')] ?? [])).toEqual(RIG_PARENTS);
    expect(BONE_COUNT).toBeGreaterThanOrEqual(10);
  });

  it('records the custom fields of agents, bodies and the player as the game holds them', () => {
    const game = new Game({ crowd: 0 });
    const rw = createRewind(game);
    run(game, rw, 300);
    const pb = new Playback(rw.recorder.reader);
    const t = rw.recorder.entities;
    const f = rw.recorder.reader.newestFrame;
    const out = new Float64Array(3);
    const value = (id: number, name: string): number[] => {
      const h = t.lookup(id);
      const info = pb.fields.schemaOf(h).find((i) => i.name === name);
      if (info === undefined) throw new Error(`no field ${name}`);
      expect(pb.fields.valueAt(h, info.index, f, out)).not.toBe(0);
      return Array.from(out.subarray(0, info.components));
    };
    const f32 = Math.fround;
    for (const a of game.agents) {
      expect(value(a.id, 'health')).toEqual([f32(a.hp)]);
      expect(value(a.id, 'stamina')).toEqual([Math.round(a.stamina)]);
      expect(pb.fields.enumName(t.lookup(a.id), 2, value(a.id, 'state')[0])).toBe(a.state);
      const chasing = a.state === 'chase' || a.state === 'attack';
      expect(value(a.id, 'target')).toEqual([chasing ? game.player.id : Number.NaN]);
      expect(value(a.id, 'velocity')).toEqual([f32(a.vx), f32(a.vy), f32(a.vz)]);
    }
    for (const b of game.bodies) {
      expect(value(b.id, 'velocity')).toEqual([f32(b.vx), f32(b.vy), f32(b.vz)]);
      expect(value(b.id, 'sleeping')).toEqual([b.z <= 0 && Math.hypot(b.vx, b.vy, b.vz) < 1 ? 1 : 0]);
    }
    const p = game.player;
    expect(value(p.id, 'grounded')).toEqual([p.z <= 0 ? 1 : 0]);
    expect(value(p.id, 'autopilot')).toEqual([game.autopilotOn ? 1 : 0]);
    expect(value(p.id, 'move')).toEqual([f32(game.input.moveX), f32(game.input.moveY), 0]);
    expect(rw.recorder.stats.invalidFieldValues).toBe(0);
    expect(new Set(game.agents.map((a) => a.state)).size + game.agents.length).toBeGreaterThan(1);
  });

  it('records the game camera: centre point, roll as a quaternion about z, zoom', () => {
    const game = new Game({ crowd: 0 });
    const rw = createRewind(game);
    run(game, rw, 30);
    game.camera.shake(1);
    run(game, rw, 3);
    const header = new FrameHeader();
    const reader = rw.recorder.reader;
    expect(reader.readHeader(reader.newestFrame, header)).toBe(true);
    expect(header.hasCamera).toBe(true);
    expect(header.camera[0]).toBeCloseTo(game.camera.x, 3);
    expect(header.camera[1]).toBeCloseTo(game.camera.y, 3);
    expect(header.camera[7]).toBeCloseTo(game.camera.zoom, 5);
    expect(game.camera.rotation).not.toBe(0);
    // The roll goes through the 32-bit smallest-three quaternion codec: a few milliradians at most.
    expect(Math.abs(quatToAngleZ(header.camera, 3) - game.camera.rotation)).toBeLessThan(0.005);
  });

  it('ends the life of despawned projectiles and pickups, and names every life', () => {
    const game = new Game({ crowd: 0 });
    const rw = createRewind(game);
    const despawned = new Set<number>();
    run(game, rw, 1200, () => {
      for (const id of game.despawns) despawned.add(id);
    });
    expect(despawned.size).toBeGreaterThan(10);
    const table = rw.recorder.entities;
    let ended = 0;
    for (let h = 0; h < table.highWater; h++) {
      if (table.used[h] !== 1) continue;
      expect(table.kindOf[h]).toBeGreaterThanOrEqual(0); // every life was described
      if (despawned.has(table.ids[h])) {
        expect(table.isEnded(h)).toBe(true);
        ended++;
      }
    }
    expect(ended).toBeGreaterThan(0);
  });

  it('replays explosions from their markers alone, the same forwards and backwards', () => {
    const game = new Game({ crowd: 0 });
    const rw = createRewind(game);
    const sample = new ExplosionSample();
    const seen = new Map<number, Map<number, number>>();
    let checked = 0;
    run(game, rw, 2400, () => {
      const f = rw.recorder.reader.newestFrame;
      explosionsAt(rw.recorder, f, sample);
      expect(sample.count).toBe(game.explosions.length);
      for (let i = 0; i < sample.count; i++) {
        const live = game.explosions.find((e) => e.id === sample.ids[i]);
        expect(live).toBeDefined();
        expect(sample.ages[i]).toBeCloseTo(live!.age, 4);
        expect(sample.data[i * 3]).toBeCloseTo(live!.x, 3);
        expect(sample.data[i * 3 + 2]).toBe(live!.size);
        checked++;
      }
      seen.set(f, snapshot(sample));
    });
    expect(checked).toBeGreaterThan(50);
    // Stateless: walking the held frames backwards gives what was shown going forwards, exactly
    // while the start markers are held, and to within a frame near the oldest frame (where a start
    // may have been evicted and the explosion is found from its end marker).
    const reader = rw.recorder.reader;
    expect(rw.recorder.stats.framesEvicted).toBeGreaterThan(0);
    for (let f = reader.newestFrame; f >= reader.oldestFrame; f--) {
      explosionsAt(rw.recorder, f, sample);
      const now = snapshot(sample);
      const then = seen.get(f)!;
      expect([...now.keys()].sort()).toEqual([...then.keys()].sort());
      const exact = reader.timeOf(f) - reader.timeOf(reader.oldestFrame) > 1;
      for (const [id, age] of now) {
        expect(Math.abs(age - then.get(id)!)).toBeLessThan(exact ? 1e-4 : DT + 1e-4);
      }
    }
    // Between frames the age is interpolated by recorded time.
    for (let f = reader.newestFrame - 1; f >= reader.oldestFrame; f--) {
      explosionsAt(rw.recorder, f, sample);
      if (sample.count === 0) continue;
      const id = sample.ids[0],
        age = sample.ages[0];
      explosionsAt(rw.recorder, f + 0.5, sample);
      const i = Array.from(sample.ids.subarray(0, sample.count)).indexOf(id);
      if (i < 0) continue; // it ended at f + 1
      expect(sample.ages[i]).toBeCloseTo(age + DT / 2, 4);
      return;
    }
    throw new Error('no explosion spanning two held frames');
  });

  it('finds explosions whose start marker was evicted from their end marker', () => {
    const game = new Game({ crowd: 0 });
    // A ring shorter than an explosion: starts are evicted while their effect still burns.
    const rw = createRewind(game, { maxFrames: 40 });
    const reader = rw.recorder.reader;
    const live = new Map<number, Map<number, number>>();
    const startFrame = new Map<number, number>(),
      endFrame = new Map<number, number>();
    const sample = new ExplosionSample();
    let viaEnd = 0;
    run(game, rw, 3000, () => {
      const f = reader.newestFrame;
      for (const e of game.events) {
        if (e.kind === 'explosion-start') startFrame.set(e.subject, f);
        if (e.kind === 'explosion-end') endFrame.set(e.subject, f);
      }
      live.set(f, new Map(game.explosions.map((e) => [e.id, e.age])));
      if (f % 20 !== 0) return;
      // Check every held frame against what was live then.
      for (let g = reader.oldestFrame; g <= f; g++) {
        explosionsAt(rw.recorder, g, sample);
        const found = snapshot(sample);
        const then = live.get(g)!;
        for (const [id, age] of found) {
          expect(then.has(id)).toBe(true);
          expect(Math.abs(age - then.get(id)!)).toBeLessThan(DT + 1e-4);
        }
        for (const id of then.keys()) {
          const findable = startFrame.get(id)! >= reader.oldestFrame || (endFrame.has(id) && endFrame.get(id)! <= f);
          if (findable) expect(found.has(id)).toBe(true);
          if (findable && startFrame.get(id)! < reader.oldestFrame) viaEnd++;
        }
      }
    });
    expect(viaEnd).toBeGreaterThan(0);
  });

  it('marks the AI channel over budget only when spamming', () => {
    const game = new Game({ crowd: 0 });
    const rw = createRewind(game);
    const reader = rw.recorder.reader;
    run(game, rw, 60);
    expect(reader.overBudgetOf(reader.newestFrame)).toBe(0);
    game.spam = true;
    run(game, rw, 5);
    expect(reader.overBudgetOf(reader.newestFrame) & (1 << Channel.AI)).not.toBe(0);
    game.spam = false;
    run(game, rw, 5);
    expect(reader.overBudgetOf(reader.newestFrame)).toBe(0);
  });

  it('merges clustered agents\u2019 state labels into paragraphs', () => {
    const game = new Game({ crowd: 0 });
    const rw = createRewind(game);
    run(game, rw, 30);
    const prims = new PrimitiveBuffer();
    const reader = rw.recorder.reader;
    expect(reader.readPrimitives(reader.newestFrame, 1 << Channel.AI, prims)).toBe(true);
    const texts: string[] = [];
    for (let i = 0; i < prims.count; i++) if (prims.types[i] === PrimitiveType.TEXT) texts.push(prims.text(i));
    // Squads patrol in formation, so a squad's three labels share one paragraph.
    const merged = texts.filter((t) => t.split('\n').length >= 2);
    expect(merged.length).toBeGreaterThan(0);
    for (const t of merged)
      for (const line of t.split('\n')) expect(line).toMatch(/^[A-D][1-3] (patrol|chase|attack|flee) \d+hp$/);
    expect(texts.join('\n').split('\n').length).toBe(game.agents.length);
  });
});

function snapshot(s: ExplosionSample): Map<number, number> {
  const m = new Map<number, number>();
  for (let i = 0; i < s.count; i++) m.set(s.ids[i], s.ages[i]);
  return m;
}
