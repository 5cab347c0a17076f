/**
 * The display object of one entity (every kind except crowd movers, which are plain sprites):
 * a root container at the entity's x, y and rotation, holding a ground shadow and a body. Height z
 * shows as a smaller, fainter shadow and a larger body. Skeletal kinds pose their body from bones.
 *
 * The root's transform is exactly the recorded entity's (x, y, rotation about z); its tint is white,
 * or `DAMAGE_TINT` while the entity is damaged. The overlay can therefore apply a recorded sample to
 * the root directly, and `applyHeight`/`poseFromBones` for the rest.
 */
import { Container, Graphics, Sprite, Texture } from 'pixi.js';
import { BONE_COUNT, forwardKinematics, RIG_PARENTS } from '../game/rig';
import type { Kind } from '../game/types';

/** Tint of a damaged entity (display flag DAMAGED); the overlay's default flag tint, so live and replay agree. */
export const DAMAGE_TINT = 0xff4a4a;
/** Tint of a highlighted entity (display flag HIGHLIGHTED): the autopilot's target. Same as the overlay's. */
export const HIGHLIGHT_TINT = 0xffee55;

export { PLAYER_COLOR, SQUAD_COLORS } from './kindLook';

const joints = new Float32Array(BONE_COUNT * 3);

/**
 * What a posed body is drawn with: white textures, tinted per part (made once per renderer by
 * `DisplayFactory`). `disc` is a white disc `disc.width` units across; `head` the head (skin, dark
 * outline) and `visor` the visor, each drawn at its size in world units.
 */
export interface FigureTextures {
  readonly disc: Texture;
  readonly head: Texture;
  readonly visor: Texture;
}

/** Skin of hands and head, shoes, and the head's outline and visor. */
export const SKIN = 0xf3d2b5;
const SHOE = 0x20232b;
export const VISOR = 0x1a1d24;

/**
 * The limbs of a posed body, in drawing order: [bone a, bone b, width, 1 for the dark colour] each.
 * Legs (hip → knee → ankle), then hips and shoulders as bars and the spine, then the arms.
 */
const LEGS = [10, 11, 5, 1, 11, 12, 4.5, 1, 13, 14, 5, 1, 14, 15, 4.5, 1];
const TRUNK_AND_ARMS = [10, 13, 8, 1, 4, 7, 9, 0, 0, 2, 10, 0, 4, 5, 4.6, 0, 5, 6, 4, 0, 7, 8, 4.6, 0, 8, 9, 4, 0];

export class EntityView extends Container {
  public readonly kind: Kind;
  public readonly shadow: Graphics;
  public readonly body: Container;
  public readonly art: Graphics;
  /**
   * Skeletal kinds: the posed body as sprites (bars and discs), moved in place for each pose. A
   * Graphics redrawn every frame cost pixi a tessellation of every stroke and round end at each
   * render, and, being batched, a rebuild of the draw instructions of its whole render group.
   */
  public readonly figure: Container | null;
  private readonly parts: Sprite[] = [];
  private readonly discSize: number;
  private partsColor = -1;
  /** Main colour of the body (skeletal kinds tint their limbs with it). */
  public color = 0xffffff;
  /** Radius the art was drawn for. */
  public size = 0;
  /** Whether the art shows a pose from bones (false: the plain body of `drawUnposed`, or nothing yet). */
  private posed = true;
  private unposedColor = -1;

  public constructor(kind: Kind, textures: FigureTextures) {
    super({ label: kind });
    this.kind = kind;
    this.shadow = new Graphics();
    this.body = new Container();
    this.art = new Graphics();
    this.body.addChild(this.art);
    this.discSize = textures.disc.width;
    if (kind === 'player' || kind === 'agent') {
      const figure = new Container({ label: 'figure', visible: false });
      const add = (texture: Texture, ax: number, ay: number): void => {
        const sprite = new Sprite(texture);
        sprite.anchor.set(ax, ay);
        this.parts.push(sprite);
        figure.addChild(sprite);
      };
      const limbs = (n: number): void => {
        for (let i = 0; i < n; i++) {
          add(Texture.WHITE, 0, 0.5);
          add(textures.disc, 0.5, 0.5);
          add(textures.disc, 0.5, 0.5);
        }
      };
      limbs(LEGS.length / 4);
      add(textures.disc, 0.5, 0.5); // feet
      add(textures.disc, 0.5, 0.5);
      limbs(TRUNK_AND_ARMS.length / 4);
      add(textures.disc, 0.5, 0.5); // hands
      add(textures.disc, 0.5, 0.5);
      add(textures.head, 0.5, 0.5);
      add(textures.visor, 0, 0);
      this.body.addChild(figure);
      this.figure = figure;
    } else {
      this.figure = null;
    }
    this.addChild(this.shadow, this.body);
  }

  /** Draws the static art for this kind at `radius` in `color` (skeletal kinds only set the colour). */
  public configure(radius: number, color: number, variant: string): void {
    this.color = color;
    this.size = radius;
    this.posed = true;
    if (this.figure !== null) this.figure.visible = false;
    const g = this.art;
    const s = this.shadow;
    g.clear();
    s.clear();
    switch (this.kind) {
      case 'player':
      case 'agent':
        s.ellipse(0, 0, 14, 12).fill({ color: 0x000000, alpha: 0.35 });
        break;
      case 'ball':
        s.circle(2, 3, radius).fill({ color: 0x000000, alpha: 0.3 });
        g.circle(0, 0, radius).fill(color).stroke({ width: 1.5, color: 0x0b0d12, alpha: 0.6 });
        g.rect(-radius, -radius * 0.22, radius * 2, radius * 0.44).fill({ color: 0xffffff, alpha: 0.85 });
        g.circle(0, 0, radius).stroke({ width: 1.5, color: 0x0b0d12, alpha: 0.6 });
        g.circle(-radius * 0.35, -radius * 0.35, radius * 0.22).fill({ color: 0xffffff, alpha: 0.5 });
        break;
      case 'crate': {
        const h = radius;
        s.rect(-h + 3, -h + 4, h * 2, h * 2).fill({ color: 0x000000, alpha: 0.3 });
        g.rect(-h, -h, h * 2, h * 2)
          .fill(0xb07a3c)
          .stroke({ width: 2, color: 0x5c3a17 });
        g.rect(-h + 3, -h + 3, h * 2 - 6, h * 2 - 6).stroke({ width: 1.5, color: 0x7d5325 });
        g.moveTo(-h + 3, -h + 3)
          .lineTo(h - 3, h - 3)
          .stroke({ width: 2, color: 0x7d5325 });
        g.moveTo(h - 3, -h + 3)
          .lineTo(-h + 3, h - 3)
          .stroke({ width: 2, color: 0x7d5325 });
        break;
      }
      case 'projectile':
        if (variant === 'bolt') {
          g.ellipse(0, 0, 11, 4.5).fill({ color: 0x35d0ff, alpha: 0.3 });
          g.ellipse(0, 0, 7, 2.2).fill(0xd8fbff);
        } else {
          g.ellipse(0, 0, 8, 4).fill({ color: 0xff5a2a, alpha: 0.35 });
          g.ellipse(0, 0, 4.5, 2).fill(0xffd0a0);
        }
        break;
      case 'pickup':
        s.ellipse(0, 0, 8, 6).fill({ color: 0x000000, alpha: 0.35 });
        if (variant === 'health') {
          g.circle(0, 0, 9).fill({ color: 0x5dff8a, alpha: 0.25 });
          g.roundRect(-6.5, -6.5, 13, 13, 3).fill(0xf4fff6).stroke({ width: 1.5, color: 0x1f8f45 });
          g.rect(-1.6, -4.5, 3.2, 9).fill(0x25b85a);
          g.rect(-4.5, -1.6, 9, 3.2).fill(0x25b85a);
        } else {
          g.circle(0, 0, 9).fill({ color: 0xc59bff, alpha: 0.25 });
          g.poly([0, -8, 6, 0, 0, 8, -6, 0]).fill(0xb98cff).stroke({ width: 1.5, color: 0x4b2a8a });
          g.poly([0, -4, 3, 0, 0, 4, -3, 0]).fill(0xf1e6ff);
        }
        break;
      case 'mover':
        break;
    }
  }

  /** Shows height: body grows and the shadow shrinks and fades as z rises. */
  public applyHeight(z: number): void {
    const h = Math.max(0, z);
    this.body.scale.set(1 + h / 90);
    const s = Math.max(0.45, 1 - h / 110);
    this.shadow.scale.set(s);
    this.shadow.alpha = s;
  }

  /**
   * Poses a skeletal body from local bone rotations and offsets (as recorded): top-down, legs
   * first, then torso, arms and head, with the head's visor showing the facing. Moves the body's
   * sprites; builds no geometry.
   */
  public poseFromBones(rot: ArrayLike<number>, off: ArrayLike<number>, start: number, count: number): void {
    const figure = this.figure;
    if (start < 0 || count < BONE_COUNT || figure === null) {
      this.drawUnposed();
      return;
    }
    if (!this.posed) {
      this.art.clear();
      this.posed = true;
    }
    if (!figure.visible) figure.visible = true;
    if (this.partsColor !== this.color) this.tintParts();
    forwardKinematics(RIG_PARENTS, BONE_COUNT, rot, off, start, 0, 0, 0, 0, 0, 0, 1, joints);
    const p = this.parts;
    let k = this.limbs(LEGS, 0);
    // The feet.
    this.disc(p[k++], joints[12 * 3] + 1.5, joints[12 * 3 + 1], 7.2, 5.2);
    this.disc(p[k++], joints[15 * 3] + 1.5, joints[15 * 3 + 1], 7.2, 5.2);
    k = this.limbs(TRUNK_AND_ARMS, k);
    // The hands, then the head with its visor on the facing side.
    this.disc(p[k++], joints[6 * 3], joints[6 * 3 + 1], 5.6, 5.6);
    this.disc(p[k++], joints[9 * 3], joints[9 * 3 + 1], 5.6, 5.6);
    const hx = joints[3 * 3],
      hy = joints[3 * 3 + 1];
    p[k++].position.set(hx, hy);
    p[k].position.set(hx + 1.5, hy - 4);
  }

  /** Places the limbs of `table` (see `LEGS`) from sprite `k` on: a bar and two round ends each. Returns the next sprite. */
  private limbs(table: readonly number[], k: number): number {
    const p = this.parts;
    for (let i = 0; i < table.length; i += 4) {
      const a = table[i] * 3;
      const b = table[i + 1] * 3;
      const w = table[i + 2];
      const ax = joints[a],
        ay = joints[a + 1],
        bx = joints[b],
        by = joints[b + 1];
      const dx = bx - ax,
        dy = by - ay;
      const bar = p[k];
      bar.position.set(ax, ay);
      bar.rotation = Math.atan2(dy, dx);
      bar.scale.set(Math.sqrt(dx * dx + dy * dy), w);
      this.disc(p[k + 1], ax, ay, w, w);
      this.disc(p[k + 2], bx, by, w, w);
      k += 3;
    }
    return k;
  }

  /** Puts a disc sprite at (x, y), `w` × `h` units across. */
  private disc(s: Sprite, x: number, y: number, w: number, h: number): void {
    s.position.set(x, y);
    s.scale.set(w / this.discSize, h / this.discSize);
  }

  /** Tints the body's sprites for the current colour: each limb dark or main, shoes, skin (head and visor keep their own). */
  private tintParts(): void {
    const c = this.color;
    const dark = darken(c, 0.55);
    const p = this.parts;
    let k = 0;
    for (const table of [LEGS, TRUNK_AND_ARMS]) {
      for (let i = 0; i < table.length; i += 4) {
        const t = table[i + 3] === 1 ? dark : c;
        p[k++].tint = t;
        p[k++].tint = t;
        p[k++].tint = t;
      }
      if (table === LEGS) {
        p[k++].tint = SHOE;
        p[k++].tint = SHOE;
      }
    }
    p[k++].tint = SKIN;
    p[k].tint = SKIN;
    this.partsColor = c;
  }

  /**
   * A skeletal kind shown without bones (a replay from a game whose rig differs, or a frame that
   * recorded none): a plain body with a visor on the facing side, so it is never invisible.
   */
  private drawUnposed(): void {
    if (!this.posed && this.unposedColor === this.color) return;
    this.posed = false;
    if (this.figure !== null) this.figure.visible = false;
    this.unposedColor = this.color;
    const g = this.art;
    g.clear();
    g.circle(0, 0, 9).fill(this.color).stroke({ width: 1.5, color: 0x1a1d24 });
    g.roundRect(3, -4, 4, 8, 2).fill(0x1a1d24);
  }
}

function darken(c: number, f: number): number {
  const r = ((c >> 16) & 255) * f,
    g = ((c >> 8) & 255) * f,
    b = (c & 255) * f;
  return ((r & 255) << 16) | ((g & 255) << 8) | (b & 255);
}
