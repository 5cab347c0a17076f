/**
 * A pixel snapshot of the canvas for end-to-end tests: render the stage now, read the pixels back
 * and hash them, so a test can tell whether what is on screen changed (a channel toggled, a seek).
 */
import type { Application, WebGLRenderer } from 'pixi.js';

/**
 * FNV-1a over the bytes' 32-bit words (and any tail bytes): equal pixels give equal hashes, and a
 * change of any byte changes the hash (with 2^-32 odds of a collision). Unsigned 32-bit result.
 *
 * @example
 * hashBytes(new Uint8Array([1, 2, 3, 4])); // a stable uint32
 */
export function hashBytes(bytes: Uint8Array): number {
  let h = 0x811c9dc5;
  const words = bytes.byteLength >>> 2;
  const aligned = bytes.byteOffset % 4 === 0;
  const u32 = aligned ? new Uint32Array(bytes.buffer, bytes.byteOffset, words) : null;
  for (let i = 0; i < words; i++) {
    const w =
      u32 !== null
        ? u32[i]
        : bytes[i * 4] | (bytes[i * 4 + 1] << 8) | (bytes[i * 4 + 2] << 16) | (bytes[i * 4 + 3] << 24);
    h = Math.imul(h ^ w, 0x01000193);
  }
  for (let i = words * 4; i < bytes.byteLength; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  return h >>> 0;
}

/**
 * Renders `app.stage` and returns the hash of the canvas's RGBA pixels (of the screen rows above
 * `above`, in screen pixels, when given) (read straight from the
 * WebGL drawing buffer right after the render, so `preserveDrawingBuffer` is not needed; with
 * another renderer, pixi's extract of the stage over the screen rectangle).
 *
 * @example
 * const before = canvasChecksum(app);
 * overlay.setChannel(Channel.AI, false);
 * overlay.update(0);
 * canvasChecksum(app) !== before; // true when the AI channel drew anything
 * canvasChecksum(app, overlay.timeline.top); // only the screen above the timeline
 */
export function canvasChecksum(app: Application, above = Number.POSITIVE_INFINITY): number {
  app.renderer.render(app.stage);
  const gl = (app.renderer as Partial<WebGLRenderer>).gl;
  const screenH = app.screen.height;
  const rows = Math.max(0, Math.min(screenH, above)); // screen pixels from the top
  if (gl !== undefined && gl !== null) {
    const w = gl.drawingBufferWidth;
    const h = gl.drawingBufferHeight;
    // WebGL rows start at the bottom: the top `rows` screen pixels are the last device rows.
    const n = Math.round((rows / screenH) * h);
    const pixels = new Uint8Array(w * n * 4);
    gl.readPixels(0, h - n, w, n, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
    return hashBytes(pixels);
  }
  const frame = app.screen.clone();
  frame.height = rows;
  const out = app.renderer.extract.pixels({ target: app.stage, frame });
  return hashBytes(new Uint8Array(out.pixels.buffer, out.pixels.byteOffset, out.pixels.byteLength));
}
