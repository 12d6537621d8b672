/** Instants written as text for records and IDs (not for people: see display.ts). */
import { MINUTE_MS } from "./instants";

/** A number with leading zeros: pad(5) is "05", pad(7, 4) is "0007". */
export const pad = (n: number, width = 2): string => String(n).padStart(width, "0");

/** "2026-08-14T12:00:00+05:30": the instant in the given offset, to the second. */
export function formatTimestamp(instant: number, offsetMinutes: number): string {
  const local = new Date(Math.floor(instant / 1000) * 1000 + offsetMinutes * MINUTE_MS);
  const sign = offsetMinutes < 0 ? "-" : "+";
  const abs = Math.abs(offsetMinutes);
  return (
    `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}` +
    `T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}` +
    `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
  );
}

/** The local calendar day ("2026-08-14") of an instant in the given offset. */
export function formatLocalDate(instant: number, offsetMinutes: number): string {
  return formatTimestamp(instant, offsetMinutes).slice(0, 10);
}

/** "20260814T063000": the instant in UTC, as used in confirmed session IDs. */
export function formatUtcCompact(instant: number): string {
  const d = new Date(instant);
  return (
    `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}` +
    `T${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`
  );
}
