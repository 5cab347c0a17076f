/**
 * The skeletal characters' bodies (agents, the player) are sprites moved in place for each pose
 * (issue 17): they must look as the Graphics they replace did, and posing must build no geometry.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Application, Container, Graphics, RenderTexture } from 'pixi.js';
import { animateRig, BONE_COUNT, createRig, forwardKinematics, RIG_PARENTS } from '../game/rig';
import { DisplayFactory } from '../view/DisplayFactory';
import type { EntityView } from '../view/EntityView';
import { SQUAD_COLORS } from '../view/kindLook';

const SIZE = 240;
const ZOOM = 4;
/** Half the side of the box the images are blurred with before comparing (pixels). */
const R = 2;
let app: Application;
let factory: DisplayFactory;

beforeAll(async () => {
  app = new Application();
  await app.init({ width: SIZE, height: SIZE, preference: 'webgl', antialias: false, autoStart: false });
  factory = new DisplayFactory(app.renderer);
});

afterAll(() => {
  app.destroy({ removeView: true }, { children: true });
});

function darken(c: number, f: number): number {
  return (((((c >> 16) & 255) * f) & 255) << 16) | (((((c >> 8) & 255) * f) & 255) << 8) | (((c & 255) * f) & 255);
}

/** The body as the demo drew it before (one Graphics, strokes with round caps), the reference. */
function drawReference(g: Graphics, rot: Float32Array, off: Float32Array, c: number): void {
  const j = new Float32Array(BONE_COUNT * 3);
  forwardKinematics(RIG_PARENTS, BONE_COUNT, rot, off, 0, 0, 0, 0, 0, 0, 0, 1, j);
  const dark = darken(c, 0.55);
  const limb = (a: number, b: number, width: number, color: number): void => {
    g.moveTo(j[a * 3], j[a * 3 + 1])
      .lineTo(j[b * 3], j[b * 3 + 1])
      .stroke({ width, color, cap: 'round' });
  };
  limb(10, 11, 5, dark);
  limb(11, 12, 4.5, dark);
  limb(13, 14, 5, dark);
  limb(14, 15, 4.5, dark);
  g.ellipse(j[12 * 3] + 1.5, j[12 * 3 + 1], 3.6, 2.6).fill(0x20232b);
  g.ellipse(j[15 * 3] + 1.5, j[15 * 3 + 1], 3.6, 2.6).fill(0x20232b);
  limb(10, 13, 8, dark);
  limb(4, 7, 9, c);
  limb(0, 2, 10, c);
  limb(4, 5, 4.6, c);
  limb(5, 6, 4, c);
  limb(7, 8, 4.6, c);
  limb(8, 9, 4, c);
  g.circle(j[6 * 3], j[6 * 3 + 1], 2.8).fill(0xf3d2b5);
  g.circle(j[9 * 3], j[9 * 3 + 1], 2.8).fill(0xf3d2b5);
  const hx = j[3 * 3];
  const hy = j[3 * 3 + 1];
  g.circle(hx, hy, 6.8).fill(0xf3d2b5).stroke({ width: 1.5, color: 0x1a1d24 });
  g.roundRect(hx + 1.5, hy - 4, 4, 8, 2).fill(0x1a1d24);
}

/** RGBA pixels of `what` drawn at ×4 around the middle of a black square. */
function pixels(what: Container): Uint8Array {
  const holder = new Container();
  holder.position.set(SIZE / 2, SIZE / 2);
  holder.scale.set(ZOOM);
  holder.addChild(what);
  const rt = RenderTexture.create({ width: SIZE, height: SIZE });
  app.renderer.render({ container: holder, target: rt, clear: true, clearColor: [0, 0, 0, 1] });
  const out = app.renderer.extract.pixels(rt);
  holder.removeChild(what);
  rt.destroy(true);
  return new Uint8Array(out.pixels.buffer, out.pixels.byteOffset, out.pixels.byteLength).slice();
}

/** The RGB of `px` averaged over a box of (2R + 1)² pixels around each pixel. */
function blurred(px: Uint8Array): Float32Array {
  const out = new Float32Array(SIZE * SIZE * 3);
  for (let y = 0; y < SIZE; y++) {
    for (let x = 0; x < SIZE; x++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let n = 0;
      for (let v = Math.max(0, y - R); v <= Math.min(SIZE - 1, y + R); v++) {
        for (let u = Math.max(0, x - R); u <= Math.min(SIZE - 1, x + R); u++) {
          const k = (v * SIZE + u) * 4;
          r += px[k];
          g += px[k + 1];
          b += px[k + 2];
          n++;
        }
      }
      const o = (y * SIZE + x) * 3;
      out[o] = r / n;
      out[o + 1] = g / n;
      out[o + 2] = b / n;
    }
  }
  return out;
}

/**
 * Pixels drawn in either image, and those whose colours differ by more than 48 in a channel once
 * both are blurred over a box of 5 × 5 pixels (just over a world unit at ×4): an edge drawn hard
 * (tessellated) in one and filtered (a scaled texture) in the other, or a fraction of a unit apart,
 * stays within that; a part misplaced by a unit, missing or miscoloured does not.
 */
function compare(a: Uint8Array, b: Uint8Array): { covered: number; differing: number } {
  const ba = blurred(a);
  const bb = blurred(b);
  let covered = 0;
  let differing = 0;
  for (let i = 0; i < SIZE * SIZE; i++) {
    if (a[i * 4] + a[i * 4 + 1] + a[i * 4 + 2] === 0 && b[i * 4] + b[i * 4 + 1] + b[i * 4 + 2] === 0) continue;
    covered++;
    const o = i * 3;
    const d = Math.max(Math.abs(ba[o] - bb[o]), Math.abs(ba[o + 1] - bb[o + 1]), Math.abs(ba[o + 2] - bb[o + 2]));
    if (d > 48) differing++;
  }
  return { covered, differing };
}

/** A rig after `steps` frames of running, aiming or in the air. */
function posedRig(steps: number, speed: number, air: boolean, aim: boolean): ReturnType<typeof createRig> {
  const rig = createRig();
  for (let i = 0; i < steps; i++) animateRig(rig, 1 / 60, speed, air, aim);
  return rig;
}

describe('the posed body of a skeletal character (issue 17)', () => {
  it('looks as the Graphics body did, in several poses and colours', () => {
    const cases = [
      { steps: 10, speed: 0, air: false, aim: false, color: SQUAD_COLORS[0] },
      { steps: 25, speed: 170, air: false, aim: false, color: SQUAD_COLORS[1] },
      { steps: 40, speed: 120, air: false, aim: true, color: SQUAD_COLORS[2] },
      { steps: 15, speed: 200, air: true, aim: false, color: SQUAD_COLORS[3] },
    ];
    for (const c of cases) {
      const rig = posedRig(c.steps, c.speed, c.air, c.aim);
      const view = factory.acquire('agent') as EntityView;
      view.configure(11, c.color, '');
      view.shadow.visible = false;
      view.poseFromBones(rig.rot, rig.off, 0, BONE_COUNT);
      const ref = new Graphics();
      drawReference(ref, rig.rot, rig.off, c.color);
      const { covered, differing } = compare(pixels(view), pixels(ref));
      ref.destroy();
      factory.release(view);
      // Hundreds of pixels drawn at ×4; only the edges of round parts may differ (filtered texture
      // against tessellated polygon): a misplaced, missing or miscoloured part differs by far more.
      expect(covered, JSON.stringify(c)).toBeGreaterThan(2000);
      expect(differing / covered, `share of differing pixels, ${JSON.stringify(c)}`).toBeLessThan(0.01);
    }
  });

  it('is shown only once posed, and a body without bones shows the plain body instead', () => {
    const view = factory.acquire('agent') as EntityView;
    view.configure(11, SQUAD_COLORS[0], '');
    expect(view.figure?.visible, 'before the first pose').toBe(false);
    const rig = posedRig(5, 100, false, false);
    view.poseFromBones(rig.rot, rig.off, 0, BONE_COUNT);
    expect(view.figure?.visible, 'posed').toBe(true);
    expect(view.art.context.instructions.length, 'posed: the plain body is cleared').toBe(0);
    view.poseFromBones(rig.rot, rig.off, -1, 0);
    expect(view.figure?.visible, 'no bones').toBe(false);
    expect(view.art.context.instructions.length, 'no bones: the plain body is drawn').toBeGreaterThan(0);
    view.poseFromBones(rig.rot, rig.off, 0, BONE_COUNT);
    expect(view.figure?.visible, 'posed again').toBe(true);
    expect(view.art.context.instructions.length).toBe(0);
    factory.release(view);
  });

  it("posing again builds no geometry: the render group's draw instructions are not rebuilt", () => {
    const stage = new Container({ isRenderGroup: true });
    const view = factory.acquire('agent') as EntityView;
    view.configure(11, SQUAD_COLORS[1], '');
    stage.addChild(view);
    const rig = createRig();
    animateRig(rig, 1 / 60, 150, false, false);
    view.poseFromBones(rig.rot, rig.off, 0, BONE_COUNT);
    app.renderer.render(stage);
    let rebuilds = 0;
    const set = stage.renderGroup!.instructionSet;
    const reset = set.reset.bind(set);
    set.reset = () => {
      rebuilds++;
      reset();
    };
    for (let f = 0; f < 6; f++) {
      animateRig(rig, 1 / 60, 150, false, false);
      view.poseFromBones(rig.rot, rig.off, 0, BONE_COUNT);
      app.renderer.render(stage);
    }
    // A Graphics redrawn per pose made pixi rebuild its group at each render (6 here).
    expect(rebuilds).toBe(0);
    stage.removeChild(view);
    factory.release(view);
    stage.destroy();
  });
});
