/**
 * The history view's "Next up" (contract §5 version 4): the first entries of the review queue, each with its
 * reasons and a start button. Drawn from data alone; note text is rendered as text, never as HTML.
 */

/** One entry as the view shows it. */
export interface NextUpEntry {
  topicId: string;
  /** The topic note's name when one exists, else the ID. */
  name: string;
  group: string;
  reasons: string;
}

/** How many entries "Next up" shows. */
export const NEXT_UP_COUNT = 5;

export function renderNextUp(
  el: HTMLElement,
  entries: readonly NextUpEntry[] | null,
  start: ((topicId: string) => void) | undefined,
): void {
  if (entries === null) return;
  el.createDiv({ text: "Next up", cls: "palee-history-heading" });
  if (entries.length === 0) {
    el.createDiv({ text: "Nothing to review yet.", cls: "palee-history-muted palee-next-up-empty" });
    return;
  }
  const list = el.createEl("ul", { cls: "palee-next-up" });
  for (const e of entries.slice(0, NEXT_UP_COUNT)) {
    const item = list.createEl("li", { attr: { "data-topic": e.topicId } });
    const what = item.createDiv({ cls: "palee-next-up-what" });
    what.createSpan({ text: e.name, cls: "palee-next-up-topic", attr: { title: e.topicId } });
    what.createSpan({ text: ` · ${e.group}`, cls: "palee-history-muted" });
    if (e.reasons) what.createDiv({ text: e.reasons, cls: "palee-history-muted palee-next-up-reasons" });
    if (start) {
      const button = item.createEl("button", { text: "Start", cls: "palee-next-up-start" });
      button.addEventListener("click", () => start(e.topicId));
    }
  }
}
