import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as core from '../index';
import * as format from '../../format/index';
import * as root from '../../index';
import * as replay from '../../replay/index';

const SRC = join(__dirname, '..', '..');

/** What a game uses: the `rewindable` entry's runtime names (docs/concepts.md, "The public API"). */
const GAME_FACING = [
  'Channel',
  'DEFAULT_LOAD_REPLAY_OPTIONS',
  'DEFAULT_PLAYBACK_OPTIONS',
  'DEFAULT_RECORDER_OPTIONS',
  'DEFAULT_REPLAY_LIMITS',
  'DEFAULT_SAMPLER_OPTIONS',
  'DEFAULT_SAVE_REPLAY_OPTIONS',
  'DEFAULT_TIME_CONTROL_OPTIONS',
  'DISPLAY_RECORDED',
  'DISPLAY_SHOWN',
  'EntityBuffer',
  'EntityFlags',
  'EventBuffer',
  'FieldValue',
  'FrameHeader',
  'FrameReader',
  'MAX_CHANNELS',
  'MarkerKind',
  'NO_SUBJECT',
  'Playback',
  'Presence',
  'PrimitiveBuffer',
  'PrimitiveType',
  'REPLAY_FILE_EXTENSION',
  'Recorder',
  'ReplayError',
  'SampleBuffer',
  'TeeDraw',
  'angleZToQuat',
  'arenaBytesFor',
  'cone',
  'cross',
  'loadReplay',
  'quatToAngleZ',
  'saveReplay',
  'stickFigure',
  'wireAabb',
  'wireBox',
];

/** Every `index.ts` under `dir`. */
function indexFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...indexFiles(p));
    else if (name === 'index.ts') out.push(p);
  }
  return out;
}

describe('the public entries', () => {
  it('rewindable exports exactly the game-facing names, and docs/concepts.md states their count', () => {
    expect(Object.keys(root).sort()).toEqual([...GAME_FACING].sort());
    const concepts = readFileSync(join(SRC, '..', 'docs', 'concepts.md'), 'utf8');
    const stated = /`rewindable` entry exports (\d+) runtime names/.exec(concepts);
    expect(stated?.[1]).toBe(String(GAME_FACING.length));
  });

  it('keeps the format level out of the root entry and in rewindable/format', () => {
    const rootNames = new Set(Object.keys(root));
    for (const name of Object.keys(format)) expect(rootNames.has(name), name).toBe(false);
    for (const name of ['H_TIME', 'HEADER_WORDS', 'PRIM_TEXT', 'FrameRing', 'EntityTable', 'xorDeltaEncode']) {
      expect(name in format, name).toBe(true);
    }
    // Internal: in neither entry.
    for (const name of ['DeathQueue', 'EntityKernel', 'DrawRecorder', 'EntityResolver', 'growTyped', 'ChannelMask']) {
      expect(name in root || name in format, name).toBe(false);
    }
  });

  it('puts everything the core and replay index offer in one of the two entries', () => {
    const entries = new Set([...Object.keys(root), ...Object.keys(format)]);
    const offered = [...Object.keys(core), ...Object.keys(replay)];
    expect(offered.filter((n) => !entries.has(n))).toEqual([]);
  });

  it('lists exports explicitly: no `export *` in any src/**/index.ts', () => {
    const files = indexFiles(SRC);
    expect(files.length).toBeGreaterThanOrEqual(9);
    for (const f of files) expect(readFileSync(f, 'utf8'), f).not.toMatch(/export \*/);
  });
});
