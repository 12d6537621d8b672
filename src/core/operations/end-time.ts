import type { EndAt, EndAtSession } from "../honest-time";
import type { OffsetAt } from "../time";
import { lastSignOfLife, resolveEndAt } from "../honest-time";

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

/** A time as the CLI's --at (or its question) gives it: "now", "last" (any case), else a time to read. */
export function endTimeOf(text: string): EndTime {
  const word = text.trim().toLowerCase();
  if (word === "now" || word === "last") return { kind: word };
  return { kind: "given", text };
}

/** When `session` ended at `time` (undefined: not given), with the breaks and duration to record. */
export function resolveEndTime(
  time: EndTime | undefined,
  session: EndAtSession,
  now: number,
  graceMs: number,
  offsetAt: OffsetAt,
): EndAt {
  if (time === undefined) return resolveEndAt(undefined, session, now, graceMs, offsetAt);
  if (time.kind === "given") return resolveEndAt(time.text, session, now, graceMs, offsetAt);
  if (time.kind === "now") return resolveEndAt("now", session, now, graceMs, offsetAt);
  const recorded = lastSignOfLife(session);
  const alive = time.aliveAt ?? null;
  const lastCheckpointMs = alive === null ? session.lastCheckpointMs : Math.max(alive, recorded ?? alive);
  return resolveEndAt("last", { ...session, lastCheckpointMs }, now, graceMs, offsetAt);
}
