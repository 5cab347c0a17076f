/**
 * The game camera: follows a target with a little lag (critically damped), looks slightly ahead of
 * its motion, and shakes on hits (trauma decays; offset and roll grow with trauma²). `x`, `y` is the
 * world point shown at the centre of the screen, `zoom` the scale, `rotation` the roll in radians:
 * exactly what the view applies to the world container and what the recorder stores.
 */
export class Camera {
  public x = 0;
  public y = 0;
  public zoom = 1.35;
  public rotation = 0;
  /** The zoom the player chose (wheel, Q/E); `zoom` eases towards it. */
  public baseZoom = 1.35;
  /** 0..1: how hard the camera is shaking. */
  public trauma = 0;
  // The smoothed follow point, before shake.
  private fx = 0;
  private fy = 0;
  private t = 0;

  /** Jumps straight to a point (no lag). */
  public snap(x: number, y: number): void {
    this.fx = this.x = x;
    this.fy = this.y = y;
  }

  /** Adds shake, e.g. 0.3 for a hit, 0.6 for a nearby explosion. */
  public shake(amount: number): void {
    this.trauma = Math.min(1, this.trauma + amount);
  }

  /** Follows (tx, ty), leading by the velocity (vx, vy). */
  public update(dt: number, tx: number, ty: number, vx: number, vy: number): void {
    this.t += dt;
    const k = 1 - Math.exp(-dt * 4.5);
    this.fx += (tx + vx * 0.3 - this.fx) * k;
    this.fy += (ty + vy * 0.3 - this.fy) * k;
    this.trauma = Math.max(0, this.trauma - dt * 1.4);
    const s = this.trauma * this.trauma;
    const t = this.t;
    // Smooth pseudo-noise from incommensurate sines: cheap, continuous, different on each axis.
    this.x = this.fx + s * 16 * (Math.sin(t * 37.1) * 0.6 + Math.sin(t * 23.7 + 1.3) * 0.4);
    this.y = this.fy + s * 16 * (Math.sin(t * 31.3 + 2.1) * 0.6 + Math.sin(t * 19.9 + 0.7) * 0.4);
    this.rotation = s * 0.07 * (Math.sin(t * 29.3 + 4.2) * 0.7 + Math.sin(t * 13.1) * 0.3);
    const speed = Math.hypot(vx, vy);
    const targetZoom = this.baseZoom * (1 - Math.min(0.08, speed / 4000));
    this.zoom += (targetZoom - this.zoom) * (1 - Math.exp(-dt * 3));
  }
}
