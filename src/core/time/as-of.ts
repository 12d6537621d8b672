/** The as-of day of the version 4 reads (contract §4c): today by default; a day after today is refused. */
import { UsageError } from "../errors";
import type { OffsetAt } from "./instants";
import { dayOf, dayText, localDay } from "./local-days";

export function asOfDay(text: string | null | undefined, now: number, offsetAt: OffsetAt): number {
  const today = localDay(now, offsetAt);
  if (text === null || text === undefined) return today;
  const day = dayOf(text);
  if (day === null) {
    const shown = JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
    throw new UsageError(`--as-of must be a date as YYYY-MM-DD (got ${shown})`, "invalid_date");
  }
  if (day > today) throw new UsageError(`--as-of ${text.trim()} is after today (${dayText(today)})`, "invalid_date");
  return day;
}
