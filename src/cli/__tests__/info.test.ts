import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { saveReplay } from '../../replay/saveReplay';
import { makeRecording } from '../../replay/__tests__/helpers';
import { CliExit, replayInfo, runCli } from '../info';
import type { CliIo } from '../info';

const rec = makeRecording({ frames: 70, entities: 9, seed: 17 });
const bytes = saveReplay(rec, {
  buildId: 'build-7',
  note: 'fell through floor',
  platform: 'test',
  fields: { level: 'cave' },
  savedAt: '2025-05-05T00:00:00.000Z',
  bookmarks: [{ frame: 60, label: 'fall' }],
});

function fakeIo(files: Record<string, Uint8Array>): CliIo & { stdout: string; stderr: string } {
  const io = {
    stdout: '',
    stderr: '',
    readFile(path: string): Uint8Array {
      const f = files[path];
      if (f === undefined) throw new Error(`ENOENT: ${path}`);
      return f;
    },
    out(text: string): void {
      io.stdout += text;
    },
    err(text: string): void {
      io.stderr += text;
    },
  };
  return io;
}

describe('replayInfo', () => {
  it('summarises frames, time span, entities, channels, bookmarks and over-budget frames', () => {
    const s = replayInfo(bytes);
    const r = rec.reader;
    expect(s.formatVersion).toBe(3);
    expect(s.buildId).toBe('build-7');
    expect(s.note).toBe('fell through floor');
    expect({ ...s.fields }).toEqual({ level: 'cave' });
    expect(s.frames).toEqual({
      count: r.frameCount,
      first: r.oldestFrame,
      last: r.newestFrame,
      timeStart: r.timeOf(r.oldestFrame),
      timeEnd: r.timeOf(r.newestFrame),
      duration: r.timeOf(r.newestFrame) - r.timeOf(r.oldestFrame),
    });
    expect(s.frames.duration).toBeGreaterThan(1);
    // Over budget: the network channel (index 3) gets 8 points a frame with a budget of 6.
    let over = 0;
    for (let f = r.oldestFrame; f <= r.newestFrame; f++) if (r.overBudgetOf(f) !== 0) over++;
    expect(over).toBe(r.frameCount);
    expect(s.overBudget.frameCount).toBe(over);
    expect(s.overBudget.frames[0]).toBe(r.oldestFrame);
    expect(s.overBudget.frames.length + s.overBudget.more).toBe(over);
    expect(s.channels.map((c) => [c.name, c.color, c.overBudgetFrames])).toEqual([
      ['ai', '#ffc83d', 0],
      ['physics', '#4dd2ff', 0],
      ['animation', '#d86bff', 0],
      ['network', '#44ccff', over],
      ['audio', '#123456', 0],
    ]);
    expect(s.bookmarks).toEqual([{ frame: 60, label: 'fall' }]);
    // Unique ids: every life the frames mention.
    const lives = new Set<number>();
    const t = rec.entities;
    for (let h = 0; h < t.highWater; h++) if (t.used[h]) lives.add(h);
    expect(s.entities.unique).toBeLessThanOrEqual(lives.size);
    expect(s.entities.unique).toBeGreaterThan(9);
    expect(Object.values(s.entities.kinds).reduce((a, b) => a + b, 0)).toBe(s.entities.unique);
    expect(s.entities.maxPerFrame).toBe(9);
    expect(s.events.hit).toBeGreaterThan(0);
    expect(s.staticLayers).toEqual([
      { name: 'navgrid', primitives: 13 },
      { name: 'walls', primitives: 1 },
    ]);
    expect(s.warnings).toEqual([]);
  });

  it('lists the custom fields of each kind and the frames over the field budget', () => {
    const s = replayInfo(bytes);
    expect(s.fieldsByKind).toEqual({
      humanoid: {
        fields: [
          { name: 'hp', type: 'f32' },
          { name: 'state', type: 'enum' },
          { name: 'target', type: 'entity' },
          { name: 'v', type: 'vec3' },
          { name: 'on', type: 'bool' },
          { name: 'n', type: 'i32' },
          { name: 's', type: 'u8' },
        ],
        enumNames: ['patrol', 'chase', 'attack'],
      },
      bird: {
        fields: [
          { name: 'alt', type: 'f32' },
          { name: 'flying', type: 'bool' },
        ],
        enumNames: [],
      },
    });
    expect(s.fieldsOverBudgetFrames).toBe(0);
  });
});

describe('runCli', () => {
  it('prints the JSON summary and exits 0', () => {
    const io = fakeIo({ 'a.rwd': bytes });
    expect(runCli(['info', 'a.rwd'], io)).toBe(CliExit.OK);
    const json = JSON.parse(io.stdout) as Record<string, unknown>;
    expect(json.file).toBe('a.rwd');
    expect(json.buildId).toBe('build-7');
    expect((json.frames as { count: number }).count).toBe(rec.reader.frameCount);
    expect(io.stderr).toBe('');
  });

  it('warns about another build with --build', () => {
    const io = fakeIo({ 'a.rwd': bytes });
    expect(runCli(['info', '--build', 'build-8', 'a.rwd'], io)).toBe(CliExit.OK);
    expect((JSON.parse(io.stdout) as { warnings: string[] }).warnings[0]).toContain('build-7');
  });

  it('exits 1 with the typed error message on a bad file', () => {
    const cut = fakeIo({ 'cut.rwd': bytes.subarray(0, 500) });
    expect(runCli(['info', 'cut.rwd'], cut)).toBe(CliExit.BAD_FILE);
    expect(cut.stderr).toContain('TRUNCATED');
    expect(cut.stdout).toBe('');
    const other = fakeIo({ 'x.rwd': new TextEncoder().encode('hello world') });
    expect(runCli(['info', 'x.rwd'], other)).toBe(CliExit.BAD_FILE);
    expect(other.stderr).toContain('BAD_MAGIC');
    const missing = fakeIo({});
    expect(runCli(['info', 'nope.rwd'], missing)).toBe(CliExit.BAD_FILE);
    expect(missing.stderr).toContain('cannot read nope.rwd');
  });

  it('exits 2 on usage errors and 0 on --help', () => {
    for (const argv of [
      [],
      ['stats', 'a.rwd'],
      ['info'],
      ['info', 'a', 'b'],
      ['info', '--bogus', 'a'],
      ['info', 'a', '--build'],
    ]) {
      const io = fakeIo({});
      expect(runCli(argv, io)).toBe(CliExit.USAGE);
      expect(io.stderr).toContain('Usage: rewindable info');
    }
    const help = fakeIo({});
    expect(runCli(['--help'], help)).toBe(CliExit.OK);
    expect(help.stdout).toContain('Usage');
  });
});

describe('bin/rewindable.mjs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rewindable-cli-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const bin = fileURLToPath(new URL('../../../bin/rewindable.mjs', import.meta.url));
  // The sources under test, not a dist/ that an earlier `npm run build` left behind.
  const env = { ...process.env, REWINDABLE_CLI_SOURCE: '1' };

  it('runs as a process: JSON and exit 0 for a good file, the error and exit 1 for a bad one', () => {
    const good = join(dir, 'good.rwd');
    const bad = join(dir, 'bad.rwd');
    writeFileSync(good, bytes);
    writeFileSync(bad, bytes.subarray(0, bytes.length - 10));
    const ok = spawnSync(process.execPath, [bin, 'info', good], { encoding: 'utf8', timeout: 60_000, env });
    expect(ok.stderr).toBe('');
    expect(ok.status).toBe(0);
    expect((JSON.parse(ok.stdout) as { buildId: string }).buildId).toBe('build-7');
    const fail = spawnSync(process.execPath, [bin, 'info', bad], { encoding: 'utf8', timeout: 60_000, env });
    expect(fail.status).toBe(1);
    expect(fail.stderr).toContain('rewindable replay TRUNCATED');
  });
});
