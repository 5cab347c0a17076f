/**
 * A small deterministic pixi "game" for the overlay's browser tests and benchmark: sprites that
 * move, spawn and despawn, a camera, debug primitives on the built-in channels, and bones.
 */
import { Application, Container, Sprite, Texture } from 'pixi.js';
import { afterEach } from 'vitest';
import { Channel } from '../../core/store/ChannelRegistry';
import { Recorder } from '../../core/record/Recorder';
import type { RecorderOptions } from '../../core/record/RecorderOptions';
import type { EntityBinding } from '../binding';
import { RewindOverlay, type RewindOverlayOptions } from '../RewindOverlay';

/** One simulated entity. */
export interface TestEntity {
  id: number;
  kind: string;
  x: number;
  y: number;
  angle: number;
  vx: number;
  vy: number;
  flags: number;
  bones: number;
}

/** Creates a pixi application with a canvas in the page and no automatic ticker. */
export async function createApp(width = 320, height = 240): Promise<Application> {
  const app = new Application();
  await app.init({
    width,
    height,
    preference: 'webgl',
    autoStart: false,
    background: 0x000000,
    antialias: false,
    resolution: 1,
  });
  app.ticker.stop();
  app.canvas.style.position = 'absolute';
  app.canvas.style.left = '0px';
  app.canvas.style.top = '0px';
  document.body.style.margin = '0';
  document.body.appendChild(app.canvas);
  return app;
}

/**
 * The test game. `step()` simulates one frame and records it (camera, entities, bones, debug
 * primitives); `history[f]` keeps what each entity looked like at frame f, for assertions.
 */
export class TestGame {
  public readonly world = new Container();
  public readonly sprites = new Map<number, Sprite>();
  public readonly entities = new Map<number, TestEntity>();
  public readonly history: Array<Map<number, { x: number; y: number; angle: number; flags: number }>> = [];
  public readonly recorder: Recorder;
  public time = 0;
  public camX = 160;
  public camY = 120;
  public camZoom = 1;
  public camAngle = 0;
  /** Debug primitives recorded per frame (lines, circles, boxes, arrows, points). */
  public primitives = 8;
  /** Paragraph texts recorded per frame. */
  public texts = 1;
  public readonly boneRot: Float32Array;
  public readonly boneOff: Float32Array;

  public constructor(
    public readonly app: Application,
    recorderOptions: Partial<RecorderOptions> = {},
  ) {
    this.recorder = new Recorder({ maxFrames: 300, onWarning: () => {}, ...recorderOptions });
    this.world.label = 'test-world';
    app.stage.addChild(this.world);
    this.recorder.describeSkeleton('walker', [-1, 0, 1, 0, 3]);
    this.boneRot = new Float32Array(5 * 4);
    this.boneOff = new Float32Array(5 * 3);
    for (let b = 0; b < 5; b++) {
      this.boneRot[b * 4 + 3] = 1;
      this.boneOff[b * 3] = b === 0 ? 0 : 6;
      this.boneOff[b * 3 + 1] = b === 0 ? -10 : 4;
    }
  }

  /** Adds an entity (and its sprite) now; it is recorded from the next `step`. */
  public spawn(id: number, kind: string, x: number, y: number, vx = 1, vy = 0, bones = 0): Sprite {
    const s = new Sprite(Texture.WHITE);
    s.anchor.set(0.5);
    s.width = 6;
    s.height = 6;
    s.tint = 0x80c0ff;
    s.label = `${kind}-${id}`;
    this.world.addChild(s);
    this.sprites.set(id, s);
    this.entities.set(id, { id, kind, x, y, angle: 0, vx, vy, flags: 0, bones });
    this.recorder.describe(id, kind, `${kind} #${id}`);
    s.position.set(x, y);
    return s;
  }

  /** Removes an entity and destroys its sprite. */
  public despawn(id: number): void {
    const s = this.sprites.get(id);
    if (s !== undefined) {
      s.destroy();
      this.sprites.delete(id);
    }
    this.entities.delete(id);
    this.recorder.despawn(id);
  }

  /** Simulates and records one frame. */
  public step(dt = 1 / 60): void {
    this.time += dt;
    const rec = this.recorder;
    rec.beginFrame(this.time, dt);
    const h = this.camAngle * 0.5;
    rec.camera(this.camX, this.camY, 0, 0, 0, Math.sin(h), Math.cos(h), this.camZoom);
    const snap = new Map<number, { x: number; y: number; angle: number; flags: number }>();
    for (const e of this.entities.values()) {
      e.x += e.vx;
      e.y += e.vy;
      e.angle += 0.05;
      const s = this.sprites.get(e.id)!;
      s.position.set(e.x, e.y);
      s.rotation = e.angle;
      const ha = e.angle * 0.5;
      rec.entity(e.id, e.x, e.y, 0, 0, 0, Math.sin(ha), Math.cos(ha), e.flags);
      if (e.bones > 0) rec.bones(e.id, e.bones, this.boneRot, this.boneOff);
      snap.set(e.id, { x: e.x, y: e.y, angle: e.angle, flags: e.flags });
    }
    this.history[rec.currentFrame] = snap;
    const d = rec.draw;
    const f = rec.currentFrame;
    for (let i = 0; i < this.primitives; i++) {
      const x = 20 + ((i * 37 + f) % 280);
      const y = 20 + ((i * 53) % 200);
      switch (i % 5) {
        case 0:
          d.line(Channel.AI, x, y, 0, x + 20, y + 10, 0, 0xffcc00);
          break;
        case 1:
          d.sphere(Channel.PHYSICS, x, y, 0, 8, 0x00ccff);
          break;
        case 2:
          d.aabb(Channel.PHYSICS, x, y, 0, x + 12, y + 8, 0, 0x33ff66);
          break;
        case 3:
          d.arrow(Channel.AI, x, y, 0, x + 16, y - 12, 0, 5, 0xff8800);
          break;
        default:
          d.point(Channel.ANIMATION, x, y, 0, 4, 0xff44ff);
          break;
      }
    }
    for (let i = 0; i < this.texts; i++) d.text(Channel.AI, 40 + i * 60, 30, 0, `state ${(f >> 4) % 3}`, 0xffffff);
    rec.endFrame();
  }

  /** A binding over the sprites; `create` makes a new sprite for kinds in `creatable`. */
  public binding(creatable: readonly string[] = ['bullet']): EntityBinding & { created: number } {
    const b = {
      created: 0,
      find: (id: number) => this.sprites.get(id),
      create: (kind: string) => {
        if (!creatable.includes(kind)) return null;
        b.created++;
        const s = new Sprite(Texture.WHITE);
        s.anchor.set(0.5);
        s.width = 4;
        s.height = 4;
        s.tint = 0xffffff;
        s.label = `recreated-${kind}`;
        return s;
      },
    };
    return b;
  }
}

/** Creates the app, the game with `n` movers, and the overlay (keyboard on `window` unless told). */
export async function setup(
  n = 5,
  options: Partial<RewindOverlayOptions> = {},
  recorderOptions: Partial<RecorderOptions> = {},
): Promise<{ app: Application; game: TestGame; overlay: RewindOverlay; binding: ReturnType<TestGame['binding']> }> {
  const app = await createApp();
  const game = new TestGame(app, recorderOptions);
  for (let i = 0; i < n; i++) game.spawn(i + 1, 'mover', 20 + i * 30, 40 + i * 20, 1 + i * 0.5, 0.25 * i);
  const binding = game.binding();
  const overlay = new RewindOverlay(app, game.world, binding, game.recorder, { onWarning: () => {}, ...options });
  await overlay.ready;
  return { app, game, overlay, binding };
}

/** Runs `frames` game frames, each followed by an overlay update (as the ticker would). */
export function run(game: TestGame, overlay: RewindOverlay, frames: number, dt = 1 / 60): void {
  for (let i = 0; i < frames; i++) {
    if (!overlay.isPaused) game.step(dt);
    overlay.update(dt);
  }
}

/** Destroys the overlay and the app (and its canvas). */
export function teardown(app: Application, overlay: RewindOverlay): void {
  overlay.destroy();
  app.destroy({ removeView: true }, { children: true });
}

/**
 * The overlay of the running test, torn down after it. Call once at the top level of a test file
 * (it registers an `afterEach`).
 *
 * @example
 * const fixture = overlayFixture();
 * it('...', async () => { const { game, overlay } = await fixture.make(3); });
 */
export function overlayFixture() {
  let current: { app: Application; overlay: RewindOverlay } | null = null;
  /** Tears the current overlay and app down now (the next `make` starts afresh). */
  const release = (): void => {
    if (current !== null) teardown(current.app, current.overlay);
    current = null;
  };
  afterEach(release);
  return {
    /** `setup`, torn down after the test. */
    async make(...args: Parameters<typeof setup>): ReturnType<typeof setup> {
      const s = await setup(...args);
      current = s;
      return s;
    },
    /** Tears `app` and `overlay` down after the test (for overlays made without `make`). */
    track(app: Application, overlay: RewindOverlay): void {
      current = { app, overlay };
    },
    release,
    /** The test tears its overlay down itself. */
    forget(): void {
      current = null;
    },
  };
}
