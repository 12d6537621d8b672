/** Reading ISO 8601 timestamps as recorded (by this app, by hand, by Obsidian) into instants. */
import type { OffsetAt } from "./instants";
import { MINUTE_MS } from "./instants";

// The offset's sign, hours and minutes are groups of their own (9 to 11): no string work after the match.
const ISO_PATTERN =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|([+-])(\d{2})(?::?(\d{2}))?)?$/;

/** Days in each month of a common year; February has 29 in a leap year (the proleptic Gregorian calendar). */
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Days in `month` (1 to 12) of `year`: by arithmetic, as a Date for each read note cost a start at 30 000 ~1 ms. */
function daysInMonth(year: number, month: number): number {
  const y = year < 100 ? 1900 + year : year; // as Date.UTC reads a year, which asUtc below is made by
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  return month === 2 && leap ? 29 : MONTH_DAYS[month - 1];
}

/**
 * Parses a valid ISO 8601 date-time into epoch ms, or null. Impossible dates (2026-02-30, 25:00) are
 * refused rather than rolled over. A timestamp without an offset is local time, resolved with `offsetAt`
 * (minutes east of UTC at an instant; UTC when omitted).
 */
export function parseTimestamp(text: unknown, offsetAt?: OffsetAt): number | null {
  if (typeof text !== "string") return null;
  const m = ISO_PATTERN.exec(text.trim());
  if (!m) return null;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const hour = Number(m[4]);
  const minute = Number(m[5]);
  const second = m[6] === undefined ? 0 : Number(m[6]);
  const millis = m[7] === undefined ? 0 : Math.floor(Number(`0.${m[7]}`) * 1000);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  const asUtc = Date.UTC(year, month - 1, day, hour, minute, second, millis);
  const zone = m[8];
  if (zone === undefined) {
    if (!offsetAt) return asUtc;
    // Local wall time: the offset at the guessed instant, refined once across an offset change.
    const first = asUtc - offsetAt(asUtc) * MINUTE_MS;
    return asUtc - offsetAt(first) * MINUTE_MS;
  }
  if (zone === "Z") return asUtc;
  const sign = m[9] === "-" ? -1 : 1;
  const offHours = Number(m[10]);
  const offMinutes = m[11] === undefined ? 0 : Number(m[11]);
  if (offHours > 23 || offMinutes > 59) return null;
  return asUtc - sign * (offHours * 60 + offMinutes) * MINUTE_MS;
}

const CANONICAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/;

/**
 * Whether a valid recorded timestamp is in the written form (seconds and a numeric offset) and can be copied
 * as it is; others (Obsidian's "2026-08-14T11:00", a UTC "…Z") are written afresh in the local offset.
 */
export function isCanonicalTimestamp(text: string): boolean {
  return CANONICAL.test(text) && parseTimestamp(text) !== null;
}

/** The calendar day as it was recorded in a (valid) timestamp string: the learner's day at the time. */
export function recordedDate(timestamp: string): string {
  return timestamp.trim().slice(0, 10);
}
