/** --since and --until (stats, export): local days as YYYY-MM-DD, inclusive. */
import { UsageError } from "../core/errors";
import { dayOf } from "../core/time";

export type DayRange = { since: string | null; until: string | null };

export function dayRangeOf(options: { since?: string; until?: string }): DayRange {
  const check = (flag: string, value: string | undefined): string | null => {
    if (value === undefined) return null;
    if (dayOf(value) === null) throw new UsageError(`--${flag} must be a date as YYYY-MM-DD (got "${value}")`);
    return value.trim();
  };
  const since = check("since", options.since);
  const until = check("until", options.until);
  if (since && until && since > until) throw new UsageError(`--since ${since} is after --until ${until}`);
  return { since, until };
}
