/** A session logged after the fact (no timer): when it happened, checked against the sessions around it. */
import { OverlapError, UsageError } from "../errors";
import type { OffsetAt } from "../time";
import {
  EARLIEST_PLAUSIBLE_MS,
  FUTURE_SKEW_MS,
  HOUR_MS,
  MINUTE_MS,
  describeDaySpan,
  describeInstant,
  durationMinutes,
  formatDuration,
  formatDurationMs,
  formatTimestamp,
  isWallClock,
  localClock,
  localDay,
  parseGivenTime,
} from "../time";

/** A logged session may touch a neighbour by up to this much (contract §4 log: "by more than a minute"). */
export const OVERLAP_TOLERANCE_MS = MINUTE_MS;
/** A logged session lasts 1 to 1 440 minutes however it is given (contract §4 log). */
export const MIN_LOG_MINUTES = 1;
export const MAX_LOG_MINUTES = 24 * 60;
/** An HH:MM `--from` later than `--to` means the day before only when the span is then at most this. */
export const OVERNIGHT_MAX_MS = 12 * HOUR_MS;

export interface LogRequest {
  from?: string;
  to?: string;
  /** As typed (CLI text) or as a number (the plugin's field). */
  minutes?: string | number;
}

export interface OtherSession {
  /** The confirmed session's ID, or the open session's draft ID. */
  id: string;
  startMs: number;
  endMs: number;
}

export interface LogInterval {
  startMs: number;
  endMs: number;
  durationMinutes: number;
  /** "yesterday 11:00–13:00": the interval with its day named (contract §4 log: the answer names the day). */
  when: string;
}

function readMinutes(value: string | number): number {
  const text = String(value).trim();
  const n = /^\d+$/.test(text) ? Number(text) : NaN;
  const range = `from ${MIN_LOG_MINUTES} to ${MAX_LOG_MINUTES}`;
  if (!Number.isSafeInteger(n)) {
    throw new UsageError(`--minutes ${JSON.stringify(text)} is not a whole number of minutes ${range}`);
  }
  if (n < MIN_LOG_MINUTES || n > MAX_LOG_MINUTES) {
    throw new UsageError(`--minutes ${n} is out of range: a logged session lasts ${range} minutes`, "invalid_time");
  }
  return n;
}

function readGiven(option: string, text: string, notAfter: number, offsetAt: OffsetAt): number {
  const ms = parseGivenTime(text, notAfter, offsetAt);
  if (ms === null) {
    const hint = "give HH:MM (00:00 to 23:59) or an ISO 8601 timestamp";
    throw new UsageError(`${option} "${text.trim()}" is not a time: ${hint}`, "invalid_time");
  }
  return ms;
}

/**
 * The interval of a logged session (contract §4 log): `from` and `to`, or `minutes` ending at `to` (default
 * now). HH:MM in `to` is its most recent past moment; in `from`, the most recent one at or before the end, and
 * one later than the end's wall time means the day before only when the span is then at most 12 hours (23:30
 * to 00:30 is one hour; 07:00 to 06:30 is refused). Refused: malformed input (`usage`, `invalid_time`), a
 * local time the clocks skipped, an end more than a minute in the future, a start after the end or before
 * 2000, a span outside 1 to 1 440 minutes (`invalid_time`), and more than a minute of overlap with a confirmed
 * session or the open session (`overlap`, naming it; `others` holds both).
 */
export function resolveLogInterval(
  request: LogRequest,
  others: readonly OtherSession[],
  now: number,
  offsetAt: OffsetAt,
): LogInterval {
  const hasMinutes = request.minutes !== undefined && String(request.minutes).trim() !== "";
  if (hasMinutes && request.from !== undefined) throw new UsageError("give --from and --to, or --minutes, not both");
  if (!hasMinutes && request.from === undefined) {
    throw new UsageError("say when the session happened: --from and --to, or --minutes");
  }
  const rawEnd = request.to === undefined ? now : readGiven("--to", request.to, now, offsetAt);
  if (rawEnd - now > FUTURE_SKEW_MS) {
    const when = describeInstant(rawEnd, now, offsetAt);
    throw new UsageError(`the session would end in the future (${when})`, "invalid_time");
  }
  const endMs = Math.min(rawEnd, now);
  const startMs = hasMinutes
    ? endMs - readMinutes(request.minutes as string | number) * MINUTE_MS
    : readGiven("--from", request.from as string, endMs, offsetAt);
  checkSpan(request, startMs, endMs, now, offsetAt);
  checkOverlaps(startMs, endMs, others, now, offsetAt);
  return {
    startMs,
    endMs,
    durationMinutes: durationMinutes(startMs, endMs),
    when: describeDaySpan(startMs, endMs, now, offsetAt),
  };
}

/** The span rules of contract §4 log: not backwards, not overnight past 12 h, not before 2000, 1–1 440 min. */
function checkSpan(request: LogRequest, startMs: number, endMs: number, now: number, offsetAt: OffsetAt): void {
  const from = `--from ${describeInstant(startMs, now, offsetAt)}`;
  const end =
    request.to === undefined
      ? `now, ${describeInstant(endMs, now, offsetAt)}`
      : `--to ${describeInstant(endMs, now, offsetAt)}`;
  const spanMs = endMs - startMs;
  const wallClock = request.from !== undefined && isWallClock(request.from);
  if (wallClock && localDay(startMs, offsetAt) < localDay(endMs, offsetAt) && spanMs > OVERNIGHT_MAX_MS) {
    const iso = formatTimestamp(startMs, offsetAt(startMs)).slice(0, 16);
    throw new UsageError(
      `--from ${request.from?.trim()} starts after it ends (${end}): a start later than the end means the day ` +
        `before only when the session is then at most 12 h (this would be ${formatDurationMs(spanMs)}); give ` +
        `the day as ISO 8601 (--from ${iso}) if that is what you mean`,
      "invalid_time",
    );
  }
  if (startMs > endMs) throw new UsageError(`${from} starts after it ends (${end})`, "invalid_time");
  if (startMs < EARLIEST_PLAUSIBLE_MS) {
    throw new UsageError(`${from} is before 2000: a logged session must start in 2000 or later`, "invalid_time");
  }
  const minutes = durationMinutes(startMs, endMs);
  const range = `a logged session lasts 1 min to 24 h (${MIN_LOG_MINUTES} to ${MAX_LOG_MINUTES} minutes)`;
  if (minutes < MIN_LOG_MINUTES) {
    throw new UsageError(`${from} to ${end} is less than a minute: ${range}`, "invalid_time");
  }
  if (minutes > MAX_LOG_MINUTES) {
    throw new UsageError(
      `${from} to ${end} lasts ${formatDuration(minutes)}: ${range}; log each day on its own`,
      "invalid_time",
    );
  }
}

function checkOverlaps(
  startMs: number,
  endMs: number,
  others: readonly OtherSession[],
  now: number,
  offsetAt: OffsetAt,
): void {
  for (const other of others) {
    const overlapMs = Math.min(endMs, other.endMs) - Math.max(startMs, other.startMs);
    if (overlapMs > OVERLAP_TOLERANCE_MS) {
      throw new OverlapError(
        `${describeInstant(startMs, now, offsetAt)}–${localClock(endMs, offsetAt)} overlaps ${other.id} ` +
          `(${describeInstant(other.startMs, now, offsetAt)}–${localClock(other.endMs, offsetAt)}) ` +
          `by ${formatDurationMs(overlapMs)}`,
        other.id,
      );
    }
  }
}
