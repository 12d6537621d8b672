import { describeRecorded, formatDuration } from "../../core/time";
import type { FlowContext } from "./context";
import { fail } from "./notices";
import { topicName } from "./topics";

/** The open session's topic as shown (its note's name), or "the session". */
function openTopic(ctx: FlowContext): string {
  const open = ctx.controller.open;
  return open ? topicName(ctx, open.session.topicId, open.session.topicNote) : "the session";
}

/** Pause session: the timer stops at the pause; no automatic checkpoints until the learner continues. */
export async function pause(ctx: FlowContext): Promise<void> {
  const { controller } = ctx;
  try {
    const topic = openTopic(ctx);
    const { pausedAt } = await controller.pause();
    ctx.notify(`Session on ${topic} paused at ${describeRecorded(pausedAt, controller.today())}.`);
  } catch (error) {
    fail(ctx, "pause the session", error);
  }
}

/** Continue session: the pause becomes a break (not counted) and the timer runs again. */
export async function continueSession(ctx: FlowContext): Promise<void> {
  const { controller } = ctx;
  try {
    const topic = openTopic(ctx);
    const { breakMinutes } = await controller.continueSession();
    const breaks = breakMinutes > 0 ? ` (breaks so far: ${formatDuration(breakMinutes)}, not counted)` : "";
    ctx.notify(`Session on ${topic} continues${breaks}.`);
  } catch (error) {
    fail(ctx, "continue the session", error);
  }
}
