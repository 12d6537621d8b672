/**
 * "What should I study next?" (contract §4c Queue, §5 version 4): the core's queue in a suggester, and the same
 * queue as text for the app's command line. The plan's goals are not read yet: the queue gets EMPTY_PLAN_VIEW
 * (the lead wires plan.md in here, as in the CLI's `next`).
 */
import type { NextResult } from "../../core/sessions";
import { EMPTY_PLAN_VIEW } from "../../core/review/goal-progress";
import { dayText } from "../../core/time";
import type { TopicChoice } from "../ui/topic-picker";
import type { NextChoice } from "../ui/study-next-modal";
import { StudyNextModal } from "../ui/study-next-modal";
import type { FlowContext } from "./context";
import { fail } from "./notices";
import { startWith } from "./start";
import { topicNoteChoices } from "./topics";

/**
 * The queue with the vault's topic notes named (from the metadata cache, as the picker reads them). `light`:
 * for views redrawn after every end ("Next up", the status bar), whether a note has a next action is told by
 * its headings in the metadata cache, so no note is read (its text then shows as "has a next action").
 */
export async function queueNow(
  ctx: FlowContext,
  light = false,
): Promise<{ result: NextResult; notes: Map<string, TopicChoice> }> {
  const notes = new Map<string, TopicChoice>();
  for (const c of topicNoteChoices(ctx)) if ("topicId" in c && !notes.has(c.topicId)) notes.set(c.topicId, c);
  const hasNextAction = light ? headingsProbe(ctx) : undefined;
  const result = await ctx.controller.next({ plan: EMPTY_PLAN_VIEW, hasNextAction });
  return { result, notes };
}

/** Whether a session note has a "## Next action" heading, as the metadata cache knows it (undefined: unknown). */
export function headingsProbe(ctx: FlowContext): (session: { path: string }) => boolean | undefined {
  return (session) => {
    const file = ctx.app.vault.getFileByPath(session.path);
    const cache = file ? ctx.app.metadataCache.getFileCache(file) : null;
    if (!cache) return undefined;
    return (cache.headings ?? []).some((h) => h.level === 2 && h.heading.trim().toLowerCase() === "next action");
  };
}

export function nextChoices(result: NextResult, notes: ReadonlyMap<string, TopicChoice>): NextChoice[] {
  return result.queue.map((e) => {
    const note = notes.get(e.topicId);
    const name = note && note.kind === "topic-note" ? note.noteName : e.topicId;
    return { topicId: e.topicId, name, group: e.group, reasons: e.reasons.map((r) => r.text).join("; ") };
  });
}

/** Starts a session on a chosen topic by start's rules (the topic note's link recorded when there is one). */
export function startNext(ctx: FlowContext, topicId: string, notes: ReadonlyMap<string, TopicChoice>): Promise<void> {
  return startWith(ctx, notes.get(topicId) ?? { kind: "past-topic", topicId });
}

/** The command `study-next`: the queue in a suggester; choosing an entry starts a session on it. */
export async function studyNext(ctx: FlowContext): Promise<void> {
  let queue: Awaited<ReturnType<typeof queueNow>>;
  try {
    queue = await queueNow(ctx);
  } catch (error) {
    fail(ctx, "work out what to study next", error);
    return;
  }
  for (const w of queue.result.warnings.slice(0, 3)) ctx.notify(w);
  const choices = nextChoices(queue.result, queue.notes);
  new StudyNextModal(ctx.app, choices, (c) => void startNext(ctx, c.topicId, queue.notes)).open();
}

/** The queue as text (the app's command line `palee-sessions:next`): the first entry, then one line each. */
export async function nextText(ctx: FlowContext): Promise<string> {
  const { result, notes } = await queueNow(ctx);
  const choices = nextChoices(result, notes);
  const first = result.queue[0];
  if (first === undefined) return "Nothing to review yet: end a session on a topic to start its schedule.";
  const lines = choices.slice(0, 10).map((c) => `- ${c.name} (${c.group}): ${c.reasons || "no reason yet"}`);
  const due = result.queue.filter((e) => e.group === "due").length;
  const on = first.schedule.due === null ? "" : ` on ${dayText(first.schedule.due)}`;
  const head = due > 0 ? `${due} due. Study next: ${choices[0].name}.` : `Nothing due; next: ${choices[0].name}${on}.`;
  return [head, ...lines].join("\n");
}

/**
 * How many topics are due for review, for the idle status bar: counted again after each change of the open
 * session (an end, a start, a sync) and when asked; `changed` is told when the number moves.
 */
export function dueCounter(ctx: FlowContext, changed: () => void): { count: () => number; refresh: () => void } {
  let count = 0;
  let running = false;
  const refresh = (): void => {
    if (running || ctx.disposed) return;
    running = true;
    void queueNow(ctx, true)
      .then(({ result: r }) => {
        const due = r.queue.filter((e) => e.group === "due").length;
        if (due !== count) {
          count = due;
          changed();
        }
      })
      .catch(() => undefined)
      .finally(() => (running = false));
  };
  return { count: () => count, refresh };
}
