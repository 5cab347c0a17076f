/**
 * The game's debug-draw vocabulary, and its one import of rewindable: the `DebugDraw` interface the
 * game draws through (handed to `Game.drawDebug` by the recording, demo/src/rewind/recording.ts),
 * the composite shapes built on it, and the channels the game draws to. The rest of the game knows
 * nothing of recording, replay or the overlay.
 *
 * @example
 * drawDebug(draw: DebugDraw, ch: DebugChannels): void {
 *   cone(draw, ch.ai, x, y, 0, angle, halfAngle, range, 0xffd36b);
 *   draw.text(ch.ai, x, y - 24, 0, 'chase', 0xffffff);
 * }
 */
export { cone, cross, stickFigure, type DebugDraw } from 'rewindable';

/** The channel indices the game draws to. */
export interface DebugChannels {
  /** Built-in: decisions, vision cones, paths, state labels. */
  readonly ai: number;
  /** Built-in: bounds, velocities, contact points and normals. */
  readonly physics: number;
  /** Built-in: skeletons (stick figures). */
  readonly animation: number;
  /** Registered by the demo: projectiles, pickup radii, blast radii. */
  readonly combat: number;
}
