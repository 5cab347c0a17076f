/**
 * The demo's HUD (plain DOM over the canvas): the controls line, live status, what recording costs,
 * and the game's own controls: crowd size (the scale control), debug-draw spam, and which channels
 * the preview shows.
 */
import type { Game } from './game/Game';
import { MAX_MOVERS } from './game/Crowd';
import type { Rewind } from './rewind';

export interface HudOptions {
  /** Called when a channel checkbox changes. */
  onChannels: (mask: number) => void;
}

export class Hud {
  public readonly root: HTMLDivElement;
  private readonly status: HTMLDivElement;
  private readonly stats: HTMLDivElement;
  private readonly badge: HTMLDivElement;
  private readonly crowdValue: HTMLSpanElement;
  private lastText = 0;
  private fps = 0;
  private framesSinceText = 0;

  public constructor(private readonly game: Game, private readonly rw: Rewind, options: HudOptions) {
    const root = document.createElement('div');
    root.id = 'hud';
    root.innerHTML = `
      <div class="title">rewindable <span>demo arena</span></div>
      <div class="keys"><b>WASD</b> move · <b>Space</b> jump · <b>click</b>/<b>F</b> fire · <b>wheel</b>/<b>Q E</b> zoom · <b>P</b> freeze</div>
      <div class="status" data-id="status"></div>
      <div class="stats" data-id="stats"></div>
      <div class="controls">
        <label title="Crowd movers (each is an entity recorded every frame)">crowd
          <input data-id="crowd" type="range" min="0" max="${MAX_MOVERS}" step="50" value="${game.crowdTarget}">
          <span data-id="crowdValue">${game.crowdTarget}</span></label>
        <label title="Draw far more than the AI channel's budget"><input data-id="spam" type="checkbox"> spam debug draw</label>
        <div class="channels" data-id="channels"></div>
      </div>`;
    const badge = document.createElement('div');
    badge.id = 'budget-badge';
    document.body.append(root, badge);
    this.root = root;
    this.badge = badge;
    const q = <T extends HTMLElement>(id: string): T => root.querySelector(`[data-id="${id}"]`) as T;
    this.status = q('status');
    this.stats = q('stats');
    this.crowdValue = q('crowdValue');
    const crowd = q<HTMLInputElement>('crowd');
    crowd.addEventListener('input', () => {
      game.crowdTarget = Number(crowd.value);
      this.crowdValue.textContent = crowd.value;
    });
    const spam = q<HTMLInputElement>('spam');
    spam.addEventListener('change', () => {
      game.spam = spam.checked;
    });
    // One checkbox per registered channel, in the channel's colour.
    const box = q('channels');
    let mask = 0xffffffff;
    for (const ch of rw.recorder.channels.list()) {
      const label = document.createElement('label');
      label.style.color = `#${ch.color.toString(16).padStart(6, '0')}`;
      const input = document.createElement('input');
      input.type = 'checkbox';
      input.checked = true;
      input.dataset.channel = String(ch.index);
      input.addEventListener('change', () => {
        mask = input.checked ? (mask | (1 << ch.index)) >>> 0 : (mask & ~(1 << ch.index)) >>> 0;
        options.onChannels(mask);
      });
      label.append(input, ` ${ch.name}`);
      box.append(label);
    }
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
    this.status.textContent = g.paused
      ? 'PAUSED (frozen): the renderer keeps running; P to continue'
      : g.autopilotOn
        ? 'AUTOPILOT: the demo plays itself; press WASD, Space or click to take over'
        : `hp ${Math.ceil(g.player.hp)}${g.energyTimer > 0 ? ' · rapid fire' : ''}`;
    const c = this.rw.cost;
    this.stats.innerHTML =
      `<b>${this.fps.toFixed(0)}</b> fps · <b>${entities}</b> entities · recorder <b>${c.avgMs.toFixed(2)} ms</b>/frame ` +
      `(debug draw ${c.drawMs.toFixed(2)}) · ring <b>${mb(r.ring.bytesUsed)}</b>/${mb(r.options.arenaBytes)} MB = ` +
      `${held} frames (${seconds.toFixed(1)} s)`;
    const over = held > 0 ? reader.overBudgetOf(reader.newestFrame) : 0;
    if (over !== 0) {
      const names: string[] = [];
      for (const ch of r.channels.list()) if ((over & (1 << ch.index)) !== 0) names.push(ch.name);
      this.badge.textContent = `over budget: ${names.join(', ')} (primitives dropped this frame)`;
      this.badge.style.display = 'block';
    } else {
      this.badge.style.display = 'none';
    }
  }
}
