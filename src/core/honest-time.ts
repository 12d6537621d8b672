/**
 * Honest time (SPEC §4, version 2; invariant 11): the pure rules behind pause, continue, time away, end at a
 * chosen time and log. No I/O: the operations read the draft, call these and write what they return.
 * Instants are epoch ms; `offsetAt(at)` is the local UTC offset in minutes east of UTC at an instant.
 */
import { LongSilenceError, UsageError } from "./errors";
import type { FieldValue, Fields } from "./frontmatter";
import { FUTURE_SKEW_MS, MINUTE_MS, durationMinutes, formatTimestamp, parseTimestamp } from "./time";

export type OffsetAt = (at: number) => number;

const HOUR_MS = 60 * MINUTE_MS;
/** With no `at`, end refuses once the silence exceeds both the grace period and this (SPEC §4). */
export const LONG_SILENCE_MS = 2 * HOUR_MS;
/** A logged session may touch a neighbour by up to this much (SPEC §4 log: "by more than a minute"). */
export const OVERLAP_TOLERANCE_MS = MINUTE_MS;
/** Decision: a logged session is at most a day; a longer one is almost surely a typo. */
export const MAX_LOG_MINUTES = 24 * 60;

// ---------------------------------------------------------------------------------------------------------
// Signs of life and studied time

/** The later of the start and the last checkpoint; null when neither is valid. */
export function lastSignOfLife(session: { startedMs: number | null; lastCheckpointMs: number | null }): number | null {
  const { startedMs, lastCheckpointMs } = session;
  if (startedMs === null) return lastCheckpointMs;
  if (lastCheckpointMs === null) return startedMs;
  return Math.max(startedMs, lastCheckpointMs);
}

/** duration_minutes (SPEC §2): whole wall-clock minutes minus the breaks, never negative. */
export function studiedMinutes(startedMs: number, endedMs: number, breakMinutes: number): number {
  return Math.max(0, durationMinutes(startedMs, endedMs) - breakMinutes);
}

/** The whole minutes of a pause that ends at `endMs` (continue adds them to break_minutes). */
export function pauseMinutes(pausedMs: number, endMs: number): number {
  return durationMinutes(pausedMs, endMs);
}

/** For the timer and status: time studied so far, frozen at `paused_at` while paused. */
export function studiedMs(
  session: { startedMs: number; breakMinutes: number; pausedMs: number | null },
  now: number,
): number {
  const until = session.pausedMs ?? now;
  return Math.max(0, until - session.startedMs - session.breakMinutes * MINUTE_MS);
}

// ---------------------------------------------------------------------------------------------------------
// A draft's honest-time fields, as recorded (hand edits included)

export interface HonestFields {
  /** paused_at as written (trimmed), or null when not paused or when the value was damaged. */
  pausedAt: string | null;
  pausedMs: number | null;
  /** break_minutes; 0 when absent or damaged. */
  breakMinutes: number;
  /** One line per damaged field, naming the file; the field is then treated as absent. */
  warnings: string[];
}

/** A recorded value as it reads in a warning. */
function shown(value: unknown): string {
  return JSON.stringify(value) ?? typeof value;
}

/**
 * Reads a value of break_minutes (draft or confirmed note): absent or null is 0; anything but a whole
 * number ≥ 0 (a negative, a fraction, text, even "15" in quotes) is reported and read as 0.
 */
export function readBreakMinutes(value: unknown, path: string): { breakMinutes: number; warning: string | null } {
  if (value === undefined || value === null) return { breakMinutes: 0, warning: null };
  if (typeof value === "number" && Number.isInteger(value) && value >= 0) return { breakMinutes: value, warning: null };
  return {
    breakMinutes: 0,
    warning: `${path}: break_minutes ${shown(value)} is not a whole number of minutes ≥ 0; read as 0`,
  };
}

/**
 * paused_at and break_minutes of a draft's frontmatter. A paused_at that is not a valid timestamp, lies more
 * than a minute in the future, or before the draft's own start is reported and read as "not paused"; one up
 * to a minute ahead (another device's clock) is read as now. Blank text reads as absent.
 */
export function readHonestFields(fields: Fields, path: string, now: number, offsetAt: OffsetAt): HonestFields {
  const warnings: string[] = [];
  const { breakMinutes, warning } = readBreakMinutes(fields.break_minutes, path);
  if (warning !== null) warnings.push(warning);

  const raw = fields.paused_at;
  if (raw === undefined || raw === null || (typeof raw === "string" && raw.trim() === "")) {
    return { pausedAt: null, pausedMs: null, breakMinutes, warnings };
  }
  const ms = parseTimestamp(raw, offsetAt);
  const startedMs = parseTimestamp(fields.started_at, offsetAt);
  let problem: string | null = null;
  if (ms === null) problem = "is not a valid ISO 8601 timestamp";
  else if (ms - now > FUTURE_SKEW_MS) problem = "is in the future";
  else if (startedMs !== null && ms < startedMs) problem = "is before the session's start";
  if (ms === null || problem !== null) {
    warnings.push(`${path}: paused_at ${shown(raw)} ${problem ?? "is not valid"}; read as not paused`);
    return { pausedAt: null, pausedMs: null, breakMinutes, warnings };
  }
  if (ms > now) return { pausedAt: formatTimestamp(now, offsetAt(now)), pausedMs: now, breakMinutes, warnings };
  return { pausedAt: (raw as string).trim(), pausedMs: ms, breakMinutes, warnings };
}

// ---------------------------------------------------------------------------------------------------------
// Pause and continue: the frontmatter updates, for updateFrontmatterFields

/** pause: records paused_at = now. Refused (`already_paused`) when the draft is paused. */
export function pauseUpdate(current: HonestFields, now: number, offsetAt: OffsetAt): Record<string, FieldValue> {
  if (current.pausedMs !== null) {
    const since = localClock(current.pausedMs, offsetAt);
    throw new UsageError(`the session is already paused (since ${since})`, "already_paused");
  }
  return { paused_at: formatTimestamp(now, offsetAt(now)) };
}

/**
 * continue: adds the pause to break_minutes, clears paused_at and is a checkpoint. Refused (`not_paused`)
 * when the draft is not paused.
 */
export function continueUpdate(
  current: HonestFields,
  now: number,
  offsetAt: OffsetAt,
): { updates: Record<string, FieldValue>; breakMinutes: number } {
  if (current.pausedMs === null) throw new UsageError("the session is not paused", "not_paused");
  const breakMinutes = current.breakMinutes + pauseMinutes(current.pausedMs, now);
  return {
    updates: { paused_at: null, break_minutes: breakMinutes, last_checkpoint_at: formatTimestamp(now, offsetAt(now)) },
    breakMinutes,
  };
}

/** Refusal of pause / continue when no session is open. */
export function nothingOpenError(action: "pause" | "continue"): UsageError {
  return new UsageError(`no session is open: nothing to ${action}`, "nothing_open");
}

// ---------------------------------------------------------------------------------------------------------
// Times given by the learner: HH:MM or ISO 8601

const CLOCK = /^(\d{1,2}):(\d{2})$/;

/**
 * The most recent moment at or before `notAfter` whose local wall-clock time is hh:mm. Correct across a
 * daylight-saving change: a wall time the clocks skipped that day is taken from the day before, and of a
 * wall time that happened twice the later past one wins.
 */
export function mostRecentWallClock(hour: number, minute: number, notAfter: number, offsetAt: OffsetAt): number {
  const local = new Date(notAfter + offsetAt(notAfter) * MINUTE_MS);
  let best: number | null = null;
  for (let back = 0; back <= 2 && best === null; back++) {
    const wall = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate() - back, hour, minute);
    // Every offset in force within a day of that wall time; keep the instants that really show it.
    const offsets = new Set<number>();
    for (let h = -26; h <= 26; h += 2) offsets.add(offsetAt(wall + h * HOUR_MS));
    for (const offset of offsets) {
      const instant = wall - offset * MINUTE_MS;
      if (offsetAt(instant) === offset && instant <= notAfter && (best === null || instant > best)) best = instant;
    }
  }
  // Unreachable with any real offset function (a wall time exists at least once in three days).
  return best ?? notAfter;
}

/**
 * A time typed by the learner: HH:MM (the most recent past moment, at or before `notAfter`) or ISO 8601
 * (without an offset: local time). null when it is neither, "25:99" included.
 */
export function parseGivenTime(text: string, notAfter: number, offsetAt: OffsetAt): number | null {
  const trimmed = text.trim();
  const clock = CLOCK.exec(trimmed);
  if (clock) {
    const hour = Number(clock[1]);
    const minute = Number(clock[2]);
    if (hour > 23 || minute > 59) return null;
    return mostRecentWallClock(hour, minute, notAfter, offsetAt);
  }
  return parseTimestamp(trimmed, offsetAt);
}

// ---------------------------------------------------------------------------------------------------------
// end: when the session ended

export interface EndAtSession {
  startedMs: number;
  /** Last checkpoint as recorded (null: none valid); the last sign of life is derived from it. */
  lastCheckpointMs: number | null;
  pausedMs: number | null;
  breakMinutes: number;
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
 * When an ended session ended (SPEC §4 "end at a chosen time"). `at`: undefined (not given), "now", "last"
 * (the last sign of life), HH:MM or ISO 8601. Not given: a paused session ends at paused_at; a silent one
 * (longer than the grace period and 2 h) is refused with `long_silence`; otherwise now. A given time before
 * the start, more than a minute in the future, or unreadable is refused with `invalid_time`.
 */
export function resolveEndAt(
  at: string | undefined,
  session: EndAtSession,
  now: number,
  graceMs: number,
  offsetAt: OffsetAt,
): EndAt {
  const lastSign = lastSignOf(session);
  const choice = at?.trim().toLowerCase();
  if (choice === undefined || choice === "") {
    if (session.pausedMs !== null) return endAtResult(session, Math.min(session.pausedMs, now), "paused");
    const silenceMs = now - lastSign;
    if (silenceMs > graceMs && silenceMs > LONG_SILENCE_MS) {
      throw longSilence(session.startedMs, lastSign, now, offsetAt);
    }
    return endAtResult(session, now, "now");
  }
  if (choice === "now") return endAtResult(session, now, "now");
  if (choice === "last") return endAtResult(session, Math.min(lastSign, now), "last");
  const given = parseGivenTime(at as string, now, offsetAt);
  if (given === null) {
    throw new UsageError(
      `"${(at as string).trim()}" is not a time: give now, last, HH:MM (00:00 to 23:59) or an ISO 8601 timestamp`,
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

/** The last sign of life of a session being ended: its start when nothing later was recorded. */
function lastSignOf(session: EndAtSession): number {
  return lastSignOfLife(session) ?? session.startedMs;
}

/** How long a session has been silent, for the end dialog and status ("No activity since 20:30, 12 h ago"). */
export function silenceOf(
  session: EndAtSession,
  now: number,
  offsetAt: OffsetAt,
): { lastSignMs: number; silenceMs: number; text: string } {
  const lastSignMs = lastSignOf(session);
  const silenceMs = Math.max(0, now - lastSignMs);
  const text = `No activity since ${describeInstant(lastSignMs, now, offsetAt)}, ${formatSpan(silenceMs)} ago`;
  return { lastSignMs, silenceMs, text };
}

/** The end dialog's preselected choice: paused_at, or the last activity once the silence exceeds the grace period. */
export function preselectedEnd(session: EndAtSession, now: number, graceMs: number): "paused" | "last" | "now" {
  if (session.pausedMs !== null) return "paused";
  const lastSignMs = lastSignOf(session);
  return now - lastSignMs > graceMs ? "last" : "now";
}

function longSilence(startedMs: number, lastSign: number, now: number, offsetAt: OffsetAt): LongSilenceError {
  const silenceMs = now - lastSign;
  const sessionMs = now - startedMs;
  const situation =
    `no activity since ${describeInstant(lastSign, now, offsetAt)} ` +
    `(${formatSpan(silenceMs)} ago; the session started ${formatSpan(sessionMs)} ago)`;
  return new LongSilenceError(
    situation,
    `${situation}: say when it ended with --at now, --at last or --at HH:MM`,
    silenceMs,
    sessionMs,
    formatTimestamp(lastSign, offsetAt(lastSign)),
  );
}

/**
 * Where a saved (interrupted) draft ends: at paused_at when paused, else its last checkpoint (now if none),
 * with the part of an open pause before that end added to its breaks (SPEC §4).
 */
export function savedEnd(session: EndAtSession, now: number): EndAt {
  if (session.pausedMs !== null) return endAtResult(session, Math.min(session.pausedMs, now), "paused");
  const last = session.lastCheckpointMs ?? now;
  return endAtResult(session, Math.max(session.startedMs, last), "last");
}

// ---------------------------------------------------------------------------------------------------------
// Time away

export interface AwayBreak {
  fromMs: number;
  toMs: number;
  minutes: number;
}

/**
 * The gap since the last sign of life (the later of the draft's last sign and this app's previous tick) as
 * a break, when it is longer than the grace period; null otherwise, and for a paused session (its pause
 * already excludes the gap) or a sign of life in the future.
 */
export function timeAway(lastSignMs: number, now: number, graceMs: number, paused = false): AwayBreak | null {
  if (paused || now - lastSignMs <= graceMs) return null;
  return { fromMs: lastSignMs, toMs: now, minutes: durationMinutes(lastSignMs, now) };
}

/**
 * The draft changes that record time away: the break, and a checkpoint now, in one write, so another device
 * (or the next tick) sees a recent sign of life and does not record the same gap again.
 */
export function awayUpdate(current: HonestFields, away: AwayBreak, offsetAt: OffsetAt): Record<string, FieldValue> {
  const checkpoint = formatTimestamp(away.toMs, offsetAt(away.toMs));
  return { break_minutes: recordAway(current.breakMinutes, away), last_checkpoint_at: checkpoint };
}

/** The draft change when the learner counts a recorded time away after all. */
export function countBackUpdate(current: HonestFields, away: AwayBreak): Record<string, FieldValue> {
  return { break_minutes: countAwayBack(current.breakMinutes, away) };
}

/** break_minutes after recording the time away. */
export function recordAway(breakMinutes: number, away: AwayBreak): number {
  return breakMinutes + away.minutes;
}

/** break_minutes after the learner chose to count the time away after all (the inverse of recordAway). */
export function countAwayBack(breakMinutes: number, away: AwayBreak): number {
  return Math.max(0, breakMinutes - away.minutes);
}

/** "Away 23:10–07:05, not counted" (local times; with dates when the gap is a day or longer). */
export function awayNotice(away: AwayBreak, offsetAt: OffsetAt): string {
  const long = away.toMs - away.fromMs >= 24 * HOUR_MS;
  const show = (at: number): string =>
    long ? formatTimestamp(at, offsetAt(at)).slice(0, 16).replace("T", " ") : localClock(at, offsetAt);
  return `Away ${show(away.fromMs)}–${show(away.toMs)}, not counted`;
}

// ---------------------------------------------------------------------------------------------------------
// Words

/** "23:10": the local wall-clock time of an instant. */
export function localClock(at: number, offsetAt: OffsetAt): string {
  return formatTimestamp(at, offsetAt(at)).slice(11, 16);
}

/** "20:30" on the day of `now`, else "2026-08-13 20:30". */
export function describeInstant(at: number, now: number, offsetAt: OffsetAt): string {
  const text = formatTimestamp(at, offsetAt(at));
  const sameDay = text.slice(0, 10) === formatTimestamp(now, offsetAt(now)).slice(0, 10);
  return sameDay ? text.slice(11, 16) : `${text.slice(0, 10)} ${text.slice(11, 16)}`;
}

/** "45 min", "12 h", "12 h 30 min" (whole minutes, rounded down; never negative). */
export function formatSpan(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / MINUTE_MS));
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (h === 0) return `${m} min`;
  return m === 0 ? `${h} h` : `${h} h ${m} min`;
}
