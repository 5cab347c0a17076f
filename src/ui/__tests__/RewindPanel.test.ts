import { afterEach, describe, expect, it } from 'vitest';
import type { Application } from 'pixi.js';
import { Channel } from '../../core/store/ChannelRegistry';
import type { RewindOverlay } from '../../pixi/RewindOverlay';
import { Container } from 'pixi.js';
import { Recorder } from '../../core/record/Recorder';
import { RewindOverlay as Overlay } from '../../pixi/RewindOverlay';
import { createApp, run, setup, teardown } from '../../pixi/__tests__/testGame';
import { RewindPanel } from '../RewindPanel';

let current: { app: Application; overlay: RewindOverlay; panel: RewindPanel } | null = null;
afterEach(() => {
  if (current !== null) {
    current.panel.destroy();
    teardown(current.app, current.overlay);
  }
  current = null;
});

/** The clickable element of the button whose label (text or title) starts with `label`. */
function button(panel: RewindPanel, label: string): HTMLButtonElement {
  const all = [...panel.gui.domElement.querySelectorAll<HTMLButtonElement>('.lil-controller button')];
  const found = all.find((b) => (b.textContent ?? '').trim().startsWith(label) || b.title.startsWith(label));
  if (found === undefined)
    throw new Error(`no button "${label}" in ${all.map((b) => b.title || b.textContent).join(' | ')}`);
  return found;
}

/** The input of the controller whose name starts with `label`. */
function input(panel: RewindPanel, label: string): HTMLInputElement | HTMLSelectElement {
  const c = panel.gui.controllersRecursive().find((k) => k._name.startsWith(label));
  if (c === undefined) throw new Error(`no control "${label}"`);
  return c.domElement.querySelector('input, select') as HTMLInputElement | HTMLSelectElement;
}

async function make(
  options: ConstructorParameters<typeof RewindPanel>[1] = {},
  overlayOptions: Parameters<typeof setup>[1] = {},
) {
  const s = await setup(3, overlayOptions);
  const panel = new RewindPanel(s.overlay, { readoutIntervalMs: 0, ...options });
  current = { ...s, panel };
  return { ...s, panel };
}

describe('RewindPanel', () => {
  it('keeps its status readout current while the game runs, not only when paused', async () => {
    const { game, overlay, panel } = await make({ readoutIntervalMs: 10 });
    const status = () => (input(panel, 'state') as HTMLInputElement).value;
    run(game, overlay, 5);
    await new Promise((r) => setTimeout(r, 40));
    expect(status()).toBe(`live · ${game.recorder.reader.frameCount} frames held`);
    run(game, overlay, 7);
    await new Promise((r) => setTimeout(r, 40));
    expect(status()).toBe(`live · ${game.recorder.reader.frameCount} frames held`);
    expect(game.recorder.reader.frameCount).toBeGreaterThan(5);
  });

  it('sends playback commands and shows the overlay state', async () => {
    const { game, overlay, panel } = await make();
    run(game, overlay, 30);
    panel.refresh(); // (the readout timer, off here, notices the first frames)
    const reader = game.recorder.reader;
    expect(button(panel, 'pause game')).toBeDefined();
    button(panel, 'pause game').click();
    expect(overlay.isPaused).toBe(true);
    // The label follows the state.
    expect(button(panel, 'play')).toBeDefined();
    button(panel, 'step −1').click();
    expect(overlay.playback.time.position).toBe(reader.newestFrame - 1);
    button(panel, 'step +1').click();
    button(panel, 'oldest').click();
    expect(overlay.playback.time.position).toBe(reader.oldestFrame);
    button(panel, 'play').click();
    expect(overlay.state).toBe('playing');
    button(panel, 'pause').click();
    expect(overlay.state).toBe('paused');
    // Speed: a number field; reverse slow motion.
    const speed = input(panel, 'speed') as HTMLInputElement;
    speed.value = '-0.25';
    speed.dispatchEvent(new Event('input', { bubbles: true }));
    speed.dispatchEvent(new Event('change', { bubbles: true }));
    expect(overlay.playback.time.speed).toBe(-0.25);
    // The overlay's own commands show in the panel.
    overlay.runCommand('faster');
    expect(
      panel.gui
        .controllersRecursive()
        .find((c) => c._name === 'speed')!
        .getValue(),
    ).toBe(overlay.playback.time.speed);
    // Interpolation.
    const interp = input(panel, 'interpolate') as HTMLInputElement;
    interp.click();
    expect(overlay.interpolate).toBe(false);
    button(panel, 'resume game').click();
    expect(overlay.isPaused).toBe(false);
  });

  it('has one checkbox per registered channel, and bones', async () => {
    const { game, overlay, panel } = await make();
    const extra = game.recorder.channels.register('network', { color: 0x44ccff });
    run(game, overlay, 3);
    panel.refresh();
    const names = panel.gui.controllersRecursive().map((c) => c._name);
    for (const n of ['ai (1)', 'physics (2)', 'animation (3)', 'network (4)', 'bones (stick figures)'])
      expect(names).toContain(n);
    (input(panel, 'physics') as HTMLInputElement).click();
    expect(overlay.channelMask & (1 << Channel.PHYSICS)).toBe(0);
    (input(panel, 'network') as HTMLInputElement).click();
    expect(overlay.channelMask & (1 << extra)).toBe(0);
    overlay.setChannel(Channel.PHYSICS, true);
    expect((input(panel, 'physics') as HTMLInputElement).checked).toBe(true);
    (input(panel, 'bones') as HTMLInputElement).click();
    expect(overlay.showBones).toBe(false);
  });

  it('lists only the channels a game registered or drew on, bones only with a skeleton, and can start closed', async () => {
    const app = await createApp();
    const world = new Container();
    app.stage.addChild(world);
    const recorder = new Recorder({ onWarning: () => {} });
    const overlay = new Overlay(app, world, { find: () => null }, recorder, { onWarning: () => {} });
    const panel = new RewindPanel(overlay, { readoutIntervalMs: 0, closed: true });
    current = { app, overlay, panel };
    expect(panel.gui._closed).toBe(true);
    const names = () =>
      panel.gui
        .controllersRecursive()
        .filter((c) => c.domElement.style.display !== 'none')
        .map((c) => c._name.replace(/ \(.*\)$/, ''));
    const net = recorder.channels.register('network', { color: 0x44ccff });
    const frame = (draw: () => void) => {
      recorder.beginFrame(recorder.reader.frameCount, 1 / 60);
      recorder.entity(1, 0, 0, 0, 0, 0, 0, 1);
      draw();
      recorder.endFrame();
    };
    frame(() => recorder.draw.line(net, 0, 0, 0, 1, 1, 0, 0xffffff));
    panel.refresh();
    expect(names()).toContain('network');
    for (const hidden of ['ai', 'physics', 'animation', 'bones']) expect(names()).not.toContain(hidden);
    // Drawing on a built-in channel, a static layer on another, a skeleton: their rows appear.
    frame(() => recorder.draw.sphere(Channel.PHYSICS, 0, 0, 0, 4, 0xffffff));
    recorder.staticLayers.set('grid', (d) => d.line(Channel.AI, 0, 0, 0, 9, 0, 0, 0x444444));
    recorder.describeSkeleton('walker', [-1, 0]);
    panel.refresh();
    expect(names()).toEqual(expect.arrayContaining(['network', 'physics', 'ai', 'bones']));
    expect(names()).not.toContain('animation');
    // The rows still work.
    (input(panel, 'physics') as HTMLInputElement).click();
    expect(overlay.channelMask & (1 << Channel.PHYSICS)).toBe(0);
    // A game that names a built-in channel uses it.
    recorder.channels.register('animation');
    panel.refresh();
    expect(names()).toContain('animation');
  });

  it('switches camera modes, adds bookmarks and jumps to them', async () => {
    const { game, overlay, panel } = await make();
    run(game, overlay, 40);
    overlay.pause();
    const mode = input(panel, 'mode') as HTMLSelectElement;
    mode.selectedIndex = 1;
    mode.dispatchEvent(new Event('change', { bubbles: true }));
    expect(overlay.camera.mode).toBe('free');
    button(panel, 'back to game camera').click();
    expect(overlay.camera.mode).toBe('game');
    overlay.playback.time.seek(12);
    const label = input(panel, 'label') as HTMLInputElement;
    label.value = 'the bug';
    label.dispatchEvent(new Event('input', { bubbles: true }));
    button(panel, 'add bookmark').click();
    expect(overlay.playback.bookmarks.list()).toEqual([expect.objectContaining({ frame: 12, label: 'the bug' })]);
    overlay.playback.time.seek(30);
    const row = panel.gui.domElement.querySelector('[data-bookmark]') as HTMLElement;
    expect(row.textContent).toContain('frame 12');
    expect((row.querySelector('input') as HTMLInputElement).value).toBe('the bug');
    (row.querySelector('[data-action="jump"]') as HTMLButtonElement).click();
    expect(overlay.playback.time.position).toBe(12);
  });

  it('shows save/load buttons only with callbacks, and calls them', async () => {
    let saves = 0;
    let loads = 0;
    const { panel, overlay } = await make({ onSave: () => saves++, onLoad: () => loads++ });
    button(panel, 'save replay').click();
    button(panel, 'load replay').click();
    expect([saves, loads]).toEqual([1, 1]);
    expect(overlay.source).toBe('live');
    const plain = new RewindPanel(overlay, { readoutIntervalMs: 0 });
    expect(() => button(plain, 'save replay')).toThrow();
    plain.destroy();
    expect(plain.gui.domElement.isConnected).toBe(false);
  });

  it('names the keys of the actual bindings, live and paused; "resume game" only works while paused', async () => {
    const { game, overlay, panel } = await make({}, { liveKeys: { togglePlay: ['p'] }, keys: { stepBack: ['a'] } });
    run(game, overlay, 10);
    panel.refresh();
    expect(button(panel, 'pause game').textContent?.trim()).toBe('pause game (P)');
    expect(button(panel, 'resume game').disabled).toBe(true);
    expect(button(panel, 'step −1').title).toBe('step −1 (A)');
    expect(button(panel, 'next marker').title).toBe('next marker (↓)');
    overlay.pause();
    expect(button(panel, 'play').textContent?.trim()).toBe('play (Space)');
    expect(button(panel, 'resume game').disabled).toBe(false);
  });

  it('renames and deletes bookmarks from their rows', async () => {
    const { game, overlay, panel } = await make();
    run(game, overlay, 30);
    overlay.pause();
    overlay.playback.time.seek(7);
    const id = overlay.addBookmark();
    const row = () => panel.gui.domElement.querySelector(`[data-bookmark="${id}"]`) as HTMLElement | null;
    expect(row()?.textContent).toContain('frame 7');
    const field = row()!.querySelector('input') as HTMLInputElement;
    expect(field.value).toBe('');
    field.value = ' guard loses sight ';
    field.dispatchEvent(new Event('input', { bubbles: true }));
    field.dispatchEvent(new Event('blur'));
    expect(overlay.playback.bookmarks.get(id)).toEqual({ id, frame: 7, label: 'guard loses sight' });
    (row()!.querySelector('[data-action="delete"]') as HTMLButtonElement).click();
    expect(overlay.playback.bookmarks.get(id)).toBeUndefined();
    expect(row()).toBeNull();
  });

  it('shows itself only while paused with onlyWhilePaused', async () => {
    const { game, overlay, panel } = await make({ onlyWhilePaused: true });
    run(game, overlay, 5);
    expect(panel.gui.domElement.style.display).toBe('none');
    overlay.pause();
    expect(panel.gui.domElement.style.display).toBe('');
    overlay.resume();
    expect(panel.gui.domElement.style.display).toBe('none');
  });

  it('offers no pause while nothing is recorded', async () => {
    const { overlay, panel } = await make();
    expect(overlay.reader.frameCount).toBe(0);
    const b = button(panel, 'nothing recorded');
    expect(b.disabled).toBe(true);
    overlay.runCommand('togglePlay');
    expect(overlay.isPaused).toBe(false);
  });
});
