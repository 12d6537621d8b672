import type { AwayBreak } from "../../core/honest-time";
import { awayNotice } from "../../core/honest-time";
import { formatDuration } from "../../core/time";
import type { FlowContext } from "./context";
import { fail } from "./notices";

/**
 * "Away 23:10–07:05, not counted", with a button that counts it after all: time away is never counted or
 * dropped silently (invariant 11). After any write that recorded it: a tick, a checkpoint, a resume.
 */
export function announceAway(ctx: FlowContext, draftId: string, away: AwayBreak | null | undefined): void {
  if (!away || ctx.disposed) return;
  ctx.notifyAction(awayNotice(away, ctx.controller.offsetAt), "Count it", () => void countBack(ctx, draftId, away));
}

/** Counting it removes that interval from the breaks (what of it is still recorded there). */
async function countBack(ctx: FlowContext, draftId: string, away: AwayBreak): Promise<void> {
  try {
    const { breakMinutes, countedMinutes } = await ctx.controller.countAwayBack(draftId, away);
    if (countedMinutes === 0) {
      ctx.notify("That time away is no longer recorded as a break: nothing more to count.");
      return;
    }
    const span = formatDuration(countedMinutes);
    ctx.notify(`Counted ${span} away as study time (breaks now ${formatDuration(breakMinutes)}).`);
  } catch (error) {
    fail(ctx, "count the time away", error);
  }
}
