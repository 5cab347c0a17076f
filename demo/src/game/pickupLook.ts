/**
 * How a pickup looks, as game state (the 2D display state the recorder stores, issue 19): it
 * glints through `GLINT_FRAMES` animation frames while it lies on the floor, and when collected it
 * pops: it grows to `1 + POP_GROWTH` times its size and fades out over `POP_SECONDS`, then
 * despawns. The view draws it (view/pickupArt.ts); the recorder records it (rewind/pickupDisplay.ts).
 */
import type { Pickup } from './types';

/** How long a collected pickup pops before it despawns. */
export const POP_SECONDS = 0.4;
/** How much a popping pickup grows (scale 1 → 1 + POP_GROWTH). */
export const POP_GROWTH = 1.5;
/** Frames of the glint animation. */
export const GLINT_FRAMES = 4;
/** Glint frames per second. */
export const GLINT_FPS = 8;
/** The label of the glint sprite inside a pickup's display (the view's; read back by the test hooks). */
export const GLINT_LABEL = 'glint';
/** The texture name of each glint frame (the recorder's texture names, pixi's `Cache` keys). */
export const GLINT_NAMES: readonly string[] = Array.from({ length: GLINT_FRAMES }, (_, i) => `pickup-glint-${i}`);

/** The look of a pickup that just spawned: on the floor, full size, opaque, first glint frame. */
export function pickupLookAtSpawn(): Pick<Pickup, 'popAge' | 'scale' | 'alpha' | 'glintTime' | 'glintFrame'> {
  return { popAge: -1, scale: 1, alpha: 1, glintTime: 0, glintFrame: 0 };
}

/**
 * Advances a pickup's look by `dt` seconds: the glint animation, and the pop once collected
 * (`popAge` ≥ 0). Returns whether it is popping.
 *
 * @example
 * if (stepPickupLook(p, dt) && p.popAge >= POP_SECONDS) despawn(p);
 */
export function stepPickupLook(p: Pickup, dt: number): boolean {
  p.glintTime += dt;
  p.glintFrame = Math.floor(p.glintTime * GLINT_FPS) % GLINT_FRAMES;
  if (p.popAge < 0) return false;
  p.popAge += dt;
  const t = Math.min(1, p.popAge / POP_SECONDS);
  p.scale = 1 + POP_GROWTH * t;
  p.alpha = 1 - t;
  return true;
}
