/**
 * The review queue as the plugin's views read it (contract §4c): with the topic notes named, "light" (no note
 * read: next actions known from the metadata cache's headings) for what redraws after every end. The core reads
 * plan.md for the goals and `review: false`.
 */
import type { NextResult } from "../../core/sessions";
import type { TopicNamer } from "../../core/topics";
import type { TopicChoice } from "../ui/topic-picker";
import type { NextChoice } from "../ui/study-next-modal";
import type { FlowContext } from "./context";
import { topicNoteChoices } from "./topics";

/**
 * The queue with the vault's topic notes named (from the metadata cache, as the picker reads them; `named`
 * false: not named, for what shows no names). `light`: for views redrawn after every end ("Next up", the
 * picker's order, the status bar), whether a note has a next action is told by its headings in the metadata
 * cache, so no note is read (its text then shows as "has a next action"). The context's schedule memo makes a
 * queue after one end schedule only the ended topic again.
 */
export async function queueNow(
  ctx: FlowContext,
  light = false,
  named = true,
): Promise<{ result: NextResult; notes: Map<string, TopicChoice>; names: TopicNamer }> {
  const notes = new Map<string, TopicChoice>();
  if (named) {
    for (const c of topicNoteChoices(ctx)) if ("topicId" in c && !notes.has(c.topicId)) notes.set(c.topicId, c);
  }
  const hasNextAction = light ? headingsProbe(ctx) : undefined;
  // The core reads plan.md; the memos make a queue after one end cost what the end added.
  const result = await ctx.controller.next({ hasNextAction, memo: ctx.schedules, log: ctx.studyLogs });
  return { result, notes, names: ctx.topicNotes.names() };
}

/** Whether a session note has a "## <heading>" heading, as the metadata cache knows it (undefined: unknown). */
export function headingProbe(ctx: FlowContext): (session: { path: string }, heading: string) => boolean | undefined {
  return (session, heading) => {
    const file = ctx.app.vault.getFileByPath(session.path);
    const cache = file ? ctx.app.metadataCache.getFileCache(file) : null;
    if (!cache) return undefined;
    const wanted = heading.toLowerCase();
    return (cache.headings ?? []).some((h) => h.level === 2 && h.heading.trim().toLowerCase() === wanted);
  };
}

/** Whether a session note has a "## Next action" heading, as the metadata cache knows it (undefined: unknown). */
export function headingsProbe(ctx: FlowContext): (session: { path: string }) => boolean | undefined {
  const probe = headingProbe(ctx);
  return (session) => probe(session, "Next action");
}

/** The queue's entries as the suggester and "Next up" show them: each topic by its display name. */
export function nextChoices(result: NextResult, names: TopicNamer): NextChoice[] {
  return result.queue.map((e) => {
    const name = names(e.topicId);
    return { topicId: e.topicId, name, group: e.group, reasons: e.reasons.map((r) => r.text).join("; ") };
  });
}

/**
 * How many topics are due for review, for the idle status bar; `changed` is told when the number moves. It is
 * counted again when a session starts or ends (`follow`), not on each refresh (the editor saves every ~2 s), and
 * when asked (the vault opened, the hour turned).
 */
export function dueCounter(
  ctx: FlowContext,
  changed: () => void,
): { count: () => number; refresh: () => void; follow: () => () => void } {
  let count = 0;
  let running = false;
  // Nothing is counted before the first count asked for (a moment after start-up, after the full scan): the open
  // session becoming known at layout ready would otherwise run the queue, and its full scan, right then.
  let started = false;
  // Asked again while counting (a start, then its end): counted once more afterwards, never dropped.
  let again = false;
  const refresh = (): void => {
    if (ctx.disposed) return;
    started = true;
    if (running) {
      again = true;
      return;
    }
    running = true;
    void queueNow(ctx, true, false)
      .then(({ result }) => {
        const due = result.queue.filter((e) => e.group === "due").length;
        if (due !== count) {
          count = due;
          changed();
        }
      })
      .catch(() => undefined)
      .finally(() => {
        running = false;
        if (again) {
          again = false;
          refresh();
        }
      });
  };
  const follow = (): (() => void) => {
    let openKey: string | null = ctx.controller.open?.session.draftId ?? null;
    return ctx.controller.onChange(() => {
      const key = ctx.controller.open?.session.draftId ?? null;
      if (key !== openKey && started) refresh();
      openKey = key;
    });
  };
  return { count: () => count, refresh, follow };
}

/**
 * The topic picker's order (contract §5 version 4): due topics first, each marked "due", the others with a due
 * day marked "in N days"; otherwise as given. The queue is the light one: no note is read.
 */
export async function dueFirst(ctx: FlowContext, choices: TopicChoice[]): Promise<TopicChoice[]> {
  const queue = await queueNow(ctx, true, false).catch(() => null);
  if (queue === null) return choices;
  const today = queue.result.asOf;
  const marks = new Map<string, string>();
  for (const e of queue.result.queue) {
    const due = e.schedule.due;
    if (e.group === "due") marks.set(e.topicId, "due");
    else if (due !== null) marks.set(e.topicId, due - today === 1 ? "in 1 day" : `in ${due - today} days`);
  }
  const marked = choices.map((c) =>
    (c.kind === "topic-note" || c.kind === "past-topic") && marks.has(c.topicId)
      ? { ...c, review: marks.get(c.topicId) }
      : c,
  );
  const isDue = (c: TopicChoice): boolean => "review" in c && c.review === "due";
  return [...marked.filter(isDue), ...marked.filter((c) => !isDue(c))];
}
