import { Application } from 'pixi.js';

/**
 * The pixi application both demo pages use (the game and the standalone viewer): full window,
 * WebGL, attached to `#app`.
 *
 * @example
 * const app = await createApp();
 */
export async function createApp(): Promise<Application> {
  const app = new Application();
  await app.init({
    resizeTo: window,
    background: 0x1a1e26,
    antialias: false,
    autoDensity: true,
    resolution: Math.min(2, window.devicePixelRatio || 1),
    preference: 'webgl',
  });
  (document.getElementById('app') as HTMLElement).appendChild(app.canvas);
  return app;
}

/**
 * What both pages do when they fail to start: log the error and print it on the page.
 *
 * @example
 * main().catch(showStartupError);
 */
export function showStartupError(err: unknown): void {
  console.error(err);
  const pre = document.createElement('pre');
  pre.style.cssText = 'color:#f66;padding:16px';
  pre.textContent = String(err);
  document.body.append(pre);
}
