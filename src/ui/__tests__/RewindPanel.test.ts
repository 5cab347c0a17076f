import { afterEach, describe, expect, it } from 'vitest';
import type { Application } from 'pixi.js';
import { Channel } from '../../core/store/ChannelRegistry';
import type { RewindOverlay } from '../../pixi/RewindOverlay';
import { run, setup, teardown } from '../../pixi/__tests__/testGame';
import { RewindPanel } from '../RewindPanel';

let current: { app: Application; overlay: RewindOverlay; panel: RewindPanel } | null = null;
afterEach(() => {
  if (current !== null) {
    current.panel.destroy();
    teardown(current.app, current.overlay);
  }
  current = null;
});

/** The clickable element of the button whose label starts with `label`. */
function button(panel: RewindPanel, label: string): HTMLButtonElement {
  const all = [...panel.gui.domElement.querySelectorAll('.lil-controller.lil-function button, .controller.function button')];
  const found = all.find((b) => (b.textContent ?? '').trim().startsWith(label));
  if (found === undefined) throw new Error(`no button "${label}" in ${all.map((b) => b.textContent).join(' | ')}`);
  return found as HTMLButtonElement;
}

/** The input of the controller whose name starts with `label`. */
function input(panel: RewindPanel, label: string): HTMLInputElement | HTMLSelectElement {
  const c = panel.gui.controllersRecursive().find((k) => k._name.startsWith(label));
  if (c === undefined) throw new Error(`no control "${label}"`);
  return c.domElement.querySelector('input, select') as HTMLInputElement | HTMLSelectElement;
}

async function make(options: ConstructorParameters<typeof RewindPanel>[1] = {}) {
  const s = await setup(3);
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
    expect(panel.gui.controllersRecursive().find((c) => c._name === 'speed')!.getValue()).toBe(overlay.playback.time.speed);
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
    for (const n of ['ai', 'physics', 'animation', 'network', 'bones (stick figures)']) expect(names).toContain(n);
    (input(panel, 'physics') as HTMLInputElement).click();
    expect(overlay.channelMask & (1 << Channel.PHYSICS)).toBe(0);
    (input(panel, 'network') as HTMLInputElement).click();
    expect(overlay.channelMask & (1 << extra)).toBe(0);
    overlay.setChannel(Channel.PHYSICS, true);
    expect((input(panel, 'physics') as HTMLInputElement).checked).toBe(true);
    (input(panel, 'bones') as HTMLInputElement).click();
    expect(overlay.showBones).toBe(false);
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
    button(panel, '⤷ the bug @12').click();
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
});
