import { Packr, Unpackr } from 'msgpackr';
import { expect } from 'vitest';
import { Channel } from '../../core/store/ChannelRegistry';
import { Recorder } from '../../core/record/Recorder';
import type { RecorderOptions } from '../../core/record/RecorderOptions';
import type { FrameReader } from '../../core/read/FrameReader';
import { EntityBuffer, EventBuffer, FrameHeader, PrimitiveBuffer } from '../../core/read/buffers';
import { HANDLE_MASK, HEADER_WORDS, H_ENTITY_COUNT, H_TOTAL_WORDS } from '../../core/format/layout';
import { CHECKSUM_SEED, checksumWords } from '../checksum';
import { REPLAY_MAGIC_BYTES } from '../replayFormat';
import { rng } from '../../../tests/helpers/random';

/** The shared seeded PRNG: the same seed gives the same recording and the same mutations. */
export { rng };

export interface RecordingSpec {
  frames: number;
  entities: number;
  seed: number;
  options?: Partial<RecorderOptions>;
  /** Frame index at which one huge frame (more words than the arena) is recorded. */
  hugeFrameAt?: number;
  /** Whether entities record custom fields (default true; false makes a file any format version holds). */
  fields?: boolean;
}

/**
 * A recording that uses every part of the frame format: entities with kinds, labels, despawns and
 * respawns, bones, every primitive type on built-in and custom channels, merged texts, events with
 * and without subjects, a camera, sanitised input, budget overruns, static layers, and a ring that
 * has wrapped and evicted.
 */
export function makeRecording(spec: RecordingSpec): Recorder {
  const r = rng(spec.seed);
  const rec = new Recorder({ maxFrames: 64, arenaBytes: 96 * 1024, onWarning: () => {}, ...spec.options });
  const net = rec.channels.register('network', { color: 0x44ccff, budget: 6 });
  rec.channels.register('audio', { color: 0x123456, budget: 32 });
  rec.describeSkeleton('humanoid', [-1, 0, 1, 1, 0]);
  rec.describeSkeleton('bird', [-1, 0]);
  rec.eventKind('spawn');
  const withFields = spec.fields !== false;
  const HUMAN = withFields
    ? rec.declareFields('humanoid', {
        hp: 'f32',
        state: 'enum',
        target: 'entity',
        v: 'vec3',
        on: 'bool',
        n: 'i32',
        s: 'u8',
      })
    : null;
  const BIRD = withFields ? rec.declareFields('bird', { alt: 'f32', flying: 'bool' }) : null;
  const hv = new Float64Array(9);
  rec.staticLayers.set('navgrid', (d) => {
    for (let i = 0; i < 12; i++) d.aabb(Channel.AI, i * 32, 0, 0, i * 32 + 30, 30, 0, 0x335533);
    d.text(Channel.PHYSICS, 1, 2, 3, 'static label', 0xffffff);
  });
  rec.staticLayers.set('walls', (d) => d.line(net, 0, 0, 0, 100, 100, 0, 0xff0000));
  const ids: number[] = [];
  let nextId = 100;
  for (let i = 0; i < spec.entities; i++) ids.push(nextId++);
  const rot = new Float32Array(5 * 4);
  const off = new Float32Array(5 * 3);
  for (let f = 0; f < spec.frames; f++) {
    rec.beginFrame(f / 30 + 1000, 1 / 30);
    if (f % 3 !== 0) rec.camera(f, -f, 2, 0, 0, Math.sin(f / 10), Math.cos(f / 10), 1 + f / 100);
    if (f === spec.hugeFrameAt) {
      for (let i = 0; i < 30000; i++) rec.entity(50000 + i, i, i, 0, 0, 0, 0, 1);
    }
    for (let i = 0; i < ids.length; i++) {
      if (r() < 0.03) {
        rec.despawn(ids[i]);
        rec.event('despawn', ids[i], 0, 0, 0, f);
        // Half the time the same id comes back as a new life, else a new id appears.
        if (r() < 0.5) ids[i] = nextId++;
      }
      const id = ids[i];
      rec.describe(id, ['humanoid', 'bird', 'crate'][id % 3], id % 4 === 0 ? undefined : `unit ${id}`);
      const x = id * 10 + f * (id % 5),
        y = f * 0.25 - id;
      const bad = r() < 0.01;
      rec.entity(id, bad ? NaN : x, y, 0.5, 0, 0, Math.sin(f / 7 + id), Math.cos(f / 7 + id), (id + f) & 0x7f);
      if (HUMAN !== null && BIRD !== null && id % 3 !== 2) {
        if (id % 3 === 0) {
          hv[0] = r() < 0.02 ? NaN : 100 - f - id / 3;
          hv[1] = HUMAN.code(['patrol', 'chase', 'attack'][(f + id) % 3]);
          hv[2] = f % 4 === 0 ? -1 : ids[(i + 1) % ids.length];
          hv[3] = x / 10;
          hv[4] = -y;
          hv[5] = f;
          hv[6] = (f + id) & 1;
          hv[7] = f * 1000 - id;
          hv[8] = (f * 3) & 255;
          rec.fields(id, HUMAN, hv);
        } else if (f % 5 !== 1) {
          rec.fields(id, BIRD, [f * 0.5, f & 1]);
        }
      }
      if (id % 3 === 0) {
        for (let b = 0; b < 5; b++) {
          const t = Math.sin(f * 0.1 + b) * 0.3;
          rot[b * 4] = 0;
          rot[b * 4 + 1] = 0;
          rot[b * 4 + 2] = Math.sin(t / 2);
          rot[b * 4 + 3] = Math.cos(t / 2);
          off[b * 3] = b * 3;
          off[b * 3 + 1] = 1.5 + r();
          off[b * 3 + 2] = 0;
        }
        rec.bones(id, id % 2 === 0 ? 5 : 2, rot, off);
      }
      if (i % 4 === 0) {
        rec.draw.sphere(Channel.AI, x, y, 0, 10 + i, 0xffcc00);
        rec.draw.arrow(Channel.PHYSICS, x, y, 0, x + 5, y + 5, 0, 2, 0x00ff00);
        rec.draw.text(Channel.AI, x, y - 2, 0, `state ${f % 5} é ${id}`, 0xffffff);
        rec.draw.text(Channel.AI, x + 1, y - 2, 0, 'second line', 0xffffff);
      }
    }
    rec.draw.point(Channel.ANIMATION, f, f, f, 3, 0x010203);
    rec.draw.line(Channel.PHYSICS, 0, 0, 0, f, 1, 2, 0x445566);
    rec.draw.aabb(Channel.PHYSICS, -1, -2, -3, f, 2, 3, 0x778899);
    for (let k = 0; k < 8; k++) rec.draw.point(net, k, f, 0, 1, 0xabcdef); // over the budget of 6
    if (f % 5 === 0) rec.event('hit', ids[f % ids.length], f, 2 * f, 0, f * 1.5);
    if (f % 7 === 0) rec.event('explosion', -1, 1, 2, 3, 4);
    rec.endFrame();
  }
  return rec;
}

const packr = new Packr({ useRecords: false, variableMapSize: true });
const unpackr = new Unpackr({ useRecords: false, mapsAsObjects: false });

/** A file taken apart with a generic MessagePack decoder: version, header map, frame bins. */
export interface FileParts {
  version: number;
  header: Map<string, unknown>;
  frames: Uint8Array[];
}

export function splitFile(bytes: Uint8Array): FileParts {
  const values = unpackr.unpackMultiple(bytes) as unknown[];
  expect(values[0]).toBe('RWND');
  return {
    version: values[1] as number,
    header: values[2] as Map<string, unknown>,
    frames: (values[3] as Uint8Array[]).map((b) => Uint8Array.from(b)),
  };
}

/** Re-encodes parts as a file (with any MessagePack value in them, valid or not). */
export function joinFile(version: unknown, header: unknown, frames: unknown, magic = 'RWND'): Uint8Array {
  const chunks = [packr.pack(magic), packr.pack(version), packr.pack(header), packr.pack(frames)].map((b) =>
    Uint8Array.from(b),
  );
  const out = new Uint8Array(chunks.reduce((s, c) => s + c.length, 0));
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}

/** The header's nested map at a dotted path (for edits in tests). */
export function sub(header: Map<string, unknown>, ...keys: string[]): Map<string, unknown> {
  let m = header;
  for (const k of keys) m = m.get(k) as Map<string, unknown>;
  return m;
}

/** Recomputes the checksum of uncompressed frame bins (after a test edits their words). */
export function fixChecksum(parts: FileParts): void {
  let h = CHECKSUM_SEED;
  for (const b of parts.frames) {
    const words = new Uint32Array(b.length / 4);
    new Uint8Array(words.buffer).set(b);
    h = checksumWords(words, 0, words.length, h);
  }
  sub(parts.header, 'frames').set('checksum', h);
}

/** A frame bin's words as an editable copy; `put` writes them back. */
export function frameWords(parts: FileParts, i: number): Uint32Array {
  const words = new Uint32Array(parts.frames[i].length / 4);
  new Uint8Array(words.buffer).set(parts.frames[i]);
  return words;
}

export function putFrameWords(parts: FileParts, i: number, words: Uint32Array): void {
  parts.frames[i] = new Uint8Array(words.buffer.slice(0));
}

/** A hash of everything a recorder holds: ring arena, indices, entity table (to prove it unchanged). */
export function recorderFingerprint(rec: Recorder): string {
  const r = rec.ring;
  let h = checksumWords(r.u32, 0, r.u32.length, CHECKSUM_SEED);
  const t = rec.entities;
  for (const a of [t.ids, t.spawnFrames, t.lastSeen, t.kindOf])
    h = checksumWords(new Uint32Array(a.buffer), 0, a.length, h);
  return [
    h,
    r.frameCount,
    r.oldestFrame,
    r.newestFrame,
    r.bytesUsed,
    t.highWater,
    t.liveCount,
    t.labels.join('|'),
    t.kinds.join('|'),
    rec.channels
      .list()
      .map((c) => `${c.name}:${c.color}:${c.budget}`)
      .join(','),
    rec.eventKinds.join(','),
  ].join(';');
}

/**
 * A frame's words with each entity word's handle replaced by the unique id it names (id and spawn
 * frame, as a string) and its flags: handles are a file's own numbering (a loader may renumber
 * sparse ones), unique ids are what they mean.
 */
export function frameWordsByLife(r: FrameReader, frame: number): Array<number | string> {
  const at = r.ring.offsetOf(frame);
  const u = r.ring.u32;
  const words: Array<number | string> = Array.from(u.subarray(at, at + u[at + H_TOTAL_WORDS]));
  const n = u[at + H_ENTITY_COUNT];
  for (let i = 0; i < n; i++) {
    const w = u[at + HEADER_WORDS + i];
    const h = w & HANDLE_MASK;
    words[HEADER_WORDS + i] = `id ${r.entities.ids[h]} from ${r.entities.spawnFrames[h]} flags ${w >>> 24}`;
  }
  return words;
}

/** Asserts that two readers hold the same frames, decoding every part of every frame. */
export function expectSameFrames(a: FrameReader, b: FrameReader): void {
  expect(b.frameCount).toBe(a.frameCount);
  if (a.frameCount === 0) return;
  expect(b.oldestFrame).toBe(a.oldestFrame);
  expect(b.newestFrame).toBe(a.newestFrame);
  const ha = new FrameHeader(),
    hb = new FrameHeader();
  const ea = new EntityBuffer(),
    eb = new EntityBuffer();
  const pa = new PrimitiveBuffer(),
    pb = new PrimitiveBuffer();
  const va = new EventBuffer(),
    vb = new EventBuffer();
  for (let f = a.oldestFrame; f <= a.newestFrame; f++) {
    // The stored words themselves are identical (handles naming the same lives)...
    expect(frameWordsByLife(b, f)).toEqual(frameWordsByLife(a, f));
    // ...and so is everything decoded from them.
    expect(a.readHeader(f, ha) && b.readHeader(f, hb)).toBe(true);
    expect({ ...hb, camera: Array.from(hb.camera) }).toEqual({ ...ha, camera: Array.from(ha.camera) });
    expect(a.timeOf(f)).toBe(b.timeOf(f));
    expect(a.readEntities(f, ea) && b.readEntities(f, eb)).toBe(true);
    expect(eb.count).toBe(ea.count);
    const n = ea.count;
    expect(Array.from(eb.flags.subarray(0, n))).toEqual(Array.from(ea.flags.subarray(0, n)));
    expect(Array.from(eb.positions.subarray(0, n * 3))).toEqual(Array.from(ea.positions.subarray(0, n * 3)));
    expect(Array.from(eb.rotations.subarray(0, n * 4))).toEqual(Array.from(ea.rotations.subarray(0, n * 4)));
    expect(Array.from(eb.boneStart.subarray(0, n))).toEqual(Array.from(ea.boneStart.subarray(0, n)));
    expect(eb.boneTotal).toBe(ea.boneTotal);
    expect(Array.from(eb.boneRotations.subarray(0, ea.boneTotal * 4))).toEqual(
      Array.from(ea.boneRotations.subarray(0, ea.boneTotal * 4)),
    );
    expect(Array.from(eb.boneOffsets.subarray(0, ea.boneTotal * 3))).toEqual(
      Array.from(ea.boneOffsets.subarray(0, ea.boneTotal * 3)),
    );
    // Entity metadata of every entity in the frame.
    for (let i = 0; i < n; i++) {
      const h = ea.handles[i];
      const hb = eb.handles[i];
      expect(b.entities.ids[hb]).toBe(a.entities.ids[h]);
      expect(b.entities.spawnFrames[hb]).toBe(a.entities.spawnFrames[h]);
      expect(b.entities.labels[hb]).toBe(a.entities.labels[h]);
      expect(b.entities.isEnded(hb)).toBe(a.entities.isEnded(h));
      const ka = a.entities.kindOf[h],
        kb = b.entities.kindOf[hb];
      expect(kb < 0 ? undefined : b.entities.kinds[kb]).toBe(ka < 0 ? undefined : a.entities.kinds[ka]);
    }
    expect(a.readPrimitives(f, 0xffffffff, pa) && b.readPrimitives(f, 0xffffffff, pb)).toBe(true);
    expect(pb.count).toBe(pa.count);
    for (let i = 0; i < pa.count; i++) {
      expect([pb.types[i], pb.channels[i], pb.colors[i], pb.text(i)]).toEqual([
        pa.types[i],
        pa.channels[i],
        pa.colors[i],
        pa.text(i),
      ]);
      expect(Array.from(pb.data.subarray(i * 7, i * 7 + 7))).toEqual(Array.from(pa.data.subarray(i * 7, i * 7 + 7)));
    }
    expect(a.readEvents(f, va) && b.readEvents(f, vb)).toBe(true);
    expect(vb.count).toBe(va.count);
    expect(Array.from(vb.kinds.subarray(0, va.count))).toEqual(Array.from(va.kinds.subarray(0, va.count)));
    expect(Array.from(vb.subjects.subarray(0, va.count))).toEqual(Array.from(va.subjects.subarray(0, va.count)));
    expect(Array.from(vb.data.subarray(0, va.count * 4))).toEqual(Array.from(va.data.subarray(0, va.count * 4)));
  }
}

export { REPLAY_MAGIC_BYTES };
