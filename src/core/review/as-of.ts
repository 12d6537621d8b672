/** The as-of day of the learning loop's reads (contract §4c): today by default, never after today. */
import { UsageError } from "../errors";
import type { OffsetAt } from "../time";
import { dayOf, dayText, localDay } from "../time/local-days";

/** The day number `text` names (YYYY-MM-DD), or today when absent; invalid_date (exit 2) when malformed or later. */
export function asOfDay(text: string | null | undefined, now: number, offsetAt: OffsetAt): number {
  const today = localDay(now, offsetAt);
  if (text === null || text === undefined) return today;
  const day = dayOf(text);
  const shown = JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
  if (day === null) throw new UsageError(`--as-of must be a date YYYY-MM-DD (got ${shown})`, "invalid_date");
  if (day > today) {
    throw new UsageError(
      `--as-of ${shown} is after today (${dayText(today)}); the future is not known yet`,
      "invalid_date",
    );
  }
  return day;
}
