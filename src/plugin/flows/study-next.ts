/**
 * "What should I study next?" (contract §4c Queue, §5 version 4): the core's queue in a suggester, and the same
 * queue as text for the app's command line (the queue itself: review-queue.ts).
 */
import { dayText } from "../../core/time";
import type { TopicChoice } from "../ui/topic-picker";
import { StudyNextModal } from "../ui/study-next-modal";
import type { FlowContext } from "./context";
import { fail } from "./notices";
import { startWith } from "./start";
import { nextChoices, queueNow } from "./review-queue";

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
  const choices = nextChoices(queue.result, queue.names);
  new StudyNextModal(ctx.app, choices, (c) => void startNext(ctx, c.topicId, queue.notes)).open();
}

/** The queue as text (the app's command line `palee-sessions:next`): the first entry, then one line each. */
export async function nextText(ctx: FlowContext): Promise<string> {
  const { result, names } = await queueNow(ctx);
  const choices = nextChoices(result, names);
  const first = result.queue[0];
  if (first === undefined) return "Nothing to review yet: end a session on a topic to start its schedule.";
  const lines = choices.slice(0, 10).map((c) => `- ${c.name} (${c.group}): ${c.reasons || "no reason yet"}`);
  const due = result.queue.filter((e) => e.group === "due").length;
  const on = first.schedule.due === null ? "" : ` on ${dayText(first.schedule.due)}`;
  const head = due > 0 ? `${due} due. Study next: ${choices[0].name}.` : `Nothing due; next: ${choices[0].name}${on}.`;
  return [head, ...lines].join("\n");
}
