/**
 * The values plan.md holds (contract §2 plan.md, version 4) and their bounds, shared by the reader (plan.ts)
 * and the writers (plan-change.ts, the plugin's dialog), so a value read and a value written obey one rule.
 */
import { dayOf, dayText } from "../time";

export const MINUTES_PER_WEEK = { min: 1, max: 10_080 } as const;
export const SESSIONS_PER_WEEK = { min: 1, max: 100 } as const;
export const MIN_MINUTES = { min: 1, max: 240, default: 5 } as const;
export const FREEZES_PER_MONTH = { min: 0, max: 10, default: 2 } as const;
/** A pause covers at most this many days, both ends included. */
export const PAUSE_MAX_DAYS = 366;

/** Monday first, as ISO weeks are: index 0 is `mon`. */
export const WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** The weekday of a day number, 0 for Monday (day 0, 1970-01-01, was a Thursday). */
export function weekdayOf(day: number): number {
  return (((day + 3) % 7) + 7) % 7;
}

/** An integer within bounds, as YAML gives it (a number) or as text ("300"); null otherwise. */
export function boundedInteger(value: unknown, bounds: { min: number; max: number }): number | null {
  const n = typeof value === "string" && /^\s*\d{1,9}\s*$/.test(value) ? Number(value) : value;
  if (typeof n !== "number" || !Number.isInteger(n) || n < bounds.min || n > bounds.max) return null;
  return n;
}

/** A weekday name (`mon`…`sun`, any case), or null. */
export function weekdayIndex(value: unknown): number | null {
  if (typeof value !== "string") return null;
  const index = (WEEKDAYS as readonly string[]).indexOf(value.trim().toLowerCase());
  return index < 0 ? null : index;
}

/** An inclusive span of local days (a pause). */
export interface DaySpan {
  from: string;
  to: string;
  fromDay: number;
  toDay: number;
}

/** "YYYY-MM-DD/YYYY-MM-DD" as a pause, or why it is not one (in words that fit after the value). */
export function parsePause(value: unknown): DaySpan | string {
  if (typeof value !== "string") return "is not a text of the form YYYY-MM-DD/YYYY-MM-DD";
  const parts = value.split("/");
  const fromDay = parts.length === 2 ? dayOf(parts[0]) : null;
  const toDay = parts.length === 2 ? dayOf(parts[1]) : null;
  if (fromDay === null || toDay === null) return "is not of the form YYYY-MM-DD/YYYY-MM-DD (two real dates)";
  if (toDay < fromDay) return "ends before it starts";
  if (toDay - fromDay + 1 > PAUSE_MAX_DAYS) return `lasts ${toDay - fromDay + 1} days (at most ${PAUSE_MAX_DAYS})`;
  return { from: dayText(fromDay), to: dayText(toDay), fromDay, toDay };
}

export const pauseText = (span: DaySpan): string => `${span.from}/${span.to}`;
