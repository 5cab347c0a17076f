import { describe, expect, it } from 'vitest';
import { EntityBuffer } from '../../read/buffers';
import { SampleBuffer } from '../SampleBuffer';

describe('SampleBuffer columns', () => {
  it("are an EntityBuffer's plus its own, grown together with their contents kept", () => {
    const out = new SampleBuffer(3, 2);
    expect(out).toBeInstanceOf(EntityBuffer);
    const rows = out.handles.length;
    expect(rows).toBeGreaterThanOrEqual(3);
    for (const col of [out.ids, out.spawnFrames, out.presence, out.flags, out.boneStart]) expect(col.length).toBe(rows);
    expect(out.positions.length).toBe(rows * 3);
    expect(out.rotations.length).toBe(rows * 4);
    expect(out.boneRotations.length).toBeGreaterThanOrEqual(2 * 4);
    out.ids[2] = 42;
    out.spawnFrames[2] = 7;
    out.presence[2] = 3;
    out.handles[2] = 9;
    out.ensure(rows * 5);
    const grown = out.handles.length;
    expect(grown).toBeGreaterThanOrEqual(rows * 5);
    for (const col of [out.ids, out.spawnFrames, out.presence]) expect(col.length).toBe(grown);
    expect([out.ids[2], out.spawnFrames[2], out.presence[2], out.handles[2]]).toEqual([42, 7, 3, 9]);
  });
});
