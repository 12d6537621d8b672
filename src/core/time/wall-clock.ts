/** Times typed by the learner: HH:MM (resolved to its most recent past moment) or ISO 8601. */
import type { OffsetAt } from "./instants";
import { HOUR_MS, MINUTE_MS } from "./instants";
import { parseTimestamp } from "./parse-iso";

const CLOCK = /^(\d{1,2}):(\d{2})$/;

/**
 * The most recent moment at or before `notAfter` whose local wall-clock time is hh:mm. Correct across a
 * daylight-saving change: a wall time the clocks skipped that day is taken from the day before, and of a
 * wall time that happened twice the later past one wins.
 */
export function mostRecentWallClock(hour: number, minute: number, notAfter: number, offsetAt: OffsetAt): number {
  const local = new Date(notAfter + offsetAt(notAfter) * MINUTE_MS);
  let best: number | null = null;
  for (let back = 0; back <= 2 && best === null; back++) {
    const wall = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate() - back, hour, minute);
    // Every offset in force within a day of that wall time; keep the instants that really show it.
    const offsets = new Set<number>();
    for (let h = -26; h <= 26; h += 2) offsets.add(offsetAt(wall + h * HOUR_MS));
    for (const offset of offsets) {
      const instant = wall - offset * MINUTE_MS;
      if (offsetAt(instant) === offset && instant <= notAfter && (best === null || instant > best)) best = instant;
    }
  }
  // Unreachable with any real offset function (a wall time exists at least once in three days).
  return best ?? notAfter;
}

/**
 * A time typed by the learner: HH:MM (the most recent past moment, at or before `notAfter`) or ISO 8601
 * (without an offset: local time). null when it is neither, "25:99" included.
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
  return parseTimestamp(trimmed, offsetAt);
}
