/** Silence: how long a session has shown no sign of life, and the refusal to end it silently. */
import { LongSilenceError } from "../errors";
import type { OffsetAt } from "../time";
import { HOUR_MS, describeInstant, formatDurationMs, formatTimestamp } from "../time";
import type { EndAtSession } from "./signs-of-life";
import { lastSignOf } from "./signs-of-life";

/** With no end time given, end refuses once the silence exceeds both the grace period and this (contract §4). */
export const LONG_SILENCE_MS = 2 * HOUR_MS;

/** How long a session has been silent, for the end dialog and status ("No activity since 20:30, 12 h ago"). */
export function silenceOf(
  session: EndAtSession,
  now: number,
  offsetAt: OffsetAt,
): { lastSignMs: number; silenceMs: number; text: string } {
  const lastSignMs = lastSignOf(session, now);
  const silenceMs = Math.max(0, now - lastSignMs);
  const text = `No activity since ${describeInstant(lastSignMs, now, offsetAt)}, ${formatDurationMs(silenceMs)} ago`;
  return { lastSignMs, silenceMs, text };
}

/** The refusal (`long_silence`) of an end that does not say when, after a silence longer than 2 h. */
export function longSilence(startedMs: number, lastSign: number, now: number, offsetAt: OffsetAt): LongSilenceError {
  const silenceMs = now - lastSign;
  const sessionMs = now - startedMs;
  const situation =
    `no activity since ${describeInstant(lastSign, now, offsetAt)} ` +
    `(${formatDurationMs(silenceMs)} ago; the session started ${formatDurationMs(sessionMs)} ago)`;
  return new LongSilenceError(
    situation,
    `${situation}: say when it ended with --at now, --at last or --at HH:MM`,
    silenceMs,
    sessionMs,
    formatTimestamp(lastSign, offsetAt(lastSign)),
  );
}
