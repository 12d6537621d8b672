/** A session logged after the fact (no timer): when it happened, checked against the sessions around it. */
import { OverlapError, UsageError } from "../errors";
import type { OffsetAt } from "../time";
import {
  FUTURE_SKEW_MS,
  MINUTE_MS,
  describeInstant,
  durationMinutes,
  formatDurationMs,
  localClock,
  parseGivenTime,
} from "../time";

/** A logged session may touch a neighbour by up to this much (contract §4 log: "by more than a minute"). */
export const OVERLAP_TOLERANCE_MS = MINUTE_MS;
/** Decision: a logged session is at most a day; a longer one is almost surely a typo. */
export const MAX_LOG_MINUTES = 24 * 60;

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
}

function readMinutes(value: string | number): number {
  const text = String(value).trim();
  const n = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > MAX_LOG_MINUTES) {
    const range = `from 1 to ${MAX_LOG_MINUTES}`;
    throw new UsageError(`--minutes ${JSON.stringify(text)} is not a whole number of minutes ${range}`);
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
 * now). HH:MM in `to` is its most recent past moment; in `from`, the most recent one at or before `to`, so
 * 23:30 to 00:30 is one hour. Refused: malformed input (`usage`, `invalid_time`), an end more than a minute
 * in the future or a start not before the end (`invalid_time`), and more than a minute of overlap with a
 * confirmed session or the open session (`overlap`, naming it; `others` holds both).
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
  if (startMs >= endMs) {
    throw new UsageError(
      `--from (${describeInstant(startMs, now, offsetAt)}) must be before ` +
        `--to (${describeInstant(endMs, now, offsetAt)})`,
      "invalid_time",
    );
  }
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
  return { startMs, endMs, durationMinutes: durationMinutes(startMs, endMs) };
}
