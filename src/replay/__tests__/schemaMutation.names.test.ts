/**
 * Two survivors of run `replaysmall2` (issue 20, sixth pass) that a test can tell: `typeName` of a
 * value whose constructor's `name` is not a string, and the documented file extension.
 */
import { describe, expect, it } from 'vitest';
import { REPLAY_FILE_EXTENSION } from '../replayFormat';
import { typeName } from '../schema';

describe('typeName and the file extension', () => {
  // Kills schema.ts 28:39 `typeof c.name === 'string'` → `true`: a class whose static `name` is a
  // number names no type; the message says 'object', never the number.
  it('a constructor whose name is not a string gives "object"', () => {
    class Odd {}
    Object.defineProperty(Odd, 'name', { value: 42 });
    expect(typeName(new Odd())).toBe('object');
    class Named {}
    expect(typeName(new Named())).toBe('Named');
  });

  // Kills replayFormat.ts 31:38 (the extension emptied): docs/replay-format.md names `.rwd`.
  it('replay files end in .rwd', () => {
    expect(REPLAY_FILE_EXTENSION).toBe('.rwd');
  });
});
