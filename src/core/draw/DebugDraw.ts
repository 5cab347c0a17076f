/**
 * The immediate-mode debug-draw interface. The recorder implements it (it stores each call in its
 * minimal form), and so can a live renderer: game code draws the same way whether it is recorded or
 * not. Every call names a channel (see `Channel`) and takes a colour as 0xRRGGBB.
 *
 * Keep to these few primitives; composites (wire box, cone, stick figure) are functions over them,
 * in `composites.ts`.
 *
 * @example
 * function drawAgent(draw: DebugDraw, agent: Agent) {
 *   draw.sphere(Channel.AI, agent.x, agent.y, 0, agent.radius, 0xffcc00);
 *   draw.arrow(Channel.AI, agent.x, agent.y, 0, agent.tx, agent.ty, 0, 6, 0x00ff00);
 *   draw.text(Channel.AI, agent.x, agent.y - 20, 0, agent.state, 0xffffff);
 * }
 */
export interface DebugDraw {
  /** A point of `size` pixels (screen-independent world units for 3D viewers). */
  point(channel: number, x: number, y: number, z: number, size: number, color: number): void;
  /** A segment. */
  line(channel: number, x1: number, y1: number, z1: number, x2: number, y2: number, z2: number, color: number): void;
  /** A segment with an arrow head of `headSize` at its end. */
  arrow(
    channel: number,
    x1: number,
    y1: number,
    z1: number,
    x2: number,
    y2: number,
    z2: number,
    headSize: number,
    color: number,
  ): void;
  /** A sphere (a circle in a 2D view): a centre and a radius. */
  sphere(channel: number, x: number, y: number, z: number, radius: number, color: number): void;
  /** An axis-aligned box (a rectangle in a 2D view). */
  aabb(
    channel: number,
    minX: number,
    minY: number,
    minZ: number,
    maxX: number,
    maxY: number,
    maxZ: number,
    color: number,
  ): void;
  /**
   * Text anchored in the world. Stored as 8-bit Latin-1 (other characters become '?'); texts of one
   * channel near each other merge into one paragraph.
   */
  text(channel: number, x: number, y: number, z: number, text: string, color: number): void;
}

/** A `DebugDraw` that forwards every call to several others (e.g. recorder + live renderer). */
export class TeeDraw implements DebugDraw {
  public constructor(private readonly targets: readonly DebugDraw[]) {}

  public point(c: number, x: number, y: number, z: number, s: number, color: number): void {
    for (let i = 0; i < this.targets.length; i++) this.targets[i].point(c, x, y, z, s, color);
  }
  public line(c: number, x1: number, y1: number, z1: number, x2: number, y2: number, z2: number, color: number): void {
    for (let i = 0; i < this.targets.length; i++) this.targets[i].line(c, x1, y1, z1, x2, y2, z2, color);
  }
  public arrow(
    c: number,
    x1: number,
    y1: number,
    z1: number,
    x2: number,
    y2: number,
    z2: number,
    h: number,
    color: number,
  ): void {
    for (let i = 0; i < this.targets.length; i++) this.targets[i].arrow(c, x1, y1, z1, x2, y2, z2, h, color);
  }
  public sphere(c: number, x: number, y: number, z: number, r: number, color: number): void {
    for (let i = 0; i < this.targets.length; i++) this.targets[i].sphere(c, x, y, z, r, color);
  }
  public aabb(c: number, a: number, b: number, d: number, e: number, f: number, g: number, color: number): void {
    for (let i = 0; i < this.targets.length; i++) this.targets[i].aabb(c, a, b, d, e, f, g, color);
  }
  public text(c: number, x: number, y: number, z: number, t: string, color: number): void {
    for (let i = 0; i < this.targets.length; i++) this.targets[i].text(c, x, y, z, t, color);
  }
}
