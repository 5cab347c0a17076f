/**
 * The glint of a pickup as a `Sprite` whose texture is one animation frame (issue 19: a sprite
 * that changes texture), and a pickup's 2D display state (scale, alpha, glint frame) put on its
 * display: from the game while it runs (`GameView.sync`), from the recording while the overlay
 * shows one (`applyRecorded`). The frames are registered in pixi's `Cache` under the names the
 * recorder stores (`GLINT_NAMES`).
 */
import { Cache, Graphics, Sprite, Texture, type Container, type Renderer } from 'pixi.js';
import { GLINT_FRAMES, GLINT_LABEL, GLINT_NAMES } from '../game/pickupLook';

/**
 * Draws the glint frames once per renderer and registers them in `Cache` (a later call finds them
 * there): a four-pointed sparkle that grows and turns through the frames.
 */
export function registerGlintTextures(renderer: Renderer): void {
  for (let i = 0; i < GLINT_FRAMES; i++) {
    const name = GLINT_NAMES[i];
    if (Cache.has(name)) continue;
    const g = new Graphics();
    const r = 3 + i * 1.5;
    const a = (i / GLINT_FRAMES) * (Math.PI / 2);
    const pts: number[] = [];
    for (let k = 0; k < 8; k++) {
      const rr = k % 2 === 0 ? r : r * 0.3;
      const t = a + (k * Math.PI) / 4;
      pts.push(Math.cos(t) * rr, Math.sin(t) * rr);
    }
    g.rect(-9, -9, 18, 18).fill({ color: 0xffffff, alpha: 0 });
    g.poly(pts).fill({ color: 0xffffff, alpha: 0.9 });
    const texture = renderer.generateTexture({ target: g, resolution: 2 });
    texture.label = name;
    g.destroy();
    Cache.set(name, texture);
  }
}

/** The glint sprite of a pickup display (made on first use, at the top right of the pickup). */
function glintOf(display: Container): Sprite {
  const found = display.getChildByLabel(GLINT_LABEL);
  if (found instanceof Sprite) return found;
  const s = new Sprite({ label: GLINT_LABEL, anchor: 0.5 });
  s.position.set(4, -4);
  display.addChild(s);
  return s;
}

/**
 * Puts a pickup's display state on its display: the root's scale and alpha, and the glint frame
 * named `frame` (a `GLINT_NAMES` entry; another name leaves the glint as it is). Allocates nothing
 * once the glint exists.
 *
 * @example
 * showPickup(display, p.scale, p.scale, p.alpha, GLINT_NAMES[p.glintFrame]);
 */
export function showPickup(display: Container, scaleX: number, scaleY: number, alpha: number, frame: string): void {
  if (display.scale.x !== scaleX || display.scale.y !== scaleY) display.scale.set(scaleX, scaleY);
  display.alpha = alpha;
  if (!Cache.has(frame)) return;
  const t = Cache.get<unknown>(frame);
  const glint = glintOf(display);
  if (t instanceof Texture && glint.texture !== t) glint.texture = t;
}
