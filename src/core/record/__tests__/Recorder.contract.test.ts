import { describe, expect, it } from 'vitest';
import { FrameHeader } from '../../read/buffers';
import { Channel } from '../../store/ChannelRegistry';
import { quiet, warningsOf } from './helpers';

/**
 * The recorder's public contract where a near miss does not change what is stored: frame-end
 * listeners (order, removal, a throwing one), each warning's wording and that it comes once, `clear`
 * with a frame open, a frame that does not fit the arena (its header's counts), and the refusals of
 * `display`, `fields` and `fieldColumns`. Public behaviour only: it holds whatever the recorder's
 * parts look like inside.
 */

describe('Recorder contract', () => {
  it('onFrameEnd: listeners run in order after the commit; removing one (even twice) removes only it', () => {
    const r = quiet();
    const calls: string[] = [];
    const stopA = r.onFrameEnd((f) => calls.push(`a${f}:${r.reader.newestFrame}`));
    const stopB = r.onFrameEnd((f) => calls.push(`b${f}`));
    r.onFrameEnd((f) => calls.push(`c${f}`));
    r.beginFrame(0, 1);
    r.endFrame();
    stopB();
    stopB(); // a second call removes nothing else
    r.beginFrame(1, 1);
    r.endFrame();
    stopA();
    r.beginFrame(2, 1);
    r.endFrame();
    expect(calls).toEqual(['a0:0', 'b0', 'c0', 'a1:1', 'c1', 'c2']);
    expect(warningsOf(r)).toEqual([]);
  });

  it('onFrameEnd: a throwing listener is reported once, the others still run, and the frame is recorded', () => {
    const r = quiet();
    const seen: number[] = [];
    r.onFrameEnd(() => {
      throw new Error('listener broke');
    });
    r.onFrameEnd((f) => seen.push(f));
    r.onFrameEnd(() => {
      throw 'a string';
    });
    for (let f = 0; f < 3; f++) {
      r.beginFrame(f, 1);
      r.endFrame();
    }
    expect(seen).toEqual([0, 1, 2]);
    expect(r.reader.frameCount).toBe(3);
    expect(warningsOf(r)).toEqual(['rewindable: an onFrameEnd listener threw (listener broke); the frame is recorded']);
    const s = quiet();
    s.onFrameEnd(() => {
      throw 7;
    });
    s.beginFrame(0, 1);
    s.endFrame();
    expect(warningsOf(s)).toEqual(['rewindable: an onFrameEnd listener threw (7); the frame is recorded']);
  });

  it('each problem is warned once, in its own words', () => {
    const r = quiet({ recordBones: true });
    const schema = r.declareFields('agent', { hp: 'f32' });
    r.endFrame(); // outside
    r.entity(1, 0, 0, 0, 0, 0, 0, 1); // outside again: no second warning
    r.beginFrame(0, 1);
    r.beginFrame(1, 1); // unbalanced
    r.beginFrame(2, 1); // unbalanced again
    r.entity(1, 0, 0, 0, 0, 0, 0, 1);
    r.bones(2, 1, [0, 0, 0, 1], [0, 0, 0]);
    r.bones(3, 1, [0, 0, 0, 1], [0, 0, 0]);
    r.fields(2, schema, [1]);
    r.fields(3, schema, [1]);
    r.despawn(-1);
    r.despawn(0.5);
    r.endFrame();
    expect(warningsOf(r)).toEqual([
      'rewindable: recorder called outside beginFrame/endFrame; the call was ignored',
      'rewindable: beginFrame called while a frame was open; the open frame was ended first',
      'rewindable: bones(2) must follow entity(2); the bones were dropped',
      "rewindable: fields(2) must follow entity(2) and use a schema of this recorder's declareFields; the fields were dropped",
      'rewindable: despawn(-1): not an entity id (an integer in [0, 16777216)); ignored',
    ]);
    expect([
      r.stats.callsOutsideFrame,
      r.stats.unbalancedFrames,
      r.stats.bonesDropped,
      r.stats.fieldRowsDropped,
      r.stats.idsOutOfRange,
    ]).toEqual([2, 2, 2, 2, 2]);
    expect(r.reader.frameCount).toBe(3);
  });

  it('calls outside a frame are refused one by one and counted', () => {
    const r = quiet({ recordBones: true });
    const schema = r.declareFields('agent', { hp: 'f32' });
    r.entity2D(1, 0, 0, 0);
    r.entityBatch(1, [1], [0, 0, 0], [0, 0, 0, 1]);
    r.entityColumns(1, { ids: [1], x: [0], y: [0], z: [0], qx: [0], qy: [0], qz: [0], qw: [1] });
    r.bones(1, 1, [0, 0, 0, 1], [0, 0, 0]);
    r.fields(1, schema, [1]);
    r.fieldColumns(schema, 1, [1], [[1]]);
    r.camera(0, 0, 0, 0, 0, 0, 1, 1);
    expect(r.stats.callsOutsideFrame).toBe(7);
    expect(r.stats.bonesDropped + r.stats.fieldRowsDropped).toBe(0);
    r.bonesEnabled = false;
    r.bones(1, 1, [0, 0, 0, 1], [0, 0, 0]); // bones off: nothing to refuse
    expect(r.stats.callsOutsideFrame).toBe(7);
    expect(r.reader.frameCount).toBe(0);
  });

  it('fieldColumns refuses a foreign schema and ids or columns that are not objects', () => {
    const r = quiet();
    const schema = r.declareFields('agent', { hp: 'f32' });
    const other = quiet().declareFields('agent', { hp: 'f32' });
    r.beginFrame(0, 1);
    r.entity(1, 0, 0, 0, 0, 0, 0, 1);
    const bad: Array<[unknown, unknown]> = [
      [null, [[5]]],
      [1, [[5]]],
      [[1], null],
      [[1], 5],
    ];
    for (const [ids, columns] of bad) r.fieldColumns(schema, 1, ids as number[], columns as number[][]);
    r.fieldColumns(other, 1, [1], [[5]]);
    expect(r.stats.fieldRowsDropped).toBe(5);
    r.fieldColumns(schema, 1, [1], [[5]]);
    r.endFrame();
    expect(r.stats.fieldRowsDropped).toBe(5);
    expect(warningsOf(r)).toEqual([
      "rewindable: fields(-1) must follow entity(-1) and use a schema of this recorder's declareFields; the fields were dropped",
    ]);
  });

  it('clear() with a frame open ends it first; frame numbers go on, and ids start new lives', () => {
    const r = quiet();
    r.beginFrame(0, 1);
    r.entity(4, 1, 2, 3, 0, 0, 0, 1);
    r.endFrame();
    const firstLife = r.entities.lookup(4);
    r.beginFrame(1, 1);
    r.entity(4, 1, 2, 3, 0, 0, 0, 1);
    expect([r.inFrame, r.currentFrame]).toEqual([true, 1]);
    r.clear();
    expect([r.inFrame, r.currentFrame, r.reader.frameCount, r.stats.framesRecorded]).toEqual([false, 2, 0, 2]);
    expect(r.entities.lookup(4)).toBe(-1);
    r.entity(4, 0, 0, 0, 0, 0, 0, 1); // the open frame was closed: outside
    expect(r.stats.callsOutsideFrame).toBe(1);
    r.beginFrame(0, 1); // time may restart after clear
    r.entity(4, 9, 9, 9, 0, 0, 0, 1);
    r.endFrame();
    expect([r.reader.oldestFrame, r.reader.newestFrame]).toEqual([2, 2]);
    const h = new FrameHeader();
    r.reader.readHeader(2, h);
    expect([h.time, h.entityCount, h.hasCamera]).toEqual([0, 1, false]);
    expect(r.entities.lookup(4)).toBeGreaterThanOrEqual(0);
    expect(r.entities.spawnFrames[r.entities.lookup(4)]).toBe(2);
    expect(firstLife).toBeGreaterThanOrEqual(0);
  });

  it('a frame larger than the arena keeps its header: counts, draw state and fields rows dropped, warned once', () => {
    const r = quiet({ arenaBytes: 4096, maxEntitiesPerFrame: 1000 });
    const schema = r.declareFields('agent', { hp: 'f32' });
    for (let f = 0; f < 2; f++) {
      r.beginFrame(f, 1);
      for (let i = 0; i < 300; i++) {
        r.entity(i, i, 0, 0, 0, 0, 0, 1);
        if (i < 4) r.fields(i, schema, [i]);
      }
      r.entity(5, 0, 0, 0, 0, 0, 0, 1); // a duplicate, dropped while resolving
      r.draw.line(Channel.AI, 0, 0, 0, 1, 1, 1, 0xff);
      r.draw.line(Channel.AI, Number.NaN, 0, 0, 1, 1, 1, 0xff); // invalid: sanitized count
      r.event('hit', 1, 0, 0, 0);
      r.endFrame();
    }
    const h = new FrameHeader();
    expect(r.reader.readHeader(1, h)).toBe(true);
    expect([h.truncated, h.entityCount, h.droppedEntities, h.primitiveCount, h.eventCount, h.sanitized]).toEqual([
      true,
      0,
      301,
      0,
      0,
      1,
    ]);
    expect(r.reader.entityCountOf(1)).toBe(0);
    expect(r.stats.framesTruncated).toBe(2);
    expect(r.stats.fieldRowsDropped).toBe(8);
    expect(r.stats.framesRecorded).toBe(2);
    // The frame's upper bound: header, 301 staged entities, the line, the event and the field rows.
    expect(warningsOf(r)).toEqual([
      'rewindable: entity id 5 was recorded twice in one frame; the second record was dropped',
      'rewindable: frame 0 needs 6204 bytes, more than the whole arena; only its header was kept',
    ]);
  });

  it('display and displayColumns are refused outside a frame, after another id, and for a count that does not match', () => {
    const r = quiet();
    r.display(1, 1, 1, 1);
    r.beginFrame(0, 1);
    r.display(1, 1, 1, 1); // nothing recorded yet
    r.entity2D(1, 0, 0, 0);
    r.display(2, 1, 1, 1); // another id
    r.entityColumns(2, {
      ids: [3, 4],
      x: [0, 0],
      y: [0, 0],
      z: [0, 0],
      qx: [0, 0],
      qy: [0, 0],
      qz: [0, 0],
      qw: [1, 1],
    });
    r.displayColumns(1, { scaleX: [2], scaleY: [2], alpha: [1] }); // count differs
    r.displayColumns(2, { scaleX: [2, 3], scaleY: [2, 3], alpha: [0.5, 1], visible: [0, 1] });
    r.endFrame();
    expect(r.stats.displayDropped).toBe(4);
    r.displayColumns(2, { scaleX: [2, 3], scaleY: [2, 3], alpha: [0.5, 1] }); // outside
    expect(r.stats.displayDropped).toBe(5);
  });

  it("a frame's sanitized count adds every kind of repair, and each stays in its own frame", () => {
    const r = quiet();
    const schema = r.declareFields('agent', { hp: 'f32' });
    r.beginFrame(0, 1);
    r.entity(1, Number.NaN, 0, 0, 0, 0, 0, 1); // the entity resolver's repair
    r.entity(2, 0, 0, 0, 0, 0, 0, 1, 300); // flags: the frame's repairs
    r.fields(2, schema, [Number.POSITIVE_INFINITY]); // a field value
    r.draw.point(Channel.AI, Number.NaN, 0, 0, 1, 0xff); // an invalid primitive
    r.draw.point(Channel.AI, 0, Number.NaN, 0, 1, 0xff);
    r.camera(0, 0, 0, 0, 0, 0, 0, 1); // a zero quaternion
    r.endFrame();
    r.beginFrame(1, 1);
    r.entity(1, 0, 0, 0, 0, 0, 0, 1);
    r.endFrame();
    const h = new FrameHeader();
    r.reader.readHeader(0, h);
    expect(h.sanitized).toBe(6);
    r.reader.readHeader(1, h);
    expect(h.sanitized).toBe(0);
  });

  it('the channels a frame draws on are in use, also when everything drawn on one was over its budget', () => {
    const r = quiet();
    r.channels.setBudget(Channel.PHYSICS, 0);
    expect(r.channels.usedMask).toBe(0);
    r.beginFrame(0, 1);
    r.entity(1, 0, 0, 0, 0, 0, 0, 1);
    r.endFrame();
    expect(r.channels.usedMask).toBe(0);
    r.beginFrame(1, 1);
    r.draw.line(Channel.PHYSICS, 0, 0, 0, 1, 1, 1, 0xff); // over the budget of 0: dropped
    r.endFrame();
    expect(r.channels.usedMask).toBe(1 << Channel.PHYSICS);
    r.beginFrame(2, 1);
    r.draw.text(Channel.ANIMATION, 0, 0, 0, 'hi', 0xff);
    r.endFrame();
    expect(r.channels.usedMask).toBe((1 << Channel.PHYSICS) | (1 << Channel.ANIMATION));
  });

  it('a frame whose fields ran over their budget is flagged, and only that frame', () => {
    const r = quiet({ fieldBudgetBytes: 64 });
    const schema = r.declareFields('agent', { a: 'f32', b: 'f32', c: 'f32', d: 'f32' });
    const h = new FrameHeader();
    for (const n of [1, 40, 1]) {
      r.beginFrame(r.currentFrame, 1);
      for (let i = 0; i < n; i++) {
        r.entity(i, 0, 0, 0, 0, 0, 0, 1);
        r.fields(i, schema, [1, 2, 3, 4]);
      }
      r.endFrame();
    }
    const flags = [0, 1, 2].map((f) => {
      r.reader.readHeader(f, h);
      return h.fieldsOverBudget;
    });
    expect(flags).toEqual([false, true, false]);
    expect(r.stats.fieldRowsOverBudget).toBeGreaterThan(0);
  });

  it('entity and entity2D take integer ids in [0, maxEntityId), at most maxEntitiesPerFrame a frame', () => {
    const r = quiet({ maxEntityId: 100, maxEntitiesPerFrame: 4 });
    r.beginFrame(0, 1);
    for (const id of [-1, 100, 1.5, Number.NaN]) {
      r.entity(id, 0, 0, 0, 0, 0, 0, 1);
      r.entity2D(id, 0, 0, 0);
    }
    expect(r.stats.idsOutOfRange).toBe(8);
    r.entity(99, 1, 0, 0, 0, 0, 0, 1);
    r.entity2D(0, 2, 0, 0);
    r.entity(7, 3, 0, 0, 0, 0, 0, 1);
    r.entity2D(8, 4, 0, 0);
    r.entity(9, 5, 0, 0, 0, 0, 0, 1); // a fifth: over capacity
    r.entity2D(10, 6, 0, 0);
    r.endFrame();
    expect([r.stats.idsOutOfRange, r.stats.entitiesOverCapacity]).toEqual([8, 2]);
    const ids: number[] = [];
    for (const id of [99, 0, 7, 8, 9, 10]) if (r.entities.lookup(id) >= 0) ids.push(id);
    expect(ids).toEqual([99, 0, 7, 8]);
    expect(r.reader.entityCountOf(0)).toBe(4);
  });
});
