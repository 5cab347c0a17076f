/**
 * A scripted recording and readers of saveReplay's output for saveReplayMutation*.test.ts: the file
 * parsed by the strict decoder (with where the frames array starts), a frame's ring bytes, the
 * handle of a given life, and the BAD_INPUT error of a call.
 */
import { expect } from 'vitest';
import { Channel } from '../../core/store/ChannelRegistry';
import { Recorder } from '../../core/record/Recorder';
import { H_TOTAL_WORDS } from '../../core/format/layout';
import { MsgDecoder } from '../MsgDecoder';
import { ReplayError } from '../ReplayError';

/** The BAD_INPUT error of `fn`, as [path, detail]. */
export function badInput(fn: () => unknown): [string | undefined, string] {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ReplayError);
    const r = e as ReplayError;
    expect(r.code).toBe('BAD_INPUT');
    return [r.path, r.detail];
  }
  throw new Error('did not throw');
}

/**
 * Six frames in a ring of four (frames 2 to 5 are saved): id 10 in every frame (kind 'a', labelled),
 * id 11 in frames 0 and 1 only (not saved), id 12 in frames 2 and 3 then despawned, and again as a
 * new life in 4 and 5, id 13 (never described) from frame 3, with flags in the high bits.
 */
export function scripted(): Recorder {
  const rec = new Recorder({ maxFrames: 4, arenaBytes: 64 * 1024, onWarning: () => {} });
  rec.channels.register('net', { color: 0x123456, budget: 9 });
  rec.describeSkeleton('b', [-1, 0]);
  rec.eventKind('boom');
  const schema = rec.declareFields('b', { hp: 'f32', mode: 'enum' });
  const values = new Float64Array(2);
  rec.texture('hero.png');
  rec.staticLayers.set('grid', (d) => d.line(Channel.AI, 0, 0, 0, 5, 5, 0, 0x00ff00));
  for (let f = 0; f < 6; f++) {
    rec.beginFrame(f * 0.5, 0.5);
    rec.describe(10, 'a', 'ten');
    rec.entity(10, f, 0, 0, 0, 0, 0, 1);
    if (f < 2) {
      rec.describe(11, 'b');
      rec.entity(11, 0, f, 0, 0, 0, 0, 1);
      if (f === 1) rec.despawn(11);
    }
    if (f >= 2) {
      rec.describe(12, 'b', 'twelve');
      rec.entity(12, 1, 1, f, 0, 0, 0, 1);
      values[0] = f;
      values[1] = schema.code(f < 4 ? 'idle' : 'run');
      rec.fields(12, schema, values);
      if (f === 3) rec.despawn(12);
    }
    if (f >= 3) rec.entity(13, 2, 2, 2, 0, 0, 0, 1, 0x7f);
    if (f === 4) rec.event('boom', 10, 1, 2, 3);
    rec.endFrame();
  }
  return rec;
}

/** The file's parts as the strict decoder reads them, with where the frames array starts. */
export function parse(bytes: Uint8Array): { header: Map<string, unknown>; framesAt: number; frames: Uint8Array[] } {
  const d = new MsgDecoder(bytes);
  expect(d.decode(0, 'magic')).toBe('RWND');
  d.decode(d.position, 'version');
  const header = d.decode(d.position, 'header') as Map<string, unknown>;
  const framesAt = d.position;
  const frames = d.decode(framesAt, 'frames') as Uint8Array[];
  expect(d.position).toBe(bytes.length);
  return { header, framesAt, frames };
}

/** The ring's words of `frame` as bytes. */
export function ringBytes(rec: Recorder, frame: number): Uint8Array {
  const at = rec.ring.offsetOf(frame);
  const words = rec.ring.u32[at + H_TOTAL_WORDS];
  return rec.ring.u8.slice(at * 4, (at + words) * 4);
}

/** The handle of `id`'s life that spawned in `spawn`. */
export function handleOf(rec: Recorder, id: number, spawn: number): number {
  const t = rec.entities;
  for (let h = 0; h < t.highWater; h++) if (t.used[h] === 1 && t.ids[h] === id && t.spawnFrames[h] === spawn) return h;
  throw new Error(`no life of ${id} spawned in ${spawn}`);
}
