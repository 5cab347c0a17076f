/**
 * The explosions of a recorded position, drawn while the overlay shows a recording (the game's own
 * effect layer is hidden then). Stateless: each `draw` redraws from the sample alone.
 */
import { Graphics } from 'pixi.js';
import { drawExplosion } from './explosionFx';

/** Structural view of the explosion sample (`ExplosionSample` in rewind/explosions.ts). */
export interface ExplosionList {
  count: number;
  ids: Int32Array;
  data: Float32Array;
  ages: Float32Array;
}

/**
 * @example
 * const effects = new ReplayEffects();
 * overlay.worldOverlay.addChildAt(effects.layer, 1);
 * effects.draw(sample); // after explosionsAt(reader, position, sample)
 */
export class ReplayEffects {
  public readonly layer = new Graphics({ label: 'replay-fx' });
  private drawn = false;

  /** Redraws the layer with the explosions of `s`. */
  public draw(s: ExplosionList): void {
    this.clear();
    for (let i = 0; i < s.count; i++) {
      drawExplosion(this.layer, s.data[i * 3], s.data[i * 3 + 1], s.data[i * 3 + 2], s.ids[i], s.ages[i]);
    }
    this.drawn = s.count > 0;
  }

  /** Empties the layer. */
  public clear(): void {
    if (!this.drawn) return;
    this.layer.clear();
    this.drawn = false;
  }
}
