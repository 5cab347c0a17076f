/**
 * The viewer page's live mode (issue 18): `viewer.html?live=ws://127.0.0.1:7070` (a server from
 * `npx rewindable serve`, which opens this page with the parameter itself) or `viewer.html?live=tab`
 * (a game in another tab of this origin), or the "attach live" control. `&token=T` gives the
 * server's token. Wires a `LiveAttach` and its `LivePanel` to the page, and sets `window.__live`
 * for the end-to-end tests and the console.
 */
import type { Application } from 'pixi.js';
import type { RewindOverlay } from 'rewindable/pixi';
import type { Banner } from './Banner';
import { LiveAttach, type LiveAttachState } from './LiveAttach';
import { LivePanel } from './LivePanel';

/** `window.__live`: the viewer's live link (null members until attached). */
export interface LiveHook {
  /** The link, once attached. */
  readonly attach: LiveAttach | null;
  /** Attaches to `target` (`ws://…` or `'tab'`); a second call does nothing. */
  connect(target: string): LiveAttach;
  /** What the panel shows (null until attached). */
  state(): LiveAttachState | null;
  /** Follow the newest frame (true) or stop (false): the same as the panel's button. */
  setFollowing(on: boolean): void;
  /** `.rwd` bytes of frames `from..to` of the viewer's copy. */
  saveRange(from: number, to: number): Uint8Array;
}

declare global {
  interface Window {
    __live?: LiveHook;
  }
}

/** Where the page tells the user what it is waiting for. */
export interface LiveViewerElements {
  readonly hud: HTMLElement;
  readonly empty: HTMLElement;
  readonly info: HTMLElement;
}

/**
 * Adds the live controls to the viewer page and attaches when the URL says `?live=`.
 *
 * @example
 * setUpLiveViewer(app, overlay, banner, { hud, empty, info }, window.location.search);
 */
export function setUpLiveViewer(
  app: Application,
  overlay: RewindOverlay,
  banner: Banner,
  els: LiveViewerElements,
  search: string,
): LiveHook {
  const q = new URLSearchParams(search);
  const token = q.get('token');
  let live: LiveAttach | null = null;
  const connect = (target: string): LiveAttach => {
    if (live !== null) return live;
    if (target !== 'tab' && !/^wss?:\/\//.test(target)) {
      banner.show('error', `live: "${target}" is neither ws://HOST:PORT nor tab`);
      throw new Error(`live: bad target ${target}`);
    }
    const l = new LiveAttach(overlay, target, {
      token: token !== null && token.length > 0 ? token : null,
      onError: (m) => banner.show('warning', m),
    });
    live = l;
    els.empty.innerHTML = '';
    const msg = document.createElement('div');
    msg.append(
      `waiting for a live game on `,
      Object.assign(document.createElement('b'), { textContent: target }),
      document.createElement('br'),
      target === 'tab' ? 'start the demo with ?live=tab in another tab' : `start the demo with ?live=${target}`,
    );
    els.empty.append(msg);
    // Before the overlay's update (priority -24): the playhead is on the newest frame when it draws.
    let refreshed = -Infinity;
    app.ticker.add(() => {
      l.tick();
      // The controls' text, four times a second (the playhead itself is drawn every tick).
      const now = performance.now();
      if (now - refreshed < 250) return;
      refreshed = now;
      panel.refresh();
      if (l.shown) {
        els.empty.style.display = 'none';
        const s = l.state();
        const session = s.sessions.find((x) => x.session === s.session);
        const text = `live: ${session?.game ?? 'game'} (build ${session?.buildId ?? '?'}), ${s.frames} frames held`;
        if (els.info.textContent !== text) els.info.textContent = text;
      }
    });
    panel.bind(l);
    return l;
  };
  const panel = new LivePanel(els.hud, banner, (target) => {
    try {
      connect(target);
    } catch {
      // Already in the banner.
    }
  });
  const hook: LiveHook = {
    get attach() {
      return live;
    },
    connect,
    state: () => live?.state() ?? null,
    setFollowing: (on) => live?.setFollowing(on),
    saveRange: (from, to) => {
      if (live === null) throw new Error('live: not attached');
      return live.saveRange(from, to);
    },
  };
  window.__live = hook;
  const target = q.get('live');
  if (target !== null && target.length > 0) {
    try {
      connect(target);
    } catch {
      // Already in the banner.
    }
  }
  return hook;
}
