/**
 * The field writer's edges (FieldStage, FieldRows, FieldArea, fieldBlocks) that the random model
 * test (fieldStageMutation.model.test.ts) reaches rarely or not at all: each case names the mutants
 * (Stryker's notation, lines of the sources as measured in run `fwrite`) or the bug it pins.
 */
import { describe, expect, it } from 'vitest';
import { H_SANITIZED } from '../../format/layout';
import { batch, read, recorder, sanitized } from './fieldStageKit';

describe('field writer: repairs flagged', () => {
  it('flags an entity whose per-entity row was repaired before a columns call overwrote it', () => {
    // Bug (fixed): the repair of the per-entity row was counted (stats, the frame's sanitized
    // count) but its entity was not flagged SANITIZED when the columns call gave valid values.
    const { r } = recorder();
    const S = r.declareFields('a', { hp: 'f32', n: 'u8' });
    r.beginFrame(0, 1);
    batch(r, [1, 2, 3]);
    r.fields(3, S, [Number.NaN, 7]); // 1 repair, then overwritten with valid values
    r.fieldColumns(
      S,
      2,
      [3, 1],
      [
        [30, 10],
        [3, 1],
      ],
    );
    r.endFrame();
    expect([read(r, 1, 0, 0), read(r, 3, 0, 0), read(r, 3, 1, 0)]).toEqual([[10], [30], [3]]);
    expect(r.stats.invalidFieldValues).toBe(1);
    expect(r.ring.u32[r.ring.offsetOf(0) + H_SANITIZED]).toBe(1);
    expect([0, 1, 2].map((e) => sanitized(r, 0, e))).toEqual([false, false, true]);
  });
});
