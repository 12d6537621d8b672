/** Pause and continue: the frontmatter updates, for updateFrontmatterFields. */
import { UsageError } from "../errors";
import type { FieldValue } from "../records/frontmatter";
import type { OffsetAt } from "../time";
import { formatTimestamp, localClock } from "../time";
import { breakFields, clipBreaks, normalizeBreaks, toSecond, totalBreakMinutes } from "./breaks";
import type { HonestFields } from "./draft-fields";

/** pause: records paused_at = now. Refused (`already_paused`) when the draft is paused. */
export function pauseUpdate(current: HonestFields, now: number, offsetAt: OffsetAt): Record<string, FieldValue> {
  if (current.pausedMs !== null) {
    const since = localClock(current.pausedMs, offsetAt);
    throw new UsageError(`the session is already paused (since ${since})`, "already_paused");
  }
  return { paused_at: formatTimestamp(now, offsetAt(now)) };
}

/**
 * continue: appends the pause (paused_at/now) to breaks and their total to break_minutes, clears paused_at and
 * is a checkpoint. Refused (`not_paused`) when the draft is not paused.
 */
export function continueUpdate(
  current: HonestFields,
  now: number,
  offsetAt: OffsetAt,
): { updates: Record<string, FieldValue>; breakMinutes: number } {
  if (current.pausedMs === null) throw new UsageError("the session is not paused", "not_paused");
  const pause = { fromMs: current.pausedMs, toMs: toSecond(now) };
  const breaks = normalizeBreaks([...clipBreaks(current.breaks, Number.NEGATIVE_INFINITY, now), pause]);
  return {
    updates: {
      paused_at: null,
      ...breakFields(breaks, offsetAt),
      last_checkpoint_at: formatTimestamp(now, offsetAt(now)),
    },
    breakMinutes: totalBreakMinutes(breaks),
  };
}

/** Refusal of pause / continue when no session is open. */
export function nothingOpenError(action: "pause" | "continue"): UsageError {
  return new UsageError(`no session is open: nothing to ${action}`, "nothing_open");
}
