import { afterEach, describe, expect, it } from 'vitest';
import type { Application } from 'pixi.js';
import type { Playback } from '../../core/playback/Playback';
import type { RewindOverlay } from '../../pixi/RewindOverlay';
import { run, setup, teardown, type TestGame } from '../../pixi/__tests__/testGame';
import { EntityInspector, type EntityInspectorOptions } from '../inspector/EntityInspector';
import type { InspectorFieldInfo, InspectorFieldSource } from '../inspector/fieldSource';

let current: { app: Application; overlay: RewindOverlay; inspector: EntityInspector } | null = null;
afterEach(() => {
  if (current !== null) {
    current.inspector.destroy();
    teardown(current.app, current.overlay);
  }
  current = null;
});

const STATES = ['patrol', 'chase', 'attack'];
const SCHEMA: InspectorFieldInfo[] = [
  { name: 'health', type: 'f32', index: 0, components: 1 },
  { name: 'state', type: 'enum', index: 1, components: 1 },
  { name: 'target', type: 'entity', index: 2, components: 1 },
  { name: 'velocity', type: 'vec3', index: 3, components: 3 },
  { name: 'grounded', type: 'bool', index: 4, components: 1 },
];

/**
 * Custom fields computed from the frame: health 100 − frame/2, state by 10-frame blocks, the target
 * is entity 2 (none on frames divisible by 7), velocity (frame, −1, 0.5), grounded on even frames.
 * Absent outside the life; an id-1 mover has fields, the others none.
 */
function fakeFields(playback: Playback): InspectorFieldSource & { seriesCalls: number } {
  const lt = playback.lifetimes;
  const at = (field: number, f: number, out: Float64Array, o: number): void => {
    switch (field) {
      case 0:
        out[o] = 100 - f / 2;
        break;
      case 1:
        out[o] = Math.floor(f / 10) % 3;
        break;
      case 2:
        out[o] = f % 7 === 0 ? Number.NaN : 2;
        break;
      case 3:
        out[o] = f;
        out[o + 1] = -1;
        out[o + 2] = 0.5;
        break;
      default:
        out[o] = f % 2 === 0 ? 1 : 0;
    }
  };
  const src = {
    seriesCalls: 0,
    schemaOf: (h: number) => (lt.id(h) === 1 ? SCHEMA : []),
    valueAt(h: number, field: number, position: number, out: Float64Array): number {
      const f = Math.round(position);
      if (lt.id(h) !== 1 || !lt.presentAt(h, f)) return 0;
      at(field, f, out, 0);
      return 2;
    },
    enumName: (_h: number, _field: number, code: number) => STATES[code],
    series(h: number, field: number, from: number, to: number, out: Float64Array): number {
      src.seriesCalls++;
      const c = SCHEMA[field].components;
      for (let f = from; f <= to; f++) {
        if (lt.presentAt(h, f)) at(field, f, out, (f - from) * c);
        else for (let k = 0; k < c; k++) out[(f - from) * c + k] = Number.NaN;
      }
      return to - from + 1;
    },
  };
  return src;
}

async function make(options: Partial<EntityInspectorOptions> = {}) {
  const s = await setup(3);
  let fields: ReturnType<typeof fakeFields> | null = null;
  const inspector = new EntityInspector(s.overlay, {
    fields: (pb) => {
      fields = fakeFields(pb);
      return fields;
    },
    ...options,
  });
  current = { app: s.app, overlay: s.overlay, inspector };
  return { ...s, inspector, fields: () => fields };
}

function handleOf(overlay: RewindOverlay, id: number): number {
  let found = -1;
  overlay.playback.lifetimes.forEach((h) => {
    if (overlay.playback.lifetimes.id(h) === id) found = h;
  });
  return found;
}

/** Pauses at `frame`, presents it and lets the inspector redraw (as one tick would). */
function show(game: TestGame, overlay: RewindOverlay, inspector: EntityInspector, frame: number): void {
  if (!overlay.isPaused) overlay.pause();
  overlay.playback.time.seek(frame);
  run(game, overlay, 1, 0);
  inspector.update();
}

function text(inspector: EntityInspector, handle: number, field: string): string {
  const el = inspector.root.querySelector(`.rw-card[data-handle="${handle}"] [data-field="${field}"]`);
  if (el === null) throw new Error(`no ${field} in the card of ${handle}`);
  return el.textContent ?? '';
}

describe('EntityInspector', () => {
  it('is hidden while the game runs and shows the selected entity while paused', async () => {
    const { game, overlay, inspector } = await make();
    run(game, overlay, 40);
    inspector.update();
    expect(inspector.isOpen).toBe(false);
    const h = handleOf(overlay, 2);
    show(game, overlay, inspector, 30);
    expect(inspector.isOpen).toBe(true);
    expect(inspector.shownHandles).toEqual([]);
    overlay.select(h);
    inspector.update();
    expect(inspector.shownHandles).toEqual([h]);
    const rec = game.history[30].get(2);
    expect(Number(text(inspector, h, 'x'))).toBeCloseTo(rec?.x ?? Number.NaN, 3);
    expect(Number(text(inspector, h, 'y'))).toBeCloseTo(rec?.y ?? Number.NaN, 3);
    expect(text(inspector, h, 'frame')).toBe('30');
    expect(text(inspector, h, 'bones')).toBe('0');
    // The key help takes the screen: the inspector steps aside (it would cover the help's keys).
    overlay.toggleHelp(true);
    inspector.update();
    expect(inspector.isOpen).toBe(false);
    overlay.toggleHelp(false);
    inspector.update();
    expect(inspector.isOpen).toBe(true);
    overlay.resume();
    run(game, overlay, 1);
    inspector.update();
    expect(inspector.isOpen).toBe(false);
  });

  it('leaves the overlay readout only the camera mode while open (it shows the rest), all of it otherwise', async () => {
    const { game, overlay, inspector } = await make();
    run(game, overlay, 40);
    const h = handleOf(overlay, 2);
    show(game, overlay, inspector, 30);
    overlay.select(h);
    inspector.update();
    expect(inspector.isOpen).toBe(true);
    expect(overlay.info.text.text).toBe(`camera: ${overlay.camera.mode}`);
    // The key help hides the inspector: the readout names the entity again.
    overlay.toggleHelp(true);
    inspector.update();
    expect(overlay.info.text.text).toContain('id 2');
    overlay.toggleHelp(false);
    inspector.update();
    expect(overlay.info.text.text).not.toContain('id 2');
    inspector.destroy();
    expect(overlay.info.text.text).toContain('id 2');
    expect(overlay.info.text.text).toContain('frames 0..');
  });

  it('shows every custom field at the viewed frame: numbers, enum names, entity links, vectors, booleans', async () => {
    const { game, overlay, inspector } = await make();
    run(game, overlay, 60);
    const h = handleOf(overlay, 1);
    show(game, overlay, inspector, 45);
    overlay.select(h);
    inspector.update();
    expect(text(inspector, h, 'field:health')).toBe('77.500');
    expect(text(inspector, h, 'field:state')).toBe('chase'); // floor(45 / 10) % 3 = 1
    expect(text(inspector, h, 'field:target')).toBe('→ #2');
    expect(text(inspector, h, 'field:velocity')).toBe('45 -1 0.500');
    expect(text(inspector, h, 'field:grounded')).toBe('false');
    show(game, overlay, inspector, 42);
    expect(text(inspector, h, 'field:target')).toBe('none');
    expect(text(inspector, h, 'field:grounded')).toBe('true');
    // Numbers and vectors are graphs, enums and booleans strips, entity references links only.
    const graphs = [...inspector.root.querySelectorAll<HTMLElement>(`.rw-card[data-handle="${h}"] [data-graph]`)];
    expect(graphs.map((g) => g.dataset.graph)).toEqual([
      'x',
      'y',
      'z',
      'field:health',
      'field:state',
      'field:velocity',
      'field:grounded',
    ]);
    // The link selects the referenced entity (id 2) in the overlay.
    show(game, overlay, inspector, 45);
    (inspector.root.querySelector(`.rw-card[data-handle="${h}"] [data-field="field:target"]`) as HTMLElement).click();
    expect(overlay.selected).toBe(handleOf(overlay, 2));
    // A mover without fields has no field rows.
    inspector.update();
    expect(inspector.root.querySelector(`.rw-card[data-handle="${overlay.selected}"] .rw-section`)).toBeNull();
  });

  it('copies the recorded state with the custom fields by name', async () => {
    const { game, overlay, inspector } = await make();
    run(game, overlay, 50);
    const h = handleOf(overlay, 1);
    show(game, overlay, inspector, 21);
    const state = inspector.stateOf(h);
    const rec = game.history[21].get(1);
    expect(state?.frame).toBe(21);
    expect(state?.id).toBe(1);
    expect(state?.kind).toBe('mover');
    expect(state?.present).toBe(true);
    expect(state?.position?.x).toBe(Math.fround(rec?.x ?? Number.NaN));
    expect(state?.position?.y).toBe(Math.fround(rec?.y ?? Number.NaN));
    expect(state?.fields).toEqual({
      health: 89.5,
      state: 'attack', // floor(21 / 10) % 3 = 2
      target: null,
      velocity: [21, -1, 0.5],
      grounded: false,
    });
    await inspector.copy(h);
    expect(JSON.parse(inspector.lastCopied)).toEqual(JSON.parse(JSON.stringify(state)));
  });

  it('graphs the frames held (or the in/out range) and reads the series again only when they change', async () => {
    const { game, overlay, inspector, fields } = await make();
    run(game, overlay, 80);
    const h = handleOf(overlay, 1);
    show(game, overlay, inspector, 60);
    overlay.select(h);
    inspector.update();
    const calls = fields()?.seriesCalls ?? 0;
    expect(calls).toBe(4); // health, state, velocity, grounded
    const updates = inspector.updateCount;
    // Nothing changed: nothing redrawn.
    inspector.update();
    expect(inspector.updateCount).toBe(updates);
    // A changed frame: values rewritten, series not read again.
    show(game, overlay, inspector, 61);
    expect(inspector.updateCount).toBe(updates + 1);
    expect(fields()?.seriesCalls).toBe(calls);
    expect(text(inspector, h, 'frame')).toBe('61');
    // An in/out range: the series are read for it.
    overlay.playback.time.setRange(20, 70);
    run(game, overlay, 1, 0);
    inspector.update();
    expect(fields()?.seriesCalls).toBe(calls + 4);
  });

  it('pins entities side by side; the list filters and picks; a new recording shown drops the pins', async () => {
    const { game, overlay, inspector } = await make();
    run(game, overlay, 40);
    const a = handleOf(overlay, 1);
    const b = handleOf(overlay, 3);
    show(game, overlay, inspector, 20);
    overlay.select(a);
    inspector.update();
    inspector.pin(a);
    overlay.select(b);
    inspector.update();
    expect(inspector.shownHandles).toEqual([b, a]);
    expect(inspector.pinned).toEqual([a]);
    inspector.toggleList(true);
    inspector.list.setFilter('mover');
    expect(inspector.list.shown.map((r) => r.id)).toEqual([1, 2, 3]);
    inspector.list.setFilter('3');
    expect(inspector.list.shown.map((r) => r.id)).toEqual([3]);
    inspector.list.setFilter('#2');
    expect(inspector.list.shown.map((r) => r.id)).toEqual([2]); // the label "mover #2"
    (inspector.root.querySelector('.rw-list-row') as HTMLElement).click();
    expect(overlay.selected).toBe(handleOf(overlay, 2));
    overlay.showReplay(game.recorder);
    run(game, overlay, 1, 0);
    inspector.update();
    expect(inspector.pinned).toEqual([]);
  });
});

describe('inspectState', () => {
  it('gives the recorded 2D display state (scale, alpha, visible, texture name), null where none was recorded', async () => {
    const { Recorder } = await import('../../core/record/Recorder');
    const { Playback } = await import('../../core/playback/Playback');
    const { inspectState } = await import('../inspector/entityState');
    const rec = new Recorder({ maxFrames: 8, onWarning: () => {} });
    const coin = rec.texture('coin_3');
    for (let f = 0; f < 3; f++) {
      rec.beginFrame(f / 60, 1 / 60);
      rec.entity(7, 10 + f, 20, 0, 0, 0, 0, 1, 0);
      if (f === 1) rec.display(7, 2, 0.5, 0.25, false, coin);
      rec.endFrame();
    }
    const pb = new Playback(rec.reader);
    pb.time.seek(1);
    const h = rec.entities.lookup(7);
    expect(inspectState(pb, h, null)?.display).toEqual({
      scaleX: 2,
      scaleY: 0.5,
      alpha: Math.fround(Math.round(0.25 * 65535) / 65535), // 16 bits, read into a Float32Array
      visible: false,
      texture: 'coin_3',
    });
    expect(inspectState(pb, h, null)?.position).toEqual({ x: 11, y: 20, z: 0 });
    pb.time.seek(2);
    expect(inspectState(pb, h, null)?.display).toBeNull();
  });
});
