/**
 * Functions evaluated inside the demo or viewer page (`page.evaluate(fn, arg)`). Each is
 * self-contained: playwright sends its source text, so it may use only its argument and the page's
 * globals — no imports, no module-scope values.
 */
import type { E2EWindow } from './hooks';

/** One entity compared: what is shown against what was recorded. */
export interface ShownVsRecorded {
  /** Entities present in the frame whose display was checked: live (taken over) and re-created. */
  live: number;
  recreated: number;
  /** Live entities spawned after the frame (they must be hidden). */
  hiddenLater: number;
  /** Human-readable mismatches, "kind id: expected … seen …". */
  bad: string[];
}

/**
 * In the demo page: for every life held that is present in `frame`, the displayed transform (the
 * live display through `__demo.transform(id)`, or the re-created one through the overlay's
 * presenter) equals `__demo.recordedAt(id, frame)`: x and y exactly, rotation within quantization,
 * visible. Every live entity spawned after `frame` is hidden. Call with the playhead on `frame`
 * (an integer) and after a render.
 */
export function demoShownVsRecorded(frame: number): ShownVsRecorded {
  const d = (window as unknown as E2EWindow).__demo;
  const o = d.overlay;
  const out: ShownVsRecorded = { live: 0, recreated: 0, hiddenLater: 0, bad: [] };
  const TAU = Math.PI * 2;
  const angleGap = (a: number, b: number): number => Math.abs(((((a - b) % TAU) + TAU + Math.PI) % TAU) - Math.PI);
  for (const l of d.lifetimes()) {
    const name = `${l.kind ?? '?'} ${l.id} (handle ${l.handle}, frames ${l.first}..${l.last}${l.existsAtNewest ? ', live' : ', despawned'})`;
    if (l.first > frame) {
      if (!l.existsAtNewest) continue;
      const t = d.transform(l.id);
      if (t?.visible)
        out.bad.push(`${name}: spawned after frame ${frame}, expected hidden, seen visible at (${t.x}, ${t.y})`);
      else out.hiddenLater++;
      continue;
    }
    if (l.last < frame) {
      const obj = o.presenter.objectOf(l.handle);
      if (obj?.visible && obj.parent !== null)
        out.bad.push(`${name}: gone before frame ${frame}, expected hidden, seen visible at (${obj.x}, ${obj.y})`);
      continue;
    }
    const rec = d.recordedAt(l.id, frame);
    if (rec === null) {
      out.bad.push(`${name}: present in frame ${frame} by its lifetime, but recordedAt(${l.id}, ${frame}) is null`);
      continue;
    }
    if (rec.handle !== l.handle) out.bad.push(`${name}: recordedAt(${l.id}, ${frame}).handle is ${rec.handle}`);
    let shown: { x: number; y: number; rotation: number; visible: boolean } | null;
    if (l.existsAtNewest) {
      shown = d.transform(l.id);
      out.live++;
    } else {
      const obj = o.presenter.objectOf(l.handle);
      shown =
        obj === null
          ? null
          : { x: obj.x, y: obj.y, rotation: obj.rotation, visible: obj.visible && obj.parent !== null };
      out.recreated++;
    }
    if (shown === null) {
      out.bad.push(`${name}: expected displayed at recorded (${rec.x}, ${rec.y}), seen no display object`);
      continue;
    }
    const gap = angleGap(shown.rotation, rec.angle);
    if (shown.x !== rec.x || shown.y !== rec.y || !(gap <= 5e-3) || !shown.visible) {
      out.bad.push(
        `${name}: expected x=${rec.x} y=${rec.y} angle=${rec.angle} visible, ` +
          `seen x=${shown.x} y=${shown.y} rotation=${shown.rotation} (gap ${gap.toExponential(2)} rad) visible=${shown.visible}`,
      );
    }
  }
  return out;
}

/** A snapshot of everything the game shows: each entity display, the world (camera) transform, the game clock. */
export interface GameSnapshot {
  displays: Record<string, { kind: string; x: number; y: number; rotation: number; visible: boolean; tint: number }>;
  world: {
    x: number;
    y: number;
    rotation: number;
    scaleX: number;
    scaleY: number;
    pivotX: number;
    pivotY: number;
    visible: boolean;
  };
  steps: number;
  frames: number;
  newestFrame: number;
}

/**
 * In the demo page: the snapshot of every entity display the game owns. `action` runs in the same
 * synchronous turn (no tick in between): 'pause' pauses the overlay right AFTER the snapshot,
 * 'resume' resumes it right BEFORE.
 */
export function demoSnapshot(action: 'none' | 'pause' | 'resume'): GameSnapshot {
  const d = (window as unknown as E2EWindow).__demo;
  if (action === 'resume') d.overlay.resume();
  const displays: GameSnapshot['displays'] = {};
  for (const kind of d.kinds) {
    for (const id of d.displayedIds(kind)) {
      const t = d.transform(id);
      if (t !== null)
        displays[String(id)] = { kind, x: t.x, y: t.y, rotation: t.rotation, visible: t.visible, tint: t.tint };
    }
  }
  const w = d.view.world;
  const s = d.stats();
  const snap: GameSnapshot = {
    displays,
    world: {
      x: w.x,
      y: w.y,
      rotation: w.rotation,
      scaleX: w.scale.x,
      scaleY: w.scale.y,
      pivotX: w.pivot.x,
      pivotY: w.pivot.y,
      visible: w.visible,
    },
    steps: s.steps,
    frames: s.frames,
    newestFrame: s.newestFrame,
  };
  if (action === 'pause') d.overlay.pause();
  return snap;
}

/** Playhead samples while playing: one per tick, after the overlay advanced it. */
export interface PlayRun {
  /** Playhead position after each tick (index 0: the first tick after `play()`). */
  positions: number[];
  /** Real seconds each tick gave the overlay (ticker deltaMS, capped as the overlay caps it). */
  dts: number[];
  /** Recorded seconds between positions[0] and positions[last], from the frames' recorded dt. */
  recordedSeconds: number;
  /** Real seconds of ticks 1..last. */
  realSeconds: number;
  /** State and speed at the end, before pausing again. */
  state: string;
  speed: number;
}

/**
 * In the demo or viewer page: seeks to `from`, plays at `speed` for `ticks` ticks, pauses, and
 * measures how far the playhead moved in RECORDED time (each frame lasting its recorded dt, as the
 * time control plays it) against the real time the ticks gave the overlay.
 */
export function playAndMeasure(arg: {
  hook: '__demo' | '__viewer';
  from: number;
  speed: number;
  ticks: number;
}): Promise<PlayRun> {
  const w = window as unknown as E2EWindow;
  const o = arg.hook === '__demo' ? w.__demo.overlay : w.__viewer.overlay;
  const time = o.playback.time;
  const ticker = o.app.ticker;
  const maxTick = o.options.maxTickSeconds;
  time.seek(arg.from);
  time.setSpeed(arg.speed);
  time.play();
  return new Promise((done) => {
    const positions: number[] = [];
    const dts: number[] = [];
    const fn = (t: { deltaMS: number }): void => {
      const dt = t.deltaMS / 1000;
      dts.push(dt > 0 ? Math.min(dt, maxTick) : 0);
      positions.push(time.position);
      if (positions.length <= arg.ticks) return;
      ticker.remove(fn);
      const state = time.state;
      const speed = time.speed;
      time.pause();
      // Recorded seconds from p0 to p1: frame f-1 → f lasts frameDuration(f).
      const span = (p0: number, p1: number): number => {
        const lo = Math.min(p0, p1);
        const hi = Math.max(p0, p1);
        let s = 0;
        for (let f = Math.floor(lo) + 1; f <= Math.ceil(hi); f++) {
          const part = Math.min(hi, f) - Math.max(lo, f - 1);
          if (part > 0) s += part * time.frameDuration(f);
        }
        return s;
      };
      let real = 0;
      for (let i = 1; i < dts.length; i++) real += dts[i];
      done({
        positions,
        dts,
        recordedSeconds: span(positions[0], positions[positions.length - 1]),
        realSeconds: real,
        state,
        speed,
      });
    };
    // After the overlay (-24) advanced the playhead for this tick.
    ticker.add(fn, undefined, -50);
  });
}

/** In the demo page: saves the recording shown (`__demo.saveReplayBytes()`) and returns the file as base64. */
export function demoSaveBase64(): string {
  const bytes = (window as unknown as E2EWindow).__demo.saveReplayBytes();
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

/** What loading a file did: threw (with the error's name, code and message) or not. */
export interface LoadOutcome {
  threw: boolean;
  name: string;
  code: string;
  message: string;
}

/** In the demo or viewer page: `loadReplayBytes` of the base64 file, catching what it throws. */
export function loadBase64(arg: { hook: '__demo' | '__viewer'; base64: string }): LoadOutcome {
  const w = window as unknown as E2EWindow;
  const bin = atob(arg.base64);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  try {
    (arg.hook === '__demo' ? w.__demo : w.__viewer).loadReplayBytes(bytes);
    return { threw: false, name: '', code: '', message: '' };
  } catch (err) {
    const e = err as { name?: unknown; code?: unknown; message?: unknown };
    return { threw: true, name: String(e.name), code: String(e.code), message: String(e.message) };
  }
}
