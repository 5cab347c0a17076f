import { describe, expect, it } from 'vitest';
import { PRIM_LINE, PRIM_SPHERE } from '../../format/layout';
import { PrimitiveBuffer } from '../../read/buffers';
import { Playback } from '../Playback';
import { MarkerKind } from '../MarkerIndex';
import { SampleBuffer } from '../SampleBuffer';
import { quietRecorder } from './helpers';

describe('Playback', () => {
  it('wires the parts to one reader and passes the options on', () => {
    const rec = quietRecorder();
    const pb = new Playback(rec.reader, {
      time: { maxSpeed: 4, loop: true },
      sampler: { concrete: true, teleportThreshold: 9 },
    });
    expect(pb.time.reader).toBe(rec.reader);
    expect(pb.sampler.reader).toBe(rec.reader);
    expect(pb.lifetimes.reader).toBe(rec.reader);
    expect(pb.markers.reader).toBe(rec.reader);
    expect(pb.markers.bookmarks).toBe(pb.bookmarks);
    expect(pb.time.loop).toBe(true);
    pb.time.setSpeed(100);
    expect(pb.time.speed).toBe(4);
    expect(pb.sampler.concrete).toBe(true);
    expect(pb.sampler.teleportThreshold).toBe(9);
    pb.dispose();
  });

  it('update refreshes the markers and advances time; sample reads the current position', () => {
    const rec = quietRecorder();
    const pb = new Playback(rec.reader);
    const out = new SampleBuffer();
    for (let f = 0; f < 20; f++) {
      rec.beginFrame(f * 0.1, 0.1);
      rec.entity(1, f, 0, 0, 0, 0, 0, 1);
      if (f === 12) rec.entity(2, 0, 0, 0, 0, 0, 0, 1);
      rec.endFrame();
      pb.update(0.1);
    }
    expect(pb.time.position).toBe(19);
    expect(pb.sample(out)).toBe(true);
    expect(out.positions[0]).toBe(19);
    // Spawns of 1 (frame 0) and 2 (frame 12), the despawn of 2 (frame 12).
    const list = Array.from({ length: pb.markers.count }, (_, i) => `${pb.markers.kinds[i]}@${pb.markers.frames[i]}`);
    expect(list).toEqual([`${MarkerKind.SPAWN}@0`, `${MarkerKind.SPAWN}@12`, `${MarkerKind.DESPAWN}@12`]);
    pb.time.seek(5);
    pb.time.play();
    pb.update(0.25);
    expect(pb.time.position).toBeCloseTo(7.5, 5);
    pb.sample(out);
    expect(out.positions[0]).toBeCloseTo(7.5, 5);
    const v = pb.markers.version;
    pb.bookmarks.add(7, 'look');
    pb.update(0);
    expect(pb.markers.version).toBeGreaterThan(v);
    expect(pb.markers.kinds[pb.markers.count - 1]).toBe(MarkerKind.BOOKMARK);
  });

  it('trail: positions of one unique id over a range, clamped to the ring and the life, with shifting indices', () => {
    const rec = quietRecorder({ maxFrames: 50 });
    for (let f = 0; f < 80; f++) {
      rec.beginFrame(f, 1);
      // Entities before id 7 come and go, so id 7's index in the frame keeps changing.
      for (let id = 0; id < 7; id++) if ((f + id) % 3 !== 0) rec.entity(id, 0, 0, 0, 0, 0, 0, 1);
      if (f >= 40 && f < 70) rec.entity(7, f * 2, f * 3, 1, 0, 0, 0, 1);
      rec.endFrame();
    }
    const pb = new Playback(rec.reader);
    const h = rec.entities.lookup(7);
    const xyz = new Float32Array(3 * 100);
    const frames = new Int32Array(100);
    // Whole life inside the ring: [40, 69].
    let n = pb.trail(h, 0, 1000, xyz, frames);
    expect(n).toBe(30);
    for (let i = 0; i < n; i++) {
      const f = 40 + i;
      expect(frames[i]).toBe(f);
      expect([xyz[i * 3], xyz[i * 3 + 1], xyz[i * 3 + 2]]).toEqual([f * 2, f * 3, 1]);
    }
    // A fractional, reversed range: whole frames 51..55.
    n = pb.trail(h, 55.5, 50.5, xyz, frames);
    expect(n).toBe(5);
    expect(Array.from(frames.subarray(0, 5))).toEqual([51, 52, 53, 54, 55]);
    // The output capacity bounds the points written.
    n = pb.trail(h, 40, 69, new Float32Array(3 * 4), undefined);
    expect(n).toBe(4);
    n = pb.trail(h, 40, 69, xyz, new Int32Array(2));
    expect(n).toBe(2);
    // Unknown handles, empty ranges, NaN.
    expect(pb.trail(-1, 0, 100, xyz)).toBe(0);
    expect(pb.trail(99999, 0, 100, xyz)).toBe(0);
    expect(pb.trail(h, 70, 79, xyz)).toBe(0);
    expect(pb.trail(h, Number.NaN, 79, xyz)).toBe(0);
  });

  it("primitivesAt filters one frame's debug primitives by channel mask", () => {
    const rec = quietRecorder();
    rec.beginFrame(0, 1);
    rec.draw.sphere(0, 1, 2, 3, 4, 0xff0000);
    rec.draw.line(1, 0, 0, 0, 5, 5, 5, 0x00ff00);
    rec.draw.line(2, 0, 0, 0, 6, 6, 6, 0x0000ff);
    rec.endFrame();
    const pb = new Playback(rec.reader);
    const out = new PrimitiveBuffer();
    expect(pb.primitivesAt(0, 0b011, out)).toBe(true);
    expect(out.count).toBe(2);
    expect([out.types[0], out.channels[0], out.colors[0]]).toEqual([PRIM_SPHERE, 0, 0xff0000]);
    expect([out.types[1], out.channels[1]]).toEqual([PRIM_LINE, 1]);
    expect(pb.primitivesAt(0.2, 0b100, out)).toBe(true); // rounds to frame 0
    expect(out.count).toBe(1);
    expect(out.data[3]).toBe(6);
    expect(pb.primitivesAt(5, 0xffffffff, out)).toBe(false);
    expect(pb.primitivesAt(Number.NaN, 1, out)).toBe(false);
  });
});
