/**
 * The demo's HUD (plain DOM over the canvas, bottom left): the controls line, live status, what
 * recording costs, the game's own controls (crowd size: the scale control; debug-draw spam), and
 * the replay file row (a note for the file, save, load, a link to the standalone viewer). The
 * channel toggles are the rewind panel's (top right); the overlay draws the channels itself.
 */
import type { OverlayCommand, RewindOverlay } from 'rewindable/pixi';
import type { Game } from './game/Game';
import { MAX_MOVERS } from './game/Crowd';
import type { Rewind } from './rewind/recording';

/** What the HUD's replay buttons do. */
export interface HudOptions {
  /** "save replay": download the recording as a .rwd file. */
  onSave: () => void;
  /** "load replay": pick a .rwd file. */
  onLoad: () => void;
}

export class Hud {
  public readonly root: HTMLDivElement;
  private readonly status: HTMLDivElement;
  private readonly stats: HTMLDivElement;
  private readonly crowdValue: HTMLSpanElement;
  private readonly noteInput: HTMLInputElement;
  private lastText = 0;
  private fps = 0;
  private framesSinceText = 0;
  private overlay: RewindOverlay | null = null;
  /** The replay keys line, from the overlay's bindings. */
  private replayKeys = '';

  public constructor(
    private readonly game: Game,
    private readonly rw: Rewind,
    options: HudOptions,
  ) {
    const root = document.createElement('div');
    root.id = 'hud';
    root.innerHTML = `
      <div class="title">rewindable <span>demo arena</span></div>
      <div class="keys"><b>WASD</b> move · <b>Space</b> jump · <b>click</b>/<b>F</b> fire · <b>wheel</b>/<b>Q E</b> zoom ·
        <b data-id="pause-key">P</b> pause &amp; rewind · <b>H</b> help</div>
      <div class="status" data-id="status"></div>
      <div class="stats" data-id="stats"></div>
      <div class="controls">
        <label title="Crowd movers (each is an entity recorded every frame)">crowd
          <input data-id="crowd" type="range" min="0" max="${MAX_MOVERS}" step="50" value="${game.crowdTarget}">
          <span data-id="crowdValue">${game.crowdTarget}</span></label>
        <label title="Draw far more than the AI channel's budget"><input data-id="spam" type="checkbox"> spam debug draw</label>
      </div>
      <div class="controls files">
        <input data-id="note" type="text" maxlength="2000" placeholder="note for the replay file (what went wrong?)">
        <button data-id="save" title="Download the recording as a .rwd replay file">save replay</button>
        <button data-id="load" title="Open a .rwd replay file (or drop one on the page)">load replay</button>
        <a data-id="viewer-link" href="./viewer.html" target="_blank" rel="noopener" title="The standalone replay viewer">viewer ↗</a>
      </div>`;
    document.body.append(root);
    this.root = root;
    const q = <T extends HTMLElement>(id: string): T => root.querySelector(`[data-id="${id}"]`) as T;
    this.status = q('status');
    this.stats = q('stats');
    this.crowdValue = q('crowdValue');
    this.noteInput = q('note');
    const crowd = q<HTMLInputElement>('crowd');
    crowd.addEventListener('input', () => {
      game.crowdTarget = Number(crowd.value);
      this.crowdValue.textContent = crowd.value;
    });
    const spam = q<HTMLInputElement>('spam');
    spam.addEventListener('change', () => {
      game.spam = spam.checked;
    });
    q<HTMLButtonElement>('save').addEventListener('click', () => options.onSave());
    q<HTMLButtonElement>('load').addEventListener('click', () => options.onLoad());
  }

  /**
   * Shows the overlay's state in the status line (paused, playing at which speed, a loaded replay)
   * and its actual keys.
   */
  public showOverlay(overlay: RewindOverlay): void {
    this.overlay = overlay;
    const k = overlay.keyboard;
    const key = (c: OverlayCommand): string => k?.keyLabel(c) ?? '';
    const parts: Array<[string, string]> = [
      [key('togglePlay'), 'play/pause'],
      [`${key('shuttleBack')} ${key('shuttleStop')} ${key('shuttleForward')}`.trim(), 'shuttle'],
      [`${key('stepBack')} ${key('stepForward')}`.trim(), 'step'],
      [`${key('previousMarker')} ${key('nextMarker')}`.trim(), 'markers'],
      [key('cameraMode'), 'camera'],
      [key('bookmark'), 'bookmark'],
      [key('resume'), 'resume'],
      [key('help'), 'all keys'],
    ];
    this.replayKeys = parts
      .filter(([keys]) => keys.length > 0)
      .map(([keys, what]) => `${keys} ${what}`)
      .join(' · ');
    const pause = k?.keyLabel('togglePlay', true) ?? '';
    const keysLine = this.root.querySelector('[data-id="pause-key"]');
    if (keysLine !== null) keysLine.textContent = pause.length > 0 ? pause : '—';
  }

  /** The note the user typed for the next saved replay. */
  public get note(): string {
    return this.noteInput.value.trim();
  }

  /** Keeps the crowd slider in step with a value set elsewhere (the debug hook). */
  public setCrowd(n: number): void {
    const crowd = this.root.querySelector('[data-id="crowd"]') as HTMLInputElement;
    crowd.value = String(n);
    this.crowdValue.textContent = String(n);
  }

  /** Refreshes the text (a few times a second; cheap otherwise). */
  public update(realDt: number): void {
    void realDt;
    this.framesSinceText++;
    const now = performance.now();
    if (now - this.lastText < 500) return;
    this.fps = (this.framesSinceText * 1000) / (now - this.lastText);
    this.framesSinceText = 0;
    this.lastText = now;
    const g = this.game;
    const r = this.rw.recorder;
    const reader = r.reader;
    const held = reader.frameCount;
    const seconds = held > 1 ? reader.timeOf(reader.newestFrame) - reader.timeOf(reader.oldestFrame) : 0;
    const entities = 1 + g.agents.length + g.bodies.length + g.projectiles.length + g.pickups.length + g.crowd.count;
    const mb = (n: number): string => (n / (1024 * 1024)).toFixed(1);
    const o = this.overlay;
    this.status.textContent =
      g.paused && o !== null
        ? `${o.source === 'replay' ? 'REPLAY FILE' : 'REWIND'}: ${o.state === 'playing' ? `playing ×${o.playback.time.speed}` : 'paused'}` +
          ` at frame ${Math.round(o.playback.time.position)}. ${this.replayKeys}`
        : g.autopilotOn
          ? 'AUTOPILOT: the demo plays itself; press WASD, Space or click to take over'
          : `hp ${Math.ceil(g.player.hp)}${g.energyTimer > 0 ? ' · rapid fire' : ''}`;
    const c = this.rw.cost;
    this.stats.innerHTML =
      `<b>${this.fps.toFixed(0)}</b> fps · <b>${entities}</b> entities · recorder <b>${c.avgMs.toFixed(2)} ms</b>/frame ` +
      `(debug draw ${c.drawMs.toFixed(2)}) · ring <b>${mb(r.ring.bytesUsed)}</b>/${mb(r.options.arenaBytes)} MB = ` +
      `${held} frames (${seconds.toFixed(1)} s)`;
  }
}
