/**
 * The display of an entity whose kind the viewer has no factory for: a ring with a heading tick, in
 * a colour of its own per kind (`kindColor`), so unknown kinds are told apart and their rotation
 * shows (a debug shape, not art).
 */
import { Container, Graphics } from 'pixi.js';
import { kindColor } from './KindRegistry';

/** Radius of the ring, in world units. */
export const DEBUG_SHAPE_RADIUS = 9;

/**
 * A new debug shape for `kind` (the overlay pools them per kind). Its tint stays white so the
 * overlay's flag tints (damaged, highlighted) show.
 *
 * @example
 * registry.fallback((kind) => debugShape(kind));
 */
export function debugShape(kind: string): Container {
  const c = new Container({ label: `debug:${kind}` });
  const g = new Graphics();
  const color = kindColor(kind);
  const r = DEBUG_SHAPE_RADIUS;
  g.circle(0, 0, r).fill({ color, alpha: 0.25 }).stroke({ width: 2, color });
  g.moveTo(0, 0)
    .lineTo(r * 1.6, 0)
    .stroke({ width: 2, color });
  c.addChild(g);
  return c;
}
