/**
 * Makes (and pools) the display object of an entity from its kind alone: what the game view uses
 * for live entities, what the overlay uses to re-create despawned ones, and what the standalone
 * replay viewer uses for every entity of a file (no game running). Knows nothing about the game's
 * state; only about how each kind looks.
 */
import { Graphics, Sprite, type Container, type Renderer, type Texture } from 'pixi.js';
import type { Kind } from '../game/types';
import { KINDS } from '../game/types';
import { EntityView, type FigureTextures, SKIN, VISOR } from './EntityView';
import { registerGlintTextures } from './pickupArt';
import { MOVER_COLORS, colorFor, defaultRadius, isDemoKind, moverVariant, variantFor } from './kindLook';

export { BALL_COLORS, MOVER_COLORS, colorFor, defaultRadius, isDemoKind, moverVariant, variantFor } from './kindLook';

/** A crowd mover's sprite, tagged with its kind like every entity display. */
export class MoverSprite extends Sprite {
  public readonly kind: Kind = 'mover';
}

/** Any entity display. */
export type EntityDisplay = EntityView | MoverSprite;

/**
 * Pooled entity displays by kind.
 *
 * @example
 * const displays = new DisplayFactory(app.renderer);
 * const d = displays.acquire('ball', 'ball', 17); // a ball coloured as ball 17 was
 * displays.release(d);
 */
export class DisplayFactory {
  private readonly pools = new Map<Kind, EntityDisplay[]>();
  private readonly moverTextures: Texture[] = [];
  private readonly figure: FigureTextures;

  public constructor(renderer: Renderer) {
    for (const k of KINDS) this.pools.set(k, []);
    for (const c of MOVER_COLORS) {
      const g = new Graphics();
      g.circle(0, 0, 5).fill(c).stroke({ width: 1, color: 0x11141a });
      g.poly([2.5, -2.5, 7, 0, 2.5, 2.5]).fill(0xb8c0cc);
      this.moverTextures.push(renderer.generateTexture({ target: g, resolution: 2 }));
      g.destroy();
    }
    registerGlintTextures(renderer);
    this.figure = figureTextures(renderer);
  }

  /**
   * A display of `kind` (pooled, or new), visible, untinted, not in any container; null for a kind
   * the demo does not know. `label` and `id` (as recorded) pick the variant and colour, so a
   * re-created entity looks like the one that despawned.
   */
  public acquire(kind: string, label = '', id = 0): EntityDisplay | null {
    if (!isDemoKind(kind)) return null;
    const pool = this.pools.get(kind) as EntityDisplay[];
    let d = pool.pop();
    if (d === undefined) {
      if (kind === 'mover') {
        d = new MoverSprite(this.moverTextures[0]);
        d.anchor.set(0.5);
      } else {
        d = new EntityView(kind, this.figure);
      }
    }
    if (d instanceof EntityView) d.configure(defaultRadius(kind), colorFor(kind, label, id), variantFor(kind, label));
    else d.texture = this.moverTexture(moverVariant(label, id));
    d.visible = true;
    d.tint = 0xffffff;
    d.alpha = 1;
    d.scale.set(1); // a pickup's pop grows its root
    return d;
  }

  /** The mover texture for a variant number. */
  public moverTexture(variant: number): Texture {
    const n = this.moverTextures.length;
    return this.moverTextures[((variant % n) + n) % n];
  }

  /** Returns a display to its pool (removed from the scene). */
  public release(display: Container): void {
    display.removeFromParent();
    if (!(display instanceof EntityView) && !(display instanceof MoverSprite)) return;
    this.pools.get(display.kind)?.push(display);
  }

  /** Height (shadow and scale) and, for skeletal kinds, the pose from (recorded) bones. */
  public applyPose(
    display: Container,
    z: number,
    rot: ArrayLike<number>,
    off: ArrayLike<number>,
    start: number,
    count: number,
  ): void {
    if (!(display instanceof EntityView)) return;
    display.applyHeight(z);
    if (display.kind === 'player' || display.kind === 'agent') display.poseFromBones(rot, off, start, count);
  }
}

/**
 * The textures of a posed body (`EntityView.figure`): a white disc 128 units across (limbs' round
 * ends, feet, hands: tinted and scaled down), the head (skin, a dark outline 1.5 wide, radius 6.8)
 * and the visor (a rounded 4 × 8 bar), the last two drawn at 8 pixels a unit so they stay sharp
 * when the camera zooms in.
 */
function figureTextures(renderer: Renderer): FigureTextures {
  const make = (draw: (g: Graphics) => void, resolution: number): Texture => {
    const g = new Graphics();
    draw(g);
    const t = renderer.generateTexture({ target: g, resolution });
    g.destroy();
    return t;
  };
  return {
    disc: make((g) => g.circle(0, 0, 64).fill(0xffffff), 1),
    head: make((g) => g.circle(0, 0, 6.8).fill(SKIN).stroke({ width: 1.5, color: VISOR }), 8),
    visor: make((g) => g.roundRect(0, 0, 4, 8, 2).fill(VISOR), 8),
  };
}
