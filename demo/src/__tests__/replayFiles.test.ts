import { Playback, ReplayError, saveReplay } from 'rewindable';
import type { RewindOverlay } from 'rewindable/pixi';
import { describe, expect, it } from 'vitest';
import { Game } from '../game/Game';
import { listLifetimes, recordedTransform } from '../hook/readBack';
import { ExplosionSample, explosionsAt } from '../rewind/explosions';
import { createRewind, recordFrame, type Rewind } from '../rewind/recording';
import {
  DEMO_BUILD_ID,
  describeReplay,
  describeReplayError,
  openReplay,
  replayFileName,
  saveDemoReplay,
} from '../rewind/replayFile';

// These modules load no pixi (types only); the overlay is tested in the browser (src/pixi, tests/e2e).

const DT = 1 / 60;

function play(steps: number, crowd = 20): { game: Game; rw: Rewind } {
  const game = new Game({ crowd });
  const rw = createRewind(game);
  for (let i = 0; i < steps; i++) {
    game.update(DT);
    recordFrame(rw, game, DT);
    game.flushNotes();
  }
  return { game, rw };
}

/** The part of `RewindOverlay` that `saveDemoReplay` reads: which source is shown, and its bookmarks. */
function overlayShowing(source: 'live' | 'replay', bookmarks: Array<{ frame: number; label: string }>): RewindOverlay {
  const list = bookmarks.map((b, i) => ({ id: i + 1, ...b }));
  return { source, playback: { bookmarks: { list: () => list } } } as unknown as RewindOverlay;
}

describe('replay file names', () => {
  it('formats the local date and time, zero-padded, with the .rwd extension', () => {
    expect(replayFileName(new Date(2025, 0, 31, 14, 5, 9))).toBe('rewindable-2025-01-31_14-05-09.rwd');
    expect(replayFileName(new Date(1999, 11, 1, 0, 0, 0))).toBe('rewindable-1999-12-01_00-00-00.rwd');
  });

  it('never produces characters a file system rejects, even for an invalid date', () => {
    for (const d of [new Date(2030, 5, 6, 23, 59, 58), new Date(Number.NaN)]) {
      const name = replayFileName(d);
      expect(name).toMatch(/^rewindable-[0-9A-Za-z_-]+\.rwd$/);
    }
    expect(replayFileName(new Date(Number.NaN))).toBe('rewindable-undated.rwd');
  });
});

describe('replay error messages', () => {
  it('says what kind of problem it is in words, then the code, where and what', () => {
    const e = new ReplayError('TRUNCATED', 'the file ends inside frame 40', 'frames[40]');
    const text = describeReplayError(e);
    expect(text.startsWith('The file is incomplete')).toBe(true);
    expect(text).toContain('[TRUNCATED at frames[40]: the file ends inside frame 40]');
  });

  it('has its own sentence for every error code', () => {
    const codes = [
      'BAD_MAGIC',
      'NEWER_VERSION',
      'UNSUPPORTED_VERSION',
      'TRUNCATED',
      'CORRUPT',
      'CHECKSUM',
      'TOO_LARGE',
      'BAD_INPUT',
      'UNSUPPORTED_PLATFORM',
    ] as const;
    const sentences = new Set<string>();
    for (const code of codes) {
      const text = describeReplayError(new ReplayError(code, 'detail'));
      expect(text).toContain(`[${code}: detail]`);
      sentences.add(text.slice(0, text.indexOf(' [')));
    }
    expect(sentences.size).toBe(codes.length);
  });

  it('describes other failures (a download, a read) without pretending they are replay errors', () => {
    expect(describeReplayError(new Error('HTTP 404 Not Found'))).toBe(
      'The replay could not be opened: HTTP 404 Not Found',
    );
    expect(describeReplayError('boom')).toBe('The replay could not be opened: boom');
  });

  it('turns a real bad file into a readable message', () => {
    let caught: unknown;
    try {
      openReplay(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]));
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(ReplayError);
    expect(describeReplayError(caught)).toMatch(/^This is not a rewindable replay file \[BAD_MAGIC/);
  });
});

describe('saving and opening demo replays (rewind.ts step 7)', () => {
  it('saves the live recording with the demo build id, the note and the bookmarks, and opens it again', () => {
    const { rw } = play(180);
    const reader = rw.recorder.reader;
    const bytes = saveDemoReplay(
      overlayShowing('live', [{ frame: reader.newestFrame - 10, label: 'the jump' }]),
      rw.recorder,
      null,
      'stuck in a wall',
      { seed: '7' },
    );
    const replay = openReplay(bytes);
    expect(replay.warnings).toEqual([]);
    expect(replay.buildId).toBe(DEMO_BUILD_ID);
    expect(replay.info.note).toBe('stuck in a wall');
    expect(replay.info.fields.seed).toBe('7');
    expect(replay.bookmarks).toEqual([{ frame: reader.newestFrame - 10, label: 'the jump' }]);
    expect(replay.reader.frameCount).toBe(reader.frameCount);
    expect(replay.reader.newestFrame).toBe(reader.newestFrame);
    expect(replay.staticLayers.list().map((l) => l.name)).toEqual(['navgrid', 'arena']);
    expect(describeReplay(replay)).toMatch(
      /^180 frames \(3\.0 s\) · \d+ entities · [\d.]+ MB · build rewindable-demo\/0\.1\.0 · saved .* · note: “stuck in a wall”$/,
    );
  });

  it('re-saves a shown replay with its own build id and platform, keeping its note unless a new one is given', () => {
    const { rw } = play(60);
    const original = openReplay(
      saveReplay(rw.recorder, { buildId: 'build-42', platform: 'a phone', note: 'first note' }),
      null,
    );
    const again = openReplay(saveDemoReplay(overlayShowing('replay', []), rw.recorder, original, ''), null);
    expect(again.buildId).toBe('build-42');
    expect(again.info.platform).toBe('a phone');
    expect(again.info.note).toBe('first note');
    const renamed = openReplay(
      saveDemoReplay(overlayShowing('replay', []), rw.recorder, original, 'second note'),
      null,
    );
    expect(renamed.info.note).toBe('second note');
    // The live source is saved when the overlay shows the live recording, even with a replay loaded.
    const live = openReplay(saveDemoReplay(overlayShowing('live', []), rw.recorder, original, ''));
    expect(live.buildId).toBe(DEMO_BUILD_ID);
  });

  it('warns about a file from another build, and still opens it', () => {
    const { rw } = play(30);
    const replay = openReplay(saveReplay(rw.recorder, { buildId: 'someone-else/9.9' }));
    expect(replay.warnings.map((w) => w.code)).toEqual(['BUILD_MISMATCH']);
    expect(replay.warnings[0].message).toContain('someone-else/9.9');
    expect(replay.reader.frameCount).toBe(30);
    expect(openReplay(saveReplay(rw.recorder, { buildId: 'someone-else/9.9' }), null).warnings).toEqual([]);
  });

  it('replays explosions from a loaded file exactly as from the live recording', () => {
    const { rw } = play(1500, 0);
    const replay = openReplay(saveReplay(rw.recorder, { buildId: DEMO_BUILD_ID }));
    const live = new ExplosionSample();
    const loaded = new ExplosionSample();
    const reader = rw.recorder.reader;
    let compared = 0;
    for (let f = reader.oldestFrame; f <= reader.newestFrame; f += 0.5) {
      const n = explosionsAt(rw.recorder, f, live);
      expect(explosionsAt(replay.reader, f, loaded)).toBe(n);
      for (let i = 0; i < n; i++) {
        expect(loaded.ids[i]).toBe(live.ids[i]);
        expect(loaded.ages[i]).toBe(live.ages[i]);
        expect(loaded.data[i * 3]).toBe(live.data[i * 3]);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(20);
  });
});

describe('reading a recording back (rewind.ts step 9)', () => {
  it('gives the recorded transform of the life of an id present in a frame', () => {
    const { game, rw } = play(90);
    const reader = rw.recorder.reader;
    const f = reader.newestFrame;
    for (const e of [game.player, ...game.agents, ...game.bodies]) {
      const t = recordedTransform(reader, e.id, f);
      expect(t).not.toBeNull();
      expect(t!.x).toBeCloseTo(e.x, 3);
      expect(t!.y).toBeCloseTo(e.y, 3);
      expect(Math.cos(t!.angle - e.angle)).toBeGreaterThan(0.9999);
      expect(rw.recorder.entities.ids[t!.handle]).toBe(e.id);
    }
    expect(recordedTransform(reader, 9_999_999, f)).toBeNull();
    expect(recordedTransform(reader, game.player.id, f + 1)).toBeNull();
    expect(recordedTransform(reader, game.player.id, f - 0.5)).toBeNull();
  });

  it('finds despawned entities in the frames they lived in, and not after', () => {
    const { rw } = play(600, 0);
    const playback = new Playback(rw.recorder.reader);
    const lives = listLifetimes(playback);
    const gone = lives.filter((l) => !l.existsAtNewest && l.kind === 'projectile');
    expect(gone.length).toBeGreaterThan(0);
    const reader = rw.recorder.reader;
    for (const l of gone.slice(0, 10)) {
      expect(l.first).toBeLessThanOrEqual(l.last);
      expect(l.last).toBeLessThan(reader.newestFrame);
      expect(recordedTransform(reader, l.id, l.last)?.handle).toBe(l.handle);
      expect(recordedTransform(reader, l.id, l.last + 1)).toBeNull();
    }
    const player = lives.find((l) => l.kind === 'player');
    expect(player).toMatchObject({ existsAtNewest: true, last: reader.newestFrame, first: reader.oldestFrame });
    expect(new Set(lives.map((l) => l.handle)).size).toBe(lives.length);
    playback.dispose();
  });
});
