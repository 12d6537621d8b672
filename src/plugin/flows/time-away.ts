import { PaleeError } from "../../core/errors";
import type { AwayBreak } from "../../core/honest-time";
import { timeAway } from "../../core/honest-time";
import { announceAway } from "./away-notice";
import { autoCheckpointer } from "./checkpoint";
import type { FlowContext } from "./context";
import { LONG_NOTICE_MS, describeFailure } from "./notices";

/** After a failed attempt to record time away, the next one waits this long rather than come on every tick. */
const RETRY_MS = 60_000;

/**
 * The one-second tick (and the return of a hidden window): first time away, else the automatic checkpoint.
 * Writes nothing unless a checkpoint or a time-away break is due. Time away is the gap since the later of the
 * draft's last sign of life and this app's last tick before the gap (SPEC §4): recorded at once as a break,
 * in the same write as a checkpoint, even with automatic checkpoints off, and announced with a way to count it.
 */
export function ticker(ctx: FlowContext): () => Promise<void> {
  const autoCheckpoint = autoCheckpointer(ctx);
  let busy = false;
  let lastError: string | null = null;
  let lastAttempt = 0;
  return async () => {
    const { controller } = ctx;
    const now = controller.now();
    controller.ticks.tick(now);
    if (busy) return;
    const away = awayDue(ctx, now);
    if (away === null) {
      controller.ticks.settled();
      return autoCheckpoint();
    }
    // The end dialog on screen shows the silence and lets the learner choose where the session ended.
    if (ctx.ending) return;
    if (lastError !== null && now - lastAttempt < RETRY_MS && now >= lastAttempt) return;
    busy = true;
    lastAttempt = now;
    try {
      const result = await controller.checkpoint();
      lastError = null;
      announceAway(ctx, result.draft.draftId, result.away);
    } catch (error) {
      if (error instanceof PaleeError && error.kind === "no_open_session") return;
      const message = describeFailure("record the time away", error);
      if (message !== lastError) ctx.notify(message, LONG_NOTICE_MS);
      lastError = message;
    } finally {
      busy = false;
    }
  };
}

/** The time away to record now for this device's running session, if any (none while paused). */
export function awayDue(ctx: FlowContext, now: number): AwayBreak | null {
  const { controller } = ctx;
  const open = controller.open;
  if (!open || !open.mine || !open.running) return null;
  const alive = controller.ticks.aliveAt();
  const recorded = open.session.lastSignMs;
  const lastSign = alive === null ? recorded : Math.max(recorded, alive);
  return timeAway(lastSign, now, controller.graceMs, open.pausedMs !== null);
}
