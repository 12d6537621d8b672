import type { AwayBreak } from "../../core/honest-time";
import { timeAway } from "../../core/honest-time";
import { autoCheckpointer } from "./checkpoint";
import type { FlowContext } from "./context";

/**
 * The one-second tick (and the return of a hidden window): time away, else the automatic checkpoint. Writes
 * nothing unless a checkpoint or a time-away break is due. Time away is the gap since the later of the
 * draft's last sign of life and this app's last tick before the gap (contract §4): recorded at once as a break by
 * a checkpoint (which passes that tick as `aliveAt`), even with automatic checkpoints off, and announced.
 */
export function ticker(ctx: FlowContext): () => Promise<void> {
  const checkpoint = autoCheckpointer(ctx);
  return async () => {
    const { controller } = ctx;
    const now = controller.now();
    ctx.quiet.tick();
    controller.ticks.tick(now);
    if (awayDue(ctx, now) === null) {
      controller.ticks.settled();
      return checkpoint();
    }
    // The end dialog on screen shows the silence and lets the learner choose where the session ended.
    if (!ctx.ending) return checkpoint(true);
  };
}

/** The time away to record now for this device's running session, if any (none while paused). */
export function awayDue(ctx: FlowContext, now: number): AwayBreak | null {
  const { controller } = ctx;
  const open = controller.open;
  if (!open || !open.mine || !open.running) return null;
  const lastSign = controller.ticks.lastSign(open.session.lastSignMs, now);
  return timeAway(lastSign, now, controller.graceMs, open.pausedMs !== null);
}
