import { PaleeError } from "../../core/errors";
import { formatElapsed } from "../../core/time";
import { studiedSoFar } from "../ui/status-bar";
import { announceAway } from "./away-notice";
import type { FlowContext } from "./context";
import { LONG_NOTICE_MS, describeFailure, fail, warn } from "./notices";
import { topicName } from "./topics";

/** After a failed automatic checkpoint, the next try waits this long rather than come on every tick. */
const AUTO_RETRY_MS = 60_000;

export async function checkpoint(ctx: FlowContext, notes: string | null = null): Promise<void> {
  const { controller } = ctx;
  try {
    const result = await controller.checkpoint(notes);
    const open = controller.open;
    const elapsed = open ? ` · ${formatElapsed(studiedSoFar(open, controller.now()), false)}` : "";
    ctx.notify(`Checkpoint saved (${topicName(ctx, result.draft.topicId, result.draft.topicNote)}${elapsed}).`);
    announceAway(ctx, result.draft.draftId, result.away);
    warn(ctx, result.warnings);
  } catch (error) {
    fail(ctx, "save the checkpoint", error);
  }
}

/**
 * The automatic checkpoint, run on every tick: checkpoints this device's session when one is due, or at once
 * when `away` (time away to record: the checkpoint carries it). A repeated failure is shown once.
 */
export function autoCheckpointer(ctx: FlowContext): (away?: boolean) => Promise<void> {
  let lastError: string | null = null;
  let running = false;
  let lastAttempt = 0;
  return async (away = false) => {
    // Also while the end modal is open: the session runs until the learner confirms (plugin calls are
    // serialized, and a checkpoint that comes after the end is dropped quietly below).
    const now = ctx.controller.now();
    if (running || !(away || ctx.controller.checkpointDue(now))) return;
    if (lastError !== null && now - lastAttempt < AUTO_RETRY_MS && now >= lastAttempt) return;
    running = true;
    lastAttempt = now;
    try {
      const result = await ctx.controller.checkpoint();
      announceAway(ctx, result.draft.draftId, result.away);
      lastError = null;
    } catch (error) {
      // The session ended or was recovered meanwhile (another window, a click that came first): nothing to do.
      if (error instanceof PaleeError && error.kind === "nothing_open") return;
      const message = describeFailure("save the automatic checkpoint", error);
      if (message !== lastError) ctx.notify(message, LONG_NOTICE_MS);
      lastError = message;
    } finally {
      running = false;
    }
  };
}
