/** end: when the session ended, given (now, last, HH:MM, ISO 8601) or not, and what it records. */
import { UsageError } from "../errors";
import type { OffsetAt } from "../time";
import { FUTURE_SKEW_MS, describeInstant, parseGivenTime } from "../time";
import { pauseMinutes, studiedMinutes } from "./breaks";
import type { EndAtSession } from "./signs-of-life";
import { lastSignOf } from "./signs-of-life";
import { LONG_SILENCE_MS, longSilence } from "./silence";

export type { EndAtSession } from "./signs-of-life";

/**
 * When a session ended, as the caller chose it (contract §4 "end at a chosen time"). Not given at all: a paused
 * session ends at paused_at, and a long silence is refused with LongSilenceError (long_silence).
 */
export type EndTime =
  | { kind: "now" }
  /** Its last sign of life; `aliveAt`: the caller's own, later one (the plugin's last tick before a gap). */
  | { kind: "last"; aliveAt?: number }
  /** A time as given in words: HH:MM (today, local time) or ISO 8601, read by the core only. */
  | { kind: "given"; text: string };

/**
 * A time as the CLI's --at (or its question) gives it: "now", "last" (any case), else a time to read; blank
 * text is no time given.
 */
export function endTimeOf(text: string): EndTime | undefined {
  const word = text.trim().toLowerCase();
  if (word === "") return undefined;
  if (word === "now" || word === "last") return { kind: word };
  return { kind: "given", text };
}

export interface EndAt {
  endedMs: number;
  /** break_minutes to record: the draft's, plus the part of an open pause that lies before the end. */
  breakMinutes: number;
  durationMinutes: number;
  source: "now" | "last" | "paused" | "given";
}

function endAtResult(session: EndAtSession, endedMs: number, source: EndAt["source"]): EndAt {
  const paused = session.pausedMs;
  const openPause = paused !== null && paused < endedMs ? pauseMinutes(paused, endedMs) : 0;
  const breakMinutes = session.breakMinutes + openPause;
  return { endedMs, breakMinutes, durationMinutes: studiedMinutes(session.startedMs, endedMs, breakMinutes), source };
}

/**
 * When an ended session ended (contract §4 "end at a chosen time"). `endAt` undefined (not given): a paused
 * session ends at paused_at; a silent one (longer than the grace period and 2 h) is refused with
 * `long_silence`; otherwise now. A given time before the start, more than a minute in the future, or
 * unreadable is refused with `invalid_time`.
 */
export function resolveEndAt(
  endAt: EndTime | undefined,
  session: EndAtSession,
  now: number,
  graceMs: number,
  offsetAt: OffsetAt,
): EndAt {
  const lastSign = lastSignOf(session);
  if (endAt === undefined) {
    if (session.pausedMs !== null) return endAtResult(session, Math.min(session.pausedMs, now), "paused");
    const silenceMs = now - lastSign;
    if (silenceMs > graceMs && silenceMs > LONG_SILENCE_MS) {
      throw longSilence(session.startedMs, lastSign, now, offsetAt);
    }
    return endAtResult(session, now, "now");
  }
  if (endAt.kind === "now") return endAtResult(session, now, "now");
  if (endAt.kind === "last") {
    const alive = endAt.aliveAt === undefined ? lastSign : Math.max(lastSign, endAt.aliveAt);
    return endAtResult(session, Math.min(alive, now), "last");
  }
  const given = parseGivenTime(endAt.text, now, offsetAt);
  if (given === null) {
    throw new UsageError(
      `"${endAt.text.trim()}" is not a time: give now, last, HH:MM (00:00 to 23:59) or an ISO 8601 timestamp`,
      "invalid_time",
    );
  }
  if (given < session.startedMs) {
    throw new UsageError(
      `${describeInstant(given, now, offsetAt)} is before the session started ` +
        `(${describeInstant(session.startedMs, now, offsetAt)})`,
      "invalid_time",
    );
  }
  if (given - now > FUTURE_SKEW_MS) {
    throw new UsageError(`${describeInstant(given, now, offsetAt)} is in the future`, "invalid_time");
  }
  return endAtResult(session, Math.min(given, now), "given");
}

/** The end dialog's preselected choice: paused_at, or the last activity once the silence exceeds the grace period. */
export function preselectedEnd(session: EndAtSession, now: number, graceMs: number): "paused" | "last" | "now" {
  if (session.pausedMs !== null) return "paused";
  const lastSignMs = lastSignOf(session);
  return now - lastSignMs > graceMs ? "last" : "now";
}

/**
 * Where a saved (interrupted) draft ends: at paused_at when paused, else its last checkpoint (now if none),
 * with the part of an open pause before that end added to its breaks (contract §4).
 */
export function savedEnd(session: EndAtSession, now: number): EndAt {
  if (session.pausedMs !== null) return endAtResult(session, Math.min(session.pausedMs, now), "paused");
  const last = session.lastCheckpointMs ?? now;
  return endAtResult(session, Math.max(session.startedMs, last), "last");
}
