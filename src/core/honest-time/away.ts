/** Time away: a gap with no sign of life, longer than the grace period, recorded as a break. */
import type { FieldValue } from "../frontmatter";
import type { OffsetAt } from "../time";
import { describeSpan, durationMinutes, formatTimestamp } from "../time";
import { countAwayBack, recordAway } from "./breaks";
import type { HonestFields } from "./draft-fields";

export interface AwayBreak {
  fromMs: number;
  toMs: number;
  minutes: number;
}

/**
 * The gap since the last sign of life (the later of the draft's last sign and this app's previous tick) as
 * a break, when it is longer than the grace period; null otherwise, and for a paused session (its pause
 * already excludes the gap) or a sign of life in the future.
 */
export function timeAway(lastSignMs: number, now: number, graceMs: number, paused = false): AwayBreak | null {
  if (paused || now - lastSignMs <= graceMs) return null;
  return { fromMs: lastSignMs, toMs: now, minutes: durationMinutes(lastSignMs, now) };
}

/**
 * The draft changes that record time away: the break, and a checkpoint now, in one write, so another device
 * (or the next tick) sees a recent sign of life and does not record the same gap again.
 */
export function awayUpdate(current: HonestFields, away: AwayBreak, offsetAt: OffsetAt): Record<string, FieldValue> {
  const checkpointAt = formatTimestamp(away.toMs, offsetAt(away.toMs));
  return { break_minutes: recordAway(current.breakMinutes, away), last_checkpoint_at: checkpointAt };
}

/** The draft change when the learner counts a recorded time away after all. */
export function countBackUpdate(current: HonestFields, away: AwayBreak): Record<string, FieldValue> {
  return { break_minutes: countAwayBack(current.breakMinutes, away) };
}

/** "Away 23:10–07:05, not counted" (local times; with dates when the gap is a day or longer). */
export function awayNotice(away: AwayBreak, offsetAt: OffsetAt): string {
  return `Away ${describeSpan(away.fromMs, away.toMs, offsetAt)}, not counted`;
}
