/**
 * Time rules. Timestamps are written as ISO 8601 with seconds and the local UTC offset
 * (2026-08-14T12:00:00+05:30) and stay strings in every record; instants are epoch milliseconds.
 */
const ISO_PATTERN =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/;

export const MINUTE_MS = 60_000;
export const DAY_MS = 24 * 60 * MINUTE_MS;
/** A checkpoint inherits hot.md's start only if it is at most this old (docs/architecture.md, checkpoint). */
export const INHERIT_MAX_AGE_MS = DAY_MS;
/** end clamps a hot.md start up to this far in the future to now; further ahead it is ignored. */
export const FUTURE_SKEW_MS = 60_000;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * Parses a valid ISO 8601 date-time into epoch ms, or null. Impossible dates (2026-02-30, 25:00) are
 * refused rather than rolled over. A timestamp without an offset is local time, resolved with `offsetAt`
 * (minutes east of UTC at an instant; UTC when omitted).
 */
export function parseTimestamp(text: unknown, offsetAt?: (at: number) => number): number | null {
  if (typeof text !== "string") return null;
  const m = ISO_PATTERN.exec(text.trim());
  if (!m) return null;
  const [year, month, day, hour, minute] = [m[1], m[2], m[3], m[4], m[5]].map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
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
  const sign = zone.startsWith("-") ? -1 : 1;
  const digits = zone.slice(1).replace(":", "");
  const offHours = Number(digits.slice(0, 2));
  const offMinutes = digits.length > 2 ? Number(digits.slice(2, 4)) : 0;
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

const pad = (n: number, width = 2): string => String(n).padStart(width, "0");

/** "2026-08-14T12:00:00+05:30": the instant in the given offset, to the second. */
export function formatTimestamp(at: number, offsetMinutes: number): string {
  const local = new Date(Math.floor(at / 1000) * 1000 + offsetMinutes * MINUTE_MS);
  const sign = offsetMinutes < 0 ? "-" : "+";
  const abs = Math.abs(offsetMinutes);
  return (
    `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}` +
    `T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}` +
    `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
  );
}

/** The local calendar day ("2026-08-14") of an instant in the given offset. */
export function formatLocalDate(at: number, offsetMinutes: number): string {
  return formatTimestamp(at, offsetMinutes).slice(0, 10);
}

/** The calendar day as it was recorded in a (valid) timestamp string: the learner's day at the time. */
export function recordedDate(timestamp: string): string {
  return timestamp.trim().slice(0, 10);
}

/** "20260814T063000": the instant in UTC, as used in confirmed session IDs. */
export function formatUtcCompact(at: number): string {
  const d = new Date(at);
  return (
    `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}` +
    `T${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`
  );
}

/** Whole minutes between two instants, rounded, never negative. */
export function durationMinutes(startedAt: number, endedAt: number): number {
  return Math.max(0, Math.round((endedAt - startedAt) / MINUTE_MS));
}

/** "1:05:09" (or "1:05" without seconds) for an elapsed time; negative elapsed shows as 0. */
export function formatElapsed(ms: number, withSeconds = true): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return withSeconds ? `${h}:${pad(m)}:${pad(s)}` : `${h}:${pad(m)}`;
}
