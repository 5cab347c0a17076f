/**
 * Everything the player sees of the game, in pixi: the world container (its transform is the game
 * camera), the floor and walls, one display object per entity (made by `DisplayFactory`), and the
 * explosion effects. `sync`
 * copies the simulation into the displays after each simulated step; while the game is paused it is
 * not called, and the displays keep whatever transform they were given.
 */
import { Container, Graphics, type Application } from 'pixi.js';
import { TILE } from '../game/Arena';
import type { Game } from '../game/Game';
import type { Actor, Agent, Entity, Kind, Pickup, Projectile } from '../game/types';
import { KINDS } from '../game/types';
import { BALL_COLORS, DisplayFactory, MoverSprite, type EntityDisplay } from './DisplayFactory';
import { DAMAGE_TINT, type EntityView, HIGHLIGHT_TINT, PLAYER_COLOR, SQUAD_COLORS } from './EntityView';
import { drawExplosion } from './explosionFx';
import { ReplayEffects } from './ReplayEffects';
import { showPickup } from './pickupArt';
import { GLINT_NAMES } from '../game/pickupLook';

export { MoverSprite, type EntityDisplay };

/** Display tint for recorded display flags (DAMAGED = 1, HIGHLIGHTED = 2). */
export function tintFor(flags: number): number {
  return (flags & 1) !== 0 ? DAMAGE_TINT : (flags & 2) !== 0 ? HIGHLIGHT_TINT : 0xffffff;
}

export class GameView {
  /** The world: its transform is the camera (pivot = camera point, position = screen centre). */
  public readonly world = new Container({ label: 'world' });
  /** Floor grid and walls. The floor colour itself is the renderer's background (no full-screen fill). */
  public readonly floor = new Graphics({ label: 'floor' });
  /** One layer per kind, in drawing order. */
  public readonly layers = new Map<Kind, Container>();
  /** Explosion effects, redrawn every frame from their ages. */
  public readonly fx = new Graphics({ label: 'fx' });
  /** Debug overlays of the game's own go here (above the game, inside the camera transform). */
  public readonly debugLayer = new Container({ label: 'debug' });
  /** Recorded explosions, drawn while the overlay shows a recording (it adds `layer` to its own world layer). */
  public readonly replayFx = new ReplayEffects();

  /** Makes and pools the entity displays (shared with the overlay's re-created entities). */
  public readonly factory: DisplayFactory;
  private readonly displays = new Map<number, EntityDisplay>();
  private readonly movers: MoverSprite[] = [];

  public constructor(
    private readonly app: Application,
    game: Game,
  ) {
    this.factory = new DisplayFactory(app.renderer);
    this.drawFloor(game);
    this.world.addChild(this.floor);
    for (const k of KINDS) {
      // The crowd is a render group of its own: pixi rebuilds a group's draw instructions (a walk
      // over all of it) whenever a batched Graphics in it changes, and the agents, the player and
      // the explosions redraw theirs every frame. Outside the world's group, the thousands of
      // movers are walked only when the crowd itself changes (a mover added, removed, shown, hidden).
      const layer = new Container({ label: k, isRenderGroup: k === 'mover' });
      this.layers.set(k, layer);
      this.world.addChild(layer);
    }
    this.world.addChild(this.fx, this.debugLayer);
  }

  /** The live display of entity `id`, or null. */
  public displayOf(id: number): EntityDisplay | null {
    return this.displays.get(id) ?? null;
  }

  /** The ids that have a display now, per kind. */
  public idsOf(kind: Kind): number[] {
    const out: number[] = [];
    for (const [id, d] of this.displays) if (d.kind === kind) out.push(id);
    return out;
  }

  /**
   * A display of `kind` from the pool (or new), added to its layer and visible. `label` and `id`
   * (as the recorder was given them: 'bolt'/'bullet', 'health'/'energy', 'agent C2', ...) pick the
   * variant and colour, so a re-created entity looks like the one that despawned.
   */
  public acquire(kind: string, label = '', id = 0): EntityDisplay | null {
    const d = this.factory.acquire(kind, label, id);
    if (d === null) return null;
    (this.layers.get(d.kind) as Container).addChild(d);
    return d;
  }

  /** Returns a display to its pool (removed from the scene). */
  public release(display: Container): void {
    this.factory.release(display);
  }

  /** Height and pose of a display from a (recorded) sample; see `EntityView`. */
  public applyPose(
    display: Container,
    z: number,
    rot: ArrayLike<number>,
    off: ArrayLike<number>,
    start: number,
    count: number,
  ): void {
    this.factory.applyPose(display, z, rot, off, start, count);
  }

  /** Copies the simulation into the displays (call after each simulated step). */
  public sync(game: Game): void {
    for (const id of game.despawns) {
      const d = this.displays.get(id);
      if (d === undefined) continue;
      this.displays.delete(id);
      // Movers are released by count in syncCrowd (the crowd only ever drops its newest).
      if (d.kind !== 'mover') this.release(d);
    }
    const target = game.autopilotOn ? game.autopilot.targetId : -1;
    for (const e of game.entities()) {
      let d = this.displays.get(e.id) as EntityView | undefined;
      if (d === undefined) {
        d = this.acquire(e.kind) as EntityView;
        this.configureFor(d, e);
        this.displays.set(e.id, d);
      }
      d.x = e.x;
      d.y = e.y;
      d.rotation = e.angle;
      d.visible = true;
      d.tint = tintFor((e.damageTimer > 0 ? 1 : 0) | (e.id === target ? 2 : 0));
      d.applyHeight(e.z);
      if (e.kind === 'player' || e.kind === 'agent') {
        const rig = (e as Actor).rig;
        d.poseFromBones(rig.rot, rig.off, 0, rig.rot.length / 4);
      } else if (e.kind === 'pickup') {
        const p = e as Pickup;
        showPickup(d, p.scale, p.scale, p.alpha, GLINT_NAMES[p.glintFrame]);
      }
    }
    this.syncCrowd(game);
    this.fx.clear();
    for (const ex of game.explosions) drawExplosion(this.fx, ex.x, ex.y, ex.size, ex.id, ex.age);
  }

  /** Applies the game camera to the world container. */
  public applyCamera(game: Game): void {
    const c = game.camera;
    const w = this.world;
    w.pivot.set(c.x, c.y);
    w.position.set(this.app.screen.width / 2, this.app.screen.height / 2);
    w.scale.set(c.zoom);
    w.rotation = c.rotation;
  }

  private syncCrowd(game: Game): void {
    const c = game.crowd;
    while (this.movers.length > c.count) {
      this.release(this.movers.pop() as MoverSprite);
    }
    while (this.movers.length < c.count) {
      const i = this.movers.length;
      const s = this.acquire('mover') as MoverSprite;
      s.texture = this.factory.moverTexture(c.variant[i]);
      this.movers.push(s);
      this.displays.set(c.ids[i], s);
    }
    for (let i = 0; i < c.count; i++) {
      const s = this.movers[i];
      s.x = c.x[i];
      s.y = c.y[i];
      s.rotation = c.angle[i];
      s.visible = true;
      s.tint = c.damage[i] > 0 ? DAMAGE_TINT : 0xffffff;
    }
  }

  private configureFor(d: EntityView, e: Entity): void {
    switch (e.kind) {
      case 'player':
        d.configure(e.radius, PLAYER_COLOR, '');
        break;
      case 'agent':
        d.configure(e.radius, SQUAD_COLORS[(e as Agent).squad % SQUAD_COLORS.length], '');
        break;
      case 'ball':
        d.configure(e.radius, BALL_COLORS[e.id % BALL_COLORS.length], '');
        break;
      case 'crate':
        d.configure(e.radius, 0, '');
        break;
      case 'projectile':
        d.configure(e.radius, 0, (e as Projectile).fromPlayer ? 'bolt' : 'bullet');
        break;
      case 'pickup':
        d.configure(e.radius, 0, (e as Pickup).type);
        break;
      default:
        break;
    }
  }

  private drawFloor(game: Game): void {
    const a = game.arena;
    const g = this.floor;
    // Thin tile lines so motion reads. Large fills are avoided on purpose: in software-rendered
    // browsers (headless CI) fill rate is what limits the frame rate.
    for (let tx = 0; tx <= a.cols; tx += 2) g.moveTo(tx * TILE, 0).lineTo(tx * TILE, a.height);
    for (let ty = 0; ty <= a.rows; ty += 2) g.moveTo(0, ty * TILE).lineTo(a.width, ty * TILE);
    g.stroke({ width: 2, color: 0x1f2430 });
    // The void outside the arena (only its on-screen part costs anything).
    const m = 4000;
    g.rect(-m, -m, a.width + 2 * m, m)
      .rect(-m, a.height, a.width + 2 * m, m)
      .rect(-m, 0, m, a.height)
      .rect(a.width, 0, m, a.height)
      .fill(0x0b0d11);
    // Walls: a body and a lighter top edge.
    for (const b of a.blocks) {
      const x = b.x0 * TILE,
        y = b.y0 * TILE,
        w = (b.x1 - b.x0 + 1) * TILE,
        h = (b.y1 - b.y0 + 1) * TILE;
      g.rect(x, y, w, h).fill(0x3b4357).stroke({ width: 2, color: 0x596480, alignment: 1 });
      g.rect(x + 4, y + 4, w - 8, h - 8).fill(0x434c63);
    }
  }
}
