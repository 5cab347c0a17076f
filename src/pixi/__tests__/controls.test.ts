import { describe, expect, it } from 'vitest';
import type { Application } from 'pixi.js';
import { quatToAngleZ } from '../../core/math/quat';
import { CAM_ANGLE, CAM_X, CAM_Y, CAM_ZOOM } from '../camera';
import { overlayFixture, run } from './testGame';

const { make, release } = overlayFixture();

function key(k: string, shift = false): KeyboardEvent {
  const e = new KeyboardEvent('keydown', { key: k, shiftKey: shift, bubbles: true, cancelable: true });
  window.dispatchEvent(e);
  return e;
}

/** Dispatches a pointer event on the canvas at view coordinates (x, y), as a mouse would. */
function pointer(app: Application, type: string, x: number, y: number, button = 0): void {
  // pixi hit-tests what it rendered last, as in a running game.
  app.renderer.render(app.stage);
  const rect = app.canvas.getBoundingClientRect();
  const init: PointerEventInit = {
    clientX: rect.left + x,
    clientY: rect.top + y,
    pointerId: 1,
    pointerType: 'mouse',
    isPrimary: true,
    button,
    buttons: type === 'pointerup' ? 0 : 1 << (button === 2 ? 1 : 0),
    bubbles: true,
    cancelable: true,
  };
  const target = type === 'pointerdown' ? app.canvas : type === 'pointermove' ? document : window;
  target.dispatchEvent(new PointerEvent(type, init));
}

function wheel(app: Application, x: number, y: number, deltaY: number): void {
  app.renderer.render(app.stage);
  const rect = app.canvas.getBoundingClientRect();
  app.canvas.dispatchEvent(
    new WheelEvent('wheel', {
      clientX: rect.left + x,
      clientY: rect.top + y,
      deltaY,
      deltaMode: 0,
      bubbles: true,
      cancelable: true,
    }),
  );
}

describe('keyboard', () => {
  it('runs every documented command', async () => {
    const { game, overlay } = await make(3);
    run(game, overlay, 60);
    const time = () => overlay.playback.time;
    const reader = game.recorder.reader;
    // While live only the live keys work: an arrow does not pause the game.
    key('ArrowLeft');
    expect(overlay.isPaused).toBe(false);
    // Space pauses at the newest frame.
    const space = key(' ');
    expect(space.defaultPrevented).toBe(true);
    expect(overlay.isPaused).toBe(true);
    expect(time().position).toBe(reader.newestFrame);
    key('ArrowLeft');
    expect(time().position).toBe(reader.newestFrame - 1);
    key(',');
    expect(time().position).toBe(reader.newestFrame - 2);
    key('ArrowLeft', true);
    expect(time().position).toBe(reader.newestFrame - 12);
    key('ArrowRight', true);
    key('.');
    key('ArrowRight');
    expect(time().position).toBe(reader.newestFrame);
    key('Home');
    expect(time().position).toBe(reader.oldestFrame);
    key('End');
    expect(time().position).toBe(reader.newestFrame);
    // Speed: ] faster, [ slower, down through slow motion into reverse.
    expect(time().speed).toBe(1);
    key(']');
    expect(time().speed).toBe(2);
    key('[');
    key('[');
    expect(time().speed).toBe(0.5);
    for (let i = 0; i < 4; i++) key('[');
    expect(time().speed).toBeLessThan(0);
    // Space: play / pause.
    key(' ');
    expect(time().state).toBe('playing');
    key(' ');
    expect(time().state).toBe('paused');
    // B: bookmark at the viewed frame.
    key('Home');
    key('b');
    expect(overlay.playback.bookmarks.list().map((b) => b.frame)).toEqual([reader.oldestFrame]);
    // C: camera mode; G: back to the game camera; Q/E rotate.
    key('c');
    expect(overlay.camera.mode).toBe('free');
    key('q');
    overlay.update(0);
    expect(overlay.camera.current[CAM_ANGLE]).toBeCloseTo(-overlay.options.rotateStep, 9);
    key('g');
    expect(overlay.camera.mode).toBe('game');
    // H: help; typing in a field is ignored.
    key('h');
    expect(overlay.help.root.visible).toBe(true);
    expect(overlay.help.value).toContain('resume the game');
    key('h');
    expect(overlay.help.root.visible).toBe(false);
    const input = document.createElement('input');
    document.body.appendChild(input);
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    expect(overlay.isPaused).toBe(true);
    input.remove();
    // Esc resumes the game.
    key('Escape');
    expect(overlay.isPaused).toBe(false);
    // B while live bookmarks the newest frame without pausing.
    run(game, overlay, 2);
    key('b');
    expect(overlay.isPaused).toBe(false);
    expect(overlay.playback.bookmarks.list().length).toBe(2);
  });

  it('can be rebound and turned off', async () => {
    const { game, overlay } = await make(1, { keys: { togglePlay: ['p'] } });
    run(game, overlay, 5);
    key(' ');
    expect(overlay.isPaused).toBe(false);
    key('P');
    expect(overlay.isPaused).toBe(true);
    release();
    // Separate live keys: Space stays the game's while it runs, and plays/pauses the replay.
    const split = await make(1, { liveKeys: { togglePlay: ['p'] } });
    run(split.game, split.overlay, 5);
    key(' ');
    expect(split.overlay.isPaused).toBe(false);
    key('p');
    expect(split.overlay.isPaused).toBe(true);
    key(' ');
    expect(split.overlay.state).toBe('playing');
    // The help lists both: P while the game runs, Space in the replay.
    const help = split.overlay.keyboard?.describe().join('\n') ?? '';
    expect(help).toMatch(/^P\s+.*\(while the game runs\)$/m);
    expect(help).toMatch(/^Space\s+.*\(in the replay\)$/m);
    release();
    const off = await make(1, { keyboard: false });
    run(off.game, off.overlay, 5);
    key(' ');
    expect(off.overlay.isPaused).toBe(false);
  });
});

describe('keyboard: focus', () => {
  it('handles keys pressed on a focused panel control even when the panel stops them, never keys typed into a text field', async () => {
    const { game, overlay } = await make(1);
    run(game, overlay, 30);
    overlay.pause();
    // A panel that stops key events from propagating (lil-gui does), with a checkbox and text fields.
    const panel = document.createElement('div');
    panel.addEventListener('keydown', (e) => e.stopPropagation());
    const box = document.createElement('input');
    box.type = 'checkbox';
    const text = document.createElement('input');
    const number = document.createElement('input');
    number.type = 'number';
    const area = document.createElement('textarea');
    const editable = document.createElement('div');
    editable.contentEditable = 'true';
    panel.append(box, text, number, area, editable);
    document.body.append(panel);
    try {
      const press = (el: HTMLElement, k: string): KeyboardEvent => {
        const e = new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true });
        el.dispatchEvent(e);
        return e;
      };
      box.focus();
      const p0 = overlay.playback.time.position;
      const e = press(box, 'ArrowLeft');
      expect(overlay.playback.time.position).toBe(p0 - 1);
      expect(e.defaultPrevented).toBe(true);
      // The handled key took the focus off the checkbox (Space would toggle it on key up).
      expect(document.activeElement).not.toBe(box);
      for (const el of [text, number, area, editable]) {
        el.focus();
        const typed = press(el, 'ArrowLeft');
        press(el, 'b');
        expect(typed.defaultPrevented).toBe(false);
        expect(document.activeElement).toBe(el);
      }
      expect(overlay.playback.time.position).toBe(p0 - 1);
      expect(overlay.playback.bookmarks.list().length).toBe(0);
    } finally {
      panel.remove();
    }
  });

  it('runs the video-editor keys: J/K/L, ↑/↓ markers, 1-9 channels', async () => {
    const { game, overlay } = await make(1);
    run(game, overlay, 60);
    key(' ');
    const t = () => overlay.playback.time;
    t().seek(30);
    key('l');
    key('l');
    expect([t().state, t().speed]).toEqual(['playing', 2]);
    key('k');
    expect(t().state).toBe('paused');
    key('j');
    expect([t().state, t().speed]).toEqual(['playing', -1]);
    key('k');
    overlay.playback.bookmarks.add(20, '');
    overlay.playback.bookmarks.add(45, '');
    t().seek(30);
    key('ArrowDown');
    expect(t().position).toBe(45);
    key('ArrowUp');
    key('ArrowUp');
    expect(t().position).toBe(20);
    const mask = overlay.channelMask;
    key('2');
    expect(overlay.channelMask).toBe((mask ^ 2) >>> 0);
    key('2');
    expect(overlay.channelMask).toBe(mask);
    // A key of a channel that is not registered changes nothing.
    key('9');
    expect(overlay.channelMask).toBe(mask);
  });
});

describe('camera', () => {
  it('follows the recorded game camera, interpolated', async () => {
    const { game, overlay } = await make(2);
    for (let i = 0; i < 20; i++) {
      game.camX = 100 + i * 10;
      game.camY = 50 - i * 2;
      game.camZoom = 1 + i * 0.05;
      game.camAngle = i * 0.02;
      run(game, overlay, 1);
    }
    overlay.pause();
    overlay.playback.time.seek(10.5);
    overlay.update(0);
    const w = game.world;
    expect(w.pivot.x).toBeCloseTo(100 + 10.5 * 10, 3);
    expect(w.pivot.y).toBeCloseTo(50 - 10.5 * 2, 3);
    expect(w.scale.x).toBeCloseTo(1 + 10.5 * 0.05, 5);
    expect(w.rotation).toBeCloseTo(-10.5 * 0.02, 2);
    expect(w.position.x).toBe(160);
    expect(w.position.y).toBe(120);
    // The overlay's world layers follow the world container.
    expect(overlay.worldOverlay.pivot.x).toBe(w.pivot.x);
    expect(overlay.worldOverlay.scale.x).toBe(w.scale.x);
    const s = overlay.sample;
    expect(quatToAngleZ(s.camera, 3)).toBeCloseTo(0.21, 2);
  });

  it('drag pans, the wheel zooms around the cursor, right-drag rotates, a click selects and follows', async () => {
    const { app, game, overlay } = await make(4);
    run(game, overlay, 30);
    const saved = [
      game.world.x,
      game.world.y,
      game.world.pivot.x,
      game.world.pivot.y,
      game.world.scale.x,
      game.world.rotation,
    ];
    overlay.pause();
    overlay.update(0);
    expect(overlay.camera.mode).toBe('game');
    const cam = overlay.camera.current;
    const x0 = cam[CAM_X];
    const y0 = cam[CAM_Y];
    // Drag 50 px right, 20 px down: the camera moves the other way (zoom 1, no rotation).
    pointer(app, 'pointerdown', 100, 100);
    pointer(app, 'pointermove', 130, 110);
    pointer(app, 'pointermove', 150, 120);
    pointer(app, 'pointerup', 150, 120);
    overlay.update(0);
    expect(overlay.camera.mode).toBe('free');
    expect(cam[CAM_X]).toBeCloseTo(x0 - 50, 6);
    expect(cam[CAM_Y]).toBeCloseTo(y0 - 20, 6);
    expect(game.world.pivot.x).toBeCloseTo(x0 - 50, 6);
    // Wheel: zoom in around (60, 80); the world point under the cursor stays there.
    const before = game.world.toLocal({ x: 60, y: 80 });
    wheel(app, 60, 80, -200);
    overlay.update(0);
    expect(cam[CAM_ZOOM]).toBeGreaterThan(1.2);
    const after = game.world.toLocal({ x: 60, y: 80 });
    expect(after.x).toBeCloseTo(before.x, 4);
    expect(after.y).toBeCloseTo(before.y, 4);
    // Right-drag a quarter turn around the centre (160, 120).
    pointer(app, 'pointerdown', 260, 120, 2);
    pointer(app, 'pointermove', 160 + 100 * Math.cos(0.3), 120 + 100 * Math.sin(0.3), 2);
    pointer(app, 'pointermove', 160, 220, 2);
    pointer(app, 'pointerup', 160, 220, 2);
    overlay.update(0);
    expect(cam[CAM_ANGLE]).toBeCloseTo(-Math.PI / 2, 6);
    expect(game.world.rotation).toBeCloseTo(Math.PI / 2, 6);
    // Click on an entity: selected and followed (the camera centres on it). On this 240 px high
    // screen the full timeline takes the bottom half: fold it so that it does not take the click.
    overlay.timeline.setCollapsed(true);
    const target = game.sprites.get(3)!;
    const screen = target.getGlobalPosition();
    pointer(app, 'pointerdown', screen.x + 1, screen.y);
    pointer(app, 'pointerup', screen.x + 1, screen.y);
    overlay.update(0);
    const handle = game.recorder.reader.entities.lookup(3);
    expect(overlay.selected).toBe(handle);
    expect(overlay.camera.mode).toBe('follow');
    expect(overlay.info.value).toContain('id 3');
    overlay.playback.time.seek(5);
    overlay.update(0);
    expect(cam[CAM_X]).toBe(Math.fround(game.history[5].get(3)!.x));
    expect(cam[CAM_Y]).toBe(Math.fround(game.history[5].get(3)!.y));
    // Back to the game camera, then resume: the world container is exactly as before.
    overlay.runCommand('gameCamera');
    overlay.update(0);
    expect(game.world.pivot.x).toBeCloseTo(160, 3);
    overlay.resume();
    expect([
      game.world.x,
      game.world.y,
      game.world.pivot.x,
      game.world.pivot.y,
      game.world.scale.x,
      game.world.rotation,
    ]).toEqual(saved);
    expect(overlay.selected).toBe(-1);
  });
});

describe('timeline', () => {
  it('seeks on click and drag, and redraws markers only when they change', async () => {
    const { app, game, overlay } = await make(3);
    run(game, overlay, 50);
    game.despawn(2);
    run(game, overlay, 50);
    overlay.pause();
    overlay.update(0);
    const tl = overlay.timeline;
    expect(tl.root.visible).toBe(true);
    const reader = game.recorder.reader;
    const y = app.screen.height - 12 - 10;
    // Click a quarter of the way along the bar.
    const x = tl.barX + tl.barWidth * 0.25;
    pointer(app, 'pointerdown', x, y);
    pointer(app, 'pointerup', x, y);
    overlay.update(0);
    const expected = reader.oldestFrame + 0.25 * (reader.newestFrame - reader.oldestFrame);
    expect(overlay.playback.time.position).toBeCloseTo(expected, 6);
    // Drag to the end.
    pointer(app, 'pointerdown', tl.barX + 10, y);
    pointer(app, 'pointermove', tl.barX + tl.barWidth * 0.6, y);
    expect(overlay.playback.time.position).toBeCloseTo(tl.frameAt(tl.barX + tl.barWidth * 0.6), 6);
    pointer(app, 'pointermove', tl.barX + tl.barWidth + 40, y);
    pointer(app, 'pointerup', tl.barX + tl.barWidth + 40, y);
    expect(overlay.playback.time.position).toBe(reader.newestFrame);
    // A seek is not a camera drag.
    expect(overlay.camera.mode).toBe('game');
    // Markers: drawn once, redrawn when a bookmark is added, not on every update.
    const redraws = tl.markerRedrawCount;
    for (let i = 0; i < 10; i++) overlay.update(1 / 60);
    expect(tl.markerRedrawCount).toBe(redraws);
    overlay.addBookmark('here');
    overlay.update(0);
    expect(tl.markerRedrawCount).toBe(redraws + 1);
    // The playhead sits at the position.
    overlay.playback.time.seek(reader.oldestFrame);
    overlay.update(0);
    expect(tl.xOf(reader.oldestFrame)).toBe(tl.barX);
    // Hidden while live.
    overlay.resume();
    expect(tl.root.visible).toBe(false);
  });
});
