import { describe, expect, it } from 'vitest';
import type { FrameReader } from '../../core/read/FrameReader';
import { Playback } from '../../core/playback/Playback';
import { Recorder } from '../../core/record/Recorder';
import { loadReplay } from '../../replay/loadReplay';
import { LiveError } from '../LiveError';
import { LiveSender } from '../LiveSender';
import { LiveStore } from '../LiveStore';
import { LiveValidator } from '../LiveValidator';
import { LiveMessageType, encodeMessage } from '../protocol';
import { LoopbackTransport } from './helpers';

/** Every field of the life of `id` at `frame`, by name (enum values by name), as `Playback.fields` reads them. */
function fieldsOf(reader: FrameReader, id: number, frame: number): Record<string, unknown> | null {
  const pb = new Playback(reader);
  let handle = -1;
  pb.lifetimes.forEach((h) => {
    if (pb.lifetimes.id(h) === id && pb.lifetimes.presentAt(h, frame)) handle = h;
  });
  if (handle < 0) return null;
  const out = new Float64Array(3);
  const values: Record<string, unknown> = {};
  for (const info of pb.fields.schemaOf(handle)) {
    const how = pb.fields.valueAt(handle, info.index, frame, out);
    if (how === 0) values[info.name] = 'none';
    else if (info.type === 'enum') values[info.name] = pb.fields.enumName(handle, info.index, out[0]) ?? null;
    else values[info.name] = Array.from(out.subarray(0, info.components));
  }
  return values;
}

/** A game whose agents record every field type; enum names appear at run time (one per 7 frames). */
function fieldGame() {
  const recorder = new Recorder({ maxFrames: 16, maxEntitiesPerFrame: 64, onWarning: () => {} });
  const agent = recorder.declareFields('agent', {
    health: 'f32',
    ammo: 'i32',
    stamina: 'u8',
    grounded: 'bool',
    state: 'enum',
    target: 'entity',
    velocity: 'vec3',
  });
  const v = new Float64Array(agent.slots);
  let frame = 0;
  const step = (): void => {
    const f = frame++;
    recorder.beginFrame(f / 60, 1 / 60);
    for (let id = 1; id <= 5; id++) {
      recorder.entity(id, id, f, 0, 0, 0, 0, 1);
      if (id === 5) continue; // an entity without fields
      v[0] = id * 10 + f / 4;
      v[1] = -id * f;
      v[2] = (f + id) & 255;
      v[3] = (f + id) % 2;
      v[4] = agent.code(`state ${Math.floor(f / 7) + (id % 2)}`);
      v[5] = id === 1 ? -1 : id - 1;
      v[6] = f;
      v[7] = -f;
      v[8] = id / 2;
      recorder.fields(id, agent, v);
    }
    recorder.endFrame();
  };
  return { recorder, agent, step };
}

describe('LiveSender → LiveStore: custom fields', () => {
  it('streams the field schemas, the enum names interned at run time and every value; a saved range keeps them', () => {
    const game = fieldGame();
    const store = new LiveStore({ maxBytes: 4 << 20, maxFrames: 1024 });
    new LiveSender(game.recorder, new LoopbackTransport((b) => store.accept(b)), { game: 'test', buildId: 'b1' });
    const expected: Array<Array<Record<string, unknown> | null>> = [];
    for (let f = 0; f < 60; f++) {
      game.step();
      expected.push([1, 2, 3, 4, 5].map((id) => fieldsOf(game.recorder.reader, id, f)));
    }
    expect(game.agent.enumNames.length).toBe(10);
    expect(expected[30][1]).toEqual({
      health: [20 + 30 / 4],
      ammo: [-60],
      stamina: [32],
      grounded: [0],
      state: 'state 4',
      target: [1],
      velocity: [30, -30, 1],
    });
    expect(expected[30][4]).toEqual({});
    // The game's ring holds 16 frames; the store holds them all, with the fields the game recorded.
    expect(store.fieldSchemas.list().map((s) => [s.kind, s.fields.map((i) => `${i.name}:${i.type}`)])).toEqual([
      [
        'agent',
        ['health:f32', 'ammo:i32', 'stamina:u8', 'grounded:bool', 'state:enum', 'target:entity', 'velocity:vec3'],
      ],
    ]);
    expect(store.fieldSchemas.list()[0].enumNames).toEqual(game.agent.enumNames);
    expect(game.recorder.reader.oldestFrame).toBeGreaterThan(40);
    for (let f = 0; f < 60; f++)
      expect(
        [1, 2, 3, 4, 5].map((id) => fieldsOf(store.reader, id, f)),
        `frame ${f}`,
      ).toEqual(expected[f]);

    const loaded = loadReplay(store.saveRange(10, 50));
    expect(loaded.reader.fieldSchemas.list()[0].enumNames).toEqual(game.agent.enumNames);
    for (let f = 10; f <= 50; f++)
      for (let id = 1; id <= 5; id++)
        expect(fieldsOf(loaded.reader, id, f), `saved frame ${f}, id ${id}`).toEqual(fieldsOf(store.reader, id, f));
    expect(fieldsOf(loaded.reader, 3, 20)?.state).toBe('state 3');
  });

  it('the validator refuses field sections its schemas do not describe, and schemas that change', () => {
    const game = fieldGame();
    const sent: Uint8Array[] = [];
    new LiveSender(game.recorder, new LoopbackTransport((b) => sent.push(b)), { game: 'test', buildId: 'b1' });
    for (let f = 0; f < 10; f++) game.step();
    const types = sent.map((b) => b[0]);
    const metaAt = types.indexOf(LiveMessageType.META);
    const frameAt = types.indexOf(LiveMessageType.FRAME);
    expect(metaAt).toBeGreaterThan(0);
    expect(frameAt).toBeGreaterThan(metaAt);

    // The whole stream is accepted.
    const ok = new LiveValidator();
    for (const b of sent) ok.accept(b);
    expect(ok.fieldSchemas.list()[0].enumNames).toEqual(['state 1', 'state 0', 'state 2']);

    // A frame with fields, without the META that declares them: refused like a file's unknown schema.
    const noMeta = new LiveValidator();
    noMeta.accept(sent[0]);
    noMeta.accept(encodeMessage(LiveMessageType.META, { kinds: ['agent'] }));
    expect(() => noMeta.accept(sent[frameAt])).toThrow(/schema 0 is not among the 0 field schemas/);

    // An enum code past the names announced: refused.
    const v = new LiveValidator();
    v.accept(sent[0]);
    const meta = (names: string[], types: number[] = [0, 1, 2, 3, 4, 5, 6]) =>
      encodeMessage(LiveMessageType.META, {
        kinds: ['agent'],
        fieldSchemas: [
          {
            kind: 'agent',
            names: ['health', 'ammo', 'stamina', 'grounded', 'state', 'target', 'velocity'],
            types,
            enumNames: names,
          },
        ],
      });
    v.accept(meta([]));
    expect(() => v.accept(sent[frameAt])).toThrow(/enum code 0 of row 0 names none of the 0 names/);
    v.accept(meta(['state 0', 'state 1']));
    const next = types.indexOf(LiveMessageType.FRAME, frameAt + 1);
    expect(v.accept(sent[next])).toBe(LiveMessageType.FRAME);
    // Names are never renamed or removed, fields never change, kinds must be known.
    expect(() => v.accept(meta(['state 1', 'state 0']))).toThrow(LiveError);
    expect(() => v.accept(meta(['state 0']))).toThrow(/never removed/);
    expect(() => v.accept(meta(['state 0', 'state 1'], [0, 1, 2, 3, 4, 5, 0]))).toThrow(/changed/);
    expect(() => v.accept(meta(['a', 'a']))).toThrow(/listed twice/);
    expect(() =>
      v.accept(
        encodeMessage(LiveMessageType.META, {
          fieldSchemas: [{ kind: 'ghost', names: ['x'], types: [0], enumNames: [] }],
        }),
      ),
    ).toThrow(/not among the kinds/);
  });
});
