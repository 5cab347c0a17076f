import { afterEach, describe, expect, it } from 'vitest';
import { type Application, Rectangle } from 'pixi.js';
import { GlyphAtlas, GlyphText } from '../GlyphText';
import { createApp } from './testGame';

let app: Application | null = null;
afterEach(() => {
  app?.destroy({ removeView: true }, { children: true });
  app = null;
});

/** Pixels of the stage within 60 of an 0xRRGGBB colour inside `frame`. */
function countColor(a: Application, color: number, frame: Rectangle): number {
  a.renderer.render(a.stage);
  const { pixels } = a.renderer.extract.pixels({ target: a.stage, frame });
  const r = (color >> 16) & 255;
  const g = (color >> 8) & 255;
  const b = color & 255;
  let n = 0;
  for (let i = 0; i < pixels.length; i += 4) {
    if (Math.abs(pixels[i] - r) < 60 && Math.abs(pixels[i + 1] - g) < 60 && Math.abs(pixels[i + 2] - b) < 60) n++;
  }
  return n;
}

describe('GlyphText', () => {
  it('lays lines out from the atlas advances: width of the widest line, one line height per line', () => {
    const atlas = new GlyphAtlas('monospace', 12, 14.4, 1);
    const t = new GlyphText(atlas);
    t.text = 'ab\ncde';
    const adv = atlas.advance(atlas.slot(97));
    expect(adv).toBeGreaterThan(3);
    expect(t.width).toBeCloseTo(atlas.advance(atlas.slot(99)) * 3, 5);
    expect(t.height).toBeCloseTo(14.4 * 2, 5);
    t.text = 'x';
    expect(t.height).toBeCloseTo(14.4, 5);
    expect(t.width).toBeCloseTo(atlas.advance(atlas.slot(120)), 5);
    // The quads of the longer text are gone: the bounds hold one glyph.
    const bounds = t.getLocalBounds();
    expect(bounds.maxX).toBeCloseTo(t.width, 3);
    expect(bounds.maxY).toBeCloseTo(14.4, 3);
    t.text = '';
    expect(t.width).toBe(0);
    expect(t.height).toBe(0);
  });

  it('draws its glyphs in the tint colour, and nothing once emptied', async () => {
    app = await createApp(200, 60);
    const atlas = new GlyphAtlas('monospace', 24, 28.8, 1);
    const t = new GlyphText(atlas);
    t.tint = 0xff3030;
    t.position.set(10, 10);
    app.stage.addChild(t);
    const frame = new Rectangle(0, 0, 200, 60);
    t.text = 'HELLO\u00e9';
    const drawn = countColor(app, 0xff3030, frame);
    expect(drawn).toBeGreaterThan(60);
    // Another text of the same length draws other pixels; a shorter one fewer.
    t.text = 'I';
    const one = countColor(app, 0xff3030, frame);
    expect(one).toBeGreaterThan(5);
    expect(one).toBeLessThan(drawn / 3);
    t.text = '';
    expect(countColor(app, 0xff3030, frame)).toBe(0);
  });
});
