import { describeRecorded } from "../../core/time";
import type { OpenSession, StartOptions } from "../../core/sessions";
import type { TopicChoice } from "../ui/topic-picker";
import { TopicPickerModal } from "../ui/topic-picker";
import type { FlowContext } from "./context";
import { fail, warn } from "./notices";
import { isThisDevice } from "../../core/recovery";
import { openRecovery, recoverInterrupted } from "./recovery";
import { claimNoteAsTopic, invalidTopicText, linkTo, topicChoices, topicName } from "./topics";
import { dueFirst } from "./review-queue";

/** Start session: recover an interrupted session first, else pick a topic. */
export async function start(ctx: FlowContext): Promise<void> {
  const open = ctx.controller.open;
  if (open && !open.running) return recoverInterrupted(ctx, () => void start(ctx));
  if (open) {
    ctx.notify(alreadyOpenText(ctx, open.session));
    return;
  }
  let choices: TopicChoice[];
  try {
    choices = await dueFirst(ctx, await topicChoices(ctx));
  } catch (error) {
    fail(ctx, "list your topics", error);
    return;
  }
  new TopicPickerModal(ctx.app, choices, (choice) => void startWith(ctx, choice)).open();
}

function alreadyOpenText(ctx: FlowContext, open: OpenSession): string {
  const since = describeRecorded(open.startedAt, ctx.controller.today());
  const mine = isThisDevice(open.device, ctx.controller.device);
  const topic = topicName(ctx, open.topicId, open.topicNote);
  if (mine) return `A session on ${topic} is already open (since ${since}). End it first.`;
  const where = open.device ?? "another device";
  return `A session on ${topic} is open on ${where} (since ${since}). End it there first.`;
}

export async function startWith(ctx: FlowContext, choice: TopicChoice): Promise<void> {
  switch (choice.kind) {
    case "new-topic":
      if (!choice.valid) {
        ctx.notify(invalidTopicText(choice.topicId));
        return;
      }
      return startSession(ctx, { topic: choice.topicId });
    // Topics read from notes and past sessions may be legacy IDs: they are not validated as new input.
    case "past-topic":
      return startSession(ctx, { activeNoteTopic: choice.topicId });
    case "topic-note":
      return startSession(ctx, { activeNoteTopic: choice.topicId, topicNote: linkTo(ctx, choice.notePath) });
    case "use-current-note": {
      const options = await claimNoteAsTopic(ctx, choice.notePath);
      if (options) await startSession(ctx, options);
      return;
    }
  }
}

/** Starts; pending drafts are offered for recovery first, then the start goes on with what is left. */
export async function startSession(
  ctx: FlowContext,
  options: StartOptions,
  ignored: ReadonlySet<string> = new Set(),
): Promise<void> {
  try {
    const result = await ctx.controller.start({ ...options, ignoreDrafts: ignored });
    switch (result.status) {
      case "started":
        ctx.notify(`Session on ${topicName(ctx, result.topicId, options.topicNote)} started.`);
        warn(ctx, result.warnings);
        return;
      case "already_open":
      case "kept":
        ctx.notify(alreadyOpenText(ctx, result.open));
        return;
      case "drafts_pending":
        openRecovery(ctx, result.drafts, (_decided, resumed) => {
          if (resumed) return; // the learner chose to continue an old session instead
          // What was not saved or discarded was left for later (Ignore, or the modal closed): the start
          // goes on without offering those drafts again.
          void startSession(ctx, options, new Set([...ignored, ...result.drafts.map((d) => d.draftId)]));
        });
        return;
    }
  } catch (error) {
    fail(ctx, "start the session", error);
  }
}
