import { describeRecorded, formatDuration } from "../../core/time";
import type { FlowContext } from "./context";
import { fail } from "./notices";

/** Pause session: the timer stops at the pause; no automatic checkpoints until the learner continues. */
export async function pause(ctx: FlowContext): Promise<void> {
  const { controller } = ctx;
  try {
    const topicId = controller.open?.session.topicId ?? "the session";
    const { pausedAt } = await controller.pause();
    ctx.notify(`Session on ${topicId} paused at ${describeRecorded(pausedAt, controller.today())}.`);
  } catch (error) {
    fail(ctx, "pause the session", error);
  }
}

/** Continue session: the pause becomes a break (not counted) and the timer runs again. */
export async function continueSession(ctx: FlowContext): Promise<void> {
  const { controller } = ctx;
  try {
    const topicId = controller.open?.session.topicId ?? "the session";
    const { breakMinutes } = await controller.continueSession();
    const breaks = breakMinutes > 0 ? ` (breaks so far: ${formatDuration(breakMinutes)}, not counted)` : "";
    ctx.notify(`Session on ${topicId} continues${breaks}.`);
  } catch (error) {
    fail(ctx, "continue the session", error);
  }
}
