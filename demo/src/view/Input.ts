/**
 * Keyboard and mouse → the game's `PlayerInput`. Only writes the input record; the game reads it
 * when (and only when) it steps, so input while paused changes nothing in the simulation.
 */
import type { Container } from 'pixi.js';
import type { Game } from '../game/Game';

const MOVE_KEYS = new Set(['KeyW', 'KeyA', 'KeyS', 'KeyD']);

export class Input {
  private readonly down = new Set<string>();
  private mouseX = 0;
  private mouseY = 0;
  private hasMouse = false;
  private mouseDown = false;
  private jumpQueued = false;
  /** Wheel/Q/E zoom requests, applied by `apply`. */
  private zoomSteps = 0;
  private listeners: Array<() => void> = [];

  public constructor(
    canvas: HTMLCanvasElement,
    private readonly game: Game,
  ) {
    const on = <K extends keyof WindowEventMap>(
      target: Window | HTMLElement,
      type: K,
      fn: (e: WindowEventMap[K]) => void,
    ): void => {
      target.addEventListener(type, fn as EventListener);
      this.listeners.push(() => target.removeEventListener(type, fn as EventListener));
    };
    on(window, 'keydown', (e) => {
      // While paused the keys belong to the replay overlay; nothing queues up for the game.
      if (e.target instanceof HTMLInputElement || this.game.paused) return;
      if (MOVE_KEYS.has(e.code) || e.code === 'Space' || e.code === 'KeyF') {
        this.game.input.idle = 0;
        e.preventDefault();
      }
      if (e.code === 'Space' && !e.repeat) this.jumpQueued = true;
      if (e.code === 'KeyQ') this.zoomSteps--;
      if (e.code === 'KeyE') this.zoomSteps++;
      this.down.add(e.code);
    });
    on(window, 'keyup', (e) => {
      this.down.delete(e.code);
    });
    on(window, 'blur', () => {
      this.down.clear();
      this.mouseDown = false;
    });
    on(canvas, 'pointermove', (e) => {
      const r = canvas.getBoundingClientRect();
      this.mouseX = e.clientX - r.left;
      this.mouseY = e.clientY - r.top;
      this.hasMouse = true;
    });
    on(canvas, 'pointerdown', (e) => {
      if (e.button !== 0 || this.game.paused) return;
      this.mouseDown = true;
      this.game.input.idle = 0;
    });
    on(window, 'pointerup', () => {
      this.mouseDown = false;
    });
    on(canvas, 'wheel', (e) => {
      if (this.game.paused) return; // the overlay's manual camera zooms while paused
      this.zoomSteps += e.deltaY < 0 ? 1 : -1;
      e.preventDefault();
    });
  }

  /** Writes this frame's input into the game (call before a step). `world` maps the mouse to the world. */
  public apply(world: Container, dt: number): void {
    const i = this.game.input;
    const k = this.down;
    i.moveX = (k.has('KeyD') ? 1 : 0) - (k.has('KeyA') ? 1 : 0);
    i.moveY = (k.has('KeyS') ? 1 : 0) - (k.has('KeyW') ? 1 : 0);
    i.jump = this.jumpQueued;
    this.jumpQueued = false;
    i.fire = this.mouseDown || k.has('KeyF');
    if (i.moveX !== 0 || i.moveY !== 0 || i.fire) i.idle = 0;
    else i.idle += dt;
    if (this.hasMouse) {
      const p = world.toLocal({ x: this.mouseX, y: this.mouseY });
      i.aimX = p.x;
      i.aimY = p.y;
      i.hasAim = true;
    }
    if (this.zoomSteps !== 0) {
      const cam = this.game.camera;
      cam.baseZoom = Math.max(0.35, Math.min(2.5, cam.baseZoom * 1.12 ** this.zoomSteps));
      this.zoomSteps = 0;
    }
  }

  /** Whether a key is held (for the HUD). */
  public isDown(code: string): boolean {
    return this.down.has(code);
  }

  public destroy(): void {
    for (const off of this.listeners) off();
    this.listeners = [];
  }
}
