/** Time away: a gap with no sign of life, longer than the grace period, recorded as a break. */
import type { FieldValue } from "../records/frontmatter";
import type { OffsetAt } from "../time";
import { describeSpan, durationMinutes, formatDuration, formatTimestamp } from "../time";
import type { BreakInterval } from "./breaks";
import { breakFields, clipBreaks, formatBreaks, toSecond, totalBreakMinutes, withoutSpan } from "./breaks";
import type { HonestFields } from "./draft-fields";

export interface AwayBreak {
  fromMs: number;
  toMs: number;
  minutes: number;
}

/**
 * The gap since the last sign of life (the later of the draft's last sign and this app's previous tick) as
 * a break, when it is longer than the grace period; null otherwise, and for a paused session (its pause
 * already excludes the gap) or a sign of life in the future. Both ends are whole seconds, as written.
 */
export function timeAway(lastSignMs: number, now: number, graceMs: number, paused = false): AwayBreak | null {
  if (paused || now - lastSignMs <= graceMs) return null;
  const fromMs = toSecond(lastSignMs);
  const toMs = toSecond(now);
  return { fromMs, toMs, minutes: durationMinutes(fromMs, toMs) };
}

/**
 * The draft changes that record time away: the break appended to breaks (no recorded break reaching past it),
 * and a checkpoint now, in one write, so another device (or the next tick) does not record the same gap again.
 */
export function awayUpdate(
  current: HonestFields,
  away: AwayBreak,
  offsetAt: OffsetAt,
  /** The draft's `away` list as recorded (version 4): this gap is added to it, so it can be told from pauses. */
  recorded: readonly BreakInterval[] = [],
): Record<string, FieldValue> {
  const checkpointAt = formatTimestamp(away.toMs, offsetAt(away.toMs));
  const earlier = clipBreaks(current.breaks, Number.NEGATIVE_INFINITY, away.toMs);
  const awayList = [...clipBreaks(recorded, Number.NEGATIVE_INFINITY, away.toMs), away];
  return {
    ...breakFields([...earlier, away], offsetAt),
    away: formatBreaks(awayList, offsetAt),
    last_checkpoint_at: checkpointAt,
  };
}

/**
 * The draft change that counts every recorded time away as study after all (`--count-away`, contract §5
 * version 4): each `away` interval leaves `breaks` (pauses stay), and `away` is emptied.
 */
export function countAllAwayUpdate(
  current: HonestFields,
  recorded: readonly BreakInterval[],
  offsetAt: OffsetAt,
): { updates: Record<string, FieldValue>; counted: BreakInterval[]; countedMinutes: number } {
  const breaks = recorded.reduce<BreakInterval[]>((left, span) => withoutSpan(left, span), [...current.breaks]);
  const counted = recorded.filter((span) => current.breaks.some((b) => b.fromMs < span.toMs && b.toMs > span.fromMs));
  return {
    updates: { ...breakFields(breaks, offsetAt), away: [] },
    counted,
    countedMinutes: Math.max(0, current.breakMinutes - totalBreakMinutes(breaks)),
  };
}

/**
 * The draft change when the learner counts a recorded time away after all: that interval leaves breaks (what
 * of it is still recorded), and `countedMinutes` says how much that was.
 */
export function countBackUpdate(
  current: HonestFields,
  away: BreakInterval,
  offsetAt: OffsetAt,
  /** The draft's `away` list as recorded, from which the interval is removed too (absent: left as it is). */
  recorded?: readonly BreakInterval[],
): { updates: Record<string, FieldValue>; breakMinutes: number; countedMinutes: number } {
  const breaks = withoutSpan(current.breaks, away);
  const breakMinutes = totalBreakMinutes(breaks);
  return {
    updates: {
      ...breakFields(breaks, offsetAt),
      ...(recorded ? { away: formatBreaks(withoutSpan(recorded, away), offsetAt) } : {}),
    },
    breakMinutes,
    countedMinutes: Math.max(0, current.breakMinutes - breakMinutes),
  };
}

/** "Away 23:10–07:05, not counted" (local times; with dates when the gap is a day or longer). */
export function awayNotice(away: AwayBreak, offsetAt: OffsetAt): string {
  return `Away ${describeSpan(away.fromMs, away.toMs, offsetAt)}, not counted`;
}

/** The line the CLI prints after an action that recorded time away (draft, recover resume). */
export function awayLine(away: AwayBreak, offsetAt: OffsetAt): string {
  return `${awayNotice(away, offsetAt)} (${formatDuration(away.minutes)} recorded as a break).`;
}

/** `away` in the CLI's JSON answers: {"from","to","minutes"} (contract §5, version 3). */
export function awayJson(away: AwayBreak, offsetAt: OffsetAt): { from: string; to: string; minutes: number } {
  const from = formatTimestamp(away.fromMs, offsetAt(away.fromMs));
  return { from, to: formatTimestamp(away.toMs, offsetAt(away.toMs)), minutes: away.minutes };
}
