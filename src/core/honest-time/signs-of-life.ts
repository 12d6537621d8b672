/** Signs of life (the start, checkpoints, the ends of each break, this app's ticks) and the time studied. */
import { FUTURE_SKEW_MS, MINUTE_MS } from "../time";
import type { BreakInterval } from "./breaks";

/** A session as the honest-time rules see it (docs/architecture.md, end). */
export interface EndAtSession {
  startedMs: number;
  /** Last checkpoint as recorded (null: none valid); the last sign of life is derived from it. */
  lastCheckpointMs: number | null;
  pausedMs: number | null;
  /** Its finished breaks, oldest first (Draft.breaks). */
  breaks: readonly BreakInterval[];
}

/**
 * The last sign of life: the latest of the start, the last checkpoint and the ends of each break (the session
 * was alive then: continue and time away are checkpoints); null when none is valid. A checkpoint more than a
 * minute after `now` is not a sign of life (a clock that was ahead, contract §4 end step 2); one less than a
 * minute ahead, or a break reaching past now, reads as now.
 */
export function lastSignOfLife(
  session: { startedMs: number | null; lastCheckpointMs: number | null; breaks?: readonly BreakInterval[] },
  now = Number.POSITIVE_INFINITY,
): number | null {
  const { startedMs, lastCheckpointMs } = session;
  const checkpoint =
    lastCheckpointMs === null || lastCheckpointMs - now > FUTURE_SKEW_MS ? null : Math.min(lastCheckpointMs, now);
  const breakEnds = (session.breaks ?? []).filter((b) => b.fromMs <= now).map((b) => Math.min(b.toMs, now));
  const signs = [startedMs, checkpoint, ...breakEnds].filter((ms): ms is number => ms !== null);
  return signs.length === 0 ? null : Math.max(...signs);
}

/** The last sign of life of a session being ended: its start when nothing later was recorded. */
export function lastSignOf(session: EndAtSession, now?: number): number {
  return lastSignOfLife(session, now) ?? session.startedMs;
}

/** A last checkpoint that is not a sign of life: more than a minute after `now` (a clock that was ahead). */
export function futureCheckpoint(session: { lastCheckpointMs: number | null }, now: number): number | null {
  const ms = session.lastCheckpointMs;
  return ms !== null && ms - now > FUTURE_SKEW_MS ? ms : null;
}

/** For the timer and status: time studied so far, frozen at `paused_at` while paused. */
export function studiedMs(
  session: { startedMs: number; breakMinutes: number; pausedMs: number | null },
  now: number,
): number {
  const until = session.pausedMs ?? now;
  return Math.max(0, until - session.startedMs - session.breakMinutes * MINUTE_MS);
}
