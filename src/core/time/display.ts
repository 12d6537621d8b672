/**
 * Durations and times as people read them, the one rendering both faces use (CLI and plugin): durations as
 * "45 min", "1 h", "1 h 5 min"; times of day as "14:05", with the date when it is not today.
 * Machine-readable outputs (JSON, CSV, frontmatter) keep their raw numbers and ISO timestamps.
 */
import type { OffsetAt } from "./instants";
import { HOUR_MS, MINUTE_MS } from "./instants";
import { dayText, localDay } from "./local-days";
import { formatTimestamp, pad } from "./render-iso";

/** "0 min", "59 min", "1 h", "1 h 5 min", "20 h 35 min": whole minutes, rounded down, never negative. */
export function formatDuration(minutes: number): string {
  const whole = Number.isFinite(minutes) ? Math.max(0, Math.floor(minutes)) : 0;
  const h = Math.floor(whole / 60);
  const m = whole % 60;
  if (h === 0) return `${m} min`;
  return m === 0 ? `${h} h` : `${h} h ${m} min`;
}

/** formatDuration of a span in milliseconds ("45 min" for 45 min 59 s). */
export function formatDurationMs(ms: number): string {
  return formatDuration(ms / MINUTE_MS);
}

/** "1:05:09" (or "1:05" without seconds) for a running timer; negative elapsed shows as 0. */
export function formatElapsed(ms: number, withSeconds = true): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return withSeconds ? `${h}:${pad(m)}:${pad(s)}` : `${h}:${pad(m)}`;
}

/** "23:10": the local wall-clock time of an instant. */
export function localClock(instant: number, offsetAt: OffsetAt): string {
  return formatTimestamp(instant, offsetAt(instant)).slice(11, 16);
}

/** "2026-08-13 20:30": the local date and time of an instant. */
export function localDateTime(instant: number, offsetAt: OffsetAt): string {
  return formatTimestamp(instant, offsetAt(instant)).slice(0, 16).replace("T", " ");
}

/** "20:30" on the day of `now`, else "2026-08-13 20:30". */
export function describeInstant(instant: number, now: number, offsetAt: OffsetAt): string {
  const sameDay =
    formatTimestamp(instant, offsetAt(instant)).slice(0, 10) === formatTimestamp(now, offsetAt(now)).slice(0, 10);
  return sameDay ? localClock(instant, offsetAt) : localDateTime(instant, offsetAt);
}

/**
 * A recorded timestamp as it was written (its own offset, not this device's): "14:05" when its day is
 * `today`, else "2026-08-14 14:05"; "unknown" for none, and text that is no timestamp as it is.
 */
export function describeRecorded(recorded: string | null, today: string): string {
  if (!recorded) return "unknown";
  const match = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})/.exec(recorded.trim());
  if (!match) return recorded;
  return match[1] === today ? match[2] : `${match[1]} ${match[2]}`;
}

/** "23:10–07:05" for a span within a day; with dates on both ends once it lasts a day or longer. */
export function describeSpan(fromMs: number, toMs: number, offsetAt: OffsetAt): string {
  const show = toMs - fromMs >= 24 * HOUR_MS ? localDateTime : localClock;
  return `${show(fromMs, offsetAt)}–${show(toMs, offsetAt)}`;
}

/** "today", "yesterday", else the local date ("2026-11-28") of an instant, seen from `now`. */
export function dayWord(instant: number, now: number, offsetAt: OffsetAt): string {
  const day = localDay(instant, offsetAt);
  const today = localDay(now, offsetAt);
  return day === today ? "today" : day === today - 1 ? "yesterday" : dayText(day);
}

/**
 * A span with its day named, so a time typed as HH:MM that was not today is seen to be so: "today
 * 14:00–15:10", "yesterday 11:00–13:00", "yesterday 23:30–today 00:30", "2026-11-28 11:00–13:00".
 */
export function describeDaySpan(fromMs: number, toMs: number, now: number, offsetAt: OffsetAt): string {
  const fromDay = dayWord(fromMs, now, offsetAt);
  const toDay = dayWord(toMs, now, offsetAt);
  const from = `${fromDay} ${localClock(fromMs, offsetAt)}`;
  return fromDay === toDay ? `${from}–${localClock(toMs, offsetAt)}` : `${from}–${toDay} ${localClock(toMs, offsetAt)}`;
}
