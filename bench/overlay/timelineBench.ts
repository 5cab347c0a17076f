/**
 * The timeline and onion-skin benchmark of issue 14, run inside headless Chromium with the overlay
 * benchmark (see `overlayBench.ts`):
 *
 * - `redraw`: `Timeline.update` when everything it shows must be redrawn (the view changed: every
 *   update alternates between two zoom levels), over 900 recorded frames with about 2,000 markers
 *   (spawns, despawns, damage, events, over-budget frames, bookmarks), the dt and byte lanes and the
 *   ruler. This is the most a changed frame can cost the timeline (a zoomed view paging to follow
 *   the playhead, or new markers); `playhead` is the common case, a changed frame that only moves
 *   the playhead.
 * - `onion`: `OnionSkin.update` of one selected entity with ±30 ghosts on a changed frame, and with
 *   its trail over all 900 frames redrawn too (`onionTrail`).
 *
 * Each timed call is followed by an untimed render and an untimed wait for the GPU process (a
 * 1-pixel read), as in the overlay benchmark: the texture upload a redraw makes is then timed on
 * its own, not queued behind the previous frame's rasterisation.
 */
import type { Application } from 'pixi.js';
import { Playback } from '../../src/core/playback/Playback';
import { SampleBuffer } from '../../src/core/playback/SampleBuffer';
import { Recorder } from '../../src/core/record/Recorder';
import { EntityFlags } from '../../src/core/format/layout';
import { OnionSkin } from '../../src/pixi/OnionSkin';
import { Timeline } from '../../src/pixi/Timeline';

/** What `runTimelineBench` measured (ms per call; medians and 95th percentiles). */
export interface TimelineBenchResult {
  redraw: { median: number; p95: number };
  playhead: { median: number; p95: number };
  onion: { median: number; p95: number };
  onionTrail: { median: number; p95: number };
  frames: number;
  markers: number;
  ghosts: number;
  trailPoints: number;
  redraws: number;
}

const pixel = new Uint8Array(4);

/** Renders the stage and waits for the GPU process (untimed). */
function renderAndSync(app: Application): void {
  app.renderer.render(app.stage);
  const gl = (app.renderer as unknown as { gl?: WebGLRenderingContext }).gl;
  if (gl) gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, pixel);
}

function stats(xs: number[]): { median: number; p95: number } {
  const s = [...xs].sort((a, b) => a - b);
  const at = (p: number): number => s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))];
  return { median: at(0.5), p95: at(0.95) };
}

/** 900 frames of 60 movers (10 for the whole recording) whose lives, damage and events give about 2,000 markers. */
export function timelineRecording(frames: number): Recorder {
  const rec = new Recorder({
    maxFrames: frames,
    arenaBytes: 16 * 1024 * 1024,
    primitiveBudget: 4,
    onWarning: () => undefined,
  });
  const hit = rec.eventKind('hit');
  for (let i = 1; i <= 60; i++) rec.describe(i, i % 2 === 0 ? 'walker' : 'runner', `unit ${i}`);
  let next = 61;
  const alive: number[] = [];
  for (let i = 11; i <= 60; i++) alive.push(i);
  for (let f = 0; f < frames; f++) {
    rec.beginFrame(f / 60, f % 97 === 50 ? 0.2 : 1 / 60);
    // Every other frame one unit leaves and a new one arrives: a despawn and a spawn.
    if (f % 2 === 1) {
      const gone = alive.shift() as number;
      rec.despawn(gone);
      alive.push(next);
      rec.describe(next, next % 2 === 0 ? 'walker' : 'runner', `unit ${next}`);
      next++;
    }
    for (let k = -10; k < alive.length; k++) {
      const id = k < 0 ? 11 + k : alive[k];
      const a = f * 0.03 + id;
      rec.entity(
        id,
        400 + Math.cos(a) * (100 + id),
        300 + Math.sin(a) * 80,
        0,
        0,
        0,
        0,
        1,
        (f + id) % 40 < 2 ? EntityFlags.DAMAGED : 0,
      );
    }
    if (f % 3 === 0) rec.event(hit, alive[f % alive.length], 0, 0, 0, 1);
    if (f % 50 === 0) for (let p = 0; p < 6; p++) rec.draw.point(0, 0, 0, 0, 1, 0xffffff); // over budget
    rec.endFrame();
  }
  return rec;
}

/**
 * Times the timeline's redraw and playhead moves, and the onion skin, on `app` (its stage is
 * rendered, untimed, after each timed call).
 */
export function runTimelineBench(app: Application, iterations: number, warmup: number): TimelineBenchResult {
  const frames = 900;
  const rec = timelineRecording(frames);
  const pb = new Playback(rec.reader);
  for (let b = 0; b < 20; b++) pb.bookmarks.add(b * 45, `bookmark ${b}`);
  pb.markers.refresh();
  pb.time.pause();
  const timeline = new Timeline({}, (f) => pb.time.seek(f));
  app.stage.addChild(timeline.root);
  timeline.layout(app.screen.width, app.screen.height);
  timeline.update(pb);
  renderAndSync(app);

  const redraw: number[] = [];
  const playhead: number[] = [];
  const before = timeline.markerRedrawCount;
  for (let k = -warmup; k < iterations; k++) {
    // A changed view: every lane, the ruler and the range are redrawn.
    if (k % 2 === 0) timeline.zoomAt(timeline.barX + timeline.barWidth * 0.4, 3);
    else timeline.resetZoom();
    const t0 = performance.now();
    timeline.update(pb);
    const t1 = performance.now();
    renderAndSync(app);
    // A changed frame that only moves the playhead.
    pb.time.seek(100 + (k & 255));
    const t2 = performance.now();
    timeline.setPlayhead(100 + (k & 255));
    timeline.update(pb);
    const t3 = performance.now();
    renderAndSync(app);
    if (k >= 0) {
      redraw.push(t1 - t0);
      playhead.push(t3 - t2);
    }
  }
  const redraws = timeline.markerRedrawCount - before;
  timeline.root.destroy({ children: true });

  // Onion skin: one entity alive over the whole recording (the longest life held).
  const onion = new OnionSkin({ enabled: true, ghosts: 30, spacing: 1 });
  app.stage.addChild(onion.root);
  const sample = new SampleBuffer();
  const lt = pb.lifetimes;
  let handle = -1;
  let best = -1;
  lt.forEach((h) => {
    const len = lt.lastFrame(h) - lt.firstFrame(h);
    if (len > best) {
      best = len;
      handle = h;
    }
  });
  const first = lt.firstFrame(handle) + 30;
  const span = Math.max(1, lt.lastFrame(handle) - 30 - first);
  const ghosts: number[] = [];
  const trail: number[] = [];
  let ghostCount = 0;
  for (let k = -warmup; k < iterations; k++) {
    // Two frames further each time: every timed update shows a changed frame.
    const f = first + ((2 * (k + warmup)) % span);
    pb.time.seek(f);
    pb.sampler.sample(f, sample);
    const t0 = performance.now();
    onion.update(pb, sample, handle);
    const t1 = performance.now();
    renderAndSync(app);
    onion.invalidate();
    pb.sampler.sample(f + 1, sample);
    const t2 = performance.now();
    onion.update(pb, sample, handle);
    const t3 = performance.now();
    renderAndSync(app);
    if (k >= 0) {
      ghosts.push(t1 - t0);
      trail.push(t3 - t2);
      ghostCount = onion.ghostCount;
    }
  }
  const points = lt.lastFrame(handle) - lt.firstFrame(handle) + 1;
  onion.root.destroy({ children: true });
  return {
    redraw: stats(redraw),
    playhead: stats(playhead),
    onion: stats(ghosts),
    onionTrail: stats(trail),
    frames: rec.reader.frameCount,
    markers: pb.markers.count,
    ghosts: ghostCount,
    trailPoints: points,
    redraws,
  };
}
