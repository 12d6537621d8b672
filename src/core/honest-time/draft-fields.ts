/** A draft's honest-time fields as recorded, hand edits included: paused_at and break_minutes. */
import type { Fields } from "../frontmatter";
import type { OffsetAt } from "../time";
import { FUTURE_SKEW_MS, formatTimestamp, parseTimestamp } from "../time";
import { readBreakMinutes, shown } from "./breaks";

export interface HonestFields {
  /** paused_at as written (trimmed), or null when not paused or when the value was damaged. */
  pausedAt: string | null;
  pausedMs: number | null;
  /** break_minutes; 0 when absent or damaged. */
  breakMinutes: number;
  /** One line per damaged field, naming the file; the field is then treated as absent. */
  warnings: string[];
}

/**
 * paused_at and break_minutes of a draft's frontmatter. A paused_at that is not a valid timestamp, lies more
 * than a minute in the future, or before the draft's own start is reported and read as "not paused"; one up
 * to a minute ahead (another device's clock) is read as now. Blank text reads as absent.
 */
export function readHonestFields(fields: Fields, path: string, now: number, offsetAt: OffsetAt): HonestFields {
  const warnings: string[] = [];
  const { breakMinutes, warning } = readBreakMinutes(fields.break_minutes, path);
  if (warning !== null) warnings.push(warning);

  const raw = fields.paused_at;
  if (raw === undefined || raw === null || (typeof raw === "string" && raw.trim() === "")) {
    return { pausedAt: null, pausedMs: null, breakMinutes, warnings };
  }
  const ms = parseTimestamp(raw, offsetAt);
  const startedMs = parseTimestamp(fields.started_at, offsetAt);
  let problem: string | null = null;
  if (ms === null) problem = "is not a valid ISO 8601 timestamp";
  else if (ms - now > FUTURE_SKEW_MS) problem = "is in the future";
  else if (startedMs !== null && ms < startedMs) problem = "is before the session's start";
  if (ms === null || problem !== null) {
    warnings.push(`${path}: paused_at ${shown(raw)} ${problem ?? "is not valid"}; read as not paused`);
    return { pausedAt: null, pausedMs: null, breakMinutes, warnings };
  }
  if (ms > now) return { pausedAt: formatTimestamp(now, offsetAt(now)), pausedMs: now, breakMinutes, warnings };
  return { pausedAt: (raw as string).trim(), pausedMs: ms, breakMinutes, warnings };
}
