import type { OpenSession } from "../../core/sessions";
import { durationMinutes } from "../../core/time";
import { EndSessionModal } from "../ui/end-modal";
import type { FlowContext } from "./context";
import { displayTime, fail, warn } from "./notices";
import { recoverInterrupted } from "./recovery";

/** End session: only this device's running session; the end modal first when a summary is asked for. */
export async function end(ctx: FlowContext): Promise<void> {
  const { controller } = ctx;
  const open = controller.open;
  if (!open) {
    ctx.notify("No session is open.");
    return;
  }
  if (!open.running) return recoverInterrupted(ctx);
  if (!open.mine) {
    const where = open.session.device ?? "another device";
    ctx.notify(`The session on ${open.session.topicId} is open on ${where}: end it there.`);
    return;
  }
  if (ctx.ending) return; // a second click while the first end is on screen or being saved
  if (!ctx.settings().askForSummary) return endWith(ctx, null, null);
  const now = controller.now();
  ctx.ending = true;
  new EndSessionModal(
    ctx.app,
    {
      topicId: open.session.topicId,
      startedText: displayTime(open.session.startedAt, controller.today()),
      durationMinutes: durationMinutes(open.startedMs, now),
    },
    (input) => void endWith(ctx, input.summary, input.nextAction, open.session),
    () => (ctx.ending = false),
  ).open();
}

/** `shown`: the session the end modal showed (it may have ended elsewhere while the modal was open). */
export async function endWith(
  ctx: FlowContext,
  summary: string | null,
  nextAction: string | null,
  shown?: OpenSession,
): Promise<void> {
  if (ctx.ending && !shown) return;
  ctx.ending = true;
  try {
    const result = await ctx.controller.end(summary, nextAction, shown);
    const { session } = result;
    ctx.notify(
      result.alreadySaved
        ? `Session on ${session.topicId} was already saved (${session.durationMinutes} min).`
        : `Session on ${session.topicId} saved (${session.durationMinutes} min).`,
    );
    warn(ctx, result.warnings);
    await ctx.dailyNote.add(session);
  } catch (error) {
    fail(ctx, "end the session", error);
  } finally {
    ctx.ending = false;
  }
}
