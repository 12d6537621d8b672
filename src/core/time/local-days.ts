/**
 * Local calendar days as numbers (days since 1970-01-01, no time zone involved) and the offsets that map
 * instants onto them. Weeks are ISO weeks, Monday first.
 */
import type { OffsetAt } from "./instants";
import { DAY_MS, MINUTE_MS } from "./instants";
import { recordedDate } from "./parse-iso";
import { pad } from "./render-iso";

/** The local day number of an instant. */
export function localDay(instant: number, offsetAt: OffsetAt): number {
  return Math.floor((instant + offsetAt(instant) * MINUTE_MS) / DAY_MS);
}

export function dayText(day: number): string {
  const d = new Date(day * DAY_MS);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The days in a month of the proleptic Gregorian calendar (month 1–12). */
function monthDays(year: number, month: number): number {
  if (month !== 2) return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
}

/**
 * The day number of a YYYY-MM-DD text, or null when it is not a real date (or of a year before 100, which
 * Date.UTC, the first way this was worked out, reads as 19xx). By arithmetic, no Date: stats, goal and year ask
 * it once per session (tests/core/time/day-of.test.ts holds it to the Date way).
 */
export function dayOf(text: string): number | null {
  const m = DATE_ONLY.exec(text.trim());
  if (!m) return null;
  // Not destructured: dayOf runs thousands of times a call, mostly not yet optimized, where that costs most.
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (year < 100 || month < 1 || month > 12 || day < 1 || day > monthDays(year, month)) return null;
  // Days from the civil date (H. Hinnant's algorithm): years begin in March, so leap days come last.
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/** A timestamp that names its own numeric offset ("…+05:30", "…+00:00"), not UTC's "Z" or none. */
const OWN_OFFSET = /^\d{4}-\d{2}-\d{2}T[^Z]*[+-]\d{2}(:?\d{2})?$/;

/** Whether a started_at names its own numeric offset, so that its day is the same on every device (sessionDay). */
export function recordsOwnDay(startedAt: string): boolean {
  const text = startedAt.trim();
  return OWN_OFFSET.test(text) && dayOf(recordedDate(text)) !== null;
}

/**
 * The local day a session started on (contract §4a "the day it started"): the date written in its started_at
 * when that names the offset it was written in (every record this tool writes does), so a session at
 * 23:30+05:30 is on its own day in stats, streaks, the history chart and --since/--until, on every device, as
 * in index.md. A UTC time ("…Z", the original tool's records) or one without an offset says nothing of the
 * learner's day: the viewer's local day of its instant (NaN when it has none).
 */
export function sessionDay(session: { startedAt: string; startedMs: number }, offsetAt: OffsetAt): number {
  const text = session.startedAt.trim();
  const recorded = OWN_OFFSET.test(text) ? dayOf(recordedDate(text)) : null;
  if (recorded !== null) return recorded;
  return Number.isFinite(session.startedMs) ? localDay(session.startedMs, offsetAt) : Number.NaN;
}

/** The Monday of a day's ISO week (1970-01-01, day 0, was a Thursday). */
export function mondayOf(day: number): number {
  return day - ((((day + 3) % 7) + 7) % 7);
}

/** "2026-W49" for the ISO week starting on `monday`. */
export function isoWeekLabel(monday: number): string {
  const thursday = monday + 3;
  const year = new Date(thursday * DAY_MS).getUTCFullYear();
  const jan1 = Math.floor(Date.UTC(year, 0, 1) / DAY_MS);
  return `${year}-W${pad(Math.floor((thursday - jan1) / 7) + 1)}`;
}

/**
 * The offset function, remembered per UTC day: when a day starts and ends with the same offset, no transition
 * happened in it (time zones change at most once a day), so every instant of it has that offset; on a day
 * with a transition each instant is asked. A platform's offset lookup is slow enough to matter at 10 000.
 */
export function dailyOffsets(offsetAt: OffsetAt): OffsetAt {
  const known = new Map<number, number | null>();
  return (instant) => {
    const day = Math.floor(instant / DAY_MS);
    let offset = known.get(day);
    if (offset === undefined) {
      const first = offsetAt(day * DAY_MS);
      known.set(day, (offset = first === offsetAt((day + 1) * DAY_MS - 1) ? first : null));
    }
    return offset ?? offsetAt(instant);
  };
}
