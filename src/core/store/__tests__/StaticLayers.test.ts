import { describe, expect, it } from 'vitest';
import { StaticLayers } from '../StaticLayers';

describe('StaticLayers without an encoder (the layers of a loaded replay)', () => {
  it('keeps encoded layers and refuses to draw with a clear error', () => {
    const layers = new StaticLayers();
    const words = new Uint32Array([1, 2, 3]);
    const layer = layers.setEncoded('walls', words, 1);
    expect(layers.get('walls')).toBe(layer);
    expect(layers.version).toBe(1);
    expect(() => layers.set('navgrid', () => {})).toThrow(/loaded from a replay file/);
    expect(layers.get('navgrid')).toBeUndefined();
    expect(layers.version).toBe(1);
  });
});
