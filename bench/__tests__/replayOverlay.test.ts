import { describe, expect, it } from 'vitest';
import { loadReplay, saveReplay } from '../../src/replay/index';
import type { BenchContext } from '../lib/BenchSection';
import type { OverlayBenchResult, SeriesStats } from '../overlay/overlayBench';
import type { InspectorBenchResult } from '../overlay/inspectorBench';
import type { TimelineBenchResult } from '../overlay/timelineBench';
import { checkOverlayResult, overlayOptions, overlayTable } from '../sections/overlay';
import { checkRoundTrip, measureCodec, recordReplaySource } from '../sections/replay';

const context: BenchContext = {
  log: () => undefined,
  collectGarbage: () => undefined,
  quick: true,
  peers: [],
  outDir: '',
  probe: () => 1.5,
  settle: async () => 1.5,
};

describe('the replay section', () => {
  it('records a source that holds every frame, and measures both codecs with a checked round trip', () => {
    const source = recordReplaySource(40, 50, 1 << 20);
    expect(source.framesHeld).toBe(40);
    const ringBytes = source.recorder.ring.bytesUsed;
    expect(ringBytes).toBe(40 * (88 + 50 * 20));
    const plain = measureCodec(source, 'none', 2, context);
    expect(plain.result.framesChecked).toBe(40);
    expect(plain.result.saveRunsMs).toHaveLength(2);
    expect(plain.result.fileBytes).toBe(plain.bytes.length);
    // Frames are stored as they are in the ring: the file is the ring plus a small header.
    expect(plain.result.fileToRing).toBeGreaterThan(1);
    expect(plain.result.fileToRing).toBeLessThan(1.1);
    expect(plain.result.fileBytesPerEntityFrame).toBeCloseTo(plain.bytes.length / (40 * 1000), 12);
    const xor = measureCodec(source, 'xor-delta', 1, context);
    expect(xor.result.codec).toBe('xor-delta');
    expect(xor.result.fileBytes).toBeLessThan(plain.result.fileBytes);
    expect(xor.result.framesChecked).toBe(40);
  });

  it('checkRoundTrip refuses a replay whose frames or entities differ', () => {
    const source = recordReplaySource(12, 20, 1 << 20);
    const bytes = saveReplay(source.recorder, { buildId: 'bench' });
    expect(checkRoundTrip(source.recorder.reader, loadReplay(bytes).reader)).toBe(12);
    const words = loadReplay(bytes);
    const at = words.ring.offsetOf(5);
    words.ring.f32[at + 88 / 4 + 20 + 3] += 1; // a position of frame 5
    expect(() => checkRoundTrip(source.recorder.reader, words.reader)).toThrow(/frame 5 differs/);
    const ids = loadReplay(bytes);
    ids.entities.ids[3] += 1;
    expect(() => checkRoundTrip(source.recorder.reader, ids.reader)).toThrow(/handle 3/);
    // A replay of fewer frames.
    const shorter = recordReplaySource(11, 20, 1 << 20);
    expect(() => checkRoundTrip(source.recorder.reader, loadReplay(saveReplay(shorter.recorder)).reader)).toThrow(
      /loaded 11 frames/,
    );
  });
});

describe('the overlay section', () => {
  const s = (median: number): SeriesStats => ({ median, p95: median * 2, mean: median, min: median / 2 });
  const result = (): OverlayBenchResult => ({
    update: s(1.2),
    renderChanged: s(4),
    changedFrame: s(5.2),
    scrubChangedFrame: s(5.4),
    scrubUpdate: s(1.3),
    scrubRender: s(4.1),
    unchangedUpdate: s(0.01),
    renderUnchanged: s(0.2),
    channelsOffUpdate: s(0.5),
    channelsOffRender: s(0.6),
    gpuChanged: s(20),
    samplesPerChangedUpdate: 1,
    samplesPerUnchangedUpdate: 0,
    entitiesStored: 1000,
    primitivesStored: 2000,
    maxSpriteErrorPx: 0,
    timerResolutionMs: 0.005,
    crossOriginIsolated: true,
    timeline: {
      redraw: s(0.2),
      playhead: s(0.01),
      onion: s(0.3),
      onionTrail: s(0.6),
      frames: 900,
      markers: 2050,
      ghosts: 60,
      trailPoints: 900,
      redraws: 2,
    },
    inspector: { update: s(0.2), frames: 900, fields: 10, graphs: 9, redraws: 230 }, // overlayOptions(false): 200 + 30 warmup
    phaseSeconds: { setup: 0, record: 0, playing: 0, scrubbing: 0, unchanged: 0, channelsOff: 0 },
    renderer: 'test',
    userAgent: 'test',
    options: {
      entities: 1000,
      primitives: 2000,
      texts: 20,
      recordFrames: 120,
      warmup: 1,
      iterations: 1,
      width: 1,
      height: 1,
      resolution: 1,
      timeline: true,
    },
  });

  it('accepts a result that measured what was asked, and refuses one that did not', () => {
    const asked = overlayOptions(false);
    expect(asked.entities).toBe(1000);
    expect(asked.primitives).toBe(2000);
    expect(() => checkOverlayResult(result(), asked)).not.toThrow();
    expect(() => checkOverlayResult({ ...result(), primitivesStored: 1024 }, asked)).toThrow(/1024 primitives/);
    expect(() => checkOverlayResult({ ...result(), entitiesStored: 999 }, asked)).toThrow(/999 entities/);
    expect(() => checkOverlayResult({ ...result(), samplesPerChangedUpdate: 0.5 }, asked)).toThrow(
      /samples per changed/,
    );
    expect(() => checkOverlayResult({ ...result(), samplesPerUnchangedUpdate: 1 }, asked)).toThrow(
      /samples per unchanged/,
    );
    expect(() => checkOverlayResult({ ...result(), maxSpriteErrorPx: 3 }, asked)).toThrow(/recorded position/);
    expect(() => checkOverlayResult({ ...result(), update: s(NaN) }, asked)).toThrow(/not a number/);
    const tl = result().timeline as TimelineBenchResult;
    expect(() => checkOverlayResult({ ...result(), timeline: null }, asked)).toThrow(/timeline was not run/);
    expect(() => checkOverlayResult({ ...result(), timeline: { ...tl, markers: 300 } }, asked)).toThrow(/300 markers/);
    expect(() => checkOverlayResult({ ...result(), timeline: { ...tl, ghosts: 10 } }, asked)).toThrow(/10 ghosts/);
    expect(() => checkOverlayResult({ ...result(), timeline: { ...tl, redraw: s(NaN) } }, asked)).toThrow(
      /timeline timing/,
    );
    const ins = result().inspector as InspectorBenchResult;
    const withIns = (i: Partial<InspectorBenchResult>) => ({ ...result(), inspector: { ...ins, ...i } });
    expect(() => checkOverlayResult({ ...result(), inspector: null }, asked)).toThrow(/inspector was not run/);
    expect(() => checkOverlayResult(withIns({ fields: 0 }), asked)).toThrow(/0 fields/);
    expect(() => checkOverlayResult(withIns({ redraws: 3 }), asked)).toThrow(/redrew 3/);
    expect(() => checkOverlayResult(withIns({ update: s(NaN) }), asked)).toThrow(/inspector timing/);
    expect(overlayOptions(true).iterations).toBeLessThan(asked.iterations ?? 0);
  });

  it('tabulates update and render per series', () => {
    const lines = overlayTable(result());
    expect(lines).toHaveLength(6);
    expect(lines[2]).toMatch(/^playing: the next frame +1\.200 +2\.400 +4\.000 +8\.000 +5\.200$/);
    expect(lines[5]).toMatch(/^playing, every channel off +0\.500/);
  });
});
