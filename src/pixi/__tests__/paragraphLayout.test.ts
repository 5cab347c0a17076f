import { describe, expect, it } from 'vitest';
import { Channel } from '../../core/store/ChannelRegistry';
import { Recorder } from '../../core/record/Recorder';
import type { RewindOverlay } from '../RewindOverlay';
import { overlayFixture } from './testGame';

const { make } = overlayFixture();

/** Two-line paragraphs on one channel at `spots`, 4 frames. */
function recording(spots: ReadonlyArray<readonly [number, number]>): Recorder {
  const rec = new Recorder({ maxFrames: 8, arenaBytes: 1 << 18 });
  for (let f = 0; f < 4; f++) {
    rec.beginFrame(f / 60, 1 / 60);
    spots.forEach(([x, y], i) => rec.draw.text(Channel.AI, x, y, 0, `guard ${i}\nstate: patrol`, 0xffffff));
    rec.endFrame();
  }
  return rec;
}

/** Screen boxes of the shown paragraphs' backings, and the pairs that overlap. */
function overlaps(overlay: RewindOverlay): { boxes: number; pairs: string[] } {
  overlay.update(0);
  const pool = overlay.layers.paragraphs;
  const boxes = [];
  for (let i = 0; i < pool.count; i++) boxes.push(pool.textAt(i)!.parent!.children[1].getBounds());
  const pairs: string[] = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i];
      const b = boxes[j];
      if (a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height)
        pairs.push(`${i}×${j}`);
    }
  }
  return { boxes: boxes.length, pairs };
}

describe('paragraph layout', () => {
  it('stacks paragraphs that would overlap, with a leader line, and leaves lone ones at their anchor', async () => {
    const { overlay } = await make(0);
    overlay.showReplay(
      recording([
        [200, 200],
        [200, 230],
        [226, 215],
        [500, 100],
      ]),
    );
    overlay.playback.time.seek(2);
    expect(overlaps(overlay)).toEqual({ boxes: 4, pairs: [] });
    const pool = overlay.layers.paragraphs;
    const lifts = [0, 1, 2, 3].map((i) => pool.liftAt(i));
    // The lowest anchor stays; the two above it are lifted; the lone one far away stays.
    expect(lifts[1]).toBe(0);
    expect(lifts[0]).toBeGreaterThan(0);
    expect(lifts[2]).toBeGreaterThan(0);
    expect(lifts[3]).toBe(0);
    const leader = (i: number) => pool.textAt(i)!.parent!.children[0];
    expect([0, 1, 2, 3].map((i) => leader(i).visible)).toEqual([true, false, true, false]);
  });

  it('keeps them apart under a zoomed-out, rotated camera, and allocates no new paragraphs', async () => {
    const { overlay } = await make(0);
    overlay.showReplay(
      recording([
        [200, 200],
        [240, 230],
        [260, 210],
        [300, 260],
        [220, 250],
      ]),
    );
    overlay.playback.time.seek(1);
    expect(overlaps(overlay).pairs).toEqual([]);
    const created = overlay.layers.paragraphs.created;
    overlay.camera.zoomAt(0.5, 400, 300);
    overlay.camera.rotateBy(0.7);
    expect(overlaps(overlay)).toEqual({ boxes: 5, pairs: [] });
    overlay.playback.time.seek(3);
    expect(overlaps(overlay)).toEqual({ boxes: 5, pairs: [] });
    expect(overlay.layers.paragraphs.created).toBe(created);
  });
});
