import { PaleeError } from "../../core/errors";
import { describeRecorded, formatDuration } from "../../core/time";
import type { TopicChoice } from "../ui/topic-picker";
import { TopicPickerModal } from "../ui/topic-picker";
import type { LogInput } from "../ui/log-modal";
import { LogSessionModal } from "../ui/log-modal";
import type { FlowContext } from "./context";
import { describeFailure, fail, sentence, warn } from "./notices";
import { invalidTopicText, linkTo, topicChoices, topicName } from "./topics";

/** Log a past session (a forgotten start): pick the topic, then say when it happened. */
export async function logSession(ctx: FlowContext): Promise<void> {
  let choices: TopicChoice[];
  try {
    // Claiming the current note as a topic belongs to starting; a past session is logged on a known topic
    // or a newly typed one.
    choices = (await topicChoices(ctx)).filter((c) => c.kind !== "use-current-note");
  } catch (error) {
    fail(ctx, "list your topics", error);
    return;
  }
  new TopicPickerModal(ctx.app, choices, (choice) => {
    if (choice.kind === "use-current-note") return;
    if (choice.kind === "new-topic" && !choice.valid) {
      ctx.notify(invalidTopicText(choice.topicId));
      return;
    }
    // A topic note's link is recorded as a start records it (contract §5 version 4: topic_note on every face).
    const topicNote = choice.kind === "topic-note" ? linkTo(ctx, choice.notePath) : null;
    const topic = topicName(ctx, choice.topicId, topicNote);
    new LogSessionModal(ctx.app, topic, (input) => logWith(ctx, choice.topicId, input, topicNote)).open();
  }).open();
}

/** Asks the core to log; resolves to the refusal to show in the dialog, or null once logged. */
export async function logWith(
  ctx: FlowContext,
  topicId: string,
  input: LogInput,
  topicNote: string | null = null,
): Promise<string | null> {
  const given = (text: string): string | undefined => (text.trim() === "" ? undefined : text.trim());
  try {
    const { session, warnings } = await ctx.controller.log({
      topic: topicId,
      topicNote,
      from: given(input.from),
      to: given(input.to),
      minutes: given(input.minutes),
      summary: given(input.summary) ?? null,
      nextAction: given(input.nextAction) ?? null,
      recall: given(input.recall) ?? null,
      rating: given(input.rating) ?? null,
    });
    const today = ctx.controller.today();
    const span = `${describeRecorded(session.startedAt, today)}–${describeRecorded(session.endedAt, today).slice(-5)}`;
    const topic = topicName(ctx, session.topicId, session.topicNote);
    ctx.notify(`Logged ${topic}, ${span} (${formatDuration(session.durationMinutes)}).`);
    warn(ctx, warnings);
    await ctx.dailyNote.add(session);
    return null;
  } catch (error) {
    // A refusal (exit 2) is the learner's to fix in the dialog; anything else is also a notice.
    if (error instanceof PaleeError && error.exitCode === 2) return dialogText(error.message);
    fail(ctx, "log the session", error);
    return describeFailure("log the session", error);
  }
}

/** The core's refusal in the dialog's words: its fields are Start, End and Minutes, not CLI options. */
function dialogText(message: string): string {
  return sentence(message.replace(/--(from|to|minutes)/g, (_all, option: string) => FIELD[option]));
}

const FIELD: Record<string, string> = { from: "Start", to: "End", minutes: "Minutes" };
