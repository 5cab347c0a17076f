import { describe, expect, it, vi } from 'vitest';
import type { Container } from 'pixi.js';
import { EntityFlags } from '../../core/format/layout';
import { TimeControl } from '../../core/playback/TimeControl';
import { overlayFixture, run, type TestGame } from './testGame';

const { make, forget } = overlayFixture();

/** Every state the overlay promises to restore, of every sprite. */
function snapshot(game: TestGame): string {
  const rows: string[] = [];
  for (const [id, s] of game.sprites) {
    rows.push([id, s.x, s.y, s.rotation, s.scale.x, s.scale.y, s.visible, s.tint, s.alpha].join(','));
  }
  return rows.join('\n');
}

function angleDiff(a: number, b: number): number {
  let d = (a - b) % (2 * Math.PI);
  if (d > Math.PI) d -= 2 * Math.PI;
  if (d < -Math.PI) d += 2 * Math.PI;
  return Math.abs(d);
}

describe('RewindOverlay pause / resume', () => {
  it('pausing starts at the newest frame and moves entities to their recorded transforms', async () => {
    const { game, overlay } = await make(6);
    run(game, overlay, 40);
    expect(overlay.isPaused).toBe(false);
    let pauses = 0;
    overlay.onChange(() => pauses++);
    overlay.pause();
    expect(overlay.isPaused).toBe(true);
    expect(pauses).toBeGreaterThan(0);
    const reader = game.recorder.reader;
    expect(overlay.playback.time.position).toBe(reader.newestFrame);
    overlay.update(0);
    for (const frame of [reader.newestFrame - 25, reader.oldestFrame, reader.newestFrame - 3]) {
      overlay.playback.time.seek(frame);
      overlay.update(0);
      const truth = game.history[frame];
      for (const [id, s] of game.sprites) {
        const t = truth.get(id)!;
        expect(s.x).toBe(Math.fround(t.x));
        expect(s.y).toBe(Math.fround(t.y));
        expect(angleDiff(s.rotation, t.angle)).toBeLessThan(0.005);
        expect(s.visible).toBe(true);
      }
    }
    // Between two frames: blended.
    const f = reader.newestFrame - 10;
    overlay.playback.time.seek(f + 0.25);
    overlay.update(0);
    for (const [id, s] of game.sprites) {
      const a = game.history[f].get(id)!;
      const b = game.history[f + 1].get(id)!;
      expect(s.x).toBeCloseTo(a.x + (b.x - a.x) * 0.25, 4);
    }
    // Concrete frames: no blending.
    overlay.setInterpolate(false);
    overlay.update(0);
    for (const [id, s] of game.sprites) expect(s.x).toBe(Math.fround(game.history[f].get(id)!.x));
  });

  it('shows flags as tints while paused and restores the tint on resume', async () => {
    const { game, overlay } = await make(2);
    run(game, overlay, 5);
    game.entities.get(1)!.flags = EntityFlags.DAMAGED;
    run(game, overlay, 5);
    game.entities.get(1)!.flags = 0;
    run(game, overlay, 5);
    const before = snapshot(game);
    overlay.pause();
    const damagedFrame = game.recorder.reader.newestFrame - 7;
    overlay.playback.time.seek(damagedFrame);
    overlay.update(0);
    expect(game.sprites.get(1)!.tint).toBe(0xff4a4a);
    expect(game.sprites.get(2)!.tint).toBe(0x80c0ff);
    overlay.playback.time.seek(damagedFrame - 6);
    overlay.update(0);
    expect(game.sprites.get(1)!.tint).toBe(0x80c0ff);
    overlay.resume();
    expect(snapshot(game)).toBe(before);
  });

  it('resuming restores every live object exactly, also after 1,000 pause/resume cycles', async () => {
    const { game, overlay } = await make(8);
    run(game, overlay, 60);
    // Odd states the overlay must not normalise: scale, alpha, a hidden sprite, a custom tint.
    game.sprites.get(2)!.scale.set(1.7, 0.3);
    game.sprites.get(3)!.alpha = 0.35;
    game.sprites.get(4)!.visible = false;
    game.sprites.get(5)!.tint = 0x123456;
    game.sprites.get(6)!.rotation = 123.456;
    const before = snapshot(game);
    const worldBefore = [
      game.world.x,
      game.world.y,
      game.world.scale.x,
      game.world.rotation,
      game.world.pivot.x,
    ].join();
    const reader = game.recorder.reader;
    let seed = 7;
    const rnd = (): number => (seed = (seed * 16807) % 2147483647) / 2147483647;
    let resumes = 0;
    overlay.onChange(() => {
      if (!overlay.isPaused) resumes++;
    });
    for (let cycle = 0; cycle < 1000; cycle++) {
      overlay.pause();
      overlay.update(1 / 60);
      overlay.playback.time.seek(reader.oldestFrame + rnd() * (reader.newestFrame - reader.oldestFrame));
      overlay.update(1 / 60);
      if (cycle % 3 === 0) overlay.camera.panBy(5, 3);
      if (cycle % 5 === 0) overlay.runCommand('rotateLeft');
      overlay.update(1 / 60);
      overlay.resume();
      overlay.update(1 / 60);
      if (cycle === 0 || cycle === 999) expect(snapshot(game)).toBe(before);
    }
    expect(resumes).toBeGreaterThanOrEqual(1000);
    expect(snapshot(game)).toBe(before);
    expect([game.world.x, game.world.y, game.world.scale.x, game.world.rotation, game.world.pivot.x].join()).toBe(
      worldBefore,
    );
    // The game continues from where it was.
    run(game, overlay, 1);
    expect(game.sprites.get(1)!.x).toBe(game.entities.get(1)!.x);
  });

  it('hides entities spawned later and re-creates despawned ones (pooled), or draws them as shapes', async () => {
    const { game, overlay, binding } = await make(3);
    game.spawn(50, 'bullet', 100, 100, 2, 0);
    game.spawn(60, 'rock', 200, 150, 0, 1, 0);
    run(game, overlay, 10);
    const reader = game.recorder.reader;
    const bulletHandle = reader.entities.lookup(50);
    game.despawn(50);
    game.despawn(60);
    run(game, overlay, 10);
    game.spawn(70, 'mover', 10, 10, 1, 1);
    run(game, overlay, 10);
    const late = game.sprites.get(70)!;
    expect(late.visible).toBe(true);

    overlay.pause();
    overlay.playback.time.seek(5);
    overlay.update(0);
    // Spawned later: hidden. Despawned: re-created at its recorded position.
    expect(late.visible).toBe(false);
    const ghost = overlay.presenter.objectOf(bulletHandle) as Container;
    expect(ghost).not.toBeNull();
    expect(ghost.visible).toBe(true);
    expect(ghost.x).toBe(Math.fround(game.history[5].get(50)!.x));
    expect(binding.created).toBe(1);
    // 'rock' cannot be created: drawn as a debug shape.
    expect(overlay.presenter.ghostCount).toBe(1);
    // A frame after the bullet despawned: its re-created object is hidden.
    overlay.playback.time.seek(reader.newestFrame);
    overlay.update(0);
    expect(ghost.visible).toBe(false);
    expect(late.visible).toBe(true);
    expect(overlay.presenter.ghostCount).toBe(0);

    overlay.resume();
    expect(ghost.visible).toBe(false);
    expect(overlay.presenter.recreatedCount).toBe(0);
    expect(late.visible).toBe(true);
    // Jump in again: the pool is reused, nothing new is created.
    overlay.pause();
    overlay.playback.time.seek(6);
    overlay.update(0);
    expect(binding.created).toBe(1);
    expect(overlay.presenter.pooledCount).toBe(1);
    expect(overlay.presenter.objectOf(bulletHandle)).toBe(ghost);
  });

  it('hands apply the whole sample (bones, z), calls onPresent per shown sample, and releases re-created objects on destroy', async () => {
    const seen: number[] = [];
    const { app, game, overlay, binding } = await make(1, {
      onPresent: (sample) => seen.push(sample.position),
    });
    forget();
    let boneRows = 0;
    binding.apply = (obj, view) => {
      obj.position.set(view.x, view.y);
      if (view.sample.boneStart[view.index] >= 0) boneRows += view.sample.boneCount[view.index];
    };
    const released: string[] = [];
    binding.release = (_obj, kind) => released.push(kind);
    game.spawn(7, 'walker', 50, 50, 1, 0, 5);
    game.spawn(8, 'bullet', 10, 10, 1, 0);
    run(game, overlay, 10);
    game.despawn(8);
    run(game, overlay, 10);
    overlay.pause();
    overlay.playback.time.seek(4);
    overlay.update(0);
    overlay.playback.time.seek(5.5);
    overlay.update(0);
    overlay.update(0);
    expect(seen).toEqual([4, 5.5]);
    expect(boneRows).toBeGreaterThanOrEqual(10);
    overlay.destroy();
    expect(released).toEqual(['bullet']);
    app.destroy({ removeView: true }, { children: true });
  });
});

describe('RewindOverlay time subscriptions', () => {
  it('follows only the time controls it shows, and lets go of each at a replay switch and on destroy', async () => {
    const subscribe = TimeControl.prototype.onChange;
    const active = new Map<TimeControl, number>();
    const count = (tc: TimeControl) => active.get(tc) ?? 0;
    const spy = vi.spyOn(TimeControl.prototype, 'onChange').mockImplementation(function (this: TimeControl, listener) {
      const unsubscribe = subscribe.call(this, listener);
      active.set(this, count(this) + 1);
      let done = false;
      return () => {
        if (!done) active.set(this, count(this) - 1);
        done = true;
        unsubscribe();
      };
    });
    try {
      const { game, overlay } = await make(3);
      forget();
      run(game, overlay, 10);
      const live = overlay.livePlayback.time;
      const idle = count(live);
      overlay.pause();
      expect(count(live)).toBe(idle + 1); // the view follows the paused live time
      const first = overlay.showReplay({ reader: game.recorder.reader });
      expect(count(live)).toBe(idle);
      const followed = count(first.time);
      expect(followed).toBeGreaterThan(0);
      const second = overlay.showReplay({ reader: game.recorder.reader });
      expect(count(first.time)).toBe(0);
      expect(count(second.time)).toBe(followed);
      overlay.returnToLive();
      expect(count(second.time)).toBe(0);
      expect(count(live)).toBe(idle);
      overlay.pause();
      overlay.destroy();
      expect([...active.values()].every((n) => n === 0)).toBe(true);
      overlay.app.destroy({ removeView: true }, { children: true });
    } finally {
      spy.mockRestore();
    }
  });
});

describe('RewindOverlay replay label', () => {
  it('names the replay shown and shows a status instead of its time state (a viewer following a live stream)', async () => {
    const { game, overlay } = await make(3);
    run(game, overlay, 10);
    const label = () => {
      overlay.update(0.2); // the label is rebuilt at most every 0.1 s
      return overlay.timeline.labelText;
    };
    overlay.pause();
    expect(label()).toMatch(/^live rec {2}frame \d+ .* paused {2}×1/);
    overlay.setReplayLabel('live', 'following'); // nothing while the live recording is shown
    expect(label()).toMatch(/^live rec .* paused /);
    overlay.showReplay({ reader: game.recorder.reader }, { name: 'live' });
    expect(label()).toMatch(/^live {2}frame \d+ .* paused {2}×1/);
    overlay.setReplayLabel('live', 'following');
    expect(label()).toMatch(/^live {2}frame \d+ .* following {2}×1/);
    overlay.setReplayLabel('live', null);
    expect(label()).toMatch(/^live {2}frame .* paused /);
    overlay.showReplay({ reader: game.recorder.reader });
    expect(label()).toMatch(/^replay {2}frame .* paused /);
  });
});
