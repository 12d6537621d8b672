/**
 * Elements a view drew last time, by a key of what each shows (its data as JSON), so a redraw after an end
 * moves the unchanged ones into place instead of drawing them again: after one end most of the history view is
 * unchanged. A key says everything its element shows, so a kept element is what drawing it again would give.
 */
export class KeptNodes {
  private last = new Map<string, HTMLElement>();
  private next = new Map<string, HTMLElement>();

  /** The element showing `key`, appended to `parent`: the last redraw's when it had one, else drawn by `draw`. */
  take(parent: HTMLElement, key: string, draw: (parent: HTMLElement) => HTMLElement): HTMLElement {
    const kept = this.last.get(key);
    this.last.delete(key);
    const el = kept ?? draw(parent);
    if (kept) parent.appendChild(kept);
    this.next.set(key, el);
    return el;
  }

  /** Ends a redraw: the elements not taken again are let go; what was taken is kept for the next one. */
  done(): void {
    this.last = this.next;
    this.next = new Map();
  }
}
