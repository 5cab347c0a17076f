/** One user bookmark: a labelled frame. */
export interface Bookmark {
  readonly id: number;
  readonly frame: number;
  readonly label: string;
}

/**
 * User bookmarks: labelled frames, added, removed and listed in frame order. Bookmarks are user
 * actions, so they may allocate; `list()` returns the same array until the next change.
 *
 * @example
 * const bookmarks = new Bookmarks();
 * const id = bookmarks.add(time.position, 'guard loses sight');
 * bookmarks.onChange(() => timeline.redraw());
 * for (const b of bookmarks.list()) console.log(b.frame, b.label);
 * bookmarks.rename(id, 'guard gives up');
 * bookmarks.remove(id);
 */
export class Bookmarks {
  private items: Bookmark[] = [];
  private nextId = 1;
  private listeners: Array<() => void> = [];

  /**
   * Adds a bookmark at `frame` (rounded to a whole frame) and returns its id. Throws a `RangeError`
   * when `frame` is not a finite number.
   */
  public add(frame: number, label: string): number {
    if (!Number.isFinite(frame))
      throw new RangeError(`rewindable: bookmark frame must be a finite number (got ${frame})`);
    const b: Bookmark = Object.freeze({ id: this.nextId++, frame: Math.round(frame), label: String(label) });
    // Sorted by frame; bookmarks on the same frame keep the order they were added in.
    let i = this.items.length;
    while (i > 0 && this.items[i - 1].frame > b.frame) i--;
    const next = this.items.slice();
    next.splice(i, 0, b);
    this.items = next;
    this.emit();
    return b.id;
  }

  /** Removes a bookmark; false when no bookmark has that id. */
  public remove(id: number): boolean {
    const i = this.items.findIndex((b) => b.id === id);
    if (i < 0) return false;
    const next = this.items.slice();
    next.splice(i, 1);
    this.items = next;
    this.emit();
    return true;
  }

  /** Gives a bookmark a new label (same id and frame); false when no bookmark has that id. */
  public rename(id: number, label: string): boolean {
    const i = this.items.findIndex((b) => b.id === id);
    if (i < 0) return false;
    const old = this.items[i];
    const text = String(label);
    if (old.label === text) return true;
    const next = this.items.slice();
    next[i] = Object.freeze({ id: old.id, frame: old.frame, label: text });
    this.items = next;
    this.emit();
    return true;
  }

  /** Removes every bookmark. */
  public clear(): void {
    if (this.items.length === 0) return;
    this.items = [];
    this.emit();
  }

  /** The bookmark with this id, or undefined. */
  public get(id: number): Bookmark | undefined {
    return this.items.find((b) => b.id === id);
  }

  /** Every bookmark, sorted by frame (then by when it was added). The array is replaced, never mutated. */
  public list(): ReadonlyArray<Bookmark> {
    return this.items;
  }

  /** Calls `listener` after every add, remove or clear. Returns the unsubscribe function. */
  public onChange(listener: () => void): () => void {
    this.listeners = [...this.listeners, listener];
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }

  private emit(): void {
    const ls = this.listeners;
    for (let i = 0; i < ls.length; i++) {
      try {
        ls[i]();
      } catch (err) {
        console.error('rewindable: Bookmarks change listener threw', err);
      }
    }
  }
}
