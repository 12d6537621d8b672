/**
 * Times typed by the learner: HH:MM (resolved to its most recent past moment) or ISO 8601. A local wall time
 * the clocks skipped that day is refused, naming the ISO forms to use; one that happened twice is the later
 * (contract §4 log and "Refusals"). Every reader of a typed time (log, end --at, the end dialog) comes here.
 */
import { UsageError } from "../errors";
import type { OffsetAt } from "./instants";
import { HOUR_MS, MINUTE_MS } from "./instants";
import { formatTimestamp } from "./render-iso";
import { parseTimestamp } from "./parse-iso";

const CLOCK = /^(\d{1,2}):(\d{2})$/;
const LOCAL_ISO = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d{1,9})?)?$/;

/** The offsets in force within a day either side of a wall time (given as if it were UTC). */
function offsetsNear(wall: number, offsetAt: OffsetAt): number[] {
  const offsets = new Set<number>();
  for (let h = -26; h <= 26; h += 2) offsets.add(offsetAt(wall + h * HOUR_MS));
  return [...offsets];
}

/** The instants whose local wall time is `wall` (epoch ms read as UTC), oldest first: none, one or two. */
export function instantsShowing(wall: number, offsetAt: OffsetAt): number[] {
  const found = new Set<number>();
  for (const offset of offsetsNear(wall, offsetAt)) {
    const instant = wall - offset * MINUTE_MS;
    if (offsetAt(instant) === offset) found.add(instant);
  }
  return [...found].sort((a, b) => a - b);
}

/** The moment the clocks jumped over a skipped wall time (to the minute): the offsets before and after it. */
function skipOf(wall: number, offsetAt: OffsetAt): { at: number; before: number; after: number } {
  const offsets = offsetsNear(wall, offsetAt);
  let lo = wall - Math.max(...offsets) * MINUTE_MS;
  let hi = wall - Math.min(...offsets) * MINUTE_MS;
  const before = offsetAt(lo);
  while (hi - lo > MINUTE_MS) {
    const mid = lo + Math.floor((hi - lo) / 2 / MINUTE_MS) * MINUTE_MS;
    if (offsetAt(mid) === before) lo = mid;
    else hi = mid;
  }
  return { at: hi, before, after: offsetAt(hi) };
}

/** The refusal of a wall time the clocks skipped, naming what to type instead (the same moment both ways). */
function skippedError(text: string, wall: number, offsetAt: OffsetAt): UsageError {
  const skip = skipOf(wall, offsetAt);
  const clock = (instant: number, offset: number) => formatTimestamp(instant, offset).slice(11, 16);
  const day = formatTimestamp(wall, 0).slice(0, 10);
  const earlier = wall - skip.after * MINUTE_MS;
  const later = wall - skip.before * MINUTE_MS;
  return new UsageError(
    `"${text}" does not exist on ${day} here: the clocks went from ${clock(skip.at, skip.before)} to ` +
      `${clock(skip.at, skip.after)}. Give the time with its offset, e.g. ${formatTimestamp(earlier, skip.before)} ` +
      `or ${formatTimestamp(later, skip.after)}`,
    "invalid_time",
  );
}

/**
 * The most recent moment at or before `notAfter` whose local wall-clock time is hh:mm: on the local day of
 * `notAfter`, or the day before when that day's hh:mm is still to come. Of a wall time that happened twice
 * (clocks go back) the later past one wins. A wall time the clocks skipped on that day (clocks go forward)
 * throws UsageError `invalid_time`: taking the day before would make a session 24 hours longer.
 */
export function mostRecentWallClock(hour: number, minute: number, notAfter: number, offsetAt: OffsetAt): number {
  const local = new Date(notAfter + offsetAt(notAfter) * MINUTE_MS);
  for (let back = 0; back <= 2; back++) {
    const wall = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate() - back, hour, minute);
    const shown = instantsShowing(wall, offsetAt);
    if (shown.length === 0) {
      const skip = skipOf(wall, offsetAt);
      if (skip.at <= notAfter) throw skippedError(formatTimestamp(wall, 0).slice(11, 16), wall, offsetAt);
      continue;
    }
    const past = shown.filter((instant) => instant <= notAfter);
    if (past.length > 0) return past[past.length - 1];
  }
  // Unreachable with any real offset function (a wall time exists at least once in three days).
  return notAfter;
}

/** A local ISO time (no offset): the later instant showing it, or a refusal when the clocks skipped it. */
function localIso(text: string, match: RegExpExecArray, offsetAt: OffsetAt): number | null {
  const wall = parseTimestamp(text);
  if (wall === null) return null;
  const shown = instantsShowing(wall, offsetAt);
  if (shown.length === 0) throw skippedError(`${match[1]}T${match[2]}:${match[3]}`, wall, offsetAt);
  return shown[shown.length - 1];
}

/**
 * A time typed by the learner: HH:MM (the most recent past moment, at or before `notAfter`) or ISO 8601
 * (without an offset: local time, the later one when it happened twice). null when it is neither, "25:99"
 * included; a local time the clocks skipped throws UsageError `invalid_time` naming the ISO forms to use.
 */
export function parseGivenTime(text: string, notAfter: number, offsetAt: OffsetAt): number | null {
  const trimmed = text.trim();
  const clock = CLOCK.exec(trimmed);
  if (clock) {
    const hour = Number(clock[1]);
    const minute = Number(clock[2]);
    if (hour > 23 || minute > 59) return null;
    return mostRecentWallClock(hour, minute, notAfter, offsetAt);
  }
  const local = LOCAL_ISO.exec(trimmed);
  if (local) return localIso(trimmed, local, offsetAt);
  return parseTimestamp(trimmed, offsetAt);
}

/** Whether a typed time is a bare HH:MM (whose day the answer must then name when it is not today). */
export function isWallClock(text: string): boolean {
  return CLOCK.test(text.trim());
}
