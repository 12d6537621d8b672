/** A draft's honest-time fields as recorded, hand edits included: paused_at, breaks and break_minutes. */
import type { Fields } from "../records/frontmatter";
import type { OffsetAt } from "../time";
import { FUTURE_SKEW_MS, MINUTE_MS, formatTimestamp, parseTimestamp } from "../time";
import type { BreakInterval } from "./breaks";
import { clipBreaks, formatBreak, readBreakList, readBreakMinutes, shown, totalBreakMinutes } from "./breaks";

export interface HonestFields {
  /** paused_at as written (trimmed), or null when not paused or when the value was damaged. */
  pausedAt: string | null;
  pausedMs: number | null;
  /** The finished breaks, oldest first, none reaching past the last sign of life (readDraftBreaks). */
  breaks: BreakInterval[];
  /** break_minutes: the total of `breaks`. */
  breakMinutes: number;
  /** One line per damaged field, naming the file; the field is then treated as absent. */
  warnings: string[];
}

/**
 * paused_at, breaks and break_minutes of a draft's frontmatter. A paused_at that is not a valid timestamp, lies
 * more than a minute in the future, or before the draft's own start is reported and read as "not paused"; one up
 * to a minute ahead (another device's clock) is read as now. Blank text reads as absent.
 */
export function readHonestFields(fields: Fields, path: string, now: number, offsetAt: OffsetAt): HonestFields {
  const { breaks, warnings } = readDraftBreaks(fields, path, now, offsetAt);
  const honest = { breaks, breakMinutes: totalBreakMinutes(breaks), warnings };
  const raw = fields.paused_at;
  if (raw === undefined || raw === null || (typeof raw === "string" && raw.trim() === "")) {
    return { pausedAt: null, pausedMs: null, ...honest };
  }
  const ms = parseTimestamp(raw, offsetAt);
  const startedMs = parseTimestamp(fields.started_at, offsetAt);
  let problem: string | null = null;
  if (ms === null) problem = "is not a valid ISO 8601 timestamp";
  else if (ms - now > FUTURE_SKEW_MS) problem = "is in the future";
  else if (startedMs !== null && ms < startedMs) problem = "is before the session's start";
  if (ms === null || problem !== null) {
    warnings.push(`${path}: paused_at ${shown(raw)} ${problem ?? "is not valid"}; read as not paused`);
    return { pausedAt: null, pausedMs: null, ...honest };
  }
  if (ms > now) return { pausedAt: formatTimestamp(now, offsetAt(now)), pausedMs: now, ...honest };
  return { pausedAt: (raw as string).trim(), pausedMs: ms, ...honest };
}

/**
 * A draft's breaks (contract §2). With `breaks` a list, it is the record: break_minutes that disagrees is named
 * and read as their total. Without it (written before version 3, or damaged), break_minutes is one break of
 * that length ending at last_checkpoint_at (at started_at + its length when that is unreadable). No break
 * reaches past the last sign of life, which is never in the future: a break that does (recorded by a clock
 * that was ahead, then corrected) ends there.
 */
export function readDraftBreaks(
  fields: Fields,
  path: string,
  now: number,
  offsetAt: OffsetAt,
): { breaks: BreakInterval[]; warnings: string[] } {
  const list = readBreakList(fields.breaks, path, offsetAt);
  const minutes = readBreakMinutes(fields.break_minutes, path);
  const warnings = [...list.warnings];
  const checkpointMs = parseTimestamp(fields.last_checkpoint_at, offsetAt);
  let breaks: BreakInterval[];
  if (list.breaks !== null) {
    breaks = list.breaks;
    const total = totalBreakMinutes(breaks);
    if (fields.break_minutes !== undefined && fields.break_minutes !== total && list.warnings.length === 0) {
      warnings.push(
        `${path}: break_minutes ${shown(fields.break_minutes)} is not the total of breaks; read as ${total}`,
      );
    }
  } else {
    if (minutes.warning !== null) warnings.push(minutes.warning);
    breaks = legacyBreak(minutes.breakMinutes, checkpointMs, parseTimestamp(fields.started_at, offsetAt));
  }
  const limit = Math.min(checkpointMs ?? Number.POSITIVE_INFINITY, now);
  const clipped = clipBreaks(breaks, Number.NEGATIVE_INFINITY, limit);
  const cut = breaks.filter((b) => b.toMs - limit > FUTURE_SKEW_MS);
  if (cut.length > 0 && Number.isFinite(limit)) {
    const names = cut.map((b) => formatBreak(b, offsetAt)).join(", ");
    warnings.push(
      `${path}: break ${names} reaches past the session's last sign of life ` +
        `(${formatTimestamp(limit, offsetAt(limit))}, a clock that was ahead); read as ending there`,
    );
  }
  return { breaks: clipped, warnings };
}

/** A pre-version-3 draft's break_minutes as one break ending where pauses and time away end. */
function legacyBreak(minutes: number, checkpointMs: number | null, startedMs: number | null): BreakInterval[] {
  if (minutes <= 0) return [];
  const toMs = checkpointMs ?? (startedMs === null ? null : startedMs + minutes * MINUTE_MS);
  return toMs === null ? [] : [{ fromMs: toMs - minutes * MINUTE_MS, toMs }];
}
