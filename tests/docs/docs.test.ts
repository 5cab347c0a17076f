import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CHANNEL_COMMANDS,
  COMMAND_DESCRIPTIONS,
  DEFAULT_KEY_BINDINGS,
  describeKeys,
  type KeyLine,
  type OverlayCommand,
} from '../../src/pixi/KeyboardControls';

const ROOT = resolve(__dirname, '../..');
/** `<!-- in demo/src/main.ts -->` right before a fenced code block: the block is quoted from that file. */
const QUOTED = /<!-- in ([\w./-]+) -->\n```ts\n([\s\S]*?)\n```/g;

/** The block's lines, trimmed, that do not stand in `file` in the same order (empty when it is a faithful excerpt). */
function linesNotInOrder(block: string, file: string): string[] {
  const lines = file.split('\n').map((l) => l.trim());
  const missing: string[] = [];
  let at = 0;
  for (const want of block
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length > 0)) {
    const found = lines.indexOf(want, at);
    if (found < 0) missing.push(want);
    else at = found + 1;
  }
  return missing;
}

describe('docs/getting-started.md quotes the demo as it is', () => {
  const doc = readFileSync(resolve(ROOT, 'docs/getting-started.md'), 'utf8');
  const quotes = [...doc.matchAll(QUOTED)];

  it('has quoted blocks', () => {
    expect(quotes.length).toBeGreaterThan(0);
  });

  it.each(quotes.map((m) => [m[1], m[2]] as const))(
    'every line of the block quoted from %s stands there, in order',
    (path, block) => {
      const file = readFileSync(resolve(ROOT, path), 'utf8');
      expect(
        linesNotInOrder(block, file),
        `lines of the block in docs/getting-started.md missing from ${path}`,
      ).toEqual([]);
    },
  );

  it('finds a line that is not in the file, or out of order', () => {
    expect(linesNotInOrder('b();\na();', 'a();\nb();')).toEqual(['a();']);
    expect(linesNotInOrder('a();\nc();', 'a();\nb();')).toEqual(['c();']);
    expect(linesNotInOrder('  a();\n\nb();', 'x\na();\ny\n    b();')).toEqual([]);
  });
});

describe('docs/getting-started.md lists every key', () => {
  it('has the key table of the default bindings, one row per line of the help', () => {
    const doc = readFileSync(resolve(ROOT, 'docs/getting-started.md'), 'utf8');
    const table = /<!-- keys:[^\n]*-->\n([\s\S]*?)\n<!-- \/keys -->/.exec(doc);
    expect(table, 'the <!-- keys --> … <!-- /keys --> block').not.toBeNull();
    const expected = keyTable(describeKeys(DEFAULT_KEY_BINDINGS));
    expect(table![1], `the key table should read:\n${expected}\n`).toBe(expected);
  });

  it('the table has a row for every command', () => {
    const lines = describeKeys(DEFAULT_KEY_BINDINGS);
    for (const command of Object.keys(DEFAULT_KEY_BINDINGS) as OverlayCommand[]) {
      const text = COMMAND_DESCRIPTIONS[command];
      const inTable =
        lines.some((l) => l.text === text) ||
        (CHANNEL_COMMANDS.includes(command) && lines.some((l) => l.text.startsWith('toggle channels')));
      expect(inTable, `${command} (${text}) has a row`).toBe(true);
    }
  });
});

/** The markdown key table of docs/getting-started.md. */
function keyTable(lines: readonly KeyLine[]): string {
  const rows = lines.map((l) => `| ${l.keys.map((k) => `\`${k}\``).join(' ')} | ${l.text} |`);
  return ['| key | action |', '|---|---|', ...rows].join('\n');
}
