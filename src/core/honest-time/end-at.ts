/** end: when the session ended, given (now, last, HH:MM, ISO 8601) or not, and what it records. */
import { LongSilenceError, UsageError } from "../errors";
import type { OffsetAt } from "../time";
import {
  FUTURE_SKEW_MS,
  describeInstant,
  durationMinutes as spanMinutes,
  formatDurationMs,
  formatTimestamp,
  parseGivenTime,
} from "../time";
import type { BreakInterval } from "./breaks";
import { clipBreaks, normalizeBreaks, studiedMinutes, toSecond, totalBreakMinutes } from "./breaks";
import type { EndAtSession } from "./signs-of-life";
import { futureCheckpoint, lastSignOf } from "./signs-of-life";
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
  /**
   * The breaks to record (contract §2): the parts inside [started, ended] of the draft's breaks and of an open
   * pause (a break from paused_at to the end).
   */
  breaks: BreakInterval[];
  /** break_minutes to record: the total of `breaks`, never more than the span. */
  breakMinutes: number;
  durationMinutes: number;
  source: "now" | "last" | "paused" | "given";
  /** What the end left out and why (a last checkpoint in the future is not a sign of life). */
  warnings: string[];
}

/**
 * What a session ended at `endedMs` records: only the part of each break inside [started, ended] is subtracted
 * (contract §4, version 3), so a break after a chosen end takes nothing from the time studied before it.
 */
export function endAtResult(
  session: EndAtSession,
  endedMs: number,
  source: EndAt["source"],
  warnings: string[] = [],
): EndAt {
  const paused = session.pausedMs;
  const openPause = paused !== null && paused < endedMs ? [{ fromMs: paused, toMs: toSecond(endedMs) }] : [];
  const breaks = clipBreaks(normalizeBreaks([...session.breaks, ...openPause]), session.startedMs, endedMs);
  const breakMinutes = Math.min(totalBreakMinutes(breaks), spanMinutes(session.startedMs, endedMs));
  const durationMinutes = studiedMinutes(session.startedMs, endedMs, breakMinutes);
  return { endedMs, breaks, breakMinutes, durationMinutes, source, warnings };
}

/** The warning for a last checkpoint in the future, which an end or Save does not take as a sign of life. */
export function futureCheckpointWarning(
  session: EndAtSession,
  now: number,
  offsetAt: OffsetAt,
  who = "the session",
): string[] {
  const ahead = futureCheckpoint(session, now);
  if (ahead === null) return [];
  return [
    `${who}'s last checkpoint (${describeInstant(ahead, now, offsetAt)}) is ${formatDurationMs(ahead - now)} ` +
      `in the future (a clock that was ahead): it is not a sign of life, and no session ends after now`,
  ];
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
  const lastSign = lastSignOf(session, now);
  const warnings = futureCheckpointWarning(session, now, offsetAt);
  const result = (endedMs: number, source: EndAt["source"]): EndAt =>
    endAtResult(session, Math.max(session.startedMs, Math.min(endedMs, now)), source, warnings);
  if (endAt === undefined) {
    if (session.pausedMs !== null) return result(session.pausedMs, "paused");
    const silenceMs = now - lastSign;
    if (silenceMs > graceMs && silenceMs > LONG_SILENCE_MS) {
      throw longSilence(session.startedMs, lastSign, now, offsetAt);
    }
    return result(now, "now");
  }
  if (endAt.kind === "now") return result(now, "now");
  if (endAt.kind === "last") {
    const alive = endAt.aliveAt === undefined ? lastSign : Math.max(lastSign, endAt.aliveAt);
    return result(alive, "last");
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
  return result(given, "given");
}

/**
 * The end of a session whose draft is gone (only hot.md's pointer dates it, contract §4 end tier 2): nothing
 * shows it alive after its start, so after a long silence (as resolveEndAt's) an end at now would count the
 * whole silence as study (invariant 11). Such an end, with `at` now or not given, is refused (long_silence);
 * a time the learner gives, or `last` (its start: 0 minutes), is accepted.
 */
export function refuseVanishedEnd(
  endAt: EndTime | undefined,
  vanished: { draftId: string; startedMs: number },
  now: number,
  graceMs: number,
  offsetAt: OffsetAt,
): void {
  const silenceMs = now - vanished.startedMs;
  if ((endAt !== undefined && endAt.kind !== "now") || silenceMs <= graceMs || silenceMs <= LONG_SILENCE_MS) return;
  const startedAt = formatTimestamp(vanished.startedMs, offsetAt(vanished.startedMs));
  const situation =
    `the open session's draft ${vanished.draftId} is gone: nothing shows activity after its start ` +
    `(${describeInstant(vanished.startedMs, now, offsetAt)}, ${formatDurationMs(silenceMs)} ago)`;
  const sameDay = startedAt.slice(0, 10) === formatTimestamp(now, offsetAt(now)).slice(0, 10);
  const typed = sameDay ? "HH:MM" : `${startedAt.slice(0, 10)}THH:MM`;
  const advice =
    `an end at now would count all of it as study: say when it ended with --at ${typed}, ` +
    "or close it at its start (0 min) with --at last";
  throw new LongSilenceError(situation, `${situation}; ${advice}`, silenceMs, silenceMs, startedAt, true);
}

/** The end dialog's preselected choice: paused_at, or the last activity once the silence exceeds the grace period. */
export function preselectedEnd(session: EndAtSession, now: number, graceMs: number): "paused" | "last" | "now" {
  if (session.pausedMs !== null) return "paused";
  const lastSignMs = lastSignOf(session, now);
  return now - lastSignMs > graceMs ? "last" : "now";
}

/**
 * Where a saved (interrupted) draft ends: at paused_at when paused, else its last sign of life (now if it has no
 * checkpoint), with the part of an open pause before that end added to its breaks (contract §4). Never after
 * now: a last checkpoint in the future is not a sign of life (contract §4 end step 2, version 3).
 */
export function savedEnd(session: EndAtSession, now: number): EndAt {
  const clamp = (ms: number) => Math.max(session.startedMs, Math.min(ms, now));
  if (session.pausedMs !== null) return endAtResult(session, clamp(session.pausedMs), "paused");
  const last = session.lastCheckpointMs === null ? now : lastSignOf(session, now);
  return endAtResult(session, clamp(last), "last");
}
