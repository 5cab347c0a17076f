import type { Lifetimes } from '../../core/playback/Lifetimes';

/** One life in the entity list. */
export interface EntityListRow {
  readonly handle: number;
  readonly id: number;
  readonly kind: string;
  readonly label: string;
  readonly first: number;
  readonly last: number;
}

/**
 * Every life held, filtered by `filter` (case-insensitive; each word must appear in the id, the kind
 * or the label; a word of digits alone matches the id exactly), sorted by kind, then id, then first
 * frame.
 *
 * @example
 * listLives(playback.lifetimes, 'agent'); // every agent's life held
 */
export function listLives(lifetimes: Lifetimes, filter: string): EntityListRow[] {
  const words = filter
    .trim()
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w.length > 0);
  const rows: EntityListRow[] = [];
  lifetimes.forEach((h) => {
    const row: EntityListRow = {
      handle: h,
      id: lifetimes.id(h),
      kind: lifetimes.kind(h) ?? '',
      label: lifetimes.label(h) ?? '',
      first: lifetimes.firstFrame(h),
      last: lifetimes.lastFrame(h),
    };
    if (words.every((w) => matches(row, w))) rows.push(row);
  });
  rows.sort((a, b) => (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : a.id - b.id || a.first - b.first));
  return rows;
}

function matches(row: EntityListRow, word: string): boolean {
  if (/^\d+$/.test(word)) return String(row.id) === word;
  return (
    String(row.id).includes(word) || row.kind.toLowerCase().includes(word) || row.label.toLowerCase().includes(word)
  );
}

/**
 * The inspector's entity list: a filter field and one button per life held (kind, id, label, the
 * frames it is present in); a click picks the life. Enter in the filter picks the first row (typing
 * an id and Enter selects it). Rebuilt only when opened, when the filter changes, or by `refresh`.
 *
 * @internal Built by `EntityInspector`.
 *
 * @example
 * const list = new EntityList(300, (handle) => inspect(handle));
 * list.refresh(playback.lifetimes);
 */
export class EntityList {
  public readonly root: HTMLDivElement;
  public readonly input: HTMLInputElement;
  private readonly rowsRoot: HTMLDivElement;
  private lifetimes: Lifetimes | null = null;
  private rows: EntityListRow[] = [];

  public constructor(
    private readonly maxRows: number,
    private readonly pick: (handle: number) => void,
  ) {
    const root = document.createElement('div');
    root.className = 'rw-list';
    const input = document.createElement('input');
    input.type = 'search';
    input.placeholder = 'filter: kind, label or id (Enter: pick)';
    input.dataset.action = 'filter';
    input.spellcheck = false;
    input.addEventListener('input', () => this.render());
    input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && this.rows.length > 0) this.pick(this.rows[0].handle);
    });
    this.rowsRoot = document.createElement('div');
    this.rowsRoot.className = 'rw-list-rows';
    root.append(input, this.rowsRoot);
    this.root = root;
    this.input = input;
  }

  /** The lives listed now (after the filter), in order. */
  public get shown(): readonly EntityListRow[] {
    return this.rows;
  }

  /** Sets the filter text and lists again. */
  public setFilter(text: string): void {
    this.input.value = text;
    this.render();
  }

  /** Lists the lives of `lifetimes` again (a new recording shown, frames evicted, the list opened). */
  public refresh(lifetimes: Lifetimes): void {
    this.lifetimes = lifetimes;
    this.render();
  }

  private render(): void {
    const lt = this.lifetimes;
    this.rows = lt === null ? [] : listLives(lt, this.input.value);
    const frag = document.createDocumentFragment();
    const n = Math.min(this.rows.length, this.maxRows);
    for (let k = 0; k < n; k++) {
      const r = this.rows[k];
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'rw-list-row';
      b.dataset.handle = String(r.handle);
      b.dataset.id = String(r.id);
      b.textContent = `${r.kind.length > 0 ? r.kind : '?'} #${r.id}${r.label.length > 0 ? ` “${r.label}”` : ''}  ${r.first}..${r.last}`;
      b.addEventListener('click', () => this.pick(r.handle));
      frag.append(b);
    }
    if (this.rows.length > n) {
      const more = document.createElement('div');
      more.className = 'rw-list-more';
      more.textContent = `… ${this.rows.length - n} more: refine the filter`;
      frag.append(more);
    } else if (this.rows.length === 0) {
      const none = document.createElement('div');
      none.className = 'rw-list-more';
      none.textContent = lt === null ? '' : 'no entity matches';
      frag.append(none);
    }
    this.rowsRoot.replaceChildren(frag);
  }
}
