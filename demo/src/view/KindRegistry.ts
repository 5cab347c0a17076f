/**
 * Kind → factory registry: how a replay viewer turns the recorded kind of an entity ('ball',
 * 'agent', ...) into a display object, with a fallback (debug shapes) for kinds it does not know.
 * Renderer-agnostic: `T` is whatever the factories make (pixi containers in the viewer).
 */

/** Makes the display of an entity of `kind`; null/undefined when it cannot. */
export type KindFactory<T> = (kind: string, id: number, label: string | undefined) => T | null | undefined;

/**
 * Factories by kind, plus a fallback for every other kind. Registering a kind again replaces its
 * factory. `create` never throws for an unknown kind: it uses the fallback, or returns null.
 *
 * @example
 * const registry = new KindRegistry<Container>()
 *   .registerAll(['ball', 'crate'], (kind, id, label) => displays.acquire(kind, label, id))
 *   .fallback((kind) => debugShape(kind));
 * registry.create('ball', 17, 'ball');     // the demo's ball
 * registry.create('spaceship', 3, 'enemy'); // a debug shape; 'spaceship' is now in unknownKinds()
 */
export class KindRegistry<T> {
  private readonly factories = new Map<string, KindFactory<T>>();
  private readonly unknown = new Set<string>();
  private fallbackFactory: KindFactory<T> | null = null;

  /** Registers (or replaces) the factory of `kind`. Throws a TypeError for an empty kind. */
  public register(kind: string, factory: KindFactory<T>): this {
    if (typeof kind !== 'string' || kind.length === 0)
      throw new TypeError('KindRegistry: a kind must be a non-empty string');
    this.factories.set(kind, factory);
    return this;
  }

  /** Registers one factory for several kinds. */
  public registerAll(kinds: Iterable<string>, factory: KindFactory<T>): this {
    for (const k of kinds) this.register(k, factory);
    return this;
  }

  /** The factory for kinds without one (null: those are not created). */
  public fallback(factory: KindFactory<T> | null): this {
    this.fallbackFactory = factory;
    return this;
  }

  /** Whether `kind` has its own factory. */
  public has(kind: string): boolean {
    return this.factories.has(kind);
  }

  /** The registered kinds, in registration order. */
  public kinds(): string[] {
    return [...this.factories.keys()];
  }

  /** Kinds asked for that have no factory of their own (drawn by the fallback, or not at all), in first-seen order. */
  public unknownKinds(): string[] {
    return [...this.unknown];
  }

  /**
   * The display of an entity of `kind`: from its factory, else from the fallback; null when
   * neither makes one. A throwing factory throws (the overlay reports it and draws a debug shape).
   */
  public create(kind: string, id: number, label: string | undefined): T | null {
    const own = this.factories.get(kind);
    if (own !== undefined) return own(kind, id, label) ?? null;
    this.unknown.add(kind);
    return this.fallbackFactory !== null ? (this.fallbackFactory(kind, id, label) ?? null) : null;
  }
}

/**
 * A stable colour for a kind name (0xRRGGBB): its FNV-1a hash picks a hue, at a fixed saturation
 * and lightness that read well on a dark background. The same name always gets the same colour.
 *
 * @example
 * kindColor('spaceship'); // always the same bright colour
 */
export function kindColor(kind: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < kind.length; i++) h = Math.imul(h ^ kind.charCodeAt(i), 0x01000193);
  const hue = ((h >>> 0) % 360) / 360;
  return hslToRgb(hue, 0.65, 0.62);
}

/** HSL (each 0..1) to 0xRRGGBB. */
export function hslToRgb(h: number, s: number, l: number): number {
  const q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  const p = 2 * l - q;
  const channel = (t: number): number => {
    let u = t;
    if (u < 0) u += 1;
    if (u > 1) u -= 1;
    const v = u < 1 / 6 ? p + (q - p) * 6 * u : u < 1 / 2 ? q : u < 2 / 3 ? p + (q - p) * (2 / 3 - u) * 6 : p;
    return Math.round(Math.max(0, Math.min(1, v)) * 255);
  };
  return (channel(h + 1 / 3) << 16) | (channel(h) << 8) | channel(h - 1 / 3);
}
