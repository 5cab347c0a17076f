/**
 * Records a pickup's 2D display state (issue 19): its scale and alpha (the pop when collected) and
 * its glint animation frame as a texture name, right after its `entity` call.
 */
import type { Recorder } from 'rewindable';
import { GLINT_NAMES } from '../game/pickupLook';
import type { Pickup } from '../game/types';

/**
 * `recorder.display` for pickup `p` (its `entity` must have been recorded just before). Texture
 * names are registered on first use; allocates nothing.
 *
 * @example
 * r.entity(p.id, p.x, p.y, p.z, 0, 0, qz, qw);
 * recordPickupDisplay(r, p);
 */
export function recordPickupDisplay(r: Recorder, p: Pickup): void {
  r.display(p.id, p.scale, p.scale, p.alpha, true, r.texture(GLINT_NAMES[p.glintFrame]));
}
