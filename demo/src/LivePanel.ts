/**
 * The viewer page's live controls (viewer.html, `#viewer-hud`): attach to a server or to tabs, the
 * session list (game, build, start time), follow / pause, save a range as a `.rwd` file, and the
 * two-way commands, disabled (with a tooltip saying why) unless the game allows them.
 */
import type { LiveCommandName, LiveSessionInfo } from 'rewindable/live';
import type { Banner } from './Banner';
import type { LiveAttach } from './LiveAttach';
import { downloadBytes } from './ReplayFiles';

/** The labels of the two-way commands. */
const COMMANDS: ReadonlyArray<{ name: LiveCommandName; label: string; what: string }> = [
  { name: 'pause', label: 'pause the game here', what: 'pauses the game and shows this frame in its overlay' },
  { name: 'seek', label: "jump the game's overlay here", what: "moves the paused game's overlay to this frame" },
];

function el<K extends keyof HTMLElementTagNameMap>(tag: K, id: string, text = ''): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  e.dataset.id = id;
  if (text.length > 0) e.textContent = text;
  return e;
}

/**
 * One line of the session list: the game, its build, when it started (local time), whether it is
 * still connected.
 *
 * @example
 * describeSession({ game: 'demo', buildId: 'b1', startedAt: '2026-01-01T10:00:00Z', connected: true, ... });
 */
export function describeSession(s: LiveSessionInfo): string {
  const t = new Date(s.startedAt);
  const when = Number.isNaN(t.getTime()) ? s.startedAt : t.toLocaleString();
  return `${s.game} · build ${s.buildId.length > 0 ? s.buildId : '(none)'} · started ${when}${s.connected ? '' : ' · ended'}`;
}

/**
 * @example
 * const panel = new LivePanel(hud, banner, (target) => attach(target));
 * panel.bind(live); // once attached
 */
export class LivePanel {
  public readonly root: HTMLDivElement;
  private readonly url = el('input', 'live-url');
  private readonly attachButton = el('button', 'live-attach', 'attach live');
  private readonly sessions = el('select', 'live-sessions');
  private readonly status = el('span', 'live-status');
  private readonly followButton = el('button', 'live-follow', 'pause');
  private readonly from = el('input', 'live-from');
  private readonly to = el('input', 'live-to');
  private readonly saveButton = el('button', 'live-save', 'save range');
  private readonly commandButtons = new Map<LiveCommandName, HTMLButtonElement>();
  private live: LiveAttach | null = null;
  private sessionsShown = '';
  private statusShown = '';

  public constructor(
    parent: HTMLElement,
    private readonly banner: Banner,
    attach: (target: string) => void,
  ) {
    this.root = el('div', 'live');
    this.root.className = 'live';
    const connect = el('div', 'live-connect');
    connect.className = 'row';
    this.url.placeholder = 'ws://127.0.0.1:7070 or tab';
    this.url.title =
      'A rewindable serve URL (npx rewindable serve), or "tab" for a game in another tab of this page\'s origin';
    this.attachButton.title = 'Follow a running game live (the game streams with ?live=... on its URL)';
    this.attachButton.addEventListener('click', () => {
      const target = this.url.value.trim();
      if (target.length > 0) attach(target);
    });
    connect.append(this.url, this.attachButton);

    const follow = el('div', 'live-follow-row');
    follow.className = 'row';
    this.sessions.title = 'Live sessions: the game, its build id, when it started';
    this.sessions.addEventListener('change', () => {
      if (this.sessions.value.length > 0) this.live?.follow(this.sessions.value);
    });
    this.followButton.addEventListener('click', () => this.live?.setFollowing(!this.live.following));
    follow.append(this.sessions, this.followButton, this.status);

    const tools = el('div', 'live-tools');
    tools.className = 'row';
    for (const input of [this.from, this.to]) {
      input.type = 'number';
      input.step = '1';
      input.size = 7;
    }
    this.from.placeholder = 'oldest';
    this.to.placeholder = 'newest';
    this.from.title = 'First frame to save (empty: the oldest held)';
    this.to.title = 'Last frame to save (empty: the newest held)';
    this.saveButton.title = "Save these frames of the viewer's copy as a .rwd replay";
    this.saveButton.addEventListener('click', () => this.save());
    tools.append('frames', this.from, '–', this.to, this.saveButton);
    for (const c of COMMANDS) {
      const b = el('button', `live-cmd-${c.name}`, c.label);
      b.disabled = true;
      b.addEventListener('click', () => void this.command(c.name, c.label));
      this.commandButtons.set(c.name, b);
      tools.append(b);
    }
    this.root.append(connect, follow, tools);
    parent.append(this.root);
    this.setAttached(false);
  }

  /** Shows the controls of an attached live link (and hides the attach row). */
  public bind(live: LiveAttach): void {
    this.live = live;
    this.url.value = live.target;
    this.setAttached(true);
    live.onChange(() => this.refresh());
    this.refresh();
  }

  /** Brings the status line and the buttons up to date (cheap when nothing changed). */
  public refresh(): void {
    const live = this.live;
    if (live === null) return;
    const s = live.state();
    const key = `${s.sessions.map((x) => `${x.session}|${x.connected}`).join(',')}>${s.session}`;
    if (key !== this.sessionsShown) {
      this.sessionsShown = key;
      const options = s.sessions.map((x) => {
        const o = document.createElement('option');
        o.value = x.session;
        o.textContent = describeSession(x);
        return o;
      });
      if (options.length === 0) {
        const o = document.createElement('option');
        o.value = '';
        o.textContent = `waiting for a game on ${s.target}…`;
        options.push(o);
      }
      this.sessions.replaceChildren(...options);
      this.sessions.value = s.session ?? '';
    }
    const text =
      s.frames === 0
        ? s.session === null
          ? 'no session'
          : 'waiting for frames…'
        : `${s.following ? 'following' : 'paused at'} frame ${s.position} · held ${s.oldest}–${s.newest}${s.gapFrames > 0 ? ` · ${s.gapFrames} missed` : ''}`;
    if (text !== this.statusShown) {
      this.statusShown = text;
      this.status.textContent = text;
    }
    this.followButton.textContent = s.following ? 'pause' : 'follow live';
    this.followButton.title = s.following
      ? 'Stop following: scrub your own copy while the game keeps running (the game is not told)'
      : 'Follow the newest frame again';
    this.saveButton.disabled = s.frames === 0;
    for (const c of COMMANDS) {
      const b = this.commandButtons.get(c.name) as HTMLButtonElement;
      const allowed = s.commands.includes(c.name);
      b.disabled = !allowed || s.position < 0;
      b.title = allowed
        ? `Asks the game: ${c.what}`
        : s.session === null
          ? 'No session followed'
          : `The game does not allow "${c.name}": start it with &liveCommands=1 on its URL to allow two-way commands`;
    }
  }

  private setAttached(on: boolean): void {
    (this.root.querySelector('[data-id="live-connect"]') as HTMLElement).style.display = on ? 'none' : '';
    (this.root.querySelector('[data-id="live-follow-row"]') as HTMLElement).style.display = on ? '' : 'none';
    (this.root.querySelector('[data-id="live-tools"]') as HTMLElement).style.display = on ? '' : 'none';
  }

  private save(): void {
    const live = this.live;
    if (live === null) return;
    const s = live.state();
    const from = this.from.value.trim().length > 0 ? Number(this.from.value) : s.oldest;
    const to = this.to.value.trim().length > 0 ? Number(this.to.value) : s.newest;
    try {
      if (!Number.isFinite(from) || !Number.isFinite(to)) throw new Error('the range needs frame numbers');
      const bytes = live.saveRange(from, to);
      const name = `rewindable-live-${Math.max(s.oldest, Math.min(from, to))}-${Math.min(s.newest, Math.max(from, to))}.rwd`;
      downloadBytes(bytes, name);
      this.banner.show('info', `Saved ${name} (${(bytes.byteLength / (1024 * 1024)).toFixed(1)} MB).`);
    } catch (err) {
      this.banner.show('error', `Could not save the range: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  private async command(name: LiveCommandName, label: string): Promise<void> {
    const live = this.live;
    if (live === null) return;
    const frame = live.position;
    const r = await live.command(name);
    if (r.ok) this.banner.show('info', `The game did “${label}” (frame ${frame}).`);
    else this.banner.show('warning', `The game refused “${label}”: ${r.detail}`);
  }
}
